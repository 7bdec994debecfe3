/* decode/legacy_hot.h — the sink's fast path for the events that make up
 * nearly all of a busy trace (GoStart, the channel/sync blocks, GoSched,
 * GoUnblock, ProcStart/Stop): validation (legacy_check.c) and statistics
 * (legacy_stats.c) fused into one step without calls. It only takes the
 * plain valid case: anything else (a failing check, a first start after
 * GoCreate, a P or goroutine seen for the first time, timer or netpoll
 * unblocks) is declined before anything is changed, and the general code
 * handles it, so results and error messages are those of the general path.
 * Included by legacy_load.c only. */
#ifndef DEC_LEGACY_HOT_H
#define DEC_LEGACY_HOT_H

#include "legacy.h"

static inline dec__lg_pst *hot_p(dec__lg_sink *k, int64_t p)
{
    uint32_t i = p >= -1 && p < 63 ? k->p_direct[p + 1] : 0;
    return i ? &k->ps[i - 1] : NULL;
}

static inline void hot_stop_exec(dec__lg_g *g, int64_t ts)
{
    dec__lg_acc(&g->exec, ts, g->last_start);
    g->last_start = 0;
}

static inline bool hot_start(dec__lg_pst *p, dec__lg_g *g, const dec__lg_ev *ev)
{
    if (g->state != LG_GRUNNABLE || p->g != 0 || (g->flags & LG_GF_CREATE))
        return false;
    g->state = LG_GRUNNING, p->g = ev->g, g->ev = 0;
    if (g->flags & LG_GF_STATS) {
        g->last_start = ev->ts;
        if (!g->start)
            g->start = ev->ts;
        if (g->block_sched) {
            dec__lg_acc(&g->sched, ev->ts, g->block_sched);
            g->block_sched = 0;
        }
    }
    return true;
}

/* GoBlock{Send,Recv,Select,Sync,Cond} (wait = LG_GWAITING, sync block) and
 * GoSched/GoPreempt (wait = LG_GRUNNABLE, scheduler wait). */
static inline bool hot_stop(dec__lg_pst *p, dec__lg_g *g, const dec__lg_ev *ev, uint8_t next)
{
    if (g->state != LG_GRUNNING || p->g != ev->g || ev->g == 0)
        return false;
    g->state = next, g->ev = ev->type, p->g = 0;
    if (g->flags & LG_GF_STATS) {
        hot_stop_exec(g, ev->ts);
        if (next == LG_GWAITING)
            g->block_sync = ev->ts;
        else
            g->block_sched = ev->ts;
    }
    return true;
}

static inline bool hot_unblock(dec__lg_sink *k, dec__lg_pst *p, dec__lg_g *g, const dec__lg_ev *ev)
{
    uint32_t ti = dec__lg_gtab_get(&k->gt, ev->args[0]);
    if (!ti || g->state != LG_GRUNNING || p->g != ev->g)
        return false;
    dec__lg_g *t = &k->g[ti];
    if (t->state != LG_GWAITING || t->ev == LG_BLOCKNET)
        return false;
    t->flags |= LG_GF_KNOWN;
    t->state = LG_GRUNNABLE;
    t->ev = LG_GOUNBLOCK;
    if (t->flags & LG_GF_STATS) {
        if (t->block_net) {
            dec__lg_acc(&t->io, ev->ts, t->block_net);
            t->block_net = 0;
        }
        if (t->block_sync) {
            dec__lg_acc(&t->block, ev->ts, t->block_sync);
            t->block_sync = 0;
        }
        t->block_sched = ev->ts;
    }
    return true;
}

/* Validation and statistics of ev in one step; false: not taken, nothing
 * changed (the caller runs dec__lg_check and dec__lg_stats_event). */
static inline bool hot_event(dec__lg_sink *k, dec__lg_ev *ev)
{
    dec__lg_pst *p = hot_p(k, ev->p);
    if (!p)
        return false;
    dec__lg_g *g = &k->g[k->cur_gi];
    bool ok;
    switch (ev->type) {
    case LG_GOSTART:
        ok = hot_start(p, g, ev);
        break;
    case LG_BLOCKSEND: case LG_BLOCKRECV: case LG_BLOCKSELECT: case LG_BLOCKSYNC: case LG_BLOCKCOND:
        ok = hot_stop(p, g, ev, LG_GWAITING);
        break;
    case LG_GOSCHED: case LG_GOPREEMPT:
        ok = hot_stop(p, g, ev, LG_GRUNNABLE);
        break;
    case LG_GOUNBLOCK:
        ok = hot_unblock(k, p, g, ev);
        break;
    case LG_PROCSTART:
        if ((ok = !p->running))
            p->running = 1;
        break;
    case LG_PROCSTOP:
        if ((ok = p->running && !p->g))
            p->running = 0;
        break;
    default:
        return false;
    }
    if (ok) {
        k->popped_region = k->ended_regions = 0;
        k->last_ts = ev->ts;
    }
    return ok;
}

#endif
