/* decode/v2_front.c — Go's frontier at a cut inside a Go 1.22+ generation.
 * A part ordered from a cut is Go's only if it starts from the frontier Go
 * has there (v2_heap.h), which depends on all the generation did before.
 * It is found by replaying the generation up to the cut by time alone:
 * each M's event times (the batches' base times plus the deltas: no
 * argument is decoded) and Go's heap, every root advanced in turn as if
 * every event were ready when its M's turn came. The join checks it
 * against the frontier the caller reached (v2_ahead.c). Times are decoded
 * ahead into a queue per M, the M's next batch on a second cursor beside
 * it, so that two byte-by-byte walks overlap; a root that stays past its
 * M's next batch's base time skips the rest of its batch undecoded. */
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
 * is not an event, a delta of more than 8 bytes, more than 56 bytes). */
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
        if ((at += 8) + 8 > 61) /* at least 61 bytes are left in the batch */
            return 0;
        memcpy(&w, p + at, sizeof w);
        ends = ~w & 0x8080808080808080ull;
    }
#else
    (void)p, (void)nargs, (void)dt;
    return 0;
#endif
}

/* An M's next event times, head first, decoded by its cursor; and those
 * of the M's next batch, decoded ahead by a second cursor `nx` (batches
 * start afresh from their base times), so that two walks overlap. */
typedef struct tq {
    int64_t *ts, *nts;
    uint32_t head, n, nn;
    uint32_t nx_bad; /* a next batch its second cursor failed in: not again */
    bool end, nx_on;
    v2_cur nx;
} tq;

typedef struct front {
    uint8_t span[7][256]; /* [n][ends]: bytes of the first n varints whose last bytes are the bits of ends; 0: more */
    v2_sink *s;
    v2_gen *g;
    v2_cur *c;
    tq *q;
    uint32_t cap, ncap; /* queue fill target and next-batch buffer size; queues hold their sum */
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

/* Decodes the times of cursors a and b into their buffers, the two walks
 * interleaved, while both are well inside their batches and have room. */
static void fast_two(const front *f, v2_cur *ca, int64_t *oa, uint32_t *pna, uint32_t capa, v2_cur *cb, int64_t *ob,
                     uint32_t *pnb, uint32_t capb)
{
    const v2_gen *g = f->g;
    const uint8_t *nargs = f->s->nargs;
    const uint8_t *pa = ca->b.p, *pb = cb->b.p;
    size_t ia = ca->b.pos, ib = cb->b.pos, fa = ca->fast_len, fb = cb->fast_len;
    int64_t la = ca->last, lb = cb->last;
    uint32_t na = *pna, nb = *pnb;
    while (ia < fa && ib < fb && na < capa && nb < capb) {
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
        oa[na++] = la, ob[nb++] = lb;
    }
    ca->b.pos = ia, cb->b.pos = ib, ca->last = la, cb->last = lb, *pna = na, *pnb = nb;
}

/* The same for cursor a alone. */
static void fast_one(const front *f, v2_cur *ca, int64_t *oa, uint32_t *pna, uint32_t cap)
{
    const v2_gen *g = f->g;
    const uint8_t *nargs = f->s->nargs;
    const uint8_t *pa = ca->b.p;
    size_t ia = ca->b.pos, fa = ca->fast_len;
    int64_t la = ca->last;
    uint32_t na = *pna;
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
        oa[na++] = la;
    }
    ca->b.pos = ia, ca->last = la, *pna = na;
}

/* Starts decoding ahead the batch after cursor i's current one. */
static void ahead(front *f, uint32_t i)
{
    tq *q = &f->q[i];
    uint32_t b = f->c[i].batch;
    q->nx_on = b != UINT32_MAX && f->g->b[b].next != UINT32_MAX && f->g->b[b].next != q->nx_bad;
    q->nn = 0;
    if (q->nx_on)
        dec__v2_cur_batch(&q->nx, f->g, f->s->f, f->g->b[b].next);
}

/* One event of the next batch the byte-wise way; false when the lane
 * stops (the batch is done, or an error the main walk will meet). */
static bool slow_nx(front *f, tq *q)
{
    if (q->nx.b.pos == q->nx.b.len || q->nn == f->ncap)
        return false;
    bool more;
    cs_err e = {0};
    if (!dec__v2_cur_next(&q->nx, f->g, f->s->f, f->s->nargs, f->s->version, NULL, &more, &e) || !more) {
        q->nx_on = false, q->nn = 0, q->nx_bad = q->nx.batch; /* the main walk decodes it itself */
        return false;
    }
    q->nts[q->nn++] = q->nx.ev.ts;
    return true;
}

/* One event of cursor i's main walk the byte-wise way (an event near a
 * batch's end, a long one, an error), or, at the end of its batch, the
 * next batch's decoded times taken over. */
