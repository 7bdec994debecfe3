/* traffic/trim.c — the wake-ups a still picture keeps (trf_build_drawn):
 * once the messages are made, the channel hand-offs among the edges are
 * drawn as their messages and only the sync wake-ups as edges
 * (layout/arrow.h), so the others go, and they go while the messages are
 * inferred: the model never holds both (on a channel-heavy trace the edges
 * are a third of it). */
#include "internal.h"

void trf__trim(trf__ctx *c, uint32_t upto)
{
    cs_model *m = c->m;
    uint32_t w = c->trim_write;
    for (uint32_t i = c->trim_read; i < upto; i++)
        if (trf_edge_drawn(&m->edges[i]))
            m->edges[w++] = m->edges[i];
    c->trim_read = upto, c->trim_write = w;
    cs_release(&m->edges[w], (size_t)(upto - w) * sizeof *m->edges);
}

void trf__trim_end(trf__ctx *c)
{
    cs_model *m = c->m;
    trf__trim(c, m->n_edges);
    cs_edge *e = cs_realloc(m->edges, (size_t)c->trim_write * sizeof *m->edges);
    if (e) /* else the larger block stays: still correct */
        m->edges = e, m->cap_edges = c->trim_write;
    m->n_edges = c->trim_write;
}
