/* decode/v2_order_res.c — the rest of Go's ordering rules for Go 1.22+
 * traces (docs/trace-format.md §4.9): special ranges (STW, mark assist, sweep),
 * the GC mark phase with its global sequence number, user tasks and regions,
 * and the instantaneous events that only need a context. Called by
 * dec__v2_advance for every type v2_order.c does not handle itself. */
#include "v2.h"

#include <string.h>

#define INVALID(e, ...) CS_FAIL(err, CS_E_INVALID, (e)->off, __VA_ARGS__)


static uint8_t range_start(uint8_t type)
{
    switch (type) {
    case V2_EvSTWBegin: case V2_EvSTWEnd: return V2_EvSTWBegin;
    case V2_EvGCMarkAssistActive: case V2_EvGCMarkAssistBegin: case V2_EvGCMarkAssistEnd:
        return V2_EvGCMarkAssistBegin;
    default: return V2_EvGCSweepBegin;
    }
}

/* Go compares (type, desc string id); ids differ between generations, so
 * chanscope compares the kind strings themselves. */
bool dec__v2_has_range(const v2_range *r, uint8_t n, uint8_t type, const uint8_t *desc, uint32_t len)
{
    for (uint8_t i = 0; i < n; i++)
        if (r[i].type == type && r[i].len == len && (!len || !memcmp(r[i].desc, desc, len)))
            return true;
    return false;
}

static bool begin_range(v2_range *r, uint8_t *n, uint8_t cap, uint8_t type, const uint8_t *desc,
                        uint32_t len, const v2_ev *e, cs_err *err)
{
    if (dec__v2_has_range(r, *n, type, desc, len))
        return INVALID(e, "discovered event already in-flight for when starting event %s",
                       V2_SPEC(type)->name);
    if (*n == cap)
        return INVALID(e, "too many special ranges in flight at once");
    r[(*n)++] = (v2_range){desc, len, type};
    return true;
}

/* Ahead: a mark assist of a goroutine, or a sweep of a proc, whose state
 * is taken from before the cut, met for the first time in the part: true
 * when it may have been in flight at the cut (*before then says it was, to
 * be checked on join, v2_ahead.c). STW ranges, which have a kind, never. */
static bool met(const v2_order *o, uint8_t *before, uint8_t type)
{
    if (!o->ahead || type == V2_EvSTWBegin)
        return false;
    bool first = *before == V2_BEFORE;
    *before |= V2_RANGE_MET;
    return first;
}

static bool active_range(v2_order *o, v2_range *r, uint8_t *n, uint8_t cap, uint8_t type, bool initial,
                         uint8_t *before, const v2_ev *e, cs_err *err)
{
    bool first = met(o, before, type);
    if (initial && dec__v2_has_range(r, *n, type, NULL, 0))
        return INVALID(e, "found named active range already in first gen: %s", V2_SPEC(type)->name);
    if (initial)
        return begin_range(r, n, cap, type, NULL, 0, e, err);
    if (dec__v2_has_range(r, *n, type, NULL, 0))
        return true;
    if (!first)
        return INVALID(e, "resource is missing active range: %s", V2_SPEC(type)->name);
    *before |= V2_RANGE_IN;
    return begin_range(r, n, cap, type, NULL, 0, e, err);
}

/* Swap-removes the in-flight range started by `type`'s Begin; e gets its desc. */
static bool end_range(v2_order *o, v2_range *r, uint8_t *n, uint8_t type, uint8_t *before, v2_ev *e, cs_err *err)
{
    bool first = met(o, before, type);
    for (uint8_t i = 0; i < *n; i++)
        if (r[i].type == type) {
            e->str = r[i].desc, e->str_len = r[i].len;
            r[i] = r[--*n];
            return true;
        }
    if (!first)
        return INVALID(e, "tried to end event %s, but not in-flight", V2_SPEC(type)->name);
    *before |= V2_RANGE_IN;
    e->str = NULL, e->str_len = 0;
    return true;
}

