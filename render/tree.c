/* render/tree.c — the 3D spawn tree: time runs top → bottom (gotrace's
 * convention), each goroutine a vertical line at its (x, z) placement from
 * creation to end, thicker where it runs, spawn links from parent to child
 * at creation time, message arrows between the lines, under an orbit camera
 * that starts looking slightly from above. Time follows the view's axis
 * (linear, log or gap-folding); states and arrows come from layout's level
 * of detail (layout/lod.h) with one lane per goroutine.
 *
 * One projection: the camera is orthographic (vertical lines stay vertical
 * and equally spaced times stay equally spaced at any pose) and a single
 * matrix takes every world point — lines, arrows, the axis and its ticks,
 * the anchors of the labels — to the screen. The camera orbits the centre
 * of what is shown and frames it in the area between the header and the
 * legend: its footprint's bounding circle (so orbiting never changes the
 * size) and its time span, seen at the camera's pitch. Each tick of the
 * axis is also a faint ring around the tree at its time, so a line's time
 * reads off the ring it crosses; the axis stands at the selected
 * goroutine's depth, where its ticks meet that line exactly.
 *
 * Crowded trees keep their structure readable: bars are no wider than a
 * third of the least distance between two lines on screen and turn
 * translucent, fading with depth, and when the arrows would cover the
 * lines (lay_bundles_crowding as the lanes measure it, or their ink over
 * the tree's outline on screen) they are drawn faint, without heads,
 * behind the bars. Labels are projected on the CPU: each goroutine's
 * label is tried beside the top of its line, right then left, then further
 * down the line, and drawn where its box meets no label drawn before, in
 * the order of r->label_order (bigger subtrees first).
 *
 * More goroutines than lines can be drawn (render/rnd.h RND__MAX_LANES):
 * they share lines as the lanes share lanes (layout/lanes.h max_lanes).
 * A line is then a lane, and the tree is laid out over the lines (each
 * under the line its first goroutine's parent is on): its states and its
 * life are its lane's summary, its spawn link its first goroutine's, and
 * every goroutine of it meets the arrows there. */
#include "rnd.h"

#include <cglm/cglm.h>
#include <math.h>
#include <string.h>

#define TREE_ARROWS 8000u   /* arrow bundles */
#define TREE_SPANS 60000u    /* span columns over all lines */
#define TREE_INK 0.25        /* arrows inking more of the outline than this crowd it */
#define TREE_LABEL_ROOM 0.2  /* labels cover at most this share of the outline */

typedef struct tree_ctx {
    rnd_renderer *r;
    const rnd_view *v;
    const rnd__theme *th;
    const lay_axis *ax;
    rnd__tree_frame *f;      /* the projection, also kept for tests and zoom */
    int64_t t0, t1, t_end;
    uint32_t cols;           /* span columns down each line */
    float rho;               /* footprint radius around its centre (world) */
    float bar_px;            /* widest state bar */
    float bar_alpha;
    float outline_px;        /* the area of the tree's outline on screen, px² */
    float label_room;        /* px² the labels may still cover */
    int w, h;
} tree_ctx;

/* Where the axis puts time t: y from 1 (start) down to -1 (end). */
static float ty(const tree_ctx *c, int64_t t)
{
    return 1.0f - 2.0f * (float)lay_axis_x(c->ax, t);
}

static float col_y(const tree_ctx *c, double col)
{
    return 1.0f - 2.0f * (float)(col / c->cols);
}

/* The goroutine whose line goroutine gi is drawn on: itself, or when lines
 * are shared, the first of its lane. */
static uint32_t line_of(const rnd_renderer *r, uint32_t gi)
{
    const lay_lanes *l = &r->lay.lanes;
    return l->compacted || l->collapsed ? l->lane_g[r->row[gi]] : gi;
}

static void g_pos(const tree_ctx *c, uint32_t gi, float *x, float *z)
{
    uint32_t at = c->r->row[gi] >= 0 ? line_of(c->r, gi) : gi;
    *x = c->r->tree_xz[2 * at] * c->f->scale;
    *z = c->r->tree_xz[2 * at + 1] * c->f->scale;
}

