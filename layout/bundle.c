/* layout/bundle.c — arrow bundles of lod.h: every arrow a picture draws
 * (messages, close and sync wake-ups, spawns) between two shown lanes, merged
 * per (kind, sender lane, receiver lane, pixel column of the send) with one
 * sort, so a picture draws at most lanes² × columns arrows however many
 * messages the trace holds. */
#include "lod.h"

#include <stdlib.h>
#include <string.h>

typedef struct arrow {
    int64_t t0, t1;
    uint32_t col, from, to, chan, idx;
    uint8_t kind;
    uint8_t pad[3];
} arrow;

static int arrow_cmp(const void *a, const void *b)
{
    const arrow *x = a, *y = b;
    if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
    if (x->from != y->from) return x->from < y->from ? -1 : 1;
    if (x->to != y->to) return x->to < y->to ? -1 : 1;
    if (x->col != y->col) return x->col < y->col ? -1 : 1;
    if (x->t0 != y->t0) return x->t0 < y->t0 ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

/* 0 when two sorted arrows fall into the same bundle. */
static int arrow_cmp_key(const arrow *x, const arrow *y)
{
    return x->kind != y->kind || x->from != y->from || x->to != y->to || x->col != y->col;
}

static int bundle_cmp(const void *a, const void *b)
{
    const lay_bundle *x = a, *y = b;
    if (x->t0 != y->t0) return x->t0 < y->t0 ? -1 : 1;
    if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
    if (x->from != y->from) return x->from < y->from ? -1 : 1;
    return (x->to > y->to) - (x->to < y->to);
}

typedef struct collect {
    const cs_model *m;
    const lay_axis *a;
    const lay_lanes *l;
    uint32_t cols;
    arrow *v;
    uint32_t n, cap;
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
    if (!cs_grow((void **)&c->v, &c->cap, c->n + 1, sizeof *c->v, err))
        return false;
    double x = lay_axis_x(c->a, t0) * c->cols;
    uint32_t col = x >= c->cols ? c->cols - 1 : (uint32_t)x;
    c->v[c->n++] = (arrow){.t0 = t0, .t1 = t1 < t0 ? t0 : t1, .col = col, .from = lf, .to = lt,
                           .chan = chan, .idx = idx, .kind = (uint8_t)k};
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

bool lay_lod_arrows(const cs_model *m, const lay_axis *a, const lay_lanes *l, uint32_t cols,
                    lay_bundles *out, cs_err *err)
{
    memset(out, 0, sizeof *out);
    collect c = {.m = m, .a = a, .l = l, .cols = cols ? cols : 1, .out = out};
    bool ok = gather(&c, err);
    uint32_t cap = 0;
    if (ok && c.n) {
        qsort(c.v, c.n, sizeof *c.v, arrow_cmp);
        for (uint32_t i = 0; i < c.n && ok; i++) {
            const arrow *w = &c.v[i];
            lay_bundle *prev = out->n ? &out->b[out->n - 1] : NULL;
            if (prev && i && !arrow_cmp_key(&c.v[i - 1], w)) {
                prev->count++;
                continue;
            }
            ok = cs_grow((void **)&out->b, &cap, out->n + 1, sizeof *out->b, err);
            if (ok)
                out->b[out->n++] = (lay_bundle){.t0 = w->t0, .t1 = w->t1, .from = w->from,
                                                .to = w->to, .count = 1, .chan = w->chan,
                                                .first = w->idx, .kind = w->kind};
        }
        if (ok)
            qsort(out->b, out->n, sizeof *out->b, bundle_cmp);
    }
    cs_free(c.v);
    if (!ok)
        lay_bundles_deinit(out);
    return ok;
}

void lay_bundles_deinit(lay_bundles *b)
{
    cs_free(b->b);
    memset(b, 0, sizeof *b);
}
