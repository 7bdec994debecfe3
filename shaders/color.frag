#version 330 core
// shaders/color.frag — flat colour for segments and arrowheads.
in vec4 v_color;
out vec4 frag;

void main()
{
    frag = v_color;
}
