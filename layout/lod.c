/* layout/lod.c — per-column span summaries of lod.h (bundles: bundle.c).
 * Spans: goroutines are grouped by lane (counting sort); per lane, each span
 * adds the nanoseconds it covers to the two columns its ends fall in and
 * marks the columns between as wholly covered in a difference array per
 * mark, so a span's cost does not depend on how many columns it covers and
 * the sums are exact integers, the same in any order. Two threads share
 * the lanes; in lay_lod_build the second makes the bundles first. Over a
 * few reused lanes and a wide window, the threads share the model's
 * goroutines in its order instead, each summing every lane, and the sums
 * are put together (read_by_index). */
#include "lod.h"
#include "palette.h"
#include "internal.h"
#include "../core/file.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* The times of the column boundaries (lay_axis_t of each): column c is
 * [tb[c], tb[c+1]), time is linear inside a column, which is exact for the
 * linear and gap-folding mappings and within a pixel for the log one, with
 * no logarithm per span. Spans come in time order per goroutine, so the
 * search starts at the last column found and gallops. */
typedef struct colmap {
    int64_t *tb;          /* cols + 1 boundaries, non-decreasing */
    uint32_t cols, cur;
} colmap;

/* The last column c < cols with tb[c] <= t (0 before tb[0]); t must be
 * below tb[cols]. */
static uint32_t col_of(colmap *m, int64_t t)
{
    const int64_t *tb = m->tb;
    uint32_t lo = 0, hi = m->cur; /* in [lo, hi] */
    if (tb[m->cur] <= t) {
        uint32_t step = 1;
        lo = m->cur;
        while (lo + step < m->cols && tb[lo + step] <= t)
            lo += step, step *= 2;
        hi = lo + step < m->cols ? lo + step : m->cols - 1;
    }
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if (tb[mid] <= t)
            lo = mid;
        else
            hi = mid - 1;
    }
    return m->cur = lo;
}

/* col_of, for the common case first: t in the last column found. */
static inline uint32_t col_at(colmap *m, int64_t t)
{
    uint32_t c = m->cur;
    return m->tb[c] <= t && t < m->tb[c + 1] ? c : col_of(m, t);
}

/* x += v, held at INT64_MAX: a lane of many goroutines over a hostile
 * trace's widest columns (times reach ±2^60) could pass it. */
static inline void add_ns(int64_t *x, int64_t v)
{
    if (__builtin_add_overflow(*x, v, x))
        *x = INT64_MAX;
}

/* Per mark: ns[c] the nanoseconds of column c covered by spans that end in
 * it or start in it, whole[c] a difference array of the columns spans cover
 * from edge to edge. */
typedef struct cover_acc { int64_t *ns; int32_t *whole; } cover_acc;

/* Goroutine g's spans into its lane's sums (acc, the marks used, the
 * spans in the window). */
