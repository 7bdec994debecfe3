/* layout/bundle.c — arrow bundles of lod.h: every arrow a picture draws
 * (messages, close and sync wake-ups, spawns) between two shown lanes, keyed
 * by (kind, sender lane, receiver lane, pixel column of the send) in one
 * 64-bit key and summed into its bundle through a small open-addressing
 * table, which is emptied into the list of bundles whenever it is half full
 * (so the memory and cache follow the bundles, not the arrows: messages
 * come in time order, so the table holds a few columns at a time); the
 * list is then radix-sorted by key, merging the bundles a key got in
 * different fills. While there are more
 * bundles than max_bundles, the grid gets coarser and neighbours merge
 * again: first columns are halved, down to MIN_COLS, then neighbouring lanes
 * are grouped (their rows are thinner than a pixel when there are that many
 * arrows), then columns again. So a picture draws a bounded number of
 * arrows however many messages the trace holds, and they stay spread over
 * the whole time window instead of gathering at its start. Each bundle is
 * drawn as its earliest arrow.
 * Many arrows are gathered straight into the grid the columns' halving
 * would reach (at most SUB_LEVELS halvings, to MIN_COLS), each bundle
 * holding which of the finer columns it took (lay_bundle.sub): from those
 * the bundles of every finer grid are counted, so the grid where the
 * halving stops is known without making the finer bundles (millions, for
 * a ring of a thousand goroutines: bundles of the key's finest grid held
 * tens of MB). A stop at a finer grid gathers once more, there. Halving
 * only merges neighbours, so each way makes the same bundles. */
#include "lod.h"
#include "internal.h"

#include "../core/file.h"

#include <pthread.h>
#include <string.h>

#define LANE_BITS 20
#define COL_BITS 16
#define MIN_COLS 64
#define TABLE_BITS 13 /* slots of the table; it is emptied at half */
#define SPLIT_MSGS (1u << 16) /* messages from which two threads share them */
#define SUB_LEVELS 5          /* halvings gathered at once: lay_bundle.sub's 32 bits */
#define SUB_MSGS (1u << 16)   /* messages from which they are */
#define KEY(kind, from, to, col) \
    ((uint64_t)(kind) << 62 | (uint64_t)(from) << 42 | (uint64_t)(to) << 22 | (uint64_t)(col) << 6)

typedef struct collect {
    const cs_model *m;
    const lay_axis *a;
    const lay_lanes *l;
    uint32_t cols;
    unsigned sub_shift;   /* the key's column is the column in cols shifted by this */
    unsigned lane_shift;  /* lanes grouped 2^lane_shift at a time in the keys */
    uint64_t *key;        /* the table: 2^TABLE_BITS slots, key and its bundle in out->b */
    uint32_t *slot;       /* UINT32_MAX: empty */
    uint64_t *last_key;   /* per sender lane group: the key of its last bundle (in out->b[last[...]]), */
    uint32_t *last;       /* which its next arrow mostly shares; UINT64_MAX: none */
    uint32_t fill0;       /* out->b[fill0 ..]: the bundles the table points to */
    uint32_t cap_b;       /* room in out->b */
    lay_bundles *out;
} collect;

/* Adds bundle x to p; the earliest arrow stays the representative. Which
 * arrow that is does not depend on the order bundles are merged in. */
static void absorb(lay_bundle *p, const lay_bundle *x)
{
    uint32_t sub = p->sub | x->sub;
    if (x->t0 < p->t0 || (x->t0 == p->t0 && x->first < p->first)) {
        uint32_t cnt = p->count;
        *p = *x;
        p->count += cnt;
    } else {
        p->count += x->count;
    }
    p->sub = sub;
}

/* Whether an arrow (or a time block of them) from t0 to t1 is in the
 * axis' window. */
static bool meets(const lay_axis *a, int64_t t0, int64_t t1)
{
    return t1 >= a->t0 && t0 <= a->t1;
}

/* Empties the table: the bundles it points to stay in out->b. */
static void empty(collect *c)
{
    if (c->out->n > c->fill0)
        memset(c->slot, 0xff, sizeof *c->slot << TABLE_BITS);
    c->fill0 = c->out->n;
}

