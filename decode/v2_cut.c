/* decode/v2_cut.c — cuts inside the generations of a Go 1.22+ trace, so
 * that threads can each order and summarize a part of about equal size
 * (v2_ahead.c): where to cut (a generation and a time that splits its
 * bytes), cursors opened at the first event of an M at or after a cut, and
 * what an M's own events just before a cut say its goroutine and proc were
 * then (a guess: other Ms can change them; the join checks it). */
#include "v2.h"

#include <stdlib.h>
#include <string.h>

bool dec__v2_cut_in(const v2_gen *g, uint64_t pos, uint64_t *at)
{
    if (pos < g->off || pos >= g->end)
        return false;
    uint64_t n = 0, all = 0;
    for (uint32_t i = 0; i < g->n_b; i++) {
        all += g->b[i].size;
        n += g->b[i].data_off < pos ? g->b[i].size : 0;
    }
    *at = n > all / 50 ? n : all / 50; /* not at its very start */
    return true;
}

typedef struct bts { uint64_t ts; uint32_t size, i; } bts;

static int bts_cmp(const void *a, const void *b)
{
    const bts *x = a, *y = b;
    return x->ts != y->ts ? (x->ts < y->ts ? -1 : 1) : (x->i < y->i ? -1 : x->i > y->i);
}

bool dec__v2_cut_time(const v2_gen *g, uint64_t at, int64_t *t, cs_err *err)
{
    bts *v = cs_alloc((size_t)g->n_b * sizeof *v + 1);
    if (!v)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u batches", g->n_b);
    for (uint32_t i = 0; i < g->n_b; i++)
        v[i] = (bts){g->b[i].ts, g->b[i].size, i};
    qsort(v, g->n_b, sizeof *v, bts_cmp);
    uint64_t sum = 0;
    *t = INT64_MAX;
    for (uint32_t i = 0; i < g->n_b; i++)
        if ((sum += v[i].size) > at) {
            *t = dec__v2_ns(g, v[i].ts);
            break;
        }
    cs_free(v);
    return true;
}

/* What one event of the M says of the M's own goroutine and proc after it
 * (as dec__v2_advance would set them, for the M that the event is on): the
 * context by dec__v2_m_after, the statuses by the steps of v2_rules.h, and
 * what the state decides (GoStatus, ProcStatus, ProcSteal, GoSwitch) here. */
static void look_ev(v2_look *k, const v2_ev *e, uint64_t mid)
{
    const uint64_t *a = e->args;
    v2_ctx c = {k->g, k->p, mid};
    dec__v2_m_after(&c, e->type, e);
    k->g = c.g, k->p = c.p;
    switch (e->type) {
    case V2_EvGoStart: case V2_EvGoSwitch: case V2_EvGoSwitchDestroy: /* GoSwitch*: the next one starts */
        k->gseq = a[1], k->gst = dec__v2_gstep(V2_EvGoStart).to;
        break;
    case V2_EvGoCreateSyscall:
        k->gseq = 0, k->gst = dec__v2_gstep(e->type).to;
        break;
    case V2_EvGoSyscallEndBlocked: /* its proc was taken in the syscall; one the M started since stays */
        if (k->pst != PS_RUNNING)
            k->p = V2_NONE;
        break;
    case V2_EvGoStatus: case V2_EvGoStatusStack:
        if (a[2] == GS_RUNNING || (a[2] == GS_SYSCALL && a[1] == mid))
            k->g = a[0], k->gseq = 0, k->gst = (uint8_t)a[2];
        break;
    case V2_EvGoSyscallBegin: case V2_EvGoSyscallEnd: {
        v2_pst p = {.status = k->pst, .seq = k->pseq};
        dec__v2_p_syscall(&p, e->type, e, 0);
        k->gst = dec__v2_gstep(e->type).to, k->pst = p.status, k->pseq = p.seq;
        break;
    }
    case V2_EvProcStart:
        k->pseq = a[1], k->pst = PS_RUNNING;
        break;
    case V2_EvProcStatus:
        if (a[1] == PS_RUNNING || a[1] == PS_SYSCALL)
            k->p = a[0], k->pseq = 0, k->pst = (uint8_t)a[1];
        break;
    case V2_EvProcSteal:
        if (a[2] == mid)
            k->p = V2_NONE;
        break;
    }
}

/* Decodes the M's events from batch `start` up to the first at or after t. */
static bool walk(v2_cur *c, const v2_gen *g, const cs_file *f, const uint8_t *nargs, int version, uint32_t start,
                 uint64_t entered, int64_t t, v2_look *k, uint64_t mid, cs_err *err)
{
    dec__v2_cur_batch(c, g, f, start);
    c->entered += entered;
    *k = (v2_look){V2_UNK, V2_UNK, 0, 0, 0, 0, INT64_MIN};
    for (;;) {
        bool more;
        if (!dec__v2_cur_next(c, g, f, nargs, version, NULL, &more, err))
            return false;
        if (!more) {
            c->batch = UINT32_MAX;
            return true;
        }
        if (c->ev.ts >= t)
            return true;
        look_ev(k, &c->ev, mid);
        k->last = c->ev.ts;
    }
}

/* Whether the M's events in batch b (before t) set its goroutine (bit 1)
 * and its proc (bit 2). */
