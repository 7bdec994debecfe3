#version 330 core
// shaders/img.frag — an RGBA image drawn on a quad (text.vert places it):
// the lanes view's per-pixel summary of lanes thinner than a few pixels.
in vec2 v_uv;
in vec4 v_color;
uniform sampler2D img;
out vec4 frag;

void main()
{
    frag = texture(img, v_uv) * v_color;
}
