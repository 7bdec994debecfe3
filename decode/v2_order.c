/* decode/v2_order.c — Go's ordering/validation state machine for the
 * scheduler events of Go 1.22+ traces (docs/trace-format.md §4.7–4.9, Go's
 * internal/trace/order.go): Ps, goroutines and their sequence numbers. Each
 * handler either says "not ready yet" (*ok = false, the reader tries another
 * M), fails with Go's reason, or pushes the event(s) with their context onto
 * the ready queue. Ranges, GC, tasks and regions are in v2_order_res.c.
 * State lives in dense slot arrays (cs_ids), never per event on the heap. */
#include "v2.h"

#include <string.h>


#define INVALID(e, ...) CS_FAIL(err, CS_E_INVALID, (e)->off, __VA_ARGS__)

uint32_t dec__v2_gslot(v2_order *o, uint64_t goid, cs_err *err)
{
    uint32_t s = cs_ids_find(&o->gids, goid);
    if (s != UINT32_MAX) /* known */
        return s;
    bool reuse = o->n_g_free > 0;
    s = reuse ? o->g_free[o->n_g_free - 1] : o->n_g;
    if (!cs_grow((void **)&o->g, &o->cap_g, s + 1, sizeof *o->g, err) ||
        cs_ids_get(&o->gids, goid, true, err) == UINT32_MAX)
        return UINT32_MAX;
    if (!cs_ids_set(&o->gids, goid, s, err)) {
        cs_ids_set(&o->gids, goid, UINT32_MAX, NULL); /* found no more: taking an id away takes no room */
        return UINT32_MAX;
    }
    if (reuse) {
        o->n_g_free--;
    } else {
        memset(&o->g[s], 0, sizeof o->g[s]);
        o->n_g++;
    }
    return s;
}

bool dec__v2_g_gone(v2_order *o, v2_gst *g, cs_err *err)
{
    if (o->ahead && (g->before & V2_BEFORE))
        return true;
    if (!cs_grow((void **)&o->g_free, &o->cap_g_free, o->n_g_free + 1, sizeof *o->g_free, err) ||
        !cs_ids_set(&o->gids, g->id, UINT32_MAX, err))
        return false;
    o->g_free[o->n_g_free++] = (uint32_t)(g - o->g);
    return true;
}

static v2_gst *gnew(v2_order *o, uint64_t goid, uint8_t status, uint64_t gen, cs_err *err)
{
    uint32_t s = dec__v2_gslot(o, goid, err);
    if (s == UINT32_MAX)
        return NULL;
    v2_gst *g = &o->g[s];
    g->exists = 1;
    g->id = goid;
    g->status = status;
    g->seq_gen = gen, g->seq = 0;
    g->n_ranges = 0, g->before = 0, g->sum_slot = 0;
    if (g->x)
        g->x->n_reg = 0;
    return g;
}

static v2_pst *pnew(v2_order *o, uint64_t pid, uint8_t status, uint64_t gen, cs_err *err)
{
    uint32_t s = cs_ids_get(&o->pids, pid, true, err);
    if (s == UINT32_MAX || !cs_grow((void **)&o->p, &o->cap_p, s + 1, sizeof *o->p, err))
        return NULL;
    v2_pst *p = &o->p[s];
    memset(p, 0, sizeof *p);
    p->exists = 1;
    p->id = pid;
    p->status = status;
    p->seq_gen = gen;
    return p;
}

uint32_t dec__v2_mslot(v2_order *o, uint64_t mid, cs_err *err)
{
    if (mid == V2_NONE)
        return UINT32_MAX;
    uint32_t n = o->mids.n;
    uint32_t s = cs_ids_get(&o->mids, mid, true, err);
    if (s == UINT32_MAX || !cs_grow((void **)&o->m, &o->cap_m, s + 1, sizeof *o->m, err))
        return UINT32_MAX;
    if (s == n)
        o->m[s] = o->ahead ? (v2_mst){mid, V2_UNK, V2_UNK} : (v2_mst){mid, V2_NONE, V2_NONE};
    return s;
}