/* g's ranges and regions, made when it first has one. */
static v2_gext *gext(v2_gst *g, cs_err *err)
{
    if (!g->x && !(g->x = cs_calloc(1, sizeof *g->x)))
        CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for a goroutine's ranges");
    return g->x;
}

void dec__v2_gext_free(v2_gext *x)
{
    if (x)
        cs_free(x->reg), cs_free(x->pre);
    cs_free(x);
}

static bool go_range(v2_order *o, v2_gen *gen, v2_ev *e, v2_ctx cur, cs_err *err)
{
    uint8_t st = range_start(e->type);
    if (e->type == V2_EvGCMarkAssistActive) {
        v2_gst *g = dec__v2_gget(o, e->args[0]);
        if (!g)
            return INVALID(e, "uninitialized goroutine %llu found during GCMarkAssistActive",
                           (unsigned long long)e->args[0]);
        return gext(g, err) &&
               active_range(o, g->x->ranges, &g->n_ranges, 4, st, gen->gen == o->initial_gen, &g->before, e, err) &&
               dec__v2_push(o, e, cur, err);
    }
    if (!dec__v2_reqs(cur, V2_MUST, V2_MUST, V2_MUST, e->off, err))
        return false;
    v2_gst *g = dec__v2_gget(o, cur.g);
    if (!g)
        return INVALID(e, "encountered event of type %u without known state for current goroutine %lld",
                       e->type, (long long)cur.g);
    if (e->type == V2_EvSTWBegin || e->type == V2_EvGCMarkAssistBegin) {
        e->str = NULL, e->str_len = 0;
        if (e->type == V2_EvSTWBegin && !dec__v2_str(gen, e->args[0], &e->str, &e->str_len))
            return CS_FAIL(err, CS_E_CORRUPT, e->off, "found invalid string ID %llu for event STWBegin",
                           (unsigned long long)e->args[0]);
        const uint8_t *kept = e->str ? dec__v2_keep(o, e->str, e->str_len, err) : NULL;
        met(o, &g->before, st);
        return (kept || !e->str) && gext(g, err) &&
               begin_range(g->x->ranges, &g->n_ranges, 4, st, kept, e->str_len, e, err) &&
               dec__v2_push(o, e, cur, err);
    }
    /* STWEnd carries its Begin's kind (no ranges: n_ranges is 0) */
    return end_range(o, g->x ? g->x->ranges : NULL, &g->n_ranges, st, &g->before, e, err) &&
           dec__v2_push(o, e, cur, err);
}

static bool sweep(v2_order *o, v2_gen *gen, v2_ev *e, v2_ctx cur, cs_err *err)
{
    if (e->type == V2_EvGCSweepActive) {
        v2_pst *p = dec__v2_pget(o, e->args[0]);
        if (!p)
            return INVALID(e, "encountered GCSweepActive for unknown proc %llu", (unsigned long long)e->args[0]);
        return active_range(o, p->ranges, &p->n_ranges, 2, V2_EvGCSweepBegin, gen->gen == o->initial_gen, &p->before,
                            e, err) &&
               dec__v2_push(o, e, cur, err);
    }
    if (!dec__v2_reqs(cur, V2_MUST, V2_MUST, V2_MAY, e->off, err))
        return false;
    v2_pst *p = dec__v2_pget(o, cur.p);
    if (!p)
        return INVALID(e, "sweep event for unknown proc %lld", (long long)cur.p);
    bool ok = e->type == V2_EvGCSweepBegin
                  ? (met(o, &p->before, V2_EvGCSweepBegin), begin_range(p->ranges, &p->n_ranges, 2, V2_EvGCSweepBegin,
                                                                        NULL, 0, e, err))
                  : end_range(o, p->ranges, &p->n_ranges, V2_EvGCSweepBegin, &p->before, e, err);
    return ok && dec__v2_push(o, e, cur, err);
}

