/* decode/legacy_cur.h — the hot part of a P cursor (legacy_cursor.c), inline
 * so the order1007 merge decodes its common events without calls: one
 * ordinary record well inside its batch decoded straight into the head
 * (Go's parseEvents, go-trace-format.md §3.3) with its order1007 state
 * transition (§3.9). Everything else (batch changes, special records, CPU
 * samples) goes through dec__lg_cur_step. Included by legacy_cursor.c and
 * legacy_order.c only. */
#ifndef DEC_LEGACY_CUR_H
#define DEC_LEGACY_CUR_H

#include "legacy.h"

/* Per-type rules as table entries, so the hot path selects values instead
 * of branching on the type. Current G (§3.3): g picks ev->g from
 * {last_g, args[0], 0}, last picks the cursor's next last_g from the same.
 * order1007 transition (§3.9): key from {none, G, args[0], GC}, init_seq
 * from {0, 1, NOSEQ, args[1], args[0]}, next_seq from {1, 2, NOSEQ,
 * args[1] + 1, SEQINC, args[0] + 1}. as: the type the merge hands on (the
 * non-local one), 0 = itself. */
typedef struct cur_rule {
    uint8_t g, last, key, iseq, ist, nseq, nst, as;
} cur_rule;

#define R_START {1, 1, 1, 3, LG_GRUNNABLE, 3, LG_GRUNNING}
#define R_BLOCK {0, 2, 1, 2, LG_GRUNNING, 2, LG_GWAITING}
#define R_SCHED {0, 2, 1, 2, LG_GRUNNING, 2, LG_GRUNNABLE}
static const cur_rule cur_rules[LG_NTYPES] = {
    [LG_GOSTART] = R_START, [LG_STARTLABEL] = R_START,
    [LG_STARTLOCAL] = {1, 1, 1, 2, LG_GRUNNABLE, 4, LG_GRUNNING, LG_GOSTART},
    [LG_STWSTART] = {2, 0, 0, 0, 0, 0, 0}, [LG_STWDONE] = {2, 0, 0, 0, 0, 0, 0},
    [LG_GCDONE] = {2, 0, 0, 0, 0, 0, 0},
    [LG_GCSTART] = {2, 0, 3, 4, LG_GDEAD, 5, LG_GDEAD},
    [LG_GOEND] = {0, 2, 0, 0, 0, 0, 0}, [LG_GOSTOP] = {0, 2, 0, 0, 0, 0, 0},
    [LG_GOSCHED] = R_SCHED, [LG_GOPREEMPT] = R_SCHED,
    [LG_GOSLEEP] = R_BLOCK, [LG_GOBLOCK] = R_BLOCK, [LG_BLOCKSEND] = R_BLOCK, [LG_BLOCKRECV] = R_BLOCK,
    [LG_BLOCKSELECT] = R_BLOCK, [LG_BLOCKSYNC] = R_BLOCK, [LG_BLOCKCOND] = R_BLOCK,
    [LG_BLOCKNET] = R_BLOCK, [LG_SYSBLOCK] = R_BLOCK, [LG_BLOCKGC] = R_BLOCK,
    [LG_SYSEXIT] = {1, 0, 2, 3, LG_GWAITING, 3, LG_GRUNNABLE},
    [LG_GOWAITING] = {1, 0, 1, 1, LG_GRUNNABLE, 1, LG_GWAITING},
    [LG_GOINSYSCALL] = {1, 0, 1, 1, LG_GRUNNABLE, 1, LG_GWAITING},
    [LG_GOCREATE] = {0, 0, 2, 0, LG_GDEAD, 0, LG_GRUNNABLE},
    [LG_GOUNBLOCK] = {0, 0, 2, 3, LG_GWAITING, 3, LG_GRUNNABLE},
    [LG_UNBLOCKLOCAL] = {0, 0, 2, 2, LG_GWAITING, 4, LG_GRUNNABLE, LG_GOUNBLOCK},
    [LG_SYSEXITLOCAL] = {0, 0, 2, 2, LG_GWAITING, 4, LG_GRUNNABLE, LG_SYSEXIT},
};
#undef R_START
#undef R_BLOCK
#undef R_SCHED

/* Go's current-G rules (§3.3), after Args are filled in. */
static inline void g_rules(dec__lg_cur *c, dec__lg_ev *ev)
{
    const cur_rule *r = &cur_rules[ev->type];
    uint64_t v[3] = {c->last_g, ev->args[0], 0};
    ev->g = v[r->g];
    c->last_g = v[r->last];
    if (ev->type == LG_CPUSAMPLE) {
        ev->ts = (int64_t)ev->args[0];
        ev->p = (int64_t)ev->args[1];
        ev->g = ev->args[2];
        ev->args[0] = 0;
    }
}

/* Go's parseEvents for one record: ts/seq from deltas, Args, stack id, G.
 * a[0..n) are the record's varints. */