/* World point → screen pixels through the frame's one matrix. */
static void project(const rnd__tree_frame *f, float x, float y, float z, float *sx, float *sy)
{
    mat4 m; /* an aligned copy for cglm */
    vec4 p = {x, y, z, 1}, q;
    memcpy(m, f->mvp, sizeof m);
    glm_mat4_mulv(m, p, q);
    *sx = (q[0] * 0.5f + 0.5f) * (float)f->w;
    *sy = (0.5f - q[1] * 0.5f) * (float)f->h;
}

void rnd__tree_area(const rnd_renderer *r, const rnd_view *v, int w, int h, float *area)
{
    area[0] = 90.0f, area[2] = fmaxf(area[0] + 10.0f, (float)w - 190.0f);
    area[1] = v->hud ? 44.0f : 70.0f;
    area[3] = fmaxf(area[1] + 10.0f, (float)h - 40.0f - rnd__legend_extra(r));
}

/* The orthographic orbit camera around (cx, ymid, cz), fitted to the area:
 * half-width rho, half-height the time span's half at the pitch plus the
 * footprint's depth. screen = area centre + pan + s · view coordinates. */
static void camera(tree_ctx *c, float cx, float cz, float ya, float yb)
{
    const rnd_view *v = c->v;
    rnd__tree_frame *f = c->f;
    float area[4];
    rnd__tree_area(c->r, v, c->w, c->h, area);
    float cp = cosf(v->pitch), sp = sinf(v->pitch), ymid = 0.5f * (ya + yb);
    float hw = c->rho, hh = 0.5f * fabsf(ya - yb) * cp + c->rho * fabsf(sp);
    float fit = fminf((area[2] - area[0]) / (2 * hw), (area[3] - area[1]) / (2 * fmaxf(hh, 1e-3f)));
    f->s = fit / (v->dist > 0 ? v->dist : 1.0f);
    f->cx = 0.5f * (area[0] + area[2]), f->cy = 0.5f * (area[1] + area[3]);
    vec3 eye = {cx + 10 * cp * sinf(v->yaw), ymid + 10 * sp, cz + 10 * cp * cosf(v->yaw)};
    vec3 at = {cx, ymid, cz}, up = {0, 1, 0};
    mat4 view, a = GLM_MAT4_ZERO_INIT, m;
    glm_lookat(eye, at, up, view);
    a[0][0] = 2 * f->s / (float)c->w, a[1][1] = 2 * f->s / (float)c->h;
    a[2][2] = 0.05f, a[3][2] = 0.5f; /* depth 10 ± the scene's size stays inside the clip range */
    a[3][0] = 2 * (f->cx + v->pan_x) / (float)c->w - 1, a[3][1] = 1 - 2 * (f->cy + v->pan_y) / (float)c->h;
    a[3][3] = 1;
    glm_mat4_mul(a, view, m);
    memcpy(f->mvp, m, sizeof m);
    memcpy(c->r->sc.mvp, m, sizeof m);
    f->w = c->w, f->h = c->h;
    f->right[0] = cosf(v->yaw), f->right[1] = -sinf(v->yaw);
    f->fwd[0] = sinf(v->yaw), f->fwd[1] = cosf(v->yaw);
    f->ox = cx, f->oz = cz;
}

static uint32_t mark_color(const tree_ctx *c, int style, bool lit, float alpha)
{
    uint32_t col = c->th->mark[style];
    if (!lit || c->v->highlight == RND_HL_CHAN || c->v->highlight == RND_HL_SPAWNS ||
        (c->v->highlight == RND_HL_BLOCKED && style != LAY_MARK_BLOCK_CHAN && style != LAY_MARK_BLOCK_SYNC))
        col = rnd__dim(col, 0.7f, c->th->bg);
    return rnd__alpha(col, alpha);
}

/* The states down a goroutine's line from layout's per-column summary
 * (layout/lod.h), up to now. */
