#version 330 core
// shaders/seg.frag — a segment's colour times the share of the pixel it
// covers across its width: the overlap of the pixel's one-pixel span
// [d - 0.5, d + 0.5] with the segment's [-half, half] (d: the pixel
// centre's distance from the centre line, seg.vert). Exact for a segment
// along a pixel axis, and a hairline thinner than a pixel comes out as
// faint as it is thin. Unsmoothed (fringe 0), whole.
uniform float fringe;
in vec4 v_color;
noperspective in float v_across;
flat in float v_half;
out vec4 frag;

void main()
{
    float cover = fringe > 0.0 ? clamp(min(v_half, v_across + 0.5) - max(-v_half, v_across - 0.5), 0.0, 1.0)
                               : 1.0;
    frag = vec4(v_color.rgb, v_color.a * cover);
}