static inline __attribute__((always_inline)) void decode_event(const dec__lg_scan *s, dec__lg_cur *c, uint64_t off, uint8_t type, uint8_t wire,
                                const uint64_t *a, unsigned n, dec__lg_ev *ev)
{
    unsigned ao = 1;
    ev->off = off, ev->type = type, ev->wire = wire, ev->p = c->p, ev->g = c->last_g;
    ev->seq = 0, ev->str_off = 0, ev->str_len = 0, ev->dead = 0, ev->from_create = 0;
    if (s->ver < 1007) {
        c->last_seq = (int64_t)((uint64_t)c->last_seq + a[0]);
        ev->seq = c->last_seq;
        ev->ts = (int64_t)((uint64_t)c->last_ts + (n > 1 ? a[1] : 0));
        ao = 2;
    } else {
        ev->ts = (int64_t)((uint64_t)c->last_ts + a[0]);
    }
    c->last_ts = ev->ts;
    unsigned na = n > ao ? n - ao : 0;
    ev->stk = 0;
    if (dec__lg_descs[type].stack && na)
        ev->stk = a[ao + --na];
    ev->args[0] = na > 0 ? a[ao] : 0;
    ev->args[1] = na > 1 ? a[ao + 1] : 0;
    ev->args[2] = na > 2 ? a[ao + 2] : 0;
    g_rules(c, ev);
}

/* Varint without bounds checks: the caller guarantees 10 readable bytes. */
static inline uint64_t uv_fast(const uint8_t **pp)
{
    const uint8_t *p = *pp;
    uint64_t v = *p & 0x7f;
    if (*p++ & 0x80) {
        for (unsigned sh = 7; sh < 70; sh += 7) {
            uint8_t b = *p++;
            v |= (uint64_t)(b & 0x7f) << (sh & 63);
            if (!(b & 0x80))
                break;
        }
    }
    *pp = p;
    return v;
}

/* The common case of cursor_next: an ordinary event record of a 1.7+ trace
 * well inside the batch (pass 1 already validated it), decoded straight into
 * the head: decode_event without the generic argument shuffling (varints
 * past the count read are 0, the stack id is the last one). False: use
 * dec__lg_rec_read. */
static inline __attribute__((always_inline)) bool fast_event(const dec__lg_scan *s, dec__lg_cur *c)
{
    const uint8_t *p = s->data + c->pos;
    if (c->end - c->pos < 64 || s->ver < 1007)
        return false;
    uint8_t h = *p;
    unsigned t = s->vt.type[h & 63], narg = (h >> 6) + 1u, n = 0;
    if (!s->vt.plain[t])
        return false;
    const uint8_t *q = p + 1, *qe;
    uint64_t a[LG_MAXARGS + 1] = {0};
    if (narg < 4) {
        for (; n < narg; n++)
            a[n] = uv_fast(&q);
        qe = q;
    } else {
        uint64_t len = uv_fast(&q);
        if (len > 40)
            return false;
        qe = q + len;
        while (q < qe && n < LG_MAXARGS)
            a[n++] = uv_fast(&q);
    }
    if (!n)
        return false;
    dec__lg_ev *ev = &c->h.ev;
    ev->off = c->pos, ev->type = (uint8_t)t, ev->wire = h & 63, ev->p = c->p, ev->g = c->last_g;
    ev->seq = 0, ev->str_off = 0, ev->str_len = 0, ev->dead = 0, ev->from_create = 0;
    c->last_ts = ev->ts = (int64_t)((uint64_t)c->last_ts + a[0]);
    ev->stk = 0;
    if (dec__lg_descs[t].stack && n > 1) {
        ev->stk = a[n - 1];
        a[n - 1] = 0;
    }
    ev->args[0] = a[1], ev->args[1] = a[2], ev->args[2] = a[3];
    g_rules(c, ev);
    c->pos += (uint64_t)(qe - p);
    return true;
}

/* stateTransition of Go's order1007 (cur_rules). */
static inline void transition_of(dec__lg_head *c)
{
    const dec__lg_ev *ev = &c->ev;
    const cur_rule *r = &cur_rules[ev->type];
    uint64_t a0 = ev->args[0], a1 = ev->args[1];
    uint64_t key[4] = {LG_UNORDERED, ev->g, a0, LG_GARBAGE};
    uint64_t iseq[5] = {0, 1, LG_NOSEQ, a1, a0};
    uint64_t nseq[6] = {1, 2, LG_NOSEQ, a1 + 1, LG_SEQINC, a0 + 1};
    c->key = key[r->key];
    c->init_seq = iseq[r->iseq], c->init_st = r->ist;
    c->next_seq = nseq[r->nseq], c->next_st = r->nst;
}

/* Decodes the cursor's next event into c->h (c->has_head false at the end). */
static inline __attribute__((always_inline)) bool dec__lg_cur_next(const dec__lg_scan *s, dec__lg_cur *c, cs_err *err)
{
    if (c->batch == UINT32_MAX || c->pos >= c->end || !fast_event(s, c))
        return dec__lg_cur_step(s, c, err);
    c->has_head = true;
    transition_of(&c->h);
    return true;
}

#endif
