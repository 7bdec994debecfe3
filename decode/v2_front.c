/* decode/v2_front.c — Go's frontier at a cut inside a Go 1.22+ generation.
 * A part ordered from a cut is Go's only if it starts from the frontier Go
 * has there (v2_heap.h), which depends on all the generation did before.
 * It is found by replaying the generation up to the cut by time alone:
 * each M's event times (the batches' base times plus the deltas: no
 * argument is decoded) and Go's heap, every root advanced in turn as if
 * every event were ready when its M's turn came. The join checks it
 * against the frontier the caller reached (v2_ahead.c). Times are decoded
 * ahead into a queue per M, two Ms at once, so that the two byte-by-byte
 * walks overlap. */
#include "v2_heap.h"

#include <string.h>

bool dec__v2_front_of(const v2_heap *hp, v2_front *fr, cs_err *err)
{
    fr->c = cs_alloc((size_t)hp->n * sizeof *fr->c + 1);
    if (!fr->c)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u cursors", hp->n);
    for (uint32_t k = 0; k < hp->n; k++)
        fr->c[k] = hp->h[k].c;
    fr->n = hp->n;
    return true;
}

/* The length of the event at p, at least 61 bytes inside its batch, and
 * its time delta *dt; 0 where the byte-wise decoder must look (a type that
 * is not an event, a delta of more than 8 bytes, more than 60 bytes). */
static inline __attribute__((always_inline)) size_t ev_len(const uint8_t *p, const uint8_t *nargs, uint64_t *dt)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    unsigned n = nargs[p[0]];
    uint64_t w;
    memcpy(&w, p + 1, sizeof w);
    uint64_t ends = ~w & 0x8080808080808080ull; /* the last byte of each varint */
    if (!n || !ends)
        return 0;
    unsigned dl = (unsigned)__builtin_ctzll(ends) + 1; /* bits of the delta's bytes */
    uint64_t x = dl == 64 ? w : w & ((1ull << dl) - 1); /* its 7-bit groups, packed */
    *dt = (x & 0x7f) | (x >> 1 & 0x3f80) | (x >> 2 & 0x1fc000) | (x >> 3 & 0xfe00000) | (x >> 4 & 0x7f0000000) |
          (x >> 5 & 0x3f800000000) | (x >> 6 & 0x1fc0000000000) | (x >> 7 & 0xfe000000000000);
    size_t at = 1; /* where the word of `ends` starts */
    for (unsigned need = n;;) { /* the n-th end, 8 bytes at a time */
        for (; need > 1 && ends; need--)
            ends &= ends - 1;
        if (ends)
            return at + ((unsigned)__builtin_ctzll(ends) + 1) / 8;
        if ((at += 8) > 1 + 56)
            return 0;
        memcpy(&w, p + at, sizeof w);
        ends = ~w & 0x8080808080808080ull;
    }
#else
    (void)p, (void)nargs, (void)dt;
    return 0;
#endif
}

typedef struct tq { int64_t *ts; uint32_t head, n; bool end; } tq; /* an M's next event times, head first */

typedef struct front {
    uint8_t span[7][256]; /* [n][ends]: bytes of the first n varints whose last bytes are the bits of ends; 0: more */
    v2_sink *s;
    v2_gen *g;
    v2_cur *c;
    tq *q;
    uint32_t cap; /* of each queue */
    v2_heap hp;
} front;

static void spans(front *f)
{
    for (unsigned n = 0; n < 7; n++)
        for (unsigned m = 0; m < 256; m++) {
            unsigned k = 0, b = 0;
            for (; b < 8 && k < n; b++)
                k += m >> b & 1;
            f->span[n][m] = (uint8_t)(n && k == n ? b : 0);
        }
}

/* ev_len for events whose varints are all in the 8 bytes after the type,
 * from a table: 0 for the rest. */
static inline __attribute__((always_inline)) size_t ev_len8(const front *f, const uint8_t *p, const uint8_t *nargs,
                                                            uint64_t *dt)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t w;
    memcpy(&w, p + 1, sizeof w);
    /* bit b: byte b ends a varint */
    unsigned m = (unsigned)((((~w & 0x8080808080808080ull) >> 7) * 0x0102040810204080ull) >> 56);
    unsigned k = f->span[nargs[p[0]]][m], d = f->span[1][m];
    if (d == 1)
        *dt = w & 0x7f;
    else if (d == 2)
        *dt = (w & 0x7f) | (w >> 1 & 0x3f80);
    else
        return 0;
    return k ? 1 + k : 0;
#else
    (void)f, (void)p, (void)nargs, (void)dt;
    return 0;
#endif
}

static void compact(front *f, uint32_t i)
{
    tq *q = &f->q[i];
    if (q->head) {
        memmove(q->ts, q->ts + q->head, q->n * sizeof *q->ts);
        q->head = 0;
    }
}

static bool room(const front *f, uint32_t i) { return !f->q[i].end && f->q[i].n < f->cap; }

/* Times of the next events of cursors a and b, the two walks interleaved,
 * while both are well inside their batches and have room. */