static bool add(collect *c, lay_arrow_kind k, int64_t t0, int64_t t1, uint32_t gf, uint32_t gt,
                uint32_t chan, uint32_t idx, cs_err *err)
{
    if (!gf || !gt || gf >= c->m->n_g || gt >= c->m->n_g)
        return true;
    uint32_t lf = c->l->lane_of_g[gf], lt = c->l->lane_of_g[gt];
    if (lf == LAY_NO_LANE || lt == LAY_NO_LANE || t0 == CS_T_NONE || t1 == CS_T_NONE)
        return true;
    if (!meets(c->a, t0, t1))
        return true;
    lay_bundles *out = c->out;
    double x = lay_axis_x(c->a, t0) * c->cols;
    uint32_t fine = x >= c->cols ? c->cols - 1 : (uint32_t)x, col = fine >> c->sub_shift;
    uint64_t key = KEY(k, lf >> c->lane_shift, lt >> c->lane_shift, col);
    lay_bundle b = {.t0 = t0, .t1 = t1 < t0 ? t0 : t1, .from = lf, .to = lt, .col = col, .count = 1,
                    .chan = chan, .first = idx, .kind = (uint8_t)k,
                    .sub = c->sub_shift ? 1u << (fine & ((1u << c->sub_shift) - 1)) : 0};
    out->n_arrows[k]++;
    if ((k == LAY_ARROW_CHAN || k == LAY_ARROW_CLOSE) && chan < c->m->n_chans)
        out->chan_arrows[chan]++;
    uint32_t lg = lf >> c->lane_shift;
    if (c->last_key[lg] == key && c->last[lg] >= c->fill0) {
        absorb(&out->b[c->last[lg]], &b);
        return true;
    }
    uint32_t mask = (1u << TABLE_BITS) - 1, h = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> (64 - TABLE_BITS));
    for (;; h = (h + 1) & mask) {
        if (c->slot[h] == UINT32_MAX)
            break;
        if (c->key[h] == key) {
            absorb(&out->b[c->slot[h]], &b);
            c->last_key[lg] = key, c->last[lg] = c->slot[h];
            return true;
        }
    }
    if (out->n - c->fill0 >= 1u << (TABLE_BITS - 1)) {
        empty(c);
        h = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> (64 - TABLE_BITS));
    }
    if (out->n == c->cap_b && !cs_grow((void **)&out->b, &c->cap_b, out->n + 1, sizeof *out->b, err))
        return false;
    c->key[h] = key, c->slot[h] = out->n;
    c->last_key[lg] = key, c->last[lg] = out->n;
    out->b[out->n++] = b;
    return true;
}

/* Blocks of n items (CS_TBLOCK each) that meet the axis' window: [*i0,
 * *i1) is the next run of them from *i0 (empty at the end). Without
 * blocks (a model traffic/ did not index), one run of everything. */
static bool next_run(const cs_tblock *b, uint32_t nb, uint32_t n, const lay_axis *a, uint32_t *i0, uint32_t *i1)
{
    if (nb != (n + CS_TBLOCK - 1) / CS_TBLOCK) {
        *i1 = *i0 < n ? n : *i0;
        return *i0 < n;
    }
    uint32_t k = *i0 / CS_TBLOCK;
    while (k < nb && !meets(a, b[k].t0, b[k].t1))
        k++;
    uint32_t e = k;
    while (e < nb && meets(a, b[e].t0, b[e].t1))
        e++;
    *i0 = k * CS_TBLOCK > *i0 ? k * CS_TBLOCK : *i0;
    *i1 = e * CS_TBLOCK < n ? e * CS_TBLOCK : n;
    return *i0 < *i1;
}

/* Messages [m0, m1) and, with rest, the sync wake-ups and spawns. */
static bool gather(collect *c, uint32_t m0, uint32_t m1, bool rest, cs_err *err)
{
    const cs_model *m = c->m;
    for (uint32_t i = m0, end; i < m1 && next_run(m->msg_block, m->n_msg_block, m->n_msgs, c->a, &i, &end); i = end)
        for (end = end < m1 ? end : m1; i < end; i++) {
            if (!add(c, lay_msg_arrow(&m->msgs[i]), cs_msg_t_send(m, i), cs_msg_t_recv(m, i), cs_msg_sender(m, i),
                     cs_msg_receiver(m, i), cs_msg_chan(m, i), i, err))
                return false;
        }
    for (uint32_t i = 1, end; rest && next_run(m->sync_block, m->n_sync_block, m->n_edges, c->a, &i, &end); i = end)
        for (i = i ? i : 1; i < end; i++) {
            const cs_edge *e = &m->edges[i];
            if (lay_edge_arrow(e) != LAY_ARROW_SYNC)
                continue;
            int64_t t = cs_edge_ts(m, i);
            if (!add(c, LAY_ARROW_SYNC, t, t, e->from, e->to, 0, i, err))
                return false;
        }
    for (uint32_t g = 1; rest && g < m->n_g; g++)
        if (m->g[g].parent &&
            !add(c, LAY_ARROW_SPAWN, m->g[g].create_ns, m->g[g].create_ns, m->g[g].parent, g, 0, g, err))
            return false;
    return true;
}

