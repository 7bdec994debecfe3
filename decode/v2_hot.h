/* decode/v2_hot.h — the hot path of the Go 1.22+ decoder, inline: the
 * three events that make up almost every trace (GoStart, GoUnblock,
 * GoBlock) ordered, decoded, summarized and handed on the plainest way, a
 * few more common ones (system calls, GoStop, HeapAlloc) ordered so, all
 * with the same rules as the general code they stand in for (v2_order.c,
 * v2_reader.c, v2_emit.c, v2_stats.c, v2_split.c). Each function either
 * does all of its step or nothing, and then the general code does it:
 * dec_desc.no_hot turns the hot path off, so tests can compare the two.
 * Included by v2_reader.c and v2_split.c only. */
#ifndef DEC_V2_HOT_H
#define DEC_V2_HOT_H

#include "v2.h"

#include <string.h>

/* The commonest events, ordered inline when they are ready and valid in
 * the plainest way, on an M with a slot: GoStart, GoUnblock, GoBlock (most
 * of every trace), GoStop, GoSyscallBegin and GoSyscallEnd (every system
 * call of a running goroutine) and HeapAlloc, by Go's rules as v2_rules.h
 * writes them. Sets e->ctx to the M's context before the event and
 * applies the event as dec__v2_advance would;
 * returns false, having changed nothing, for anything else (not ready, an
 * error, another type, an M or proc not known yet), which then takes
 * dec__v2_advance. *gp: the goroutine's state, or NULL. */
static inline v2_gst *dec__v2_hot_g(v2_order *o, uint64_t goid)
{
    uint32_t s = cs_ids_direct(&o->gids, goid);
    return s && o->g[s - 1].exists ? &o->g[s - 1] : NULL;
}
static inline v2_pst *dec__v2_hot_p(v2_order *o, uint64_t pid)
{
    uint32_t s = cs_ids_direct(&o->pids, pid);
    return s && o->p[s - 1].exists ? &o->p[s - 1] : NULL;
}
/* One type's step, t a constant where it is called: the rules' switches
 * on the type fold away. */
static inline __attribute__((always_inline)) bool dec__v2_hot_step(v2_order *o, uint64_t gen, v2_ev *e, v2_mst *m,
                                                                    uint8_t t, v2_gst **gp)
{
    v2_ctx c = {m->g, m->p, m->id};
    if (c.m == V2_NONE) /* an M with a slot is a thread (v2_cur.mslot): the rules' test of it folds away */
        __builtin_unreachable();
    v2_gst *g = NULL;
    v2_pst *p;
    if (t == V2_EvGoUnblock) { /* reads no context */
        if (!(g = dec__v2_hot_g(o, e->args[0])) || !dec__v2_g_ready(g, t, e, gen))
            return false;
    } else if (c.p >= V2_UNK) {
        /* no proc, or one ahead not resolved yet (V2_UNK = V2_NONE - 1), in one test: each of
         * the others needs its proc, so the rules' test of it folds away; this only declines */
        return false;
    } else if (t == V2_EvGoStart) { /* a goroutine ahead (V2_UNK) is not V2_NONE */
        if (!(g = dec__v2_hot_g(o, e->args[0])) || !dec__v2_g_ready(g, t, e, gen) ||
            !dec__v2_ctx_holds(c, V2_MUST, V2_MUST, V2_MUSTNOT))
            return false;
    } else if (t == V2_EvHeapAlloc) {
        if (c.g == V2_UNK || !dec__v2_ctx_holds(c, V2_MUST, V2_MUST, V2_MAY))
            return false;
    } else { /* GoBlock, GoStop, GoSyscallBegin, GoSyscallEnd: the M's own goroutine (none ahead:
              * V2_UNK is no goroutine the table holds) */
        if (!dec__v2_ctx_holds(c, V2_MUST, V2_MUST, V2_MUST) || !(g = dec__v2_hot_g(o, c.g)) ||
            g->status != dec__v2_gstep(t).from)
            return false;
        if (t == V2_EvGoSyscallBegin || t == V2_EvGoSyscallEnd) {
            if (!(p = dec__v2_hot_p(o, c.p)) || !dec__v2_p_syscall_ok(p, t, e, gen))
                return false;
            dec__v2_p_syscall(p, t, e, gen);
        }
    }
    if (g)
        dec__v2_g_apply(g, t, e, gen);
    e->ctx = c;
    v2_ctx after = c;
    dec__v2_m_after(&after, t, e);
    if (after.g != c.g) /* with t a constant, what the step keeps is not stored again */
        m->g = after.g;
    if (after.p != c.p)
        m->p = after.p;
    *gp = g;
    return true;
}

