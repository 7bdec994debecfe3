/* core/build_lay.c — the builder's spans laid out in the model's columns
 * (build.h cs_mb_lay): a goroutine's as it ends, copying each of its
 * chunks once and giving them to others; a part's after the part before's
 * on join; the rest at cs_mb_finish, on two threads when they are many.
 * A block of starts is held until it is whole, then given its base (the
 * earliest) or made wide when they lie 2^32 ns apart or more (model.h). */
#include "build_int.h"

#include <pthread.h>
#include <string.h>

/* Room in l's columns for n spans. */
static bool lay_room(cs_mb_lay *l, uint32_t n, cs_err *err)
{
    if (n <= l->cap)
        return true;
    uint64_t cap = l->cap ? l->cap : n;
    while (cap < n)
        cap *= 2;
    cap = cap > UINT32_MAX ? UINT32_MAX : cap;
    uint32_t *t0 = cs_realloc(l->t0, (size_t)cap * sizeof *t0);
    l->t0 = t0 ? t0 : l->t0;
    uint8_t *sr = t0 ? cs_realloc(l->sr, (size_t)cap) : NULL;
    l->sr = sr ? sr : l->sr;
    int64_t *base = sr ? cs_realloc(l->base, ((size_t)(cap >> CS_T0_BLOCK_BITS) + 1) * sizeof *base) : NULL;
    if (!base)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u spans", n);
    l->base = base, l->cap = (uint32_t)cap;
    return true;
}

/* The block of l's last span, whole or the last, into the columns. */
static bool block_out(cs_mb_lay *l, cs_err *err)
{
    uint32_t have = l->n & (CS_T0_BLOCK - 1), b = (l->n - 1) >> CS_T0_BLOCK_BITS, first = b << CS_T0_BLOCK_BITS;
    have = have ? have : CS_T0_BLOCK;
    int64_t lo = l->blk[0], hi = l->blk[0];
    for (uint32_t i = 1; i < have; i++)
        lo = l->blk[i] < lo ? l->blk[i] : lo, hi = l->blk[i] > hi ? l->blk[i] : hi;
    if ((uint64_t)(hi - lo) <= UINT32_MAX) {
        l->base[b] = lo;
        for (uint32_t i = 0; i < have; i++)
            l->t0[first + i] = (uint32_t)(l->blk[i] - lo);
        return true;
    }
    if (!cs_grow((void **)&l->wide, &l->cap_wide, l->n_wide + CS_T0_BLOCK, sizeof *l->wide, err))
        return false;
    l->base[b] = CS_T0_WIDE + l->n_wide; /* over l's own: wide_join moves a second part's */
    memcpy(l->wide + l->n_wide, l->blk, (size_t)have * sizeof *l->blk);
    l->n_wide += CS_T0_BLOCK;
    return true;
}

/* The next span, starting at t, its state and reason sr, laid out in l
 * (which has room for it). */
static inline bool lay_push(cs_mb_lay *l, int64_t t, uint8_t sr, cs_err *err)
{
    cs_state st = cs_sr_state(sr);
    cs_reason r = cs_sr_reason(sr);
    if (st < CS_ST_COUNT && r < CS_R_COUNT)
        l->kinds[st] |= (uint16_t)(1u << r);
    l->sr[l->n] = sr;
    l->blk[l->n++ & (CS_T0_BLOCK - 1)] = t;
    return (l->n & (CS_T0_BLOCK - 1)) || block_out(l, err);
}

/* The start of span s laid out in l: its block's, or held in blk. */
static int64_t lay_t0(const cs_mb_lay *l, uint32_t s)
{
    return s >= (l->n & ~(CS_T0_BLOCK - 1)) ? l->blk[s & (CS_T0_BLOCK - 1)] : cs_t0_at(l->t0, l->base, l->wide, s);
}

void cs__mb_lay_free(cs_mb_lay *l)
{
    cs_free(l->t0), cs_free(l->sr), cs_free(l->base), cs_free(l->wide);
    memset(l, 0, sizeof *l);
}

/* Chunk k's spans from..to laid out next in l (which has room for them). */
static bool chunk_push(cs_mb_lay *l, cs_mb_chunk *k, uint32_t from, uint32_t to, cs_err *err)
{
    const uint8_t *sr = cs__mb_rec(k) + 4;
    for (uint32_t i = from; i < to; i++)
        if (!lay_push(l, cs__mb_rec_t0(k, i), sr[(size_t)i * CS__MB_REC], err))
            return false;
    return true;
}

/* A goroutine's chunks, built newest first from last, linked oldest first:
 * the first. */
