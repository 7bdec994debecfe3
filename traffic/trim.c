/* traffic/trim.c — trf_keep_drawn(): a finished model cut to what a still
 * picture (png, svg) reads of its wake-ups. Once the messages are made, the
 * channel hand-offs among the edges are drawn as their messages and only
 * the sync wake-ups as edges (layout/arrow.h), so the others go: on a
 * channel-heavy trace they are a third of the model. */
#include "internal.h"

#include <string.h>

bool trf_keep_drawn(cs_model *m, cs_err *err)
{
    if (m->n_edges == 0)
        return true;
    uint32_t n = 1; /* edges[0] stays the reserved "none" */
    for (uint32_t i = 1; i < m->n_edges; i++)
        if (trf_edge_drawn(&m->edges[i]))
            m->edges[n++] = m->edges[i];
    for (uint32_t i = 0; i < m->n_msgs; i++)
        m->msgs[i].edge = 0;
    cs_edge *e = cs_realloc(m->edges, (size_t)n * sizeof *m->edges);
    if (e) /* else the larger block stays: still correct */
        m->edges = e, m->cap_edges = n;
    m->n_edges = n;
    return trf__sync_blocks(m, err); /* the messages' blocks stay as they were */
}
