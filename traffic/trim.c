/* traffic/trim.c — the wake-ups a still picture keeps (trf_build_drawn):
 * once the messages are made, the channel hand-offs among the edges are
 * drawn as their messages and only the sync wake-ups as edges
 * (layout/arrow.h), so the others go, and they go while the messages are
 * inferred: the model never holds both (on a channel-heavy trace the edges
 * are a third of it). An edge that moves down is given its time again
 * (cs_edge_ts_set), in its new block. */
#include "internal.h"

bool trf__trim(trf__ctx *c, uint32_t upto, cs_err *err)
{
    cs_model *m = c->m;
    uint32_t w = c->trim_write;
    int64_t base = 0;
    for (uint32_t i = c->trim_read; i < upto; i++) {
        if (i == c->trim_read || !(i & (CS_T0_BLOCK - 1)))
            base = m->edge_t.base[i >> CS_T0_BLOCK_BITS]; /* read before a move sets it anew */
        if (!trf_edge_drawn(&m->edges[i]))
            continue;
        int64_t t = cs_t_at(base, &m->edges[i].t_lo, m->edge_t.wide, i);
        m->edges[w] = m->edges[i];
        if (!cs_edge_ts_set(m, w++, t, err))
            return false;
    }
    c->trim_read = upto, c->trim_write = w;
    cs_release(&m->edges[w], (size_t)(upto - w) * sizeof *m->edges);
    return true;
}

bool trf__trim_end(trf__ctx *c, cs_err *err)
{
    cs_model *m = c->m;
    if (!trf__trim(c, m->n_edges, err))
        return false;
    uint32_t n = c->trim_write, blocks = ((n - 1) >> CS_T0_BLOCK_BITS) + 1;
    cs_edge *e = cs_realloc(m->edges, (size_t)n * sizeof *m->edges);
    if (e) /* else the larger block stays: still correct */
        m->edges = e, m->cap_edges = n;
    int64_t *b = m->edge_t.base ? cs_realloc(m->edge_t.base, (size_t)blocks * sizeof *b) : NULL;
    if (b) /* the wide times of the blocks given up stay: a few per trace */
        m->edge_t.base = b, m->edge_t.cap_base = blocks;
    m->n_edges = n;
    return true;
}
