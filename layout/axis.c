/* layout/axis.c — the time-axis mappings and tick labels of axis.h.
 * Gap folding finds idle stretches in O(n) without sorting event times:
 * times go into buckets no wider than gap_min_ns (at most 2^20 of them, each
 * keeping its min and max), so every stretch longer than gap_min_ns lies
 * between the max of one non-empty bucket and the min of the next. */
#include "axis.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BUCKETS (1u << 20)

typedef struct bucket_scan {
    int64_t t0, width;
    uint32_t n;
    int64_t *lo, *hi; /* per bucket; lo = INT64_MAX when empty */
} bucket_scan;

static void bucket_add(bucket_scan *b, int64_t t)
{
    if (t == CS_T_NONE || t < b->t0)
        return;
    uint64_t i = (uint64_t)(t - b->t0) / (uint64_t)b->width;
    if (i >= b->n)
        return;
    if (t < b->lo[i]) b->lo[i] = t;
    if (t > b->hi[i]) b->hi[i] = t;
}

/* Every moment something visible happens: state changes, creations, ends,
 * message sends and receives. */
static void bucket_fill(bucket_scan *b, const cs_model *m)
{
    for (uint32_t s = 0; s < m->n_span; s++)
        bucket_add(b, cs_span_t0(m, s));
    for (uint32_t i = 1; i < m->n_g; i++) {
        bucket_add(b, m->g[i].create_ns);
        bucket_add(b, m->g[i].end_ns);
    }
    for (uint32_t i = 0; i < m->n_msgs; i++) {
        bucket_add(b, cs_msg_t_send(m, i));
        bucket_add(b, cs_msg_t_recv(m, i));
    }
}

static int gap_by_len_desc(const void *a, const void *b)
{
    const lay_gap *x = a, *y = b;
    int64_t lx = x->t1 - x->t0, ly = y->t1 - y->t0;
    if (lx != ly)
        return lx > ly ? -1 : 1;
    return (x->t0 > y->t0) - (x->t0 < y->t0);
}

static int gap_by_time(const void *a, const void *b)
{
    const lay_gap *x = a, *y = b;
    return (x->t0 > y->t0) - (x->t0 < y->t0);
}

/* Collects stretches longer than min_ns into a->gaps (unsorted). */
static bool find_gaps(const cs_model *m, lay_axis *a, int64_t min_ns, cs_err *err)
{
    int64_t range = a->t1 - a->t0;
    uint64_t nb = (uint64_t)(range / min_ns) + 1;
    bucket_scan b = {.t0 = a->t0, .n = (uint32_t)(nb < MAX_BUCKETS ? nb : MAX_BUCKETS)};
    b.width = range / b.n + 1;
    b.lo = cs_alloc((size_t)b.n * sizeof *b.lo);
    b.hi = cs_alloc((size_t)b.n * sizeof *b.hi);
    if (!b.lo || !b.hi) {
        cs_free(b.lo), cs_free(b.hi);
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u axis buckets", b.n);
    }
    for (uint32_t i = 0; i < b.n; i++)
        b.lo[i] = INT64_MAX, b.hi[i] = INT64_MIN;
    bucket_fill(&b, m);
    uint32_t cap = 0;
    int64_t prev = a->t0;
    bool ok = true;
    for (uint32_t i = 0; i <= b.n && ok; i++) {
        int64_t next = i < b.n ? b.lo[i] : a->t1;
        if (next == INT64_MAX)
            continue;
        if (next - prev > min_ns) {
            ok = cs_grow((void **)&a->gaps, &cap, a->n_gaps + 1, sizeof *a->gaps, err);
            if (ok)
                a->gaps[a->n_gaps++] = (lay_gap){.t0 = prev, .t1 = next};
        }
        if (i < b.n)
            prev = b.hi[i];
    }
    cs_free(b.lo), cs_free(b.hi);
    return ok;
}

/* Time left outside the folded gaps; at least 1 ns, so that a trace that
 * is all gap (two events far apart) still maps to finite positions. */
static double unfolded(const lay_axis *a, int64_t folded)
{
    int64_t rest = a->t1 - a->t0 - folded;
    return rest > 0 ? (double)rest : 1.0;
}

/* The gaps of axis `of` that meet a's range, cut to it (unsorted). */
static bool gaps_from(const lay_axis *of, lay_axis *a, cs_err *err)
{
    uint32_t cap = 0;
    for (uint32_t i = 0; i < of->n_gaps; i++) {
        lay_gap g = of->gaps[i];
        g.t0 = g.t0 > a->t0 ? g.t0 : a->t0, g.t1 = g.t1 < a->t1 ? g.t1 : a->t1;
        if (g.t1 <= g.t0)
            continue;
        if (!cs_grow((void **)&a->gaps, &cap, a->n_gaps + 1, sizeof *a->gaps, err))
            return false;
        a->gaps[a->n_gaps++] = g;
    }
    return true;
}