/* One thread's share of the arrows (gather's), summed into its own
 * bundles. */
typedef struct part {
    collect c;
    uint32_t m0, m1;
    bool rest, ok;
    lay_bundles out;
    cs_err err;
} part;

static bool part_run(part *p)
{
    collect *c = &p->c;
    uint32_t groups = (c->l->n_lanes >> c->lane_shift) + 1;
    c->out = &p->out;
    c->key = cs_alloc(sizeof *c->key << TABLE_BITS);
    c->slot = cs_alloc(sizeof *c->slot << TABLE_BITS);
    c->last_key = cs_alloc((size_t)groups * sizeof *c->last_key);
    c->last = cs_alloc((size_t)groups * sizeof *c->last);
    p->out.chan_arrows = cs_calloc((size_t)c->m->n_chans + 1, sizeof *p->out.chan_arrows);
    bool ok = (c->key && c->slot && c->last_key && c->last && p->out.chan_arrows) ||
              CS_FAIL(&p->err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for arrow bundles");
    if (ok) {
        memset(c->slot, 0xff, sizeof *c->slot << TABLE_BITS);
        memset(c->last_key, 0xff, (size_t)groups * sizeof *c->last_key); /* no key has its low 6 bits set */
    }
    ok = ok && gather(c, p->m0, p->m1, p->rest, &p->err);
    cs_free(c->key), cs_free(c->slot), cs_free(c->last_key), cs_free(c->last);
    return ok;
}

static void *part_thread(void *arg)
{
    part *p = arg;
    p->ok = part_run(p);
    return NULL;
}

/* Stable radix sort of the bundles: by time of their first arrow, or by
 * (kind, from >> ls, to >> ls, col) with the bundles equal in that key
 * merged into one. */
_Static_assert(sizeof(lay_bundle) <= CS_PERMUTE_MAX, "bundles move through cs_permute");

static bool sort_bundles(lay_bundles *out, bool by_time, unsigned ls, cs_err *err)
{
    uint64_t *k = cs_alloc((size_t)out->n * sizeof *k + 1);
    uint32_t *o = cs_alloc((size_t)out->n * sizeof *o + 1);
    bool ok = k && o;
    for (uint32_t i = 0; ok && i < out->n; i++) {
        const lay_bundle *x = &out->b[i];
        k[i] = by_time ? lay__time_key(x->t0) : KEY(x->kind, x->from >> ls, x->to >> ls, x->col);
        o[i] = i;
    }
    ok = ok && lay__sort_keys(k, o, out->n, err);
    if (ok) /* in place: no second copy of the bundles */
        cs_permute(o, out->n, &(cs_permuted){out->b, sizeof *out->b}, 1);
    uint32_t w = 0;
    for (uint32_t i = 0; ok && i < out->n; i++) {
        if (!by_time && w && k[i] == k[i - 1])
            absorb(&out->b[w - 1], &out->b[i]);
        else
            out->b[w++] = out->b[i];
    }
    if (ok)
        out->n = w;
    cs_free(k), cs_free(o);
    return ok || err->code || CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory ordering arrows");
}

/* The columns of a grid halved: every halving of the bundles' grid
 * (fit(), and a gathering straight into a coarser grid) is this one. */
static uint32_t halved(uint32_t cols)
{
    return (cols + 1) / 2;
}

/* Halves the columns: bundles are in key order for lane groups of 2^ls,
 * so the ones to merge are neighbours (O(n), no sort). */
static uint32_t halve_cols(lay_bundle *b, uint32_t n, unsigned ls)
{
    uint32_t w = 0;
    for (uint32_t i = 0; i < n; i++) {
        lay_bundle x = b[i];
        x.col >>= 1;
        lay_bundle *p = w ? &b[w - 1] : NULL;
        if (p && p->kind == x.kind && p->from >> ls == x.from >> ls && p->to >> ls == x.to >> ls && p->col == x.col)
            absorb(p, &x);
        else
            b[w++] = x;
    }
    return w;
}

/* Coarser grids until the bundles fit in max_bundles: columns down to
 * MIN_COLS, then lane groups (by several doublings at once when far over:
 * each can cut the lane pairs by 4) until one group holds every lane, then
 * columns down to one. Bundles stay in key order throughout. */
static bool fit(lay_bundles *out, uint32_t n_lanes, unsigned ls, uint32_t max_bundles, cs_err *err)
{
    while (max_bundles && out->n > max_bundles) {
        bool lanes_left = n_lanes > 1 && ((n_lanes - 1) >> ls) != 0;
        if (out->cols > MIN_COLS || !lanes_left) {
            if (out->cols <= 1)
                break;
            out->n = halve_cols(out->b, out->n, ls);
            out->cols = halved(out->cols);
            continue;
        }
        unsigned step = 1;
        while (step < LANE_BITS && out->n >> (2 * step) > max_bundles)
            step++;
        ls += step;
        if (!sort_bundles(out, false, ls, err))
            return false;
    }
    return true;
}

bool lay_lod_arrows(const cs_model *m, const lay_axis *a, const lay_lanes *l, uint32_t cols,
                    uint32_t max_bundles, lay_bundles *out, cs_err *err)
{
    return lay__arrows(m, a, l, cols, max_bundles, true, out, err);
}

/* Every arrow in the window summed into bundles on the grid of cols
 * columns halved `shift` times, in key order (a key's bundles merged), on
 * two threads when split and there are many; out->cols is that grid's
 * columns, *ls the lane shift of the keys. */
static bool gather_all(const cs_model *m, const lay_axis *a, const lay_lanes *l, uint32_t cols, unsigned shift,
                       bool split, lay_bundles *out, unsigned *ls, cs_err *err)
{
    memset(out, 0, sizeof *out);
    collect c = {.m = m, .a = a, .l = l, .cols = cols, .sub_shift = shift};
    while ((l->n_lanes >> c.lane_shift) >= 1u << LANE_BITS) /* keys hold 2^20 lane groups */
        c.lane_shift++;
    *ls = c.lane_shift;
    /* many messages: the first half of their blocks on a second thread */
    uint32_t half = split && m->n_msgs >= SPLIT_MSGS ? m->n_msgs / 2 / CS_TBLOCK * CS_TBLOCK : 0;
    part p[2] = {{.c = c, .m0 = 0, .m1 = half}, {.c = c, .m0 = half, .m1 = m->n_msgs, .rest = true}};
    pthread_t th;
    bool two = half && cs_thread_create(&th, part_thread, &p[0]) == 0;
    if (half && !two)
        part_thread(&p[0]);
    p[1].ok = part_run(&p[1]);
    if (two)
        pthread_join(th, NULL);
    bool ok = (half ? p[0].ok : true) && p[1].ok;
    if (!ok)
        *err = half && !p[0].ok ? p[0].err : p[1].err;
    else if (!half)
        *out = p[1].out, p[1].out = (lay_bundles){0};
    else if (cs_grow((void **)&p[0].out.b, &p[0].c.cap_b, p[0].out.n + p[1].out.n + 1, sizeof *out->b, err)) {
        if (p[1].out.n) /* the second share may have no bundle in the window, and no list */
            memcpy(p[0].out.b + p[0].out.n, p[1].out.b, (size_t)p[1].out.n * sizeof *out->b);
        p[0].out.n += p[1].out.n;
        for (int k = 0; k < LAY_ARROW_COUNT; k++)
            p[0].out.n_arrows[k] += p[1].out.n_arrows[k];
        for (uint32_t ch = 0; ch < m->n_chans; ch++)
            p[0].out.chan_arrows[ch] += p[1].out.chan_arrows[ch];
        *out = p[0].out, p[0].out = (lay_bundles){0};
    } else
        ok = false;
    lay_bundles_deinit(&p[0].out), lay_bundles_deinit(&p[1].out);
    out->cols = cols;
    for (unsigned i = 0; i < shift; i++)
        out->cols = halved(out->cols);
    /* a key held in two fills of a table, or by both threads, has two
     * bundles: merged by the sort into key order, which fit() needs */
    ok = ok && sort_bundles(out, false, c.lane_shift, err);
    if (!ok)
        lay_bundles_deinit(out);
    return ok;
}

/* The bundles the grid `level` halvings finer than the one b was gathered
 * in (sub_shift of them, in key order) would have: per bundle, the groups
 * of 2^level of its finer columns it holds. */
static uint64_t count_finer(const lay_bundles *b, unsigned level)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < b->n; i++) {
        uint32_t groups = 0;
        for (uint32_t sub = b->b[i].sub; sub; sub &= sub - 1)
            groups |= 1u << ((unsigned)__builtin_ctz(sub) >> level);
        n += (unsigned)__builtin_popcount(groups);
    }
    return n;
}

