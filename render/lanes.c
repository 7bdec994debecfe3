/* render/lanes.c — the 2D lanes view: time left → right along the view's
 * axis (linear, log or gap-folding, layout/axis.h), one lane per goroutine
 * or, compact, per run of goroutines that never overlap, or collapsed, per
 * entry function (layout/lanes.h): a thin life line, bars by state, spawn
 * links, message arrows with filled heads, pulses in flight, GC bands,
 * folded gaps, labels and the time axis. Everything is built in pixels.
 *
 * Level of detail is layout's (layout/lod.h): each lane is drawn from the
 * dominant mark per pixel column, arrows as bundles per (lane pair,
 * column) within a budget, so the work is bounded by the screen, not the
 * trace; lanes thinner than a few pixels are painted into one image. */
#include "rnd.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define ARROW_BUDGET 2000u   /* arrow bundles per window (half with thin lanes) */
#define DENSE_PX 3.0f        /* lanes thinner than this are painted per pixel */
#define ARROW_PX 6           /* at most one arrow bundle per lane pair every 6 px */

typedef struct lanes_ctx {
    rnd_renderer *r;
    const rnd_view *v;
    const rnd__theme *th;
    const lay_axis *ax;
    const lay_axis *lod_ax;  /* a quick frame's: the axis the summaries were made with, else NULL */
    const lay_lanes *ln;
    float x0, x1, y0, y1, lane_h;
    int64_t t0, t1, t_end;   /* window and the drawing limit (now) */
    uint32_t lane0, lane1, cols; /* lanes in view, span columns */
    uint8_t *img;            /* dense lanes: paint here instead of emitting bars */
    int img_w, img_h;
    lay_boxes boxes;         /* value labels printed so far */
} lanes_ctx;

static void paint(const lanes_ctx *c, int xa, int xb, int ya, int yb, uint32_t col)
{
    xa = xa < 0 ? 0 : xa, xb = xb > c->img_w ? c->img_w : xb;
    ya = ya < 0 ? 0 : ya, yb = yb > c->img_h ? c->img_h : yb;
    for (int iy = ya; iy < yb; iy++) {
        uint8_t *p = c->img + ((size_t)iy * (size_t)c->img_w + (size_t)xa) * 4;
        for (int ix = xa; ix < xb; ix++, p += 4)
            p[0] = (uint8_t)(col >> 24), p[1] = (uint8_t)(col >> 16), p[2] = (uint8_t)(col >> 8), p[3] = 255;
    }
}

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
    paint(c, (int)floorf(x0 - c->x0), (int)ceilf(x1 - c->x0), ya, yb > ya ? yb : ya + 1, col);
}

/* Where the axis puts time t, in pixels. */
static float tx(const lanes_ctx *c, int64_t t)
{
    return c->x0 + (float)(lay_axis_x(c->ax, t) * (double)(c->x1 - c->x0));
}

/* Where a summary column starts, in pixels: stretched from the summaries'
 * axis to the view's in a quick frame. */
static float col_x(const lanes_ctx *c, uint32_t col)
{
    if (c->lod_ax)
        return tx(c, lay_axis_t(c->lod_ax, (double)col / c->cols));
    return c->x0 + (c->x1 - c->x0) * (float)col / (float)c->cols;
}

static float row_y(const lanes_ctx *c, uint32_t lane)
{
    return c->y0 + ((float)lane + 0.5f) * c->lane_h - c->v->scroll_px;
}

static void bar(const lanes_ctx *c, int style, float xa, float xb, float y, bool lit)
{
    uint32_t col = c->th->mark[style];
    bool keep = lit && (c->v->highlight != RND_HL_BLOCKED || style == LAY_MARK_BLOCK_CHAN ||
                        style == LAY_MARK_BLOCK_SYNC);
    if (c->v->highlight == RND_HL_CHAN || c->v->highlight == RND_HL_SPAWNS)
        keep = false;
    if (!keep)
        col = rnd__dim(col, 0.7f, c->th->bg);
    hbar(c, xa, fmaxf(xb, xa + 1.0f), y, fmaxf(1.0f, c->lane_h * lay_mark_thickness(style)), col);
}

/* One lane from layout's per-column summary (layout/lod.h): the thin life
 * line under every run of columns where a goroutine is alive, and a bar
 * per run of columns with one dominant mark. */
