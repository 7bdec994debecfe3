/* layout/bundle.c — arrow bundles of lod.h: every arrow a picture draws
 * (messages, close and sync wake-ups, spawns) between two shown lanes, keyed
 * by (kind, sender lane, receiver lane, pixel column of the send) in one
 * 64-bit key and radix-sorted; equal keys merge. While there are more
 * bundles than max_bundles, columns are halved and neighbours merged again
 * (O(bundles) per halving), so a picture draws a bounded number of arrows
 * however many messages the trace holds. */
#include "lod.h"
#include "internal.h"

#include <string.h>

#define LANE_BITS 20
#define COL_BITS 16
#define KEY(kind, from, to, col) \
    ((uint64_t)(kind) << 62 | (uint64_t)(from) << 42 | (uint64_t)(to) << 22 | (uint64_t)(col) << 6)

typedef struct arrow {
    int64_t t0, t1;
    uint32_t chan, idx;
} arrow;

typedef struct collect {
    const cs_model *m;
    const lay_axis *a;
    const lay_lanes *l;
    uint32_t cols;
    arrow *v;
    uint64_t *key;
    uint32_t *ord;
    uint32_t n, cap, cap_k, cap_o;
    lay_bundles *out;
} collect;

static bool add(collect *c, lay_arrow_kind k, int64_t t0, int64_t t1, uint32_t gf, uint32_t gt,
                uint32_t chan, uint32_t idx, cs_err *err)
{
    if (!gf || !gt || gf >= c->m->n_g || gt >= c->m->n_g)
        return true;
    uint32_t lf = c->l->lane_of_g[gf], lt = c->l->lane_of_g[gt];
    if (lf == LAY_NO_LANE || lt == LAY_NO_LANE || t0 == CS_T_NONE || t1 == CS_T_NONE)
        return true;
    if (t1 < c->a->t0 || t0 > c->a->t1)
        return true;
    if ((c->n >= c->cap && !cs_grow((void **)&c->v, &c->cap, c->n + 1, sizeof *c->v, err)) ||
        (c->n >= c->cap_k && !cs_grow((void **)&c->key, &c->cap_k, c->n + 1, sizeof *c->key, err)) ||
        (c->n >= c->cap_o && !cs_grow((void **)&c->ord, &c->cap_o, c->n + 1, sizeof *c->ord, err)))
        return false;
    double x = lay_axis_x(c->a, t0) * c->cols;
    uint32_t col = x >= c->cols ? c->cols - 1 : (uint32_t)x;
    c->v[c->n] = (arrow){.t0 = t0, .t1 = t1 < t0 ? t0 : t1, .chan = chan, .idx = idx};
    c->key[c->n] = KEY(k, lf, lt, col);
    c->ord[c->n] = c->n;
    c->n++;
    c->out->n_arrows[k]++;
    return true;
}

static bool gather(collect *c, cs_err *err)
{
    const cs_model *m = c->m;
    for (uint32_t i = 0; i < m->n_msgs; i++) {
        const cs_msg *g = &m->msgs[i];
        lay_arrow_kind k = g->kind == CS_MK_CLOSE ? LAY_ARROW_CLOSE : LAY_ARROW_CHAN;
        if (!add(c, k, g->t_send, g->t_recv, g->sender, g->receiver, g->chan, i, err))
            return false;
    }
    for (uint32_t i = 1; i < m->n_edges; i++) {
        const cs_edge *e = &m->edges[i];
        if ((e->kind == CS_EK_SYNC || (e->kind == CS_EK_OTHER && e->reason == CS_R_SYNC)) &&
            !add(c, LAY_ARROW_SYNC, e->ts, e->ts, e->from, e->to, 0, i, err))
            return false;
    }
    for (uint32_t g = 1; g < m->n_g; g++)
        if (m->g[g].parent &&
            !add(c, LAY_ARROW_SPAWN, m->g[g].create_ns, m->g[g].create_ns, m->g[g].parent, g, 0, g, err))
            return false;
    return true;
}

/* Adds bundle x to p; the earliest arrow stays the representative. */
static void absorb(lay_bundle *p, const lay_bundle *x)
{
    if (x->t0 < p->t0 || (x->t0 == p->t0 && x->first < p->first)) {
        uint32_t cnt = p->count;
        *p = *x;
        p->count += cnt;
    } else {
        p->count += x->count;
    }
}

