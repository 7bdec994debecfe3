/* render/frame.c — the renderer's lifetime and one frame: rnd_create
 * packs the font, rnd_model_attach derives placement and arrows
 * (traffic.c) from the model (no GL: it may run on a worker thread while
 * the window draws the loading screen); rnd_frame_build lets the current
 * view and the overlay build the scene on the CPU, rnd_frame_show clears
 * and hands it to gl.c, which the first frame shown sets up (shaders, the
 * font's texture), so a still picture is laid out before the GL stack is
 * loaded. */
#include "rnd.h"

#include <string.h>

/* What the model's spans, spawns and GC give the legend (its traffic's
 * arrows are rnd__traffic_build's). */
static uint32_t present_spans(const cs_model *m)
{
    uint32_t present = 0;
    for (uint32_t st = 0; st < CS_ST_COUNT; st++)
        for (uint32_t r = 0; r < CS_R_COUNT; r++)
            if (m->span_kinds[st] >> r & 1)
                present |= 1u << lay_mark_of((cs_state)st, (cs_reason)r);
    for (uint32_t i = 1; i < m->n_g; i++)
        if (m->g[i].parent && !(m->g[i].flags & CS_G_AT_START))
            present |= RND__PRESENT_SPAWNS;
    for (uint32_t i = 0; i < m->n_ranges; i++)
        if (cs_range_drawn(m->ranges[i].kind))
            present |= RND__PRESENT_GC;
    return present;
}

static bool attach(rnd_renderer *r, const cs_model *m, bool arrows, cs_err *err)
{
    r->m = m;
    /* m's characters go to font_next: font may be drawing a loading screen meanwhile */
    if (!rnd__font_follow(&r->font, &r->font_next, m, err))
        return false;
    rnd_traffic t = {0};
    bool ok = rnd__place(r, err) && rnd__traffic_build(m, arrows, &t, err);
    if (ok) {
        r->present = present_spans(m);
        rnd__traffic_install(r, m, &t);
        r->stats.g_total = m->n_g ? m->n_g - 1 : 0;
    }
    rnd__traffic_deinit(&t);
    return ok;
}

static rnd_renderer *create(const cs_model *m, bool arrows, cs_err *err)
{
    rnd_renderer *r = cs_calloc(1, sizeof *r);
    if (!r) {
        CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory");
        return NULL;
    }
    if (!rnd__font_init(&r->font, m, err) || (m && !attach(r, m, arrows, err))) {
        rnd_destroy(r);
        return NULL;
    }
    return r;
}

rnd_renderer *rnd_create(const cs_model *m, cs_err *err) { return create(m, true, err); }
rnd_renderer *rnd_create_still(const cs_model *m, cs_err *err) { return create(m, false, err); }
bool rnd_model_attach(rnd_renderer *r, const cs_model *m, cs_err *err) { return attach(r, m, true, err); }

void rnd_destroy(rnd_renderer *r)
{
    if (!r)
        return;
    if (r->gl_ready)
        rnd__gl_deinit(&r->gl);
    rnd__font_deinit(&r->font);
    rnd__font_drop(&r->font_next);
    rnd__scene_free(&r->sc);
    cs_free(r->lc.segs.v), cs_free(r->lc.heads.v), cs_free(r->lc.img), cs_free(r->lc.lane_lit);
    rnd__lay_deinit(&r->lay);
    cs_free(r->order), cs_free(r->label_order), cs_free(r->row);
    cs_free(r->tree_xz), cs_free(r->lines), cs_free(r->line_t0);
    rnd__graph_deinit(&r->graph);
    rnd__traffic_deinit(&r->tr);
    cs_free(r->lit), cs_free(r->filt), cs_free(r->scr);
    cs_free(r);
}

void rnd_view_defaults(const cs_model *m, rnd_view *out)
{
    memset(out, 0, sizeof *out);
    out->t0 = m->t_first;
    out->t1 = m->t_last > m->t_first ? m->t_last : m->t_first + 1;
    out->now = CS_T_NONE;
    out->yaw = 0.6f;
    out->pitch = 0.35f;
    out->dist = 1.0f;
    out->speed = (double)(out->t1 - out->t0) / 10.0; /* the whole trace in 10 s */
}

