/* render/tree.c — the 3D spawn tree: time runs top → bottom (gotrace's
 * convention), each goroutine a vertical line at its (x, z) placement from
 * creation to end, thicker where it runs, spawn links from parent to child
 * at creation time, message arrows between the lines, under an orbit camera
 * that starts looking slightly from above. Time follows the view's axis
 * (linear, log or gap-folding); states and arrows come from layout's level
 * of detail (layout/lod.h) with one lane per goroutine. Labels are
 * projected on the CPU and dropped where they would overlap one already
 * placed, bigger subtrees first. */
#include "rnd.h"

#include <cglm/cglm.h>
#include <math.h>
#include <string.h>

#define TREE_ARROWS 8000u   /* arrow bundles */
#define TREE_SPANS 60000u    /* span columns over all lines */

typedef struct tree_ctx {
    rnd_renderer *r;
    const rnd_view *v;
    const rnd__theme *th;
    const lay_axis *ax;
    float scale;             /* placement units → world */
    int64_t t0, t1, t_end;
    uint32_t cols;           /* span columns down each line */
    mat4 mvp;
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

static void g_pos(const tree_ctx *c, uint32_t gi, float *x, float *z)
{
    *x = c->r->tree_xz[2 * gi] * c->scale;
    *z = c->r->tree_xz[2 * gi + 1] * c->scale;
}

static void camera(tree_ctx *c)
{
    const rnd_view *v = c->v;
    float d = 3.6f * (v->dist > 0 ? v->dist : 1.0f);
    vec3 eye = {d * cosf(v->pitch) * sinf(v->yaw), d * sinf(v->pitch), d * cosf(v->pitch) * cosf(v->yaw)};
    vec3 at = {0, 0, 0}, up = {0, 1, 0};
    mat4 view, proj, pan = GLM_MAT4_IDENTITY_INIT;
    glm_lookat(eye, at, up, view);
    glm_perspective(glm_rad(45.0f), (float)c->w / (float)c->h, 0.05f, 100.0f, proj);
    pan[3][0] = 2.0f * v->pan_x / (float)c->w;
    pan[3][1] = -2.0f * v->pan_y / (float)c->h;
    glm_mat4_mulN((mat4 *[]){&pan, &proj, &view}, 3, c->mvp);
    memcpy(c->r->sc.mvp, c->mvp, sizeof c->mvp);
}

/* World point → screen pixels; false when behind the camera. */
static bool project(const tree_ctx *c, float x, float y, float z, float *sx, float *sy)
{
    vec4 p = {x, y, z, 1}, q;
    glm_mat4_mulv((vec4 *)c->mvp, p, q);
    if (q[3] <= 1e-4f)
        return false;
    *sx = (q[0] / q[3] * 0.5f + 0.5f) * (float)c->w;
    *sy = (0.5f - q[1] / q[3] * 0.5f) * (float)c->h;
    return true;
}

static uint32_t mark_color(const tree_ctx *c, int style, bool lit)
{
    uint32_t col = c->th->mark[style];
    if (!lit || c->v->highlight == RND_HL_CHAN || c->v->highlight == RND_HL_SPAWNS ||
        (c->v->highlight == RND_HL_BLOCKED && style != LAY_MARK_BLOCK_CHAN && style != LAY_MARK_BLOCK_SYNC))
        col = rnd__dim(col, 0.7f, c->th->bg);
    return col;
}

/* The states down a goroutine's line from layout's per-column summary
 * (layout/lod.h), up to now. */
static void line_runs(const tree_ctx *c, uint32_t gi, float x, float z, bool lit)
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
                     fmaxf(1.0f, 9.0f * lay_mark_thickness((lay_mark)mk)), mark_color(c, mk, lit));
        }
        a = b;
    }
}

static void goroutine(tree_ctx *c, uint32_t gi)
{
    const cs_goroutine *g = &c->r->m->g[gi];
    int64_t a = g->create_ns != CS_T_NONE && g->create_ns > c->t0 ? g->create_ns : c->t0;
    if (a > c->t_end)
        return;
    float x, z;
    g_pos(c, gi, &x, &z);
    bool lit = rnd__g_lit(c->r, c->v, gi);
    int64_t b = g->end_ns != CS_T_NONE && g->end_ns < c->t_end ? g->end_ns : c->t_end;
    rnd__seg(&c->r->sc, RND__SEGS, x, ty(c, a), z, x, ty(c, b), z, 1.0f,
             lit ? c->th->life : rnd__dim(c->th->life, 0.6f, c->th->bg));
    line_runs(c, gi, x, z, lit);
    float *s = &c->r->scr[4 * gi];
    if (!project(c, x, ty(c, a), z, &s[0], &s[1]) || !project(c, x, ty(c, b), z, &s[2], &s[3]))
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
    A[1] = ty(c, a->t0), B[1] = ty(c, a->t1);
    return true;
}

