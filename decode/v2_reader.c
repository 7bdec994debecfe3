/* decode/v2_reader.c — Go's reader loop for one generation of a Go 1.22+
 * trace (docs/trace-format.md §4.8): one cursor per M walking its batches in
 * file order, a min-heap of cursors keyed by the next event's time (Go's
 * exact heap, so ties break as in Go), CPU samples merged by time, and the
 * ordering engine deciding which M may advance. Events are decoded straight
 * from the mapped file, one at a time, into a cursor-owned slot: nothing is
 * allocated per event. Ordered events are emitted inline, or noted for the
 * emitting thread (v2_split.c). */
#include "v2_heap.h"
#include "v2_hot.h"

#include <string.h>

typedef struct reader {
    v2_sink *s;
    v2_split *sp;           /* NULL: emit on this thread */
    v2_gen *g;
    const cs_file *f;
    uint64_t total;         /* the input's size, 0 while a stream's is not known (progress) */
    v2_cur *c;
    v2_heap hp;             /* Go's frontier */
    uint32_t steps;         /* loop turns, for reporting progress every 64k */
    v2_span span;
    bool ends;              /* leaves its frontier in span.end */
    cs_releases done;       /* the batches its cursors left; with sp, the emitting thread's to give back */
} reader;

void dec__v2_nargs(int version, uint8_t nargs[256])
{
    for (unsigned t = 0; t < 256; t++) {
        const v2_spec *sp = dec__v2_spec(t, version);
        bool ok = sp && sp->timed && sp->nargs && sp->nargs <= 1 + 5 && t != V2_EvClockSnapshot && t != V2_EvCPUSample;
        nargs[t] = ok ? sp->nargs : 0;
    }
}

static bool bad_type(uint8_t type, int version, uint64_t at, cs_err *err)
{
    if (!dec__v2_spec(type, version))
        return CS_FAIL(err, CS_E_CORRUPT, at, "found invalid event type: %u", type);
    return CS_FAIL(err, CS_E_CORRUPT, at, "found event without a timestamp: type=%u", type);
}

void dec__v2_cur_batch(v2_cur *c, const v2_gen *g, const cs_file *f, uint32_t b)
{
    uint32_t mslot = c->mslot;
    memset(c, 0, sizeof *c);
    c->mslot = mslot;
    c->batch = b;
    const v2_batch *bt = &g->b[b];
    c->b = dec_buf_make(cs_file_at(f, bt->data_off), bt->size, bt->data_off);
    c->entered = bt->size;
}

bool dec__v2_cur_next(v2_cur *c, const v2_gen *g, const cs_file *f, const uint8_t *nargs, int version,
                      cs_releases *done, bool *more, cs_err *err)
{
    while (c->batch != UINT32_MAX && c->b.pos == c->b.len) {
        const v2_batch *left = &g->b[c->batch];
        if (done)
            cs_file_release_add(f, done, left->data_off, left->data_off + left->size);
        c->batch = left->next;
        c->last = 0, c->fast_len = 0;
        if (c->batch != UINT32_MAX) {
            const v2_batch *bt = &g->b[c->batch];
            c->b = dec_buf_make(cs_file_at(f, bt->data_off), bt->size, bt->data_off);
            c->entered += bt->size;
        }
    }
    *more = c->batch != UINT32_MAX;
    if (!*more)
        return true;
    if (c->last == 0)
        c->last = dec__v2_ns(g, g->b[c->batch].ts);
    uint64_t at = dec_buf_off(&c->b);
    uint8_t type = dec_buf_u8(&c->b);
    unsigned n = nargs[type];
    if (!n)
        return bad_type(type, version, at, err);
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
    c->fast_len = c->last ? dec_fast_end(c->b.len, V2_FAST_NEED) : 0;
    return true;
}

static bool next_event(reader *r, v2_cur *c, bool *more, cs_err *err)
{
    return dec__v2_cur_next(c, r->g, r->f, r->s->nargs, r->s->version, r->sp ? NULL : &r->done, more, err);
}

static int64_t key(const reader *r, uint32_t i) { return r->hp.h[i].ts; }