bool dec__v2_reqs_fail(v2_ctx c, int m, int p, int g, uint64_t off, cs_err *err)
{
    if (m == V2_MUST && c.m == V2_NONE)
        return CS_FAIL(err, CS_E_INVALID, off, "expected a thread but didn't have one");
    if (p == V2_MUST && c.p == V2_NONE)
        return CS_FAIL(err, CS_E_INVALID, off, "expected a proc but didn't have one");
    if (p == V2_MUSTNOT && c.p != V2_NONE)
        return CS_FAIL(err, CS_E_INVALID, off, "expected no proc but had one");
    if (g == V2_MUST && c.g == V2_NONE)
        return CS_FAIL(err, CS_E_INVALID, off, "expected a goroutine but didn't have one");
    if (g == V2_MUSTNOT && c.g != V2_NONE)
        return CS_FAIL(err, CS_E_INVALID, off, "expected no goroutine but had one");
    return true;
}

bool dec__v2_push(v2_order *o, const v2_ev *ev, v2_ctx ctx, cs_err *err)
{
    return o->out(o->out_ud, ev, ctx, err);
}

/* Ahead from inside generation gen: goroutine or proc id (in ids), not
 * seen yet and named by an event that wants it in status st after sequence
 * number seq - 1, was so: noted as assumption `kind`. False otherwise, or
 * on error (err set). */
static bool unseen(v2_order *o, cs_ids *ids, uint8_t kind, uint64_t gen, uint64_t id, uint8_t st, uint64_t seq,
                   cs_err *err)
{
    return o->ahead && gen == o->cut_gen && seq && cs_ids_get(ids, id, false, NULL) == UINT32_MAX &&
           dec__v2_assume(o, kind, st, id, seq - 1, err);
}

static v2_gst *g_unseen(v2_order *o, uint64_t gen, uint64_t goid, uint8_t st, uint64_t seq, cs_err *err)
{
    v2_gst *g = unseen(o, &o->gids, V2A_G_SEQ, gen, goid, st, seq, err) ? gnew(o, goid, st, gen, err) : NULL;
    if (g)
        g->seq = seq - 1, g->before = V2_BEFORE;
    return g;
}

static v2_pst *p_unseen(v2_order *o, uint64_t gen, uint64_t pid, uint8_t st, uint64_t seq, cs_err *err)
{
    v2_pst *p = unseen(o, &o->pids, V2A_P_SEQ, gen, pid, st, seq, err) ? pnew(o, pid, st, gen, err) : NULL;
    if (p)
        p->seq = seq - 1, p->before = V2_BEFORE;
    return p;
}

bool dec__v2_order_look(v2_order *o, uint64_t gen, uint32_t mslot, const v2_look *k, cs_err *err)
{
    v2_mst *m = &o->m[mslot];
    if (k->g != V2_UNK) {
        if (!dec__v2_assume(o, V2A_M_G, 0, m->id, k->g, err))
            return false;
        m->g = k->g;
        if (k->g != V2_NONE && !dec__v2_gget(o, k->g) && !g_unseen(o, gen, k->g, k->gst, k->gseq + 1, err) &&
            err->code != CS_OK)
            return false;
    }
    if (k->p != V2_UNK) {
        if (!dec__v2_assume(o, V2A_M_P, 0, m->id, k->p, err))
            return false;
        m->p = k->p;
        /* PS_BAD: its status and sequence are not known yet (v2_cut.c) */
        if (k->p != V2_NONE && k->pst != PS_BAD && !dec__v2_pget(o, k->p) &&
            !p_unseen(o, gen, k->p, k->pst, k->pseq + 1, err) && err->code != CS_OK)
            return false;
    }
    return true;
}

