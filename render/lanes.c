/* render/lanes.c — the 2D lanes view: time left → right, one lane per
 * goroutine (thin line for its life, bars by state), spawn links, message
 * arrows with filled heads, pulses in flight, GC bands, labels and the time
 * axis. Everything is built in screen pixels.
 *
 * Level of detail keeps the work bounded by the screen, not the trace:
 * spans narrower than a column are summed per column and drawn as the
 * column's dominant style; neighbours of one style merge into one bar;
 * lanes thinner than a pixel share a row (first one drawn); arrows beyond a
 * budget are bundled per (column, row pair). */
#include "rnd.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define SPAN_BUDGET 60000u   /* span columns per frame before columns widen */
#define ARROW_BUDGET 6000u   /* arrows per frame before bundling */

typedef struct lanes_ctx {
    rnd_renderer *r;
    const rnd_view *v;
    const rnd__theme *th;
    float x0, x1, y0, y1, lane_h, col_px;
    int64_t t0, t1, t_end;   /* window and the drawing limit (now) */
    double px_per_ns;
} lanes_ctx;

static float tx(const lanes_ctx *c, int64_t t)
{
    return c->x0 + (float)((double)(t - c->t0) * c->px_per_ns);
}

static float row_y(const lanes_ctx *c, int32_t row)
{
    return c->y0 + ((float)row + 0.5f) * c->lane_h - c->v->scroll_px;
}

typedef struct lane_run {
    const lanes_ctx *c;
    float y;
    bool lit;
} lane_run;

static void bar(void *ctx, int style, int64_t ta, int64_t tb)
{
    const lane_run *lr = ctx;
    const lanes_ctx *c = lr->c;
    uint32_t col = c->th->mark[style];
    bool keep = lr->lit && (c->v->highlight != RND_HL_BLOCKED || style == LAY_MARK_BLOCK_CHAN ||
                            style == LAY_MARK_BLOCK_SYNC);
    if (c->v->highlight == RND_HL_CHAN || c->v->highlight == RND_HL_SPAWNS)
        keep = false;
    if (!keep)
        col = rnd__dim(col, 0.7f, c->th->bg);
    float w = fmaxf(1.0f, c->lane_h * lay_mark_thickness(style));
    float x0 = tx(c, ta), x1 = fmaxf(tx(c, tb), x0 + 1.0f);
    rnd__seg(&c->r->sc, RND__SEGS, x0, lr->y, 0, x1, lr->y, 0, w, col);
}

static void lane_spans(const lanes_ctx *c, uint32_t gi, float y, bool lit)
{
    lane_run lr = {c, y, lit};
    int64_t col_ns = (int64_t)((double)c->col_px / c->px_per_ns);
    rnd__span_runs(c->r->m, gi, c->t0, c->t_end, col_ns, bar, &lr);
}

static void lane_life(const lanes_ctx *c, uint32_t gi, float y, bool lit)
{
    const cs_goroutine *g = &c->r->m->g[gi];
    int64_t a = g->create_ns != CS_T_NONE ? g->create_ns : c->r->m->t_first;
    int64_t b = g->end_ns != CS_T_NONE ? g->end_ns : c->r->m->t_last;
    a = a > c->t0 ? a : c->t0;
    b = b < c->t_end ? b : c->t_end;
    if (b <= a)
        return;
    uint32_t col = lit ? c->th->fg_dim : rnd__dim(c->th->fg_dim, 0.6f, c->th->bg);
    rnd__seg(&c->r->sc, RND__SEGS, tx(c, a), y, 0, tx(c, b), y, 0, 1.0f, col);
    if (g->end_ns != CS_T_NONE && g->end_ns <= c->t_end && g->end_ns <= c->t1)
        rnd__seg(&c->r->sc, RND__SEGS, tx(c, b), y - 0.3f * c->lane_h, 0, tx(c, b),
                 y + 0.3f * c->lane_h, 0, 1.0f, col);
}

