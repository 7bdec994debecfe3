/* traffic/blocks.c — the model's time blocks (cs_model.msg_block,
 * sync_block): per CS_TBLOCK messages, and per CS_TBLOCK edges for their
 * sync wake-ups, the time range they span, so a picture of a time window
 * reads only the blocks that meet it (layout/bundle.c). The messages'
 * are made as they come while they come in order (they usually do), else
 * over them once sorted; the sync wake-ups' last. */
#include "internal.h"

#include <string.h>

static const cs_tblock empty = {INT64_MAX, INT64_MIN}; /* a block nothing widened yet */

static bool alloc_blocks(cs_tblock **b, uint32_t *n, uint32_t items, cs_err *err)
{
    cs_free(*b);
    *n = (items + CS_TBLOCK - 1) / CS_TBLOCK;
    *b = cs_alloc((size_t)*n * sizeof **b + 1);
    if (!*b) {
        *n = 0;
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u time blocks", items / CS_TBLOCK);
    }
    for (uint32_t i = 0; i < *n; i++)
        (*b)[i] = empty;
    return true;
}

static void widen(cs_tblock *b, int64_t t0, int64_t t1)
{
    b->t0 = t0 < b->t0 ? t0 : b->t0;
    b->t1 = t1 > b->t1 ? t1 : b->t1;
}

/* Message i's block takes it in: its send and receive, when it has both. */
static void msg_widen(cs_model *m, uint32_t i)
{
    int64_t ts = cs_msg_t_send(m, i), tr = cs_msg_t_recv(m, i);
    if (ts != CS_T_NONE && tr != CS_T_NONE)
        widen(&m->msg_block[i / CS_TBLOCK], ts, tr);
}

bool trf__msg_blocks(cs_model *m, cs_err *err)
{
    if (!alloc_blocks(&m->msg_block, &m->n_msg_block, m->n_msgs, err))
        return false;
    for (uint32_t i = 0; i < m->n_msgs; i++)
        msg_widen(m, i);
    return true;
}

bool trf__msg_block_add(trf__ctx *c, uint32_t i, cs_err *err)
{
    cs_model *m = c->m;
    if (i / CS_TBLOCK == m->n_msg_block) {
        if (!cs_grow((void **)&m->msg_block, &c->cap_msg_block, m->n_msg_block + 1, sizeof *m->msg_block, err))
            return false;
        m->msg_block[m->n_msg_block++] = empty;
    }
    msg_widen(m, i);
    return true;
}

bool trf__sync_blocks(cs_model *m, cs_err *err)
{
    if (!alloc_blocks(&m->sync_block, &m->n_sync_block, m->n_edges, err))
        return false;
    for (uint32_t i = 0; i < m->n_edges; i++)
        if (trf_edge_drawn(&m->edges[i])) {
            int64_t t = cs_edge_ts(m, i);
            widen(&m->sync_block[i / CS_TBLOCK], t, t);
        }
    return true;
}
