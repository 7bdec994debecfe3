/* render/graph.c — the communication graph as layout/graph.h lays it out
 * (Graphviz, for the window's area): goroutines as boxes with their names
 * inside, outlined in their state's colour at the playback time; edges
 * along Graphviz's splines, as wide as log(message count), with the counts
 * lay_graph_rects found room for; and the pulses of messages in flight
 * travelling along their edges. Labels are exactly lay_graph_rects's, so
 * no two overlap. Pan and zoom act in pixels around the laid-out picture. */
#include "rnd.h"

#include <math.h>

#define GRAPH_PULSES 4000u
#define CURVE_PTS 64u      /* polyline points per edge, at most */

typedef struct graph_ctx {
    rnd_renderer *r;
    const rnd_view *v;
    const rnd__theme *th;
    const lay_graph *g;
    float ox, oy, s;       /* screen = o + layout × s */
    uint32_t sel;          /* node of the selected goroutine, UINT32_MAX none */
} graph_ctx;

void rnd__graph_area(const rnd_renderer *r, const rnd_view *v, int w, int h, float *area)
{
    area[0] = 16.0f, area[2] = (float)w - 16.0f;
    area[1] = v->hud ? 40.0f : 64.0f;
    area[3] = fmaxf(area[1] + 10.0f, (float)h - (v->hud ? 40.0f : 34.0f) - rnd__legend_extra(r));
}

static bool node_shown(const graph_ctx *c, uint32_t node)
{
    return rnd__g_visible(c->r, c->v, c->g->nodes[node].g);
}

/* Edge i as a screen polyline (Bézier pieces sampled, then the arrow tip);
 * returns the number of points, *base = where the arrowhead starts. */
static uint32_t polyline(const graph_ctx *c, const lay_gedge *e, float *xy, uint32_t *base)
{
    const double *p = c->g->pts + 2 * (size_t)e->pt_first;
    uint32_t n = e->n_pts, nb = n ? (n - 1) / 3 * 3 + 1 : 0, pieces = nb / 3, out = 0;
    uint32_t per = pieces ? (CURVE_PTS - 2) / pieces : 0;
    per = per < 1 ? 1 : per > 12 ? 12 : per;
    if (nb < 4)
        return *base = 0, 0;
    xy[out++] = c->ox + (float)p[0] * c->s, xy[out++] = c->oy + (float)p[1] * c->s;
    for (uint32_t k = 0; k + 3 < nb && out / 2 + per < CURVE_PTS; k += 3) {
        const double *q = p + 2 * k;
        for (uint32_t j = 1; j <= per; j++) {
            double t = (double)j / per, u = 1 - t;
            double b0 = u * u * u, b1 = 3 * u * u * t, b2 = 3 * u * t * t, b3 = t * t * t;
            xy[out++] = c->ox + (float)(b0 * q[0] + b1 * q[2] + b2 * q[4] + b3 * q[6]) * c->s;
            xy[out++] = c->oy + (float)(b0 * q[1] + b1 * q[3] + b2 * q[5] + b3 * q[7]) * c->s;
        }
    }
    *base = out / 2 - 1;
    if (n > nb) {
        xy[out++] = c->ox + (float)p[2 * (n - 1)] * c->s;
        xy[out++] = c->oy + (float)p[2 * (n - 1) + 1] * c->s;
    }
    return out / 2;
}

static uint32_t edge_color(const graph_ctx *c, const lay_gedge *e)
{
    if (e->kind == LAY_ARROW_SPAWN)
        return c->th->spawn;
    if (e->kind == LAY_ARROW_SYNC)
        return c->th->sync;
    return c->th->hue[e->chan < c->r->m->n_chans ? c->r->tr.hue[e->chan] % LAY_CHAN_HUES : 0];
}