static void spawn_link(const lanes_ctx *c, uint32_t gi)
{
    const cs_goroutine *g = &c->r->m->g[gi];
    int32_t pr = g->parent ? c->r->row[g->parent] : -1;
    if (pr < 0 || g->create_ns == CS_T_NONE || (g->flags & CS_G_AT_START) ||
        g->create_ns < c->t0 || g->create_ns > c->t1 || g->create_ns > c->t_end)
        return;
    float x = tx(c, g->create_ns), ya = row_y(c, pr), yb = row_y(c, c->r->row[gi]);
    uint32_t col = c->th->spawn;
    if (c->v->highlight == RND_HL_SPAWNS)
        col = c->th->fg;
    else if (c->v->highlight != RND_HL_NONE)
        col = rnd__dim(col, 0.6f, c->th->bg);
    float dir = yb > ya ? 1.0f : -1.0f;
    rnd__seg(&c->r->sc, RND__SEGS, x, ya, 0, x, yb - dir * 0.3f * c->lane_h, 0, 1.0f, col);
    rnd__seg(&c->r->sc, RND__HEADS, x, ya, 0, x, yb - dir * 0.3f * c->lane_h, 0, 5.0f, col);
}

/* Arrow from (xa,ya) to the edge of the receiver's lane at (xb,yb). */
static void one_arrow(const lanes_ctx *c, const rnd__arrow *a, float xa, float ya, float xb, float yb)
{
    float dy = yb > ya ? 1.0f : yb < ya ? -1.0f : 0.0f;
    float A[3] = {xa, ya, 0}, B[3] = {xb, yb - dy * 0.25f * c->lane_h, 0};
    rnd__arrow_draw(c->r, c->v, a, A, B, fminf(9.0f, fmaxf(5.0f, 0.6f * c->lane_h)));
}

/* Bundles arrows when too many are visible: one per (column, from row, to
 * row), remembered in a small open-addressing set. */
static void lane_arrows(lanes_ctx *c)
{
    rnd_renderer *r = c->r;
    uint32_t lo = rnd__arrow_lower(r, c->t0 - (int64_t)((double)(c->t1 - c->t0) * 0.02));
    uint32_t hi = rnd__arrow_lower(r, (c->t_end < c->t1 ? c->t_end : c->t1) + 1);
    float bundle_px = hi - lo > ARROW_BUDGET ? 2.0f : 0.0f;
    static uint64_t set[1 << 14];
    if (bundle_px > 0)
        memset(set, 0, sizeof set);
    uint32_t shown = 0;
    for (uint32_t i = lo; i < hi; i++) {
        const rnd__arrow *a = &r->arrows[i];
        int32_t fr = r->row[a->from], to = r->row[a->to];
        if (fr < 0 || to < 0 || a->t1 < c->t0)
            continue;
        float xa = tx(c, a->t0), xb = tx(c, a->t1);
        if (bundle_px > 0) {
            uint64_t key = ((uint64_t)(uint32_t)(xa / bundle_px) << 40) ^ ((uint64_t)fr << 20) ^ (uint64_t)to;
            key = key * 0x9E3779B97F4A7C15ull | 1;
            uint32_t h = (uint32_t)(key >> 50), probes = 0;
            while (set[h] && set[h] != key && probes++ < 16)
                h = (h + 1) & ((1 << 14) - 1);
            if (set[h] == key || probes >= 16)
                continue;
            set[h] = key;
        }
        one_arrow(c, a, xa, row_y(c, fr), xb, row_y(c, to));
        shown++;
    }
    r->stats.msgs_shown = shown;
}

static void gc_bands(const lanes_ctx *c)
{
    const cs_model *m = c->r->m;
    float last = -1;
    for (uint32_t i = 0; i < m->n_ranges; i++) {
        const cs_range *g = &m->ranges[i];
        if ((g->kind != CS_RK_GC && g->kind != CS_RK_STW) || g->t1 < c->t0 || g->t0 > c->t_end)
            continue;
        float a = tx(c, g->t0 > c->t0 ? g->t0 : c->t0), b = tx(c, g->t1 < c->t_end ? g->t1 : c->t_end);
        if (b < last + 1.0f)
            continue;
        last = b;
        float ym = 0.5f * (c->y0 + c->y1);
        rnd__seg(&c->r->sc, RND__SEGS, a, ym, 0, fmaxf(b, a + 1.0f), ym, 0, c->y1 - c->y0, c->th->gc);
    }
}

