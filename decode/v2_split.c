/* decode/v2_split.c — a Go 1.22+ generation on two threads: the reader loop
 * with Go's ordering (v2_reader.c, v2_order*.c) runs on a worker, and the
 * calling thread emits (model, Summarizer, on_event, progress). Moving
 * decoded events between cores costs more than decoding them twice, so only
 * the order crosses: runs of events from one M, which the caller decodes
 * again on cursors of its own and gives the context it predicts from the
 * events before (dec__v2_m_after). The worker keeps the same prediction and
 * sends whole, through a second pipe, every event the caller could not
 * rebuild: anything the ordering made up or rewrote, every event of a type
 * outside dec__v2_plain, and a correction whenever an M's real context differs
 * from the prediction; Sync and CPU samples go whole too. So the caller
 * emits exactly the events, contexts and order of one thread. The first
 * error in event order wins: the caller's, else the worker's once all
 * before it was emitted. */
#include "v2_hot.h"

#include <pthread.h>
#include <string.h>

#define RUN_BITS V2_RUN_BITS
#define RUN_MAX V2_RUN_MAX
#define WHOLE UINT32_MAX              /* run item: take the next whole item */
#define MAX_CURSORS ((UINT32_MAX >> RUN_BITS) - 1)
#define RUNS 16384u                   /* run items in flight */
#define WHOLES 1024u                  /* whole items in flight */
#define NOTES 8                       /* = the size of v2_split.notes */
#define RELEASE_EVERY 256u

enum { W_EVENT, W_CURSOR, W_SKIP, W_SYNC, W_SAMPLE, W_CTX };

typedef struct whole {
    v2_ev ev;         /* W_EVENT, W_CURSOR: the event and its context; W_SYNC: ts; W_SAMPLE: args[0];
                         W_CTX: ctx, the cursor's context from now on */
    uint32_t ci;      /* W_CURSOR, W_SKIP, W_CTX: the cursor (W_CURSOR, W_SKIP: its event is consumed) */
    uint8_t kind;
} whole;

const uint8_t dec__v2_plain[256] = {
    [V2_EvGoStart] = 1, [V2_EvGoUnblock] = 1, [V2_EvGoBlock] = 1, [V2_EvGoStop] = 1, [V2_EvGoDestroy] = 1,
    [V2_EvProcStart] = 1, [V2_EvProcStop] = 1, [V2_EvGoCreate] = 1, [V2_EvGoCreateBlocked] = 1,
    [V2_EvGoSyscallBegin] = 1, [V2_EvGoSyscallEnd] = 1, [V2_EvGoSyscallEndBlocked] = 1, [V2_EvHeapAlloc] = 1,
    [V2_EvHeapGoal] = 1, [V2_EvProcsChange] = 1, [V2_EvGoLabel] = 1, [V2_EvUserLog] = 1,
};

static bool ctx_eq(v2_ctx a, v2_ctx b) { return a.g == b.g && a.p == b.p && a.m == b.m; }

static v2_ctx real_ctx(const v2_order *o, const v2_cur *c)
{
    if (c->mslot == UINT32_MAX)
        return (v2_ctx){V2_NONE, V2_NONE, V2_NONE};
    const v2_mst *m = &o->m[c->mslot];
    return (v2_ctx){m->g, m->p, m->id};
}

/* ---- the worker's side ---- */

static bool stopped(cs_err *err) { return CS_FAIL(err, CS_E_CANCELLED, CS_NO_OFFSET, "the emitter stopped"); }

static bool put_run(v2_split *sp, uint32_t item, cs_err *err)
{
    uint32_t *slot = cs_pipe_slot(&sp->runs);
    if (!slot)
        return stopped(err);
    *slot = item;
    cs_pipe_commit(&sp->runs);
    return true;
}

bool dec__v2_split_flush(v2_split *sp, cs_err *err)
{
    if (!sp->run_len)
        return true;
    uint32_t n = sp->run_len;
    sp->run_len = 0;
    return put_run(sp, sp->run_ci << RUN_BITS | n, err);
}

static bool put_whole(v2_split *sp, uint8_t kind, uint32_t ci, const v2_ev *e, cs_err *err)
{
    if (!dec__v2_split_flush(sp, err))
        return false;
    whole *w = cs_pipe_slot(&sp->wholes);
    if (!w)
        return stopped(err);
    w->ev = *e, w->ci = ci, w->kind = kind;
    cs_pipe_commit(&sp->wholes);
    cs_pipe_publish(&sp->wholes); /* visible before its marker */
    return put_run(sp, WHOLE, err);
}