/* Message bundles (layout/lod.h), each drawn as its first arrow, then the
 * pulses the bundles hide. */
static void arrows(tree_ctx *c)
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
    rnd__arrows_flying(r, c->v, arrow_ends, c, 8.0f, c->ax);
}

/* Screen-space label placement: a label is drawn only where its box (with
 * a little margin) meets no label drawn before it, in the order of
 * r->label_order (the selection and the hovered goroutine first, then the
 * goroutines with the biggest subtrees). Cells of 4x4 pixels record what
 * is taken. */
typedef struct label_grid {
    uint8_t *cell;
    int gw, gh;
} label_grid;

enum { CELL = 4 };

static bool grid_take(label_grid *g, float x0, float y0, float x1, float y1)
{
    int cx0 = (int)floorf(x0 / CELL), cy0 = (int)floorf(y0 / CELL);
    int cx1 = (int)floorf(x1 / CELL), cy1 = (int)floorf(y1 / CELL);
    if (cx0 < 0 || cy0 < 0 || cx1 >= g->gw || cy1 >= g->gh)
        return false;
    for (int y = cy0; y <= cy1; y++)
        for (int x = cx0; x <= cx1; x++)
            if (g->cell[y * g->gw + x])
                return false;
    for (int y = cy0; y <= cy1; y++)
        memset(g->cell + y * g->gw + cx0, 1, (size_t)(cx1 - cx0 + 1));
    return true;
}

static void label_one(tree_ctx *c, label_grid *grid, uint32_t gi)
{
    const float *s = &c->r->scr[4 * gi];
    if (!gi || c->r->row[gi] < 0 || s[0] < 0 || s[1] < 30 || s[1] > (float)c->h - 30)
        return;
    char buf[96];
    rnd__g_label(c->r, gi, buf, sizeof buf);
    float tw = rnd__text_width(&c->r->font, RND__F11, buf), x = s[0] + 6, y = s[1] + 4;
    if (!grid_take(grid, x - 2, y - 11, x + tw + 2, y + 4))
        return;
    uint32_t col = gi == c->v->selected ? c->th->select : c->th->fg;
    rnd__rect(&c->r->sc, x - 2, y - 10, x + tw + 2, y + 3, rnd__alpha(c->th->bg, 0.7f)); /* lines stay behind */
    rnd__text(&c->r->sc, &c->r->font, RND__F11, x, y, col, buf);
}

static void labels(tree_ctx *c)
{
    label_grid g = {.gw = c->w / CELL + 1, .gh = c->h / CELL + 1};
    g.cell = cs_calloc((size_t)g.gw * (size_t)g.gh, 1);
    if (!g.cell) {
        c->r->sc.oom = true;
        return;
    }
    label_one(c, &g, c->v->selected < c->r->m->n_g ? c->v->selected : 0);
    label_one(c, &g, c->v->hover < c->r->m->n_g && c->v->hover != c->v->selected ? c->v->hover : 0);
    for (uint32_t k = 0; k < c->r->n_order; k++) {
        uint32_t gi = c->r->label_order[k];
        if (gi != c->v->selected && gi != c->v->hover)
            label_one(c, &g, gi);
    }
    cs_free(g.cell);
}

/* The time axis beside the tree: a vertical line at the corner of the
 * shown goroutines' bounding box that lies furthest left on screen,
 * spanning the time they cover, with ticks in real units (any mapping)
 * and each folded gap marked by a break and its length. */