static bool proc_status(v2_order *o, uint64_t gen, v2_ev *e, v2_ctx *cur, v2_ctx *nw, cs_err *err)
{
    uint64_t pid = e->args[0], st = e->args[1];
    if (st >= 5)
        return INVALID(e, "invalid status for proc %llu: %llu", (unsigned long long)pid, (unsigned long long)st);
    uint8_t old = dec__v2_p_public[st];
    v2_pst *p = dec__v2_pget(o, pid);
    if (p) {
        if (st == PS_ABANDONED && p->status == PS_SYSCALL) {
            old = V2P_RUNNING;
            e->args[1] = PS_SYSCALL;
        } else if (st == PS_ABANDONED && p->status == PS_ABANDONED) {
            old = V2P_IDLE;
        } else if (p->status != st) {
            return INVALID(e, "inconsistent status for proc %llu: old %u vs. new %llu",
                           (unsigned long long)pid, p->status, (unsigned long long)st);
        }
        p->seq_gen = gen, p->seq = 0;
    } else if (o->ahead && gen != o->initial_gen && cs_ids_get(&o->pids, pid, false, NULL) == UINT32_MAX) {
        /* it existed as it says: checked later */
        if (st == PS_ABANDONED)
            return dec__v2_not_ahead(e->off, "an abandoned proc", err);
        if (!dec__v2_assume(o, V2A_P_HAS, (uint8_t)st, pid, 0, err) || !(p = pnew(o, pid, (uint8_t)st, gen, err)))
            return false;
        p->before = V2_BEFORE;
    } else {
        /* ahead inside the first generation: named first here, it was not before */
        if (o->ahead && !dec__v2_assume(o, V2A_P_NONE, 0, pid, 0, err))
            return false;
        if (!pnew(o, pid, (uint8_t)st, gen, err))
            return false;
        old = gen == o->initial_gen ? V2P_UNDET : V2P_NOTEXIST;
    }
    e->extra[0] = old;
    if (st == PS_RUNNING || st == PS_SYSCALL)
        nw->p = pid;
    if (st == PS_ABANDONED && old == V2P_RUNNING) {
        bool found = false;
        for (uint32_t i = 0; i < o->mids.n; i++)
            if (o->m[i].p == V2_UNK)
                return dec__v2_not_ahead(e->off, "a thread's proc not known yet", err);
            else if (o->m[i].p == pid) {
                *cur = (v2_ctx){o->m[i].g, pid, o->m[i].id};
                found = true;
            }
        if (!found)
            return INVALID(e, "failed to find sched context for proc %llu that's about to be stolen",
                           (unsigned long long)pid);
    }
    return dec__v2_push(o, e, *cur, err);
}

static bool proc_start(v2_order *o, uint64_t gen, v2_ev *e, v2_ctx cur, v2_ctx *nw, bool *ok, cs_err *err)
{
    v2_pst *p = dec__v2_pget(o, e->args[0]);
    if (!p && !(p = p_unseen(o, gen, e->args[0], PS_IDLE, e->args[1], err)) && err->code != CS_OK)
        return false;
    if (!p || p->status != PS_IDLE || !dec__v2_seq_next(p->seq_gen, p->seq, gen, e->args[1]) || cur.p != V2_NONE)
        return *ok = false, true;
    if (!dec__v2_reqs(cur, V2_MUST, V2_MUSTNOT, V2_MAY, e->off, err))
        return false;
    p->status = PS_RUNNING;
    p->seq_gen = gen, p->seq = e->args[1];
    dec__v2_m_after(nw, e->type, e);
    return dec__v2_push(o, e, cur, err);
}

static bool proc_stop(v2_order *o, v2_ev *e, v2_ctx cur, v2_ctx *nw, cs_err *err)
{
    v2_pst *p = cur.p == V2_NONE ? NULL : dec__v2_pget(o, cur.p);
    if (!p)
        return INVALID(e, "event ProcStop for proc (%lld) that doesn't exist", (long long)cur.p);
    if (p->status != PS_RUNNING && p->status != PS_SYSCALL)
        return INVALID(e, "ProcStop event for proc that's not Running or Syscall");
    if (!dec__v2_reqs(cur, V2_MUST, V2_MUST, V2_MAY, e->off, err))
        return false;
    p->status = PS_IDLE;
    dec__v2_m_after(nw, e->type, e);
    return dec__v2_push(o, e, cur, err);
}