static bool try_advance(reader *r, uint32_t i, bool *ok, cs_err *err)
{
    v2_cur *c = &r->c[r->hp.h[i].c];
    if (r->sp)
        dec__v2_split_begin(r->sp, &c->ev);
    if (!dec__v2_advance(r->s->o, r->g, &c->ev, c->mslot, ok, err) || !*ok)
        return err->code == CS_OK;
    if (r->sp && !dec__v2_split_done(r->sp, r->hp.h[i].c, err))
        return false;
    bool more;
    if (!next_event(r, c, &more, err))
        return false;
    r->hp.h[i].ts = c->ev.ts;
    if (!more)
        dec__v2_heap_remove(&r->hp, i);
    else if (dec__v2_heap_up(&r->hp, i) == i)
        dec__v2_heap_down(&r->hp, i);
    return true;
}

/* Emits a Sync or CPU sample inline, or passes it to the emitting thread. */
static bool out(reader *r, const v2_ev *e, cs_err *err)
{
    if (r->sp)
        return dec__v2_split_item(r->sp, e, err);
    if (e->type == V2_EvSync)
        return dec__v2_emit_sync(r->s, r->g, e->ts, err);
    return dec__v2_emit_sample(r->s, r->g, &r->g->samples[e->args[0]], err);
}

/* v2_order's sink for ready events. */
static bool order_out(void *ud, const v2_ev *e, v2_ctx ctx, cs_err *err)
{
    reader *r = ud;
    if (r->sp) {
        dec__v2_split_note(r->sp, e, ctx);
        return true;
    }
    /* e is the cursor's event or a handler's local: neither is read again
     * except for GoSwitch's made-up events, whose times get the same fix-up */
    v2_ev *m = (v2_ev *)e;
    m->ctx = ctx;
    return dec__v2_emit(r->s, r->g, m, err);
}

/* Hot steps in a row, up to the next progress report, CPU sample or the
 * end of the span (events at times after `upto` wait); made for each way
 * of handing events on (sp: to the emitting thread). */
static inline __attribute__((always_inline)) bool hot_steps(reader *r, v2_split *sp, int64_t upto, cs_err *err)
{
    v2_sink *s = r->s;
    v2_order *o = s->o;
    v2_gen *g = r->g;
    const uint8_t *nargs = s->nargs;
    bool fast = s->fast_emit;
    uint64_t gen = g->gen;
    int64_t stays = INT64_MIN;
    uint32_t n = sp ? UINT32_MAX : 0xffff - (r->steps & 0xffff), left = n;
    if (!r->hp.n)
        return true;
    uint32_t ci = r->hp.h[0].c;
    v2_cur *c = &r->c[ci]; /* the root's */
    bool ok = true;
    for (; left > 1 && c->ev.ts <= upto; left--) {
        v2_gst *og;
        if (!dec__v2_hot_advance(o, gen, &c->ev, c->mslot, &og))
            break;
        if (!(sp ? dec__v2_split_hot(sp, ci, &c->ev, err)
                 : fast ? dec__v2_emit_fast(s, g, &c->ev, og, err) : dec__v2_emit(s, g, &c->ev, err))) {
            ok = false;
            break;
        }
        if (!dec__v2_cur_fast(c, g, nargs)) {
            bool more;
            if (!next_event(r, c, &more, err)) {
                ok = false;
                break;
            }
            if (!more) {
                dec__v2_heap_remove(&r->hp, 0);
                if (!r->hp.n) {
                    left--;
                    break;
                }
                stays = INT64_MIN;
                c = &r->c[ci = r->hp.h[0].c];
                continue;
            }
        }
        r->hp.h[0].ts = c->ev.ts;
        if (c->ev.ts > stays) {
            dec__v2_heap_root_down(&r->hp);
            stays = dec__v2_heap_stays(&r->hp);
            c = &r->c[ci = r->hp.h[0].c];
        }
    }
    if (!sp)
        r->steps += n - left;
    return ok;
}

static bool hot_run(reader *r, int64_t upto, cs_err *err)
{
    if (!r->s->fast_order)
        return true;
    return r->sp ? hot_steps(r, r->sp, upto, err) : hot_steps(r, NULL, upto, err);
}

