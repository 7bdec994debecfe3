#version 330 core
// shaders/seg.vert — one instanced segment a→b, `w` pixels wide, expanded to
// a quad in screen space after projection (core profile has no wide lines).
// Six vertices per instance, two triangles; no vertex buffer, only instances.
// Smoothed (fringe 0.5), the quad is half a pixel wider on each side than
// the segment, and seg.frag covers each pixel by its distance from the
// centre line: the segment's sides are antialiased without multisampling
// (ends are not: segments that continue one another meet there). With
// fringe 0 the quad is the segment, every pixel inside it covered.
layout(location = 0) in vec3 a;
layout(location = 1) in vec3 b;
layout(location = 2) in float w;
layout(location = 3) in vec4 color;
uniform mat4 mvp;
uniform vec2 viewport;
uniform float fringe;             // pixels added each side: 0.5, or 0 unsmoothed
out vec4 v_color;
noperspective out float v_across; // pixels from the centre line, signed
flat out float v_half;            // half the width, pixels

void main()
{
    vec4 ca = mvp * vec4(a, 1.0);
    vec4 cb = mvp * vec4(b, 1.0);
    vec2 half_vp = 0.5 * viewport;
    vec2 d = (cb.xy / cb.w - ca.xy / ca.w) * half_vp;
    float len = length(d);
    vec2 dir = len > 1e-4 ? d / len : vec2(1.0, 0.0);
    float reach = 0.5 * w + fringe;
    vec2 nrm = vec2(-dir.y, dir.x) * reach;
    int i = gl_VertexID;
    float along = (i == 1 || i == 2 || i == 4) ? 1.0 : 0.0;
    float side = (i == 2 || i == 4 || i == 5) ? 1.0 : -1.0;
    vec4 c = mix(ca, cb, along);
    gl_Position = vec4(c.xy + nrm * side / half_vp * c.w, c.zw);
    v_color = color;
    v_across = side * reach;
    v_half = 0.5 * w;
}