static cs_mb_chunk *oldest_first(cs_mb_chunk *last)
{
    cs_mb_chunk *k = NULL;
    for (cs_mb_chunk *at = last, *prev; at; at = prev)
        prev = at->prev, at->prev = k, k = at;
    return k;
}

/* Goroutine gi's spans, in its chunks (last the newest), laid out after
 * those laid out so far; its chunks go to others. */
bool cs__mb_lay_out(cs_mb *mb, uint32_t gi, cs_mb_chunk *last, uint32_t n_spans, cs_err *err)
{
    cs_mb_lay *l = &mb->lay;
    if (!lay_room(l, l->n + n_spans, err)) /* at most mb->n_span */
        return false;
    cs_goroutine *g = &mb->m->g[gi];
    g->span_first = l->n, g->span_count = n_spans;
    for (cs_mb_chunk *k = oldest_first(last), *next; k; k = next) {
        if (!chunk_push(l, k, 0, k->n, err))
            return false;
        next = k->prev;
        cs__mb_chunk_give(mb, k);
    }
    return true;
}

/* Goroutine gi's spans laid out (it is not live) back in chunks of its
 * own, as they were before: it is given a state again (a trace Go's
 * reader refuses), and cs_mb_finish lays every goroutine out anew. */
bool cs__mb_unlay(cs_mb *mb, uint32_t gi, cs_err *err)
{
    const cs_mb_lay *l = &mb->lay;
    cs_mb_gref *r = &mb->gref[gi];
    uint32_t s = mb->m->g[gi].span_first, end = s + r->n_spans;
    cs_mb_chunk *last = NULL;
    while (s < end) {
        uint32_t cap = end - s < CS__MB_CHUNK_MAX ? end - s : CS__MB_CHUNK_MAX, n = 0;
        cs_mb_chunk *k = cs__mb_slab_take(mb, cs__mb_chunk_room(cap), err);
        if (!k)
            return false;
        *k = (cs_mb_chunk){.prev = last, .base = lay_t0(l, s), .cap = cap};
        for (int64_t t; n < cap && (uint64_t)((t = lay_t0(l, s)) - k->base) <= UINT32_MAX; n++, s++)
            cs__mb_rec_set(k, n, (uint32_t)(t - k->base), l->sr[s]);
        k->n = n, last = k;
    }
    r->last = last, r->laid = 0;
    mb->relay = true;
    return true;
}

bool cs__mb_lay_anew(cs_mb *mb, cs_err *err)
{
    for (uint32_t i = 1; i < mb->m->n_g; i++)
        if (mb->gref[i].laid && !cs__mb_unlay(mb, i, err))
            return false;
    cs_mb_lay *l = &mb->lay;
    l->n = l->n_wide = 0;
    memset(l->kinds, 0, sizeof l->kinds);
    return true;
}

/* out: a copy of l, its held block's starts in blk alone. */
bool cs__mb_lay_copy(const cs_mb_lay *l, cs_mb_lay *out, cs_err *err)
{
    uint32_t whole = l->n & ~(CS_T0_BLOCK - 1);
    *out = *l;
    out->t0 = NULL, out->sr = NULL, out->base = NULL, out->wide = NULL, out->cap = out->cap_wide = 0;
    if (!lay_room(out, l->n + 1, err) ||
        !cs_grow((void **)&out->wide, &out->cap_wide, l->n_wide + 1, sizeof *out->wide, err))
        return false;
    if (l->n) {
        memcpy(out->t0, l->t0, (size_t)whole * sizeof *l->t0);
        memcpy(out->sr, l->sr, l->n);
        memcpy(out->base, l->base, (size_t)(whole >> CS_T0_BLOCK_BITS) * sizeof *l->base);
    }
    if (l->n_wide)
        memcpy(out->wide, l->wide, (size_t)l->n_wide * sizeof *l->wide);
    return true;
}

/* b's spans laid out, after mb's (*off: mb's laid out before them); b's
 * columns go back a batch at a time as they are read. */
bool cs__mb_lay_join(cs_mb *mb, cs_mb *b, uint32_t *off, cs_err *err)
{
    cs_mb_lay *l = &mb->lay, *lb = &b->lay;
    *off = l->n;
    if (!lay_room(l, l->n + lb->n, err)) /* at most mb's and b's spans (cs_mb_join) */
        return false;
    for (uint32_t s = 0; s < lb->n; s++) {
        if (!lay_push(l, lay_t0(lb, s), lb->sr[s], err))
            return false;
        if (s && s % CS__MB_JOIN_BATCH == 0) /* the starts' bases stay: lay_t0 reads them */
            cs_release(lb->t0 + s - CS__MB_JOIN_BATCH, (size_t)CS__MB_JOIN_BATCH * sizeof *lb->t0),
                cs_release(lb->sr + s - CS__MB_JOIN_BATCH, CS__MB_JOIN_BATCH);
    }
    cs__mb_lay_free(lb);
    mb->relay |= b->relay; /* b's goroutines laid out again are among them */
    return true;
}