static bool gc(v2_order *o, v2_gen *gen, v2_ev *e, v2_ctx cur, bool *ok, cs_err *err)
{
    uint64_t seq = e->args[0];
    if (o->ahead && !o->gc_seen) { /* the GC state before: checked later */
        o->gc_seen = true;
        if (!dec__v2_assume(o, V2A_GC, e->type, gen->gen == o->initial_gen, seq, err))
            return false;
        o->gc_seq = seq, o->gc_state = e->type == V2_EvGCEnd ? GC_NOT_RUNNING : GC_RUNNING;
        return dec__v2_reqs(cur, V2_MUST, V2_MUST, V2_MUST, e->off, err) && dec__v2_push(o, e, cur, err);
    }
    o->gc_seen = true;
    if (e->type == V2_EvGCActive && gen->gen == o->initial_gen) {
        if (o->gc_state != GC_UNDET)
            return INVALID(e, "GCActive in the first generation isn't first GC event");
        o->gc_seq = seq, o->gc_state = GC_RUNNING;
        return dec__v2_push(o, e, cur, err);
    }
    if (e->type == V2_EvGCBegin && o->gc_state == GC_UNDET) {
        o->gc_seq = seq, o->gc_state = GC_RUNNING;
        return dec__v2_push(o, e, cur, err);
    }
    if (seq != o->gc_seq + 1)
        return *ok = false, true;
    if (e->type == V2_EvGCActive && o->gc_state != GC_RUNNING)
        return INVALID(e, "encountered GCActive while GC was not in progress");
    if (e->type == V2_EvGCBegin && o->gc_state == GC_RUNNING)
        return INVALID(e, "encountered GCBegin while GC was already in progress");
    if (e->type == V2_EvGCEnd && o->gc_state == GC_NOT_RUNNING)
        return INVALID(e, "encountered GCEnd when GC was not in progress");
    if (e->type == V2_EvGCEnd && o->gc_state == GC_UNDET)
        return INVALID(e, "encountered GCEnd when GC was in an undetermined state");
    o->gc_seq = seq;
    if (e->type != V2_EvGCActive)
        o->gc_state = e->type == V2_EvGCBegin ? GC_RUNNING : GC_NOT_RUNNING;
    return dec__v2_reqs(cur, V2_MUST, V2_MUST, V2_MUST, e->off, err) && dec__v2_push(o, e, cur, err);
}

static bool task(v2_order *o, v2_gen *gen, v2_ev *e, v2_ctx cur, cs_err *err)
{
    uint64_t id = e->args[0];
    bool unseen = cs_ids_get(&o->task_ids, id, false, NULL) == UINT32_MAX;
    /* ahead, a task the part ends without having seen it begin was live
     * before the cut or not: it is not now either way, and only the parent
     * and name its End carries differ, which no reader of a part's events
     * (the model, the Summarizer) looks at */
    bool ends_before = o->ahead && unseen && e->type == V2_EvUserTaskEnd;
    if (o->ahead && unseen && !ends_before && !dec__v2_assume(o, V2A_TASK_NONE, 0, id, 0, err))
        return false;
    uint32_t s = cs_ids_get(&o->task_ids, id, e->type == V2_EvUserTaskBegin || ends_before, err);
    if (err->code != CS_OK)
        return false;
    if (s != UINT32_MAX && s >= o->n_tasks) {
        if (!cs_grow((void **)&o->tasks, &o->cap_tasks, s + 1, sizeof *o->tasks, err))
            return false;
        o->tasks[s] = (v2_task){.id = id}, o->n_tasks = s + 1;
    }
    if (e->type == V2_EvUserTaskBegin) {
        if (o->tasks[s].live)
            return INVALID(e, "task ID conflict: %llu", (unsigned long long)id);
        if (e->args[1] == 0)
            e->args[1] = V2_NONE;
        const uint8_t *name;
        uint32_t len;
        if (!dec__v2_str(gen, e->args[2], &name, &len))
            return INVALID(e, "invalid string ID %llu for UserTaskBegin event", (unsigned long long)e->args[2]);
        if (!(name = dec__v2_keep(o, name, len, err)))
            return false;
        o->tasks[s] = (v2_task){id, e->args[1], name, len, 1};
    } else if (s != UINT32_MAX && o->tasks[s].live) {
        e->extra[0] = o->tasks[s].parent;
        e->str = o->tasks[s].name, e->str_len = o->tasks[s].len;
        o->tasks[s].live = 0;
    } else {
        e->extra[0] = V2_NONE;
        e->str = NULL, e->str_len = 0;
    }
    return dec__v2_reqs(cur, V2_MUST, V2_MUST, V2_MUST, e->off, err) && dec__v2_push(o, e, cur, err);
}

