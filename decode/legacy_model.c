/* decode/legacy_model.c — turns ordered legacy events into the model through
 * core/build.h: goroutines (entry function, parent, creation), state spans
 * with block reasons, one wake-up edge per GoUnblock (unblocker, its stack,
 * the woken goroutine's block stack and Go's block event name), GC/STW/sweep/
 * mark-assist ranges, user tasks, regions and logs, gotrace GoSend/GoRecv. */
#include "legacy.h"

#include <string.h>

static const char *const stw_kinds_121[] = {
    "unknown", "GC mark termination", "GC sweep termination", "write heap dump",
    "goroutine profile", "goroutine profile cleanup", "all goroutines stack trace",
    "read mem stats", "AllThreadsSyscall", "GOMAXPROCS", "start trace", "stop trace",
    "CountPagesInUse (test)", "ReadMetricsSlow (test)", "ReadMemStatsSlow (test)",
    "PageCachePagesLeaked (test)", "ResetDebugLog (test)"};

bool dec__lg_model_init(dec__lg_sink *k, cs_err *err)
{
    for (int t = 1; t < LG_NTYPES; t++) {
        const char *n = dec__lg_descs[t].name;
        k->type_sid[t] = cs_model_intern(k->m, n, strlen(n), err);
    }
    return err->code == CS_OK;
}

static cs_reason reason_of(uint8_t t)
{
    switch (t) {
    case LG_BLOCKSEND: return CS_R_CHAN_SEND;
    case LG_BLOCKRECV: return CS_R_CHAN_RECV;
    case LG_BLOCKSELECT: return CS_R_SELECT;
    case LG_BLOCKSYNC: return CS_R_SYNC;
    case LG_BLOCKCOND: return CS_R_COND;
    case LG_BLOCKNET: return CS_R_NET;
    case LG_GOSLEEP: return CS_R_SLEEP;
    case LG_BLOCKGC: return CS_R_GC;
    case LG_GOSTOP: return CS_R_FOREVER;
    default: return CS_R_OTHER;
    }
}

/* Opens a range; returns its index + 1 (UINT32_MAX: a kind the model does
 * not keep, dec_desc.drawn_ranges; 0 on failure). */
static uint32_t range_open(dec__lg_sink *k, cs_range_kind kind, int64_t t, cs_sid name, uint32_t g, uint64_t id,
                           cs_err *err)
{
    cs_model *m = k->m;
    if (k->d->drawn_ranges && !cs_range_drawn(kind))
        return UINT32_MAX;
    if (!cs_grow((void **)&m->ranges, &m->cap_ranges, m->n_ranges + 1, sizeof *m->ranges, err))
        return 0;
    m->ranges[m->n_ranges] = (cs_range){.t0 = t, .t1 = CS_T_NONE, .name = name, .g = g, .id = id,
                                        .kind = (uint8_t)kind};
    return ++m->n_ranges;
}

static void range_close(cs_model *m, uint32_t r, int64_t t)
{
    if (r && r <= m->n_ranges && m->ranges[r - 1].t1 == CS_T_NONE)
        m->ranges[r - 1].t1 = t;
}

static cs_sid stw_name(dec__lg_sink *k, uint64_t kind, cs_err *err)
{
    const char *n = "unknown";
    if (k->s->ver < 1021)
        n = kind == 0 ? "mark termination" : kind == 1 ? "sweep termination" : "unknown";
    else if (kind < sizeof stw_kinds_121 / sizeof *stw_kinds_121)
        n = stw_kinds_121[kind];
    return cs_model_intern(k->m, n, strlen(n), err);
}

static bool on_create(dec__lg_sink *k, const dec__lg_ev *ev, cs_err *err)
{
    cs_mb_create_desc d = {.t = ev->ts, .goid = ev->args[0], .parent_goid = ev->g ? ev->g : CS_NO_GOID,
                           .at_start = !k->seen_procs};
    if (k->s->ver < 1007) {
        d.name = dec__lg_pc_sid(k->s, k->m, ev->args[1], err);
    } else {
        const cs_frame *f = cs_model_stack_frame(k->m, dec__lg_stack(k->s, ev->args[1]), 0);
        if (f)
            d.name = f->func;
    }
    return cs_mb_create(&k->mb, &d, err);
}

