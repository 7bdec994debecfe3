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
#define ARROW_BUDGET 2000u   /* arrows per window: more are bundled and sampled */

typedef struct lanes_ctx {
    rnd_renderer *r;
    const rnd_view *v;
    const rnd__theme *th;
    float x0, x1, y0, y1, lane_h, col_px;
    int64_t t0, t1, t_end;   /* window and the drawing limit (now) */
    double px_per_ns;
    uint8_t *img;            /* dense lanes: paint here instead of emitting bars */
    int img_w, img_h;
} lanes_ctx;

#define DENSE_PX 3.0f        /* lanes thinner than this are painted per pixel */

/* A horizontal bar from x0 to x1 centred on y, w pixels tall: a segment,
 * or painted into the dense-lanes image (one quad for all lanes, so the
 * cost does not grow with the number of thin lanes). */
static void hbar(const lanes_ctx *c, float x0, float x1, float y, float w, uint32_t col)
{
    if (!c->img) {
        rnd__seg(&c->r->sc, RND__SEGS, x0, y, 0, x1, y, 0, w, col);
        return;
    }
    int ya = (int)floorf(y - c->y0 - 0.5f * w), yb = (int)ceilf(y - c->y0 + 0.5f * w);
    int xa = (int)floorf(x0 - c->x0), xb = (int)ceilf(x1 - c->x0);
    ya = ya < 0 ? 0 : ya, yb = yb > c->img_h ? c->img_h : yb;
    xa = xa < 0 ? 0 : xa, xb = xb > c->img_w ? c->img_w : xb;
    yb = yb > ya ? yb : (ya < c->img_h ? ya + 1 : ya);
    for (int iy = ya; iy < yb; iy++) {
        uint8_t *p = c->img + ((size_t)iy * (size_t)c->img_w + (size_t)xa) * 4;
        for (int ix = xa; ix < xb; ix++, p += 4)
            p[0] = (uint8_t)(col >> 24), p[1] = (uint8_t)(col >> 16), p[2] = (uint8_t)(col >> 8), p[3] = 255;
    }
}

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
    hbar(c, x0, x1, lr->y, w, col);
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
    uint32_t col = lit ? c->th->life : rnd__dim(c->th->life, 0.6f, c->th->bg);
    hbar(c, tx(c, a), tx(c, b), y, 1.0f, col);
    if (!c->img && g->end_ns != CS_T_NONE && g->end_ns <= c->t_end && g->end_ns <= c->t1)
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
    if (c->img) { /* dense: a one-pixel column in the image, no head */
        int ix = (int)floorf(x - c->x0), y0 = (int)floorf(fminf(ya, yb) - c->y0), y1 = (int)ceilf(fmaxf(ya, yb) - c->y0);
        y0 = y0 < 0 ? 0 : y0, y1 = y1 > c->img_h ? c->img_h : y1;
        for (int iy = y0; ix >= 0 && ix < c->img_w && iy < y1; iy++) {
            uint8_t *p = c->img + ((size_t)iy * (size_t)c->img_w + (size_t)ix) * 4;
            p[0] = (uint8_t)(col >> 24), p[1] = (uint8_t)(col >> 16), p[2] = (uint8_t)(col >> 8), p[3] = 255;
        }
        return;
    }
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

/* Chooses the arrows of the whole window: all of them when few, else one
 * per (column, from row, to row) over an evenly strided sample, at most
 * ARROW_BUDGET, remembered in a small open-addressing set. */