static bool step(reader *r, cs_err *err)
{
    bool ok;
    if (!try_advance(r, 0, &ok, err))
        return false;
    if (ok)
        return true;
    dec__v2_heap_sort(&r->hp);
    for (uint32_t i = 1; i < r->hp.n; i++) {
        if (key(r, i) >= r->span.to) { /* after the cut: an event before it waits for one after */
            if (!r->span.go_on)
                return dec__v2_not_ahead(r->c[r->hp.h[0].c].ev.off, "an event waits for one after the cut", err);
            r->span.stuck = true;
            r->span.to = INT64_MAX;
        }
        if (!try_advance(r, i, &ok, err))
            return false;
        if (ok)
            return true;
    }
    const v2_ev *h = &r->c[r->hp.h[0].c].ev;
    return CS_FAIL(err, CS_E_INVALID, h->off, "broken trace: failed to advance: no M's next event can be ordered (gen %llu, first candidate %s at %lld)",
                   (unsigned long long)r->g->gen, V2_SPEC(h->type)->name, (long long)h->ts);
}

static bool run(reader *r, cs_err *err)
{
    v2_gen *g = r->g;
    bool start = r->span.from == INT64_MIN;
    if (start) {
        for (uint32_t i = 0; i < g->n_ms; i++) {
            v2_cur *c = &r->c[i];
            bool more;
            if (!next_event(r, c, &more, err))
                return false;
            if (more) {
                r->hp.h[r->hp.n] = (v2_hnode){c->ev.ts, i};
                dec__v2_heap_up(&r->hp, r->hp.n++);
            }
        }
    } else { /* seeked to the cut: Go's frontier there */
        for (uint32_t k = 0; k < r->span.start.n; k++)
            r->hp.h[k] = (v2_hnode){r->c[r->span.start.c[k]].ev.ts, r->span.start.c[k]};
        r->hp.n = r->span.start.n;
    }
    if (start && !out(r, &(v2_ev){.type = V2_EvSync, .ts = dec__v2_ns(g, g->min_ts)}, err))
        return false;
    uint32_t si = 0;
    while (si < g->n_samples && g->samples[si].ts < r->span.from)
        si++;
    for (;;) {
        bool events = r->hp.n && key(r, 0) < r->span.to;
        if (!events && (si == g->n_samples || g->samples[si].ts >= r->span.to))
            return !r->ends || r->span.stuck || dec__v2_front_of(&r->hp, &r->span.end, err);
        /* a generation can be most of the file: report within it too (the
         * emitting thread reports when there is one) */
        if (!r->sp && !(++r->steps & 0xffff)) {
            uint64_t entered = 0;
            for (uint32_t i = 0; i < g->n_ms; i++)
                entered += r->c[i].entered;
            if (!dec__progress(r->s->d, g->off + entered, r->total, err))
                return false;
        }
        if (si < g->n_samples && (!events || g->samples[si].ts < key(r, 0))) {
            if (!out(r, &(v2_ev){.type = V2_EvCPUSample, .args = {si++}}, err))
                return false;
            continue;
        }
        if (!step(r, err))
            return false;
        int64_t upto = si < g->n_samples ? g->samples[si].ts : INT64_MAX;
        if (!hot_run(r, upto < r->span.to ? upto : r->span.to - 1, err))
            return false;
    }
}

bool dec__v2_read_gen_here(v2_sink *s, v2_gen *g, v2_span *span, cs_err *err)
{
    v2_cur *c = cs_calloc((size_t)g->n_ms + 1, sizeof *c);
    if (!c)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u cursors", g->n_ms);
    bool ok = dec__v2_open_at(s, g, c, span ? span->from : INT64_MIN, NULL, err) &&
              dec__v2_read_gen(s, g, NULL, c, span, err);
    cs_free(c);
    return ok;
}

bool dec__v2_read_gen(v2_sink *s, v2_gen *g, v2_split *sp, v2_cur *c, v2_span *span, cs_err *err)
{
    reader r = {.s = s, .sp = sp, .g = g, .f = s->f, .total = cs_file_total(s->f), .c = c,
                .span = {.from = INT64_MIN, .to = INT64_MAX}};
    if (span)
        r.span = *span, r.ends = true;
    s->o->out = order_out;
    s->o->out_ud = &r;
    r.hp.h = cs_alloc((size_t)g->n_ms * sizeof *r.hp.h + 1);
    bool ok = r.hp.h ? run(&r, err)
                     : CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u cursors", g->n_ms);
    cs_free(r.hp.h);
    cs_release_flush(&r.done);
    if (span)
        span->stuck = r.span.stuck, span->end = r.span.end;
    return ok;
}
