/* export/svg_lanes.c — the lanes view as SVG: one lane per goroutine (layout/
 * lanes.h), state segments exact where a lane has few spans and per-column
 * summaries where it has more than a quarter of the columns (layout/lod.h),
 * bundled arrows, GC bands, gap marks and the time axis (layout/axis.h). */
#include "svg_int.h"
#include "../layout/graph.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LANES_MAX_PX 4000.0 /* taller pictures reuse lanes, or collapse them by function */
#define MIN_LANE_PX 3.0     /* a lane's least height */
#define MAX_BUNDLES 8000u
#define ARROW_PX 8          /* at most one arrow per lane pair every 8 px */

typedef struct lanes_pic {
    exp__svg *s;
    lay_axis axis;
    lay_lanes lanes;
    lay_lod lod;
    lay_bundles bun;
    double x0, x1, top, lane_h;
    uint32_t cols;
} lanes_pic;

static double px(const lanes_pic *p, int64_t t)
{
    return p->x0 + lay_axis_x(&p->axis, t) * (p->x1 - p->x0);
}

static double lane_y(const lanes_pic *p, uint32_t lane)
{
    return p->top + (lane + 0.5) * p->lane_h;
}

static bool is_summary(const lanes_pic *p, uint32_t lane)
{
    return p->lanes.collapsed || p->lod.n_spans[lane] > p->cols / 4;
}

/* A GC cycle or stop-the-world pause within the picture's time. */
static bool gc_band(const lanes_pic *p, const cs_range *r)
{
    return cs_range_drawn(r->kind) && r->t1 >= p->axis.t0 && r->t0 <= p->axis.t1;
}

static bool build(lanes_pic *p, cs_err *err)
{
    exp__svg *s = p->s;
    const exp_svg_desc *d = s->d;
    lay_axis_desc ad = {.kind = d->axis, .t0 = d->t0, .t1 = d->t1};
    lay_lanes_desc ld = {.compact = d->compact, .show_system = d->show_system, .collapse = d->collapse,
                         .max_lanes = (uint32_t)(LANES_MAX_PX / MIN_LANE_PX)};
    if (!lay_axis_build(s->m, &ad, &p->axis, err) || !lay_lanes_build(s->m, &ld, &p->lanes, err))
        return false;
    uint32_t n = p->lanes.n_lanes;
    /* few lanes get room for the arrows between them; many get >= 14 px, then less */
    p->lane_h = n <= 12 ? 34 : fmin(18, fmax(MIN_LANE_PX, LANES_MAX_PX / n));
    size_t longest = 0;
    for (uint32_t i = 0; i < n; i++) {
        size_t l = strlen(lay_lanes_label(&p->lanes, i));
        longest = l > longest ? l : longest;
    }
    p->x0 = 24 + fmin(280, 7.2 * (double)longest);
    p->x1 = s->width - 24;
    p->top = EXP__SVG_TOP;
    p->cols = (uint32_t)(p->x1 - p->x0);
    if (!lay_lod_build(s->m, &p->axis, &p->lanes, 0, n, p->cols, p->cols / ARROW_PX + 1, MAX_BUNDLES,
                       &p->lod, &p->bun, err))
        return false;
    for (size_t i = 0; i < (size_t)n * p->cols; i++)
        s->mark_used[p->lod.mark[i]] = true;
    for (uint32_t i = 0; i < p->bun.n; i++)
        s->arrow_used[p->bun.b[i].kind] = true;
    for (uint32_t i = 0; i < s->m->n_ranges && !s->gc_used; i++)
        s->gc_used = gc_band(p, &s->m->ranges[i]);
    return true;
}

static void rect(exp__svg *s, double x0, double x1, double y, double h, lay_rgba c)
{
    char hex[8];
    lay_rgba_hex(c, hex);
    exp__printf(s->w, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"/>\n",
                x0, y - h / 2, fmax(x1 - x0, 0.5), h, hex);
}

static void seg(lanes_pic *p, lay_mark mk, double x0, double x1, double y)
{
    if (mk != LAY_MARK_NONE)
        rect(p->s, x0, x1, y, fmax(1, p->lane_h * lay_mark_thickness(mk)), p->s->pal->mark[mk]);
}

