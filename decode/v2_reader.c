/* decode/v2_reader.c — Go's reader loop for one generation of a Go 1.22+
 * trace (go-trace-format.md §4.8): one cursor per M walking its batches in
 * file order, a min-heap of cursors keyed by the next event's time (Go's
 * exact heap, so ties break as in Go), CPU samples merged by time, and the
 * ordering engine deciding which M may advance. Events are decoded straight
 * from the mapped file, one at a time, into a cursor-owned slot: nothing is
 * allocated per event. */
#include "v2.h"

#include <string.h>

typedef struct cursor {
    v2_ev ev;             /* next event of this M */
    dec_buf b;            /* current batch */
    int64_t last;         /* previous event time, ns; 0 = batch not entered */
    uint32_t batch;       /* current batch index, UINT32_MAX at the end */
    uint32_t mslot;
} cursor;

typedef struct hnode { int64_t ts; uint32_t c; } hnode; /* heap entry: cursor and its event time */

typedef struct reader {
    v2_sink *s;
    v2_pipe *pipe;          /* NULL: emit on this thread */
    v2_gen *g;
    const cs_file *f;
    int version;
    cursor *c;
    hnode *heap; uint32_t n_heap;
    uint8_t nargs[256];     /* varints after the type byte (dt included); 0 = not an event here */
    uint64_t entered;       /* bytes of the batches the cursors have entered (progress) */
    uint32_t steps;         /* loop turns, for reporting progress every 64k */
} reader;

/* Fills r->nargs: which type bytes may start an event of this version. */
static void nargs_table(reader *r)
{
    for (unsigned t = 0; t < 256; t++) {
        const v2_spec *sp = dec__v2_spec(t, r->version);
        bool ok = sp && sp->timed && sp->nargs && sp->nargs <= 1 + 5 && t != V2_EvClockSnapshot && t != V2_EvCPUSample;
        r->nargs[t] = ok ? sp->nargs : 0;
    }
}

static bool bad_type(uint8_t type, int version, uint64_t at, cs_err *err)
{
    if (!dec__v2_spec(type, version))
        return CS_FAIL(err, CS_E_CORRUPT, at, "found invalid event type: %u", type);
    return CS_FAIL(err, CS_E_CORRUPT, at, "found event without a timestamp: type=%u", type);
}

/* Decodes the M's next event into c->ev. false + *more=false at the end. */
static bool next_event(reader *r, cursor *c, bool *more, cs_err *err)
{
    v2_gen *g = r->g;
    while (c->batch != UINT32_MAX && c->b.pos == c->b.len) {
        c->batch = g->b[c->batch].next;
        c->last = 0;
        if (c->batch != UINT32_MAX) {
            const v2_batch *bt = &g->b[c->batch];
            c->b = dec_buf_make(r->f->data + bt->data_off, bt->size, bt->data_off);
            r->entered += bt->size;
        }
    }
    *more = c->batch != UINT32_MAX;
    if (!*more)
        return true;
    if (c->last == 0)
        c->last = dec__v2_ns(g, g->b[c->batch].ts);
    uint64_t at = dec_buf_off(&c->b);
    uint8_t type = dec_buf_u8(&c->b);
    unsigned n = r->nargs[type];
    if (!n)
        return bad_type(type, r->version, at, err);
    uint64_t dt;
    dec_buf_uvs(&c->b, &dt, 1);
    dec_buf_uvs(&c->b, c->ev.args, n - 1); /* straight into place: no copy through the stack */
    if (c->b.bad)
        return CS_FAIL(err, CS_E_CORRUPT, at, "found invalid uvarint in event %s", V2_SPEC(type)->name);
    c->ev.type = type;
    c->ev.off = at;
    c->ev.synth = 0;
    c->ev.ts = dec__v2_ns(g, dt) + c->last;
    if (c->ev.ts > V2_T_MAX) /* hostile deltas: stay far from overflow */
        c->ev.ts = V2_T_MAX;
    c->last = c->ev.ts;
    return true;
}

/* ---- Go's frontier heap (internal/trace/batchcursor.go), by event time ---- */

static int64_t key(const reader *r, uint32_t i) { return r->heap[i].ts; }

static void swap(reader *r, uint32_t a, uint32_t b)
{
    hnode t = r->heap[a];
    r->heap[a] = r->heap[b];
    r->heap[b] = t;
}

static uint32_t sift_up(reader *r, uint32_t i)
{
    while (i > 0 && key(r, (i - 1) / 2) > key(r, i)) {
        swap(r, (i - 1) / 2, i);
        i = (i - 1) / 2;
    }
    return i;
}

static void sift_down(reader *r, uint32_t i)
{
    for (;;) {
        uint32_t m = i, l = 2 * i + 1, rr = 2 * i + 2;
        int64_t mt = i < r->n_heap ? key(r, i) : INT64_MAX;
        if (l < r->n_heap && key(r, l) < mt)
            m = l, mt = key(r, l);
        if (rr < r->n_heap && key(r, rr) < mt)
            m = rr;
        if (m == i)
            return;
        swap(r, i, m);
        i = m;
    }
}

static void heap_remove(reader *r, uint32_t i)
{
    while (i > 0) {
        swap(r, (i - 1) / 2, i);
        i = (i - 1) / 2;
    }
    swap(r, 0, r->n_heap - 1);
    r->n_heap--;
    sift_down(r, 0);
}

