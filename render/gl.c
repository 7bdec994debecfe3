/* render/gl.c — the only file that talks to OpenGL about programs and
 * buffers: compiles the embedded shaders (errors name the shader file),
 * keeps one instance buffer for marks and one for glyphs, and draws a scene
 * with one instanced call per mark kind. Needs a current 3.3 core context. */
#include "rnd.h"
#include "shaders.h"

#include <cglm/cglm.h>
#include <string.h>

static GLuint compile(GLenum type, const char *src, const char *file, cs_err *err)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[120] = "";
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        glDeleteShader(s);
        CS_FAIL(err, CS_E_GL, CS_NO_OFFSET, "shaders/%s: %s", file, log);
        return 0;
    }
    return s;
}

static GLuint program(const char *vs_src, const char *vs_file, const char *fs_src,
                      const char *fs_file, cs_err *err)
{
    GLuint vs = compile(GL_VERTEX_SHADER, vs_src, vs_file, err);
    GLuint fs = vs ? compile(GL_FRAGMENT_SHADER, fs_src, fs_file, err) : 0;
    if (!fs) {
        glDeleteShader(vs);
        return 0;
    }
    GLuint p = glCreateProgram();
    glAttachShader(p, vs);
    glAttachShader(p, fs);
    glLinkProgram(p);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[120] = "";
        glGetProgramInfoLog(p, sizeof log, NULL, log);
        glDeleteProgram(p);
        CS_FAIL(err, CS_E_GL, CS_NO_OFFSET, "linking shaders/%s + %s: %s", vs_file, fs_file, log);
        return 0;
    }
    return p;
}

static void mark_attribs(size_t base)
{
    const GLsizei st = sizeof(rnd__mark);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, st, (void *)(base + offsetof(rnd__mark, a)));
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, st, (void *)(base + offsetof(rnd__mark, b)));
    glVertexAttribPointer(2, 1, GL_FLOAT, GL_FALSE, st, (void *)(base + offsetof(rnd__mark, w)));
    glVertexAttribPointer(3, 4, GL_UNSIGNED_BYTE, GL_TRUE, st, (void *)(base + offsetof(rnd__mark, rgba)));
}

static void make_vaos(rnd__gl *g)
{
    glGenVertexArrays(1, &g->vao_mark);
    glGenBuffers(1, &g->vbo_mark);
    glBindVertexArray(g->vao_mark);
    glBindBuffer(GL_ARRAY_BUFFER, g->vbo_mark);
    for (GLuint i = 0; i < 4; i++) {
        glEnableVertexAttribArray(i);
        glVertexAttribDivisor(i, 1);
    }
    mark_attribs(0);
    glGenVertexArrays(1, &g->vao_glyph);
    glGenBuffers(1, &g->vbo_glyph);
    glBindVertexArray(g->vao_glyph);
    glBindBuffer(GL_ARRAY_BUFFER, g->vbo_glyph);
    const GLsizei st = sizeof(rnd__glyph);
    for (GLuint i = 0; i < 3; i++) {
        glEnableVertexAttribArray(i);
        glVertexAttribDivisor(i, 1);
    }
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, st, (void *)offsetof(rnd__glyph, rect));
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, st, (void *)offsetof(rnd__glyph, uv));
    glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, st, (void *)offsetof(rnd__glyph, rgba));
    glBindVertexArray(0);
}

bool rnd__gl_init(rnd__gl *g, cs_err *err)
{
    memset(g, 0, sizeof *g);
    g->prog[0] = program(rnd_shader_seg_vert, "seg.vert", rnd_shader_seg_frag, "seg.frag", err);
    g->prog[1] = program(rnd_shader_head_vert, "head.vert", rnd_shader_head_frag, "head.frag", err);
    g->prog[2] = program(rnd_shader_dot_vert, "dot.vert", rnd_shader_dot_frag, "dot.frag", err);
    g->prog[3] = program(rnd_shader_text_vert, "text.vert", rnd_shader_text_frag, "text.frag", err);
    g->prog[4] = program(rnd_shader_text_vert, "text.vert", rnd_shader_img_frag, "img.frag", err);
    if (!g->prog[0] || !g->prog[1] || !g->prog[2] || !g->prog[3] || !g->prog[4]) {
        rnd__gl_deinit(g);
        return false;
    }
    for (int i = 0; i < 3; i++) {
        g->mvp[i] = glGetUniformLocation(g->prog[i], "mvp");
        g->vp[i] = glGetUniformLocation(g->prog[i], "viewport");
    }
    for (int i = 0; i < 2; i++)
        g->fringe[i] = glGetUniformLocation(g->prog[i], "fringe");
    g->text_proj = glGetUniformLocation(g->prog[3], "proj");
    make_vaos(g);
    return true;
}

void rnd__gl_deinit(rnd__gl *g)
{
    for (int i = 0; i < 5; i++)
        if (g->prog[i])
            glDeleteProgram(g->prog[i]);
    if (g->img_tex)
        glDeleteTextures(1, &g->img_tex);
    if (g->vao_mark) {
        GLuint vao[2] = {g->vao_mark, g->vao_glyph}, vbo[2] = {g->vbo_mark, g->vbo_glyph};
        glDeleteVertexArrays(2, vao);
        glDeleteBuffers(2, vbo);
    }
    memset(g, 0, sizeof *g);
}

static void draw_kind(rnd__gl *g, int prog, const float *mvp, int w, int h, size_t base,
                      uint32_t n, int verts)
{
    if (!n)
        return;
    glUseProgram(g->prog[prog]);
    glUniformMatrix4fv(g->mvp[prog], 1, GL_FALSE, mvp);
    glUniform2f(g->vp[prog], (float)w, (float)h);
    mark_attribs(base);
    glDrawArraysInstanced(GL_TRIANGLES, 0, verts, (GLsizei)n);
}

