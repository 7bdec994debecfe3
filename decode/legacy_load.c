/* decode/legacy_load.c — entry point of the legacy decoder (Go 1.5–1.21,
 * docs/trace-format.md §3) and the per-event sink every ordered event goes
 * through: tick -> ns conversion and fake-P moves (§3.8 step 4), validation
 * (legacy_check.c), statistics (legacy_stats.c; both fused for the common
 * events in legacy_hot.h), the model
 * (legacy_model.c) and the caller's on_event.
 *
 * Two paths: the streaming one (1.7+ traces; on_event callers that set
 * loose_order) never holds more than one event per P; the materialised one
 * (1.5 traces, traces with FutileWakeup, on_event callers that want Go's
 * exact order) keeps the event list and runs Go's post-merge steps on it
 * (legacy_post.c). */
#include "legacy.h"
#include "legacy_hot.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

#include "../core/pipe.h"

dec__lg_g *dec__lg_g_get(dec__lg_sink *k, uint64_t goid, cs_err *err)
{
    uint32_t i = dec__lg_gtab_get(&k->gt, goid);
    if (i)
        return &k->g[i];
    if (!(i = dec__lg_gtab_add(&k->gt, goid, err)) ||
        !cs_grow((void **)&k->g, &k->cap_g, i + 1, sizeof *k->g, err))
        return NULL;
    memset(&k->g[i], 0, sizeof k->g[i]);
    k->g[i].goid = goid;
    return &k->g[i];
}

static int64_t to_ns(const dec__lg_sink *k, int64_t ticks)
{
    double x = (double)(int64_t)((uint64_t)ticks - (uint64_t)k->min_ticks) * k->ns_per_tick;
    if (!(x > (double)-CS_T_MAX && x < (double)CS_T_MAX)) /* hostile ticks: keep the model's range */
        return x > 0 ? CS_T_MAX : -CS_T_MAX;
    return (int64_t)x;
}

static uint32_t stack_of(dec__lg_sink *k, uint64_t wire)
{
    uint32_t h = (uint32_t)wire & 63;
    if (k->stk_key[h] != wire) /* slot 0 holds wire id 0 -> 0 from the start */
        k->stk_key[h] = wire, k->stk_val[h] = dec__lg_stack(k->s, wire);
    return k->stk_val[h];
}

static bool emit(dec__lg_sink *k, const dec__lg_ev *ev, cs_err *err)
{
    const dec__lg_desc *d = &dec__lg_descs[ev->type];
    dec_event e = {.off = ev->off, .ts = ev->ts, .p = ev->p, .g = ev->g, .nargs = d->nargs,
                   .type = ev->wire, .type_name = d->name, .kind_name = d->name};
    memcpy(e.args, ev->args, sizeof ev->args);
    if (!(ev->from_create && k->s->ver < 1007))
        e.stack = stack_of(k, ev->stk);
    uint64_t sid = ev->type == LG_STARTLABEL || ev->type == LG_TASKCREATE || ev->type == LG_REGION
                       ? ev->args[2] : 0;
    if (sid) {
        cs_sid s = dec__lg_str_sid(k->s, k->m, sid, err);
        e.sarg = cs_model_str(k->m, s);
        e.sarg_len = strlen(e.sarg);
    } else if (ev->type == LG_LOG) {
        e.sarg = (const char *)k->s->data + ev->str_off;
        e.sarg_len = ev->str_len;
    }
    return err->code == CS_OK && k->d->on_event(k->d->event_ud, &e, err);
}

static bool rtmsg(cs_model *m, const dec__lg_ev *ev, cs_err *err)
{
    if (!cs_grow((void **)&m->rtmsgs, &m->cap_rtmsgs, m->n_rtmsgs + 1, sizeof *m->rtmsgs, err))
        return false;
    m->rtmsgs[m->n_rtmsgs++] = (cs_rtmsg){.ts = ev->ts, .eid = ev->args[0], .cid = ev->args[1],
                                          .val = ev->args[2], .goid = ev->g, .is_recv = ev->type == LG_GORECV};
    return true;
}