void rnd_view_inside(const cs_model *m, rnd_view *v)
{
    int64_t lo = m->t_first, hi = m->t_last, w = v->t1 - v->t0;
    if (lo == CS_T_NONE || hi <= lo) /* no events, or one instant: the default window stays */
        return;
    if (w >= hi - lo)
        v->t0 = lo, v->t1 = hi;
    else if (v->t0 < lo)
        v->t0 = lo, v->t1 = lo + w;
    else if (v->t1 > hi)
        v->t1 = hi, v->t0 = hi - w;
}

bool rnd_frame_build(rnd_renderer *r, const rnd_view *v, int w, int h, cs_err *err)
{
    /* a still renderer's first frame with a playback time */
    if (v->now != CS_T_NONE && !r->tr.next.d && !rnd__traffic_table(r, err))
        return false;
    if (r->font_next.cp) /* the model's characters: drawn from now on, uploaded when shown */
        rnd__font_take(&r->font, &r->font_next);
    r->frame_w = w;
    r->legend_shown = NULL; /* till the frame has its bundles (rnd__lay_lod) */
    r->legend_rows = rnd__legend_rows(r, v, h); /* before any view takes its area */
    if (v->layout != RND_LANES && !rnd__marks_place(r, err))
        return false;
    if (v->layout == RND_GRAPH && !rnd__graph_place(r, v, w, h, err))
        return false;
    if (!rnd__filter_update(r, v, err))
        return false;
    rnd__scene_reset(&r->sc);
    rnd__lit_update(r, v);
    r->stats.msgs_shown = r->stats.rows = r->stats.gaps = 0;
    r->legend_y = 0;
    r->arrow_fade = 1.0f; /* the lanes view sets it when its arrows crowd */
    if (v->layout == RND_TREE)
        rnd__tree_build(r, v, w, h);
    else if (v->layout == RND_GRAPH)
        rnd__graph_build(r, v, w, h);
    else
        rnd__lanes_build(r, v, w, h);
    rnd__overlay_build(r, v, w, h);
    if (r->lay.err.code) {
        *err = r->lay.err;
        r->lay.err = (cs_err){0};
        return false;
    }
    r->stats.segs = r->sc.k[RND__SEGS].n + r->sc.k[RND__UI_SEGS].n;
    r->stats.heads = r->sc.k[RND__HEADS].n;
    r->stats.dots = r->sc.k[RND__DOTS].n;
    r->stats.glyphs = r->sc.n_gl;
    return true;
}

bool rnd_frame_show(rnd_renderer *r, const rnd_view *v, int w, int h, cs_err *err)
{
    return rnd__frame_submit(r, rnd__theme_get(v->theme), w, h, !v->rough, err);
}

bool rnd_frame_draw(rnd_renderer *r, const rnd_view *v, int w, int h, cs_err *err)
{
    return rnd_frame_build(r, v, w, h, err) && rnd_frame_show(r, v, w, h, err);
}

bool rnd__frame_submit(rnd_renderer *r, const rnd__theme *th, int w, int h, bool smooth, cs_err *err)
{
    if (r->sc.oom)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory building a frame");
    if (!r->gl_ready) {
        if (!rnd__gl_init(&r->gl, err))
            return false;
        if (!rnd__font_upload(&r->font, err)) {
            rnd__gl_deinit(&r->gl);
            return false;
        }
        r->gl_ready = true;
    } else if (r->font.pixels && !rnd__font_upload(&r->font, err)) {
        return false;
    }
    glClearColor((float)(th->bg >> 24) / 255.0f, (float)((th->bg >> 16) & 255) / 255.0f,
                 (float)((th->bg >> 8) & 255) / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    rnd__gl_draw(&r->gl, &r->sc, r->font.tex, w, h, smooth);
    GLenum e = glGetError();
    if (e != GL_NO_ERROR)
        return CS_FAIL(err, CS_E_GL, CS_NO_OFFSET, "OpenGL error 0x%x drawing a frame", e);
    return true;
}

const rnd_stats *rnd_last_stats(const rnd_renderer *r)
{
    return &r->stats;
}
