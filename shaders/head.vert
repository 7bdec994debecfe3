#version 330 core
// shaders/head.vert — one instanced filled arrowhead: a triangle whose tip is
// at b, pointing along a→b, `w` pixels long. Three vertices per instance.
layout(location = 0) in vec3 a;
layout(location = 1) in vec3 b;
layout(location = 2) in float w;
layout(location = 3) in vec4 color;
uniform mat4 mvp;
uniform vec2 viewport;
out vec4 v_color;

void main()
{
    vec4 ca = mvp * vec4(a, 1.0);
    vec4 cb = mvp * vec4(b, 1.0);
    vec2 half_vp = 0.5 * viewport;
    vec2 d = (cb.xy / cb.w - ca.xy / ca.w) * half_vp;
    float len = length(d);
    vec2 dir = len > 1e-4 ? d / len : vec2(0.0, -1.0);
    vec2 nrm = vec2(-dir.y, dir.x);
    vec2 off = vec2(0.0);
    if (gl_VertexID == 1)
        off = -dir * w + nrm * (0.45 * w);
    else if (gl_VertexID == 2)
        off = -dir * w - nrm * (0.45 * w);
    gl_Position = vec4(cb.xy + off / half_vp * cb.w, cb.zw);
    v_color = color;
}