static void g_cover(const cs_model *m, const lay_axis *a, colmap *cm, const cs_goroutine *g, uint32_t cols,
                    cover_acc *acc, uint32_t *used, uint32_t *n_spans)
{
    const int64_t *tb = cm->tb, lo = tb[0], hi = tb[cols];
    /* its spans with a state lie within its life: one that ends before
     * the window or is made after it has nothing in it (a lane of a
     * server's reused lanes holds tens of thousands) */
    if ((g->end_ns != CS_T_NONE && g->end_ns < a->t0) || (g->create_ns != CS_T_NONE && g->create_ns >= a->t1))
        return;
    cm->cur = 0;
    uint32_t end = g->span_first + g->span_count, c_end = 0;
    int64_t t_end = CS_T_NONE; /* a span mostly begins where the last one ended: its column is known */
    /* from the span that reaches the window's start (it may end there);
     * each start read once: a span that is not far ends where the next
     * begins (and a goroutine's last span is far) */
    uint32_t s = cs_model_span_after(m, g, a->t0 - 1);
    for (int64_t start = s < end ? cs_span_t0(m, s) : 0, next; s < end && start < a->t1; s++, start = next) {
        bool far = cs_span_is_far(m, s);
        int64_t t1 = far ? m->span_far_t1[cs_span_far_at(m, s)] : cs_span_t0(m, s + 1);
        next = far && s + 1 < end ? cs_span_t0(m, s + 1) : t1;
        lay_mark mk = lay_mark_of(cs_span_state(m, s), cs_span_reason(m, s));
        if (mk == LAY_MARK_NONE)
            continue;
        if (c_end < cols && start >= tb[c_end] && t1 >= start && t1 < tb[c_end + 1]) {
            /* the common case, a span inside the column the last one ended
             * in: only its time to add */
            *n_spans += t1 > lo;
            t_end = t1;
            if (t1 > start)
                *used |= 1u << mk, add_ns(&acc[mk].ns[c_end], t1 - start);
            continue;
        }
        bool before = start < lo; /* covers every column up to its end's */
        int64_t t0 = before ? lo : start;
        *n_spans += t1 > lo;
        uint32_t c0 = t0 == t_end ? c_end : t0 < hi ? col_at(cm, t0) : cols;
        t1 = t1 > hi ? hi : t1;
        t_end = t1, c_end = t1 < hi ? col_at(cm, t1) : cols;
        if (t1 < t0 || (t1 == t0 && !before))
            continue;
        *used |= 1u << mk;
        int64_t *ns = acc[mk].ns;
        if (before) {
            acc[mk].whole[0]++;
            acc[mk].whole[c_end]--;
            add_ns(&ns[c_end], t1 - tb[c_end]);
            continue;
        }
        if (c0 == c_end) {
            add_ns(&ns[c0], t1 - t0);
            continue;
        }
        add_ns(&ns[c0], tb[c0 + 1] - t0); /* c0 < c_end <= cols */
        add_ns(&ns[c_end], t1 - tb[c_end]);
        acc[mk].whole[c0 + 1]++;
        acc[mk].whole[c_end]--;
    }
}

/* A lane's row from its sums, which go back to zero: only the marks the
 * lane uses are searched and cleared. A column's mark is the one covering
 * most of its time, if that is more than 5 % of it; a column of no width,
 * at time T, takes the mark of the spans that reach T (t0 < T <= t1), as a
 * span from before the window does with the columns of no width at its
 * start. */
static void lane_marks(const int64_t *tb, uint32_t cols, cover_acc *acc, uint32_t used, uint8_t *row)
{
    int32_t run[LAY_MARK_COUNT] = {0};
    for (uint32_t c = 0; c < cols; c++) {
        int64_t w = tb[c + 1] - tb[c], best = w ? w / 20 : 0; /* under 5 %: nothing there */
        uint8_t b = LAY_MARK_NONE;
        for (uint32_t mk = 1; mk < LAY_MARK_COUNT; mk++) {
            if (!(used & 1u << mk))
                continue;
            run[mk] += acc[mk].whole[c];
            int64_t v = run[mk];
            if (w && (__builtin_mul_overflow(v, w, &v) || __builtin_add_overflow(v, acc[mk].ns[c], &v)))
                v = INT64_MAX;
            if (v > best)
                best = v, b = (uint8_t)mk;
        }
        row[c] = b;
    }
    for (uint32_t mk = 1; mk < LAY_MARK_COUNT; mk++)
        if (used & 1u << mk) {
            memset(acc[mk].ns, 0, ((size_t)cols + 1) * sizeof *acc[mk].ns);
            memset(acc[mk].whole, 0, ((size_t)cols + 1) * sizeof *acc[mk].whole);
        }
}

#define PREFETCH_G 8u
#define PREFETCH_SPANS 4u
#define PREFETCH_FAR 2u

/* A lane's goroutines gs[0, ng) into its row; acc is zero on entry and
 * left zero. */