/* Points k .. n-1 of a polyline as dashes of on px drawn, off px left out. */
static void dashed(graph_ctx *c, const float *xy, uint32_t n, float on, float off, float w, uint32_t col)
{
    float phase = 0; /* distance into the current on+off period */
    for (uint32_t k = 0; k + 1 < n; k++) {
        float ax = xy[2 * k], ay = xy[2 * k + 1], dx = xy[2 * k + 2] - ax, dy = xy[2 * k + 3] - ay;
        float len = hypotf(dx, dy), at = 0;
        while (len > 0 && at < len) {
            float step = phase < on ? fminf(on - phase, len - at) : fminf(on + off - phase, len - at);
            if (phase < on)
                rnd__seg(&c->r->sc, RND__SEGS, ax + dx * at / len, ay + dy * at / len, 0, ax + dx * (at + step) / len,
                         ay + dy * (at + step) / len, 0, w, col);
            at += step, phase += step;
            if (phase >= on + off)
                phase = 0;
        }
    }
}

static void edges(graph_ctx *c)
{
    float xy[2 * CURVE_PTS];
    for (uint32_t i = 0; i < c->g->n_edges; i++) {
        const lay_gedge *e = &c->g->edges[i];
        uint32_t base, n = polyline(c, e, xy, &base);
        if (!n || !node_shown(c, e->from) || !node_shown(c, e->to))
            continue;
        uint32_t col = edge_color(c, e);
        if (c->sel != UINT32_MAX && e->from != c->sel && e->to != c->sel)
            col = rnd__dim(col, 0.75f, c->th->bg);
        if (c->v->now != CS_T_NONE)
            col = rnd__alpha(col, 0.5f);
        float w = (float)lay_graph_edge_width(e);
        if (e->kind == LAY_ARROW_SPAWN || e->kind == LAY_ARROW_CLOSE)
            dashed(c, xy, base + 1, 3.0f * w + 4.0f, 2.0f * w + 3.0f, w, col);
        else if (e->kind == LAY_ARROW_SYNC)
            dashed(c, xy, base + 1, 1.5f, 3.0f, w, col);
        else
            for (uint32_t k = 0; k < base; k++)
                rnd__seg(&c->r->sc, RND__SEGS, xy[2 * k], xy[2 * k + 1], 0, xy[2 * k + 2], xy[2 * k + 3], 0, w, col);
        if (n > base + 1)
            rnd__seg(&c->r->sc, RND__HEADS, xy[2 * base], xy[2 * base + 1], 0, xy[2 * n - 2], xy[2 * n - 1], 0,
                     6.0f + 1.5f * w, col);
        if (e->kind <= LAY_ARROW_CLOSE)
            c->r->stats.msgs_shown += e->count; /* an edge stands for all its messages */
    }
}

/* The channel edge from node a to node b, or UINT32_MAX. */
/* The point a fraction k of the way along a polyline. */
static void along(const float *xy, uint32_t n, float k, float *x, float *y)
{
    float total = 0;
    for (uint32_t i = 1; i < n; i++)
        total += hypotf(xy[2 * i] - xy[2 * i - 2], xy[2 * i + 1] - xy[2 * i - 1]);
    float want = total * fminf(fmaxf(k, 0.0f), 1.0f);
    *x = xy[0], *y = xy[1];
    for (uint32_t i = 1; i < n; i++) {
        float l = hypotf(xy[2 * i] - xy[2 * i - 2], xy[2 * i + 1] - xy[2 * i - 1]);
        if (want <= l && l > 0) {
            *x = xy[2 * i - 2] + (xy[2 * i] - xy[2 * i - 2]) * want / l;
            *y = xy[2 * i - 1] + (xy[2 * i + 1] - xy[2 * i - 1]) * want / l;
            return;
        }
        want -= l;
        *x = xy[2 * i], *y = xy[2 * i + 1];
    }
}

