/* decode/v2_stats.c — Go 1.27's Summarizer (internal/trace/summary.go) over
 * the ordered public events of a Go 1.22+ trace, streaming, quirks included
 * (docs/trace-format.md §5.2): exec, sched wait, block time by reason,
 * syscall, syscall-blocked, total and range times per goroutine, plus
 * name/PC/creation/start/end. Per-goroutine maps are short linked lists in
 * one pool (a goroutine has a handful of reasons and ranges). Fed by
 * v2_emit.c; dec__v2_sum_finish writes cs_stats. */
#include "v2.h"

#include <stdio.h>
#include <string.h>

static v2_sg *sg_get(v2_sum *s, uint64_t goid, cs_err *err)
{
    uint32_t slot = cs_ids_get(&s->ids, goid, true, err);
    if (slot == UINT32_MAX)
        return NULL;
    if (slot >= s->n_g) { /* zeroed as slots are taken: the capacity beyond is never touched */
        if (!cs_grow((void **)&s->g, &s->cap_g, slot + 1, sizeof *s->g, err))
            return NULL;
        memset(s->g + s->n_g, 0, (size_t)(slot + 1 - s->n_g) * sizeof *s->g);
        s->n_g = slot + 1;
    }
    return &s->g[slot];
}

static v2_sg *sg_find(v2_sum *s, uint64_t goid)
{
    uint32_t slot = goid == V2_NONE ? UINT32_MAX : cs_ids_get(&s->ids, goid, false, NULL);
    return slot < s->n_g && s->g[slot].present ? &s->g[slot] : NULL;
}

/* Ahead: the first look at P id `key` of sys_p in the generation (get or
 * delete; a set is not a look) finds nothing there: the map before the
 * generation must not have had it either, checked on join. */
static bool sys_look(v2_sum *s, uint64_t key, bool set, cs_err *err)
{
    uint32_t v;
    if (!s->ahead || cs_map_get(&s->sys_seen, key, &v))
        return true;
    if (!cs_map_put(&s->sys_seen, key, 1, err))
        return false;
    if (set)
        return true;
    if (!cs_grow((void **)&s->sys_none, &s->cap_sys_none, s->n_sys_none + 1, sizeof *s->sys_none, err))
        return false;
    s->sys_none[s->n_sys_none++] = key;
    return true;
}

/* The entry of `key` in list head, or NULL. */
static v2_kv *kv_get(const v2_sum *s, uint32_t head, cs_sid key)
{
    for (uint32_t i = head; i; i = s->kv[i].next)
        if (s->kv[i].key == key)
            return &s->kv[i];
    return NULL;
}

/* The entry of `key` in list *head, created with v = 0 when absent. */
static v2_kv *kv_at(v2_sum *s, uint32_t *head, cs_sid key, cs_err *err)
{
    v2_kv *kv = kv_get(s, *head, key);
    if (kv)
        return kv;
    if (!s->n_kv)
        s->n_kv = 1;
    if (!cs_grow((void **)&s->kv, &s->cap_kv, s->n_kv + 1, sizeof *s->kv, err))
        return NULL;
    uint32_t i = s->n_kv++;
    s->kv[i] = (v2_kv){key, *head, 0};
    *head = i;
    return &s->kv[i];
}

static bool kv_add(v2_sum *s, uint32_t *head, cs_sid key, int64_t v, cs_err *err)
{
    v2_kv *kv = kv_at(s, head, key, err);
    if (kv)
        kv->v += v;
    return kv != NULL;
}

/* snapshotStat(t) written back into the goroutine (finalize). */
static bool finalize(v2_sum *s, v2_sg *g, int64_t t, bool trigger, cs_err *err)
{
    if (trigger)
        g->end = t;
    if (g->total == 0)
        g->total = t - g->creation;
    if (g->last_start)
        g->exec += t - g->last_start;
    if (g->last_runnable)
        g->sched += t - g->last_runnable;
    if (g->last_block && !kv_add(s, &g->block_kv, g->last_block_reason, t - g->last_block, err))
        return false;
    if (g->last_syscall)
        g->syscall += t - g->last_syscall;
    if (g->last_syscall_block)
        g->sched += t - g->last_syscall_block;
    for (uint32_t i = g->last_range_kv; i; i = s->kv[i].next)
        if (s->kv[i].v && !kv_add(s, &g->range_kv, s->kv[i].key, t - s->kv[i].v, err))
            return false;
    g->last_range_kv = 0;
    g->last_start = g->last_runnable = g->last_block = g->last_syscall = g->last_syscall_block = 0;
    g->last_block_reason = 0;
    g->has_syscall_p = false;
    g->syscall_p = 0;
    return true;
}

