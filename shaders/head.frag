#version 330 core
// shaders/head.frag — an arrowhead's colour times the share of the pixel it
// covers, from the pixel centre's distance to the nearest side (head.vert):
// a pixel half in is half covered. Unsmoothed (fringe 0), whole.
uniform float fringe;
in vec4 v_color;
noperspective in vec3 v_inside;
out vec4 frag;

void main()
{
    float cover = fringe > 0.0 ? clamp(min(min(v_inside.x, v_inside.y), v_inside.z) + 0.5, 0.0, 1.0) : 1.0;
    frag = vec4(v_color.rgb, v_color.a * cover);
}