static void fast_two(front *f, uint32_t a, uint32_t b)
{
    const v2_gen *g = f->g;
    const uint8_t *nargs = f->s->nargs;
    v2_cur *ca = &f->c[a], *cb = &f->c[b];
    tq *qa = &f->q[a], *qb = &f->q[b];
    const uint8_t *pa = ca->b.p, *pb = cb->b.p;
    size_t ia = ca->b.pos, ib = cb->b.pos, fa = ca->fast_len, fb = cb->fast_len;
    int64_t la = ca->last, lb = cb->last;
    uint32_t na = qa->n, nb = qb->n, cap = f->cap;
    while (ia < fa && ib < fb && na < cap && nb < cap) {
        uint64_t da = 0, db = 0;
        size_t ka = ev_len8(f, pa + ia, nargs, &da), kb = ev_len8(f, pb + ib, nargs, &db);
        if (!ka)
            ka = ev_len(pa + ia, nargs, &da);
        if (!kb)
            kb = ev_len(pb + ib, nargs, &db);
        if (!ka || !kb)
            break;
        ia += ka, ib += kb;
        la += dec__v2_ns(g, da), lb += dec__v2_ns(g, db);
        la = la > V2_T_MAX ? V2_T_MAX : la, lb = lb > V2_T_MAX ? V2_T_MAX : lb;
        qa->ts[na++] = la, qb->ts[nb++] = lb;
    }
    ca->b.pos = ia, cb->b.pos = ib, ca->last = la, cb->last = lb, qa->n = na, qb->n = nb;
}

/* The same for cursor a alone. */
static void fast_one(front *f, uint32_t a)
{
    const v2_gen *g = f->g;
    const uint8_t *nargs = f->s->nargs;
    v2_cur *ca = &f->c[a];
    tq *qa = &f->q[a];
    const uint8_t *pa = ca->b.p;
    size_t ia = ca->b.pos, fa = ca->fast_len;
    int64_t la = ca->last;
    uint32_t na = qa->n, cap = f->cap;
    while (ia < fa && na < cap) {
        uint64_t da = 0;
        size_t ka = ev_len8(f, pa + ia, nargs, &da);
        if (!ka)
            ka = ev_len(pa + ia, nargs, &da);
        if (!ka)
            break;
        ia += ka;
        la += dec__v2_ns(g, da);
        la = la > V2_T_MAX ? V2_T_MAX : la;
        qa->ts[na++] = la;
    }
    ca->b.pos = ia, ca->last = la, qa->n = na;
}

/* One event of cursor a the byte-wise way (a batch entered or left, an
 * event near a batch's end, a long one, an error). */
static bool slow_one(front *f, uint32_t a, cs_err *err)
{
    bool more;
    v2_cur *c = &f->c[a];
    if (!dec__v2_cur_next(c, f->g, f->s->f, f->s->nargs, f->s->version, &more, err))
        return false;
    if (!more)
        f->q[a].end = true;
    else
        f->q[a].ts[f->q[a].n++] = c->ev.ts;
    return true;
}

/* Fills the queue of cursor a, and that of b (UINT32_MAX: none) on the way. */
static bool fill(front *f, uint32_t a, uint32_t b, cs_err *err)
{
    compact(f, a);
    if (b != UINT32_MAX)
        compact(f, b);
    while (room(f, a)) {
        if (b != UINT32_MAX && room(f, b)) {
            fast_two(f, a, b);
            if (room(f, b) && !slow_one(f, b, err))
                return false;
        }
        fast_one(f, a);
        if (room(f, a) && !slow_one(f, a, err))
            return false;
    }
    return true;
}

#define FRONT_Q 2048 /* event times decoded ahead per M, with few Ms */

bool dec__v2_front_at(v2_sink *s, v2_gen *g, v2_cur *c, int64_t t, v2_front *fr, cs_err *err)
{
    front f = {.s = s, .g = g, .c = c, .cap = g->n_ms <= 64 ? FRONT_Q : 16};
    spans(&f);
    f.q = cs_calloc((size_t)g->n_ms + 1, sizeof *f.q);
    int64_t *all = cs_alloc((size_t)g->n_ms * f.cap * sizeof *all + 1);
    f.hp.h = cs_alloc((size_t)g->n_ms * sizeof *f.hp.h + 1);
    bool ok = f.q && all && f.hp.h ? true
                                   : CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u cursors", g->n_ms);
    for (uint32_t i = 0; ok && i < g->n_ms; i++) { /* the heap built as at the generation's start */
        f.q[i].ts = all + (size_t)i * f.cap;
        dec__v2_cur_open(&c[i], g, s->f, i);
        if ((ok = fill(&f, i, UINT32_MAX, err)) && f.q[i].n) {
            f.hp.h[f.hp.n] = (v2_hnode){f.q[i].ts[0], i};
            dec__v2_heap_up(&f.hp, f.hp.n++);
        }
    }
    while (ok && f.hp.n && f.hp.h[0].ts < t) {
        uint32_t x = f.hp.h[0].c;
        tq *q = &f.q[x];
        int64_t stays = dec__v2_heap_stays(&f.hp), ts;
        do { /* the root stays while its time is at most its children's least */
            q->head++, q->n--;
            if (!q->n) {
                uint32_t next = f.hp.n < 2 ? UINT32_MAX : f.hp.n == 2 || f.hp.h[1].ts <= f.hp.h[2].ts ? 1 : 2;
                if (!(ok = fill(&f, x, next == UINT32_MAX ? next : f.hp.h[next].c, err)) || !q->n)
                    break;
            }
        } while ((ts = q->ts[q->head]) <= stays && ts < t);
        if (!ok)
            break;
        if (!q->n) {
            dec__v2_heap_remove(&f.hp, 0);
            continue;
        }
        f.hp.h[0].ts = q->ts[q->head];
        dec__v2_heap_root_down(&f.hp);
    }
    ok = ok && dec__v2_front_of(&f.hp, fr, err);
    cs_free(f.hp.h);
    cs_free(all);
    cs_free(f.q);
    return ok;
}