static unsigned sets(const v2_gen *g, const cs_file *f, const uint8_t *nargs, int version, uint32_t b, int64_t t,
                     uint64_t mid)
{
    v2_cur c = {.mslot = UINT32_MAX};
    dec__v2_cur_batch(&c, g, f, b);
    cs_err err = {0};
    unsigned got = 0;
    bool more;
    while (got != 3 && dec__v2_cur_next(&c, g, f, nargs, version, NULL, &more, &err) && more && c.batch == b &&
           c.ev.ts < t) {
        v2_look k = {V2_UNK, V2_UNK, 0, 0, 0, 0, 0};
        look_ev(&k, &c.ev, mid);
        got |= (k.g != V2_UNK) | (k.p != V2_UNK) << 1;
    }
    return got;
}

/* The proc, if any, that the status events opening batch b name for the
 * M (into k's proc fields). */
static void first_proc(const v2_gen *g, const cs_file *f, const uint8_t *nargs, int version, uint32_t b, int64_t t,
                       uint64_t mid, v2_look *k)
{
    v2_cur c = {.mslot = UINT32_MAX};
    dec__v2_cur_batch(&c, g, f, b);
    cs_err err = {0};
    bool more;
    v2_look s = {V2_UNK, V2_UNK, 0, 0, 0, 0, 0};
    while (dec__v2_cur_next(&c, g, f, nargs, version, NULL, &more, &err) && more && c.batch == b && c.ev.ts < t &&
           (c.ev.type == V2_EvProcStatus || c.ev.type == V2_EvGoStatus || c.ev.type == V2_EvGoStatusStack))
        look_ev(&s, &c.ev, mid);
    if (s.p != V2_UNK) /* its status and sequence now are for the events to say */
        k->p = s.p, k->pseq = 0, k->pst = PS_BAD;
}

#define LOOK_BACK 64 /* batches: further back, what the M had is left unknown */

bool dec__v2_cur_seek(v2_cur *c, const v2_gen *g, const cs_file *f, const uint8_t *nargs, int version, uint32_t i,
                      int64_t t, v2_look *lk, cs_err *err)
{
    uint32_t back[LOOK_BACK]; /* the last batches of the M that begin before t, latest last */
    uint64_t before[LOOK_BACK], sum = 0;
    uint32_t n = 0, n_all = 0;
    for (uint32_t b = g->ms[i].first; b != UINT32_MAX && dec__v2_ns(g, g->b[b].ts) < t; b = g->b[b].next) {
        back[n_all % LOOK_BACK] = b, before[n_all % LOOK_BACK] = sum;
        sum += g->b[b].size;
        n_all++;
    }
    n = n_all < LOOK_BACK ? n_all : LOOK_BACK;
    uint64_t mid = g->ms[i].m;
    /* walk from the latest batch that, with those after it, says it all */
    uint32_t from = n ? (n_all - 1) % LOOK_BACK : 0;
    if (lk) {
        unsigned got = 0;
        for (uint32_t k = 0; k < n && got != 3; k++) {
            from = (n_all - 1 - k) % LOOK_BACK;
            got |= sets(g, f, nargs, version, back[from], t, mid);
        }
    }
    v2_look k;
    if (!walk(c, g, f, nargs, version, n ? back[from] : g->ms[i].first, n ? before[from] : 0, t, &k, mid, err))
        return false;
    /* the batches looked at do not say the M's proc, and its first batch
     * of the generation was not one of them: the proc its status events
     * there name (the M may have let it go since: the join finds out) */
    if (lk && k.p == V2_UNK && n_all > LOOK_BACK)
        first_proc(g, f, nargs, version, g->ms[i].first, t, mid, &k);
    /* a goroutine in a syscall: its proc is still the M's if the M's next
     * event ends the syscall plainly; otherwise it was taken (or never was) */
    if (k.g != V2_UNK && k.g != V2_NONE && k.gst == GS_SYSCALL &&
        (c->batch == UINT32_MAX || c->ev.type != V2_EvGoSyscallEnd))
        k.p = V2_NONE;
    if (lk)
        *lk = k;
    return true;
}

bool dec__v2_open_at(v2_sink *s, v2_gen *g, v2_cur *c, int64_t from, v2_look *lk, cs_err *err)
{
    for (uint32_t i = 0; i < g->n_ms; i++) {
        c[i].mslot = dec__v2_mslot(s->o, g->ms[i].m, err);
        if (err->code != CS_OK)
            return false;
        if (from == INT64_MIN)
            dec__v2_cur_open(&c[i], g, s->f, i);
        else if (!dec__v2_cur_seek(&c[i], g, s->f, s->nargs, s->version, i, from, lk ? &lk[i] : NULL, err))
            return false;
    }
    return true;
}

/* Go's reader stamps every event, a generation's Sync too, at least a
 * nanosecond after the one before (docs/trace-format.md §4.8): what the
 * last event before a cut got depends on the generation before. */

bool dec__v2_gen_tally(const v2_gen *g, const cs_file *f, const uint8_t *nargs, int version, bool tail, int64_t t,
                       uint64_t *n, int64_t *last, cs_err *err)
{
    *n = 0, *last = dec__v2_ns(g, g->min_ts);
    for (uint32_t i = 0; i < g->n_ms; i++) {
        v2_cur c = {.mslot = UINT32_MAX};
        if (tail)
            dec__v2_cur_batch(&c, g, f, g->ms[i].last);
        else
            dec__v2_cur_open(&c, g, f, i);
        bool more;
        while (dec__v2_cur_next(&c, g, f, nargs, version, NULL, &more, err) && more && c.ev.ts < t) {
            ++*n;
            *last = c.ev.ts > *last ? c.ev.ts : *last;
        }
        if (err->code != CS_OK)
            return false;
    }
    for (uint32_t i = 0; i < g->n_samples; i++)
        if (g->samples[i].ts < t) {
            ++*n;
            *last = g->samples[i].ts > *last ? g->samples[i].ts : *last;
        }
    return true;
}