static void line_runs(const tree_ctx *c, uint32_t gi, float x, float z, bool lit, float alpha)
{
    const lay_lod *d = &c->r->lay.lod;
    uint32_t lane = (uint32_t)c->r->row[gi];
    double end = lay_axis_x(c->ax, c->t_end) * c->cols;
    for (uint32_t a = 0; a < c->cols && a < end;) {
        uint8_t mk = lay_lod_at(d, lane, a);
        uint32_t b = a + 1;
        while (b < c->cols && lay_lod_at(d, lane, b) == mk)
            b++;
        if (mk != LAY_MARK_NONE) {
            float ya = col_y(c, a), yb = col_y(c, b < end ? b : end);
            rnd__seg(&c->r->sc, RND__SEGS, x, ya, z, x, fminf(yb, ya - 0.002f), z,
                     fmaxf(1.0f, c->bar_px * lay_mark_thickness((lay_mark)mk)), mark_color(c, mk, lit, alpha));
        }
        a = b;
    }
}

/* A shared line's life: where its lane's summary has a goroutine alive. */
static void line_life(const tree_ctx *c, uint32_t gi, float x, float z, uint32_t col)
{
    const lay_lod *d = &c->r->lay.lod;
    uint32_t lane = (uint32_t)c->r->row[gi];
    double end = lay_axis_x(c->ax, c->t_end) * c->cols;
    for (uint32_t a = 0; a < c->cols && a < end;) {
        bool alive = lay_lod_at(d, lane, a) != LAY_MARK_NONE;
        uint32_t b = a + 1;
        while (b < c->cols && (lay_lod_at(d, lane, b) != LAY_MARK_NONE) == alive)
            b++;
        if (alive)
            rnd__seg(&c->r->sc, RND__SEGS, x, col_y(c, a), z, x, col_y(c, b < end ? b : end), z, 1.0f, col);
        a = b;
    }
}

/* Where line gi's mark begins, not before t0: its goroutine's creation, or a
 * shared line's first (r->line_t0). */
static int64_t line_top(const rnd_renderer *r, uint32_t gi, int64_t t0)
{
    const cs_goroutine *g = &r->m->g[gi];
    int64_t a = r->lines ? r->line_t0[r->row[gi]] : g->create_ns != CS_T_NONE ? g->create_ns : t0;
    return a > t0 ? a : t0;
}

static void goroutine(tree_ctx *c, uint32_t gi)
{
    const cs_goroutine *g = &c->r->m->g[gi];
    int64_t a = line_top(c->r, gi, c->t0);
    if (a > c->t_end)
        return;
    float x, z;
    g_pos(c, gi, &x, &z);
    bool lit = rnd__g_lit(c->r, c->v, gi), shared = c->r->lay.lanes.lane_n[c->r->row[gi]] > 1; /* gi: its line's */
    int64_t b = g->end_ns != CS_T_NONE && g->end_ns < c->t_end && !shared ? g->end_ns : c->t_end;
    uint32_t life = lit ? c->th->life : rnd__dim(c->th->life, 0.6f, c->th->bg);
    if (shared)
        line_life(c, gi, x, z, life);
    else
        rnd__seg(&c->r->sc, RND__SEGS, x, ty(c, a), z, x, ty(c, b), z, 1.0f, life);
    /* translucent bars (a crowded tree) fade with depth: the far side of a
     * ring stays behind the near one */
    float depth = ((x - c->f->ox) * c->f->fwd[0] + (z - c->f->oz) * c->f->fwd[1]) / c->rho;
    line_runs(c, gi, x, z, lit, c->bar_alpha < 1.0f ? c->bar_alpha * (0.6f + 0.2f * depth) : 1.0f);
    float *s = &c->r->scr[4 * gi];
    project(c->f, x, ty(c, a), z, &s[0], &s[1]);
    project(c->f, x, ty(c, b), z, &s[2], &s[3]);
    if (s[0] < 0) /* off screen to the left: x0 < 0 means hidden */
        s[0] = -1;
    uint32_t p = g->parent;
    if (p && c->r->row[p] >= 0 && !(g->flags & CS_G_AT_START) && g->create_ns >= c->t0) {
        float px, pz;
        g_pos(c, p, &px, &pz);
        uint32_t col = c->v->highlight == RND_HL_SPAWNS ? c->th->fg : c->th->spawn;
        rnd__seg(&c->r->sc, RND__SEGS, px, ty(c, a), pz, x, ty(c, a), z, 1.0f, col);
    }
}