/* Rows for the goroutines shown; thinner-than-a-pixel lanes share a row. */
static uint32_t assign_rows(rnd_renderer *r, const rnd_view *v)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < r->m->n_g; i++)
        r->row[i] = -1;
    for (uint32_t k = 0; k < r->n_order; k++)
        if (rnd__g_visible(r, v, r->order[k]))
            r->row[r->order[k]] = (int32_t)n++;
    return n;
}

static void lane_label(const lanes_ctx *c, uint32_t gi, float y, bool lit)
{
    char buf[160];
    const rnd__font *f = &c->r->font;
    rnd__g_label(c->r, gi, buf, sizeof buf);
    float room = c->x0 - 14.0f;
    size_t len = strlen(buf);
    if (rnd__text_width(f, RND__F12, buf) > room) {
        while (len > 1) {
            len--;
            while (len > 1 && ((unsigned char)buf[len] & 0xC0) == 0x80)
                len--;
            memcpy(buf + len, "\xE2\x80\xA6", 4); /* "…" and the NUL */
            if (rnd__text_width(f, RND__F12, buf) <= room)
                break;
        }
    }
    uint32_t col = gi == c->v->selected ? c->th->select : lit ? c->th->fg : c->th->fg_dim;
    rnd__text(&c->r->sc, f, RND__F12, 8.0f, floorf(y + 4.0f), col, buf);
}

static void lanes_geometry(lanes_ctx *c, rnd_renderer *r, const rnd_view *v, int w, int h, uint32_t nrows)
{
    c->r = r, c->v = v, c->th = rnd__theme_get(v->theme);
    c->x0 = fminf(240.0f, fmaxf(90.0f, 0.16f * (float)w));
    c->x1 = (float)w - 18.0f;
    c->y0 = v->hud ? 34.0f : 58.0f;
    c->y1 = (float)h - (v->hud ? 64.0f : 72.0f);
    float fit = (c->y1 - c->y0) / (float)(nrows ? nrows : 1);
    c->lane_h = v->lane_px > 0 ? v->lane_px : fminf(fmaxf(36.0f, 0.1f * (float)h), fit);
    if (v->lane_px <= 0 && nrows) /* few lanes: the axis follows the last one */
        c->y1 = fminf(c->y1, c->y0 + c->lane_h * (float)nrows + 8.0f);
    c->t0 = v->t0, c->t1 = v->t1 > v->t0 ? v->t1 : v->t0 + 1;
    c->t_end = v->now == CS_T_NONE ? c->t1 : (v->now < c->t1 ? v->now : c->t1);
    c->px_per_ns = (double)(c->x1 - c->x0) / (double)(c->t1 - c->t0);
    r->plot_x0 = c->x0, r->plot_x1 = c->x1, r->plot_y0 = c->y0, r->lane_h = c->lane_h;
    r->vt0 = c->t0, r->vt1 = c->t1;
    r->sc.clip[0] = c->x0 - 1, r->sc.clip[1] = c->y0 - 2, r->sc.clip[2] = c->x1 + 12;
    r->sc.clip[3] = c->y1 + 2;
}

/* Column width for span summaries: wide enough that the spans in view fit
 * the budget (counted with two binary searches per lane). */
static void pick_columns(lanes_ctx *c)
{
    const cs_model *m = c->r->m;
    uint64_t est = 0;
    for (uint32_t k = 0; k < c->r->n_order; k++) {
        uint32_t gi = c->r->order[k];
        if (c->r->row[gi] < 0)
            continue;
        const cs_goroutine *g = &m->g[gi];
        est += rnd__span_lower(m, g, c->t_end) - rnd__span_lower(m, g, c->t0);
    }
    c->col_px = 1.0f;
    while (est / (uint64_t)c->col_px > SPAN_BUDGET && c->col_px < 16.0f)
        c->col_px *= 2.0f;
}