static bool proc_steal(v2_order *o, uint64_t gen, v2_ev *e, v2_ctx cur, v2_ctx *nw, bool *ok, cs_err *err)
{
    uint64_t pid = e->args[0];
    v2_pst *p = dec__v2_pget(o, pid);
    if (!p || (p->status != PS_SYSCALL && p->status != PS_ABANDONED) ||
        !dec__v2_seq_next(p->seq_gen, p->seq, gen, e->args[1]))
        return *ok = false, true;
    if (!dec__v2_reqs(cur, V2_MUST, V2_MAY, V2_MAY, e->off, err))
        return false;
    uint8_t old = p->status;
    e->extra[0] = old;
    p->status = PS_IDLE;
    p->seq_gen = gen, p->seq = e->args[1];
    if (old == PS_ABANDONED)
        return dec__v2_push(o, e, cur, err);
    uint64_t mid = e->args[2];
    if (mid == cur.m) {
        if (cur.p != pid)
            return INVALID(e, "tried to self-steal proc %llu (thread %llu), but got proc %lld instead",
                           (unsigned long long)pid, (unsigned long long)mid, (long long)cur.p);
        nw->p = V2_NONE;
        return dec__v2_push(o, e, cur, err);
    }
    v2_mst *ms = dec__v2_mget(o, mid);
    if (!ms)
        return INVALID(e, "stole proc from non-existent thread %llu", (unsigned long long)mid);
    if (ms->p != pid)
        return INVALID(e, "tried to steal proc %llu from thread %llu, but got proc %lld instead",
                       (unsigned long long)pid, (unsigned long long)mid, (long long)ms->p);
    ms->p = V2_NONE;
    return dec__v2_push(o, e, cur, err);
}

static bool go_status_syscall(v2_order *o, uint64_t gen, v2_ev *e, v2_ctx *cur, v2_ctx *nw, cs_err *err)
{
    uint64_t gid = e->args[0], mid = e->args[1];
    if (mid == V2_NONE)
        return INVALID(e, "found goroutine %llu in syscall without a thread", (unsigned long long)gid);
    if (o->ahead && (mid != cur->m || cur->g == V2_UNK))
        return dec__v2_not_ahead(e->off, "a goroutine in a syscall", err);
    if (mid == cur->m) {
        if (gen != o->initial_gen && cur->g != gid)
            return INVALID(e, "inconsistent thread for syscalling goroutine %llu: thread has goroutine %lld",
                           (unsigned long long)gid, (long long)cur->g);
        nw->g = gid;
        return true;
    }
    v2_mst *ms = dec__v2_mget(o, mid);
    if (ms) {
        if (ms->g != gid)
            return INVALID(e, "inconsistent thread for syscalling goroutine %llu: thread has goroutine %lld",
                           (unsigned long long)gid, (long long)ms->g);
        cur->g = ms->g;
    } else {
        uint32_t s = dec__v2_mslot(o, mid, err);
        if (s == UINT32_MAX)
            return false;
        o->m[s].g = gid;
    }
    cur->m = mid;
    return true;
}

static bool go_status(v2_order *o, uint64_t gen, v2_ev *e, v2_ctx cur, v2_ctx *nw, cs_err *err)
{
    uint64_t gid = e->args[0], st = e->args[2];
    if (st >= 5)
        return INVALID(e, "invalid status for goroutine %llu: %llu", (unsigned long long)gid, (unsigned long long)st);
    uint8_t old = dec__v2_g_public[st];
    v2_gst *g = dec__v2_gget(o, gid);
    if (g) {
        if (g->status != st)
            return INVALID(e, "inconsistent status for goroutine %llu: old %u vs. new %llu",
                           (unsigned long long)gid, g->status, (unsigned long long)st);
        g->seq_gen = gen, g->seq = 0;
    } else if (o->ahead && gen != o->initial_gen && cs_ids_get(&o->gids, gid, false, NULL) == UINT32_MAX) {
        /* it existed as it says: checked later */
        if (!dec__v2_assume(o, V2A_G_HAS, (uint8_t)st, gid, 0, err) || !(g = gnew(o, gid, (uint8_t)st, gen, err)))
            return false;
        g->before = V2_BEFORE;
    } else if (gen == o->initial_gen) {
        /* ahead inside the first generation: named first here, it was not before */
        if (o->ahead && !dec__v2_assume_g_none(o, gid, err))
            return false;
        if (!gnew(o, gid, (uint8_t)st, gen, err))
            return false;
        old = V2G_UNDET;
    } else {
        return INVALID(e, "found goroutine status for new goroutine after the first generation: id=%llu status=%llu",
                       (unsigned long long)gid, (unsigned long long)st);
    }
    e->extra[0] = old;
    if (st == GS_RUNNING)
        nw->g = gid;
    else if (st == GS_SYSCALL && !go_status_syscall(o, gen, e, &cur, nw, err))
        return false;
    return dec__v2_push(o, e, cur, err);
}