static void arrows_choose(lanes_ctx *c)
{
    rnd_renderer *r = c->r;
    rnd__lane_cache *lc = &r->lc;
    uint32_t lo = rnd__arrow_lower(r, c->t0 - (int64_t)((double)(c->t1 - c->t0) * 0.02));
    uint32_t hi = rnd__arrow_lower(r, c->t1 + 1);
    uint32_t budget = r->lc.dense ? ARROW_BUDGET / 2 : ARROW_BUDGET; /* thin lanes show less */
    bool bundle = hi - lo > budget;
    uint32_t stride = hi - lo > budget ? (hi - lo) / budget : 1;
    static uint64_t set[1 << 14];
    if (bundle)
        memset(set, 0, sizeof set);
    lc->n_arrows = 0;
    for (uint32_t i = lo; i < hi && lc->n_arrows < budget; i += stride) {
        const rnd__arrow *a = &r->arrows[i];
        int32_t fr = r->row[a->from], to = r->row[a->to];
        if (fr < 0 || to < 0 || a->t1 < c->t0)
            continue;
        if (bundle) {
            uint64_t key = ((uint64_t)(uint32_t)(tx(c, a->t0) / 2.0f) << 40) ^ ((uint64_t)fr << 20) ^ (uint64_t)to;
            key = key * 0x9E3779B97F4A7C15ull | 1;
            uint32_t h = (uint32_t)(key >> 50), probes = 0;
            while (set[h] && set[h] != key && probes++ < 16)
                h = (h + 1) & ((1 << 14) - 1);
            if (set[h] == key || probes >= 16)
                continue;
            set[h] = key;
        }
        cs_err e = {0};
        if (!cs_grow((void **)&lc->arrows, &lc->cap_arrows, lc->n_arrows + 1, sizeof *lc->arrows, &e)) {
            r->sc.oom = true;
            return;
        }
        lc->arrows[lc->n_arrows++] = i;
    }
}

static void arrows_draw(lanes_ctx *c)
{
    rnd_renderer *r = c->r;
    uint32_t shown = 0;
    for (uint32_t k = 0; k < r->lc.n_arrows; k++) {
        const rnd__arrow *a = &r->arrows[r->lc.arrows[k]];
        if (a->t0 > c->t_end)
            continue;
        one_arrow(c, a, tx(c, a->t0), row_y(c, r->row[a->from]), tx(c, a->t1), row_y(c, r->row[a->to]));
        shown++;
    }
    r->stats.msgs_shown = shown;
}

static void gc_band(const lanes_ctx *c, float a, float b)
{
    float ym = 0.5f * (c->y0 + c->y1);
    rnd__seg(&c->r->sc, RND__SEGS, a, ym, 0, fmaxf(b, a + 1.0f), ym, 0, c->y1 - c->y0, c->th->gc);
}

/* GC and stop-the-world as translucent full-height bands; bands closer
 * than a few pixels merge, so a GC-heavy stretch is one band, not hundreds. */
static void gc_bands(const lanes_ctx *c)
{
    const cs_model *m = c->r->m;
    float pa = 0, pb = -1e9f;
    for (uint32_t i = 0; i < m->n_ranges; i++) {
        const cs_range *g = &m->ranges[i];
        if ((g->kind != CS_RK_GC && g->kind != CS_RK_STW) || g->t1 < c->t0 || g->t0 > c->t_end)
            continue;
        float a = tx(c, g->t0 > c->t0 ? g->t0 : c->t0), b = tx(c, g->t1 < c->t_end ? g->t1 : c->t_end);
        if (a <= pb + 3.0f && a >= pa) {
            pb = fmaxf(pb, b);
            continue;
        }
        if (pb > -1e8f)
            gc_band(c, pa, pb);
        pa = a, pb = b;
    }
    if (pb > -1e8f)
        gc_band(c, pa, pb);
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
    c->img = NULL, c->img_w = c->img_h = 0;
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

static void lanes_marks(lanes_ctx *c)
{
    rnd_renderer *r = c->r;
    gc_bands(c);
    float last_py = -1e9f;
    for (uint32_t k = 0; k < r->n_order; k++) {
        uint32_t gi = r->order[k];
        if (r->row[gi] < 0)
            continue;
        float y = row_y(c, r->row[gi]);
        if (y < c->y0 - c->lane_h || y > c->y1 + c->lane_h || floorf(y) == last_py)
            continue;
        last_py = floorf(y);
        bool lit = rnd__g_lit(r, c->v, gi);
        lane_life(c, gi, y, lit);
        lane_spans(c, gi, y, lit);
    }
    for (uint32_t k = 0; k < r->n_order; k++)
        if (r->row[r->order[k]] >= 0)
            spawn_link(c, r->order[k]);
}

static bool marks_copy(rnd__marks *to, const rnd__marks *from)
{
    cs_err e = {0};
    if (!cs_grow((void **)&to->v, &to->cap, from->n + 1, sizeof *to->v, &e))
        return false;
    if (from->n)
        memcpy(to->v, from->v, (size_t)from->n * sizeof *from->v);
    to->n = from->n;
    return true;
}

/* Drops marks right of x (later than now) and shortens those crossing it. */
static void marks_clip(rnd__marks *m, float x, bool heads)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->n; i++) {
        rnd__mark k = m->v[i];
        if (fminf(k.a[0], k.b[0]) > x || (heads && k.b[0] > x))
            continue;
        if (k.b[0] > x)
            k.b[0] = x;
        m->v[n++] = k;
    }
    m->n = n;
}