static void lane_summary(const cs_model *m, const lay_axis *a, colmap *cm, const uint32_t *gs, uint32_t ng,
                         bool successive, uint32_t cols, cover_acc *acc, uint8_t *row, uint32_t *n_spans)
{
    uint32_t used = 0;
    for (uint32_t k = successive ? lay_lanes_alive_from(m, gs, ng, a->t0) : 0; k < ng; k++) {
        const cs_goroutine *g = &m->g[gs[k]];
        /* a lane of many short goroutines reads each one's row and spans
         * from tables far apart, waiting on memory for each: asked for a
         * few goroutines ahead (the goroutine), nearer its spans' starts,
         * states and far bits (from the row fetched then), and nearer still
         * its last span's far end (from those) */
        if (k + PREFETCH_G < ng)
            __builtin_prefetch(&m->g[gs[k + PREFETCH_G]]);
        if (k + PREFETCH_SPANS < ng) {
            uint32_t s0 = m->g[gs[k + PREFETCH_SPANS]].span_first;
            __builtin_prefetch(&m->span_t0[s0]);
            __builtin_prefetch(&m->span_t0_base[s0 >> CS_T0_BLOCK_BITS]);
            __builtin_prefetch(&m->span_state_reason[s0]);
            __builtin_prefetch(&m->span_far[s0 >> 6]);
            __builtin_prefetch(&m->span_far_rank[s0 >> 6]);
        }
        if (k + PREFETCH_FAR < ng) { /* its last span's end, far from the next one's start */
            const cs_goroutine *h = &m->g[gs[k + PREFETCH_FAR]];
            if (h->span_count)
                __builtin_prefetch(&m->span_far_t1[cs_span_far_at(m, h->span_first + h->span_count - 1)]);
        }
        if (successive && g->create_ns != CS_T_NONE && g->create_ns >= a->t1)
            break; /* and so are all after it */
        g_cover(m, a, cm, g, cols, acc, &used, n_spans);
    }
    lane_marks(cm->tb, cols, acc, used, row);
}

/* One thread's sums of every lane, when the goroutines are read in the
 * model's order (index_work): lane i's mark k at (i * LAY_MARK_COUNT + k)
 * * (cols + 1). */
typedef struct lane_sums {
    int64_t *ns;
    int32_t *whole;
    uint32_t *used, *n_spans;
} lane_sums;

/* What the threads summarising lanes share: the lanes' goroutines
 * (gs[first[i] .. first[i+1]) for lane lane0 + i), the column boundaries,
 * and the next lane nobody took yet; or, by_index, the next block of the
 * model's goroutines and each thread's sums. */
typedef struct span_job {
    const cs_model *m;
    const lay_axis *a;
    const uint32_t *lane_of_g;
    uint32_t *first;
    const uint32_t *gs;   /* the lanes' by_lane from lane0's on, or gs_own */
    uint32_t *gs_own;
    int64_t *tb;
    uint32_t lane0, n_lanes, cols;
    bool successive;      /* a lane's goroutines follow one another (lay_lanes.by_lane) */
    bool by_index;
    lay_lod *out;
    atomic_uint next;
    lane_sums sums[2];    /* by_index: the threads', n_sums of them */
    atomic_uint n_sums;
} span_job;

#define LANES_AT_ONCE 8u
#define INDEX_BLOCK 16384u

static void sums_free(lane_sums *x)
{
    cs_free(x->ns), cs_free(x->whole), cs_free(x->used), cs_free(x->n_spans);
}

/* The cover_acc of each lane and mark over x. */
static void sums_acc(const lane_sums *x, uint32_t n_lanes, uint32_t cols, cover_acc *acc)
{
    for (size_t i = 0; i < (size_t)n_lanes * LAY_MARK_COUNT; i++)
        acc[i] = (cover_acc){x->ns + i * (cols + 1), x->whole + i * (cols + 1)};
}

/* by_index: the model's goroutines, INDEX_BLOCK at a time, each into its
 * lane's sums of this thread; false (and no block taken) when out of
 * memory. */
