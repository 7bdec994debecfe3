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
 * Two sides, on two threads when the edges are many: the edges' side finds,
 * a window of wake-ups at a time, when each receiver resumed; the
 * messages' side reads each window's hand-offs in order, names their
 * channels and adds their messages, as one thread would. */
#include "internal.h"
#include "../core/file.h"

#include <pthread.h>
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
        if (cs_span_state(m, i) == CS_ST_RUNNING)
            return cs_span_t0(m, i);
        if (cs_span_state(m, i) != CS_ST_RUNNABLE)
            break;
    }
    return t;
}

static int pair_cmp(const void *a, const void *b, void *ctx)
{
    const cs_model *m = ctx;
    uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    uint32_t xs = cs_msg_sender(m, i), ys = cs_msg_sender(m, j);
    uint32_t xr = cs_msg_receiver(m, i), yr = cs_msg_receiver(m, j);
    if (xs != ys)
        return xs < ys ? -1 : 1;
    if (xr != yr)
        return xr < yr ? -1 : 1;
    int64_t tx = cs_msg_t_send(m, i), ty = cs_msg_t_send(m, j);
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
    qsort_r(idx, n, sizeof *idx, pair_cmp, (void *)m);
    return idx;
}

static bool covered(const cs_model *m, const uint32_t *idx, uint32_t n, const cs_msg_in *x, int64_t t)
{
    uint32_t lo = 0, hi = n; /* first entry after (sender, receiver, t) */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        uint32_t ys = cs_msg_sender(m, idx[mid]), yr = cs_msg_receiver(m, idx[mid]);
        bool before = ys < x->sender ||
                      (ys == x->sender && (yr < x->receiver ||
                                           (yr == x->receiver && cs_msg_t_send(m, idx[mid]) <= t)));
        if (before)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (uint32_t k = 0; k < DEDUPE_LOOKBACK && lo > 0; k++) {
        if (cs_msg_sender(m, idx[--lo]) != x->sender || cs_msg_receiver(m, idx[lo]) != x->receiver)
            break;
        if (cs_msg_t_recv(m, idx[lo]) >= t)
            return true;
    }
    return false;
}

/* Whether edge e stands for a hand-off, and whether its unblocker sent. */
static bool edge_is_handoff(const cs_edge *e, bool *from_sent)
{
    *from_sent = e->kind == CS_EK_SEND || e->kind == CS_EK_SELECT_SEND || e->kind == CS_EK_CLOSE;
    return *from_sent || e->kind == CS_EK_RECV || e->kind == CS_EK_SELECT_RECV;
}

/* A window of wake-ups, edges [first, end), with the times of its
 * hand-offs: per slot k (edge first + k) the edge's time, and for a
 * sender's hand-off when its receiver resumed. */
typedef struct window {
    uint32_t first, end;
    int64_t *t;
    int64_t *t_recv;
} window;

/* A window's edges: a thousand receivers get some sixty each, whose spans
 * are read in a row where a quarter of that left a cache miss to each
 * (8% less time for the 7 M of the 117 MB ring than 16384). A still
 * picture's trims (trim.c) go at windows' starts. */
#define WINDOW_EDGES 65536u
_Static_assert(WINDOW_EDGES % CS_T0_BLOCK == 0, "a trim starts at a block's first edge, or at edge 1");

/* Windows in hand on two threads: the messages' side reads one while the
 * edges' side makes the next ones (one thread needs one). */
#define WINDOWS 3u

/* The edges' side: the windows made in order, the cursors of resume_time
 * and, for a still picture, the trim, which only this side touches: edges
 * are trimmed up to the first window the messages' side may still read,
 * which reads its windows' edges but never their times (cs_edge_ts: a
 * trim's cs_edge_ts_set may move the wide times).
 * A window's resume times are found receiver by receiver, each one's in
 * edge order: the same calls of resume_time as edge by edge, but a
 * receiver's spans are read in one go, not at a cache and TLB miss per
 * edge among a thousand goroutines' spans. */
typedef struct edges_side {
    trf__ctx *c;
    uint32_t *cur;        /* per goroutine: resume_time's cursor */
    uint32_t *head;       /* per goroutine: its first slot in the window, or WIN_NONE */
    uint32_t *link;       /* per slot: its receiver's next slot, or WIN_NONE */
    uint32_t *touched;    /* the window's receivers */
    window w[WINDOWS];    /* window i in w[i % n_w] */
    uint32_t n_w;
    cs_msg *msgs;         /* on two threads: the messages' room, made for every wake-up (msgs_room) */
    uint64_t msgs_at;     /* the room's pages faulted in up to message msgs_at... */
    uint32_t msgs_cap;    /* ...of msgs_cap */
    uint32_t made, used;  /* windows made, and those the messages' side is done with */
    bool closed;          /* no more windows will be made */
    bool stopped;         /* the messages' side stopped */
    pthread_mutex_t mu;   /* made, used, closed, stopped, on two threads */
    pthread_cond_t cv;
    bool ok;
    cs_err err;
} edges_side;

