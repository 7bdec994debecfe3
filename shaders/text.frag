#version 330 core
// shaders/text.frag — glyph coverage from the GL_R8 atlas used as alpha.
in vec2 v_uv;
in vec4 v_color;
uniform sampler2D atlas;
out vec4 frag;

void main()
{
    frag = vec4(v_color.rgb, v_color.a * texture(atlas, v_uv).r);
}