static bool go_create(v2_order *o, uint64_t gen, v2_ev *e, v2_ctx cur, v2_ctx *nw, cs_err *err)
{
    if (e->type == V2_EvGoCreateSyscall) {
        if (!dec__v2_reqs(cur, V2_MUST, V2_MAY, V2_MUSTNOT, e->off, err))
            return false;
    } else {
        if (!dec__v2_reqs(cur, V2_MUST, V2_MUST, V2_MAY, e->off, err))
            return false;
        v2_gst *c = cur.g == V2_NONE ? NULL : dec__v2_gget(o, cur.g);
        if (c && c->status != GS_RUNNING)
            return INVALID(e, "%s event for goroutine that's not Running", V2_SPEC(e->type)->name);
    }
    uint64_t ng = e->args[0];
    if (dec__v2_gget(o, ng))
        return INVALID(e, "tried to create goroutine (%llu) that already exists", (unsigned long long)ng);
    if (o->ahead && cs_ids_get(&o->gids, ng, false, NULL) == UINT32_MAX &&
        !dec__v2_assume_g_none(o, ng, err))
        return false;
    if (!gnew(o, ng, dec__v2_gstep(e->type).to, gen, err))
        return false;
    dec__v2_m_after(nw, e->type, e);
    return dec__v2_push(o, e, cur, err);
}

/* The current goroutine must exist and be in `want`. */
static v2_gst *cur_g(v2_order *o, v2_ev *e, v2_ctx cur, uint8_t want, cs_err *err)
{
    v2_gst *g = cur.g == V2_NONE ? NULL : dec__v2_gget(o, cur.g);
    const char *name = V2_SPEC(e->type)->name;
    if (!g) {
        INVALID(e, "event %s for goroutine (%lld) that doesn't exist", name, (long long)cur.g);
        return NULL;
    }
    if (g->status != want) {
        INVALID(e, "%s event for goroutine that's not %s", name, want == GS_RUNNING ? "Running" : "Syscall");
        return NULL;
    }
    return g;
}

/* An event of the M's own goroutine (GoStop, GoBlock, GoDestroy, the
 * syscall events): the M and its goroutine present, the proc as `p` says,
 * the goroutine in the state its step starts from; the step applied, and
 * the M's context after it when `nw` is given. */
static v2_gst *step_own(v2_order *o, uint64_t gen, v2_ev *e, v2_ctx cur, v2_ctx *nw, int p, cs_err *err)
{
    if (!dec__v2_reqs(cur, V2_MUST, p, V2_MUST, e->off, err))
        return NULL;
    v2_gst *g = cur_g(o, e, cur, dec__v2_gstep(e->type).from, err);
    if (!g)
        return NULL;
    dec__v2_g_apply(g, e->type, e, gen);
    if (!g->exists && !dec__v2_g_gone(o, g, err))
        return NULL;
    if (nw)
        dec__v2_m_after(nw, e->type, e);
    return g;
}

static bool go_stop_exec(v2_order *o, v2_ev *e, v2_ctx cur, v2_ctx *nw, cs_err *err)
{
    return step_own(o, 0, e, cur, nw, V2_MUST, err) && dec__v2_push(o, e, cur, err);
}

