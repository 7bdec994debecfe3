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
 * whose log window [t_send, t_recv] contains the unblock.
 *
 * Two sides, on two threads when the edges are many: the edges' side reads
 * the wake-ups in order and finds when each receiver resumed; the
 * messages' side names the channels and adds the messages, in the same
 * order as one thread would. */
#include "internal.h"
#include "../core/file.h"
#include "../core/pipe.h"

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

/* A hand-off as the edges give it: its message (without its channel), the
 * stacks that name its channel's sites, and which side woke the other. */
typedef struct handoff {
    cs_msg_in x;
    uint32_t stack;       /* the unblocker's */
    uint32_t block_stack; /* the woken goroutine's when it blocked */
    bool from_sent;       /* the unblocker was the sending side */
} handoff;

/* Whether edge e stands for a hand-off, and whether its unblocker sent. */
static bool edge_is_handoff(const cs_edge *e, bool *from_sent)
{
    *from_sent = e->kind == CS_EK_SEND || e->kind == CS_EK_SELECT_SEND || e->kind == CS_EK_CLOSE;
    return *from_sent || e->kind == CS_EK_RECV || e->kind == CS_EK_SELECT_RECV;
}

/* The edges' side: the wake-ups read in order, a window of them at a time,
 * the cursors of resume_time and, for a still picture, the trim, which
 * only this side touches. A window's resume times are found receiver by
 * receiver, each one's in edge order: the same calls of resume_time as
 * edge by edge, but a receiver's spans are read in one go, not at a cache
 * and TLB miss per edge among a thousand goroutines' spans. */
typedef struct edges_side {
    trf__ctx *c;
    uint32_t *cur;        /* per goroutine: resume_time's cursor */
    uint32_t *head;       /* per goroutine: its first slot in the window, or WIN_NONE */
    uint32_t *link;       /* per slot: its receiver's next slot, or WIN_NONE */
    uint32_t *touched;    /* the window's receivers */
    int64_t *t_recv;      /* per slot of a sender's hand-off: when the receiver resumed */
    uint32_t next;        /* the next edge */
    uint32_t win_first, win_end; /* the window: edges [win_first, win_end) */
    cs_pipe pipe;         /* of handoff, when on a thread of its own */
    bool ok;
    cs_err err;
} edges_side;

#define WIN_NONE UINT32_MAX

/* A window's edges: a thousand receivers get some sixty each, whose spans
 * are read in a row where a quarter of that left a cache miss to each
 * (8% less time for the 7 M of the 117 MB ring than 16384); the pipe holds
 * two windows' hand-offs, so the messages' side goes on while the next
 * window is read. */
#define WINDOW_EDGES 65536u
_Static_assert(TRF__TRIM_EVERY % WINDOW_EDGES == 0, "a trim starts at a window's first edge");

static bool edges_init(edges_side *es, trf__ctx *c, cs_err *err)
{
    uint32_t n_g = c->m->n_g;
    *es = (edges_side){.c = c, .next = 1, .win_end = 1, .ok = true,
                       .cur = cs_calloc(n_g, sizeof *es->cur), .head = cs_alloc((size_t)n_g * sizeof *es->head),
                       .link = cs_alloc(WINDOW_EDGES * sizeof *es->link),
                       .touched = cs_alloc(WINDOW_EDGES * sizeof *es->touched),
                       .t_recv = cs_alloc(WINDOW_EDGES * sizeof *es->t_recv)};
    if (!es->cur || !es->head || !es->link || !es->touched || !es->t_recv)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory reading the wake-ups of %u goroutines", n_g);
    for (uint32_t g = 0; g < n_g; g++)
        es->head[g] = WIN_NONE;
    return true;
}

static void edges_deinit(edges_side *es)
{
    cs_free(es->cur);
    cs_free(es->head);
    cs_free(es->link);
    cs_free(es->touched);
    cs_free(es->t_recv);
}

/* The next window, from es->next up to the next multiple of WINDOW_EDGES
 * (the edges before it trimmed, at a multiple of TRF__TRIM_EVERY), with
 * its receivers' resume times. */
static bool window(edges_side *es)
{
    trf__ctx *c = es->c;
    const cs_model *m = c->m;
    uint32_t first = es->next, n = 0;
    uint64_t up = ((uint64_t)first / WINDOW_EDGES + 1) * WINDOW_EDGES;
    uint32_t end = up < m->n_edges ? (uint32_t)up : m->n_edges;
    if (c->drawn_only && first % TRF__TRIM_EVERY == 0 && !(es->ok = trf__trim(c, first, &es->err)))
        return false;
    for (uint32_t i = end; i-- > first;) { /* lists pushed from the back come out in edge order */
        const cs_edge *e = &m->edges[i];
        bool from_sent;
        if (!edge_is_handoff(e, &from_sent) || !from_sent)
            continue;
        uint32_t k = i - first;
        if (es->head[e->to] == WIN_NONE)
            es->touched[n++] = e->to;
        es->link[k] = es->head[e->to], es->head[e->to] = k;
        es->t_recv[k] = cs_edge_ts(m, i);
    }
    for (uint32_t j = 0; j < n; j++) {
        uint32_t g = es->touched[j];
        for (uint32_t k = es->head[g]; k != WIN_NONE; k = es->link[k])
            es->t_recv[k] = resume_time(m, es->cur, g, es->t_recv[k]);
        es->head[g] = WIN_NONE;
    }
    es->win_first = first, es->win_end = end;
    return true;
}

