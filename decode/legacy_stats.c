/* decode/legacy_stats.c — Go 1.21's GoroutineStats (docs/trace-format.md §5.1),
 * computed while the ordered events stream past, quirks included: 0 means
 * "not pending", a GC starting at time 0 counts as no GC, goroutines are
 * finalized again at the end, GoStop counts as death. Per-region statistics
 * are not kept (chanscope does not report them). */
#include "legacy.h"

#include <string.h>

static void snapshot(dec__lg_g *g, int64_t last, int64_t gc)
{
    if (gc)
        dec__lg_acc(&g->gc, last, (g->creation < gc ? gc : g->creation));
    if (g->total == 0)
        g->total = dec__lg_span(last, g->creation);
    if (g->last_start)
        dec__lg_acc(&g->exec, last, g->last_start);
    if (g->block_net)
        dec__lg_acc(&g->io, last, g->block_net);
    if (g->block_sync)
        dec__lg_acc(&g->block, last, g->block_sync);
    if (g->block_syscall)
        dec__lg_acc(&g->syscall, last, g->block_syscall);
    if (g->block_sched)
        dec__lg_acc(&g->sched, last, g->block_sched);
    if (g->block_sweep)
        dec__lg_acc(&g->sweep, last, g->block_sweep);
    g->last_start = g->block_net = g->block_sync = g->block_syscall = g->block_sched = g->block_sweep = 0;
}

static void stop_exec(dec__lg_g *g, int64_t ts)
{
    dec__lg_acc(&g->exec, ts, g->last_start);
    g->last_start = 0;
}

/* The goroutine's first start: entry PC and name from the creation stack. */
static void name_from_start(dec__lg_sink *k, dec__lg_g *g, const dec__lg_ev *ev)
{
    if (g->pc || !ev->from_create)
        return;
    if (k->s->ver < 1007) { /* Go makes the frame {PC: start PC + 1} */
        g->pc = ev->stk + 1;
        g->name = dec__lg_pc_sid(k->s, k->m, ev->stk, &(cs_err){0});
        return;
    }
    const cs_frame *f = cs_model_stack_frame(k->m, dec__lg_stack(k->s, ev->stk), 0);
    if (f) {
        g->pc = f->pc;
        g->name = f->func;
    }
}

static void on_gc_done(dec__lg_sink *k, int64_t ts)
{
    for (uint32_t i = 1; i <= k->gt.n; i++) {
        dec__lg_g *g = &k->g[i];
        if (!(g->flags & LG_GF_STATS) || g->end != 0)
            continue;
        dec__lg_acc(&g->gc, ts, (k->gc_start < g->creation ? g->creation : k->gc_start));
    }
    k->gc_start = 0;
}

static dec__lg_g *stat_g(dec__lg_sink *k, uint64_t goid)
{
    uint32_t i = dec__lg_gtab_get(&k->gt, goid);
    return i && (k->g[i].flags & LG_GF_STATS) ? &k->g[i] : NULL;
}

static void on_goroutine(dec__lg_sink *k, dec__lg_g *g, const dec__lg_ev *ev)
{
    int64_t ts = ev->ts;
    switch (ev->type) {
    case LG_GOSTART: case LG_STARTLABEL:
        name_from_start(k, g, ev);
        g->last_start = ts;
        if (!g->start)
            g->start = ts;
        if (g->block_sched) {
            dec__lg_acc(&g->sched, ts, g->block_sched);
            g->block_sched = 0;
        }
        break;
    case LG_GOEND: case LG_GOSTOP:
        g->end = ts;
        snapshot(g, ts, k->gc_start);
        break;
    case LG_BLOCKSEND: case LG_BLOCKRECV: case LG_BLOCKSELECT: case LG_BLOCKSYNC: case LG_BLOCKCOND:
        stop_exec(g, ts);
        g->block_sync = ts;
        break;
    case LG_GOSCHED: case LG_GOPREEMPT:
        stop_exec(g, ts);
        g->block_sched = ts;
        break;
    case LG_GOSLEEP: case LG_GOBLOCK: case LG_BLOCKGC:
        stop_exec(g, ts);
        break;
    case LG_BLOCKNET:
        stop_exec(g, ts);
        g->block_net = ts;
        break;
    case LG_SYSBLOCK:
        stop_exec(g, ts);
        g->block_syscall = ts;
        break;
    case LG_SYSEXIT:
        if (g->block_syscall) {
            dec__lg_acc(&g->syscall, ts, g->block_syscall);
            g->block_syscall = 0;
        }
        g->block_sched = ts;
        break;
    case LG_SWEEPSTART:
        g->block_sweep = ts;
        break;
    case LG_SWEEPDONE:
        if (g->block_sweep) {
            dec__lg_acc(&g->sweep, ts, g->block_sweep);
            g->block_sweep = 0;
        }
        break;
    }
}

bool dec__lg_stats_event(dec__lg_sink *k, const dec__lg_ev *ev, cs_err *err)
{
    k->last_ts = ev->ts;
    switch (ev->type) {
    case LG_GOCREATE: {
        dec__lg_g *g = dec__lg_g_get(k, ev->args[0], err);
        if (!g)
            return false;
        uint8_t keep = g->flags;
        uint32_t rt = g->region_top, ar = g->assist_range;
        uint64_t goid = g->goid, cstk = g->create_stk;
        int64_t lsb = g->last_sys_block;
        uint8_t st = g->state, gev = g->ev;
        memset(g, 0, sizeof *g); /* Go replaces the GDesc */
        g->goid = goid, g->create_stk = cstk, g->last_sys_block = lsb;
        g->state = st, g->ev = gev, g->region_top = rt, g->assist_range = ar;
        g->flags = keep | LG_GF_STATS;
        g->creation = g->block_sched = ev->ts;
        return true;
    }
    case LG_GOUNBLOCK: {
        dec__lg_g *g = stat_g(k, ev->args[0]);
        if (!g)
            return true;
        if (g->block_net) {
            dec__lg_acc(&g->io, ev->ts, g->block_net);
            g->block_net = 0;
        }
        if (g->block_sync) {
            dec__lg_acc(&g->block, ev->ts, g->block_sync);
            g->block_sync = 0;
        }
        g->block_sched = ev->ts;
        return true;
    }
    case LG_GCSTART:
        k->gc_start = ev->ts;
        return true;
    case LG_GCDONE:
        on_gc_done(k, ev->ts);
        return true;
    }
    dec__lg_g *g = &k->g[k->cur_gi];
    if (g->flags & LG_GF_STATS)
        on_goroutine(k, g, ev);
    return true;
}

bool dec__lg_stats_finish(dec__lg_sink *k, cs_err *err)
{
    cs_stats *st = k->stats;
    for (uint32_t i = 1; i <= k->gt.n; i++) {
        dec__lg_g *g = &k->g[i];
        if (!(g->flags & LG_GF_STATS))
            continue;
        snapshot(g, k->last_ts, k->gc_start);
        if (!st)
            continue;
        if (!cs_grow((void **)&st->g, &st->cap, st->n + 1, sizeof *st->g, err))
            return false;
        st->g[st->n++] = (cs_gstat){
            .goid = g->goid, .pc = g->pc, .name = g->name, .creation = g->creation, .start = g->start,
            .end = g->end, .exec = g->exec, .sched_wait = g->sched, .io = g->io, .block = g->block,
            .syscall = g->syscall, .gc = g->gc, .sweep = g->sweep, .total = g->total};
    }
    return !st || cs_stats_sort(st, err);
}