/* Merges runs of equal (kind, from, to, col >> shift) in key order. */
static uint32_t merge(lay_bundle *b, uint32_t n, int shift)
{
    uint32_t w = 0;
    for (uint32_t i = 0; i < n; i++) {
        lay_bundle x = b[i];
        x.col >>= shift;
        lay_bundle *p = w ? &b[w - 1] : NULL;
        if (p && p->kind == x.kind && p->from == x.from && p->to == x.to && p->col == x.col) {
            absorb(p, &x);
            continue;
        }
        b[w++] = x;
    }
    return w;
}

/* Bundles into time order (stable, so ties keep kind, from, to order). */
static bool time_order(lay_bundles *out, cs_err *err)
{
    uint64_t *k = cs_alloc((size_t)out->n * sizeof *k + 1);
    uint32_t *o = cs_alloc((size_t)out->n * sizeof *o + 1);
    lay_bundle *b = cs_alloc((size_t)out->n * sizeof *b + 1);
    bool ok = k && o && b;
    for (uint32_t i = 0; ok && i < out->n; i++)
        k[i] = (uint64_t)out->b[i].t0 ^ (1ull << 63), o[i] = i;
    ok = ok && lay__sort_keys(k, o, out->n, err);
    for (uint32_t i = 0; ok && i < out->n; i++)
        b[i] = out->b[o[i]];
    if (ok) {
        cs_free(out->b);
        out->b = b, b = NULL;
    }
    cs_free(k), cs_free(o), cs_free(b);
    return ok || err->code || CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory ordering arrows");
}

static bool make_bundles(collect *c, uint32_t max_bundles, lay_bundles *out, cs_err *err)
{
    out->b = cs_alloc((size_t)c->n * sizeof *out->b + 1);
    if (!out->b)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u arrows", c->n);
    uint32_t n = 0; /* equal keys are neighbours: merged as they are written */
    for (uint32_t i = 0; i < c->n; i++) {
        uint64_t k = c->key[i];
        const arrow *w = &c->v[c->ord[i]];
        lay_bundle x = {.t0 = w->t0, .t1 = w->t1, .from = (uint32_t)(k >> 42) & ((1u << LANE_BITS) - 1),
                        .to = (uint32_t)(k >> 22) & ((1u << LANE_BITS) - 1),
                        .col = (uint32_t)(k >> 6) & ((1u << COL_BITS) - 1), .count = 1,
                        .chan = w->chan, .first = w->idx, .kind = (uint8_t)(k >> 62)};
        if (n && k == c->key[i - 1])
            absorb(&out->b[n - 1], &x);
        else
            out->b[n++] = x;
    }
    out->n = n;
    out->cols = c->cols;
    while (max_bundles && out->n > max_bundles && out->cols > 1) {
        out->n = merge(out->b, out->n, 1);
        out->cols = (out->cols + 1) / 2;
    }
    return time_order(out, err);
}

bool lay_lod_arrows(const cs_model *m, const lay_axis *a, const lay_lanes *l, uint32_t cols,
                    uint32_t max_bundles, lay_bundles *out, cs_err *err)
{
    memset(out, 0, sizeof *out);
    if (l->n_lanes >= 1u << LANE_BITS)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "too many lanes to bundle arrows (%u)", l->n_lanes);
    cols = cols < 1 ? 1 : cols >= 1u << COL_BITS ? (1u << COL_BITS) - 1 : cols;
    collect c = {.m = m, .a = a, .l = l, .cols = cols, .out = out};
    /* room for every arrow the model can give, so gathering never reallocates */
    uint64_t most = (uint64_t)m->n_msgs + m->n_edges + m->n_g;
    if (most < UINT32_MAX && (!cs_grow((void **)&c.v, &c.cap, (uint32_t)most, sizeof *c.v, err) ||
                              !cs_grow((void **)&c.key, &c.cap_k, (uint32_t)most, sizeof *c.key, err) ||
                              !cs_grow((void **)&c.ord, &c.cap_o, (uint32_t)most, sizeof *c.ord, err))) {
        cs_free(c.v), cs_free(c.key), cs_free(c.ord);
        return false;
    }
    bool ok = gather(&c, err) && lay__sort_keys(c.key, c.ord, c.n, err) &&
              make_bundles(&c, max_bundles, out, err);
    cs_free(c.v), cs_free(c.key), cs_free(c.ord);
    if (!ok)
        lay_bundles_deinit(out);
    return ok;
}

void lay_bundles_deinit(lay_bundles *b)
{
    cs_free(b->b);
    memset(b, 0, sizeof *b);
}
