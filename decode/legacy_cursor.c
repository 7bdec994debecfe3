/* decode/legacy_cursor.c — one P's events decoded lazily from the mapped
 * file (Go's parseEvents per record, docs/trace-format.md §3.3): ts and seq
 * from deltas, Args and stack id, the current-G rules, CPU samples from the
 * ProfileP pseudo-batch; plus each event's order1007 state transition
 * (§3.9). A cursor touches nothing but itself and the read-only scan. */
#include "legacy.h"
#include "../core/file.h"

#include <string.h>

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

static void decode_rec(const dec__lg_scan *s, dec__lg_cur *c, const dec__lg_rec *r, dec__lg_ev *ev)
{
    decode_event(s, c, r->off, r->type, r->wire, r->a, r->n < LG_MAXARGS ? r->n : LG_MAXARGS, ev);
    ev->str_off = r->str_off, ev->str_len = r->str_len;
}

static bool cursor_open_batch(const dec__lg_scan *s, dec__lg_cur *c, uint32_t bi)
{
    c->batch = bi;
    if (bi == UINT32_MAX)
        return false;
    const dec__lg_batch *b = &s->batches[bi];
    c->pos = b->start, c->end = b->end;
    c->last_ts = (int64_t)b->ticks, c->last_seq = b->seq;
    return true;
}

/* Bytes fast_event may read of a record with no check: its header and
 * arguments (uv_fast reads at most 10 bytes a varint). */
#define LG_FAST_NEED 64

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

/* The common case of cursor_next: an ordinary event record well inside the
 * batch (pass 1 already validated it), decoded straight into the head.
 * False: use dec__lg_rec_read. */
static bool fast_event(const dec__lg_scan *s, dec__lg_cur *c)
{
    const uint8_t *p = s->data + c->pos;
    if (c->pos >= dec_fast_end(c->end, LG_FAST_NEED))
        return false;
    uint8_t h = *p;
    unsigned t = s->vt.type[h & 63], narg = (h >> 6) + 1u, inl = 4, n = 0;
    if (!s->vt.plain[t])
        return false;
    if (s->ver < 1007)
        narg++, inl++;
    const uint8_t *q = p + 1;
    uint64_t a[LG_MAXARGS];
    if (narg < inl) {
        for (; n < narg; n++)
            a[n] = uv_fast(&q);
    } else {
        uint64_t len = uv_fast(&q);
        if (len > 40)
            return false;
        const uint8_t *qe = q + len;
        while (q < qe && n < LG_MAXARGS)
            a[n++] = uv_fast(&q);
        q = qe;
    }
    if (!n)
        return false;
    decode_event(s, c, c->pos, (uint8_t)t, h & 63, a, n, &c->h.ev);
    c->pos += (uint64_t)(q - p);
    return true;
}

/* Decodes the cursor's next event into head (has_head false at the end). */
static bool cursor_next(const dec__lg_scan *s, dec__lg_cur *c, cs_err *err)
{
    dec__lg_rec r;
    c->has_head = false;
    if (c->profile) {
        if (c->cpu_next >= s->n_cpu)
            return true;
        dec_buf b = dec_buf_make(s->data, s->size, 0);
        b.pos = (size_t)s->cpu[c->cpu_next++].off;
        if (!dec__lg_rec_read(&b, &s->vt, false, &r, err))
            return false;
        decode_rec(s, c, &r, &c->h.ev);
        c->has_head = true;
        return true;
    }
    while (c->batch != UINT32_MAX) {
        if (c->pos >= c->end) {
            const dec__lg_batch *left = &s->batches[c->batch];
            if (s->done)
                cs_file_release_add(s->f, s->done, left->start, left->end);
            cursor_open_batch(s, c, left->next);
            continue;
        }
        if (fast_event(s, c)) {
            c->has_head = true;
            return true;
        }
        dec_buf b = dec_buf_make(s->data + c->pos, (size_t)(c->end - c->pos), c->pos);
        if (!dec__lg_rec_read(&b, &s->vt, false, &r, err))
            return false;
        c->pos = dec_buf_off(&b);
        switch (r.type) {
        case LG_BATCH: case LG_FREQUENCY: case LG_TIMERG: case LG_STRING: case LG_STACK:
            continue;
        case LG_CPUSAMPLE: /* advances the batch clock, ordered from ProfileP */
            c->last_ts = (int64_t)((uint64_t)c->last_ts + r.a[0]);
            continue;
        }
        decode_rec(s, c, &r, &c->h.ev);
        c->has_head = true;
        return true;
    }
    return true;
}

/* stateTransition of Go's order1007. */
static void transition_of(dec__lg_head *c)
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


void dec__lg_cur_open(const dec__lg_scan *s, dec__lg_cur *c, uint32_t pi)
{
    memset(c, 0, sizeof *c);
    c->batch = UINT32_MAX;
    if (pi < s->n_p) {
        c->p = s->pid[pi];
        cursor_open_batch(s, c, s->p_first[pi]);
    } else {
        c->profile = true, c->p = LG_PROFILEP;
    }
}

bool dec__lg_cur_next(const dec__lg_scan *s, dec__lg_cur *c, cs_err *err)
{
    if (!cursor_next(s, c, err))
        return false;
    if (c->has_head)
        transition_of(&c->h);
    return true;
}