#define WIN_NONE UINT32_MAX

/* Window i's first edge (edge 0 is none). */
static uint32_t window_first(uint32_t i)
{
    return i ? i * WINDOW_EDGES : 1;
}

static bool edges_init(edges_side *es, trf__ctx *c, uint32_t n_w, cs_err *err)
{
    uint32_t n_g = c->m->n_g;
    *es = (edges_side){.c = c, .ok = true, .n_w = n_w,
                       .cur = cs_calloc(n_g, sizeof *es->cur), .head = cs_alloc((size_t)n_g * sizeof *es->head),
                       .link = cs_alloc(WINDOW_EDGES * sizeof *es->link),
                       .touched = cs_alloc(WINDOW_EDGES * sizeof *es->touched)};
    bool ok = es->cur && es->head && es->link && es->touched;
    for (uint32_t i = 0; ok && i < n_w; i++) {
        es->w[i].t = cs_alloc(WINDOW_EDGES * sizeof *es->w[i].t);
        es->w[i].t_recv = cs_alloc(WINDOW_EDGES * sizeof *es->w[i].t_recv);
        ok = es->w[i].t && es->w[i].t_recv;
    }
    if (!ok)
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
    for (uint32_t i = 0; i < es->n_w; i++)
        cs_free(es->w[i].t), cs_free(es->w[i].t_recv);
}

/* Makes window i, the messages' side being done with the windows before
 * window `read`: the edges before it trimmed first; on two threads, the
 * pages of the messages it may give faulted in, which the messages' side
 * would otherwise wait on (the one thread that waits on memory anyway). */