static bool index_work(span_job *j)
{
    uint32_t nl = j->n_lanes, cols = j->cols, n_g = j->m->n_g;
    size_t n = (size_t)nl * LAY_MARK_COUNT * (cols + 1);
    lane_sums x = {cs_calloc(n, sizeof *x.ns), cs_calloc(n, sizeof *x.whole), cs_calloc(nl, sizeof *x.used),
                   cs_calloc(nl, sizeof *x.n_spans)};
    cover_acc *acc = cs_alloc((size_t)nl * LAY_MARK_COUNT * sizeof *acc);
    if (!x.ns || !x.whole || !x.used || !x.n_spans || !acc) {
        sums_free(&x), cs_free(acc);
        return false;
    }
    sums_acc(&x, nl, cols, acc);
    colmap cm = {.tb = j->tb, .cols = cols};
    for (uint32_t g0; (g0 = atomic_fetch_add(&j->next, INDEX_BLOCK)) < n_g;)
        for (uint32_t g = g0 ? g0 : 1; g < g0 + INDEX_BLOCK && g < n_g; g++) {
            uint32_t lane = j->lane_of_g[g] - j->lane0; /* LAY_NO_LANE, or one not asked for: past nl */
            if (lane < nl)
                g_cover(j->m, j->a, &cm, &j->m->g[g], cols, acc + (size_t)lane * LAY_MARK_COUNT, &x.used[lane],
                        &x.n_spans[lane]);
        }
    cs_free(acc);
    j->sums[atomic_fetch_add(&j->n_sums, 1)] = x;
    return true;
}

/* by_index, once the threads are done: their sums together, and the
 * lanes' rows from them. */
static bool index_rows(span_job *j)
{
    uint32_t nl = j->n_lanes, cols = j->cols, n_sums = atomic_load(&j->n_sums);
    lane_sums *x = &j->sums[0];
    cover_acc *acc = n_sums ? cs_alloc((size_t)nl * LAY_MARK_COUNT * sizeof *acc) : NULL;
    bool ok = acc != NULL;
    if (ok && n_sums == 2) {
        const lane_sums *y = &j->sums[1];
        for (size_t i = 0; i < (size_t)nl * LAY_MARK_COUNT * (cols + 1); i++)
            add_ns(&x->ns[i], y->ns[i]), x->whole[i] += y->whole[i];
        for (uint32_t i = 0; i < nl; i++)
            x->used[i] |= y->used[i], x->n_spans[i] += y->n_spans[i];
    }
    if (ok) {
        sums_acc(x, nl, cols, acc);
        for (uint32_t i = 0; i < nl; i++) {
            lane_marks(j->tb, cols, acc + (size_t)i * LAY_MARK_COUNT, x->used[i], j->out->mark + (size_t)i * cols);
            j->out->n_spans[i] = x->n_spans[i];
        }
    }
    for (uint32_t k = 0; k < n_sums; k++)
        sums_free(&j->sums[k]);
    cs_free(acc);
    return ok;
}

/* Summarises lanes of j, LANES_AT_ONCE at a time, until none is left;
 * false (and no lane taken) when out of memory. */
static bool span_work(span_job *j)
{
    if (j->by_index)
        return index_work(j);
    uint32_t cols = j->cols;
    int64_t *ns = cs_calloc(((size_t)cols + 1) * LAY_MARK_COUNT, sizeof *ns);
    int32_t *whole = cs_calloc(((size_t)cols + 1) * LAY_MARK_COUNT, sizeof *whole);
    bool ok = ns && whole;
    cover_acc acc[LAY_MARK_COUNT];
    for (uint32_t mk = 0; mk < LAY_MARK_COUNT; mk++)
        acc[mk] = (cover_acc){ns + (size_t)mk * (cols + 1), whole + (size_t)mk * (cols + 1)};
    colmap cm = {.tb = j->tb, .cols = cols};
    for (uint32_t i0; ok && (i0 = atomic_fetch_add(&j->next, LANES_AT_ONCE)) < j->n_lanes;)
        for (uint32_t i = i0; i < i0 + LANES_AT_ONCE && i < j->n_lanes; i++)
            lane_summary(j->m, j->a, &cm, j->gs + j->first[i], j->first[i + 1] - j->first[i], j->successive, cols, acc,
                         j->out->mark + (size_t)i * cols, &j->out->n_spans[i]);
    cs_free(ns), cs_free(whole);
    return ok;
}