bool lay__arrows(const cs_model *m, const lay_axis *a, const lay_lanes *l, uint32_t cols, uint32_t max_bundles,
                 bool split, lay_bundles *out, cs_err *err)
{
    cols = cols < 1 ? 1 : cols >= 1u << COL_BITS ? (1u << COL_BITS) - 1 : cols;
    /* the halvings fit() makes whatever the lanes, when there are too many */
    unsigned shift = 0, ls;
    for (uint32_t c = cols; max_bundles && m->n_msgs >= SUB_MSGS && shift < SUB_LEVELS && c > MIN_COLS; shift++)
        c = halved(c);
    bool ok = gather_all(m, a, l, cols, shift, split, out, &ls, err);
    if (ok && shift) {
        /* fit() stops at the first grid with few enough: gathered again there
         * when it is a finer one */
        unsigned stop = 0;
        while (stop < shift && count_finer(out, stop) > max_bundles)
            stop++;
        if (stop < shift) {
            lay_bundles_deinit(out);
            ok = gather_all(m, a, l, cols, stop, split, out, &ls, err);
        }
        for (uint32_t i = 0; ok && i < out->n; i++)
            out->b[i].sub = 0; /* the grid is chosen: the finer columns are not kept */
    }
    /* then time order, stable, so ties keep kind, from, to order */
    ok = ok && fit(out, l->n_lanes, ls, max_bundles, err) && sort_bundles(out, true, 0, err);
    if (!ok)
        lay_bundles_deinit(out);
    return ok;
}

