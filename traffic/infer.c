/* traffic/infer.c — turns classified channel wake-ups into messages
 * (docs/trace-format.md §6.2). Every send/recv/select edge is one completed
 * hand-off: exactly one side of an unbuffered hand-off parks, the other
 * emits the unblock, so the count is exact for unbuffered channels. A close
 * edge is one arrow of a close fan-out. Messages are grouped into logical
 * channels by their pair of code sites (sites.c) and marked exact = 0.
 *
 * Skipped: everything when the trace has patched-runtime GoSend/GoRecv
 * events (those are exact for every operation), and any hand-off already
 * covered by an exact annotated message between the same two goroutines
 * whose log window [t_send, t_recv] contains the unblock. */
#include "internal.h"

#include <stdlib.h>

/* How many annotated windows of one goroutine pair are checked per edge. */
#define DEDUPE_LOOKBACK 8

/* When goroutine g next ran at or after t (it was made runnable at t).
 * cur[g] is a cursor into g's spans: edges come in time order, so each
 * goroutine's cursor only moves forward (one pass over all spans). */
static int64_t resume_time(const cs_model *m, uint32_t *cur, uint32_t g, int64_t t)
{
    const cs_goroutine *gr = &m->g[g];
    uint32_t i = cur[g] > gr->span_first ? cur[g] : gr->span_first, end = gr->span_first + gr->span_count;
    while (i < end && cs_span_t0(m, i) < t)
        i++;
    cur[g] = i;
    for (; i < end; i++) {
        if (m->span_state[i] == CS_ST_RUNNING)
            return cs_span_t0(m, i);
        if (m->span_state[i] != CS_ST_RUNNABLE)
            break;
    }
    return t;
}

static int pair_cmp(const void *a, const void *b, void *ctx)
{
    const cs_msg *msgs = ctx;
    const cs_msg *x = &msgs[*(const uint32_t *)a], *y = &msgs[*(const uint32_t *)b];
    if (x->sender != y->sender)
        return x->sender < y->sender ? -1 : 1;
    if (x->receiver != y->receiver)
        return x->receiver < y->receiver ? -1 : 1;
    int64_t tx = cs_msg_t_send(x), ty = cs_msg_t_send(y);
    return (tx > ty) - (tx < ty);
}

/* Exact messages ordered by (sender, receiver, t_send), for covered(). */
static uint32_t *exact_index(const cs_model *m, uint32_t n, cs_err *err)
{
    uint32_t *idx = cs_alloc((size_t)n * sizeof *idx + 1);
    if (!idx) {
        CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory indexing %u messages", n);
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++)
        idx[i] = i;
    qsort_r(idx, n, sizeof *idx, pair_cmp, m->msgs);
    return idx;
}

static bool covered(const cs_model *m, const uint32_t *idx, uint32_t n, const cs_msg_in *x, int64_t t)
{
    uint32_t lo = 0, hi = n; /* first entry after (sender, receiver, t) */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const cs_msg *y = &m->msgs[idx[mid]];
        bool before = y->sender < x->sender ||
                      (y->sender == x->sender && (y->receiver < x->receiver ||
                                                  (y->receiver == x->receiver && cs_msg_t_send(y) <= t)));
        if (before)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (uint32_t k = 0; k < DEDUPE_LOOKBACK && lo > 0; k++) {
        const cs_msg *y = &m->msgs[idx[--lo]];
        if (y->sender != x->sender || y->receiver != x->receiver)
            break;
        if (cs_msg_t_recv(m, idx[lo]) >= t)
            return true;
    }
    return false;
}

/* The message an edge stands for (without its channel); false when the
 * edge is no hand-off. from_sent: the unblocker was the sending side. */
static bool edge_msg(const cs_model *m, uint32_t *cur, uint32_t ei, cs_msg_in *out, bool *from_sent)
{
    const cs_edge *e = &m->edges[ei];
    *from_sent = e->kind == CS_EK_SEND || e->kind == CS_EK_SELECT_SEND || e->kind == CS_EK_CLOSE;
    if (!*from_sent && e->kind != CS_EK_RECV && e->kind != CS_EK_SELECT_RECV)
        return false;
    int64_t t = cs_edge_ts(m, ei);
    *out = (cs_msg_in){.kind = e->kind == CS_EK_CLOSE ? CS_MK_CLOSE : CS_MK_SEND};
    if (*from_sent) {
        out->sender = e->from, out->receiver = e->to;
        out->t_send = t, out->t_recv = resume_time(m, cur, e->to, t);
    } else {
        out->sender = e->to, out->receiver = e->from;
        out->t_send = out->t_recv = t; /* the receiver took it at once */
    }
    return true;
}

static bool add(trf__ctx *c, cs_msg_in *x, uint32_t ei, bool from_sent, cs_err *err)
{
    const cs_edge *e = &c->m->edges[ei];
    cs_sid s_from = trf__site(c, e->stack, err), s_to = trf__site(c, e->block_stack, err);
    if (err->code != CS_OK)
        return false;
    bool close = x->kind == CS_MK_CLOSE;
    x->chan = from_sent ? trf__chan_by_sites(c, s_from, s_to, close, err)
                        : trf__chan_by_sites(c, s_to, s_from, close, err);
    return x->chan && trf__msg_add(c->m, x, 0, err);
}

bool trf__infer(trf__ctx *c, cs_err *err)
{
    cs_model *m = c->m;
    if (c->patched)
        return true;
    uint32_t n_exact = c->n_exact, *idx = NULL;
    if (n_exact && !(idx = exact_index(m, n_exact, err)))
        return false;
    uint32_t *cur = cs_calloc(m->n_g, sizeof *cur);
    bool ok = cur != NULL;
    if (!ok)
        CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u goroutines", m->n_g);
    for (uint32_t i = 1; ok && i < m->n_edges; i++) {
        cs_msg_in x;
        bool from_sent;
        if (c->drawn_only && i % TRF__TRIM_EVERY == 0 && !(ok = trf__trim(c, i, err)))
            break;
        if (!edge_msg(m, cur, i, &x, &from_sent))
            continue;
        if (!(idx && x.kind == CS_MK_SEND && covered(m, idx, n_exact, &x, cs_edge_ts(m, i))))
            ok = add(c, &x, i, from_sent, err);
    }
    cs_free(idx);
    cs_free(cur);
    return ok;
}