static bool arrow_ends(const void *ctx, const rnd__arrow *a, float *A, float *B)
{
    const tree_ctx *c = ctx;
    g_pos(c, a->from, &A[0], &A[2]);
    g_pos(c, a->to, &B[0], &B[2]);
    A[1] = ty(c, a->t0), B[1] = ty(c, rnd__arrow_t1(c->r->m, a));
    return true;
}

/* Message bundles (layout/lod.h), each drawn as its first arrow — faint and
 * behind the bars when they crowd the lines — then the pulses the bundles
 * hide, on top. */
static void arrows(tree_ctx *c, uint32_t under)
{
    rnd_renderer *r = c->r;
    const lay_bundles *bun = &r->lay.bun;
    float A[3], B[3];
    for (uint32_t k = 0; k < bun->n && bun->b[k].t0 <= c->t_end; k++) {
        rnd__arrow a;
        if (!rnd__bundle_arrow(r, &bun->b[k], &a) || r->row[a.from] < 0 || r->row[a.to] < 0)
            continue;
        arrow_ends(c, &a, A, B);
        rnd__arrow_draw(r, c->v, &a, A, B, 8.0f, c->ax);
        r->stats.msgs_shown += bun->b[k].kind != LAY_ARROW_SYNC ? bun->b[k].count : 0;
    }
    if (r->arrow_fade < 1.0f)
        rnd__scene_back(&r->sc, RND__SEGS, under);
    r->arrow_fade = 1.0f;
    rnd__arrows_flying(r, c->v, arrow_ends, c, 8.0f, c->ax);
}

/* Label placement: candidate boxes beside the line, kept only where they
 * meet no box taken before and stay inside the area. */
static bool label_free(const rnd__tree_frame *f, const float *area, const float *b)
{
    if (b[0] < 2 || b[1] < area[1] - 8 || b[2] > (float)f->w - 2 || b[3] > area[3] + 8)
        return false;
    for (uint32_t i = 0; i < f->n_labels + f->n_ticks; i++) {
        const float *o = i < f->n_labels ? f->labels[i].box : f->ticks[i - f->n_labels].box;
        if (b[0] < o[2] + 2 && o[0] < b[2] + 2 && b[1] < o[3] + 1 && o[1] < b[3] + 1)
            return false;
    }
    return true;
}

static void label_one(tree_ctx *c, const float *area, uint32_t gi, bool always)
{
    rnd__tree_frame *f = c->f;
    const float *s = &c->r->scr[4 * gi];
    if (!gi || c->r->row[gi] < 0 || line_of(c->r, gi) != gi || s[0] < 0 || f->n_labels >= RND__TREE_LABELS ||
        (!always && c->label_room <= 0))
        return;
    char buf[96];
    const lay_lanes *l = &c->r->lay.lanes; /* a shared line: its lane's label, "G22 main.handle +3410" */
    if (l->lane_n[c->r->row[gi]] > 1)
        snprintf(buf, sizeof buf, "%s", lay_lanes_label(l, (uint32_t)c->r->row[gi]));
    else
        rnd__g_label(c->r, gi, buf, sizeof buf);
    /* from the top of the line's part inside the area, down it */
    float tw = rnd__text_width(&c->r->font, RND__F11, buf), top = fmaxf(s[1], area[1] + 4);
    float len = fmaxf(0.0f, fminf(s[3], area[3]) - top);
    if (top > s[3] && s[3] > s[1])
        return;
    for (int k = 0; k < 12; k++) {
        float y = top + 4 + (float)(k / 2) * fminf(16.0f, len / 6), x = k % 2 ? s[0] - 8 - tw : s[0] + 8;
        if (k >= 2 && y > s[3])
            break;
        float b[4] = {x - 2, y - 10, x + tw + 2, y + 3};
        if (!label_free(f, area, b))
            continue;
        f->labels[f->n_labels++] = (rnd__tree_label){.g = gi, .box = {b[0], b[1], b[2], b[3]}};
        c->label_room -= (b[2] - b[0]) * (b[3] - b[1]);
        uint32_t col = gi == c->v->selected ? c->th->select : c->th->fg;
        rnd__rect(&c->r->sc, b[0], b[1], b[2], b[3], rnd__alpha(c->th->bg, 0.7f)); /* lines stay behind */
        rnd__text(&c->r->sc, &c->r->font, RND__F11, x, y, col, buf);
        return;
    }
}

