/* render/tree.c — the 3D spawn tree: time runs top → bottom (gotrace's
 * convention), each goroutine a vertical line at its (x, z) placement from
 * creation to end, thicker where it runs, spawn links from parent to child
 * at creation time, message arrows between the lines, under an orbit camera
 * that starts looking slightly from above. Labels are projected on the CPU
 * and dropped where they would overlap. */
#include "rnd.h"

#include <cglm/cglm.h>
#include <math.h>
#include <string.h>

#define TREE_ARROWS 8000u
#define TREE_SPANS 60000u

typedef struct tree_ctx {
    rnd_renderer *r;
    const rnd_view *v;
    const rnd__theme *th;
    float scale;             /* placement units → world */
    int64_t t0, t1, t_end;
    mat4 mvp;
    int w, h;
    float x, z;              /* the goroutine being drawn */
    bool lit;
} tree_ctx;

static float ty(const tree_ctx *c, int64_t t)
{
    return 1.0f - 2.0f * (float)((double)(t - c->t0) / (double)(c->t1 - c->t0));
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

static void run(void *ctx, int style, int64_t a, int64_t b)
{
    const tree_ctx *c = ctx;
    uint32_t col = c->th->mark[style];
    if (!c->lit || c->v->highlight == RND_HL_CHAN || c->v->highlight == RND_HL_SPAWNS ||
        (c->v->highlight == RND_HL_BLOCKED && style != LAY_MARK_BLOCK_CHAN && style != LAY_MARK_BLOCK_SYNC))
        col = rnd__dim(col, 0.7f, c->th->bg);
    float w = fmaxf(1.0f, 9.0f * lay_mark_thickness(style));
    rnd__seg(&c->r->sc, RND__SEGS, c->x, ty(c, a), c->z, c->x, fminf(ty(c, b), ty(c, a) - 0.002f), c->z, w, col);
}

static void goroutine(tree_ctx *c, uint32_t gi, int64_t col_ns)
{
    const cs_goroutine *g = &c->r->m->g[gi];
    int64_t a = g->create_ns != CS_T_NONE ? g->create_ns : c->t0;
    if (a > c->t_end)
        return;
    g_pos(c, gi, &c->x, &c->z);
    c->lit = rnd__g_lit(c->r, c->v, gi);
    int64_t b = g->end_ns != CS_T_NONE && g->end_ns < c->t_end ? g->end_ns : c->t_end;
    rnd__seg(&c->r->sc, RND__SEGS, c->x, ty(c, a), c->z, c->x, ty(c, b), c->z, 1.0f,
             c->lit ? c->th->life : rnd__dim(c->th->life, 0.6f, c->th->bg));
    rnd__span_runs(c->r->m, gi, c->t0, c->t_end, col_ns, run, c);
    float *s = &c->r->scr[4 * gi];
    if (!project(c, c->x, ty(c, a), c->z, &s[0], &s[1]) || !project(c, c->x, ty(c, b), c->z, &s[2], &s[3]))
        s[0] = -1;
    uint32_t p = g->parent;
    if (p && c->r->row[p] >= 0 && !(g->flags & CS_G_AT_START)) {
        float px, pz;
        g_pos(c, p, &px, &pz);
        uint32_t col = c->v->highlight == RND_HL_SPAWNS ? c->th->fg : c->th->spawn;
        rnd__seg(&c->r->sc, RND__SEGS, px, ty(c, a), pz, c->x, ty(c, a), c->z, 1.0f, col);
    }
}

static void arrows(tree_ctx *c)
{
    rnd_renderer *r = c->r;
    uint32_t lo = 0, hi = rnd__arrow_lower(r, c->t_end + 1);
    uint32_t step = hi - lo > TREE_ARROWS ? (hi - lo) / TREE_ARROWS + 1 : 1;
    for (uint32_t i = lo; i < hi; i += step) {
        const rnd__arrow *a = &r->arrows[i];
        if (r->row[a->from] < 0 || r->row[a->to] < 0)
            continue;
        float A[3], B[3];
        g_pos(c, a->from, &A[0], &A[2]);
        g_pos(c, a->to, &B[0], &B[2]);
        A[1] = ty(c, a->t0), B[1] = ty(c, a->t1);
        rnd__arrow_draw(r, c->v, a, A, B, 8.0f);
        r->stats.msgs_shown++;
    }
}

/* Labels at each goroutine's top, skipping any that would overlap one
 * already placed (a coarse occupancy grid of 8x8-pixel cells). */
static void labels(tree_ctx *c)
{
    enum { CW = 8, CH = 8, GW = 512, GH = 256 };
    static uint8_t grid[GH][GW];
    memset(grid, 0, sizeof grid);
    for (uint32_t k = 0; k < c->r->n_order; k++) {
        uint32_t gi = c->r->order[k];
        const float *s = &c->r->scr[4 * gi];
        if (c->r->row[gi] < 0 || s[0] < 0 || s[0] > (float)c->w || s[1] < 30 || s[1] > (float)c->h - 30)
            continue;
        char buf[96];
        rnd__g_label(c->r, gi, buf, sizeof buf);
        float tw = rnd__text_width(&c->r->font, RND__F11, buf);
        int cx0 = (int)(s[0] + 6) / CW, cx1 = (int)(s[0] + 6 + tw) / CW, cy = (int)(s[1] - 4) / CH;
        bool free = cy >= 0 && cy + 1 < GH && cx1 < GW;
        for (int x = cx0; free && x <= cx1; x++)
            free = !grid[cy][x] && !grid[cy + 1][x];
        if (!free)
            continue;
        for (int x = cx0; x <= cx1; x++)
            grid[cy][x] = grid[cy + 1][x] = 1;
        rnd__text(&c->r->sc, &c->r->font, RND__F11, s[0] + 6, s[1] + 4, c->th->fg, buf);
    }
}

/* Tick marks down a time axis to the left of the tree. */
static void time_axis(tree_ctx *c)
{
    float ax = -1.25f;
    rnd__seg(&c->r->sc, RND__SEGS, ax, 1, 0, ax, -1, 0, 1.0f, c->th->fg_dim);
    lay_tick ticks[32];
    uint32_t n = rnd__ticks(c->r, c->t0, c->t1, 0.6 * c->h, ticks, 32);
    for (uint32_t i = 0; i < n; i++) {
        float y = 1.0f - 2.0f * (float)ticks[i].x, sx, sy;
        rnd__seg(&c->r->sc, RND__SEGS, ax, y, 0, ax + 0.04f, y, 0, 1.0f, c->th->fg_dim);
        if (project(c, ax, y, 0, &sx, &sy))
            rnd__text(&c->r->sc, &c->r->font, RND__F11,
                      sx - 8 - rnd__text_width(&c->r->font, RND__F11, ticks[i].label), sy + 4, c->th->fg_dim,
                      ticks[i].label);
    }
}

void rnd__tree_build(rnd_renderer *r, const rnd_view *v, int w, int h)
{
    tree_ctx c = {.r = r, .v = v, .th = rnd__theme_get(v->theme), .w = w, .h = h};
    c.t0 = v->t0, c.t1 = v->t1 > v->t0 ? v->t1 : v->t0 + 1;
    c.t_end = v->now == CS_T_NONE ? c.t1 : (v->now < c.t1 ? v->now : c.t1);
    float maxr = 1e-3f;
    uint32_t nrows = 0;
    for (uint32_t i = 1; i < r->m->n_g; i++) {
        r->row[i] = rnd__g_visible(r, v, i) ? (int32_t)nrows++ : -1;
        r->scr[4 * i] = -1;
        if (r->row[i] >= 0)
            maxr = fmaxf(maxr, hypotf(r->tree_xz[2 * i], r->tree_xz[2 * i + 1]));
    }
    c.scale = 1.0f / maxr;
    camera(&c);
    /* a column per pixel of height, fewer when many lines share the budget */
    uint32_t per_g = TREE_SPANS / (nrows ? nrows : 1);
    int64_t col_ns = (c.t1 - c.t0) / (per_g < (uint32_t)h ? (per_g ? per_g : 1) : (uint32_t)h);
    time_axis(&c);
    for (uint32_t k = 0; k < r->n_order; k++)
        if (r->row[r->order[k]] >= 0)
            goroutine(&c, r->order[k], col_ns);
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