static void spans_end(span_job *j)
{
    cs_free(j->first), cs_free(j->gs_own), cs_free(j->tb);
}

/* Whether j's goroutines are better read in the model's order (successive
 * lanes): a reused lane's are hundreds of rows apart in the model, each read
 * waiting on memory, while the model's order reads it straight through. So
 * it is when the lanes are few (each thread sums all of them: at most
 * INDEX_SUMS_MAX bytes) and the window holds a quarter of the model's
 * goroutines or more, as the widest windows of a server's trace do. */
#define INDEX_SUMS_MAX ((size_t)16 << 20)

static bool read_by_index(const span_job *j)
{
    const cs_model *m = j->m;
    size_t bytes = (size_t)j->n_lanes * LAY_MARK_COUNT * (j->cols + 1) * (sizeof(int64_t) + sizeof(int32_t));
    if (bytes > INDEX_SUMS_MAX || j->first[j->n_lanes] < m->n_g / 4)
        return false;
    uint64_t in = 0; /* alive at the window's start or later, made before its end */
    for (uint32_t i = 0; i < j->n_lanes; i++) {
        const uint32_t *gs = j->gs + j->first[i];
        uint32_t ng = j->first[i + 1] - j->first[i], k0 = lay_lanes_alive_from(m, gs, ng, j->a->t0),
                 k1 = lay_lanes_made_from(m, gs, ng, j->a->t1);
        in += k1 > k0 ? k1 - k0 : 0;
    }
    return in >= m->n_g / 4;
}

/* Sets up j (and out) for lanes [lane0, lane1): goroutines grouped by lane
 * (counting sort) and the column boundaries. */
static bool spans_begin(span_job *j, const cs_model *m, const lay_axis *a, const lay_lanes *l, uint32_t lane0,
                        uint32_t lane1, uint32_t cols, lay_lod *out, cs_err *err)
{
    memset(out, 0, sizeof *out);
    if (lane1 > l->n_lanes) lane1 = l->n_lanes;
    if (lane0 > lane1) lane0 = lane1;
    uint32_t nl = lane1 - lane0;
    out->lane0 = lane0, out->n_lanes = nl, out->n_cols = cols;
    out->mark = cs_calloc((size_t)nl * cols + 1, 1);
    out->n_spans = cs_calloc((size_t)nl + 1, sizeof *out->n_spans);
    *j = (span_job){.m = m, .a = a, .lane_of_g = l->lane_of_g, .lane0 = lane0, .n_lanes = nl, .cols = cols, .out = out,
                    .first = cs_calloc((size_t)nl + 1, sizeof *j->first),
                    .tb = cs_alloc(((size_t)cols + 1) * sizeof *j->tb)};
    /* lanes grouped already are read where they are: a copy (4 bytes a
     * goroutine, 8.8 MB for a server's) was made at every window's summary */
    j->gs = l->by_lane ? l->by_lane + l->lane_first[lane0]
                       : (j->gs_own = cs_alloc((size_t)m->n_g * sizeof *j->gs_own + 1));
    atomic_init(&j->next, 0);
    if (!out->mark || !out->n_spans || !j->first || !j->gs || !j->tb) {
        spans_end(j);
        lay_lod_deinit(out);
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory summarising %u lanes", nl);
    }
    for (uint32_t c = 0; c <= cols; c++)
        j->tb[c] = c ? lay_axis_t(a, (double)c / cols) : a->t0;
    uint32_t *first = j->first;
    if (l->by_lane) { /* grouped already, each lane's in creation order */
        j->successive = true;
        for (uint32_t i = 0; i <= nl; i++)
            first[i] = l->lane_first[lane0 + i] - l->lane_first[lane0];
        j->by_index = read_by_index(j);
        return true;
    }
    for (uint32_t g = 1; g < m->n_g; g++)
        if (l->lane_of_g[g] >= lane0 && l->lane_of_g[g] < lane1)
            first[l->lane_of_g[g] - lane0 + 1]++;
    for (uint32_t i = 1; i <= nl; i++)
        first[i] += first[i - 1];
    for (uint32_t g = 1; g < m->n_g; g++)
        if (l->lane_of_g[g] >= lane0 && l->lane_of_g[g] < lane1)
            j->gs_own[first[l->lane_of_g[g] - lane0]++] = g;
    for (uint32_t i = nl; i > 0; i--) /* undo the cursor shift */
        first[i] = first[i - 1];
    first[0] = 0;
    return true;
}