static bool on_region(dec__lg_sink *k, const dec__lg_ev *ev, uint32_t gi, cs_err *err)
{
    if (ev->args[1] == 0 && k->n_regions) {
        dec__lg_region *r = &k->regions[k->n_regions - 1];
        r->range = range_open(k, CS_RK_REGION, ev->ts, r->name, gi, ev->args[0], err);
        return r->range != 0;
    }
    if (k->popped_region)
        range_close(k->m, k->regions[k->popped_region - 1].range, ev->ts);
    return true;
}

static bool on_log(dec__lg_sink *k, const dec__lg_ev *ev, uint32_t gi, uint32_t stack, cs_err *err)
{
    cs_model *m = k->m;
    cs_sid cat = dec__lg_str_sid(k->s, m, ev->args[1], err);
    cs_sid msg = cs_model_intern(m, (const char *)k->s->data + ev->str_off, ev->str_len, err);
    if (err->code != CS_OK || !cs_grow((void **)&m->logs, &m->cap_logs, m->n_logs + 1, sizeof *m->logs, err))
        return false;
    m->logs[m->n_logs++] = (cs_log){.ts = ev->ts, .task = ev->args[0], .g = gi, .category = cat,
                                    .message = msg, .stack = stack};
    return true;
}

static bool on_sweep(dec__lg_sink *k, const dec__lg_ev *ev, cs_err *err)
{
    dec__lg_pst *p = dec__lg_p_state(k, ev->p, err);
    if (!p)
        return false;
    if (ev->type == LG_SWEEPDONE) {
        range_close(k->m, p->sweep_range, ev->ts);
        return true;
    }
    p->sweep_range = range_open(k, CS_RK_SWEEP, ev->ts, 0, 0, (uint64_t)ev->p, err);
    return p->sweep_range != 0;
}

/* Ranges and annotations: everything that is not a goroutine state change. */
static bool other_event(dec__lg_sink *k, const dec__lg_ev *ev, uint32_t stack, cs_err *err)
{
    cs_model *m = k->m;
    uint32_t gi = 0;
    if ((ev->type == LG_REGION || ev->type == LG_LOG || ev->type == LG_ASSISTSTART) &&
        !(gi = cs_mb_g(&k->mb, ev->g, err)))
        return false;
    switch (ev->type) {
    case LG_GCSTART:
        return (k->gc_range = range_open(k, CS_RK_GC, ev->ts, 0, 0, 0, err)) != 0;
    case LG_GCDONE:
        range_close(m, k->gc_range, ev->ts);
        return true;
    case LG_STWSTART: {
        cs_sid n = stw_name(k, ev->args[0], err);
        return err->code == CS_OK && (k->stw_range = range_open(k, CS_RK_STW, ev->ts, n, 0, 0, err)) != 0;
    }
    case LG_STWDONE:
        range_close(m, k->stw_range, ev->ts);
        return true;
    case LG_SWEEPSTART: case LG_SWEEPDONE:
        return on_sweep(k, ev, err);
    case LG_ASSISTSTART: {
        uint32_t r = range_open(k, CS_RK_MARK_ASSIST, ev->ts, 0, gi, 0, err);
        dec__lg_g *g = dec__lg_g_get(k, ev->g, err);
        return r && g && (g->assist_range = r);
    }
    case LG_ASSISTDONE: {
        uint32_t i = dec__lg_gtab_get(&k->gt, ev->g);
        if (i)
            range_close(m, k->g[i].assist_range, ev->ts), k->g[i].assist_range = 0;
        return true;
    }
    case LG_TASKCREATE: {
        cs_sid n = dec__lg_str_sid(k->s, m, ev->args[2], err);
        uint32_t r = err->code == CS_OK ? range_open(k, CS_RK_TASK, ev->ts, n, 0, ev->args[0], err) : 0;
        return r && cs_map_put(&k->task_ranges, ev->args[0], r, err);
    }
    case LG_TASKEND: {
        uint32_t r;
        if (cs_map_get(&k->task_ranges, ev->args[0], &r))
            range_close(m, r, ev->ts), cs_map_del(&k->task_ranges, ev->args[0]);
        return true;
    }
    case LG_REGION:
        return on_region(k, ev, gi, err);
    case LG_LOG:
        return on_log(k, ev, gi, stack, err);
    case LG_GOMAXPROCS:
        if ((int64_t)ev->args[0] > m->nprocs && ev->args[0] < 1u << 30)
            m->nprocs = (int)ev->args[0];
        k->seen_procs = true;
        return true;
    }
    return true;
}

