/* decode/legacy_check.c — Go's postProcessTrace (docs/trace-format.md §3.10):
 * simulates goroutine and P states over the ordered events and rejects
 * traces Go rejects. Also applies its two event rewrites: GCStart moves to
 * GCP, a network unblock to NetpollP, and the first GoStart after a GoCreate
 * takes the creation's start-PC stack. Region and task bookkeeping is shared
 * with the model (open ranges). */
#include "legacy.h"

#include <string.h>

dec__lg_pst *dec__lg_p_state(dec__lg_sink *k, int64_t p, cs_err *err)
{
    uint32_t i;
    bool small = p >= -1 && p < 63;
    if (small && k->p_direct[p + 1])
        return &k->ps[k->p_direct[p + 1] - 1];
    if (!small && cs_map_get(&k->p_map, (uint64_t)p, &i))
        return &k->ps[i];
    if (!cs_grow((void **)&k->ps, &k->cap_ps, k->n_ps + 1, sizeof *k->ps, err))
        return NULL;
    i = k->n_ps++;
    memset(&k->ps[i], 0, sizeof k->ps[i]);
    if (small)
        k->p_direct[p + 1] = i + 1;
    else if (!cs_map_put(&k->p_map, (uint64_t)p, i, err))
        return NULL;
    return &k->ps[i];
}

static bool fail(cs_err *err, const dec__lg_ev *ev, const char *what)
{
    return CS_FAIL(err, CS_E_INVALID, ev->off, "invalid trace: %s (%s, goroutine %llu, P %lld)", what,
                   dec__lg_descs[ev->type].name, (unsigned long long)ev->g, (long long)ev->p);
}

static bool check_running(const dec__lg_pst *p, const dec__lg_g *g, const dec__lg_ev *ev, bool allow_g0,
                          cs_err *err)
{
    if (g->state != LG_GRUNNING)
        return fail(err, ev, "goroutine is not running");
    if (p->g != ev->g)
        return fail(err, ev, "P is not running this goroutine");
    if (!allow_g0 && ev->g == 0)
        return fail(err, ev, "goroutine 0 did it");
    return true;
}

static bool on_create(dec__lg_sink *k, const dec__lg_pst *p, const dec__lg_ev *ev, cs_err *err)
{
    if (!check_running(p, &k->g[k->cur_gi], ev, true, err))
        return false;
    dec__lg_g *n = dec__lg_g_get(k, ev->args[0], err);
    if (!n)
        return false;
    if (n->flags & LG_GF_KNOWN)
        return fail(err, ev, "created goroutine already exists");
    n->flags |= LG_GF_KNOWN | LG_GF_CREATE;
    n->state = LG_GRUNNABLE;
    n->ev = LG_GOCREATE;
    n->create_stk = ev->args[1];
    return true;
}

static bool on_unblock(dec__lg_sink *k, dec__lg_pst *p, dec__lg_g *g, dec__lg_ev *ev, cs_err *err)
{
    if (g->state != LG_GRUNNING)
        return fail(err, ev, "unblocking goroutine is not running");
    if (ev->p != LG_TIMERP && p->g != ev->g)
        return fail(err, ev, "P is not running the unblocking goroutine");
    dec__lg_g *t = dec__lg_g_get(k, ev->args[0], err);
    if (!t)
        return false;
    if (t->state != LG_GWAITING)
        return fail(err, ev, "unblocked goroutine is not waiting");
    if (t->ev == LG_BLOCKNET && ev->p != LG_TIMERP)
        ev->p = LG_NETPOLLP;
    t->flags |= LG_GF_KNOWN;
    t->state = LG_GRUNNABLE;
    t->ev = LG_GOUNBLOCK;
    return true;
}

static bool on_start(dec__lg_sink *k, dec__lg_pst *p, dec__lg_g *g, dec__lg_ev *ev, cs_err *err)
{
    (void)k;
    if (g->state != LG_GRUNNABLE)
        return fail(err, ev, "goroutine is not runnable before start");
    if (p->g != 0)
        return fail(err, ev, "P is already running a goroutine");
    g->state = LG_GRUNNING;
    p->g = ev->g;
    if (g->flags & LG_GF_CREATE) {
        ev->stk = g->create_stk; /* 1.5: a PC, not a stack id */
        ev->from_create = 1;
        g->flags &= (uint8_t)~LG_GF_CREATE;
    }
    g->ev = 0;
    return true;
}

static bool on_region(dec__lg_sink *k, const dec__lg_ev *ev, dec__lg_g *g, cs_err *err)
{
    cs_sid name = dec__lg_str_sid(k->s, k->m, ev->args[2], err);
    if (err->code != CS_OK)
        return false;
    if (ev->args[1] == 0) {
        if (!cs_grow((void **)&k->regions, &k->cap_regions, k->n_regions + 1, sizeof *k->regions, err))
            return false;
        k->regions[k->n_regions] = (dec__lg_region){.task = ev->args[0], .name = name, .prev = g->region_top};
        g->region_top = ++k->n_regions;
        return true;
    }
    if (ev->args[1] != 1)
        return fail(err, ev, "invalid user region mode");
    if (!g->region_top)
        return true;
    const dec__lg_region *r = &k->regions[g->region_top - 1];
    if (r->task != ev->args[0] || r->name != name)
        return fail(err, ev, "misuse of region (end does not match the innermost open region)");
    k->popped_region = g->region_top;
    g->region_top = r->prev;
    return true;
}