/* The end of a summary the calling thread took part in: ok is its share's
 * (by_index, whether either thread's sums are there). */
static bool spans_done(span_job *j, bool ok, cs_err *err)
{
    if (j->by_index) /* the caller's share may be none: then the other thread read them all */
        ok = index_rows(j);
    spans_end(j);
    if (ok)
        return true;
    lay_lod_deinit(j->out);
    return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory summarising %u lanes", j->n_lanes);
}

/* The second thread of lay_lod_spans: short of memory it takes no lane,
 * and the calling thread summarises them all. */
static void *span_thread(void *arg)
{
    span_work(arg);
    return NULL;
}

bool lay_lod_spans(const cs_model *m, const lay_axis *a, const lay_lanes *l, uint32_t lane0,
                   uint32_t lane1, uint32_t cols, lay_lod *out, cs_err *err)
{
    span_job j;
    if (!spans_begin(&j, m, a, l, lane0, lane1, cols, out, err))
        return false;
    pthread_t th;
    bool two = j.n_lanes > LANES_AT_ONCE && cs_thread_create(&th, span_thread, &j) == 0;
    bool ok = span_work(&j);
    if (two)
        pthread_join(th, NULL);
    return spans_done(&j, ok, err);
}

/* The second thread of lay_lod_build: the bundles, then lanes the first
 * thread has not taken yet. */
typedef struct bundle_job {
    const lay_lanes *l;
    uint32_t cols, max_bundles;
    lay_bundles *out;
    span_job *spans;
    cs_err err;
    bool ok;
} bundle_job;

static void *bundle_work(void *arg)
{
    bundle_job *j = arg;
    j->ok = lay__arrows(j->spans->m, j->spans->a, j->l, j->cols, j->max_bundles, false, j->out, &j->err);
    span_work(j->spans);
    return NULL;
}

bool lay_lod_build(const cs_model *m, const lay_axis *a, const lay_lanes *l, uint32_t lane0, uint32_t lane1,
                   uint32_t cols, uint32_t arrow_cols, uint32_t max_bundles, lay_lod *lod, lay_bundles *bun,
                   cs_err *err)
{
    span_job sj;
    if (!spans_begin(&sj, m, a, l, lane0, lane1, cols, lod, err))
        return false;
    bundle_job j = {.l = l, .cols = arrow_cols, .max_bundles = max_bundles, .out = bun, .spans = &sj};
    pthread_t th;
    bool two = cs_thread_create(&th, bundle_work, &j) == 0;
    bool ok = span_work(&sj);
    if (two)
        pthread_join(th, NULL);
    else
        bundle_work(&j);
    ok = spans_done(&sj, ok, err);
    if (ok && !j.ok)
        *err = j.err;
    if (ok && j.ok)
        return true;
    lay_lod_deinit(lod);
    lay_bundles_deinit(bun);
    return false;
}

uint8_t lay_lod_at(const lay_lod *d, uint32_t lane, uint32_t col)
{
    if (lane < d->lane0 || lane - d->lane0 >= d->n_lanes || col >= d->n_cols)
        return LAY_MARK_NONE;
    return d->mark[(size_t)(lane - d->lane0) * d->n_cols + col];
}

void lay_lod_deinit(lay_lod *d)
{
    cs_free(d->mark), cs_free(d->n_spans);
    memset(d, 0, sizeof *d);
}
