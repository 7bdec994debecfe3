/* decode/v2_ahead.c — a part of a Go 1.22+ trace ordered and summarized on
 * a worker while the calling thread does the part before it. A part runs
 * from a cut inside one generation (v2_cut.c) up to the next cut or the end
 * of the file. Generations are independent once their tables are read but
 * for the state one hands to the next, and a cut's state is whatever the
 * events before it left; the worker starts from a state it does not know:
 * an M's goroutine and proc are what the M's own events just before the
 * cut say, or unknown (V2_UNK) until the part says; a goroutine, proc or
 * task that the part names is taken to be what it needs to be (its status,
 * its next sequence number); and whatever the ordering (v2_order*.c) and
 * the Summarizer (v2_stats.c) take for granted of the state before is
 * written down: a mark assist, a sweep or a collection that the part
 * ends or finds active without having seen it begin was in flight at the
 * cut; a user region a goroutine ends with none of its own open was its
 * innermost one open there, if it had any; the time Go's reader gave the
 * last event before the cut (from the last of the generation before on,
 * last_before). On join each assumption is checked against the real state
 * at the cut; if all hold, the worker's result is what one thread would
 * have computed, and its state is laid over the real one; so must Go's
 * frontier at the cut, which the worker replays (v2_front.c), be the one
 * the calling thread reached. Otherwise, or if the worker met anything it
 * does not handle (a stop-the-world going on across the cut, an abandoned
 * proc, an error), the calling thread orders the part itself. A sink that
 * builds the model has the worker build the part's in a model of its own,
 * which the join puts after the caller's (dec__v2_model_join) when it can
 * place all of it. Not for on_event, which needs every event in order. */
#include "v2.h"

#include <string.h>

struct v2_ahead {
    const v2_sink *s;      /* the caller's; read-only while the worker runs */
    uint64_t from, to;     /* its part: from the cut at byte `from` up to the one at byte `to` (0: the end) */
    bool settles;          /* moves its cut where the work evens out (settled_cut) */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool settled;          /* `from` is final */
    uint64_t stop;         /* the offset of the generation `to` is in */
    v2_gen g, prev;        /* the generation being read, and the one before (part) */
    v2_order o;
    v2_sum sum;
    cs_model m;            /* the strings and stacks the worker's Summarizer names things with */
    dec_desc d;            /* the caller's, whose progress only asks whether the result is still wanted */
    _Atomic bool dropped;  /* the caller failed: stop soon */
    _Atomic bool gave_up;  /* the worker failed: its part is the caller's */
    v2_sink ws;
    int64_t last_ts;       /* the time taken for the last event before the cut (last_before) */
    v2_front start, end;   /* Go's frontier at its cut as taken, and at its `to` */
    int64_t sync0;         /* the time taken for the Sync of the generation of its cut: right in the
                              first generation, else checked when used (v2_sum.sync_used) */
    uint32_t *cut_stk;     /* with a model: its first stacks' slots in the generation of its cut */
    uint32_t n_cut_stk;
    uint32_t gens;         /* generations it ordered from their start */
    bool ok;
    cs_err err;
    pthread_t th;
};

/* The time Go's reader gives the last event before the cut: its events
 * there are stamped a nanosecond after one another from the Sync on (sync,
 * when that is after their own times; it takes the n of them only when
 * they could go on that far), unless later by their own (`latest`). */
static bool last_before(v2_ahead *a, int64_t sync, int64_t latest, int64_t from, uint64_t bytes, int64_t *last)
{
    uint64_t n = 0;
    int64_t ignored;
    if (sync + (int64_t)bytes > latest &&
        !dec__v2_gen_tally(&a->g, a->s->f, a->ws.nargs, a->s->version, false, from, &n, &ignored, &a->err))
        return false;
    *last = sync + (int64_t)n > latest ? sync + (int64_t)n : latest;
    return true;
}

/* The generation the part starts inside of: cursors at the cut, the Ms as
 * their events before it say (in batches of `bytes` at most), the time of
 * the last event before it. */