static void g_title(lanes_pic *p, uint32_t gi)
{
    const cs_model *m = p->s->m;
    const cs_goroutine *g = &m->g[gi];
    char a[32] = "?", b[32] = "the end";
    if (g->create_ns != CS_T_NONE) lay_fmt_dur(g->create_ns - m->t_first, a, sizeof a);
    if (g->end_ns != CS_T_NONE) lay_fmt_dur(g->end_ns - m->t_first, b, sizeof b);
    exp__printf(p->s->w, "<title>G%llu ", (unsigned long long)g->goid);
    exp__xml(p->s->w, cs_model_str(m, g->name));
    exp__printf(p->s->w, " \u2014 created at %s, alive until %s; %u spans</title>\n", a, b,
                g->span_count);
}

/* One goroutine, span by span; neighbours with the same mark merge. */
static void draw_exact(lanes_pic *p, uint32_t gi)
{
    const cs_model *m = p->s->m;
    const cs_goroutine *g = &m->g[gi];
    double y = lane_y(p, p->lanes.lane_of_g[gi]);
    int64_t c = lay_made_at(m, g);
    int64_t e = g->end_ns == CS_T_NONE ? m->t_last : g->end_ns;
    if (e < p->axis.t0 || c > p->axis.t1)
        return;
    char life[8];
    lay_rgba_hex(p->s->pal->life, life);
    exp__puts(p->s->w, "<g>");
    g_title(p, gi);
    exp__printf(p->s->w, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\"/>\n",
                px(p, c), y, px(p, e), y, life);
    lay_mark run = LAY_MARK_NONE;
    double rx0 = 0, rx1 = 0;
    for (uint32_t i = g->span_first; i < g->span_first + g->span_count; i++) {
        if (cs_span_t1(m, i) <= p->axis.t0 || cs_span_t0(m, i) >= p->axis.t1)
            continue;
        lay_mark mk = lay_mark_of(cs_span_state(m, i), cs_span_reason(m, i));
        double a = px(p, cs_span_t0(m, i)), b = px(p, cs_span_t1(m, i));
        if (mk == run && a - rx1 < 0.01) {
            rx1 = b;
            continue;
        }
        seg(p, run, rx0, rx1, y);
        run = mk, rx0 = a, rx1 = b;
    }
    seg(p, run, rx0, rx1, y);
    exp__puts(p->s->w, "</g>\n");
}

/* A dense lane as runs of equal columns of the dominant-mark summary. */
static void draw_summary(lanes_pic *p, uint32_t lane)
{
    exp__puts(p->s->w, "<g><title>");
    exp__xml(p->s->w, lay_lanes_label(&p->lanes, lane));
    exp__printf(p->s->w, " \u2014 %u goroutines, %u spans (one mark per pixel column: the state "
                "covering most time)</title>\n", p->lanes.lane_n[lane], p->lod.n_spans[lane]);
    double y = lane_y(p, lane);
    uint32_t c = 0;
    while (c < p->cols) {
        uint8_t mk = lay_lod_at(&p->lod, lane, c);
        uint32_t e = c + 1;
        while (e < p->cols && lay_lod_at(&p->lod, lane, e) == mk)
            e++;
        seg(p, (lay_mark)mk, p->x0 + c, p->x0 + e, y);
        c = e;
    }
    exp__puts(p->s->w, "</g>\n");
}

static void draw_labels(lanes_pic *p)
{
    char fg[8];
    lay_rgba_hex(p->s->pal->fg, fg);
    uint32_t every = (uint32_t)ceil(13.0 / p->lane_h);
    exp__printf(p->s->w, "<g font-size=\"12\" fill=\"%s\" text-anchor=\"end\">\n", fg);
    for (uint32_t i = 0; i < p->lanes.n_lanes; i += every) {
        exp__printf(p->s->w, "<text x=\"%.1f\" y=\"%.1f\">", p->x0 - 8, lane_y(p, i) + 4);
        exp__xml(p->s->w, lay_lanes_label(&p->lanes, i));
        exp__puts(p->s->w, "</text>\n");
    }
    exp__puts(p->s->w, "</g>\n");
}

typedef struct band {
    double x0, x1;
} band;

static int band_cmp(const void *a, const void *b)
{
    const band *x = a, *y = b;
    return (x->x0 > y->x0) - (x->x0 < y->x0);
}