bool lay_bundles_cover(const lay_bundles *b, uint32_t built_cols, uint32_t cols)
{
    /* fit() halves the columns while there are too many bundles, and a grid
     * halved is the grid made at half the columns (a power of two scales a
     * double exactly); b passed every power of two above b->cols up to
     * built_cols with too many, and a finer start has more still, so a
     * start at cols takes the same path from there. */
    bool pow2 = cols && !(cols & (cols - 1)) && built_cols && !(built_cols & (built_cols - 1));
    return pow2 && cols < 1u << COL_BITS && built_cols < 1u << COL_BITS && b->cols < built_cols && b->cols < cols;
}

void lay_bundles_deinit(lay_bundles *b)
{
    cs_free(b->b);
    cs_free(b->chan_arrows);
    memset(b, 0, sizeof *b);
}

bool lay_bundles_crowding(const lay_bundles *b, uint32_t n_lanes, const lay_arrow_ink *ink, double *out,
                          cs_err *err)
{
    *out = 0;
    /* per lane: a difference array of the arrows through it or ending at
     * it, and the heads landing on it */
    int64_t *d = cs_calloc((size_t)n_lanes + 2, sizeof *d), *heads = cs_calloc((size_t)n_lanes + 1, sizeof *heads);
    if (!d || !heads) {
        cs_free(d), cs_free(heads);
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u lanes", n_lanes);
    }
    for (uint32_t i = 0; i < b->n; i++) {
        const lay_bundle *x = &b->b[i];
        uint32_t lo = x->from < x->to ? x->from : x->to, hi = x->from < x->to ? x->to : x->from;
        if (x->kind == LAY_ARROW_SPAWN || hi >= n_lanes)
            continue;
        d[lo]++, d[hi + 1]--;
        heads[x->to] += x->kind != LAY_ARROW_SYNC;
    }
    int64_t run = 0;
    double most = 0;
    for (uint32_t l = 0; l < n_lanes; l++) {
        run += d[l];
        double px = (double)run * ink->shaft_px + (double)heads[l] * ink->head_px;
        most = px > most ? px : most;
    }
    cs_free(d), cs_free(heads);
    *out = ink->width_px > 0 ? most / ink->width_px : 0;
    return true;
}

float lay_arrow_fade(double crowding)
{
    return crowding <= LAY_CROWDED ? 1.0f : (float)(LAY_CROWDED / crowding > 0.3 ? LAY_CROWDED / crowding : 0.3);
}