static bool first_gen(v2_ahead *a, v2_span *sp, uint64_t bytes)
{
    v2_gen *g = &a->g;
    v2_cur *c = cs_calloc((size_t)g->n_ms + 1, sizeof *c), *at = cs_calloc((size_t)g->n_ms + 1, sizeof *at);
    v2_look *lk = cs_calloc((size_t)g->n_ms + 1, sizeof *lk);
    bool ok = c && at && lk ? dec__v2_open_at(&a->ws, g, c, sp->from, lk, &a->err) &&
                                  dec__v2_front_at(&a->ws, g, at, sp->from, &a->start, &a->err)
                            : CS_FAIL(&a->err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u cursors", g->n_ms);
    int64_t last = INT64_MIN;
    for (uint32_t i = 0; ok && i < g->n_ms; i++) {
        last = lk[i].last > last ? lk[i].last : last;
        ok = c[i].mslot == UINT32_MAX || dec__v2_order_look(&a->o, g->gen, c[i].mslot, &lk[i], &a->err);
    }
    for (uint32_t i = 0; i < g->n_samples && g->samples[i].ts < sp->from; i++)
        last = g->samples[i].ts > last ? g->samples[i].ts : last;
    ok = ok && last_before(a, a->sync0, last, sp->from, bytes, &last);
    a->last_ts = a->ws.last_ts = last;
    sp->start = a->start;
    ok = ok && dec__v2_read_gen(&a->ws, g, NULL, c, sp, &a->err);
    if (ok && !a->d.no_model) { /* the stacks the caller may have met before the cut too */
        a->n_cut_stk = a->m.n_stack;
        if (!(a->cut_stk = cs_calloc((size_t)a->n_cut_stk + 1, sizeof *a->cut_stk)))
            ok = CS_FAIL(&a->err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u stacks", a->n_cut_stk);
        for (uint32_t i = 0; ok && i < g->n_stk; i++)
            if (g->stk[i].mstack1 && g->stk[i].mstack1 - 1 < a->n_cut_stk)
                a->cut_stk[g->stk[i].mstack1 - 1] = i;
    }
    cs_free(c);
    cs_free(at);
    cs_free(lk);
    return ok;
}

/* The time of the last event of the generation before, scanned (prev). */
static bool gen_last(v2_ahead *a, int64_t *t)
{
    uint64_t n;
    return dec__v2_gen_tables(a->s->f, a->s->version, &a->prev, &a->err) &&
           dec__v2_gen_tally(&a->prev, a->s->f, a->ws.nargs, a->s->version, true, INT64_MAX, &n, t, &a->err);
}

static void settle(v2_ahead *a, uint64_t from)
{
    pthread_mutex_lock(&a->mu);
    if (!a->settled)
        a->from = from, a->settled = true;
    pthread_cond_signal(&a->cv);
    pthread_mutex_unlock(&a->mu);
}

uint64_t dec__v2_ahead_cut(v2_ahead *a)
{
    pthread_mutex_lock(&a->mu);
    while (!a->settled)
        pthread_cond_wait(&a->cv, &a->mu);
    uint64_t from = a->from;
    pthread_mutex_unlock(&a->mu);
    return from;
}

/* Where a single worker's cut goes, from a->from in the generation at
 * [off, next). The replay up to the cut costs about half as much as
 * ordering: with no model, a third of the way from the generation's
 * start to the cut goes to the caller, the cut staying inside the
 * generation. Building the model costs far more than ordering, and the
 * replay about a seventh of what building the model from the same bytes
 * does: the cut moves on to the next generation's start, where there is
 * next to nothing to replay, only when that start is nearer than a
 * seventh of the way back to this one's (the file's end is no start).
 * Moved on to a start 6% of the file away, the 117 MB Go 1.25 ring's
 * parts were 57% and 43% of it, and both were done 0.1-0.2 s later than
 * with the cut inside (medians of 6 rounds, twice). */
static uint64_t settled_cut(const v2_ahead *a, uint64_t off, uint64_t next, uint64_t size)
{
    if (a->d.no_model) {
        uint64_t later = a->from + (a->from - off) / 3;
        return later < next - 1 ? later : next - 1;
    }
    return next < size && next - a->from < (a->from - off) / 7 ? next : a->from;
}

static bool part(v2_ahead *a)
{
    const cs_file *f = a->s->f;
    int version = a->s->version;
    bool in = false;
    for (uint64_t off = 16, next; off < f->size; off = next) {
        bool trunc;
        const char *why;
        uint64_t at;
        v2_gen was = a->prev; /* the scan of the generation before kept (gen_last) */
        a->prev = a->g, a->g = was;
        if (!dec__v2_gen_scan(f, off, version, &a->g, &next, &trunc, &a->err))
            return false;
        if (off == 16)
            a->o.initial_gen = a->g.gen;
        bool starts = !in && dec__v2_cut_in(&a->g, a->from, &at);
        if (!in && !starts)
            continue;
        if (starts && a->settles) {
            settle(a, settled_cut(a, off, next, f->size));
            if (!(starts = dec__v2_cut_in(&a->g, a->from, &at)))
                continue; /* on to the next generation's start */
        }
        if (next == f->size && dec__v2_gen_incomplete(&a->g, version, &why))
            return dec__v2_not_ahead(off, why, &a->err);
        if (!dec__v2_gen_tables(f, version, &a->g, &a->err))
            return false;
        v2_span sp = {.from = INT64_MIN, .to = INT64_MAX};
        if (starts && !dec__v2_cut_time(&a->g, at, &sp.from, &a->err))
            return false;
        bool stops = a->to && dec__v2_cut_in(&a->g, a->to, &at);
        if (stops && !dec__v2_cut_time(&a->g, at, &sp.to, &a->err))
            return false;
        if (starts) {
            in = true;
            a->o.cut_gen = a->g.gen;
            /* its Sync's time: the generation's earliest (Go's installGen), or a
             * nanosecond after the last event before (checked on join) */
            int64_t t = dec__v2_ns(&a->g, a->g.min_ts), end = 0;
            if (a->g.gen != a->o.initial_gen && !gen_last(a, &end))
                return false;
            a->sum.sync_ts = a->ws.sync_ts = a->sync0 = t > end ? t : end + 1;
            a->sum.sync_taken = true;
            if (!first_gen(a, &sp, at))
                return false;
        } else if (!dec__v2_read_gen_here(&a->ws, &a->g, &sp, &a->err)) {
            return false;
        } else {
            a->gens++;
        }
        /* read: what reading it mapped again goes too (its scan gave the generation back,
         * its readers each batch they left); from the cut on in the first, whose bytes
         * before are the caller's to read (and those after too, now and then: a page
         * given back is read again from the file) */
        if (!stops)
            cs_file_release_range(f, starts ? a->from : off, next);
        if (stops) {
            a->stop = off, a->end = sp.end;
            return true;
        }
        cs_free(sp.end.c);
    }
    return in && !a->to;
}

static void *work(void *arg)
{
    v2_ahead *a = arg;
    a->ok = part(a);
    settle(a, a->from); /* as it was, if it never got there */
    atomic_store(&a->gave_up, !a->ok);
    return NULL;
}

/* The worker's progress reports: only the caller's thread reports to the
 * user; the worker's say whether to go on. */
static bool wanted(void *ud, uint64_t done_bytes, uint64_t total_bytes)
{
    (void)done_bytes, (void)total_bytes;
    return !atomic_load((_Atomic bool *)ud);
}

v2_ahead *dec__v2_ahead_start(const v2_sink *s, uint64_t from, uint64_t to, bool settles)
{
    v2_ahead *a = cs_calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->s = s, a->from = from, a->to = to, a->settles = settles;
    a->settled = !settles; /* else the caller waits for the whole part at the cut's generation */
    pthread_mutex_init(&a->mu, NULL);
    pthread_cond_init(&a->cv, NULL);
    cs_model_init(&a->m);
    a->o.ahead = a->sum.ahead = true;
    a->d = *s->d;
    a->d.on_progress = wanted;
    a->d.progress_ud = (void *)&a->dropped;
    a->ws = (v2_sink){.d = &a->d, .f = s->f, .version = s->version, .m = &a->m, .o = &a->o,
                      .sum = s->sum ? &a->sum : NULL, .fast_order = s->fast_order, .fast_emit = s->fast_emit,
                      .part = true};
    memcpy(a->ws.nargs, s->nargs, sizeof a->ws.nargs);
    cs_err err = {0};
    bool built = a->d.no_model || cs_mb_init(&a->ws.mb, &a->m, &err); /* else no worker: the caller does it */
    a->ws.mb.part = true;
    if (!built || cs_thread_create(&a->th, work, a)) {
        pthread_mutex_destroy(&a->mu);
        pthread_cond_destroy(&a->cv);
        cs_mb_deinit(&a->ws.mb);
        cs_model_deinit(&a->m);
        cs_free(a);
        return NULL;
    }
    return a;
}

/* ---- the checks ---- */

static v2_task *task_of(v2_order *o, uint64_t id)
{
    uint32_t s = cs_ids_get(&o->task_ids, id, false, NULL);
    return s == UINT32_MAX || s >= o->n_tasks ? NULL : &o->tasks[s];
}

/* In flight at the cut: a mark assist or a sweep (`type`) when the worker
 * took one to be (`before`, v2_order_res.c), else nothing. */
static bool same_ranges(const v2_range *r, uint8_t n, uint8_t before, uint8_t type)
{
    return before & V2_RANGE_IN ? n == 1 && dec__v2_has_range(r, n, type, NULL, 0) : !n;
}

/* The regions the worker's goroutine ended with none of its own open
 * (w->pre) were the innermost of g's at the cut, as far as g had any:
 * where it had none left, Go takes an end for one begun before the trace
 * (order.go, endRegion), as the worker did. */
static bool same_regions(const v2_gext *g, const v2_gext *w)
{
    uint32_t n = g ? g->n_reg : 0, k = w ? w->n_pre : 0;
    for (uint32_t i = 0; i < k && i < n; i++)
        if (!dec__v2_same_region(&g->reg[n - 1 - i], &w->pre[i]))
            return false;
    return true;
}

/* Whether assumption x of worker a holds of the real state o, where Go's
 * ordering would have done with the event what the worker did. */
static bool holds(v2_order *o, v2_ahead *a, const v2_assume *x)
{
    uint64_t cut_gen = a->o.cut_gen;
    v2_gst *g;
    v2_pst *p;
    v2_mst *m;
    v2_task *t;
    const v2_gst *w;
    uint8_t before;
    switch (x->kind) {
    case V2A_G_HAS: case V2A_G_SEQ:
        g = dec__v2_gget(o, x->id);
        w = &a->o.g[cs_ids_get(&a->o.gids, x->id, false, NULL)]; /* made when the worker took this */
        return g && g->status == x->st && same_regions(g->x, w->x) &&
               same_ranges(g->x ? g->x->ranges : NULL, g->n_ranges, w->before, V2_EvGCMarkAssistBegin) &&
               (x->kind == V2A_G_HAS || (g->seq_gen == cut_gen && g->seq == x->v));
    case V2A_P_NONE:
        return !dec__v2_pget(o, x->id);
    case V2A_P_HAS: case V2A_P_SEQ:
        before = a->o.p[cs_ids_get(&a->o.pids, x->id, false, NULL)].before;
        p = dec__v2_pget(o, x->id);
        return p && p->status == x->st && same_ranges(p->ranges, p->n_ranges, before, V2_EvGCSweepBegin) &&
               (x->kind == V2A_P_HAS || (p->seq_gen == cut_gen && p->seq == x->v));
    case V2A_M_G:
        return ((m = dec__v2_mget(o, x->id)) ? m->g : V2_NONE) == x->v;
    case V2A_M_P:
        return ((m = dec__v2_mget(o, x->id)) ? m->p : V2_NONE) == x->v;
    case V2A_GC:
        if (x->st == V2_EvGCActive && x->id) /* in the first generation: the first GC event */
            return o->gc_state == GC_UNDET;
        if (x->st == V2_EvGCBegin)
            return o->gc_state == GC_UNDET || (o->gc_state == GC_NOT_RUNNING && x->v == o->gc_seq + 1);
        return o->gc_state == GC_RUNNING && x->v == o->gc_seq + 1;
    case V2A_TASK_NONE:
        return !(t = task_of(o, x->id)) || !t->live;
    }
    return false;
}

/* ---- laying the worker's state over the real one ---- */

/* The regions of goroutine x of the worker laid over the real one's (was,
 * freed or taken over; kept, when out of memory): if the worker took x's
 * state from before the cut, those open there that x did not end
 * (same_regions), then x's own. */
static bool merge_regions(v2_gext *was, v2_gst *x, cs_err *err)
{
    v2_gext *w = x->x;
    uint32_t n = was && (x->before & V2_BEFORE) ? was->n_reg : 0, k = w ? w->n_pre : 0;
    uint32_t keep = n > k ? n - k : 0;
    if (w)
        w->n_pre = 0; /* the caller's state from now on: nothing assumed */
    if (keep && !w) {
        was->n_reg = keep, was->n_pre = 0;
        x->x = was;
        return true;
    }
    if (keep && !cs_grow((void **)&w->reg, &w->cap_reg, keep + w->n_reg, sizeof *w->reg, err))
        return false;
    if (keep) {
        memmove(w->reg + keep, w->reg, (size_t)w->n_reg * sizeof *w->reg);
        memcpy(w->reg, was->reg, (size_t)keep * sizeof *w->reg);
        w->n_reg += keep;
    }
    dec__v2_gext_free(was);
    return true;
}

static bool put_g(v2_order *o, v2_gst *x, cs_err *err)
{
    if (!x->exists && !o->ahead) { /* gone in the part: gone here too */
        v2_gst *g = dec__v2_gget(o, x->id);
        dec__v2_gext_free(x->x);
        x->x = NULL;
        if (g)
            g->exists = 0;
        return !g || dec__v2_g_gone(o, g, err);
    }
    uint32_t s = dec__v2_gslot(o, x->id, err);
    if (s == UINT32_MAX)
        return false;
    if (!merge_regions(o->g[s].x, x, err))
        return false;
    o->g[s] = *x;
    o->g[s].sum_slot = 0, o->g[s].before = 0; /* a slot of the worker's Summarizer; the worker's to check */
    x->x = NULL; /* moved */
    return true;
}

static bool put_p(v2_order *o, const v2_pst *x, cs_err *err)
{
    uint32_t s = cs_ids_get(&o->pids, x->id, true, err);
    if (s == UINT32_MAX || !cs_grow((void **)&o->p, &o->cap_p, s + 1, sizeof *o->p, err))
        return false;
    o->p[s] = *x;
    o->p[s].before = 0;
    return true;
}

static bool put_task(v2_order *o, const v2_task *x, cs_err *err)
{
    uint32_t s = cs_ids_get(&o->task_ids, x->id, true, err);
    if (s == UINT32_MAX || !cs_grow((void **)&o->tasks, &o->cap_tasks, s + 1, sizeof *o->tasks, err))
        return false;
    if (s >= o->n_tasks)
        o->n_tasks = s + 1;
    o->tasks[s] = *x;
    return true;
}

/* The worker's goroutines laid over o's a batch at a time, each batch's
 * pages given back once laid (put_g left nothing in them to free). */
#define LAY_BATCH 65536u

static bool lay_over(v2_order *o, v2_order *a, cs_err *err)
{
    for (uint32_t i = 0; i < a->n_g; i++) {
        if (!put_g(o, &a->g[i], err))
            return false;
        if (!((i + 1) % LAY_BATCH))
            cs_release(a->g + i + 1 - LAY_BATCH, (size_t)LAY_BATCH * sizeof *a->g);
    }
    for (uint32_t i = 0; i < a->pids.n; i++)
        if (!put_p(o, &a->p[i], err))
            return false;
    for (uint32_t i = 0; i < a->n_tasks; i++)
        if (!put_task(o, &a->tasks[i], err))
            return false;
    for (uint32_t i = 0; i < a->mids.n; i++) {
        const v2_mst *x = &a->m[i];
        uint32_t s = dec__v2_mslot(o, x->id, err);
        if (s == UINT32_MAX)
            return false;
        if (x->g != V2_UNK)
            o->m[s].g = x->g;
        if (x->p != V2_UNK)
            o->m[s].p = x->p;
    }
    if (a->gc_seen)
        o->gc_seq = a->gc_seq, o->gc_state = a->gc_state;
    if (!o->initial_gen) /* the caller ordered nothing of the first generation itself */
        o->initial_gen = a->initial_gen;
    return true;
}

static void ahead_free(v2_ahead *a)
{
    pthread_mutex_destroy(&a->mu);
    pthread_cond_destroy(&a->cv);
    cs_free(a->start.c);
    cs_free(a->end.c);
    cs_free(a->cut_stk);
    cs_mb_deinit(&a->ws.mb);
    dec__v2_model_sink_free(&a->ws);
    dec__v2_gen_deinit(&a->g);
    dec__v2_gen_deinit(&a->prev);
    dec__v2_order_deinit(&a->o);
    dec__v2_sum_deinit(&a->sum);
    cs_model_deinit(&a->m);
    cs_free(a);
}

static bool same_front(const v2_front *x, const v2_front *y)
{
    return x->n == y->n && (!x->n || !memcmp(x->c, y->c, x->n * sizeof *x->c));
}

/* The part's events have the times one thread gives them: it took the
 * time of the last event before its cut for what it is, or its first event
 * comes after both, so that neither moved it (dec__v2_after_last), nor any
 * after it. The latest time read before the cut may fall short of that
 * event's: events read at one time are emitted a nanosecond apart. */
static bool same_times(const v2_ahead *a, const v2_sink *s)
{
    return a->last_ts == s->last_ts ||
           (a->ws.n_events && a->ws.first_ts > a->last_ts && a->ws.first_ts > s->last_ts);
}

/* Its Sync's time, where it needed it: in the first generation, whose
 * goroutines were there since it, or for a range active since the Sync of
 * the cut's generation (the model's such ranges take the real time on
 * join, dec__v2_model_join). */
static bool same_sync(const v2_ahead *a, const v2_sink *s)
{
    return (a->o.cut_gen != a->o.initial_gen && !a->sum.sync_used) || a->sync0 == s->sync_ts;
}

bool dec__v2_ahead_join(v2_sink *s, v2_ahead *a, const v2_gen *g, v2_front *fr, bool *used, uint32_t *gens,
                        uint64_t *stop, cs_err *err)
{
    pthread_join(a->th, NULL);
    *used = false;
    bool model = !s->d->no_model;
    bool fits = a->ok && same_times(a, s) && same_front(&a->start, fr) &&
                same_sync(a, s) && (!model || dec__v2_model_fits(s, &a->ws));
    for (uint32_t i = 0; fits && i < a->o.n_as; i++)
        fits = holds(s->o, a, &a->o.as[i]);
    for (uint32_t i = 0; fits && i < a->o.n_g_none; i++)
        fits = !dec__v2_gget(s->o, a->o.g_none[i]);
    fits = fits && (!s->sum || dec__v2_sum_fits(s->sum, &a->sum));
    /* the model first: its strings go in in the part's order, as on one thread */
    bool ok = !fits || !model || dec__v2_model_join(s, &a->ws, g, a->cut_stk, a->n_cut_stk, err);
    ok = ok && (!fits || !s->sum || dec__v2_sum_join(s->sum, s->m, &a->sum, &a->m, err));
    if (ok && fits) {
        ok = lay_over(s->o, &a->o, err);
        s->n_events += a->ws.n_events, s->syncs += a->ws.syncs, s->last_ts = a->ws.last_ts;
        if (a->ws.syncs)
            s->sync_ts = a->ws.sync_ts;
        *used = true, *gens = a->gens, *stop = a->stop;
        cs_free(fr->c);
        *fr = a->end, a->end = (v2_front){0};
    }
    ahead_free(a);
    return ok;
}

bool dec__v2_ahead_failed(v2_ahead *a)
{
    return atomic_load(&a->gave_up);
}

void dec__v2_ahead_drop(v2_ahead *a)
{
    atomic_store(&a->dropped, true);
    pthread_join(a->th, NULL);
    ahead_free(a);
}
