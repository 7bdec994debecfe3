/* decode/v2_rules.h — Go's ordering rules for the Go 1.22+ formats, each
 * written once (internal/trace/order.go: ordering.Advance and its advance*
 * methods; docs/trace-format.md §4.6): what a scheduling event needs of
 * the state to be ready and valid, and what it does to its goroutine, its
 * proc and its M. Every path that orders or predicts events calls these:
 *   v2_order.c   the general ordering (adds Go's error messages for states
 *                that cannot be, and what a goroutine or proc not seen yet
 *                means, v2_ahead.c);
 *   v2_hot.h     the same rules inline, in their plainest case;
 *   v2_split.c   the M's context predicted through a run of plain events;
 *   v2_cut.c     what an M's own events before a cut say of its context;
 *   v2_emit.c    the public states of the wire statuses.
 * Included by v2.h, after the types it reads.
 *
 * API
 *   dec__v2_g_public[], dec__v2_p_public[]   wire status -> Go's public state
 *   bool dec__v2_seq_next(sgen, sseq, gen, seq)       next in sequence
 *   bool dec__v2_ctx_holds(v2_ctx c, int m, int p, int g)
 *       Go's validateCtx: V2_MUST / V2_MAY / V2_MUSTNOT have an M, P, G
 *   v2_gstep dec__v2_gstep(uint8_t type)
 *       the status an event needs its goroutine in and leaves it in
 *   bool dec__v2_gstep_by_arg(uint8_t type)
 *       the event's goroutine is args[0] (else its M's own)
 *   bool dec__v2_g_ready(const v2_gst *g, uint8_t t, const v2_ev *e, uint64_t gen)
 *   void dec__v2_g_apply(v2_gst *g, uint8_t t, const v2_ev *e, uint64_t gen)
 *       GoStart/GoUnblock's readiness; any step's effect on its goroutine
 *   bool dec__v2_p_syscall_ok(const v2_pst *p, uint8_t t, const v2_ev *e, uint64_t gen)
 *   void dec__v2_p_syscall(v2_pst *p, uint8_t t, const v2_ev *e, uint64_t gen)
 *       what GoSyscallBegin/End need of and do to the M's proc
 *   void dec__v2_m_after(v2_ctx *c, uint8_t t, const v2_ev *e)
 *       the M's goroutine and proc after an event whose effect on them
 *       its type fixes (not GoStatus, ProcStatus, ProcSteal: those depend
 *       on the state, v2_order.c)
 * The functions taking an event take its type apart, t == e->type: the
 * hot path passes a constant, so that each of its cases compiles to the
 * plain steps of its own type.
 */
#ifndef DEC_V2_RULES_H
#define DEC_V2_RULES_H

/* Wire status (GS_*, PS_*) to Go's public state (V2G_*, V2P_*): Go's
 * goStatus.state and procStatus.state. */
static const uint8_t dec__v2_g_public[5] = {V2G_UNDET, V2G_RUNNABLE, V2G_RUNNING, V2G_SYSCALL, V2G_WAITING};
static const uint8_t dec__v2_p_public[5] = {V2P_UNDET, V2P_RUNNING, V2P_IDLE, V2P_RUNNING, V2P_IDLE};

/* A goroutine's or proc's next event in the same generation carries the
 * next sequence number. */
static inline __attribute__((always_inline)) bool dec__v2_seq_next(uint64_t sgen, uint64_t sseq, uint64_t gen, uint64_t seq)
{
    return sgen == gen && seq == sseq + 1;
}

static inline __attribute__((always_inline)) bool dec__v2_ctx_holds(v2_ctx c, int m, int p, int g)
{
    return !(m == V2_MUST && c.m == V2_NONE) && !(p == V2_MUST && c.p == V2_NONE) &&
           !(p == V2_MUSTNOT && c.p != V2_NONE) && !(g == V2_MUST && c.g == V2_NONE) &&
           !(g == V2_MUSTNOT && c.g != V2_NONE);
}

/* The goroutine's status before and after: GS_BAD before, it does not
 * exist yet (GoCreate*); GS_BAD after, it no longer does (GoDestroy*);
 * both GS_BAD, the type is no goroutine transition of its own (GoSwitch
 * and GoStatus are decided by the state, v2_order.c). */
typedef struct v2_gstep { uint8_t from, to; } v2_gstep;