/* GC cycles and stop-the-world pauses as full-height bands, merged in pixels. */
static bool draw_gc(lanes_pic *p, cs_err *err)
{
    const cs_model *m = p->s->m;
    band *v = NULL;
    uint32_t n = 0, cap = 0;
    for (uint32_t i = 0; i < m->n_ranges; i++) {
        const cs_range *r = &m->ranges[i];
        if (!gc_band(p, r))
            continue;
        if (!cs_grow((void **)&v, &cap, n + 1, sizeof *v, err))
            return false;
        v[n++] = (band){px(p, r->t0), fmax(px(p, r->t1), px(p, r->t0) + 1)};
    }
    if (n)
        qsort(v, n, sizeof *v, band_cmp);
    char hex[8];
    lay_rgba_hex(p->s->pal->gc, hex);
    double h = p->lanes.n_lanes * p->lane_h;
    for (uint32_t i = 0; i < n;) {
        double a = v[i].x0, b = v[i].x1;
        for (i++; i < n && v[i].x0 <= b + 0.5; i++)
            b = fmax(b, v[i].x1);
        exp__printf(p->s->w, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\" "
                    "fill-opacity=\"%.2f\"><title>GC</title></rect>\n",
                    a, p->top, b - a, h, hex, p->s->pal->gc.a / 255.0);
    }
    cs_free(v);
    return true;
}

static void arrow_title(lanes_pic *p, const lay_bundle *b)
{
    const cs_model *m = p->s->m;
    exp__w *w = p->s->w;
    char t0[32], t1[32];
    lay_fmt_dur(b->t0 - m->t_first, t0, sizeof t0);
    lay_fmt_dur(b->t1 - m->t_first, t1, sizeof t1);
    const char *from = lay_lanes_label(&p->lanes, b->from), *to = lay_lanes_label(&p->lanes, b->to);
    exp__puts(w, "<title>");
    if (b->count > 1)
        exp__printf(w, "%u arrows bundled; first: ", b->count);
    if (b->kind == LAY_ARROW_SPAWN) {
        exp__xml(w, from), exp__puts(w, " created "), exp__xml(w, to);
        exp__printf(w, " at %s", t0);
    } else if (b->kind == LAY_ARROW_SYNC) {
        exp__xml(w, from), exp__puts(w, " woke "), exp__xml(w, to);
        exp__printf(w, " (sync) at %s", t0);
    } else {
        exp__puts(w, b->kind == LAY_ARROW_CLOSE ? "close of " : "message on ");
        exp__xml(w, b->chan < m->n_chans ? cs_model_str(m, m->chans[b->chan].name) : "");
        exp__puts(w, ": "), exp__xml(w, from), exp__puts(w, " \u2192 "), exp__xml(w, to);
        exp__printf(w, ", sent %s, received %s", t0, t1);
        cs_sid value = cs_msg_value(m, b->first);
        if (value)
            exp__puts(w, ", value "), exp__xml(w, cs_model_str(m, value));
    }
    exp__puts(w, "</title>");
}

/* The values exact messages carried, beside the middle of their arrows
 * (single-message bundles), where they meet no other value (layout's
 * lay_boxes, as the PNG); text 11 px, about 6.6 px a character. */
static void draw_values(lanes_pic *p)
{
    const cs_model *m = p->s->m;
    lay_boxes *bx = cs_alloc(sizeof *bx);
    if (!bx)
        return; /* only the labels are left out */
    lay_boxes_init(bx, (float)p->x0, (float)p->top, (float)p->x1, (float)(p->top + p->lanes.n_lanes * p->lane_h));
    bool open = false;
    for (uint32_t i = 0; i < p->bun.n; i++) {
        const lay_bundle *b = &p->bun.b[i];
        char buf[LAY_VALUE_CAP];
        if (!(b->count == 1 && b->kind <= LAY_ARROW_CLOSE && lay_msg_value(m, b->first, buf)))
            continue;
        double x = (px(p, b->t0) + px(p, b->t1)) / 2 + 4, y = (lane_y(p, b->from) + lane_y(p, b->to)) / 2 + 4;
        if (!lay_boxes_take(bx, (float)x - 1, (float)y - 10, (float)(x + lay_text_width(buf, 11) + 1), (float)y + 3))
            continue;
        if (!open)
            exp__puts(p->s->w, "<g font-size=\"11\">\n"), open = true;
        char hex[8];
        lay_rgba_hex(p->s->pal->chan[b->chan < m->n_chans ? p->s->hue[b->chan] % LAY_CHAN_HUES : 0], hex);
        exp__printf(p->s->w, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\">", x, y, hex);
        exp__xml(p->s->w, buf);
        exp__puts(p->s->w, "</text>\n");
    }
    if (open)
        exp__puts(p->s->w, "</g>\n");
    cs_free(bx);
}