static void labels(tree_ctx *c)
{
    float area[4];
    rnd__tree_area(c->r, c->v, c->w, c->h, area);
    c->label_room = TREE_LABEL_ROOM * c->outline_px;
    label_one(c, area, c->v->selected < c->r->m->n_g ? c->v->selected : 0, true);
    label_one(c, area, c->v->hover < c->r->m->n_g && c->v->hover != c->v->selected ? c->v->hover : 0, true);
    const rnd_renderer *r = c->r;
    for (uint32_t k = 0; k < (r->lines ? r->n_lines : r->n_order); k++) {
        uint32_t gi = r->lines ? r->lines[r->n_lines + k] : r->label_order[k];
        if (gi != c->v->selected && gi != c->v->hover)
            label_one(c, area, gi, false);
    }
}

/* The time axis: a vertical line on the left edge of the footprint's
 * circle as the camera sees it, at the selected goroutine's depth (else
 * the centre's), with ticks in real units (any mapping) and each folded gap
 * marked by a break and its length; every tick also a faint ring. */
static void time_axis(tree_ctx *c, int64_t ta, int64_t tb)
{
    rnd__tree_frame *f = c->f;
    float d = 0, rr = c->rho * 1.06f, area[4];
    rnd__tree_area(c->r, c->v, c->w, c->h, area);
    uint32_t sel = c->v->selected;
    if (sel && sel < c->r->m->n_g && c->r->row[sel] >= 0) {
        float gx, gz;
        g_pos(c, sel, &gx, &gz);
        d = (gx - f->ox) * f->fwd[0] + (gz - f->oz) * f->fwd[1];
    }
    float ax = f->ox - rr * f->right[0] + d * f->fwd[0], az = f->oz - rr * f->right[1] + d * f->fwd[1];
    float dx = -0.03f * c->rho * f->right[0], dz = -0.03f * c->rho * f->right[1];
    uint32_t dim = c->th->fg_dim, ring = rnd__alpha(c->th->fg_dim, 0.25f);
    rnd__seg(&c->r->sc, RND__SEGS, ax, ty(c, ta), az, ax, ty(c, tb), az, 1.0f, dim);
    float s0x, s0y, s1x, s1y;
    project(f, ax, 1, az, &s0x, &s0y);
    project(f, ax, -1, az, &s1x, &s1y);
    lay_tick ticks[RND__TREE_TICKS];
    uint32_t n = lay_axis_ticks(c->ax, hypotf(s1x - s0x, s1y - s0y), 40.0, ticks, RND__TREE_TICKS);
    f->n_ticks = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (ticks[i].t_ns < ta || ticks[i].t_ns > tb)
            continue;
        float y = ty(c, ticks[i].t_ns), sx, sy;
        rnd__seg(&c->r->sc, RND__SEGS, ax, y, az, ax + dx, y, az + dz, 1.0f, dim);
        for (int k = 0; k < 48; k++) {
            float a0 = (float)k * (float)(2 * M_PI / 48), a1 = (float)(k + 1) * (float)(2 * M_PI / 48);
            rnd__seg(&c->r->sc, RND__SEGS, f->ox + rr * cosf(a0), y, f->oz + rr * sinf(a0), f->ox + rr * cosf(a1), y,
                     f->oz + rr * sinf(a1), 1.0f, ring);
        }
        project(f, ax + dx, y, az + dz, &sx, &sy);
        float tw = rnd__text_width(&c->r->font, RND__F11, ticks[i].label);
        if (sy < area[1] || sy > area[3]) /* zoomed in: never over the header or the legend */
            continue;
        rnd__text(&c->r->sc, &c->r->font, RND__F11, sx - 4 - tw, sy + 4, dim, ticks[i].label);
        rnd__tree_tick *k = &f->ticks[f->n_ticks++];
        *k = (rnd__tree_tick){.t = ticks[i].t_ns, .box = {sx - 6 - tw, sy - 7, sx, sy + 7}};
        project(f, ax, y, az, &k->x, &k->y);
    }
    float last = -1e9f; /* gap labels closer than a line to the previous one are left out */
    for (uint32_t i = 0; i < c->ax->n_gaps; i++) {
        const lay_gap *g = &c->ax->gaps[i];
        if (g->t1 < ta || g->t0 > tb)
            continue;
        float y = 1.0f - (float)(g->x0 + g->x1), h = 0.012f, sx, sy;
        rnd__seg(&c->r->sc, RND__SEGS, ax - dx, y + h, az - dz, ax + dx, y + 2 * h, az + dz, 1.5f, dim);
        rnd__seg(&c->r->sc, RND__SEGS, ax - dx, y - 2 * h, az - dz, ax + dx, y - h, az + dz, 1.5f, dim);
        char buf[40] = "\xE2\x8B\xAF ";
        lay_fmt_dur(g->t1 - g->t0, buf + 4, sizeof buf - 4);
        project(f, ax - dx, y, az - dz, &sx, &sy);
        if (fabsf(sy - last) >= 14.0f && sy >= area[1] && sy <= area[3]) {
            rnd__text(&c->r->sc, &c->r->font, RND__F11, sx + 6, sy + 4, dim, buf);
            last = sy;
        }
    }
    c->r->stats.gaps = c->ax->n_gaps;
}