bool dec__lg_sink_put(dec__lg_sink *k, dec__lg_ev *ev, cs_err *err)
{
    cs_model *m = k->m;
    if (!k->started)
        k->started = true, k->min_ticks = ev->ts;
    ev->ts = to_ns(k, ev->ts);
    if (ev->type == LG_GOUNBLOCK && k->s->timer_g.count && cs_map_get(&k->s->timer_g, ev->g, &(uint32_t){0}))
        ev->p = LG_TIMERP;
    if (ev->type == LG_SYSEXIT)
        ev->p = LG_SYSCALLP;
    /* Go's validation keeps a record for every event's G (it writes gs[ev.G] back) */
    if (!(k->cur_gi = dec__lg_gtab_get(&k->gt, ev->g))) {
        if (!dec__lg_g_get(k, ev->g, err))
            return false;
        k->cur_gi = dec__lg_gtab_get(&k->gt, ev->g);
    }
    k->g[k->cur_gi].flags |= LG_GF_KNOWN;
    if (!hot_event(k, ev) && (!dec__lg_check(k, ev, err) || !dec__lg_stats_event(k, ev, err)))
        return false;
    if (ev->type == LG_CPUSAMPLE)
        m->n_cpu_samples++;
    if ((ev->type == LG_GOSEND || ev->type == LG_GORECV) && !rtmsg(m, ev, err))
        return false;
    if (k->model && !dec__lg_model_event(k, ev, err))
        return false;
    if (k->d->on_event && !emit(k, ev, err))
        return false;
    m->n_events++;
    m->t_last = ev->ts;
    /* every 256k events (about 1 MB of a legacy trace): bytes in proportion to events */
    if (!(m->n_events & 0x3ffff) && k->d->on_progress && k->s->n_events)
        return dec__progress(k->d, (uint64_t)((double)m->n_events / (double)k->s->n_events * (double)k->s->size),
                             k->s->size, err);
    return true;
}

/* Streaming post-merge (§3.9 steps 1–2): the order check on merged times,
 * then the GoSysExit real time. The stable re-sort is not done: a GoSysExit
 * is consumed at its merge position with its corrected time. Nothing else
 * about its goroutine can happen in between (it is waiting in a syscall), so
 * statistics, validation and the model come out the same. */
static bool stream_put(void *sink, uint32_t cursor, dec__lg_ev *ev, cs_err *err)
{
    (void)cursor;
    dec__lg_sink *k = sink;
    if (k->started && ev->ts < k->last_ticks)
        return CS_FAIL(err, CS_E_INVALID, ev->off, "time stamps out of order");
    k->last_ticks = ev->ts;
    if (ev->type == LG_SYSBLOCK || ev->type == LG_GOINSYSCALL || ev->type == LG_SYSEXIT) {
        dec__lg_g *g = dec__lg_g_get(k, ev->g, err);
        if (!g)
            return false;
        if (ev->type != LG_SYSEXIT) {
            g->last_sys_block = ev->ts;
        } else if (ev->args[2]) {
            int64_t t = (int64_t)ev->args[2];
            if (!g->last_sys_block)
                return CS_FAIL(err, CS_E_INVALID, ev->off, "stray syscall exit");
            if (t < g->last_sys_block)
                return CS_FAIL(err, CS_E_INVALID, ev->off, "time stamps out of order");
            ev->ts = t;
        }
    }
    return dec__lg_sink_put(k, ev, err);
}

static bool list_put(void *list, uint32_t cursor, dec__lg_ev *ev, cs_err *err)
{
    (void)cursor;
    return dec__lg_list_push(list, ev, err);
}

/* Two threads: the merge runs on a worker and passes only the order
 * through a pipe, as runs of events from one cursor (RUN_BITS of length,
 * the cursor above them; a run of a busy trace is some tens of events).
 * This thread decodes the same events again on cursors of its own and
 * feeds the sink, so the model, on_event and progress stay on the caller's
 * thread. Decoding twice costs far less than moving decoded events between
 * cores, whose caches may be far apart. The first error in event order
 * wins: the sink's, else the merge's once everything before it was
 * consumed. */