static bool put_ctx(v2_split *sp, uint32_t ci, cs_err *err)
{
    v2_ctx real = real_ctx(sp->ws.o, &sp->wc[ci]);
    if (ctx_eq(real, sp->wpred[ci]))
        return true;
    sp->wpred[ci] = real;
    return put_whole(sp, W_CTX, ci, &(v2_ev){.ctx = real}, err);
}

void dec__v2_split_copy(v2_split *sp, const v2_ev *e, v2_ctx ctx)
{
    if (sp->n_notes < NOTES)
        sp->notes[sp->n_notes] = (v2_note){*e, ctx, false};
    sp->n_notes++;
}

/* The slow way: every emitted event whole, then every M's context. */
bool dec__v2_split_slow(v2_split *sp, uint32_t ci, cs_err *err)
{
    const v2_ev *own = &sp->wc[ci].ev;
    uint32_t n = sp->n_notes;
    if (n > NOTES)
        return CS_FAIL(err, CS_E_INTERNAL, own->off, "one event ordered into %u", n);
    bool consumed = false;
    for (uint32_t i = 0; i < n; i++) {
        v2_note *t = &sp->notes[i];
        bool mine = t->own && !consumed;
        consumed |= mine;
        v2_ev e = t->own ? *own : t->ev;
        e.ctx = t->ctx;
        if (!put_whole(sp, mine ? W_CURSOR : W_EVENT, ci, &e, err))
            return false;
    }
    if (!consumed && !put_whole(sp, W_SKIP, ci, own, err))
        return false;
    for (uint32_t i = 0; i < sp->g->n_ms; i++) /* the ordering may have moved any M */
        if (!put_ctx(sp, i, err))
            return false;
    return true;
}

bool dec__v2_split_item(v2_split *sp, const v2_ev *e, cs_err *err)
{
    return put_whole(sp, e->type == V2_EvSync ? W_SYNC : W_SAMPLE, 0, e, err);
}

static void *worker(void *arg)
{
    v2_split *sp = arg;
    sp->wok = dec__v2_read_gen(&sp->ws, sp->g, sp, sp->wc, NULL, &sp->werr);
    sp->wok = dec__v2_split_flush(sp, &sp->werr) && sp->wok; /* what was ordered before a failure is emitted */
    cs_pipe_close(&sp->wholes);
    cs_pipe_close(&sp->runs);
    return NULL;
}

/* ---- the caller's side ---- */

typedef struct emitter {
    v2_sink *s;
    v2_gen *g;
    v2_split *sp;
    v2_cur *c;
    v2_ctx *pred;
    uint32_t n;            /* events since the last progress report */
    cs_releases done;      /* the batches its cursors left (the last reader of each) */
} emitter;

static bool next(emitter *em, uint32_t ci, cs_err *err)
{
    bool more;
    if (!dec__v2_cur_next(&em->c[ci], em->g, em->s->f, em->s->nargs, em->s->version, &em->done, &more, err))
        return false;
    return more || CS_FAIL(err, CS_E_INTERNAL, CS_NO_OFFSET, "the emitter ran out of events of M %u", ci);
}

static bool take_whole(emitter *em, cs_err *err)
{
    void *items;
    if (!cs_pipe_peek(&em->sp->wholes, &items))
        return CS_FAIL(err, CS_E_INTERNAL, CS_NO_OFFSET, "a whole event went missing");
    whole w = *(whole *)items;
    cs_pipe_release(&em->sp->wholes, 1);
    if ((w.kind == W_CTX || w.kind == W_SKIP || w.kind == W_CURSOR) && w.ci >= em->g->n_ms)
        return CS_FAIL(err, CS_E_INTERNAL, CS_NO_OFFSET, "no M %u", w.ci);
    switch (w.kind) {
    case W_CTX:
        em->pred[w.ci] = w.ev.ctx;
        return true;
    case W_SYNC:
        return dec__v2_emit_sync(em->s, em->g, w.ev.ts, err);
    case W_SAMPLE:
        return dec__v2_emit_sample(em->s, em->g, &em->g->samples[w.ev.args[0]], err);
    case W_SKIP:
        return next(em, w.ci, err);
    case W_CURSOR:
        if (!next(em, w.ci, err))
            return false;
        break;
    }
    return dec__v2_emit(em->s, em->g, &w.ev, err);
}