/* Keeps the longest gaps that really shrink when folded, then places them. */
static void place_gaps(lay_axis *a, uint32_t max_gaps, double gw)
{
    if (a->n_gaps > 1)
        qsort(a->gaps, a->n_gaps, sizeof *a->gaps, gap_by_len_desc);
    uint32_t lim = (uint32_t)(0.5 / gw);
    uint32_t n = a->n_gaps < max_gaps ? a->n_gaps : max_gaps;
    n = n < lim ? n : lim;
    int64_t folded = 0;
    for (uint32_t i = 0; i < n; i++)
        folded += a->gaps[i].t1 - a->gaps[i].t0;
    /* drop the shortest while folding would widen it */
    while (n > 0) {
        double scale = (1.0 - n * gw) / unfolded(a, folded);
        if ((double)(a->gaps[n - 1].t1 - a->gaps[n - 1].t0) * scale > gw)
            break;
        n--;
        folded -= a->gaps[n].t1 - a->gaps[n].t0;
    }
    a->n_gaps = n;
    if (n > 1)
        qsort(a->gaps, n, sizeof *a->gaps, gap_by_time);
    a->ns_scale = (1.0 - n * gw) / unfolded(a, folded);
    double x = 0;
    int64_t t = a->t0;
    for (uint32_t i = 0; i < n; i++) {
        lay_gap *g = &a->gaps[i];
        g->x0 = x + (double)(g->t0 - t) * a->ns_scale;
        g->x1 = g->x0 + gw;
        x = g->x1;
        t = g->t1;
    }
}

bool lay_axis_build(const cs_model *m, const lay_axis_desc *d, lay_axis *out, cs_err *err)
{
    memset(out, 0, sizeof *out);
    out->kind = d->kind;
    out->origin = m->t_first;
    out->t0 = d->t0 != d->t1 ? d->t0 : m->t_first;
    out->t1 = d->t0 != d->t1 ? d->t1 : m->t_last;
    if (out->t1 <= out->t0)
        out->t1 = out->t0 + 1;
    int64_t range = out->t1 - out->t0;
    out->log_u = d->log_unit_ns > 0 ? d->log_unit_ns : fmax((double)range / 1e4, 1.0);
    out->ns_scale = 1.0 / (double)range;
    if (d->kind != LAY_AXIS_GAPS)
        return true;
    int64_t min_ns = d->gap_min_ns > 0 ? d->gap_min_ns : range / 50;
    if (min_ns < 1)
        min_ns = 1;
    if (!(d->gaps_of ? gaps_from(d->gaps_of, out, err) : find_gaps(m, out, min_ns, err)))
        return false;
    place_gaps(out, d->max_gaps ? d->max_gaps : 32, d->gap_width > 0 ? d->gap_width : 0.02);
    return true;
}

void lay_axis_deinit(lay_axis *a)
{
    cs_free(a->gaps);
    memset(a, 0, sizeof *a);
}

/* Index of the last gap starting at or before t, or -1. */
static int64_t gap_before_t(const lay_axis *a, int64_t t)
{
    int64_t lo = 0, hi = (int64_t)a->n_gaps - 1, r = -1;
    while (lo <= hi) {
        int64_t mid = (lo + hi) / 2;
        if (a->gaps[mid].t0 <= t) r = mid, lo = mid + 1;
        else hi = mid - 1;
    }
    return r;
}

double lay_axis_x(const lay_axis *a, int64_t t)
{
    if (t <= a->t0) return 0;
    if (t >= a->t1) return 1;
    double dt = (double)(t - a->t0);
    if (a->kind == LAY_AXIS_LOG)
        return log1p(dt / a->log_u) / log1p((double)(a->t1 - a->t0) / a->log_u);
    int64_t i = a->kind == LAY_AXIS_GAPS ? gap_before_t(a, t) : -1;
    if (i < 0)
        return dt * a->ns_scale;
    const lay_gap *g = &a->gaps[i];
    if (t < g->t1)
        return g->x0 + (g->x1 - g->x0) * (double)(t - g->t0) / (double)(g->t1 - g->t0);
    double x = g->x1 + (double)(t - g->t1) * a->ns_scale;
    return x < 1 ? x : 1;
}

int64_t lay_axis_t(const lay_axis *a, double x)
{
    if (x <= 0) return a->t0;
    if (x >= 1) return a->t1;
    double range = (double)(a->t1 - a->t0);
    if (a->kind == LAY_AXIS_LOG)
        return a->t0 + (int64_t)llround(a->log_u * expm1(x * log1p(range / a->log_u)));
    int64_t lo = 0, hi = (int64_t)a->n_gaps - 1, r = -1;
    while (lo <= hi) {
        int64_t mid = (lo + hi) / 2;
        if (a->gaps[mid].x0 <= x) r = mid, lo = mid + 1;
        else hi = mid - 1;
    }
    if (r < 0)
        return a->t0 + (int64_t)llround(x / a->ns_scale);
    const lay_gap *g = &a->gaps[r];
    if (x < g->x1)
        return g->t0 + (int64_t)llround((double)(g->t1 - g->t0) * (x - g->x0) / (g->x1 - g->x0));
    int64_t t = g->t1 + (int64_t)llround((x - g->x1) / a->ns_scale);
    return t < a->t1 ? t : a->t1;
}