#define RUN_BITS 12u
#define RUN_MAX ((1u << RUN_BITS) - 1)
#define MAX_CURSORS (1u << (32 - RUN_BITS))

typedef struct merger {
    cs_pipe pipe;
    dec__lg_scan s;  /* the merge's own copy: the original sits beside the busy sink */
    cs_err err;
    bool ok;
    uint32_t run_cur, run_len;  /* the run being gathered */
} merger;

static bool flush_run(merger *w, cs_err *err)
{
    if (!w->run_len)
        return true;
    uint32_t *slot = cs_pipe_slot(&w->pipe);
    if (!slot)
        return CS_FAIL(err, CS_E_CANCELLED, CS_NO_OFFSET, "the sink stopped");
    *slot = w->run_cur << RUN_BITS | w->run_len;
    cs_pipe_commit(&w->pipe);
    w->run_len = 0;
    return true;
}

static bool pipe_put(void *merge, uint32_t cursor, dec__lg_ev *ev, cs_err *err)
{
    (void)ev;
    merger *w = merge;
    if (cursor != w->run_cur || w->run_len == RUN_MAX) {
        if (!flush_run(w, err))
            return false;
        w->run_cur = cursor;
    }
    w->run_len++;
    return true;
}

static void *merge_thread(void *arg)
{
    merger *w = arg;
    w->ok = dec__lg_order1007(&w->s, pipe_put, w, &w->err);
    w->ok = flush_run(w, &w->err) && w->ok;
    cs_pipe_close(&w->pipe);
    return NULL;
}

#define PIPE_ITEMS 16384u  /* runs in flight */
#define RELEASE_EVERY 256u

/* Replays the merge's order on this thread's cursors. */
static bool replay(dec__lg_sink *k, const dec__lg_scan *s, cs_pipe *pipe, dec__lg_cur *c, uint32_t n_cur,
                   cs_err *err)
{
    void *items;
    uint32_t n;
    while ((n = cs_pipe_peek(pipe, &items))) {
        if (n > RELEASE_EVERY)
            n = RELEASE_EVERY;
        const uint32_t *run = items;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t ci = run[i] >> RUN_BITS;
            if (ci >= n_cur)
                return CS_FAIL(err, CS_E_INTERNAL, CS_NO_OFFSET, "merge and sink disagree on P %u", ci);
            dec__lg_cur *cu = &c[ci];
            for (uint32_t j = run[i] & RUN_MAX; j; j--) {
                if (!dec__lg_cur_next(s, cu, err))
                    return false;
                if (!cu->has_head)
                    return CS_FAIL(err, CS_E_INTERNAL, CS_NO_OFFSET, "merge and sink disagree on P %u", ci);
                cu->h.ev.type = dec__lg_plain_type(cu->h.ev.type);
                if (!stream_put(k, ci, &cu->h.ev, err))
                    return false;
            }
        }
        cs_pipe_release(pipe, n);
    }
    return true;
}

static bool run_piped(dec__lg_sink *k, const dec__lg_scan *s, cs_err *err)
{
    uint32_t n_cur = s->n_p + 1;
    if (n_cur > MAX_CURSORS)
        return dec__lg_order1007(s, stream_put, k, err);
    dec__lg_cur *c = cs_calloc(n_cur, sizeof *c);
    void *raw;
    merger *w = cs_alloc_lines(sizeof *w, &raw);
    if (!c || !w) {
        cs_free(c), cs_free(raw);
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u P cursors", n_cur);
    }
    w->s = *s;
    w->s.done = NULL; /* ahead of this thread's cursors, which give the batches back */
    for (uint32_t i = 0; i < n_cur; i++)
        dec__lg_cur_open(s, &c[i], i);
    pthread_t th;
    bool ok = cs_pipe_init(&w->pipe, sizeof(uint32_t), PIPE_ITEMS, err);
    if (ok && cs_thread_create(&th, merge_thread, w)) {
        ok = dec__lg_order1007(s, stream_put, k, err); /* no thread: one does it all */
    } else if (ok) {
        if (!(ok = replay(k, s, &w->pipe, c, n_cur, err)))
            cs_pipe_abort(&w->pipe);
        pthread_join(th, NULL);
        if (ok && !w->ok)
            *err = w->err, ok = false;
    }
    cs_pipe_deinit(&w->pipe);
    cs_free(c);
    cs_free(raw);
    return ok;
}