static bool name_from_stack(v2_sg *sg, v2_gen *g, const cs_file *f, cs_model *m, uint64_t stack_id, cs_err *err)
{
    uint32_t st = dec__v2_stack(g, f, m, stack_id, err);
    uint32_t n = cs_model_stack_len(m, st);
    if (n) {
        const cs_frame *fr = cs_model_stack_frame(m, st, n - 1);
        sg->pc = fr->pc;
        sg->name = fr->func;
    }
    return err->code == CS_OK;
}

static bool leave(v2_sum *s, v2_sg *g, uint8_t old, int64_t t, cs_err *err)
{
    switch (old) {
    case V2G_RUNNING:
        g->exec += t - g->last_start;
        g->last_start = 0;
        break;
    case V2G_WAITING:
        if (g->last_block && !kv_add(s, &g->block_kv, g->last_block_reason, t - g->last_block, err))
            return false;
        g->last_block = 0;
        break;
    case V2G_RUNNABLE:
        if (g->last_runnable)
            g->sched += t - g->last_runnable;
        g->last_runnable = 0;
        break;
    case V2G_SYSCALL:
        if (g->last_syscall) {
            if (g->last_syscall_block) {
                g->syscall_block += t - g->last_syscall_block;
                g->syscall += g->last_syscall_block - g->last_syscall;
            } else {
                g->syscall += t - g->last_syscall;
            }
            g->last_syscall = g->last_syscall_block = 0;
        }
        if (!sys_look(s, g->has_syscall_p ? g->syscall_p : 0, false, err))
            return false;
        cs_map_del(&s->sys_p, g->has_syscall_p ? g->syscall_p : 0); /* Go deletes key 0 when unset */
        g->has_syscall_p = false;
        break;
    }
    return true;
}

/* Ahead: a goroutine from before leaves a syscall, where Go deletes the
 * syscallingP entry of the goroutine's proc. After GoSyscallEnd that is the
 * event's proc (deleted here as then; the join checks the key); otherwise
 * it is not known, and the join wants the entry gone before the cut. */
static bool sys_defer(v2_sum *s, v2_sg *g, const v2_ev *e, cs_err *err)
{
    g->first_sys_p = e->type == V2_EvGoSyscallEnd ? e->ctx.p : V2_UNK;
    if (g->first_sys_p == V2_UNK)
        return true;
    if (!sys_look(s, g->first_sys_p, true, err))
        return false;
    cs_map_del(&s->sys_p, g->first_sys_p);
    return true;
}

/* Go 1.26's Summarizer: a goroutine first seen through its status (it
 * existed before the trace, or the generation) was in that state since the
 * last Sync, and that time counts as the state's (summary.go, the
 * GoUndetermined case of Event). */
static bool since_sync(v2_sum *s, v2_sg *g, const v2_ev *e, const v2_trans *tr, cs_err *err)
{
    int64_t d = e->ts - s->sync_ts;
    switch (tr->to) {
    case V2G_RUNNING: g->exec += d; break;
    case V2G_WAITING: return kv_add(s, &g->block_kv, tr->reason, d, err);
    case V2G_RUNNABLE: g->sched += d; break;
    case V2G_SYSCALL: /* with a P since the start it ran the syscall; without, it was blocked in it */
        if (e->ctx.p == V2_NONE)
            g->syscall_block += d;
        else
            g->syscall += d;
        break;
    }
    return true;
}