static inline __attribute__((always_inline)) v2_gstep dec__v2_gstep(uint8_t type)
{
    switch (type) {
    case V2_EvGoStart: return (v2_gstep){GS_RUNNABLE, GS_RUNNING};
    case V2_EvGoUnblock: return (v2_gstep){GS_WAITING, GS_RUNNABLE};
    case V2_EvGoBlock: return (v2_gstep){GS_RUNNING, GS_WAITING};
    case V2_EvGoStop: return (v2_gstep){GS_RUNNING, GS_RUNNABLE};
    case V2_EvGoDestroy: return (v2_gstep){GS_RUNNING, GS_BAD};
    case V2_EvGoSyscallBegin: return (v2_gstep){GS_RUNNING, GS_SYSCALL};
    case V2_EvGoSyscallEnd: return (v2_gstep){GS_SYSCALL, GS_RUNNING};
    case V2_EvGoSyscallEndBlocked: return (v2_gstep){GS_SYSCALL, GS_RUNNABLE};
    case V2_EvGoDestroySyscall: return (v2_gstep){GS_SYSCALL, GS_BAD};
    case V2_EvGoCreate: return (v2_gstep){GS_BAD, GS_RUNNABLE};
    case V2_EvGoCreateBlocked: return (v2_gstep){GS_BAD, GS_WAITING};
    case V2_EvGoCreateSyscall: return (v2_gstep){GS_BAD, GS_SYSCALL};
    }
    return (v2_gstep){GS_BAD, GS_BAD};
}

static inline __attribute__((always_inline)) bool dec__v2_gstep_by_arg(uint8_t type)
{
    return type == V2_EvGoStart || type == V2_EvGoUnblock;
}

/* GoStart, GoUnblock: their goroutine (args[0]) is in the status the step
 * needs and the event is next in its sequence (args[1]). */
static inline __attribute__((always_inline)) bool dec__v2_g_ready(const v2_gst *g, uint8_t t, const v2_ev *e, uint64_t gen)
{
    return g->status == dec__v2_gstep(t).from && dec__v2_seq_next(g->seq_gen, g->seq, gen, e->args[1]);
}

/* The step done to a goroutine that existed before it; by argument, its
 * sequence number moves on. */
static inline __attribute__((always_inline)) void dec__v2_g_apply(v2_gst *g, uint8_t t, const v2_ev *e, uint64_t gen)
{
    uint8_t to = dec__v2_gstep(t).to;
    if (to == GS_BAD)
        g->exists = 0;
    else
        g->status = to;
    if (dec__v2_gstep_by_arg(t))
        g->seq_gen = gen, g->seq = e->args[1];
}

/* The proc of a goroutine's system call: GoSyscallBegin takes it to
 * Syscall as the next in its sequence (args[0]), GoSyscallEnd needs it in
 * Syscall and takes it back to Running. */
static inline __attribute__((always_inline)) bool dec__v2_p_syscall_ok(const v2_pst *p, uint8_t t, const v2_ev *e, uint64_t gen)
{
    return t == V2_EvGoSyscallBegin ? dec__v2_seq_next(p->seq_gen, p->seq, gen, e->args[0])
                                          : p->status == PS_SYSCALL;
}
static inline __attribute__((always_inline)) void dec__v2_p_syscall(v2_pst *p, uint8_t t, const v2_ev *e, uint64_t gen)
{
    if (t == V2_EvGoSyscallBegin)
        p->status = PS_SYSCALL, p->seq_gen = gen, p->seq = e->args[0];
    else
        p->status = PS_RUNNING;
}

static inline __attribute__((always_inline)) void dec__v2_m_after(v2_ctx *c, uint8_t t, const v2_ev *e)
{
    switch (t) {
    case V2_EvGoStart: case V2_EvGoSwitch: case V2_EvGoSwitchDestroy: case V2_EvGoCreateSyscall:
        c->g = e->args[0];
        break;
    case V2_EvGoBlock: case V2_EvGoStop: case V2_EvGoDestroy: case V2_EvGoSyscallEndBlocked:
        c->g = V2_NONE;
        break;
    case V2_EvGoDestroySyscall: /* its proc, if any, is stolen with it */
        c->g = c->p = V2_NONE;
        break;
    case V2_EvProcStart:
        c->p = e->args[0];
        break;
    case V2_EvProcStop:
        c->p = V2_NONE;
        break;
    }
}

#endif