/* How wide the bars may be: a third of the least distance between two
 * lines on screen (layout/tree.h keeps them a placement unit apart), at
 * most 9 px; translucent when that is under 8 px. Arrows: how crowded they
 * would be along the lines, as the lanes measure it. */
static void crowding(tree_ctx *c, uint32_t nrows)
{
    float gap_px = c->f->s * c->f->scale;
    c->bar_px = fminf(9.0f, fmaxf(1.5f, gap_px / 3));
    c->bar_alpha = c->bar_px < 8.0f && nrows > 1 ? 0.75f : 1.0f;
}

/* The share of the tree's outline on screen that its arrows would ink
 * (shafts 1.6 px wide, heads 8 px): seen in 3D, the lines in front and
 * behind share the picture, so arrows crowd sooner than along lanes. */
static double arrow_ink(const tree_ctx *c)
{
    const rnd_renderer *r = c->r;
    const lay_bundles *bun = &r->lay.bun;
    double ink = 0;
    float A[3], B[3], ax, ay, bx, by;
    for (uint32_t k = 0; k < bun->n && bun->b[k].t0 <= c->t_end; k++) {
        rnd__arrow a;
        if (!rnd__bundle_arrow(r, &bun->b[k], &a) || r->row[a.from] < 0 || r->row[a.to] < 0)
            continue;
        arrow_ends(c, &a, A, B);
        project(c->f, A[0], A[1], A[2], &ax, &ay);
        project(c->f, B[0], B[1], B[2], &bx, &by);
        ink += 1.6 * hypotf(bx - ax, by - ay) + (a.kind != LAY_ARROW_SYNC ? 32.0 : 0.0);
    }
    return ink / fmax(c->outline_px, 1.0);
}