static void lane_runs(const lanes_ctx *c, uint32_t lane, float y, bool lit)
{
    const lay_lod *d = &c->r->lay.lod;
    uint32_t life = lit ? c->th->life : rnd__dim(c->th->life, 0.6f, c->th->bg);
    for (uint32_t a = 0; a < c->cols;) {
        uint8_t mk = lay_lod_at(d, lane, a);
        uint32_t b = a + 1;
        while (b < c->cols && (lay_lod_at(d, lane, b) != LAY_MARK_NONE) == (mk != LAY_MARK_NONE))
            b++;
        if (mk != LAY_MARK_NONE)
            hbar(c, col_x(c, a), col_x(c, b), y, 1.0f, life);
        a = b;
    }
    for (uint32_t a = 0; a < c->cols;) {
        uint8_t mk = lay_lod_at(d, lane, a);
        uint32_t b = a + 1;
        while (b < c->cols && lay_lod_at(d, lane, b) == mk)
            b++;
        if (mk != LAY_MARK_NONE)
            bar(c, mk, col_x(c, a), col_x(c, b), y, lit);
        a = b;
    }
}

/* The end of a lane's only goroutine: a short vertical tick. */
static void lane_end(const lanes_ctx *c, uint32_t lane, float y, bool lit)
{
    const cs_goroutine *g = &c->r->m->g[c->ln->lane_g[lane]];
    if (c->img || c->ln->lane_n[lane] != 1 || g->end_ns == CS_T_NONE || g->end_ns < c->t0 || g->end_ns > c->t1)
        return;
    uint32_t col = lit ? c->th->life : rnd__dim(c->th->life, 0.6f, c->th->bg);
    float x = tx(c, g->end_ns);
    rnd__seg(&c->r->sc, RND__SEGS, x, y - 0.3f * c->lane_h, 0, x, y + 0.3f * c->lane_h, 0, 1.0f, col);
}

/* A spawn bundle: a thin link from the parent's lane down to the child's. */
static void spawn_link(const lanes_ctx *c, const lay_bundle *b)
{
    const cs_goroutine *g = &c->r->m->g[b->first];
    if ((g->flags & CS_G_AT_START) || b->from == b->to)
        return;
    float x = tx(c, b->t0), ya = row_y(c, b->from), yb = row_y(c, b->to);
    uint32_t col = c->th->spawn;
    if (c->v->highlight == RND_HL_SPAWNS)
        col = c->th->fg;
    else if (c->v->highlight != RND_HL_NONE)
        col = rnd__dim(col, 0.6f, c->th->bg);
    float dir = yb > ya ? 1.0f : -1.0f;
    if (c->img) { /* dense: a one-pixel column in the image, no head */
        int ix = (int)floorf(x - c->x0);
        paint(c, ix, ix + 1, (int)floorf(fminf(ya, yb) - c->y0), (int)ceilf(fmaxf(ya, yb) - c->y0), col);
        return;
    }
    rnd__seg(&c->r->sc, RND__SEGS, x, ya, 0, x, yb - dir * 0.3f * c->lane_h, 0, 1.0f, col);
    rnd__seg(&c->r->sc, RND__HEADS, x, ya, 0, x, yb - dir * 0.3f * c->lane_h, 0, 5.0f, col);
}

/* Where arrow a goes in the lanes: from the sender's lane at the send to
 * the edge of the receiver's lane at the receive. */
static bool arrow_ends(const void *ctx, const rnd__arrow *a, float *A, float *B)
{
    const lanes_ctx *c = ctx;
    int32_t from = c->r->row[a->from], to = c->r->row[a->to];
    float xa = tx(c, a->t0), xb = tx(c, rnd__arrow_t1(c->r->m, a)), ya = row_y(c, (uint32_t)from), yb = row_y(c, (uint32_t)to);
    if (from == to && xb - xa < 2.0f)
        return false; /* two goroutines of one lane within a pixel: nothing to draw */
    float dy = yb > ya ? 1.0f : yb < ya ? -1.0f : 0.0f;
    A[0] = xa, A[1] = ya, A[2] = 0;
    B[0] = xb, B[1] = yb - dy * 0.25f * c->lane_h, B[2] = 0;
    return true;
}

/* The value an exact message carried, beside the middle of its arrow, in
 * the arrow's colour, where it meets no other value label. */