static bool progress(emitter *em, cs_err *err)
{
    uint64_t entered = 0;
    for (uint32_t i = 0; i < em->g->n_ms; i++)
        entered += em->c[i].entered;
    return dec__progress(em->s->d, em->g->off + entered, cs_file_total(em->s->f), err);
}

static bool run_of(emitter *em, uint32_t item, cs_err *err)
{
    uint32_t ci = item >> RUN_BITS;
    if (ci >= em->g->n_ms)
        return CS_FAIL(err, CS_E_INTERNAL, CS_NO_OFFSET, "no M %u", ci);
    v2_cur *c = &em->c[ci];
    for (uint32_t k = item & RUN_MAX; k; k--) {
        if (!dec__v2_cur_fast(c, em->g, em->s->nargs) && !next(em, ci, err))
            return false;
        c->ev.ctx = em->pred[ci];
        dec__v2_m_after(&em->pred[ci], c->ev.type, &c->ev);
        if (!(em->s->fast_emit ? dec__v2_emit_fast(em->s, em->g, &c->ev, NULL, err) : dec__v2_emit(em->s, em->g, &c->ev, err)))
            return false;
        if (!(++em->n & 0xffff) && !progress(em, err))
            return false;
    }
    return true;
}

static bool emit_all(emitter *em, cs_err *err)
{
    void *items;
    uint32_t n;
    while ((n = cs_pipe_peek(&em->sp->runs, &items))) {
        if (n > RELEASE_EVERY)
            n = RELEASE_EVERY;
        const uint32_t *run = items;
        for (uint32_t i = 0; i < n; i++)
            if (!(run[i] == WHOLE ? take_whole(em, err) : run_of(em, run[i], err)))
                return false;
        cs_pipe_release(&em->sp->runs, n);
    }
    return true;
}

/* Cursors for every M of g, with their M slots and their contexts now. */
static bool open_cursors(v2_sink *s, v2_gen *g, v2_cur *c, v2_ctx *pred, cs_err *err)
{
    for (uint32_t i = 0; i < g->n_ms; i++) {
        c[i].mslot = dec__v2_mslot(s->o, g->ms[i].m, err);
        if (err->code != CS_OK)
            return false;
        dec__v2_cur_open(&c[i], g, s->f, i);
        pred[i] = real_ctx(s->o, &c[i]);
    }
    return true;
}

bool dec__v2_split_gen(v2_sink *s, v2_gen *g, cs_err *err)
{
    if (g->n_ms > MAX_CURSORS) /* not in any real trace: one thread does it all */
        return dec__v2_read_gen_here(s, g, NULL, err);
    size_t n = g->n_ms + 1;
    void *raw[5];
    v2_split *sp = cs_alloc_lines(sizeof *sp, &raw[0]);
    v2_cur *cur = cs_alloc_lines(n * sizeof *cur, &raw[1]), *wcur = cs_alloc_lines(n * sizeof *cur, &raw[2]);
    v2_ctx *pred = cs_alloc_lines(n * sizeof *pred, &raw[3]), *wpred = cs_alloc_lines(n * sizeof *pred, &raw[4]);
    bool ok = sp && cur && wcur && pred && wpred;
    if (ok) {
        sp->ws = *s, sp->g = g, sp->wc = wcur, sp->wpred = wpred;
        ok = open_cursors(s, g, cur, pred, err);
    } else {
        CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u cursors", g->n_ms);
    }
    emitter em = {.s = s, .g = g, .sp = sp, .c = cur, .pred = pred};
    if (ok) {
        memcpy(wcur, cur, g->n_ms * sizeof *cur);
        memcpy(wpred, pred, g->n_ms * sizeof *pred);
        ok = cs_pipe_init(&sp->runs, sizeof(uint32_t), RUNS, err) &&
             cs_pipe_init(&sp->wholes, sizeof(whole), WHOLES, err);
    }
    pthread_t th;
    if (ok && cs_thread_create(&th, worker, sp)) {
        ok = dec__v2_read_gen(s, g, NULL, cur, NULL, err); /* no thread: one does it all */
    } else if (ok) {
        if (!(ok = emit_all(&em, err))) {
            cs_pipe_abort(&sp->runs);
            cs_pipe_abort(&sp->wholes);
        }
        pthread_join(th, NULL);
        cs_release_flush(&em.done);
        if (ok && !sp->wok)
            *err = sp->werr, ok = false;
    }
    if (sp) {
        cs_pipe_deinit(&sp->runs);
        cs_pipe_deinit(&sp->wholes);
    }
    for (int i = 0; i < 5; i++)
        cs_free(raw[i]);
    return ok;
}