/* The spans laid out at cs_mb_finish, in parts of the columns that two
 * threads fill side by side: a part from span l.n up to `end` (the second
 * from a multiple of CS_T0_BLOCK), each part keeping its wide blocks'
 * starts apart (wide_join puts them together in block order). A part
 * reads no chunk of the other's: the one its first span is in is found
 * for it before the threads start (the other may give back the pages of
 * those before). */
typedef struct span_out {
    cs_mb *mb;
    cs_mb_chunk *const *head; /* each goroutine's first chunk (chunks_oldest) */
    cs_mb_lay l;          /* the builder's for the first part; the second's shares its columns */
    uint32_t end;         /* where the part ends */
    uint32_t g;           /* the first goroutine with spans in the part */
    cs_mb_chunk *k0;      /* g's chunk that span l.n is in, and where that chunk's first goes */
    uint32_t a0;
    bool ok;
    cs_err err;
} span_out;

/* A part's spans into the model's columns: its goroutines' chunks, oldest
 * first (chunks_oldest), from the part's first span to its end; a chunk's
 * pages are given back once copied when the part holds all of it, a batch
 * of chunks at a time (the slabs go at the end). */
static bool part_out(span_out *o, cs_err *err)
{
    cs_mb *mb = o->mb;
    cs_model *m = mb->m;
    uint32_t part0 = o->l.n;
    bool ok = true;
    cs_releases done = {0}; /* while the other part runs */
    for (uint32_t gi = o->g; ok && gi < m->n_g && o->l.n < o->end; gi++) {
        bool first = gi == o->g && o->k0;
        uint32_t a = first ? o->a0 : m->g[gi].span_first, kn; /* where chunk k's first span goes */
        for (cs_mb_chunk *k = first ? o->k0 : o->head[gi], *next; ok && k && o->l.n < o->end; a += kn, k = next) {
            next = k->prev, kn = k->n; /* read before its pages may go */
            if (a + kn <= o->l.n)
                continue; /* the part before's */
            ok = chunk_push(&o->l, k, o->l.n - a, kn < o->end - a ? kn : o->end - a, err);
            if (a >= part0 && a + kn <= o->end)
                cs_release_add(&done, k, cs__mb_chunk_room(k->cap));
        }
    }
    cs_release_flush(&done);
    if (ok && o->end == mb->n_span && (o->l.n & (CS_T0_BLOCK - 1)))
        ok = block_out(&o->l, err);
    return ok;
}

/* Each goroutine's chunks linked oldest first (they are built newest
 * first; its gref has its last, cs_mb_finish), their heads in an array of
 * their own; then the cursors' places go, before the spans' columns are
 * made. NULL when out of memory. */
static cs_mb_chunk **chunks_oldest(cs_mb *mb)
{
    uint32_t n_g = mb->m->n_g;
    cs_mb_chunk **head = cs_alloc(((size_t)n_g + 1) * sizeof *head);
    if (!head)
        return NULL;
    head[0] = NULL;
    for (uint32_t gi = 1; gi < n_g; gi++)
        head[gi] = oldest_first(mb->gref[gi].last);
    cs_free(mb->gref);
    mb->gref = NULL, mb->cap_gref = 0;
    return head;
}

/* A far end's span in the model, once laid out. */
static uint32_t far_span(const cs_model *m, const cs_mb_far *f)
{
    return m->g[f->g].span_first + f->span;
}

/* The far ends: their bits, the ranks, the ends. */
static bool far_ends(cs_mb *mb, cs_err *err)
{
    cs_model *m = mb->m;
    uint32_t words = m->n_span / 64 + 1;
    m->span_far = cs_calloc(words, sizeof *m->span_far);
    m->span_far_rank = cs_alloc((size_t)words * sizeof *m->span_far_rank);
    m->span_far_t1 = cs_alloc((size_t)mb->n_far * sizeof *m->span_far_t1 + 1);
    if (!m->span_far || !m->span_far_rank || !m->span_far_t1)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u span ends", mb->n_far);
    for (uint32_t i = 0; i < mb->n_far; i++) {
        uint32_t s = far_span(m, &mb->far[i]);
        m->span_far[s >> 6] |= UINT64_C(1) << (s & 63);
    }
    uint32_t acc = 0;
    for (uint32_t w = 0; w < words; w++) {
        m->span_far_rank[w] = acc;
        acc += (uint32_t)__builtin_popcountll(m->span_far[w]);
    }
    for (uint32_t i = 0; i < mb->n_far; i++)
        m->span_far_t1[cs_span_far_at(m, far_span(m, &mb->far[i]))] = mb->far[i].t1;
    m->n_far = mb->n_far;
    return true;
}