static bool g_trans(v2_sum *s, cs_model *m, const v2_ev *e, const v2_trans *tr, v2_gen *gen,
                    const cs_file *f, cs_err *err)
{
    if (tr->from == tr->to)
        return true;
    int64_t t = e->ts;
    v2_sg *g = sg_get(s, tr->id, err);
    if (!g)
        return false;
    if (tr->from == V2G_UNDET || tr->from == V2G_NOTEXIST) {
        memset(g, 0, sizeof *g);
        g->present = true;
        g->goid = tr->id;
        g->creation = dec__v2_first_since(tr, s->sync_ts, t);
        if (tr->from == V2G_UNDET && !since_sync(s, g, e, tr, err))
            return false;
    } else if (s->ahead && (!g->present || (g->inherited && !g->first_old))) {
        /* goes on from before: leaving tr->from waits for the join */
        if (!g->present) {
            memset(g, 0, sizeof *g);
            g->inherited = true;
            g->goid = tr->id;
        }
        g->present = 1;
        g->first_old = tr->from, g->first_t = t;
        if (tr->from == V2G_SYSCALL && !sys_defer(s, g, e, err))
            return false;
    } else if (!g->present) {
        return true; /* no summary: Go would not get here on a valid trace */
    } else if (!leave(s, g, tr->from, t, err)) {
        return false;
    }
    if (!g->name && tr->stack_id && !name_from_stack(g, gen, f, m, tr->stack_id, err))
        return false;
    switch (tr->to) {
    case V2G_RUNNING:
        g->last_start = t;
        if (!g->start)
            g->start = t;
        break;
    case V2G_RUNNABLE:
        g->last_runnable = t;
        break;
    case V2G_WAITING:
        if (tr->reason != s->sid_forever || !s->sid_forever) {
            g->last_block = t;
            g->last_block_reason = tr->reason;
            break;
        }
        return finalize(s, g, t, true, err);
    case V2G_NOTEXIST:
        return finalize(s, g, t, true, err);
    case V2G_SYSCALL:
        if (!sys_look(s, e->ctx.p, true, err) || !cs_map_put(&s->sys_p, e->ctx.p, (uint32_t)(g - s->g), err))
            return false;
        g->has_syscall_p = true;
        g->syscall_p = e->ctx.p;
        g->last_syscall = t;
        break;
    }
    return true;
}

static bool p_trans(v2_sum *s, const v2_ev *e, const v2_trans *tr, cs_err *err)
{
    uint32_t slot;
    if (tr->from == tr->to || tr->to != V2P_IDLE || !sys_look(s, tr->id, false, err))
        return err->code == CS_OK;
    if (cs_map_get(&s->sys_p, tr->id, &slot)) {
        s->g[slot].last_syscall_block = e->ts;
        cs_map_del(&s->sys_p, tr->id);
    }
    return true;
}

/* Go's Event.Range(): name and scope. scope 0 global, 1 goroutine, 2 P. */
static cs_sid range_info(v2_sum *s, cs_model *m, const v2_ev *e, int *scope, uint64_t *id, cs_err *err)
{
    switch (e->type) {
    case V2_EvSTWBegin: case V2_EvSTWEnd: {
        *scope = 1, *id = e->ctx.g;
        char buf[V2_MAX_STRING + 32];
        int n = snprintf(buf, sizeof buf, "stop-the-world (%.*s)", (int)e->str_len,
                         e->str ? (const char *)e->str : "");
        return cs_model_intern(m, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1, err);
    }
    case V2_EvGCMarkAssistActive: case V2_EvGCMarkAssistBegin: case V2_EvGCMarkAssistEnd:
        *scope = 1, *id = e->type == V2_EvGCMarkAssistActive ? e->args[0] : e->ctx.g;
        return s->sid_assist;
    case V2_EvGCSweepActive: case V2_EvGCSweepBegin: case V2_EvGCSweepEnd:
        *scope = 2, *id = e->type == V2_EvGCSweepActive ? e->args[0] : e->ctx.p; /* Go 1.26: Active's own P */
        return s->sid_sweep;
    }
    *scope = 0, *id = 0;
    return 0;
}

/* Adds the time since g's open range `name` began (up to `upto`; 0 = add
 * nothing) to its RangeTime, then marks it open since `next` (0 = closed). */
