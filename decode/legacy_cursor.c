/* decode/legacy_cursor.c — one P's events decoded lazily from the mapped
 * file (Go's parseEvents per record, go-trace-format.md §3.3): ts and seq
 * from deltas, Args and stack id, the current-G rules, CPU samples from the
 * ProfileP pseudo-batch; plus each event's order1007 state transition
 * (§3.9). A cursor touches nothing but itself and the read-only scan. The
 * common case is inline in legacy_cur.h; this file has the rest. */
#include "legacy_cur.h"

#include <string.h>

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
            cursor_open_batch(s, c, s->batches[c->batch].next);
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

bool dec__lg_cur_step(const dec__lg_scan *s, dec__lg_cur *c, cs_err *err)
{
    if (!cursor_next(s, c, err))
        return false;
    if (c->has_head)
        transition_of(&c->h);
    return true;
}