static bool run_materialised(dec__lg_sink *k, dec__lg_scan *s, cs_err *err)
{
    dec__lg_list l = {0};
    /* sized once from pass 1's count: no doubling, memory stays ~32x the file at worst */
    if (s->n_events >= UINT32_MAX)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "too many events (%llu)", (unsigned long long)s->n_events);
    l.ev = cs_alloc((size_t)s->n_events * sizeof *l.ev + 1);
    l.cap = (uint32_t)s->n_events;
    bool ok = l.ev ? true : CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %llu events",
                                    (unsigned long long)s->n_events);
    ok = ok && (s->ver < 1007 ? dec__lg_order1005(s, &l, err)
                            : dec__lg_order1007(s, list_put, &l, err) && dec__lg_post1007(&l, err));
    ok = ok && dec__lg_remove_futile(&l, err);
    for (uint32_t i = 0; ok && i < l.n; i++)
        if (!l.ev[i].dead)
            ok = dec__lg_sink_put(k, &l.ev[i], err);
    dec__lg_list_free(&l);
    return ok;
}

static void sink_deinit(dec__lg_sink *k)
{
    cs_mb_deinit(&k->mb);
    cs_ids_deinit(&k->gt);
    cs_free(k->g);
    cs_free(k->ps);
    cs_map_deinit(&k->p_map);
    cs_map_deinit(&k->tasks);
    cs_map_deinit(&k->task_ranges);
    cs_free(k->regions);
}

bool dec__legacy_load(const dec_desc *d, const cs_file *f, int version, cs_model *out,
                      cs_stats *stats, cs_err *err)
{
    dec__lg_scan s = {0};
    dec_symtab sym = {0};
    if (d->binary && version < 1007) {
        if (!dec_symtab_open(d->binary, &sym, err))
            return false;
        s.sym = &sym;
    }
    dec__lg_sink k = {.d = d, .s = &s, .m = out, .stats = stats, .model = !d->no_model};
    cs_ids_init(&k.gt, DEC__LG_GTAB_LIMIT(f->size));
    dec__lg_g *g0 = dec__lg_g_get(&k, 0, err); /* goroutine 0 starts running (§3.10) */
    if (g0)
        g0->state = LG_GRUNNING, g0->flags = LG_GF_KNOWN;
    bool ok = g0 && cs_mb_init(&k.mb, out, err) && dec__lg_model_init(&k, err) &&
              dec__lg_scan_run(&s, f, version, d, out, err);
    k.mb.one_thread = d->jobs <= 1;
    cs_releases done = {0};
    s.done = &done; /* the file's pages go as this thread's cursors leave their batches */
    if (ok) {
        k.ns_per_tick = 1e9 / (double)s.freq;
        out->t_first = 0;
        if (version < 1007 || s.has_futile || (d->on_event && !d->loose_order))
            ok = run_materialised(&k, &s, err);
        else if (d->jobs > 1)
            ok = run_piped(&k, &s, err);
        else
            ok = dec__lg_order1007(&s, stream_put, &k, err);
    }
    cs_release_flush(&done);
    ok = ok && dec__lg_stats_finish(&k, err);
    if (ok && k.model) {
        cs_file_release(f); /* every byte is read: the model's grouping may take the room */
        ok = dec__lg_model_finish(&k, err);
    }
    ok = dec__progress(d, f->size, f->size, err) && ok; /* also on failure: the bar ends */
    sink_deinit(&k);
    dec__lg_scan_deinit(&s);
    dec_symtab_close(&sym);
    return ok;
}