static bool range_roll(v2_sum *s, v2_sg *g, cs_sid name, int64_t upto, int64_t next, cs_err *err)
{
    v2_kv *kv = kv_at(s, &g->last_range_kv, name, err);
    if (!kv)
        return false;
    uint32_t ki = (uint32_t)(kv - s->kv);
    int64_t prev = kv->v;
    if (upto && prev && !kv_add(s, &g->range_kv, name, upto - prev, err))
        return false;
    s->kv[ki].v = next; /* kv_add may move the pool */
    return true;
}

/* Ahead: goid's summary, or one that goes on from before the generation
 * (present on join, or the generation is done again). */
static v2_sg *sg_ahead(v2_sum *s, uint64_t goid, cs_err *err)
{
    v2_sg *g = sg_find(s, goid);
    if (g || !s->ahead || goid == V2_NONE)
        return g;
    if (!(g = sg_get(s, goid, err)))
        return NULL;
    memset(g, 0, sizeof *g);
    g->present = 2, g->inherited = true; /* until its first transition */
    g->goid = goid;
    return g;
}

/* range_roll; ahead, for a summary from before the part that the part
 * has not seen begin range `name`, the time up to `upto` is the join's to
 * add (Go adds it when the range was open, which the join wants): the
 * entry of RangeTime goes in now, where Go would make it. */
static bool roll(v2_sum *s, v2_sg *g, cs_sid name, int64_t upto, int64_t next, cs_err *err)
{
    if (g->inherited && upto && !kv_get(s, g->last_range_kv, name)) {
        if (!kv_at(s, &g->range_kv, name, err) || !kv_add(s, &g->before_kv, name, upto, err))
            return false;
        upto = 0;
    }
    return range_roll(s, g, name, upto, next, err);
}

/* Ahead: rangesP gets or loses an entry for P id in the part. */
static bool range_set(v2_sum *s, uint64_t id, cs_err *err)
{
    return !s->ahead || cs_map_put(&s->range_seen, id, 1, err);
}

static bool range_ev(v2_sum *s, cs_model *m, const v2_ev *e, uint8_t kind, cs_err *err)
{
    int scope;
    uint64_t id;
    cs_sid name = range_info(s, m, e, &scope, &id, err);
    if (!scope)
        return err->code == CS_OK;
    v2_sg *g = NULL;
    uint32_t slot;
    if (kind != V2K_RANGE_END) {
        g = sg_ahead(s, scope == 1 ? id : e->ctx.g, err);
        if (err->code != CS_OK)
            return false;
        if (scope == 2 && g && (!range_set(s, id, err) || !cs_map_put(&s->range_p, id, (uint32_t)(g - s->g), err)))
            return false;
        if (!g)
            return true;
        if (kind == V2K_RANGE_ACTIVE) {
            s->sync_used |= s->sync_taken;
            return roll(s, g, name, s->sync_ts, s->sync_ts, err);
        }
        return range_roll(s, g, name, 0, e->ts, err);
    }
    if (scope == 1) {
        g = sg_ahead(s, id, err);
        if (err->code != CS_OK)
            return false;
    } else if (s->ahead && !cs_map_get(&s->range_seen, id, &slot)) {
        /* rangesP before the part: it had the goroutine that ends it, if one
         * from before (checked on join); none of the part's */
        if (!range_set(s, id, err) || !(g = sg_ahead(s, e->ctx.g, err)))
            return err->code == CS_OK;
        if (!g->inherited)
            return true;
        if (!cs_grow((void **)&s->sweeps, &s->cap_sweeps, s->n_sweeps + 1, sizeof *s->sweeps, err))
            return false;
        s->sweeps[s->n_sweeps++] = (v2_sweep){id, g->goid};
    } else if (cs_map_get(&s->range_p, id, &slot)) {
        v2_sg *c = sg_find(s, e->ctx.g);
        if (c && (uint32_t)(c - s->g) == slot)
            g = c;
        cs_map_del(&s->range_p, id);
    }
    return !g || roll(s, g, name, e->ts, 0, err); /* 0: the range is closed */
}