static bool region(v2_order *o, v2_gen *gen, v2_ev *e, v2_ctx cur, cs_err *err)
{
    if (!dec__v2_reqs(cur, V2_MUST, V2_MUST, V2_MUST, e->off, err))
        return false;
    const char *name = V2_SPEC(e->type)->name;
    v2_region r = {.task = e->args[0]};
    if (!dec__v2_str(gen, e->args[1], &r.name, &r.len))
        return INVALID(e, "invalid string ID %llu for %s event", (unsigned long long)e->args[1], name);
    v2_gst *g = dec__v2_gget(o, cur.g);
    if (!g)
        return INVALID(e, "encountered Ev%s without known state for current goroutine %lld", name, (long long)cur.g);
    v2_gext *x = g->x;
    if (e->type == V2_EvUserRegionBegin) {
        if (!(x = gext(g, err)) || !cs_grow((void **)&x->reg, &x->cap_reg, x->n_reg + 1, sizeof *x->reg, err) ||
            !(r.name = dec__v2_keep(o, r.name, r.len, err)))
            return false;
        x->reg[x->n_reg++] = r;
    } else if (x && x->n_reg) {
        const v2_region *top = &x->reg[x->n_reg - 1];
        if (!dec__v2_same_region(top, &r))
            return INVALID(e, "misuse of region in goroutine %llu: region end %.*s when the inner-most active region start event is %.*s",
                           (unsigned long long)cur.g, (int)r.len, (const char *)r.name, (int)top->len,
                           (const char *)top->name);
        x->n_reg--;
    } else if (o->ahead && (g->before & V2_BEFORE)) { /* one open at the cut, perhaps: checked on join */
        if (!(x = gext(g, err)) || !cs_grow((void **)&x->pre, &x->cap_pre, x->n_pre + 1, sizeof *x->pre, err) ||
            !(r.name = dec__v2_keep(o, r.name, r.len, err)))
            return false;
        x->pre[x->n_pre++] = r;
    }
    return dec__v2_push(o, e, cur, err);
}

bool dec__v2_order_res(v2_order *o, v2_gen *gen, v2_ev *e, v2_ctx cur,
                       bool *ok, cs_err *err)
{
    switch (e->type) {
    case V2_EvSTWBegin: case V2_EvSTWEnd: case V2_EvGCMarkAssistActive: case V2_EvGCMarkAssistBegin:
    case V2_EvGCMarkAssistEnd:
        return go_range(o, gen, e, cur, err);
    case V2_EvGCSweepActive: case V2_EvGCSweepBegin: case V2_EvGCSweepEnd:
        return sweep(o, gen, e, cur, err);
    case V2_EvGCActive: case V2_EvGCBegin: case V2_EvGCEnd:
        return gc(o, gen, e, cur, ok, err);
    case V2_EvHeapAlloc: case V2_EvHeapGoal:
        return dec__v2_reqs(cur, V2_MUST, V2_MUST, V2_MAY, e->off, err) && dec__v2_push(o, e, cur, err);
    case V2_EvProcsChange: case V2_EvGoLabel: case V2_EvUserLog:
        return dec__v2_reqs(cur, V2_MUST, V2_MUST, V2_MUST, e->off, err) && dec__v2_push(o, e, cur, err);
    case V2_EvUserTaskBegin: case V2_EvUserTaskEnd:
        return task(o, gen, e, cur, err);
    case V2_EvUserRegionBegin: case V2_EvUserRegionEnd:
        return region(o, gen, e, cur, err);
    }
    if (e->type >= V2_EvExpFirst && e->type <= V2_EvExpLast)
        return dec__v2_reqs(cur, V2_MUST, V2_MAY, V2_MAY, e->off, err) && dec__v2_push(o, e, cur, err);
    return INVALID(e, "bad event type found while ordering: %u", e->type);
}