static inline __attribute__((always_inline)) bool dec__v2_hot_advance(v2_order *o, uint64_t gen, v2_ev *e, uint32_t mslot,
                                                                       v2_gst **gp)
{
    if (mslot == UINT32_MAX)
        return false;
    v2_mst *m = &o->m[mslot];
    uint8_t t = e->type;
    if (t == V2_EvGoStart)
        return dec__v2_hot_step(o, gen, e, m, V2_EvGoStart, gp);
    if (t == V2_EvGoUnblock)
        return dec__v2_hot_step(o, gen, e, m, V2_EvGoUnblock, gp);
    if (t == V2_EvGoBlock)
        return dec__v2_hot_step(o, gen, e, m, V2_EvGoBlock, gp);
    if (t == V2_EvGoStop)
        return dec__v2_hot_step(o, gen, e, m, V2_EvGoStop, gp);
    if (t == V2_EvGoSyscallBegin)
        return dec__v2_hot_step(o, gen, e, m, V2_EvGoSyscallBegin, gp);
    if (t == V2_EvGoSyscallEnd)
        return dec__v2_hot_step(o, gen, e, m, V2_EvGoSyscallEnd, gp);
    if (t == V2_EvHeapAlloc)
        return dec__v2_hot_step(o, gen, e, m, V2_EvHeapAlloc, gp);
    return false;
}

/* The varint of at most three bytes at p[*pos], from one little-endian
 * 8-byte word (the caller guarantees 8 readable bytes): false for a longer
 * one. Sequence numbers of busy goroutines take three bytes. */
static inline __attribute__((always_inline)) bool dec__v2_uv3(const uint8_t *p, size_t *pos, uint64_t *v)
{
    uint64_t w;
    memcpy(&w, p + *pos, sizeof w);
    if (!(w & 0x80)) {
        *v = w & 0x7f;
        *pos += 1;
        return true;
    }
    if (!(w & 0x8000)) {
        *v = (w & 0x7f) | (w >> 1 & 0x3f80);
        *pos += 2;
        return true;
    }
    if (!(w & 0x800000)) {
        *v = (w & 0x7f) | (w >> 1 & 0x3f80) | (w >> 2 & 0x1fc000);
        *pos += 3;
        return true;
    }
    return false;
}

/* The common case of dec__v2_cur_next inline: an event well inside the
 * batch the cursor is in, whose varints are at most 9 bytes. Returns false
 * for anything else (a batch to enter, the end, a bad type, bytes near the
 * end of the batch), which then takes dec__v2_cur_next, having changed
 * nothing but maybe the arguments of the event the cursor is done with. */
static inline __attribute__((always_inline)) bool dec__v2_cur_fast(v2_cur *c, const v2_gen *g, const uint8_t *nargs)
{
    const dec_buf *b = &c->b;
    if (b->pos >= c->fast_len) /* fewer than 1 + 10 * 6 bytes left, or the batch not entered */
        return false;
    const uint8_t *p = b->p + b->pos;
    unsigned n = nargs[p[0]];
    size_t pos = 1;
    uint64_t dt;
    uint64_t *a = c->ev.args;
    bool word = false;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* GoStart, GoBlock (3 varints) and GoUnblock (4) of one- to three-byte
     * varints, each from one 8-byte word */
    word = (n == 3 || n == 4) && dec__v2_uv3(p, &pos, &dt) && dec__v2_uv3(p, &pos, &a[0]) &&
           dec__v2_uv3(p, &pos, &a[1]) && (n == 3 || dec__v2_uv3(p, &pos, &a[2]));
    if (!word)
        pos = 1;
#endif
    /* else straight into place: on a 10-byte varint dec__v2_cur_next decodes them all again */
    if (!word) {
        if (!n || !dec_buf__uv9(p, &pos, &dt))
            return false;
        for (unsigned i = 0; i + 1 < n; i++)
            if (!dec_buf__uv9(p, &pos, &a[i]))
                return false;
    }
    c->ev.type = p[0];
    c->ev.off = b->base + b->pos;
    c->ev.synth = 0;
    int64_t ts = dec__v2_ns(g, dt) + c->last;
    c->ev.ts = c->last = ts > V2_T_MAX ? V2_T_MAX : ts;
    c->b.pos += pos;
    return true;
}

