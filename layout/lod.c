/* layout/lod.c — per-column span summaries of lod.h (bundles: bundle.c).
 * Spans: goroutines are grouped by lane (counting sort); per lane, each span
 * adds its coverage to a difference array per mark (partial columns at the
 * two ends added directly), so a span's cost does not depend on how many
 * columns it covers. lay_lod_build makes the bundles on a second thread
 * meanwhile. */
#include "lod.h"
#include "palette.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Adds coverage [x0, x1) (in columns) to acc (per column) and its diff array. */
static void cover(float *acc, float *diff, uint32_t cols, double x0, double x1)
{
    if (x1 <= x0)
        return;
    uint32_t c0 = (uint32_t)x0, c1 = (uint32_t)x1;
    if (c0 >= cols) return;
    if (c1 >= cols) c1 = cols - 1, x1 = cols;
    if (c0 == c1) {
        acc[c0] += (float)(x1 - x0);
        return;
    }
    acc[c0] += (float)(c0 + 1 - x0);
    acc[c1] += (float)(x1 - c1);
    diff[c0 + 1] += 1; /* full columns c0+1 .. c1-1 */
    diff[c1] -= 1;
}

/* Time → column position through the times of the column boundaries
 * (lay_axis_t of each), linear inside a column: exact for the linear and
 * gap-folding mappings, within a pixel for the log one, and no logarithm
 * per span. Spans come in time order per goroutine, so the search starts
 * at the last column found and gallops. */
typedef struct colmap {
    int64_t *tb;          /* cols + 1 boundaries, non-decreasing */
    uint32_t cols, cur;
} colmap;

static double col_of(colmap *m, int64_t t)
{
    const int64_t *tb = m->tb;
    if (t <= tb[0])
        return 0;
    if (t >= tb[m->cols])
        return m->cols;
    uint32_t lo = 0, hi = m->cur; /* find the last c < cols with tb[c] <= t, in [lo, hi] */
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
    m->cur = lo;
    int64_t w = tb[lo + 1] - tb[lo];
    return lo + (w > 0 ? (double)(t - tb[lo]) / (double)w : 0);
}

/* acc and diff are zero on entry and left zero: only the marks the lane
 * uses are summed, searched and cleared. */
static void lane_summary(const cs_model *m, const lay_axis *a, colmap *cm, const uint32_t *gs, uint32_t ng,
                         uint32_t cols, float *acc, float *diff, uint8_t *row, uint32_t *n_spans)
{
    uint32_t used = 0;
    for (uint32_t k = 0; k < ng; k++) {
        const cs_goroutine *g = &m->g[gs[k]];
        cm->cur = 0;
        uint32_t end = g->span_first + g->span_count;
        bool have = false; /* a span mostly begins where the last one ended: its column is known */
        int64_t t_end = 0;
        double x_end = 0;
        for (uint32_t s = cs_model_span_after(m, g, a->t0); s < end && m->span_t0[s] < a->t1; s++) {
            lay_mark mk = lay_mark_of((cs_state)m->span_state[s], (cs_reason)m->span_reason[s]);
            if (mk == LAY_MARK_NONE)
                continue;
            (*n_spans)++;
            used |= 1u << mk;
            double x0 = have && t_end == m->span_t0[s] ? x_end : col_of(cm, m->span_t0[s]);
            t_end = cs_span_t1(m, s), x_end = col_of(cm, t_end), have = true;
            cover(acc + (size_t)mk * cols, diff + (size_t)mk * (cols + 1), cols, x0, x_end);
        }
    }
    for (uint32_t mk = 1; mk < LAY_MARK_COUNT; mk++) {
        if (!(used & 1u << mk))
            continue;
        float run = 0, *ac = acc + (size_t)mk * cols, *df = diff + (size_t)mk * (cols + 1);
        for (uint32_t c = 0; c < cols; c++)
            run += df[c], ac[c] += run;
    }
    for (uint32_t c = 0; c < cols; c++) {
        uint8_t b = LAY_MARK_NONE;
        float bv = 0.05f; /* under 5 % of a pixel: nothing there */
        for (uint32_t mk = 1; mk < LAY_MARK_COUNT; mk++)
            if ((used & 1u << mk) && acc[(size_t)mk * cols + c] > bv)
                bv = acc[(size_t)mk * cols + c], b = (uint8_t)mk;
        row[c] = b;
    }
    for (uint32_t mk = 1; mk < LAY_MARK_COUNT; mk++)
        if (used & 1u << mk) {
            memset(acc + (size_t)mk * cols, 0, (size_t)cols * sizeof *acc);
            memset(diff + (size_t)mk * (cols + 1), 0, ((size_t)cols + 1) * sizeof *diff);
        }
}