static bool slow_one(front *f, uint32_t i, cs_err *err)
{
    tq *q = &f->q[i];
    v2_cur *c = &f->c[i];
    if (c->batch != UINT32_MAX && c->b.pos == c->b.len && q->nx_on) {
        memcpy(q->ts + q->n, q->nts, q->nn * sizeof *q->ts);
        q->n += q->nn;
        uint32_t mslot = c->mslot;
        *c = q->nx;
        c->mslot = mslot;
        ahead(f, i);
        return true;
    }
    bool more;
    if (!dec__v2_cur_next(c, f->g, f->s->f, f->s->nargs, f->s->version, NULL, &more, err))
        return false;
    if (!more)
        q->end = true;
    else
        q->ts[q->n++] = c->ev.ts;
    if (c->last && !q->nx_on && c->b.pos < c->b.len && !q->nn)
        ahead(f, i); /* a batch entered */
    return true;
}

/* Fills cursor i's queue, the next batch decoded ahead on the way. */
static bool fill(front *f, uint32_t i, cs_err *err)
{
    tq *q = &f->q[i];
    v2_cur *c = &f->c[i];
    if (q->head) {
        memmove(q->ts, q->ts + q->head, q->n * sizeof *q->ts);
        q->head = 0;
    }
    while (!q->end && q->n < f->cap) {
        if (q->nx_on && q->nn < f->ncap && (q->nx.last || slow_nx(f, q))) {
            fast_two(f, c, q->ts, &q->n, f->cap, &q->nx, q->nts, &q->nn, f->ncap);
            if (q->nx_on && q->nx.b.pos >= q->nx.fast_len && slow_nx(f, q))
                continue; /* the end of the next batch, the byte-wise way */
        }
        fast_one(f, c, q->ts, &q->n, f->cap);
        if (q->n < f->cap && !slow_one(f, i, err))
            return false;
    }
    return true;
}

/* A root that stays past the base time of its M's next batch stays past
 * the rest of the batch it is in: an M's times only go forward, so those
 * events are not decoded at all (should an M's times go back, the
 * frontier may come out wrong, and the join finds that out). */
static void skip(front *f, uint32_t i, int64_t lim)
{
    v2_cur *c = &f->c[i];
    tq *q = &f->q[i];
    const v2_gen *g = f->g;
    uint32_t b = c->batch;
    while (b != UINT32_MAX && g->b[b].next != UINT32_MAX && dec__v2_ns(g, g->b[g->b[b].next].ts) <= lim)
        b = g->b[b].next;
    if (b == c->batch)
        return;
    dec__v2_cur_batch(c, g, f->s->f, b);
    q->head = q->n = q->nn = 0, q->nx_on = false;
}

#define FRONT_Q 2048 /* event times decoded ahead per M, with few Ms */
#define FRONT_NQ 16384 /* of its next batch */

bool dec__v2_front_at(v2_sink *s, v2_gen *g, v2_cur *c, int64_t t, v2_front *fr, cs_err *err)
{
    bool few = g->n_ms <= 64;
    front f = {.s = s, .g = g, .c = c, .cap = few ? FRONT_Q : 16, .ncap = few ? FRONT_NQ : 16};
    spans(&f);
    f.q = cs_calloc((size_t)g->n_ms + 1, sizeof *f.q);
    size_t per = (size_t)2 * f.ncap + f.cap;
    int64_t *all = cs_alloc((size_t)g->n_ms * per * sizeof *all + 1);
    f.hp.h = cs_alloc((size_t)g->n_ms * sizeof *f.hp.h + 1);
    bool ok = f.q && all && f.hp.h ? true
                                   : CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u cursors", g->n_ms);
    for (uint32_t i = 0; ok && i < g->n_ms; i++) { /* the heap built as at the generation's start */
        f.q[i].ts = all + (size_t)i * per;
        f.q[i].nts = f.q[i].ts + f.cap + f.ncap;
        f.q[i].nx_bad = UINT32_MAX;
        dec__v2_cur_open(&c[i], g, s->f, i);
        if ((ok = fill(&f, i, err)) && f.q[i].n) {
            f.hp.h[f.hp.n] = (v2_hnode){f.q[i].ts[0], i};
            dec__v2_heap_up(&f.hp, f.hp.n++);
        }
    }
    while (ok && f.hp.n && f.hp.h[0].ts < t) {
        uint32_t x = f.hp.h[0].c;
        tq *q = &f.q[x];
        /* the root stays while its time is at most its children's least
         * (and before t); its next event is taken, then those times */
        int64_t stays = dec__v2_heap_stays(&f.hp), lim = stays < t - 1 ? stays : t - 1;
        q->head++, q->n--;
        skip(&f, x, lim);
        for (;;) {
            const int64_t *ts = q->ts;
            uint32_t h = q->head, e = h + q->n;
            while (h < e && ts[h] <= lim)
                h++;
            q->head = h, q->n = e - h;
            if (q->n || !(ok = fill(&f, x, err)) || !q->n)
                break;
        }
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
