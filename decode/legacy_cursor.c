/* decode/legacy_cursor.c — one P's events decoded lazily from the mapped
 * file (Go's parseEvents per record, go-trace-format.md §3.3): ts and seq
 * from deltas, Args and stack id, the current-G rules, CPU samples from the
 * ProfileP pseudo-batch; plus each event's order1007 state transition
 * (§3.9). A cursor touches nothing but itself and the read-only scan. */
#include "legacy.h"

#include <string.h>

/* Go's parseEvents for one record: ts/seq from deltas, Args, stack id, G. */
static void decode_event(const dec__lg_scan *s, dec__lg_cur *c, const dec__lg_rec *r, dec__lg_ev *ev)
{
    const dec__lg_desc *d = &dec__lg_descs[r->type];
    unsigned ao, n = r->n < LG_MAXARGS ? r->n : LG_MAXARGS;
    memset(ev, 0, sizeof *ev);
    ev->off = r->off, ev->type = r->type, ev->wire = r->wire, ev->p = c->p, ev->g = c->last_g;
    if (s->ver < 1007) {
        c->last_seq = (int64_t)((uint64_t)c->last_seq + r->a[0]);
        ev->seq = c->last_seq;
        ev->ts = (int64_t)((uint64_t)c->last_ts + r->a[1]);
        ao = 2;
    } else {
        ev->ts = (int64_t)((uint64_t)c->last_ts + r->a[0]);
        ao = 1;
    }
    c->last_ts = ev->ts;
    for (unsigned i = ao; i < n; i++) {
        if (i == n - 1 && d->stack)
            ev->stk = r->a[i];
        else if (i - ao < 3)
            ev->args[i - ao] = r->a[i];
    }
    ev->str_off = r->str_off, ev->str_len = r->str_len;
    switch (r->type) {
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

/* The common case of cursor_next: an ordinary record well inside the batch
 * (pass 1 already validated it). False: use dec__lg_rec_read. */
static bool fast_rec(const dec__lg_scan *s, dec__lg_cur *c, dec__lg_rec *r)
{
    const uint8_t *p = s->data + c->pos;
    if (c->end - c->pos < 64)
        return false;
    uint8_t h = *p;
    unsigned t = s->vt.type[h & 63], narg = (h >> 6) + 1u, inl = 4;
    if (t == LG_NONE || t == LG_STRING || t == LG_STACK || t == LG_LOG)
        return false;
    if (s->ver < 1007)
        narg++, inl++;
    const uint8_t *q = p + 1;
    r->n = 0;
    if (narg < inl) {
        for (unsigned i = 0; i < narg; i++)
            r->a[i] = uv_fast(&q);
        r->n = narg;
    } else {
        uint64_t len = uv_fast(&q);
        if (len > 40)
            return false;
        const uint8_t *qe = q + len;
        while (q < qe && r->n < LG_MAXARGS)
            r->a[r->n++] = uv_fast(&q);
        q = qe;
    }
    r->off = c->pos, r->type = (uint8_t)t, r->wire = h & 63;
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
        decode_event(s, c, &r, &c->h.ev);
        c->has_head = true;
        return true;
    }
    while (c->batch != UINT32_MAX) {
        if (c->pos >= c->end) {
            cursor_open_batch(s, c, s->batches[c->batch].next);
            continue;
        }
        if (!fast_rec(s, c, &r)) {
            dec_buf b = dec_buf_make(s->data + c->pos, (size_t)(c->end - c->pos), c->pos);
            if (!dec__lg_rec_read(&b, &s->vt, false, &r, err))
                return false;
            c->pos = dec_buf_off(&b);
        }
        switch (r.type) {
        case LG_BATCH: case LG_FREQUENCY: case LG_TIMERG: case LG_STRING: case LG_STACK:
            continue;
        case LG_CPUSAMPLE: /* advances the batch clock, ordered from ProfileP */
            c->last_ts = (int64_t)((uint64_t)c->last_ts + r.a[0]);
            continue;
        }
        decode_event(s, c, &r, &c->h.ev);
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