static void pulses(graph_ctx *c)
{
    const rnd_view *v = c->v;
    if (v->now == CS_T_NONE)
        return;
    const uint32_t *nog = c->g->node_of_g;
    int64_t back = (int64_t)(v->speed * 0.6) + 1;
    /* the messages sent in the last pulse's time (wake-ups have none) */
    uint32_t lo = rnd__arrow_lower(c->r, v->now - back).msg, hi = rnd__arrow_lower(c->r, v->now + 1).msg;
    uint32_t step = hi - lo > GRAPH_PULSES ? (hi - lo) / GRAPH_PULSES + 1 : 1;
    float xy[2 * CURVE_PTS];
    for (uint32_t i = lo; i < hi; i += step) {
        rnd__arrow arrow;
        const rnd__arrow *a = &arrow;
        if (!rnd__arrow_get(c->r, i + 1, &arrow) || !rnd__arrow_flying(c->r->m, v, a) || nog[a->from] == UINT32_MAX ||
            nog[a->to] == UINT32_MAX || !node_shown(c, nog[a->from]) || !node_shown(c, nog[a->to]))
            continue;
        uint32_t ei = lay_graph_edge_find(c->g, a->kind, nog[a->from], nog[a->to], rnd__arrow_chan(c->r->m, a)), base;
        if (ei == UINT32_MAX)
            continue;
        uint32_t n = polyline(c, &c->g->edges[ei], xy, &base);
        if (!n)
            continue;
        float x, y;
        along(xy, n, rnd__arrow_progress(c->r->m, v, a), &x, &y);
        uint32_t col = rnd__arrow_color(c->r, c->th, a);
        rnd__seg(&c->r->sc, RND__DOTS, x, y, 0, x, y, 0, 10.0f, rnd__alpha(col, 0.45f));
        rnd__seg(&c->r->sc, RND__DOTS, x, y, 0, x, y, 0, 5.5f, c->th->pulse);
    }
}

static int state_at(const cs_model *m, uint32_t gi, int64_t t)
{
    const cs_goroutine *g = &m->g[gi];
    uint32_t s = cs_model_span_after(m, g, t);
    if (s >= g->span_first + g->span_count || cs_span_t0(m, s) > t)
        return -1;
    return lay_mark_of(cs_span_state(m, s), cs_span_reason(m, s));
}

static void nodes(graph_ctx *c)
{
    const cs_model *m = c->r->m;
    int64_t t = c->v->now != CS_T_NONE ? c->v->now : m->t_last != CS_T_NONE ? m->t_last - 1 : CS_T_NONE;
    const lay_grect *rc = c->r->graph.rect;
    for (uint32_t i = 0; i < c->g->n_nodes; i++) {
        if (!node_shown(c, i))
            continue;
        float x0 = c->ox + (float)rc[i].x0, y0 = c->oy + (float)rc[i].y0;
        float x1 = c->ox + (float)rc[i].x1, y1 = c->oy + (float)rc[i].y1, ym = 0.5f * (y0 + y1);
        int st = state_at(m, c->g->nodes[i].g, t);
        uint32_t col = st >= 0 ? c->th->mark[st] : c->th->fg_dim;
        if (c->sel != UINT32_MAX && i != c->sel && !rnd__g_lit(c->r, c->v, c->g->nodes[i].g))
            col = rnd__dim(col, 0.7f, c->th->bg);
        uint32_t edge = i == c->sel ? c->th->select : col;
        float bw = i == c->sel ? 3.0f : 2.0f;
        rnd__seg(&c->r->sc, RND__SEGS, x0, ym, 0, x1, ym, 0, y1 - y0, rnd__dim(col, 0.82f, c->th->bg));
        rnd__seg(&c->r->sc, RND__SEGS, x0, y0, 0, x1, y0, 0, bw, edge);
        rnd__seg(&c->r->sc, RND__SEGS, x0, y1, 0, x1, y1, 0, bw, edge);
        rnd__seg(&c->r->sc, RND__SEGS, x0, y0 - bw / 2, 0, x0, y1 + bw / 2, 0, bw, edge);
        rnd__seg(&c->r->sc, RND__SEGS, x1, y0 - bw / 2, 0, x1, y1 + bw / 2, 0, bw, edge);
        float *s = &c->r->scr[4 * c->g->nodes[i].g]; /* picking: the box's middle line */
        s[0] = x0, s[1] = s[3] = ym, s[2] = x1;
    }
}

/* The biggest atlas size no bigger than the rectangle's em size (so every
 * label of one size looks alike and fits the width it was measured for),
 * never under 12 px of pixel height (10.3 px of em). Pixel height is
 * ascent to descent, 2384/2048 of the em in DejaVu Sans. */