static void time_axis(tree_ctx *c, const float *box, int64_t ta, int64_t tb)
{
    float best = 1e30f, ax = box[0], az = box[2];
    for (int i = 0; i < 4; i++) {
        float x = box[i & 1], z = box[2 + (i >> 1)], sx, sy;
        if (project(c, x, 0, z, &sx, &sy) && sx < best)
            best = sx, ax = x, az = z;
    }
    float dx = ax - 0.5f * (box[0] + box[1]), dz = az - 0.5f * (box[2] + box[3]), dl = hypotf(dx, dz);
    dx = dl > 0 ? dx / dl * 0.04f : -0.04f, dz = dl > 0 ? dz / dl * 0.04f : 0;
    ax += 2 * dx, az += 2 * dz; /* a little outside the box */
    uint32_t dim = c->th->fg_dim;
    rnd__seg(&c->r->sc, RND__SEGS, ax, ty(c, ta), az, ax, ty(c, tb), az, 1.0f, dim);
    float s0x, s0y, s1x, s1y;
    if (!project(c, ax, 1, az, &s0x, &s0y) || !project(c, ax, -1, az, &s1x, &s1y))
        return;
    lay_tick ticks[32];
    uint32_t n = lay_axis_ticks(c->ax, hypotf(s1x - s0x, s1y - s0y), 40.0, ticks, 32);
    for (uint32_t i = 0; i < n; i++) {
        if (ticks[i].t_ns < ta || ticks[i].t_ns > tb)
            continue;
        float y = 1.0f - 2.0f * (float)ticks[i].x, sx, sy;
        rnd__seg(&c->r->sc, RND__SEGS, ax, y, az, ax + dx, y, az + dz, 1.0f, dim);
        if (project(c, ax + dx, y, az + dz, &sx, &sy))
            rnd__text(&c->r->sc, &c->r->font, RND__F11,
                      sx - 6 - rnd__text_width(&c->r->font, RND__F11, ticks[i].label), sy + 4, dim, ticks[i].label);
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
        if (project(c, ax + dx, y, az + dz, &sx, &sy) && fabsf(sy - last) >= 14.0f) {
            rnd__text(&c->r->sc, &c->r->font, RND__F11, sx + 10, sy + 4, dim, buf);
            last = sy;
        }
    }
    c->r->stats.gaps = c->ax->n_gaps;
}

void rnd__tree_build(rnd_renderer *r, const rnd_view *v, int w, int h)
{
    tree_ctx c = {.r = r, .v = v, .th = rnd__theme_get(v->theme), .w = w, .h = h, .ax = &r->lay.axis};
    if (!rnd__lay_lanes(r, v, true))
        return;
    c.t0 = c.ax->t0, c.t1 = c.ax->t1;
    c.t_end = v->now == CS_T_NONE ? c.t1 : (v->now < c.t1 ? v->now : c.t1);
    float maxr = 1e-3f, box[4] = {1e30f, -1e30f, 1e30f, -1e30f};
    int64_t ta = c.t1, tb = c.t0;
    uint32_t nrows = r->lay.lanes.n_lanes;
    for (uint32_t i = 1; i < r->m->n_g; i++) {
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
    c.scale = 1.0f / maxr;
    for (int i = 0; i < 4; i++)
        box[i] = nrows ? box[i] * c.scale : 0;
    ta = ta < c.t0 ? c.t0 : ta, tb = tb > c.t1 || tb < ta ? c.t1 : tb;
    /* a column per pixel of height, fewer when many lines share the budget */
    uint32_t per_g = TREE_SPANS / (nrows ? nrows : 1);
    c.cols = per_g < (uint32_t)h ? (per_g ? per_g : 1) : (uint32_t)h;
    if (!rnd__lay_lod(r, 0, nrows, c.cols, (uint32_t)h / 2 + 1, TREE_ARROWS))
        return;
    camera(&c);
    time_axis(&c, box, ta, tb);
    for (uint32_t k = 0; k < r->n_order; k++)
        if (r->row[r->order[k]] >= 0)
            goroutine(&c, r->order[k]);
    arrows(&c);
    labels(&c);
    r->stats.lanes = nrows;
}

void rnd__point_pick(const rnd_renderer *r, const rnd_view *v, float x, float y, rnd_hit *out)
{
    (void)v;
    float best = 12.0f * 12.0f;
    for (uint32_t i = 1; i < r->m->n_g; i++) {
        const float *s = &r->scr[4 * i];
        if (s[0] < 0)
            continue;
        /* distance to the segment s0 → s1 */
        float dx = s[2] - s[0], dy = s[3] - s[1], l2 = dx * dx + dy * dy;
        float k = l2 > 0 ? ((x - s[0]) * dx + (y - s[1]) * dy) / l2 : 0;
        k = k < 0 ? 0 : k > 1 ? 1 : k;
        float ex = s[0] + k * dx - x, ey = s[1] + k * dy - y, d2 = ex * ex + ey * ey;
        if (d2 < best)
            best = d2, out->g = i;
    }
}