static bool go_start(v2_order *o, uint64_t gen, v2_ev *e, v2_ctx cur, v2_ctx *nw, bool *ok, cs_err *err)
{
    v2_gst *g = dec__v2_gget(o, e->args[0]);
    if (!g && !(g = g_unseen(o, gen, e->args[0], dec__v2_gstep(e->type).from, e->args[1], err)) && err->code != CS_OK)
        return false;
    if (!g || !dec__v2_g_ready(g, e->type, e, gen))
        return *ok = false, true;
    if (!dec__v2_reqs(cur, V2_MUST, V2_MUST, V2_MUSTNOT, e->off, err))
        return false;
    dec__v2_g_apply(g, e->type, e, gen);
    dec__v2_m_after(nw, e->type, e);
    return dec__v2_push(o, e, cur, err);
}

static bool go_unblock(v2_order *o, uint64_t gen, v2_ev *e, v2_ctx cur, bool *ok, cs_err *err)
{
    v2_gst *g = dec__v2_gget(o, e->args[0]);
    if (!g && !(g = g_unseen(o, gen, e->args[0], dec__v2_gstep(e->type).from, e->args[1], err)) && err->code != CS_OK)
        return false;
    if (!g || !dec__v2_g_ready(g, e->type, e, gen))
        return *ok = false, true;
    dec__v2_g_apply(g, e->type, e, gen);
    return dec__v2_push(o, e, cur, err);
}

static bool go_switch(v2_order *o, uint64_t gen, v2_ev *e, v2_ctx cur, v2_ctx *nw, bool *ok, cs_err *err)
{
    /* the M's goroutine blocks (GoSwitch) or ends (GoSwitchDestroy), and
     * the waiting goroutine args[0] starts in its place, next in its
     * sequence (args[1]): Go emits the two halves as events of their own */
    v2_ev x = {.ts = e->ts, .off = e->off, .synth = 1,
               .type = e->type == V2_EvGoSwitch ? V2_EvGoBlock : V2_EvGoDestroy};
    v2_ev st = {.ts = e->ts, .off = e->off, .synth = 1, .type = V2_EvGoStart, .args = {e->args[0], e->args[1]}};
    if (!dec__v2_reqs(cur, V2_MUST, V2_MUST, V2_MUST, e->off, err))
        return false;
    v2_gst *cg = cur_g(o, e, cur, dec__v2_gstep(x.type).from, err);
    if (!cg)
        return false;
    uint64_t next = e->args[0], seq = e->args[1];
    v2_gst *ng = dec__v2_gget(o, next);
    if (!ng && !(ng = g_unseen(o, gen, next, GS_WAITING, seq, err)) && err->code != CS_OK)
        return false;
    if (!ng || ng->status != GS_WAITING || !dec__v2_seq_next(ng->seq_gen, ng->seq, gen, seq))
        return *ok = false, true;
    if (!dec__v2_push(o, e, cur, err))
        return false;
    dec__v2_g_apply(cg, x.type, &x, gen);
    if ((!cg->exists && !dec__v2_g_gone(o, cg, err)) || !dec__v2_push(o, &x, cur, err))
        return false;
    dec__v2_g_apply(ng, st.type, &st, gen);
    dec__v2_m_after(nw, e->type, e);
    v2_ctx sc = cur;
    dec__v2_m_after(&sc, x.type, &x);
    return dec__v2_push(o, &st, sc, err);
}

static bool syscall_begin(v2_order *o, uint64_t gen, v2_ev *e, v2_ctx cur, cs_err *err)
{
    if (!step_own(o, gen, e, cur, NULL, V2_MUST, err))
        return false;
    v2_pst *p = dec__v2_pget(o, cur.p);
    if (!p && !(p = p_unseen(o, gen, cur.p, PS_RUNNING, e->args[0], err)) && err->code == CS_OK)
        return INVALID(e, "uninitialized proc %lld found during GoSyscallBegin", (long long)cur.p);
    if (!p)
        return false;
    if (!dec__v2_p_syscall_ok(p, e->type, e, gen))
        return INVALID(e, "failed to advance GoSyscallBegin: can't make sequence: %llu (gen=%llu) -> %llu (gen=%llu)",
                       (unsigned long long)p->seq, (unsigned long long)p->seq_gen,
                       (unsigned long long)e->args[0], (unsigned long long)gen);
    dec__v2_p_syscall(p, e->type, e, gen);
    return dec__v2_push(o, e, cur, err);
}