void rnd__lanes_build(rnd_renderer *r, const rnd_view *v, int w, int h)
{
    uint32_t nrows = assign_rows(r, v);
    lanes_ctx c;
    lanes_geometry(&c, r, v, w, h, nrows);
    pick_columns(&c);
    rnd__ortho_px(r->sc.mvp, w, h);
    gc_bands(&c);
    float last_py = -1e9f;
    for (uint32_t k = 0; k < r->n_order; k++) {
        uint32_t gi = r->order[k];
        if (r->row[gi] < 0)
            continue;
        float y = row_y(&c, r->row[gi]);
        if (y < c.y0 - c.lane_h || y > c.y1 + c.lane_h || floorf(y) == last_py)
            continue;
        last_py = floorf(y);
        bool lit = rnd__g_lit(r, v, gi);
        lane_life(&c, gi, y, lit);
        lane_spans(&c, gi, y, lit);
    }
    for (uint32_t k = 0; k < r->n_order; k++)
        if (r->row[r->order[k]] >= 0)
            spawn_link(&c, r->order[k]);
    lane_arrows(&c);
    if (v->now != CS_T_NONE && v->now >= c.t0 && v->now <= c.t1)
        rnd__line(&r->sc, tx(&c, v->now), c.y0, tx(&c, v->now), c.y1, 1.0f,
                  rnd__alpha(c.th->fg, 0.5f));
    float gap = 0;
    for (uint32_t k = 0; k < r->n_order; k++) {
        uint32_t gi = r->order[k];
        float y = r->row[gi] >= 0 ? row_y(&c, r->row[gi]) : -1e9f;
        if (y < c.y0 || y > c.y1 || y - gap < 13.0f)
            continue;
        gap = y;
        lane_label(&c, gi, y, rnd__g_lit(r, v, gi));
    }
    rnd__axis(r, v, c.x0, c.x1, c.y1 + 4.0f, c.t0, c.t1, r->m->t_first);
    r->stats.lanes = nrows;
    r->legend_y = c.y1 + 52.0f;
}

static uint32_t row_goroutine(const rnd_renderer *r, int32_t row)
{
    for (uint32_t k = 0; k < r->n_order; k++)
        if (r->row[r->order[k]] == row)
            return r->order[k];
    return 0;
}

/* The goroutine, span and arrow under (x, y) in the last lanes frame. */
void rnd__lanes_pick(const rnd_renderer *r, const rnd_view *v, float x, float y, rnd_hit *out)
{
    *out = (rnd_hit){.span = UINT32_MAX, .t = CS_T_NONE};
    if (r->lane_h <= 0 || y < r->plot_y0)
        return;
    int32_t row = (int32_t)floorf((y - r->plot_y0 + v->scroll_px) / r->lane_h);
    double ns_per_px = (double)(r->vt1 - r->vt0) / (double)(r->plot_x1 - r->plot_x0);
    int64_t t = r->vt0 + (int64_t)((double)(x - r->plot_x0) * ns_per_px);
    out->t = x >= r->plot_x0 ? t : CS_T_NONE;
    out->g = row_goroutine(r, row);
    if (out->g && out->t != CS_T_NONE) {
        const cs_goroutine *g = &r->m->g[out->g];
        uint32_t s = rnd__span_lower(r->m, g, t);
        if (s < g->span_first + g->span_count && r->m->span_t0[s] <= t)
            out->span = s;
    }
    if (out->t == CS_T_NONE)
        return;
    int64_t slack = (int64_t)(5.0 * ns_per_px);
    for (uint32_t i = rnd__arrow_lower(r, t - slack); i < r->n_arrows && r->arrows[i].t0 <= t + slack; i++) {
        const rnd__arrow *a = &r->arrows[i];
        int32_t fr = r->row[a->from], to = r->row[a->to];
        if (fr < 0 || to < 0 || a->t1 != a->t0)
            continue;
        int32_t lo = fr < to ? fr : to, hi = fr < to ? to : fr;
        if (row >= lo && row <= hi) {
            out->arrow = i + 1;
            return;
        }
    }
}