/* dec__v2_split_begin + note + done for an event dec__v2_hot_advance
 * ordered: plain, emitted in its M's context, which the prediction of every
 * cursor equals before every event (every event either keeps prediction and
 * M in step, here and in dec__v2_split_done, or resynchronizes all of them,
 * in dec__v2_split_slow). */
static inline bool dec__v2_split_hot(v2_split *sp, uint32_t ci, const v2_ev *e, cs_err *err)
{
    if (sp->run_len && (sp->run_ci != ci || sp->run_len == V2_RUN_MAX) && !dec__v2_split_flush(sp, err))
        return false;
    dec__v2_m_after(&sp->wpred[ci], e->type, e);
    sp->run_ci = ci;
    sp->run_len++;
    return true;
}

/* g_trans of v2_stats.c for GoStart (Runnable -> Running), GoUnblock
 * (Waiting -> Runnable) and GoBlock (Running -> Waiting), at time t, for a
 * goroutine with a summary, once the first events are past; false, having
 * changed nothing, when anything more is to be done (a first block reason,
 * naming the goroutine, "forever"). */
static inline bool dec__v2_sum_hot(v2_sum *s, const v2_ev *e, v2_gst *og, uint64_t goid, int64_t t, cs_sid reason)
{
    uint32_t slot = og ? og->sum_slot : 0;
    if (!slot) {
        if (!(slot = cs_ids_direct(&s->ids, goid)) || slot > s->n_g)
            return false;
        if (og) /* slots stay, and the summaries array only grows */
            og->sum_slot = slot;
    }
    if (!s->warm)
        return false;
    v2_sg *g = &s->g[slot - 1];
    if (g->present != 1)
        return false;
    if (e->type == V2_EvGoStart) {
        if (g->last_runnable)
            g->sched += t - g->last_runnable;
        g->last_runnable = 0;
        g->last_start = t;
        if (!g->start)
            g->start = t;
    } else if (e->type == V2_EvGoUnblock) {
        if (g->last_block) { /* mostly the reason of the last unblock, whose entry is kept */
            uint32_t i = g->block_kv_hit;
            if (!i || s->kv[i].key != g->last_block_reason) {
                for (i = g->block_kv; i && s->kv[i].key != g->last_block_reason;)
                    i = s->kv[i].next;
                if (!i)
                    return false;
                g->block_kv_hit = i;
            }
            s->kv[i].v += t - g->last_block;
        }
        g->last_block = 0;
        g->last_runnable = t;
    } else {
        if ((!g->name && e->args[1]) || reason == s->sid_forever)
            return false;
        g->exec += t - g->last_start;
        g->last_start = 0;
        g->last_block = t;
        g->last_block_reason = reason;
    }
    s->last_ts = t;
    return true;
}

/* dec__v2_emit of a cursor's event (not made up by the ordering) for a
 * sink that only summarizes (s->fast_emit: no model, no on_event): the
 * table-id checks, the timestamp fix-up and the Summarizer inline for the
 * three commonest events; everything else, and every first time, the
 * general way. og: the goroutine's ordering state on this thread, which
 * remembers its summary's slot, or NULL. */
static inline bool dec__v2_emit_fast(v2_sink *s, v2_gen *g, v2_ev *e, v2_gst *og, cs_err *err)
{
    uint64_t goid;
    cs_sid reason = 0;
    if (e->type == V2_EvGoBlock) {
        if (e->args[0] != s->rs_id || g->gen != s->rs_gen || !dec__v2_stack_ok(g, e->args[1]))
            return dec__v2_emit(s, g, e, err);
        goid = e->ctx.g, reason = s->rs_sid;
    } else if (e->type == V2_EvGoUnblock) {
        if (!dec__v2_stack_ok(g, e->args[2]))
            return dec__v2_emit(s, g, e, err);
        goid = e->args[0];
    } else if (e->type == V2_EvGoStart) {
        goid = e->args[0];
    } else {
        return dec__v2_emit(s, g, e, err);
    }
    if (!s->n_events) /* the first keeps its own time too (first_ts) */
        return dec__v2_emit(s, g, e, err);
    int64_t t = dec__v2_after_last(s, e->ts);
    if (!dec__v2_sum_hot(s->sum, e, og, goid, t, reason))
        return dec__v2_emit(s, g, e, err);
    s->last_ts = t; /* e->ts is not read again */
    s->n_events++;
    return true;
}

#endif