static bool syscall_end(v2_order *o, v2_ev *e, v2_ctx cur, cs_err *err)
{
    if (!step_own(o, 0, e, cur, NULL, V2_MUST, err))
        return false;
    v2_pst *p = dec__v2_pget(o, cur.p);
    if (!p)
        return INVALID(e, "uninitialized proc %lld found during GoSyscallEnd", (long long)cur.p);
    if (!dec__v2_p_syscall_ok(p, e->type, e, 0))
        return INVALID(e, "expected proc %lld in state Syscall, but got %u instead", (long long)cur.p, p->status);
    dec__v2_p_syscall(p, e->type, e, 0);
    return dec__v2_push(o, e, cur, err);
}

static bool syscall_end_blocked(v2_order *o, v2_ev *e, v2_ctx cur, v2_ctx *nw, bool *ok, cs_err *err)
{
    if (cur.p != V2_NONE) {
        v2_pst *p = dec__v2_pget(o, cur.p);
        if (!p)
            return INVALID(e, "uninitialized proc %lld found during GoSyscallEndBlocked", (long long)cur.p);
        if (p->status == PS_SYSCALL)
            return *ok = false, true;
    }
    return step_own(o, 0, e, cur, nw, V2_MAY, err) && dec__v2_push(o, e, cur, err);
}

static bool destroy_syscall(v2_order *o, v2_ev *e, v2_ctx cur, v2_ctx *nw, cs_err *err)
{
    if (!step_own(o, 0, e, cur, nw, V2_MAY, err))
        return false;
    if (cur.p != V2_NONE) {
        v2_pst *p = dec__v2_pget(o, cur.p);
        if (!p)
            return INVALID(e, "found invalid proc %lld during GoDestroySyscall", (long long)cur.p);
        if (p->status != PS_SYSCALL)
            return INVALID(e, "proc %lld in unexpected state %u during GoDestroySyscall", (long long)cur.p, p->status);
        p->status = PS_ABANDONED;
        v2_ev x = {.ts = e->ts, .off = e->off, .synth = 1, .type = V2_EvProcSteal,
                   .args = {cur.p}, .extra = {PS_SYSCALL}};
        if (!dec__v2_push(o, &x, cur, err))
            return false;
    }
    return dec__v2_push(o, e, cur, err);
}

/* Ahead: events that never read their M's context, at most set it (their
 * own context, emitted with them, is not read by the Summarizer). */
static bool status_only(const v2_ev *e)
{
    return e->type == V2_EvGoUnblock || ((e->type == V2_EvGoStatus || e->type == V2_EvGoStatusStack) && e->args[2] != GS_SYSCALL) ||
           (e->type == V2_EvProcStatus && e->args[1] != PS_ABANDONED);
}

/* Ahead: an event reads its M's context before the generation said what it
 * is: the M had no goroutine and no proc (the plain case), checked later. */
static bool resolve(v2_order *o, v2_mst *m, cs_err *err)
{
    if (m->g == V2_UNK && !dec__v2_assume(o, V2A_M_G, 0, m->id, V2_NONE, err))
        return false;
    if (m->p == V2_UNK && !dec__v2_assume(o, V2A_M_P, 0, m->id, V2_NONE, err))
        return false;
    m->g = m->g == V2_UNK ? V2_NONE : m->g;
    m->p = m->p == V2_UNK ? V2_NONE : m->p;
    return true;
}

bool dec__v2_assume(v2_order *o, uint8_t kind, uint8_t st, uint64_t id, uint64_t v, cs_err *err)
{
    if (!cs_grow((void **)&o->as, &o->cap_as, o->n_as + 1, sizeof *o->as, err))
        return false;
    o->as[o->n_as++] = (v2_assume){kind, st, id, v};
    return true;
}

bool dec__v2_assume_g_none(v2_order *o, uint64_t id, cs_err *err)
{
    if (!cs_grow((void **)&o->g_none, &o->cap_g_none, o->n_g_none + 1, sizeof *o->g_none, err))
        return false;
    o->g_none[o->n_g_none++] = id;
    return true;
}