/* slices.SortFunc on a handful of cursors is an insertion sort: stable. */
static void heap_sort(reader *r)
{
    for (uint32_t i = 1; i < r->n_heap; i++)
        for (uint32_t j = i; j > 0 && key(r, j - 1) > key(r, j); j--)
            swap(r, j - 1, j);
}

static bool try_advance(reader *r, uint32_t i, bool *ok, cs_err *err)
{
    cursor *c = &r->c[r->heap[i].c];
    if (!dec__v2_advance(r->s->o, r->g, &c->ev, c->mslot, ok, err) || !*ok)
        return err->code == CS_OK;
    bool more;
    if (!next_event(r, c, &more, err))
        return false;
    r->heap[i].ts = c->ev.ts;
    if (!more)
        heap_remove(r, i);
    else if (sift_up(r, i) == i)
        sift_down(r, i);
    return true;
}

/* Emits an item inline, or passes it to the emitting thread. */
static bool out(reader *r, const v2_ev *e, cs_err *err)
{
    if (r->pipe) {
        v2_ev *slot = dec__v2_pipe_slot(r->pipe);
        if (!slot)
            return dec__v2_pipe_drain(r->pipe, err);
        *slot = *e;
        dec__v2_pipe_commit(r->pipe);
        return true;
    }
    if (e->type == V2_EvSync)
        return dec__v2_emit_sync(r->s, r->g, e->ts, err);
    if (e->type == V2_EvCPUSample)
        return dec__v2_emit_sample(r->s, r->g, &r->g->samples[e->args[0]], err);
    v2_ev copy = *e; /* emitting rewrites the time; the ordering may still read e */
    return dec__v2_emit(r->s, r->g, &copy, err);
}

/* v2_order's sink for ready events. */
static bool order_out(void *ud, const v2_ev *e, v2_ctx ctx, cs_err *err)
{
    reader *r = ud;
    if (r->pipe) {
        v2_ev *slot = dec__v2_pipe_slot(r->pipe);
        if (!slot)
            return dec__v2_pipe_drain(r->pipe, err);
        *slot = *e;
        slot->ctx = ctx;
        dec__v2_pipe_commit(r->pipe);
        return true;
    }
    /* e is the cursor's event or a handler's local: neither is read again
     * except for GoSwitch's made-up events, whose times get the same fix-up */
    v2_ev *m = (v2_ev *)e;
    m->ctx = ctx;
    return dec__v2_emit(r->s, r->g, m, err);
}

static bool step(reader *r, cs_err *err)
{
    bool ok;
    if (!try_advance(r, 0, &ok, err))
        return false;
    if (ok)
        return true;
    heap_sort(r);
    for (uint32_t i = 1; i < r->n_heap; i++) {
        if (!try_advance(r, i, &ok, err))
            return false;
        if (ok)
            return true;
    }
    const v2_ev *h = &r->c[r->heap[0].c].ev;
    return CS_FAIL(err, CS_E_INVALID, h->off, "broken trace: failed to advance: no M's next event can be ordered (gen %llu, first candidate %s at %lld)",
                   (unsigned long long)r->g->gen, V2_SPEC(h->type)->name, (long long)h->ts);
}

static bool run(reader *r, cs_err *err)
{
    v2_gen *g = r->g;
    for (uint32_t i = 0; i < g->n_ms; i++) {
        cursor *c = &r->c[i];
        memset(c, 0, sizeof *c);
        c->mslot = dec__v2_mslot(r->s->o, g->ms[i].m, err);
        if (err->code != CS_OK)
            return false;
        c->batch = g->ms[i].first;
        const v2_batch *bt = &g->b[c->batch];
        c->b = dec_buf_make(r->f->data + bt->data_off, bt->size, bt->data_off);
        r->entered += bt->size;
        bool more;
        if (!next_event(r, c, &more, err))
            return false;
        if (more) {
            r->heap[r->n_heap] = (hnode){c->ev.ts, i};
            sift_up(r, r->n_heap++);
        }
    }
    if (!out(r, &(v2_ev){.type = V2_EvSync, .ts = dec__v2_ns(g, g->min_ts)}, err))
        return false;
    uint32_t si = 0;
    for (;;) {
        if (!r->n_heap && si == g->n_samples)
            return true;
        /* a generation can be most of the file: report within it too */
        if (!(++r->steps & 0xffff) && !dec__progress(r->s->d, g->off + r->entered, r->f->size, err))
            return false;
        if (si < g->n_samples && (!r->n_heap || g->samples[si].ts < key(r, 0))) {
            if (!out(r, &(v2_ev){.type = V2_EvCPUSample, .args = {si++}}, err))
                return false;
            continue;
        }
        if (!step(r, err))
            return false;
    }
}

bool dec__v2_read_gen(v2_sink *s, v2_gen *g, v2_pipe *pipe, cs_err *err)
{
    reader r = {.s = s, .pipe = pipe, .g = g, .f = s->f, .version = s->version};
    nargs_table(&r);
    s->o->out = order_out;
    s->o->out_ud = &r;
    if (pipe)
        dec__v2_pipe_set_gen(pipe, g);
    r.c = cs_alloc((size_t)g->n_ms * sizeof *r.c + 1);
    r.heap = cs_alloc((size_t)g->n_ms * sizeof *r.heap + 1);
    bool ok = r.c && r.heap ? run(&r, err)
                            : CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u cursors", g->n_ms);
    cs_free(r.c);
    cs_free(r.heap);
    /* the generation's tables are reused for the next one: let the emitter finish */
    return pipe ? dec__v2_pipe_drain(pipe, err) && ok : ok;
}
