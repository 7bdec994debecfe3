/* traffic/patched.c — exact messages from gotrace's patched-runtime
 * GoSend/GoRecv events (cs_model.rtmsgs, docs/trace-format.md §7), paired the
 * way gotrace's own parser pairs them: each GoRecv takes the newest earlier
 * GoSend with the same channel id and event id, which is then used up. A
 * match is a message from the send's goroutine at the send's time to the
 * receive's goroutine at the receive's time, exact = 1, with the channel id
 * as cs_chan.rt_id (named "chan <id>") and the element's first word as the
 * value.
 *
 * An unmatched GoRecv whose eid is 0, 222 (the 1.6 patch's "closed and
 * empty") or an id already used up by an earlier pair (a stale wait record)
 * is a receive woken by close: a CS_MK_CLOSE message from the goroutine that
 * last woke the receiver (0 if none, e.g. the channel was already closed).
 * Other unmatched receives (333 = "from the buffer", ids whose send happened
 * before tracing) stay unpaired, as in gotrace. */
#include "internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <xxhash.h>

#define EID_CLOSED 222

static uint64_t key_of(const cs_rtmsg *r)
{
    uint64_t k[2] = {r->cid, r->eid};
    return XXH3_64bits(k, sizeof k);
}

static uint32_t g_index(const cs_model *m, uint64_t goid)
{
    uint32_t i;
    return cs_model_g_find(m, goid, &i) ? i : 0;
}

static uint32_t rt_chan(trf__ctx *c, uint64_t cid, cs_err *err)
{
    uint32_t ci;
    if (cs_map_get(&c->by_id, cid, &ci))
        return ci;
    char name[32];
    int n = snprintf(name, sizeof name, "chan %" PRIu64, cid);
    cs_sid nm = cs_model_intern(c->m, name, (size_t)n, err);
    return nm ? trf__chan_by_id(c, cid, nm, 0, 0, err) : 0;
}

static bool pair(trf__ctx *c, const cs_rtmsg *s, const cs_rtmsg *r, cs_err *err)
{
    cs_model *m = c->m;
    char val[24];
    int n = snprintf(val, sizeof val, "%" PRId64, (int64_t)s->val);
    cs_msg_in x = {.t_send = s->ts, .t_recv = r->ts, .sender = g_index(m, s->goid),
                   .receiver = g_index(m, r->goid), .kind = CS_MK_SEND, .exact = 1};
    cs_sid value = cs_model_intern(m, val, (size_t)n, err);
    if (!value || !(x.chan = rt_chan(c, s->cid, err)))
        return false;
    return trf__msg_add(c, &x, value, err);
}

static bool closed(trf__ctx *c, const cs_rtmsg *r, uint32_t wake, cs_err *err)
{
    cs_model *m = c->m;
    cs_msg_in x = {.t_send = wake ? cs_edge_ts(m, wake) : CS_T_NONE, .t_recv = r->ts,
                   .sender = wake ? m->edges[wake].from : 0, .receiver = g_index(m, r->goid),
                   .kind = CS_MK_CLOSE, .exact = 1};
    return (x.chan = rt_chan(c, r->cid, err)) && trf__msg_add(c, &x, 0, err);
}

typedef struct pstate {
    cs_map head;     /* key -> index + 1 of the newest unmatched send */
    cs_map used;     /* key -> 1 once a pair used it up */
    uint32_t *prev;  /* per rtmsg: index + 1 of the next older send with its key */
    uint32_t *wake;  /* per goroutine: last edge that woke it, so far */
} pstate;

static bool step(trf__ctx *c, pstate *p, uint32_t i, cs_err *err)
{
    const cs_rtmsg *r = &c->m->rtmsgs[i];
    uint64_t key = key_of(r);
    uint32_t h = 0;
    bool have = cs_map_get(&p->head, key, &h) && h;
    if (!r->is_recv) {
        p->prev[i] = have ? h : 0;
        return cs_map_put(&p->head, key, i + 1, err);
    }
    if (have) {
        if (!cs_map_put(&p->head, key, p->prev[h - 1], err) || !cs_map_put(&p->used, key, 1, err))
            return false;
        return pair(c, &c->m->rtmsgs[h - 1], r, err);
    }
    if (r->eid == 0 || r->eid == EID_CLOSED || cs_map_get(&p->used, key, NULL))
        return closed(c, r, p->wake[g_index(c->m, r->goid)], err);
    return true;
}

bool trf__patched(trf__ctx *c, cs_err *err)
{
    cs_model *m = c->m;
    c->patched = m->n_rtmsgs > 0;
    if (!c->patched)
        return true;
    pstate p = {0};
    p.prev = cs_calloc(m->n_rtmsgs, sizeof *p.prev);
    p.wake = cs_calloc(m->n_g, sizeof *p.wake);
    bool ok = p.prev && p.wake;
    if (!ok)
        CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory pairing %u channel events", m->n_rtmsgs);
    uint32_t e = 1;
    for (uint32_t i = 0; ok && i < m->n_rtmsgs; i++) {
        for (; e < m->n_edges && cs_edge_ts(m, e) <= m->rtmsgs[i].ts; e++)
            p.wake[m->edges[e].to] = e;
        ok = step(c, &p, i, err);
    }
    cs_map_deinit(&p.head);
    cs_map_deinit(&p.used);
    cs_free(p.prev);
    cs_free(p.wake);
    c->n_exact = m->n_msgs;
    return ok;
}