bool dec__v2_sum_event(v2_sum *s, cs_model *m, const v2_ev *e, uint8_t kind,
                       const v2_trans *tr, v2_gen *g, const cs_file *f, cs_err *err)
{
    if (!s->sid_sweep) {
        s->sid_sweep = cs_model_intern(m, "GC incremental sweep", 20, err);
        s->sid_assist = cs_model_intern(m, "GC mark assist", 14, err);
        s->sid_forever = cs_model_intern(m, "forever", 7, err);
    }
    if (s->sync_ts == 0)
        s->sync_ts = e->ts;
    s->last_ts = e->ts;
    if (kind == V2K_SYNC)
        s->sync_ts = e->ts, s->sync_taken = false;
    s->warm = s->sid_sweep && s->sid_assist && s->sid_forever && s->sync_ts;
    switch (kind) {
    case V2K_SYNC:
        return true;
    case V2K_STATE:
        if (tr->is_g)
            return g_trans(s, m, e, tr, g, f, err);
        return p_trans(s, e, tr, err);
    case V2K_RANGE_BEGIN: case V2K_RANGE_ACTIVE: case V2K_RANGE_END:
        return range_ev(s, m, e, kind, err);
    }
    return err->code == CS_OK;
}

static bool put_kv(v2_sum *s, cs_stats *out, uint32_t head, uint32_t table, cs_err *err)
{
    for (uint32_t i = head; i; i = s->kv[i].next) {
        if (!cs_grow((void **)&out->kv, &out->cap_kv, out->n_kv + 1, sizeof *out->kv, err))
            return false;
        out->kv[out->n_kv++] = (cs_stat_kv){s->kv[i].key, table, s->kv[i].v};
    }
    return true;
}

/* The rows are written over the summaries they come from, the k-th with
 * the k-th present: a row is smaller, so it ends before the next summary
 * to be read begins, and the summaries of 2.2 M goroutines do not stand
 * beside their rows. */
_Static_assert(sizeof(cs_gstat) <= sizeof(v2_sg), "a row fits where its summary was");

bool dec__v2_sum_finish(v2_sum *s, cs_stats *out, cs_err *err)
{
    uint32_t n = s->n_g;
    for (uint32_t i = 0; i < n; i++)
        if (s->g[i].present && !finalize(s, &s->g[i], s->last_ts, false, err))
            return false;
    if (!n)
        return true;
    cs_gstat *rows = (cs_gstat *)(void *)s->g;
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!s->g[i].present)
            continue;
        v2_sg g = s->g[i];
        rows[k] = (cs_gstat){.goid = g.goid, .pc = g.pc, .name = g.name, .kv_first = out->n_kv,
                             .creation = g.creation, .start = g.start, .end = g.end, .exec = g.exec,
                             .sched_wait = g.sched, .syscall = g.syscall, .syscall_block = g.syscall_block,
                             .total = g.total};
        if (!put_kv(s, out, g.block_kv, CS_STAT_BLOCK_BY_REASON, err) ||
            !put_kv(s, out, g.range_kv, CS_STAT_RANGE_TIME, err))
            return false; /* s->g, half rows, is still s's to free */
        rows[k].kv_count = out->n_kv - rows[k].kv_first;
        k++;
    }
    cs_gstat *fit = cs_realloc(rows, ((size_t)k + 1) * sizeof *rows); /* its pages past the rows go back */
    out->g = fit ? fit : rows, out->n = k, out->cap = k + 1;
    s->g = NULL, s->cap_g = s->n_g = 0;
    return cs_stats_sort(out, err);
}

void dec__v2_sum_deinit(v2_sum *s)
{
    cs_free(s->g);
    cs_free(s->kv);
    cs_map_deinit(&s->sys_p);
    cs_map_deinit(&s->range_p);
    cs_map_deinit(&s->sys_seen);
    cs_free(s->sys_none);
    cs_map_deinit(&s->range_seen);
    cs_free(s->sweeps);
    cs_ids_deinit(&s->ids);
    memset(s, 0, sizeof *s);
}

/* ---- joining a generation summarized ahead (v2_ahead.c) ---- */

static cs_sid remap(cs_model *m, const cs_model *am, cs_sid sid, cs_err *err)
{
    if (!sid)
        return 0;
    return cs_model_intern(m, cs_model_str(am, sid), cs_model_str_len(am, sid), err);
}

/* Adds a's list `from` (oldest entry first, as the sequential run met
 * them) into list *head of s. */
