/* layout/tree.c — balloon layout of the spawn tree (tree.h). Bottom-up, in
 * reverse depth-first order, every goroutine gets the smallest disc holding
 * its subtree (radius R, centre offset o from its own point); its children's
 * discs go on one circle of radius r, child i in a wedge of half-angle
 * asin((R_i + gap/2) / r), and r grows until the wedges fit in 2π: discs in
 * disjoint wedges from the same apex cannot meet. Top-down, positions and
 * frame rotations are composed. Index 0 is a virtual root holding the roots. */
#include "tree.h"
#include "internal.h"

#include <math.h>
#include <string.h>

typedef struct node {
    double R, ox, oy;     /* subtree disc: radius and centre offset (local frame) */
    double r;             /* distance of the children's disc centres */
    double theta;         /* angle of this node's disc centre in its parent's frame */
    double wx, wy, rot;   /* world position and frame rotation */
} node;

/* Smallest r where the children's wedges fit around the circle. */
static double ring_radius(const lay__spawn *s, const node *nd, uint32_t v, double rho, double gap)
{
    double rmin = 0, sum = 0;
    for (uint32_t k = s->first[v]; k < s->first[v + 1]; k++) {
        const node *c = &nd[s->child[k]];
        rmin = fmax(rmin, c->R + rho + gap);
        sum += 2 * (c->R + gap / 2);
    }
    double r = fmax(rmin, sum / (2 * M_PI));
    for (int it = 0; it < 200; it++) {
        double ang = 0;
        for (uint32_t k = s->first[v]; k < s->first[v + 1]; k++)
            ang += 2 * asin(fmin(1, (nd[s->child[k]].R + gap / 2) / r));
        if (ang <= 2 * M_PI)
            break;
        r *= 1.02;
    }
    return r;
}

static void place_children(const lay__spawn *s, node *nd, uint32_t v, double rho, double gap)
{
    node *p = &nd[v];
    uint32_t k0 = s->first[v], k1 = s->first[v + 1];
    if (k0 == k1) {
        p->R = rho, p->ox = p->oy = 0, p->r = 0;
        return;
    }
    double r = ring_radius(s, nd, v, rho, gap), used = 0;
    for (uint32_t k = k0; k < k1; k++)
        used += 2 * asin(fmin(1, (nd[s->child[k]].R + gap / 2) / r));
    double slack = (2 * M_PI - used) / (k1 - k0), a = 0;
    double lo_x = -rho, hi_x = rho, lo_y = -rho, hi_y = rho;
    for (uint32_t k = k0; k < k1; k++) {
        node *c = &nd[s->child[k]];
        double w = 2 * asin(fmin(1, (c->R + gap / 2) / r)) + slack;
        c->theta = a + w / 2;
        a += w;
        double cx = r * cos(c->theta), cy = r * sin(c->theta);
        lo_x = fmin(lo_x, cx - c->R), hi_x = fmax(hi_x, cx + c->R);
        lo_y = fmin(lo_y, cy - c->R), hi_y = fmax(hi_y, cy + c->R);
    }
    p->r = r;
    p->ox = (lo_x + hi_x) / 2, p->oy = (lo_y + hi_y) / 2;
    double R = hypot(p->ox, p->oy) + rho;
    for (uint32_t k = k0; k < k1; k++) {
        const node *c = &nd[s->child[k]];
        R = fmax(R, hypot(r * cos(c->theta) - p->ox, r * sin(c->theta) - p->oy) + c->R);
    }
    p->R = R;
}

/* World positions: a child's point sits between its parent and its disc
 * centre, the disc turned so its offset points away from the parent. */
static void compose(const lay__spawn *s, node *nd, uint32_t v)
{
    const node *p = &nd[v];
    for (uint32_t k = s->first[v]; k < s->first[v + 1]; k++) {
        node *c = &nd[s->child[k]];
        double dir = p->rot + c->theta, off = hypot(c->ox, c->oy);
        double d = s->first[1] - s->first[0] == 1 && v == 0 ? 0 : p->r - off;
        c->wx = p->wx + d * cos(dir);
        c->wy = p->wy + d * sin(dir);
        c->rot = dir - (off > 0 ? atan2(c->oy, c->ox) : 0);
    }
}

bool lay_tree_build(const cs_model *m, const lay_tree_desc *d, lay_tree *out, cs_err *err)
{
    memset(out, 0, sizeof *out);
    lay__spawn s;
    if (!lay__spawn_build(m, d->line_of, &s, err))
        return false;
    double sp = d->spacing > 0 ? d->spacing : 1, rho = sp / 2, gap = sp * 0.25;
    uint32_t n = m->n_g ? m->n_g : 1;
    node *nd = cs_calloc(n, sizeof *nd);
    out->x = cs_calloc(n, sizeof *out->x);
    out->z = cs_calloc(n, sizeof *out->z);
    out->depth = cs_calloc(n, sizeof *out->depth);
    bool ok = nd && out->x && out->z && out->depth;
    if (ok) {
        out->n_g = n;
        for (uint32_t i = s.n; i-- > 0;)
            place_children(&s, nd, s.order[i], rho, gap);
        place_children(&s, nd, 0, 0, gap); /* the virtual root is no point */
        compose(&s, nd, 0);
        for (uint32_t i = 0; i < s.n; i++)
            compose(&s, nd, s.order[i]);
        for (uint32_t g = 1; g < n; g++) { /* a goroutine off its own line: at its line's place */
            uint32_t at = d->line_of ? d->line_of[g] : g;
            out->x[g] = (float)nd[at].wx, out->z[g] = (float)nd[at].wy;
            out->depth[g] = at ? s.depth[at] : 0;
            out->radius = fmax(out->radius, hypot(nd[at].wx, nd[at].wy));
        }
    } else {
        CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for a tree of %u goroutines", s.n);
    }
    cs_free(nd);
    lay__spawn_deinit(&s);
    return ok;
}

void lay_tree_deinit(lay_tree *t)
{
    cs_free(t->x), cs_free(t->z), cs_free(t->depth);
    memset(t, 0, sizeof *t);
}

bool lay_tree_orders(const cs_model *m, uint32_t *order, uint32_t *by_size, uint32_t *n, cs_err *err)
{
    if (!*n) {
        lay__spawn s;
        if (!lay__spawn_build(m, NULL, &s, err))
            return false;
        memcpy(order, s.order, (size_t)s.n * sizeof *order);
        *n = s.n;
        lay__spawn_deinit(&s);
    }
    uint32_t *wt = cs_calloc((size_t)m->n_g + 1, sizeof *wt);
    uint64_t *key = cs_alloc((size_t)*n * sizeof *key + 1);
    bool made = wt && key, ok = made;
    if (ok) { /* depth-first: a backwards walk adds every subtree to its parent */
        for (uint32_t k = *n; k-- > 0;) {
            uint32_t g = order[k];
            wt[g] += 1;
            if (m->g[g].parent && m->g[g].parent < m->n_g)
                wt[m->g[g].parent] += wt[g];
        }
        for (uint32_t k = 0; k < *n; k++)
            by_size[k] = order[k], key[k] = (uint64_t)(UINT32_MAX - wt[order[k]]) << 32 | order[k];
        ok = lay__sort_keys(key, by_size, *n, err);
    }
    cs_free(wt), cs_free(key);
    return ok || (made ? false : CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory ordering %u goroutines", *n));
}