static bool make_window(edges_side *es, uint32_t i, uint32_t read)
{
    trf__ctx *c = es->c;
    const cs_model *m = c->m;
    uint32_t first = window_first(i), n = 0, upto = window_first(read), handoffs = 0;
    uint64_t up = (uint64_t)(i + 1) * WINDOW_EDGES;
    uint32_t end = up < m->n_edges ? (uint32_t)up : m->n_edges;
    if (c->drawn_only && upto > c->trim_read && !(es->ok = trf__trim(c, upto, &es->err)))
        return false;
    window *w = &es->w[i % es->n_w];
    for (uint32_t j = end; j-- > first;) { /* lists pushed from the back come out in edge order */
        const cs_edge *e = &m->edges[j];
        bool from_sent;
        if (!edge_is_handoff(e, &from_sent))
            continue;
        uint32_t k = j - first;
        handoffs++;
        w->t[k] = w->t_recv[k] = cs_edge_ts(m, j);
        if (!from_sent)
            continue;
        if (es->head[e->to] == WIN_NONE)
            es->touched[n++] = e->to;
        es->link[k] = es->head[e->to], es->head[e->to] = k;
    }
    for (uint32_t j = 0; j < n; j++) {
        uint32_t g = es->touched[j];
        for (uint32_t k = es->head[g]; k != WIN_NONE; k = es->link[k])
            w->t_recv[k] = resume_time(m, es->cur, g, w->t_recv[k]);
        es->head[g] = WIN_NONE;
    }
    w->first = first, w->end = end;
    if (es->msgs && es->msgs_at < es->msgs_cap) {
        uint64_t to = es->msgs_at + handoffs < es->msgs_cap ? es->msgs_at + handoffs : es->msgs_cap;
        cs_prefault(es->msgs + es->msgs_at, (size_t)(to - es->msgs_at) * sizeof *es->msgs);
        es->msgs_at = to;
    }
    return true;
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

/* The hand-off of edge j, slot k of window w: its message (without its
 * channel), added unless covered. */
static bool add(msgs_side *ms, const window *w, uint32_t j, cs_err *err)
{
    trf__ctx *c = ms->c;
    const cs_edge *e = &c->m->edges[j];
    bool from_sent;
    if (!edge_is_handoff(e, &from_sent))
        return true;
    uint32_t k = j - w->first;
    cs_msg_in x = {.kind = e->kind == CS_EK_CLOSE ? CS_MK_CLOSE : CS_MK_SEND,
                   .t_send = w->t[k], .t_recv = w->t_recv[k]}; /* a receiver's wake-up: t_recv is t */
    x.sender = from_sent ? e->from : e->to, x.receiver = from_sent ? e->to : e->from;
    if (ms->idx && x.kind == CS_MK_SEND && covered(c->m, ms->idx, ms->n_exact, &x, x.t_send))
        return true; /* t_send is the edge's time either way */
    const cs_wsite *site = cs_edge_site(c->m, e);
    cs_sid s_from = trf__site(c, site->stack, err), s_to = trf__site(c, site->block_stack, err);
    if (err->code != CS_OK)
        return false;
    bool close = x.kind == CS_MK_CLOSE;
    x.chan = from_sent ? trf__chan_by_sites(c, s_from, s_to, close, err)
                       : trf__chan_by_sites(c, s_to, s_from, close, err);
    if (!x.chan)
        return false;
    ms->batch[ms->n_batch++] = x;
    return ms->n_batch < BATCH_MSGS || flush(ms, err);
}

static bool read_window(msgs_side *ms, const window *w, cs_err *err)
{
    bool ok = true;
    for (uint32_t j = w->first; ok && j < w->end; j++)
        ok = add(ms, w, j, err);
    return ok;
}

static uint32_t n_windows(const cs_model *m)
{
    return m->n_edges > 1 ? (m->n_edges - 1) / WINDOW_EDGES + 1 : 0;
}

/* With many edges the two sides run on two threads, the edges' side up to
 * two windows ahead: resume_time's walks through the spans of a thousand
 * goroutines wait on memory, and the channels' lookups and the messages'
 * appends, which take less, go on meanwhile. */
#define THREADED_EDGES (2 * WINDOW_EDGES)

static void *edges_thread(void *arg)
{
    edges_side *es = arg;
    uint32_t n = n_windows(es->c->m);
    for (uint32_t i = 0; i < n; i++) {
        pthread_mutex_lock(&es->mu);
        while (i - es->used >= es->n_w && !es->stopped)
            pthread_cond_wait(&es->cv, &es->mu);
        bool stop = es->stopped;
        uint32_t read = es->used;
        pthread_mutex_unlock(&es->mu);
        if (stop || !make_window(es, i, read))
            break;
        pthread_mutex_lock(&es->mu);
        es->made = i + 1;
        pthread_cond_signal(&es->cv);
        pthread_mutex_unlock(&es->mu);
    }
    pthread_mutex_lock(&es->mu);
    es->closed = true;
    pthread_cond_signal(&es->cv);
    pthread_mutex_unlock(&es->mu);
    return NULL;
}

static bool run_threaded(edges_side *es, msgs_side *ms, pthread_t th, cs_err *err)
{
    bool ok = true;
    for (uint32_t i = 0; ok; i++) {
        pthread_mutex_lock(&es->mu);
        while (es->made == i && !es->closed)
            pthread_cond_wait(&es->cv, &es->mu);
        bool have = es->made > i;
        pthread_mutex_unlock(&es->mu);
        if (!have)
            break;
        ok = read_window(ms, &es->w[i % es->n_w], err);
        pthread_mutex_lock(&es->mu);
        es->used = i + 1, es->stopped = !ok;
        pthread_cond_signal(&es->cv);
        pthread_mutex_unlock(&es->mu);
    }
    pthread_join(th, NULL);
    return ok;
}

/* On two threads: room in m->msgs for a message per wake-up, made once
 * (pages come only as the edges' side faults them in, window by window);
 * or none, and no pages faulted in ahead, when the room cannot be had, or
 * when exact messages may cover hand-offs (their pages would be faulted in
 * for nothing). */
static void msgs_room(edges_side *es, cs_model *m, bool exact)
{
    if (!exact && cs_model_msgs_reserve(m, m->n_edges)) /* else they grow as they come */
        es->msgs = m->msgs, es->msgs_at = m->n_msgs, es->msgs_cap = m->cap_msgs;
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
    bool many = m->n_edges >= THREADED_EDGES;
    bool ok = edges_init(&es, c, many ? WINDOWS : 1, err);
    if (ok && !(ms.batch = cs_alloc(BATCH_MSGS * sizeof *ms.batch)))
        ok = CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u messages", BATCH_MSGS);
    pthread_t th;
    bool two = false;
    if (ok && many) {
        msgs_room(&es, m, ms.idx != NULL);
        two = pthread_mutex_init(&es.mu, NULL) == 0;
        if (two && pthread_cond_init(&es.cv, NULL) != 0)
            pthread_mutex_destroy(&es.mu), two = false;
        if (two && cs_thread_create(&th, edges_thread, &es) != 0)
            pthread_cond_destroy(&es.cv), pthread_mutex_destroy(&es.mu), two = false;
        if (!two)
            es.msgs = NULL; /* one does both, and takes its faults */
    }
    if (two) {
        ok = run_threaded(&es, &ms, th, err);
        pthread_cond_destroy(&es.cv);
        pthread_mutex_destroy(&es.mu);
    } else {
        for (uint32_t i = 0, n = n_windows(m); ok && i < n && make_window(&es, i, i); i++)
            ok = read_window(&ms, &es.w[i % es.n_w], err);
    }
    if (ok && !es.ok)
        *err = es.err, ok = false;
    ok = ok && flush(&ms, err);
    cs_free(ms.batch);
    cs_free(idx);
    edges_deinit(&es);
    return ok;
}