static void draw_arrows(lanes_pic *p)
{
    for (int pass = LAY_ARROW_SPAWN; pass >= 0; pass--) { /* quiet kinds first, under */
        for (uint32_t i = 0; i < p->bun.n; i++) {
            const lay_bundle *b = &p->bun.b[i];
            if (b->kind != pass)
                continue;
            double x0 = px(p, b->t0), x1 = px(p, b->t1), y0 = lane_y(p, b->from), y1 = lane_y(p, b->to);
            if (b->from == b->to && x1 - x0 < 2)
                continue; /* a goroutine talking to itself in one pixel: nothing to draw */
            double wdt = b->kind >= LAY_ARROW_SYNC ? 1 : fmin(3.5, 1.4 + 0.5 * log2((double)b->count));
            if (b->from == b->to)
                exp__printf(p->s->w, "<path d=\"M%.2f,%.2f Q%.2f,%.2f %.2f,%.2f\"", x0, y0,
                            (x0 + x1) / 2, y0 - p->lane_h, x1, y1);
            else
                exp__printf(p->s->w, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"",
                            x0, y0, x1, y1);
            exp__svg_arrow_style(p->s, b->kind, b->chan, wdt);
            exp__puts(p->s->w, ">");
            arrow_title(p, b);
            exp__puts(p->s->w, b->from == b->to ? "</path>\n" : "</line>\n");
        }
    }
}

/* Folded idle stretches: a zig-zag break across the lanes and the real length. */
static void draw_gaps(lanes_pic *p, double y_axis)
{
    char bg[8], dim[8];
    lay_rgba_hex(p->s->pal->bg, bg);
    lay_rgba_hex(p->s->pal->dim, dim);
    for (uint32_t i = 0; i < p->axis.n_gaps; i++) {
        const lay_gap *g = &p->axis.gaps[i];
        double a = p->x0 + g->x0 * (p->x1 - p->x0), b = p->x0 + g->x1 * (p->x1 - p->x0), mid = (a + b) / 2;
        char len[32];
        lay_fmt_dur(g->t1 - g->t0, len, sizeof len);
        exp__printf(p->s->w, "<g><title>idle for %s (folded)</title><rect x=\"%.2f\" y=\"%.2f\" "
                    "width=\"%.2f\" height=\"%.2f\" fill=\"%s\" fill-opacity=\"0.85\"/>\n<polyline "
                    "fill=\"none\" stroke=\"%s\" points=\"", len, a, p->top - 4, b - a,
                    y_axis - p->top + 4, bg, dim);
        int k = 0;
        for (double y = p->top - 4; y <= y_axis; y += 6, k++)
            exp__printf(p->s->w, "%.2f,%.2f ", mid + (k & 1 ? 3 : -3), y);
        exp__printf(p->s->w, "\"/>\n<text x=\"%.2f\" y=\"%.2f\" font-size=\"11\" fill=\"%s\" "
                    "text-anchor=\"middle\">\u22ef %s</text></g>\n", mid, y_axis + 30, dim, len);
    }
}

/* The grid lines at the axis' ticks, from the top of the lanes to the
 * axis at y: drawn before the lanes, so under their bars. */