static int font_for(const lay_grect *rc)
{
    static const float px[RND__NFONT] = {11, 12, 14, 16, 18, 20, 22, 24};
    int best = RND__F12;
    for (int k = RND__F12 + 1; k < RND__NFONT; k++)
        if (px[k] * 2048.0f / 2384.0f <= 1.02f * (float)rc->font_px)
            best = k;
    return best;
}

static void labels(graph_ctx *c)
{
    rnd__graph *gr = &c->r->graph;
    for (uint32_t i = c->g->n_nodes; i < gr->n_rect; i++) {
        const lay_grect *rc = &gr->rect[i];
        char buf[32];
        const char *text = buf;
        uint32_t col = c->th->fg;
        if (rc->kind == LAY_RECT_LABEL) {
            if (!node_shown(c, rc->idx))
                continue;
            text = lay_graph_label(c->g, rc->idx);
            if (c->sel != UINT32_MAX && rc->idx != c->sel && !rnd__g_lit(c->r, c->v, c->g->nodes[rc->idx].g))
                col = rnd__dim(col, 0.6f, c->th->bg);
        } else {
            const lay_gedge *e = &c->g->edges[rc->idx];
            if (!node_shown(c, e->from) || !node_shown(c, e->to))
                continue;
            lay_graph_edge_text(e, buf, sizeof buf);
            col = c->th->fg_dim;
            float ym = c->oy + 0.5f * (float)(rc->y0 + rc->y1); /* a backing so the edge under it does not cross the digits */
            rnd__seg(&c->r->sc, RND__SEGS, c->ox + (float)rc->x0, ym, 0, c->ox + (float)rc->x1, ym, 0,
                     (float)(rc->y1 - rc->y0), rnd__alpha(c->th->bg, 0.8f));
        }
        int size = font_for(rc);
        float tw = rnd__text_width(&c->r->font, size, text);
        float cx = c->ox + 0.5f * (float)(rc->x0 + rc->x1), cy = c->oy + 0.5f * (float)(rc->y0 + rc->y1);
        /* centred: the pixel height (ascent to descent) is ascent × 2384/1901 in DejaVu Sans */
        float base = cy + c->r->font.ascent[size] * (1.0f - 0.5f * 2384.0f / 1901.0f);
        rnd__text(&c->r->sc, &c->r->font, size, floorf(cx - 0.5f * tw), floorf(base), col, text);
    }
}

void rnd__graph_build(rnd_renderer *r, const rnd_view *v, int w, int h)
{
    graph_ctx c = {.r = r, .v = v, .th = rnd__theme_get(v->theme), .g = &r->graph.g, .sel = UINT32_MAX};
    float a[4];
    rnd__graph_area(r, v, w, h, a);
    c.s = (float)lay_graph_scale(c.g, a[2] - a[0], a[3] - a[1]) * (v->dist > 0 ? 1.0f / v->dist : 1.0f);
    c.ox = 0.5f * (a[0] + a[2]) - 0.5f * (float)c.g->width * c.s + v->pan_x;
    c.oy = 0.5f * (a[1] + a[3]) - 0.5f * (float)c.g->height * c.s + v->pan_y;
    if (v->selected && v->selected < r->m->n_g)
        c.sel = c.g->node_of_g[v->selected];
    if (r->graph.rect_scale != (double)c.s) {
        r->graph.n_rect = lay_graph_rects(c.g, c.s, r->graph.rect);
        r->graph.rect_scale = c.s;
    }
    rnd__ortho_px(r->sc.mvp, w, h);
    uint32_t n = 0;
    r->row_lanes = false;
    for (uint32_t i = 1; i < r->m->n_g; i++) {
        uint32_t node = c.g->node_of_g[i];
        r->row[i] = node != UINT32_MAX && node_shown(&c, node) ? (int32_t)node : -1;
        n += r->row[i] >= 0;
        r->scr[4 * i] = -1;
    }
    r->stats.lanes = n;
    edges(&c);
    pulses(&c);
    nodes(&c);
    labels(&c);
}