static void value_label(lanes_ctx *c, const rnd__arrow *a, const float *A, const float *B)
{
    char buf[LAY_VALUE_CAP];
    if (!lay_msg_value(c->r->m, a->msg - 1, buf))
        return;
    float w = rnd__text_width(&c->r->font, RND__F11, buf);
    float x = floorf(0.5f * (A[0] + B[0]) + 4.0f), y = floorf(0.5f * (A[1] + B[1]) + 4.0f);
    if (!lay_boxes_take(&c->boxes, x - 1, y - 10, x + w + 1, y + 3))
        return;
    uint32_t col = rnd__arrow_color(c->r, c->th, a);
    if (!rnd__arrow_lit(c->r, c->v, a))
        col = rnd__dim(col, 0.75f, c->th->bg);
    rnd__rect(&c->r->sc, x - 1, y - 10, x + w + 1, y + 3, rnd__alpha(c->th->bg, 0.8f));
    rnd__text(&c->r->sc, &c->r->font, RND__F11, x, y, col, buf);
}

/* The bundles layout made (at most ARROW_BUDGET), each drawn as its first
 * arrow, up to now (bundles are in time order), then the pulses the
 * bundles hide. */
static void arrows_draw(lanes_ctx *c)
{
    rnd_renderer *r = c->r;
    const lay_bundles *bun = &r->lay.bun;
    uint32_t shown = 0;
    float head = fminf(9.0f, fmaxf(5.0f, 0.6f * c->lane_h)), A[3], B[3];
    lay_boxes_init(&c->boxes, c->x0, c->y0, c->x1, c->y1);
    uint32_t under = r->sc.k[RND__SEGS].n;
    double crowd = 0;
    lay_arrow_ink ink = {.shaft_px = 1.6, .head_px = head, .width_px = c->x1 - c->x0};
    if (!lay_bundles_crowding(bun, c->ln->n_lanes, &ink, &crowd, &r->lay.err))
        return;
    r->arrow_fade = lay_arrow_fade(crowd);
    for (uint32_t k = 0; k < bun->n && bun->b[k].t0 <= c->t_end; k++) {
        rnd__arrow a;
        if (!rnd__bundle_arrow(r, &bun->b[k], &a) || r->row[a.from] < 0 || r->row[a.to] < 0)
            continue;
        shown += bun->b[k].kind != LAY_ARROW_SYNC ? bun->b[k].count : 0;
        if (!arrow_ends(c, &a, A, B))
            continue;
        rnd__arrow_draw(r, c->v, &a, A, B, head, c->ax);
        if (bun->b[k].count == 1 && a.msg && !rnd__arrow_flying(r->m, c->v, &a))
            value_label(c, &a, A, B);
    }
    if (r->arrow_fade < 1.0f) /* crowded: under the bars, so every lane stays readable */
        rnd__scene_back(&r->sc, RND__SEGS, under);
    r->arrow_fade = 1.0f; /* the pulses in flight stay on top, bright */
    rnd__arrows_flying(r, c->v, arrow_ends, c, head, c->ax);
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
        if (!cs_range_drawn(g->kind) || g->t1 < c->t0 || g->t0 > c->t_end)
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

/* Per lane: does the highlight keep it bright (any of its goroutines)? */
static bool lanes_lit(lanes_ctx *c)
{
    rnd__lane_cache *lc = &c->r->lc;
    cs_err e = {0};
    if (!cs_grow((void **)&lc->lane_lit, &lc->cap_lit, c->ln->n_lanes + 1, 1, &e))
        return false;
    memset(lc->lane_lit, 0, c->ln->n_lanes + 1);
    for (uint32_t gi = 1; gi < c->r->m->n_g; gi++)
        if (c->r->row[gi] >= 0 && !lc->lane_lit[c->r->row[gi]] && rnd__g_lit(c->r, c->v, gi))
            lc->lane_lit[c->r->row[gi]] = 1;
    return true;
}

static void lane_label(const lanes_ctx *c, uint32_t lane, float y, bool lit)
{
    char buf[160];
    const rnd__font *f = &c->r->font;
    snprintf(buf, sizeof buf, "%s", lay_lanes_label(c->ln, lane));
    float room = c->x0 - 14.0f;
    size_t len = strlen(buf);
    if (rnd__text_width(f, RND__F12, buf) > room) {
        while (len > 0) {
            len = lay_utf8_floor(buf, len - 1);
            memcpy(buf + len, "\xE2\x80\xA6", 4); /* "…" and the NUL */
            if (rnd__text_width(f, RND__F12, buf) <= room)
                break;
        }
    }
    bool sel = c->v->selected && c->r->row[c->v->selected] == (int32_t)lane;
    uint32_t col = sel ? c->th->select : lit ? c->th->fg : c->th->fg_dim;
    rnd__text(&c->r->sc, f, RND__F12, 8.0f, floorf(y + 4.0f), col, buf);
}

static void lanes_geometry(lanes_ctx *c, rnd_renderer *r, const rnd_view *v, int w, int h)
{
    uint32_t nrows = r->lay.lanes.n_lanes;
    c->r = r, c->v = v, c->th = rnd__theme_get(v->theme);
    c->ax = &r->lay.axis, c->lod_ax = NULL, c->ln = &r->lay.lanes;
    c->img = NULL, c->img_w = c->img_h = 0;
    c->x0 = fminf(240.0f, fmaxf(90.0f, 0.16f * (float)w));
    c->x1 = (float)w - 18.0f;
    c->y0 = v->hud ? 34.0f : 58.0f;
    /* the legend's rows below the axis; in a small picture the lanes keep a
     * few pixels at least and the legend rises over them */
    c->y1 = fmaxf(c->y0 + 24.0f, (float)h - (v->hud ? 64.0f : 72.0f) - rnd__legend_extra(r));
    c->lane_h = v->lane_px > 0 ? v->lane_px : (float)lay_lanes_fit_px(nrows, c->y1 - c->y0);
    if (v->lane_px <= 0 && nrows) /* few lanes: the axis follows the last one */
        c->y1 = fminf(c->y1, c->y0 + c->lane_h * (float)nrows + 8.0f);
    c->t0 = c->ax->t0, c->t1 = c->ax->t1;
    c->t_end = v->now == CS_T_NONE ? c->t1 : (v->now < c->t1 ? v->now : c->t1);
    float top = fmaxf(0.0f, v->scroll_px / c->lane_h - 1.0f), bottom = (v->scroll_px + c->y1 - c->y0) / c->lane_h + 1.0f;
    c->lane0 = (uint32_t)fminf(top, (float)nrows);
    c->lane1 = (uint32_t)fminf(ceilf(bottom), (float)nrows);
    c->cols = (uint32_t)ceilf(fmaxf(1.0f, c->x1 - c->x0));
    r->plot_x0 = c->x0, r->plot_x1 = c->x1, r->plot_y0 = c->y0, r->lane_h = c->lane_h;
    r->vt0 = c->t0, r->vt1 = c->t1;
    r->sc.clip[0] = c->x0 - 1, r->sc.clip[1] = c->y0 - 2, r->sc.clip[2] = c->x1 + 12;
    r->sc.clip[3] = c->y1 + 2;
}

/* Folded idle stretches (gap-folding axis): the lanes are covered by the
 * background and crossed by a zig-zag break, as in the SVG. */
static void gap_marks(const lanes_ctx *c)
{
    for (uint32_t i = 0; i < c->ax->n_gaps; i++) {
        const lay_gap *g = &c->ax->gaps[i];
        float a = c->x0 + (float)g->x0 * (c->x1 - c->x0), b = c->x0 + (float)g->x1 * (c->x1 - c->x0);
        float mid = 0.5f * (a + b), top = c->y0 - 2.0f, bot = c->y1 + 2.0f;
        rnd__seg(&c->r->sc, RND__SEGS, a, 0.5f * (top + bot), 0, b, 0.5f * (top + bot), 0, bot - top,
                 rnd__alpha(c->th->bg, 0.85f));
        int k = 0;
        for (float y = top; y < bot; y += 6.0f, k++)
            rnd__seg(&c->r->sc, RND__SEGS, mid + (k & 1 ? 3.0f : -3.0f), y, 0, mid + (k & 1 ? -3.0f : 3.0f),
                     fminf(y + 6.0f, bot), 0, 1.0f, c->th->fg_dim);
    }
}

/* The axis' grid lines (the ticks rnd__axis labels) across the plot, under
 * every mark: painted into the dense-lanes image before its lanes, or
 * added as segments and moved under the others (grid_under). */
static void grid_lines(const lanes_ctx *c)
{
    lay_tick ticks[64];
    uint32_t n = lay_axis_ticks(c->ax, c->x1 - c->x0, 90.0, ticks, 64);
    uint32_t col = rnd__mix_over(rnd__alpha(c->th->grid, 0.6f), c->th->bg);
    for (uint32_t i = 0; i < n; i++) {
        float x = c->x0 + (float)ticks[i].x * (c->x1 - c->x0);
        if (c->img)
            paint(c, (int)floorf(x - c->x0), (int)floorf(x - c->x0) + 1, 0, c->img_h, col);
        else
            rnd__seg(&c->r->sc, RND__SEGS, x, c->y0, 0, x, c->y1, 0, 1.0f, col);
    }
}

static void grid_under(lanes_ctx *c)
{
    uint32_t first = c->r->sc.k[RND__SEGS].n;
    grid_lines(c);
    rnd__scene_back(&c->r->sc, RND__SEGS, first);
}

static void lanes_marks(lanes_ctx *c)
{
    rnd_renderer *r = c->r;
    if (c->img)
        grid_lines(c);
    gc_bands(c);
    if (!lanes_lit(c)) {
        r->sc.oom = true;
        return;
    }
    float last_py = -1e9f;
    for (uint32_t lane = c->lane0; lane < c->lane1; lane++) {
        float y = row_y(c, lane);
        if (y < c->y0 - c->lane_h || y > c->y1 + c->lane_h || floorf(y) == last_py)
            continue;
        last_py = floorf(y);
        bool lit = r->lc.lane_lit[lane];
        lane_runs(c, lane, y, lit);
        lane_end(c, lane, y, lit);
    }
    for (uint32_t k = 0; k < r->lay.bun.n; k++)
        if (r->lay.bun.b[k].kind == LAY_ARROW_SPAWN)
            spawn_link(c, &r->lay.bun.b[k]);
    gap_marks(c);
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
    key.now = 0, key.playing = false, key.speed = 0, key.fps = 0, key.status = NULL, key.status_fade = 0;
    key.tip_x = key.tip_y = 0, key.hover = 0, key.help = false, key.title = NULL;
    key.loop = false, key.loop0 = key.loop1 = 0;
    key.quick = false;
    const rnd__lod_key *made = &r->lay.lkey; /* stretched, or of the lanes in view before: */
    bool stretched = c->lod_ax != NULL || made->lane0 != c->lane0 || made->lane1 != c->lane1; /* this frame's only */
    if (stretched || !lc->valid || lc->w != w || lc->h != h || memcmp(&lc->key, &key, sizeof key)) {
        int64_t t_end = c->t_end;
        c->t_end = c->t1;
        lc->dense = c->lane_h < DENSE_PX && dense_image(c);
        lanes_marks(c);
        c->img = NULL;
        c->t_end = t_end;
        r->sc.img_new = lc->dense;
        lc->valid = !stretched && marks_copy(&lc->segs, &r->sc.k[RND__SEGS]) &&
                    marks_copy(&lc->heads, &r->sc.k[RND__HEADS]);
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
    rnd__ortho_px(r->sc.mvp, w, h);
    lanes_ctx c;
    if (!rnd__lay_lanes(r, v, false))
        return;
    lanes_geometry(&c, r, v, w, h);
    bool dense = c.lane_h < DENSE_PX;
    if (!rnd__lay_lod(r, c.lane0, c.lane1, c.cols, c.cols / ARROW_PX + 1, dense ? ARROW_BUDGET / 2 : ARROW_BUDGET,
                      v->quick, v))
        return;
    c.lod_ax = r->lay.moved ? &r->lay.lod_axis : NULL;
    cached_marks(&c, w, h);
    arrows_draw(&c);
    if (!r->lc.dense)
        grid_under(&c);
    if (v->now != CS_T_NONE && v->now >= c.t0 && v->now <= c.t1)
        rnd__line(&r->sc, tx(&c, v->now), c.y0, tx(&c, v->now), c.y1, 1.0f,
                  rnd__alpha(c.th->fg, 0.5f));
    for (int i = 0; v->loop && i < 2; i++) { /* the loop range's two ends: dashed */
        int64_t t = i ? v->loop1 : v->loop0;
        if (t < c.t0 || t > c.t1)
            continue;
        for (float y = c.y0; y < c.y1; y += 8.0f)
            rnd__line(&r->sc, tx(&c, t), y, tx(&c, t), fminf(y + 4.0f, c.y1), 1.5f, c.th->select);
    }
    float gap = 0;
    for (uint32_t lane = c.lane0; lane < c.lane1; lane++) {
        float y = row_y(&c, lane);
        if (y < c.y0 || y > c.y1 || y - gap < 13.0f)
            continue;
        gap = y;
        lane_label(&c, lane, y, r->lc.lane_lit[lane]);
    }
    rnd__axis(r, v, c.ax, c.x0, c.x1, c.y1 + 4.0f);
    r->stats.lanes = c.ln->n_shown;
    r->stats.rows = c.ln->n_lanes;
    r->stats.gaps = c.ax->n_gaps;
    r->legend_y = c.y1 + (c.ax->n_gaps ? 64.0f : 52.0f);
}

/* The goroutine of a lane at time t: the one alive then, else its first. */
static uint32_t lane_goroutine(const rnd_renderer *r, int32_t lane, int64_t t)
{
    return r->lay.have && lane >= 0 ? lay_lanes_g_at(r->m, &r->lay.lanes, (uint32_t)lane, t) : 0;
}

/* The goroutine, span and arrow under (x, y) in the last lanes frame. */
#define PICK_ARROWS 4096 /* arrows the pointer is tested against, at most */

/* Distance from (x, y) to the segment (xa, ya)-(xb, yb), in pixels. */
static float seg_dist(float x, float y, float xa, float ya, float xb, float yb)
{
    float dx = xb - xa, dy = yb - ya, l2 = dx * dx + dy * dy;
    float u = l2 > 0 ? ((x - xa) * dx + (y - ya) * dy) / l2 : 0;
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    return hypotf(x - (xa + u * dx), y - (ya + u * dy));
}

void rnd__lanes_pick(const rnd_renderer *r, const rnd_view *v, float x, float y, rnd_hit *out)
{
    *out = (rnd_hit){.span = UINT32_MAX, .t = CS_T_NONE};
    if (r->lane_h <= 0 || y < r->plot_y0 || !r->lay.have)
        return;
    int32_t row = (int32_t)floorf((y - r->plot_y0 + v->scroll_px) / r->lane_h);
    double w = (double)(r->plot_x1 - r->plot_x0);
    int64_t t = lay_axis_t(&r->lay.axis, (double)(x - r->plot_x0) / w);
    out->t = x >= r->plot_x0 ? t : CS_T_NONE;
    /* in playback, a reused lane beyond the playback position holds the
     * goroutine it holds there (the rest is not drawn yet) */
    bool ahead = v->now != CS_T_NONE && out->t != CS_T_NONE && out->t > v->now;
    out->g = lane_goroutine(r, row, ahead ? v->now : out->t);
    if (out->g && out->t != CS_T_NONE) {
        const cs_goroutine *g = &r->m->g[out->g];
        uint32_t s = cs_model_span_after(r->m, g, t);
        if (s < g->span_first + g->span_count && cs_span_t0(r->m, s) <= t)
            out->span = s;
    }
    if (out->t == CS_T_NONE)
        return;
    /* the arrow nearest the pointer within 5 px, as drawn: from (send,
     * sender's row) to (receive, receiver's row), or upright at the send
     * where arrows are bundled. Arrows are in send order, and one sent more
     * than 5 px right of the pointer cannot come closer, so the search walks
     * back from there (a bounded number: a frame stays cheap) */
    int64_t hi = lay_axis_t(&r->lay.axis, (double)(x + 5.0f - r->plot_x0) / w);
    rnd__apos p = hi == INT64_MAX ? rnd__arrow_end(r) : rnd__arrow_lower(r, hi + 1);
    float best = 5.0f;
    uint32_t ref;
    for (uint32_t k = 0; k < PICK_ARROWS && (ref = rnd__arrow_prev(r, &p)); k++) {
        rnd__arrow arrow;
        const rnd__arrow *a = &arrow;
        if (!rnd__arrow_get(r, ref, &arrow))
            continue;
        int32_t fr = r->row[a->from], to = r->row[a->to];
        if (fr < 0 || to < 0)
            continue;
        float xa = r->plot_x0 + (float)(lay_axis_x(&r->lay.axis, a->t0) * w);
        float xb = r->plot_x0 + (float)(lay_axis_x(&r->lay.axis, rnd__arrow_t1(r->m, a)) * w);
        float ya = r->plot_y0 + ((float)fr + 0.5f) * r->lane_h - v->scroll_px;
        float yb = r->plot_y0 + ((float)to + 0.5f) * r->lane_h - v->scroll_px;
        float d = fminf(seg_dist(x, y, xa, ya, xb, yb), seg_dist(x, y, xa, ya, xa, yb));
        if (d <= best)
            best = d, out->arrow = ref;
    }
}