/* The dense-lanes image: uploaded when new, drawn as one textured quad. */
static void draw_image(rnd__gl *g, const rnd__scene *s, const float *px)
{
    if (!g->img_tex) {
        glGenTextures(1, &g->img_tex);
        glBindTexture(GL_TEXTURE_2D, g->img_tex);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    }
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, g->img_tex);
    if (s->img_new) {
        glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, s->img_w, s->img_h, 0, GL_RGBA, GL_UNSIGNED_BYTE, s->img);
    }
    glBindVertexArray(g->vao_glyph);
    glBindBuffer(GL_ARRAY_BUFFER, g->vbo_glyph);
    glBufferData(GL_ARRAY_BUFFER, sizeof s->img_quad, &s->img_quad, GL_STREAM_DRAW);
    glUseProgram(g->prog[4]);
    glUniformMatrix4fv(glGetUniformLocation(g->prog[4], "proj"), 1, GL_FALSE, px);
    glUniform1i(glGetUniformLocation(g->prog[4], "img"), 0);
    glDrawArraysInstanced(GL_TRIANGLES, 0, 6, 1);
    glBindVertexArray(g->vao_mark);
    glBindBuffer(GL_ARRAY_BUFFER, g->vbo_mark);
}

/* Uploads every kind into one buffer, then draws world kinds with the
 * scene's mvp and UI kinds and text with a pixel projection. */
/* Glyphs [first, first + n) of the scene. */
static void draw_glyphs(rnd__gl *g, const rnd__scene *s, GLuint font_tex, const float *px, uint32_t first,
                        uint32_t n)
{
    if (!n)
        return;
    glBindVertexArray(g->vao_glyph);
    glBindBuffer(GL_ARRAY_BUFFER, g->vbo_glyph);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(n * sizeof(rnd__glyph)), s->gl + first, GL_STREAM_DRAW);
    glUseProgram(g->prog[3]);
    glUniformMatrix4fv(g->text_proj, 1, GL_FALSE, px);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, font_tex);
    glUniform1i(glGetUniformLocation(g->prog[3], "atlas"), 0);
    glDrawArraysInstanced(GL_TRIANGLES, 0, 6, (GLsizei)n);
}

void rnd__gl_draw(rnd__gl *g, const rnd__scene *s, GLuint font_tex, int w, int h, bool smooth)
{
    for (int i = 0; i < 2; i++) { /* seg.vert's and head.vert's smoothing: half a pixel, or none */
        glUseProgram(g->prog[i]);
        glUniform1f(g->fringe[i], smooth ? 0.5f : 0.0f);
    }
    size_t total = 0, off[RND__NKIND];
    for (int k = 0; k < RND__NKIND; k++) {
        off[k] = total;
        total += (size_t)s->k[k].n * sizeof(rnd__mark);
    }
    mat4 px;
    glm_ortho(0.0f, (float)w, (float)h, 0.0f, -1.0f, 1.0f, px);
    glEnable(GL_BLEND);
    /* colour blends over what is there; alpha stays 1 where it was (the clear),
     * so a frame read back is opaque */
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glDisable(GL_DEPTH_TEST);
    glBindVertexArray(g->vao_mark);
    glBindBuffer(GL_ARRAY_BUFFER, g->vbo_mark);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(total ? total : 32), NULL, GL_STREAM_DRAW);
    for (int k = 0; k < RND__NKIND; k++)
        if (s->k[k].n)
            glBufferSubData(GL_ARRAY_BUFFER, (GLintptr)off[k],
                            (GLsizeiptr)(s->k[k].n * sizeof(rnd__mark)), s->k[k].v);
    if (s->clip[2] > s->clip[0]) {
        /* a picture too small for its header and legend leaves a plot of
           no height: the scissor is then empty (a negative size is an error) */
        float ch = s->clip[3] > s->clip[1] ? s->clip[3] - s->clip[1] : 0;
        glEnable(GL_SCISSOR_TEST);
        glScissor((GLint)s->clip[0], h - (GLint)s->clip[3], (GLsizei)(s->clip[2] - s->clip[0]), (GLsizei)ch);
    }
    if (s->img)
        draw_image(g, s, px[0]);
    draw_kind(g, 0, s->mvp, w, h, off[RND__SEGS], s->k[RND__SEGS].n, 6);
    draw_kind(g, 1, s->mvp, w, h, off[RND__HEADS], s->k[RND__HEADS].n, 3);
    draw_kind(g, 2, s->mvp, w, h, off[RND__DOTS], s->k[RND__DOTS].n, 6);
    glDisable(GL_SCISSOR_TEST);
    /* the UI layer in two passes: marks then text below the pop-ups, then
       the pop-ups' marks and text (rnd__scene_top) */
    uint32_t n_ui = s->k[RND__UI_SEGS].n;
    uint32_t top_ui = s->top_ui < n_ui ? s->top_ui : n_ui, top_gl = s->top_gl < s->n_gl ? s->top_gl : s->n_gl;
    draw_kind(g, 0, px[0], w, h, off[RND__UI_SEGS], top_ui, 6);
    draw_glyphs(g, s, font_tex, px[0], 0, top_gl);
    if (top_ui < n_ui) {
        glBindVertexArray(g->vao_mark);
        glBindBuffer(GL_ARRAY_BUFFER, g->vbo_mark);
        draw_kind(g, 0, px[0], w, h, off[RND__UI_SEGS] + top_ui * sizeof(rnd__mark), n_ui - top_ui, 6);
    }
    draw_glyphs(g, s, font_tex, px[0], top_gl, s->n_gl - top_gl);
    glBindVertexArray(0);
}