bool lay_lod_spans(const cs_model *m, const lay_axis *a, const lay_lanes *l, uint32_t lane0,
                   uint32_t lane1, uint32_t cols, lay_lod *out, cs_err *err)
{
    memset(out, 0, sizeof *out);
    if (lane1 > l->n_lanes) lane1 = l->n_lanes;
    if (lane0 > lane1) lane0 = lane1;
    uint32_t nl = lane1 - lane0;
    out->lane0 = lane0, out->n_lanes = nl, out->n_cols = cols;
    out->mark = cs_calloc((size_t)nl * cols + 1, 1);
    out->n_spans = cs_calloc((size_t)nl + 1, sizeof *out->n_spans);
    uint32_t *first = cs_calloc((size_t)nl + 1, sizeof *first);
    uint32_t *gs = cs_alloc((size_t)m->n_g * sizeof *gs + 1);
    float *acc = cs_calloc((size_t)cols * LAY_MARK_COUNT + 1, sizeof *acc);
    float *diff = cs_calloc(((size_t)cols + 1) * LAY_MARK_COUNT, sizeof *diff);
    colmap cm = {.tb = cs_alloc(((size_t)cols + 1) * sizeof *cm.tb), .cols = cols};
    bool ok = out->mark && out->n_spans && first && gs && acc && diff && cm.tb;
    for (uint32_t c = 0; ok && c <= cols; c++)
        cm.tb[c] = c ? lay_axis_t(a, (double)c / cols) : a->t0;
    if (ok) { /* goroutines grouped by lane */
        for (uint32_t g = 1; g < m->n_g; g++)
            if (l->lane_of_g[g] >= lane0 && l->lane_of_g[g] < lane1)
                first[l->lane_of_g[g] - lane0 + 1]++;
        for (uint32_t i = 1; i <= nl; i++)
            first[i] += first[i - 1];
        for (uint32_t g = 1; g < m->n_g; g++)
            if (l->lane_of_g[g] >= lane0 && l->lane_of_g[g] < lane1)
                gs[first[l->lane_of_g[g] - lane0]++] = g;
        for (uint32_t i = nl; i > 0; i--) /* undo the cursor shift */
            first[i] = first[i - 1];
        first[0] = 0;
        for (uint32_t i = 0; i < nl; i++)
            lane_summary(m, a, &cm, gs + first[i], first[i + 1] - first[i], cols, acc, diff,
                         out->mark + (size_t)i * cols, &out->n_spans[i]);
    }
    cs_free(first), cs_free(gs), cs_free(acc), cs_free(diff), cs_free(cm.tb);
    if (!ok) {
        lay_lod_deinit(out);
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory summarising %u lanes", nl);
    }
    return true;
}

typedef struct bundle_job {
    const cs_model *m;
    const lay_axis *a;
    const lay_lanes *l;
    uint32_t cols, max_bundles;
    lay_bundles *out;
    cs_err err;
    bool ok;
} bundle_job;

static void *bundle_work(void *arg)
{
    bundle_job *j = arg;
    j->ok = lay_lod_arrows(j->m, j->a, j->l, j->cols, j->max_bundles, j->out, &j->err);
    return NULL;
}

bool lay_lod_build(const cs_model *m, const lay_axis *a, const lay_lanes *l, uint32_t lane0, uint32_t lane1,
                   uint32_t cols, uint32_t arrow_cols, uint32_t max_bundles, lay_lod *lod, lay_bundles *bun,
                   cs_err *err)
{
    bundle_job j = {.m = m, .a = a, .l = l, .cols = arrow_cols, .max_bundles = max_bundles, .out = bun};
    pthread_t th;
    bool two = pthread_create(&th, NULL, bundle_work, &j) == 0;
    bool ok = lay_lod_spans(m, a, l, lane0, lane1, cols, lod, err);
    if (two)
        pthread_join(th, NULL);
    else if (ok)
        bundle_work(&j);
    if (ok && !j.ok)
        *err = j.err;
    if (ok && j.ok)
        return true;
    lay_lod_deinit(lod);
    if (two || ok)
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
