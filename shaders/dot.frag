#version 330 core
// shaders/dot.frag — a disc with a one-pixel soft edge; v_px is the offset
// from the centre in pixels, v_radius the disc's radius.
in vec4 v_color;
in vec2 v_px;
flat in float v_radius;
out vec4 frag;

void main()
{
    float alpha = clamp(v_radius + 0.5 - length(v_px), 0.0, 1.0);
    if (alpha <= 0.0)
        discard;
    frag = vec4(v_color.rgb, v_color.a * alpha);
}