static bool set(dec__lg_sink *k, const dec__lg_ev *ev, cs_state st, cs_reason r, cs_sid rn, uint32_t stack,
                cs_err *err)
{
    return cs_mb_set(&k->mb, ev->ts, ev->g, st, r, rn, stack, err);
}

bool dec__lg_model_event(dec__lg_sink *k, const dec__lg_ev *ev, cs_err *err)
{
    uint32_t stack = ev->from_create ? 0 : dec__lg_stack(k->s, ev->stk);
    switch (ev->type) {
    case LG_GOCREATE:
        return on_create(k, ev, err);
    case LG_GOWAITING:
        return set(k, ev, CS_ST_BLOCKED, CS_R_OTHER, 0, 0, err) && cs_mb_waiting_before(&k->mb, ev->g, err);
    case LG_GOINSYSCALL: case LG_SYSBLOCK:
        return set(k, ev, CS_ST_SYSCALL, CS_R_SYSCALL, 0, 0, err);
    case LG_GOSTART: case LG_STARTLABEL:
        if (ev->from_create && k->s->ver >= 1007) {
            const cs_frame *f = cs_model_stack_frame(k->m, dec__lg_stack(k->s, ev->stk), 0);
            if (f && !cs_mb_name(&k->mb, ev->g, f->func, err))
                return false;
        }
        return set(k, ev, CS_ST_RUNNING, CS_R_NONE, 0, 0, err);
    case LG_GOEND:
        for (uint32_t r = k->ended_regions; r; r = k->regions[r - 1].prev)
            range_close(k->m, k->regions[r - 1].range, ev->ts);
        return set(k, ev, CS_ST_NONE, CS_R_NONE, 0, 0, err);
    case LG_GOSCHED: case LG_GOPREEMPT:
        return set(k, ev, CS_ST_RUNNABLE, CS_R_PREEMPTED, 0, 0, err);
    case LG_GOSTOP: case LG_GOSLEEP: case LG_GOBLOCK: case LG_BLOCKSEND: case LG_BLOCKRECV:
    case LG_BLOCKSELECT: case LG_BLOCKSYNC: case LG_BLOCKCOND: case LG_BLOCKNET: case LG_BLOCKGC:
        return set(k, ev, CS_ST_BLOCKED, reason_of(ev->type), k->type_sid[ev->type], stack, err);
    case LG_SYSEXIT:
        return set(k, ev, CS_ST_RUNNABLE, CS_R_NONE, 0, 0, err);
    case LG_GOUNBLOCK:
        return cs_mb_unblock(&k->mb, ev->ts, ev->g ? ev->g : CS_NO_GOID, ev->args[0], stack, err);
    }
    return other_event(k, ev, stack, err);
}

bool dec__lg_model_finish(dec__lg_sink *k, cs_err *err)
{
    cs_model *m = k->m;
    int64_t end = m->t_last == CS_T_NONE ? 0 : m->t_last;
    for (uint32_t i = 0; i < m->n_ranges; i++)
        if (m->ranges[i].t1 == CS_T_NONE)
            m->ranges[i].t1 = end;
    return cs_mb_finish(&k->mb, end, err);
}