static void draw_grid(lanes_pic *p, double y)
{
    char dim[8];
    lay_rgba_hex(p->s->pal->dim, dim);
    lay_tick t[64];
    uint32_t n = lay_axis_ticks(&p->axis, p->x1 - p->x0, 90, t, 64);
    exp__printf(p->s->w, "<g stroke=\"%s\" stroke-opacity=\"0.18\">\n", dim);
    for (uint32_t i = 0; i < n; i++) {
        double x = p->x0 + t[i].x * (p->x1 - p->x0);
        exp__printf(p->s->w, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", x, p->top, x, y);
    }
    exp__puts(p->s->w, "</g>\n");
}

static void draw_axis(lanes_pic *p, double y)
{
    char dim[8];
    lay_rgba_hex(p->s->pal->dim, dim);
    lay_tick t[64];
    uint32_t n = lay_axis_ticks(&p->axis, p->x1 - p->x0, 90, t, 64);
    exp__printf(p->s->w, "<g stroke=\"%s\"><line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n",
                dim, p->x0, y, p->x1, y);
    for (uint32_t i = 0; i < n; i++) {
        double x = p->x0 + t[i].x * (p->x1 - p->x0);
        exp__printf(p->s->w, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", x, y, x, y + 5);
    }
    exp__printf(p->s->w, "</g>\n<g font-size=\"11\" fill=\"%s\" text-anchor=\"middle\">\n", dim);
    for (uint32_t i = 0; i < n; i++)
        exp__printf(p->s->w, "<text x=\"%.2f\" y=\"%.2f\">%s</text>\n",
                    p->x0 + t[i].x * (p->x1 - p->x0), y + 17, t[i].label);
    exp__puts(p->s->w, "</g>\n");
}

static bool draw_body(lanes_pic *p, cs_err *err)
{
    const cs_model *m = p->s->m;
    uint32_t msgs = p->bun.n_arrows[LAY_ARROW_CHAN] + p->bun.n_arrows[LAY_ARROW_CLOSE], drawn = 0;
    for (uint32_t i = 0; i < p->bun.n; i++)
        drawn += p->bun.b[i].kind <= LAY_ARROW_CLOSE;
    char counts[320];
    snprintf(counts, sizeof counts, "%u of %u goroutines shown%s \u00b7 %u of %u messages, drawn as "
             "%u arrows \u00b7 %u channel%s \u00b7 %s time axis", p->lanes.n_shown, p->lanes.n_total,
             p->lanes.collapsed ? " (one lane per function)" : p->lanes.compacted ? " (lanes reused)" : "", msgs, m->n_msgs, drawn,
             m->n_chans ? m->n_chans - 1 : 0, m->n_chans == 2 ? "" : "s",
             p->axis.kind == LAY_AXIS_LOG ? "log" : p->axis.kind == LAY_AXIS_GAPS ? "gap-folded" : "linear");
    double y_axis = p->top + p->lanes.n_lanes * p->lane_h + 6;
    exp__svg_open(p->s, p->s->width, y_axis + 44);
    exp__svg_title(p->s, counts);
    exp__svg_legend(p->s, p->bun.chan_arrows); /* the legend counts what is in the picture */
    draw_grid(p, y_axis);
    if (!draw_gc(p, err))
        return false;
    /* arrows that would ink much of some lane go under the lanes, fainter
     * (layout/lod.h lay_arrow_fade): then every lane stays readable */
    double crowd = 0;
    lay_arrow_ink ink = {.shaft_px = 2, .head_px = 7, .width_px = p->x1 - p->x0}; /* shafts 1.4 to 3.5 */
    if (!lay_bundles_crowding(&p->bun, p->lanes.n_lanes, &ink, &crowd, err))
        return false;
    float fade = lay_arrow_fade(crowd);
    if (fade < 1.0f) {
        exp__printf(p->s->w, "<g opacity=\"%.2f\">\n", fade);
        draw_arrows(p);
        exp__puts(p->s->w, "</g>\n");
    }
    for (uint32_t g = 1; g < m->n_g; g++) {
        uint32_t lane = p->lanes.lane_of_g[g];
        if (lane != LAY_NO_LANE && !is_summary(p, lane))
            draw_exact(p, g);
    }
    for (uint32_t lane = 0; lane < p->lanes.n_lanes; lane++)
        if (is_summary(p, lane))
            draw_summary(p, lane);
    draw_labels(p);
    draw_gaps(p, y_axis);
    if (fade >= 1.0f)
        draw_arrows(p);
    draw_values(p);
    draw_axis(p, y_axis);
    exp__puts(p->s->w, "</svg>\n");
    return true;
}

bool exp__svg_lanes(exp__svg *s, cs_err *err)
{
    lanes_pic p = {.s = s};
    bool ok = build(&p, err) && draw_body(&p, err);
    lay_bundles_deinit(&p.bun);
    lay_lod_deinit(&p.lod);
    lay_lanes_deinit(&p.lanes);
    lay_axis_deinit(&p.axis);
    return ok;
}
