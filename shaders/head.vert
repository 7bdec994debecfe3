#version 330 core
// shaders/head.vert — one instanced filled arrowhead: a triangle whose tip is
// at b, pointing along a→b, `w` pixels long. Three vertices per instance.
// Smoothed (fringe 0.5), each side is pushed half a pixel out, and every
// vertex carries its distances from the three sides of the true triangle
// (pixels, positive inside): they vary linearly over the screen, so
// head.frag gets each pixel centre's distances and covers the pixel by the
// nearest side, without multisampling. With fringe 0, the true triangle.
layout(location = 0) in vec3 a;
layout(location = 1) in vec3 b;
layout(location = 2) in float w;
layout(location = 3) in vec4 color;
uniform mat4 mvp;
uniform vec2 viewport;
uniform float fringe;             // pixels each side moves out: 0.5, or 0 unsmoothed
out vec4 v_color;
noperspective out vec3 v_inside;

// the unit normal of side p→q that points away from point o
vec2 outward(vec2 p, vec2 q, vec2 o)
{
    vec2 e = q - p;
    vec2 n = length(e) > 1e-6 ? normalize(vec2(-e.y, e.x)) : vec2(0.0, 1.0);
    return dot(o - p, n) > 0.0 ? -n : n;
}

void main()
{
    vec4 ca = mvp * vec4(a, 1.0);
    vec4 cb = mvp * vec4(b, 1.0);
    vec2 half_vp = 0.5 * viewport;
    vec2 d = (cb.xy / cb.w - ca.xy / ca.w) * half_vp;
    float len = length(d);
    vec2 dir = len > 1e-4 ? d / len : vec2(0.0, -1.0);
    vec2 nrm = vec2(-dir.y, dir.x);
    vec2 p[3] = vec2[3](vec2(0.0), -dir * w + nrm * (0.45 * w), -dir * w - nrm * (0.45 * w));
    vec2 mid = (p[0] + p[1] + p[2]) / 3.0;
    vec2 o[3] = vec2[3](outward(p[0], p[1], mid), outward(p[1], p[2], mid), outward(p[2], p[0], mid));
    int i = gl_VertexID;
    // the vertex's two sides, each moved out by the fringe: the vertex
    // moves along their mitre, o_a + o_b over 1 + o_a·o_b
    vec2 oa = o[(i + 2) % 3], ob = o[i];
    vec2 off = p[i] + fringe * (oa + ob) / max(1.0 + dot(oa, ob), 0.05);
    gl_Position = vec4(cb.xy + off / half_vp * cb.w, cb.zw);
    v_color = color;
    v_inside = vec3(dot(p[0] - off, o[0]), dot(p[1] - off, o[1]), dot(p[2] - off, o[2]));
}