/* Makes room for the dense-lanes image of the plot and clears it. */
static bool dense_image(lanes_ctx *c)
{
    rnd__lane_cache *lc = &c->r->lc;
    int w = (int)ceilf(c->x1 - c->x0), h = (int)ceilf(c->y1 - c->y0);
    size_t need = (size_t)(w > 1 ? w : 1) * (size_t)(h > 1 ? h : 1) * 4;
    if (need > lc->img_cap) {
        uint8_t *p = cs_realloc(lc->img, need);
        if (!p)
            return false;
        lc->img = p, lc->img_cap = need;
    }
    memset(lc->img, 0, need);
    lc->img_w = w > 1 ? w : 1, lc->img_h = h > 1 ? h : 1;
    c->img = lc->img, c->img_w = lc->img_w, c->img_h = lc->img_h;
    return true;
}

/* The marks of the whole window come from the cache while only the
 * playback time moves; the first frame of a new window builds them. */
static void cached_marks(lanes_ctx *c, int w, int h)
{
    rnd_renderer *r = c->r;
    rnd__lane_cache *lc = &r->lc;
    rnd_view key = *c->v;
    key.now = 0, key.playing = false, key.speed = 0, key.fps = 0, key.status = NULL;
    key.tip_x = key.tip_y = 0, key.hover = 0, key.help = false, key.title = NULL;
    if (!lc->valid || lc->w != w || lc->h != h || memcmp(&lc->key, &key, sizeof key)) {
        int64_t t_end = c->t_end;
        c->t_end = c->t1;
        pick_columns(c);
        lc->dense = c->lane_h < DENSE_PX && dense_image(c);
        lanes_marks(c);
        c->img = NULL;
        arrows_choose(c);
        c->t_end = t_end;
        r->sc.img_new = lc->dense;
        lc->valid = marks_copy(&lc->segs, &r->sc.k[RND__SEGS]) && marks_copy(&lc->heads, &r->sc.k[RND__HEADS]);
        lc->key = key, lc->w = w, lc->h = h;
    } else if (!marks_copy(&r->sc.k[RND__SEGS], &lc->segs) || !marks_copy(&r->sc.k[RND__HEADS], &lc->heads)) {
        r->sc.oom = true;
    }
    if (c->t_end < c->t1) {
        marks_clip(&r->sc.k[RND__SEGS], tx(c, c->t_end), false);
        marks_clip(&r->sc.k[RND__HEADS], tx(c, c->t_end), true);
    }
    if (lc->dense) { /* the image, cut at now like the marks */
        float xr = fminf(c->x1, fmaxf(c->x0, tx(c, c->t_end)));
        r->sc.img = lc->img, r->sc.img_w = lc->img_w, r->sc.img_h = lc->img_h;
        r->sc.img_quad = (rnd__glyph){{c->x0, c->y0, xr, c->y0 + (float)lc->img_h},
                                      {0, 0, (xr - c->x0) / (float)lc->img_w, 1}, {255, 255, 255, 255}};
    }
}

void rnd__lanes_build(rnd_renderer *r, const rnd_view *v, int w, int h)
{
    uint32_t nrows = assign_rows(r, v);
    lanes_ctx c;
    lanes_geometry(&c, r, v, w, h, nrows);
    rnd__ortho_px(r->sc.mvp, w, h);
    cached_marks(&c, w, h);
    arrows_draw(&c);
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
    rnd__axis(r, v, c.x0, c.x1, c.y1 + 4.0f, c.t0, c.t1);
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