/* Spans from which two threads lay them out (a part each). */
#define PARTS_MIN (1u << 20)

static void *part_thread(void *arg)
{
    span_out *o = arg;
    o->ok = part_out(o, &o->err);
    return NULL;
}

/* The parts' wide blocks together, the first's then the second's (block
 * order), the second's bases moved past the first's. */
static bool wide_join(cs_model *m, span_out *p, uint32_t nb, cs_err *err)
{
    cs_mb_lay *l0 = &p[0].l, *l1 = &p[1].l;
    if (l1->n_wide) {
        if (!cs_grow((void **)&l0->wide, &l0->cap_wide, l0->n_wide + l1->n_wide, sizeof *l0->wide, err))
            return false;
        memcpy(l0->wide + l0->n_wide, l1->wide, (size_t)l1->n_wide * sizeof *l1->wide);
        for (uint32_t b = p[0].end >> CS_T0_BLOCK_BITS; b < nb; b++)
            if (m->span_t0_base[b] >= CS_T0_WIDE)
                m->span_t0_base[b] += l0->n_wide;
    }
    m->span_wide_t0 = l0->wide, m->n_wide = l0->n_wide + l1->n_wide;
    l0->wide = NULL;
    return true;
}

/* The spans of the goroutines not laid out yet (cs_mb_finish placed them
 * after those), in goroutine order, out of the chunks: with many, on two
 * threads, each laying out half of them; then the columns are the model's. */
bool cs__mb_spans_out(cs_mb *mb, cs_err *err)
{
    cs_model *m = mb->m;
    cs_mb_lay *l = &mb->lay;
    m->g[0].span_first = m->g[0].span_count = 0;
    uint32_t n = mb->n_span, nb = (n >> CS_T0_BLOCK_BITS) + 1, rest = n - l->n;
    cs_mb_chunk **head = chunks_oldest(mb);
    if (!head)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u spans", n);
    if (!lay_room(l, n + 1, err)) {
        cs_free(head);
        return false;
    }
    m->span_t0 = l->t0, m->span_state_reason = l->sr, m->span_t0_base = l->base, m->cap_span = l->cap;
    m->span_t0_base[nb - 1] = 0; /* the block after the last span, when that one ends a block */
    uint32_t half = rest >= PARTS_MIN ? (l->n + rest / 2) & ~(CS_T0_BLOCK - 1) : n, g1 = 1, a1;
    while (g1 < m->n_g && m->g[g1].span_first + m->g[g1].span_count <= half)
        g1++; /* the goroutine whose spans reach past the half */
    span_out p[2] = {{.mb = mb, .head = head, .l = *l, .end = half, .g = 1, .ok = true},
                     {.mb = mb, .head = head, .l = {.t0 = l->t0, .sr = l->sr, .base = l->base, .n = half},
                      .end = n, .g = half < n ? g1 : 0, .ok = true}};
    *l = (cs_mb_lay){0}; /* its columns are the model's, its wide blocks the first part's */
    cs_mb_chunk *k1 = p[1].g ? head[g1] : NULL;
    for (a1 = p[1].g ? m->g[g1].span_first : 0; k1 && a1 + k1->n <= half; k1 = k1->prev)
        a1 += k1->n; /* the second part's first chunk */
    p[1].k0 = k1, p[1].a0 = a1;
    pthread_t th;
    bool two = p[1].g && !mb->one_thread && cs_thread_create(&th, part_thread, &p[1]) == 0;
    p[0].ok = part_out(&p[0], &p[0].err);
    if (two)
        pthread_join(th, NULL);
    else if (p[1].g)
        part_thread(&p[1]);
    bool ok = p[0].ok && p[1].ok;
    if (!ok)
        *err = p[0].ok ? p[1].err : p[0].err;
    ok = ok && wide_join(m, p, nb, err);
    cs_free(p[0].l.wide), cs_free(p[1].l.wide), cs_free(head);
    if (!ok)
        return false;
    for (uint32_t st = 0; st < CS_ST_COUNT; st++)
        m->span_kinds[st] = p[0].l.kinds[st] | p[1].l.kinds[st];
    cs__mb_slabs_free(mb);
    m->n_span = n;
    return far_ends(mb, err);
}

