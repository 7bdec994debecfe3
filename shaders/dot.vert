#version 330 core
// shaders/dot.vert — one instanced disc centred on a, radius `w` pixels
// (pulses, graph nodes). Six vertices per instance; dot.frag rounds it.
layout(location = 0) in vec3 a;
layout(location = 1) in vec3 b;
layout(location = 2) in float w;
layout(location = 3) in vec4 color;
uniform mat4 mvp;
uniform vec2 viewport;
out vec4 v_color;
out vec2 v_px;
flat out float v_radius;

void main()
{
    vec4 ca = mvp * vec4(a, 1.0);
    int i = gl_VertexID;
    vec2 uv = vec2((i == 1 || i == 2 || i == 4) ? 1.0 : -1.0,
                   (i == 2 || i == 4 || i == 5) ? 1.0 : -1.0);
    float r = w + 1.0;
    gl_Position = vec4(ca.xy + uv * r / (0.5 * viewport) * ca.w, ca.zw);
    v_px = uv * r;
    v_radius = w;
    v_color = color;
}