static bool on_stw(dec__lg_sink *k, dec__lg_pst *p, const dec__lg_ev *ev, cs_err *err)
{
    bool *on = k->s->ver < 1010 ? (bool *)NULL : &k->stw_on;
    bool cur = on ? *on : p->stw;
    if ((ev->type == LG_STWSTART) == cur)
        return fail(err, ev, cur ? "previous STW is not ended before a new one" : "bogus STW end");
    if (on)
        *on = !cur;
    else
        p->stw = !cur;
    return true;
}

static bool goroutine_event(dec__lg_sink *k, dec__lg_pst *p, dec__lg_g *g, dec__lg_ev *ev, cs_err *err)
{
    switch (ev->type) {
    case LG_GOWAITING: case LG_GOINSYSCALL:
        if (g->state != LG_GRUNNABLE)
            return fail(err, ev, "goroutine is not runnable before GoWaiting/GoInSyscall");
        g->state = LG_GWAITING, g->ev = ev->type;
        return true;
    case LG_GOSTART: case LG_STARTLABEL:
        return on_start(k, p, g, ev, err);
    case LG_GOEND: case LG_GOSTOP:
        if (!check_running(p, g, ev, false, err))
            return false;
        g->state = LG_GDEAD, p->g = 0;
        if (ev->type == LG_GOEND) { /* Go forgets the goroutine's open regions */
            k->ended_regions = g->region_top;
            g->region_top = 0;
        }
        return true;
    case LG_GOSCHED: case LG_GOPREEMPT:
        if (!check_running(p, g, ev, false, err))
            return false;
        g->state = LG_GRUNNABLE, p->g = 0, g->ev = ev->type;
        return true;
    case LG_SYSCALL:
        if (!check_running(p, g, ev, false, err))
            return false;
        g->ev = ev->type;
        return true;
    case LG_SYSBLOCK:
        if (!check_running(p, g, ev, false, err))
            return false;
        g->state = LG_GWAITING, p->g = 0;
        return true;
    case LG_SYSEXIT:
        if (g->state != LG_GWAITING)
            return fail(err, ev, "goroutine is not waiting during syscall exit");
        g->state = LG_GRUNNABLE, g->ev = ev->type;
        return true;
    case LG_GOSLEEP: case LG_GOBLOCK: case LG_BLOCKSEND: case LG_BLOCKRECV: case LG_BLOCKSELECT:
    case LG_BLOCKSYNC: case LG_BLOCKCOND: case LG_BLOCKNET: case LG_BLOCKGC:
        if (!check_running(p, g, ev, false, err))
            return false;
        g->state = LG_GWAITING, g->ev = ev->type, p->g = 0;
        return true;
    case LG_ASSISTSTART:
        if (g->flags & LG_GF_ASSIST)
            return fail(err, ev, "previous mark assist is not ended before a new one");
        g->flags |= LG_GF_ASSIST;
        return true;
    case LG_ASSISTDONE:
        g->flags &= (uint8_t)~LG_GF_ASSIST;
        return true;
    case LG_REGION:
        return on_region(k, ev, g, err);
    }
    return true;
}

bool dec__lg_check(dec__lg_sink *k, dec__lg_ev *ev, cs_err *err)
{
    k->popped_region = k->ended_regions = 0;
    dec__lg_pst *p = ev->p >= -1 && ev->p < 63 && k->p_direct[ev->p + 1] ? &k->ps[k->p_direct[ev->p + 1] - 1]
                                                                         : dec__lg_p_state(k, ev->p, err);
    if (!p)
        return false;
    switch (ev->type) {
    case LG_PROCSTART:
        if (p->running)
            return fail(err, ev, "P is running before start");
        p->running = 1;
        return true;
    case LG_PROCSTOP:
        if (!p->running || p->g)
            return fail(err, ev, p->running ? "P is running a goroutine during stop" : "P is not running before stop");
        p->running = 0;
        return true;
    case LG_GCSTART:
        if (k->gc_on)
            return fail(err, ev, "previous GC is not ended before a new one");
        k->gc_on = true;
        ev->p = LG_GCP;
        return true;
    case LG_GCDONE:
        if (!k->gc_on)
            return fail(err, ev, "bogus GC end");
        k->gc_on = false;
        return true;
    case LG_STWSTART: case LG_STWDONE:
        return on_stw(k, p, ev, err);
    case LG_SWEEPSTART: case LG_SWEEPDONE:
        if ((ev->type == LG_SWEEPSTART) == (p->sweep != 0))
            return fail(err, ev, p->sweep ? "previous sweeping is not ended before a new one" : "bogus sweeping end");
        p->sweep = ev->type == LG_SWEEPSTART;
        return true;
    case LG_GOCREATE:
        return on_create(k, p, ev, err);
    case LG_TASKCREATE:
        if (cs_map_get(&k->tasks, ev->args[0], &(uint32_t){0}))
            return fail(err, ev, "task id conflicts");
        return cs_map_put(&k->tasks, ev->args[0], 1, err);
    case LG_TASKEND:
        cs_map_del(&k->tasks, ev->args[0]);
        return true;
    }
    dec__lg_g *g = &k->g[k->cur_gi];
    if (ev->type == LG_GOUNBLOCK)
        return on_unblock(k, p, g, ev, err);
    return goroutine_event(k, p, g, ev, err);
}