static bool kv_join(v2_sum *s, cs_model *m, uint32_t *head, const v2_sum *a, const cs_model *am, uint32_t from,
                    bool set, cs_err *err)
{
    uint32_t n = 0;
    for (uint32_t i = from; i; i = a->kv[i].next)
        n++;
    for (uint32_t k = n; k > 0; k--) { /* the k-th entry from the head, oldest first */
        uint32_t i = from;
        for (uint32_t j = 1; j < k; j++)
            i = a->kv[i].next;
        cs_sid key = remap(m, am, a->kv[i].key, err);
        v2_kv *kv = err->code == CS_OK ? kv_at(s, head, key, err) : NULL;
        if (!kv)
            return false;
        kv->v = set ? a->kv[i].v : kv->v + a->kv[i].v;
    }
    return true;
}

/* The name of a range that may be open since before a part (a mark assist
 * or a sweep, roll) in s, from a's. */
static cs_sid name_in(const v2_sum *s, const v2_sum *a, cs_sid name)
{
    return name == a->sid_assist ? s->sid_assist : name == a->sid_sweep ? s->sid_sweep : 0;
}

/* What a's summary x, going on from before, takes for granted of the one
 * before (r): there is one; once it leaves x's first state nothing of it
 * is pending; the ranges x may have had open since before were open; if x
 * ended, no other range of r's was open; if it left a syscall, Go deleted
 * the syscallingP entry a took it to (sys_defer). */
static bool inherits(const v2_sum *s, const v2_sum *a, const v2_sg *r, const v2_sg *x)
{
    uint32_t v;
    if (!r)
        return false;
    for (uint32_t i = x->before_kv; i; i = a->kv[i].next) {
        const v2_kv *kv = kv_get(s, r->last_range_kv, name_in(s, a, a->kv[i].key));
        if (!kv || !kv->v)
            return false;
    }
    for (uint32_t i = r->last_range_kv; x->end && i; i = s->kv[i].next)
        if (s->kv[i].v && !(s->kv[i].key == s->sid_assist && kv_get(a, x->before_kv, a->sid_assist)) &&
            !(s->kv[i].key == s->sid_sweep && kv_get(a, x->before_kv, a->sid_sweep)))
            return false;
    uint8_t old = x->first_old;
    uint64_t key = r->has_syscall_p ? r->syscall_p : 0;
    bool sys = old == V2G_SYSCALL
                   ? (x->first_sys_p != V2_UNK ? key == x->first_sys_p
                                               : !cs_map_get(&s->sys_p, key, &v) && !cs_map_get(&a->sys_seen, key, &v))
                   : !r->last_syscall && !r->last_syscall_block && !r->has_syscall_p;
    return !old || ((r->last_start == 0 || old == V2G_RUNNING) && (r->last_block == 0 || old == V2G_WAITING) &&
                    (r->last_runnable == 0 || old == V2G_RUNNABLE) && sys);
}

/* rangesP or syscallingP (map) as a left it, for every P a looked at; to
 * takes a's slots to s's. */
static bool lay_map(cs_map *map, const uint32_t *to, uint32_t n, const cs_map *amap, const cs_map *seen, cs_err *err)
{
    uint32_t v;
    for (uint32_t i = 0; i < seen->cap; i++) {
        const cs_map_slot *sl = &seen->slots[i];
        if (!sl->used)
            continue;
        if (!cs_map_get(amap, sl->key, &v)) {
            cs_map_del(map, sl->key);
            continue;
        }
        if (v >= n || to[v] == UINT32_MAX)
            return CS_FAIL(err, CS_E_INTERNAL, CS_NO_OFFSET, "no summary to join");
        if (!cs_map_put(map, sl->key, to[v], err))
            return false;
    }
    return true;
}

bool dec__v2_sum_fits(v2_sum *s, const v2_sum *a)
{
    uint32_t v, n = a->n_g;
    for (uint32_t i = 0; i < a->n_sys_none; i++)
        if (cs_map_get(&s->sys_p, a->sys_none[i], &v))
            return false;
    for (uint32_t i = 0; i < a->n_sweeps; i++)
        if (!cs_map_get(&s->range_p, a->sweeps[i].p, &v) || v >= s->n_g || s->g[v].goid != a->sweeps[i].goid)
            return false;
    for (uint32_t i = 0; i < n; i++)
        if (a->g[i].present && a->g[i].inherited && !inherits(s, a, sg_find(s, a->g[i].goid), &a->g[i]))
            return false;
    return true;
}

