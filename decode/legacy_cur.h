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

/* Go's current-G rules (§3.3), after Args are filled in. */
static inline void g_rules(dec__lg_cur *c, dec__lg_ev *ev)
{
    switch (ev->type) {
    case LG_GOSTART: case LG_STARTLOCAL: case LG_STARTLABEL:
        c->last_g = ev->g = ev->args[0];
        break;
    case LG_STWSTART: case LG_GCSTART: case LG_GCDONE: case LG_STWDONE:
        ev->g = 0;
        break;
    case LG_GOEND: case LG_GOSTOP: case LG_GOSCHED: case LG_GOPREEMPT: case LG_GOSLEEP:
    case LG_GOBLOCK: case LG_BLOCKSEND: case LG_BLOCKRECV: case LG_BLOCKSELECT: case LG_BLOCKSYNC:
    case LG_BLOCKCOND: case LG_BLOCKNET: case LG_SYSBLOCK: case LG_BLOCKGC:
        c->last_g = 0;
        break;
    case LG_SYSEXIT: case LG_GOWAITING: case LG_GOINSYSCALL:
        ev->g = ev->args[0];
        break;
    case LG_CPUSAMPLE:
        ev->ts = (int64_t)ev->args[0];
        ev->p = (int64_t)ev->args[1];
        ev->g = ev->args[2];
        ev->args[0] = 0;
        break;
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

/* stateTransition of Go's order1007. */
static inline void transition_of(dec__lg_head *c)
{
    const dec__lg_ev *ev = &c->ev;
    c->key = ev->g;
    switch (ev->type) {
    case LG_GOCREATE:
        c->key = ev->args[0], c->init_seq = 0, c->init_st = LG_GDEAD, c->next_seq = 1, c->next_st = LG_GRUNNABLE;
        break;
    case LG_GOWAITING: case LG_GOINSYSCALL:
        c->init_seq = 1, c->init_st = LG_GRUNNABLE, c->next_seq = 2, c->next_st = LG_GWAITING;
        break;
    case LG_GOSTART: case LG_STARTLABEL:
        c->init_seq = ev->args[1], c->init_st = LG_GRUNNABLE;
        c->next_seq = ev->args[1] + 1, c->next_st = LG_GRUNNING;
        break;
    case LG_STARTLOCAL:
        c->init_seq = LG_NOSEQ, c->init_st = LG_GRUNNABLE, c->next_seq = LG_SEQINC, c->next_st = LG_GRUNNING;
        break;
    case LG_GOBLOCK: case LG_BLOCKSEND: case LG_BLOCKRECV: case LG_BLOCKSELECT: case LG_BLOCKSYNC:
    case LG_BLOCKCOND: case LG_BLOCKNET: case LG_GOSLEEP: case LG_SYSBLOCK: case LG_BLOCKGC:
        c->init_seq = LG_NOSEQ, c->init_st = LG_GRUNNING, c->next_seq = LG_NOSEQ, c->next_st = LG_GWAITING;
        break;
    case LG_GOSCHED: case LG_GOPREEMPT:
        c->init_seq = LG_NOSEQ, c->init_st = LG_GRUNNING, c->next_seq = LG_NOSEQ, c->next_st = LG_GRUNNABLE;
        break;
    case LG_GOUNBLOCK: case LG_SYSEXIT:
        c->key = ev->args[0], c->init_seq = ev->args[1], c->init_st = LG_GWAITING;
        c->next_seq = ev->args[1] + 1, c->next_st = LG_GRUNNABLE;
        break;
    case LG_UNBLOCKLOCAL: case LG_SYSEXITLOCAL:
        c->key = ev->args[0], c->init_seq = LG_NOSEQ, c->init_st = LG_GWAITING;
        c->next_seq = LG_SEQINC, c->next_st = LG_GRUNNABLE;
        break;
    case LG_GCSTART:
        c->key = LG_GARBAGE, c->init_seq = ev->args[0], c->init_st = LG_GDEAD;
        c->next_seq = ev->args[0] + 1, c->next_st = LG_GDEAD;
        break;
    default:
        c->key = LG_UNORDERED;
    }
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