/* The next hand-off into *h; false at the end of the edges or on an
 * error (es->ok). */
static bool next_handoff(edges_side *es, handoff *h)
{
    const cs_model *m = es->c->m;
    for (; es->next < m->n_edges; es->next++) {
        uint32_t i = es->next;
        if (i == es->win_end && !window(es))
            return false;
        const cs_edge *e = &m->edges[i];
        bool from_sent;
        if (!edge_is_handoff(e, &from_sent))
            continue;
        int64_t t = cs_edge_ts(m, i);
        *h = (handoff){.x = {.kind = e->kind == CS_EK_CLOSE ? CS_MK_CLOSE : CS_MK_SEND},
                       .stack = e->stack, .block_stack = e->block_stack, .from_sent = from_sent};
        if (from_sent) {
            h->x.sender = e->from, h->x.receiver = e->to;
            h->x.t_send = t, h->x.t_recv = es->t_recv[i - es->win_first];
        } else {
            h->x.sender = e->to, h->x.receiver = e->from;
            h->x.t_send = h->x.t_recv = t; /* the receiver took it at once */
        }
        es->next++;
        return true;
    }
    return false;
}

/* The messages' side: the channel of a hand-off, and its message unless
 * an exact one covers it, added a batch at a time. */
typedef struct msgs_side {
    trf__ctx *c;
    const uint32_t *idx;  /* exact messages by (sender, receiver, t_send) */
    uint32_t n_exact;
    cs_msg_in *batch;     /* messages found, not added yet (BATCH_MSGS) */
    uint32_t n_batch;
} msgs_side;

#define BATCH_MSGS 4096u

static bool flush(msgs_side *ms, cs_err *err)
{
    uint32_t n = ms->n_batch;
    ms->n_batch = 0;
    return trf__msgs_add(ms->c, ms->batch, n, err);
}

static bool add(msgs_side *ms, handoff *h, cs_err *err)
{
    trf__ctx *c = ms->c;
    cs_msg_in *x = &h->x;
    if (ms->idx && x->kind == CS_MK_SEND && covered(c->m, ms->idx, ms->n_exact, x, x->t_send))
        return true; /* t_send is the edge's time either way */
    cs_sid s_from = trf__site(c, h->stack, err), s_to = trf__site(c, h->block_stack, err);
    if (err->code != CS_OK)
        return false;
    bool close = x->kind == CS_MK_CLOSE;
    x->chan = h->from_sent ? trf__chan_by_sites(c, s_from, s_to, close, err)
                           : trf__chan_by_sites(c, s_to, s_from, close, err);
    if (!x->chan)
        return false;
    ms->batch[ms->n_batch++] = *x;
    return ms->n_batch < BATCH_MSGS || flush(ms, err);
}

/* With many edges the two sides run on two threads, the edges' ahead
 * through a pipe: resume_time's walks through the spans of a thousand
 * goroutines wait on memory, and the channels' lookups and the messages'
 * appends, which take less, go on meanwhile. */
#define THREADED_EDGES TRF__TRIM_EVERY
#define PIPE_HANDOFFS (2 * WINDOW_EDGES)

static void *edges_thread(void *arg)
{
    edges_side *es = arg;
    handoff *slot;
    for (handoff h; next_handoff(es, &h);) {
        if (!(slot = cs_pipe_slot(&es->pipe)))
            break; /* the messages' side stopped */
        *slot = h;
        cs_pipe_commit(&es->pipe);
    }
    cs_pipe_close(&es->pipe);
    return NULL;
}

static bool run_threaded(edges_side *es, msgs_side *ms, pthread_t th, cs_err *err)
{
    bool ok = true;
    void *items;
    for (uint32_t n; ok && (n = cs_pipe_peek(&es->pipe, &items));) {
        handoff *h = items;
        for (uint32_t k = 0; ok && k < n; k++)
            ok = add(ms, &h[k], err);
        cs_pipe_release(&es->pipe, n);
    }
    if (!ok)
        cs_pipe_abort(&es->pipe);
    pthread_join(th, NULL);
    return ok;
}

bool trf__infer(trf__ctx *c, cs_err *err)
{
    cs_model *m = c->m;
    if (c->patched)
        return true;
    msgs_side ms = {.c = c, .n_exact = c->n_exact};
    uint32_t *idx = NULL;
    if (ms.n_exact && !(ms.idx = idx = exact_index(m, ms.n_exact, err)))
        return false;
    edges_side es;
    bool ok = edges_init(&es, c, err);
    if (ok && !(ms.batch = cs_alloc(BATCH_MSGS * sizeof *ms.batch)))
        ok = CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u messages", BATCH_MSGS);
    pthread_t th;
    bool two = false;
    if (ok && m->n_edges >= THREADED_EDGES) {
        ok = cs_pipe_init(&es.pipe, sizeof(handoff), PIPE_HANDOFFS, err);
        two = ok && cs_thread_create(&th, edges_thread, &es) == 0;
        if (ok && !two)
            cs_pipe_deinit(&es.pipe); /* no thread: one does both */
    }
    if (two) {
        ok = run_threaded(&es, &ms, th, err);
        cs_pipe_deinit(&es.pipe);
    } else {
        for (handoff h; ok && next_handoff(&es, &h);)
            ok = add(&ms, &h, err);
    }
    if (ok && !es.ok)
        *err = es.err, ok = false;
    ok = ok && flush(&ms, err);
    cs_free(ms.batch);
    cs_free(idx);
    edges_deinit(&es);
    return ok;
}