/* The join gives a's summaries back a batch at a time as it reads them:
 * the part's 1.1 M summaries of the server trace (200 bytes each) do not
 * stand beside s's as they grow. */
#define JOIN_BATCH 4096u

/* a's summaries onto s's, to[i] set to s's slot of a's slot i
 * (UINT32_MAX none); a's pages go back behind the loop. */
static bool join_summaries(v2_sum *s, cs_model *m, v2_sum *a, const cs_model *am, uint32_t *to, cs_err *err)
{
    for (uint32_t i = 0; i < a->n_g; i++) {
        if (i % JOIN_BATCH == 0 && i) /* a's summaries up to i are read: none is read again */
            cs_release(a->g + i - JOIN_BATCH, (size_t)JOIN_BATCH * sizeof *a->g);
        const v2_sg *x = &a->g[i];
        to[i] = UINT32_MAX;
        if (!x->present)
            continue;
        v2_sg *g = sg_get(s, x->goid, err);
        if (!g)
            return false;
        to[i] = (uint32_t)(g - s->g);
        if (!x->inherited) {
            memset(g, 0, sizeof *g);
            g->present = true, g->goid = x->goid, g->creation = x->creation;
        } else if (x->first_old && !leave(s, g, x->first_old, x->first_t, err)) {
            return false;
        }
        if (!kv_join(s, m, &g->range_kv, a, am, x->range_kv, false, err))
            return false;
        for (uint32_t k = x->before_kv; k; k = a->kv[k].next) { /* open since before the part (roll) */
            cs_sid name = name_in(s, a, a->kv[k].key);
            if (!kv_add(s, &g->range_kv, name, a->kv[k].v - kv_get(s, g->last_range_kv, name)->v, err))
                return false;
        }
        if (x->end) /* Go's finalize, when x ended */
            g->last_range_kv = 0;
        if (!kv_join(s, m, &g->last_range_kv, a, am, x->last_range_kv, true, err))
            return false;
        if (x->inherited && !x->first_old) /* only its ranges moved */
            continue;
        if (!g->name && x->name) {
            g->name = remap(m, am, x->name, err);
            g->pc = x->pc;
        }
        if (!g->start)
            g->start = x->start;
        if (x->end)
            g->end = x->end;
        if (!g->total && x->total)
            g->total = x->total - (x->inherited ? g->creation : 0);
        g->exec += x->exec, g->sched += x->sched, g->syscall += x->syscall, g->syscall_block += x->syscall_block;
        g->last_start = x->last_start, g->last_runnable = x->last_runnable, g->last_block = x->last_block;
        g->last_syscall = x->last_syscall, g->last_syscall_block = x->last_syscall_block;
        g->last_block_reason = remap(m, am, x->last_block_reason, err);
        g->has_syscall_p = x->has_syscall_p, g->syscall_p = x->syscall_p;
        if (err->code != CS_OK || !kv_join(s, m, &g->block_kv, a, am, x->block_kv, false, err))
            return false;
    }
    return true;
}

bool dec__v2_sum_join(v2_sum *s, cs_model *m, v2_sum *a, const cs_model *am, cs_err *err)
{
    uint32_t n = a->n_g;
    uint32_t *to = cs_alloc(((size_t)n + 1) * sizeof *to); /* a's slot -> s's, for the P maps */
    if (!to)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory joining summaries");
    bool ok = join_summaries(s, m, a, am, to, err) && lay_map(&s->sys_p, to, n, &a->sys_p, &a->sys_seen, err) &&
              lay_map(&s->range_p, to, n, &a->range_p, &a->range_seen, err);
    cs_free(to);
    if (!ok)
        return false;
    s->last_ts = a->last_ts;
    if (!a->sync_taken) /* a's own Sync, not the time it took for the cut's */
        s->sync_ts = a->sync_ts;
    return true;
}
