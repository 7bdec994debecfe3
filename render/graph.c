/* render/graph.c — the communication graph: goroutines as discs (sized by
 * traffic, coloured by their state at the playback time), message traffic
 * between each pair as one edge whose width grows with log(count), and the
 * pulses of messages in flight travelling along the edges. Node positions
 * come from layout/graph.h (Graphviz); goroutines without traffic are left
 * out. Pan and zoom act in pixels. */
#include "rnd.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define GRAPH_PULSES 4000u

typedef struct graph_ctx {
    rnd_renderer *r;
    const rnd_view *v;
    const rnd__theme *th;
    float cx, cy, size;
} graph_ctx;

static void node_xy(const graph_ctx *c, uint32_t gi, float *x, float *y)
{
    *x = c->cx + (c->r->graph_xy[2 * gi] - 0.5f) * c->size;
    *y = c->cy + (c->r->graph_xy[2 * gi + 1] - 0.5f) * c->size;
}

/* End points of the edge a → b, shortened to the discs and shifted sideways
 * so a → b and b → a do not overlap. */
static void edge_ends(const graph_ctx *c, uint32_t a, uint32_t b, float *A, float *B)
{
    float ax, ay, bx, by;
    node_xy(c, a, &ax, &ay);
    node_xy(c, b, &bx, &by);
    float dx = bx - ax, dy = by - ay, len = fmaxf(1e-3f, hypotf(dx, dy));
    float ux = dx / len, uy = dy / len, nx = -uy * 4.0f, ny = ux * 4.0f, inset = 12.0f;
    A[0] = ax + ux * inset + nx, A[1] = ay + uy * inset + ny, A[2] = 0;
    B[0] = bx - ux * inset + nx, B[1] = by - uy * inset + ny, B[2] = 0;
}

static int state_at(const cs_model *m, uint32_t gi, int64_t t)
{
    const cs_goroutine *g = &m->g[gi];
    uint32_t s = cs_model_span_after(m, g, t);
    if (s >= g->span_first + g->span_count || m->span_t0[s] > t)
        return -1;
    return lay_mark_of((cs_state)m->span_state[s], (cs_reason)m->span_reason[s]);
}

static void edges(graph_ctx *c)
{
    for (uint32_t p = 0; p < c->r->n_pairs; p++) {
        const rnd__pair *e = &c->r->pairs[p];
        if (c->r->row[e->from] < 0 || c->r->row[e->to] < 0 || e->from == e->to)
            continue;
        float A[3], B[3];
        edge_ends(c, e->from, e->to, A, B);
        rnd__arrow a = {.from = e->from, .to = e->to, .chan = e->chan};
        uint32_t col = rnd__arrow_color(c->r, c->th, &a);
        if (!rnd__arrow_lit(c->r, c->v, &a))
            col = rnd__dim(col, 0.75f, c->th->bg);
        if (c->v->now != CS_T_NONE)
            col = rnd__alpha(col, 0.5f);
        float w = 1.0f + 1.2f * log2f((float)e->count + 1.0f);
        rnd__seg(&c->r->sc, RND__SEGS, A[0], A[1], 0, B[0], B[1], 0, w, col);
        rnd__seg(&c->r->sc, RND__HEADS, A[0], A[1], 0, B[0], B[1], 0, 7.0f + w, col);
        c->r->stats.msgs_shown += e->count; /* an edge stands for all its messages */
        if (c->v->now == CS_T_NONE) {
            char buf[16];
            snprintf(buf, sizeof buf, "%u", e->count);
            rnd__text(&c->r->sc, &c->r->font, RND__F11, 0.5f * (A[0] + B[0]) + 4, 0.5f * (A[1] + B[1]) - 4,
                      c->th->fg_dim, buf);
        }
    }
}

static void pulses(graph_ctx *c)
{
    const rnd_view *v = c->v;
    if (v->now == CS_T_NONE)
        return;
    int64_t back = (int64_t)(v->speed * 0.6) + 1;
    uint32_t lo = rnd__arrow_lower(c->r, v->now - back), hi = rnd__arrow_lower(c->r, v->now + 1);
    uint32_t step = hi - lo > GRAPH_PULSES ? (hi - lo) / GRAPH_PULSES + 1 : 1;
    for (uint32_t i = lo; i < hi; i += step) {
        const rnd__arrow *a = &c->r->arrows[i];
        if (a->kind == LAY_ARROW_SYNC || c->r->row[a->from] < 0 || c->r->row[a->to] < 0 || a->from == a->to)
            continue;
        float A[3], B[3];
        edge_ends(c, a->from, a->to, A, B);
        rnd__arrow_draw(c->r, v, a, A, B, 0.0f, NULL);
    }
}

static void nodes(graph_ctx *c)
{
    const cs_model *m = c->r->m;
    int64_t t = c->v->now == CS_T_NONE ? m->t_last : c->v->now;
    for (uint32_t k = 0; k < c->r->n_order; k++) {
        uint32_t gi = c->r->order[k];
        if (c->r->row[gi] < 0)
            continue;
        float x, y;
        node_xy(c, gi, &x, &y);
        int st = state_at(m, gi, t - (c->v->now == CS_T_NONE));
        uint32_t col = st >= 0 ? c->th->mark[st] : c->th->fg_dim;
        if (!rnd__g_lit(c->r, c->v, gi))
            col = rnd__dim(col, 0.7f, c->th->bg);
        if (gi == c->v->selected)
            rnd__seg(&c->r->sc, RND__DOTS, x, y, 0, x, y, 0, 11.0f, c->th->select);
        rnd__seg(&c->r->sc, RND__DOTS, x, y, 0, x, y, 0, 8.0f, col);
        float *s = &c->r->scr[4 * gi];
        s[0] = s[2] = x, s[1] = s[3] = y;
        char buf[96];
        rnd__g_label(c->r, gi, buf, sizeof buf);
        if (c->r->stats.lanes < 200 || gi == c->v->selected)
            rnd__text(&c->r->sc, &c->r->font, RND__F11, x + 12, y + 4, c->th->fg, buf);
    }
}

void rnd__graph_build(rnd_renderer *r, const rnd_view *v, int w, int h)
{
    graph_ctx c = {.r = r, .v = v, .th = rnd__theme_get(v->theme)};
    float top = v->hud ? 34.0f : 58.0f, bottom = v->hud ? 30.0f : 30.0f;
    c.size = fminf((float)w - 260.0f, (float)h - top - bottom - 40.0f) * (v->dist > 0 ? 1.0f / v->dist : 1.0f);
    c.cx = (float)w * 0.5f + v->pan_x;
    c.cy = top + ((float)h - top - bottom) * 0.5f + v->pan_y;
    rnd__ortho_px(r->sc.mvp, w, h);
    uint32_t n = 0;
    for (uint32_t i = 1; i < r->m->n_g; i++) {
        r->row[i] = r->graph_xy[2 * i] >= 0 && rnd__g_visible(r, v, i) ? (int32_t)n++ : -1;
        r->scr[4 * i] = -1;
    }
    r->stats.lanes = n;
    edges(&c);
    pulses(&c);
    nodes(&c);
}