bool dec__v2_not_ahead(uint64_t off, const char *why, cs_err *err)
{
    return CS_FAIL(err, CS_E_CANCELLED, off, "not ordered ahead: %s", why);
}

/* Every type but the three commonest (dec__v2_advance). */
static bool advance_other(v2_order *o, v2_gen *gen, v2_ev *e, v2_ctx cur, v2_ctx *nw, bool *ok, cs_err *err)
{
    uint64_t gn = gen->gen;
    switch (e->type) {
    case V2_EvProcStatus: return proc_status(o, gn, e, &cur, nw, err);
    case V2_EvProcStart: return proc_start(o, gn, e, cur, nw, ok, err);
    case V2_EvProcStop: return proc_stop(o, e, cur, nw, err);
    case V2_EvProcSteal: return proc_steal(o, gn, e, cur, nw, ok, err);
    case V2_EvGoStatus: case V2_EvGoStatusStack: return go_status(o, gn, e, cur, nw, err);
    case V2_EvGoCreate: case V2_EvGoCreateBlocked: case V2_EvGoCreateSyscall:
        return go_create(o, gn, e, cur, nw, err);
    case V2_EvGoStop: case V2_EvGoBlock: case V2_EvGoDestroy: return go_stop_exec(o, e, cur, nw, err);
    case V2_EvGoSwitch: case V2_EvGoSwitchDestroy: return go_switch(o, gn, e, cur, nw, ok, err);
    case V2_EvGoSyscallBegin: return syscall_begin(o, gn, e, cur, err);
    case V2_EvGoSyscallEnd: return syscall_end(o, e, cur, err);
    case V2_EvGoSyscallEndBlocked: return syscall_end_blocked(o, e, cur, nw, ok, err);
    case V2_EvGoDestroySyscall: return destroy_syscall(o, e, cur, nw, err);
    default: return dec__v2_order_res(o, gen, e, cur, ok, err);
    }
}

bool dec__v2_advance(v2_order *o, v2_gen *gen, v2_ev *ev, uint32_t mslot,
                     bool *ok, cs_err *err)
{
    if (!o->initial_gen)
        o->initial_gen = gen->gen;
    v2_ev *e = ev;
    v2_ctx cur = {V2_NONE, V2_NONE, V2_NONE};
    if (mslot != UINT32_MAX) {
        v2_mst *m = &o->m[mslot];
        if ((m->g == V2_UNK || m->p == V2_UNK) && !status_only(e) && !resolve(o, m, err))
            return false;
        cur = (v2_ctx){m->g, m->p, m->id};
    }
    v2_ctx nw = cur;
    bool r;
    *ok = true;
    /* almost every event is one of these three: plain branches, no jump table */
    if (e->type == V2_EvGoStart)
        r = go_start(o, gen->gen, e, cur, &nw, ok, err);
    else if (e->type == V2_EvGoUnblock)
        r = go_unblock(o, gen->gen, e, cur, ok, err);
    else if (e->type == V2_EvGoBlock)
        r = go_stop_exec(o, e, cur, &nw, err);
    else
        r = advance_other(o, gen, e, cur, &nw, ok, err);
    if (r && *ok && mslot != UINT32_MAX) {
        o->m[mslot].g = nw.g;
        o->m[mslot].p = nw.p;
    }
    return r;
}

void dec__v2_order_end_gs(v2_order *o)
{
    for (uint32_t i = 0; i < o->n_g; i++)
        dec__v2_gext_free(o->g[i].x);
    cs_free(o->g), cs_free(o->g_free);
    cs_ids_deinit(&o->gids);
    o->g = NULL, o->cap_g = o->n_g = 0;
    o->g_free = NULL, o->cap_g_free = o->n_g_free = 0;
}

void dec__v2_order_deinit(v2_order *o)
{
    dec__v2_order_end_gs(o);
    cs_free(o->p), cs_free(o->m), cs_free(o->tasks), cs_free(o->as), cs_free(o->g_none);
    cs_ids_deinit(&o->pids), cs_ids_deinit(&o->mids);
    cs_ids_deinit(&o->task_ids);
    dec__v2_keep_deinit(&o->keep);
    memset(o, 0, sizeof *o);
}