void rnd__tree_build(rnd_renderer *r, const rnd_view *v, int w, int h)
{
    rnd__tree_frame *f = &r->tree;
    tree_ctx c = {.r = r, .v = v, .th = rnd__theme_get(v->theme), .w = w, .h = h, .ax = &r->lay.axis, .f = f};
    f->n_ticks = f->n_labels = 0, f->have = false;
    if (!rnd__lay_lanes(r, v, true) || !rnd__tree_place(r, &r->lay.err))
        return;
    c.t0 = c.ax->t0, c.t1 = c.ax->t1;
    c.t_end = v->now == CS_T_NONE ? c.t1 : (v->now < c.t1 ? v->now : c.t1);
    float maxr = 1e-3f, box[4] = {1e30f, -1e30f, 1e30f, -1e30f};
    int64_t ta = c.t1, tb = c.t0;
    uint32_t nrows = r->lay.lanes.n_lanes;
    /* the lines: shared ones from r->lines (the marks of the others are
     * never read then), else every goroutine shown */
    uint32_t n_lines = r->lines ? r->n_lines : r->m->n_g;
    for (uint32_t k = r->lines ? 0 : 1; k < n_lines; k++) {
        uint32_t i = r->lines ? r->lines[k] : k;
        r->scr[4 * i] = -1;
        if (r->row[i] < 0)
            continue;
        float x = r->tree_xz[2 * i], z = r->tree_xz[2 * i + 1];
        maxr = fmaxf(maxr, hypotf(x, z));
        box[0] = fminf(box[0], x), box[1] = fmaxf(box[1], x), box[2] = fminf(box[2], z), box[3] = fmaxf(box[3], z);
        const cs_goroutine *g = &r->m->g[i];
        int64_t a = g->create_ns != CS_T_NONE ? g->create_ns : c.t0, b = g->end_ns != CS_T_NONE ? g->end_ns : c.t1;
        ta = a < ta ? a : ta, tb = b > tb ? b : tb;
    }
    f->scale = 1.0f / maxr;
    float cx = nrows ? 0.5f * (box[0] + box[1]) * f->scale : 0, cz = nrows ? 0.5f * (box[2] + box[3]) * f->scale : 0;
    c.rho = 0.05f;
    for (uint32_t k = r->lines ? 0 : 1; k < n_lines; k++) {
        uint32_t i = r->lines ? r->lines[k] : k;
        if (r->row[i] >= 0) {
            float x, z;
            g_pos(&c, i, &x, &z);
            c.rho = fmaxf(c.rho, hypotf(x - cx, z - cz));
        }
    }
    ta = ta < c.t0 ? c.t0 : ta, tb = tb > c.t1 || tb < ta ? c.t1 : tb;
    /* a column per pixel of height, fewer when many lines share the budget */
    uint32_t per_g = TREE_SPANS / (nrows ? nrows : 1);
    c.cols = per_g < (uint32_t)h ? (per_g ? per_g : 1) : (uint32_t)h;
    camera(&c, cx, cz, ty(&c, ta), ty(&c, tb));
    crowding(&c, nrows);
    float area[4]; /* the outline's area on screen, no more than the view's (zoomed in) */
    rnd__tree_area(r, v, w, h, area);
    float tall = fabsf(ty(&c, ta) - ty(&c, tb)) * cosf(v->pitch) + 2 * c.rho * fabsf(sinf(v->pitch));
    c.outline_px = fminf((area[2] - area[0]) * (area[3] - area[1]), 2 * c.rho * f->s * f->s * tall);
    /* arrows bundled per column of about two pixels down the axis, in a
     * power of two so that orbiting and zooming rarely rebuild the bundles */
    float len_px = 2 * f->s * cosf(v->pitch);
    uint32_t acols = 1u << (uint32_t)lroundf(log2f(fmaxf(8.0f, fminf(len_px / 2, (float)h))));
    if (!rnd__lay_lod(r, 0, nrows, c.cols, acols, TREE_ARROWS, false, NULL))
        return;
    double crowd = 0;
    lay_arrow_ink ink = {.shaft_px = 1.6, .head_px = 8.0, .width_px = fmax(len_px, 1.0)};
    if (!lay_bundles_crowding(&r->lay.bun, nrows, &ink, &crowd, &r->lay.err))
        return;
    r->arrow_fade = lay_arrow_fade(fmax(crowd, arrow_ink(&c) / TREE_INK));
    f->have = true;
    time_axis(&c, ta, tb);
    uint32_t under = r->sc.k[RND__SEGS].n;
    for (uint32_t k = 0; k < (r->lines ? r->n_lines : r->n_order); k++) {
        uint32_t gi = r->lines ? r->lines[k] : r->order[k];
        if (r->row[gi] >= 0)
            goroutine(&c, gi);
    }
    arrows(&c, under);
    labels(&c);
    r->stats.lanes = r->lay.lanes.n_shown;
}

