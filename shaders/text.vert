#version 330 core
// shaders/text.vert — one instanced glyph quad in screen pixels (origin top
// left) with its rectangle in the font atlas. Six vertices per instance.
layout(location = 0) in vec4 rect;   // x0 y0 x1 y1, pixels
layout(location = 1) in vec4 uvrect; // s0 t0 s1 t1
layout(location = 2) in vec4 color;
uniform mat4 proj;
out vec2 v_uv;
out vec4 v_color;

void main()
{
    int i = gl_VertexID;
    vec2 k = vec2((i == 1 || i == 2 || i == 4) ? 1.0 : 0.0,
                  (i == 2 || i == 4 || i == 5) ? 1.0 : 0.0);
    gl_Position = proj * vec4(mix(rect.xy, rect.zw, k), 0.0, 1.0);
    v_uv = mix(uvrect.xy, uvrect.zw, k);
    v_color = color;
}