bool rnd_tree_point(const rnd_renderer *r, uint32_t g, int64_t t, float *x, float *y)
{
    const rnd__tree_frame *f = &r->tree;
    if (!f->have || !g || g >= r->m->n_g || r->row[g] < 0)
        return false;
    g = line_of(r, g);
    project(f, r->tree_xz[2 * g] * f->scale, 1.0f - 2.0f * (float)lay_axis_x(&r->lay.axis, t),
            r->tree_xz[2 * g + 1] * f->scale, x, y);
    return true;
}

uint32_t rnd_tree_ticks(const rnd_renderer *r, int64_t *t, float *xy, uint32_t cap)
{
    uint32_t n = 0;
    for (; n < r->tree.n_ticks && n < cap; n++)
        t[n] = r->tree.ticks[n].t, xy[2 * n] = r->tree.ticks[n].x, xy[2 * n + 1] = r->tree.ticks[n].y;
    return n;
}

uint32_t rnd_tree_labels(const rnd_renderer *r, uint32_t *g, float *box, uint32_t cap)
{
    uint32_t n = 0;
    for (; n < r->tree.n_labels && n < cap; n++) {
        g[n] = r->tree.labels[n].g;
        memcpy(box + 4 * n, r->tree.labels[n].box, sizeof r->tree.labels[n].box);
    }
    return n;
}

/* Whether (x, y) is nearer than *best (squared px) to goroutine i's mark on
 * screen (r->scr: a segment); *k where along it. */
static bool mark_near(const rnd_renderer *r, uint32_t i, float x, float y, float *best, float *k)
{
    const float *s = &r->scr[4 * i];
    if (s[0] < 0)
        return false;
    float dx = s[2] - s[0], dy = s[3] - s[1], l2 = dx * dx + dy * dy;
    float u = l2 > 0 ? ((x - s[0]) * dx + (y - s[1]) * dy) / l2 : 0;
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    float ex = s[0] + u * dx - x, ey = s[1] + u * dy - y, d2 = ex * ex + ey * ey;
    if (d2 >= *best)
        return false;
    *best = d2, *k = u;
    return true;
}

void rnd__point_pick(const rnd_renderer *r, const rnd_view *v, float x, float y, rnd_hit *out)
{
    float best = 12.0f * 12.0f, k = 0;
    const lay_lanes *l = &r->lay.lanes;
    if (!r->scr) /* no tree or graph frame yet */
        return;
    bool lines = v->layout == RND_TREE && r->lines;
    if (lines) { /* shared lines: the marks of the others are not kept */
        for (uint32_t j = 0; j < r->n_lines; j++)
            if (mark_near(r, r->lines[j], x, y, &best, &k))
                out->g = r->lines[j];
    } else {
        for (uint32_t i = 1; i < r->m->n_g; i++)
            if (mark_near(r, i, x, y, &best, &k))
                out->g = i;
    }
    if (!lines || !out->g || r->row[out->g] < 0 || l->lane_n[r->row[out->g]] < 2)
        return;
    /* the goroutine of the line at the pointer's time: the mark runs from
     * the line's top (line_top) to the frame's end, evenly in the axis' x */
    const lay_axis *ax = &r->lay.axis;
    int64_t a = line_top(r, out->g, ax->t0);
    int64_t b = v->now == CS_T_NONE || v->now > ax->t1 ? ax->t1 : v->now;
    double xa = lay_axis_x(ax, a), xb = lay_axis_x(ax, b);
    out->g = lay_lanes_g_at(r->m, l, (uint32_t)r->row[out->g], lay_axis_t(ax, xa + (double)k * (xb - xa)));
}
