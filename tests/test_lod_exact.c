/* tests/test_lod_exact.c — the level of detail (layout/lod.h) against the
 * full detail it stands for, on every corpus trace (tests/data/corpus and,
 * when present, ../shared/traces/corpus and gotrace-patched): per lane and
 * pixel column, the mark lay_lod_spans and lay_lod_build choose equals the
 * one a plain sum over every span gives, and the arrow bundles of
 * lay_lod_arrows equal a plain count of every message, sync wake-up and
 * spawn per (kind, sender lane, receiver lane, column of the send): key,
 * count, representative, n_arrows. Coarsened bundles (max_bundles) equal
 * the same count on the coarser grid they report; the bundles do not
 * depend on the model's time blocks, nor on how many threads made them,
 * and a budget stops the columns' halving at the first grid within it.
 * Windows: the whole trace, a 1.25× zoom at the centre, 8× and 64× zooms
 * at a third, the first and last sixteenth, and 97 ns (narrower than most
 * column counts), in the linear, log and gap-folding mappings, in 1, 7,
 * 640 and 1921 columns; not every combination (see windows, lane_sets and
 * check_file), so that the test stays quick under the sanitizers. */
#define _XOPEN_SOURCE 700
#include "testlib.h"
#include "synth.h"

#include "../layout/axis.h"
#include "../layout/internal.h"
#include "../layout/lanes.h"
#include "../layout/lod.h"
#include "../layout/palette.h"
#include "../traffic/internal.h"

#include <ftw.h>

static int files, cases, failures;

#define MAX_SAID 12 /* mismatches printed in full; all are counted */

static void mismatch(const char *fmt, ...)
{
    if (failures++ < MAX_SAID) {
        char buf[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(buf, sizeof buf, fmt, ap);
        va_end(ap);
        print_message("%s\n", buf);
    }
}

/* What one case is, for messages. */
typedef struct where {
    const char *path, *window, *lanes;
    int axis;
    uint32_t cols;
} where;

static const char *const axis_names[] = {"linear", "log", "gaps"};

#define WHERE_FMT "%s, window %s, %s axis, lanes %s, %u columns"
#define WHERE_ARGS(w) (w)->path, (w)->window, axis_names[(w)->axis], (w)->lanes, (w)->cols

/* ---- spans ----------------------------------------------------------- */

/* The boundaries of the columns, as lod.h defines them: column c is
 * [tb[c], tb[c+1]). */
static int64_t *boundaries(const lay_axis *a, uint32_t cols)
{
    int64_t *tb = malloc(((size_t)cols + 1) * sizeof *tb);
    assert_non_null(tb);
    for (uint32_t c = 0; c <= cols; c++)
        tb[c] = c ? lay_axis_t(a, (double)c / cols) : a->t0;
    return tb;
}

/* The reference: per lane, every span of every goroutine in it adds the
 * nanoseconds it shares with each column to its mark; a column of no width
 * (at time T) counts the spans that reach T, t0 < T <= t1, as lod.c does.
 * The mark of a column is the one with the largest sum, the lowest mark of
 * equal ones, if the sum is more than a twentieth of the column in whole
 * nanoseconds (lod.c's "at least 5 %"), or any, for a column of no width.
 * n_spans: per lane, the spans with a mark that meet the window. */
static void ref_marks(const cs_model *m, const lay_axis *a, const lay_lanes *l, const int64_t *tb, uint32_t cols,
                      uint8_t *mark, uint32_t *n_spans)
{
    int64_t *sum = calloc((size_t)cols * LAY_MARK_COUNT, sizeof *sum);
    uint32_t *by_lane = calloc((size_t)m->n_g + 1, sizeof *by_lane);
    uint32_t *first = calloc((size_t)l->n_lanes + 2, sizeof *first);
    assert_true(sum && by_lane && first);
    /* the goroutines by lane: lane i's are by_lane[first[i] .. first[i+1]) */
    for (uint32_t g = 1; g < m->n_g; g++)
        if (l->lane_of_g[g] != LAY_NO_LANE)
            first[l->lane_of_g[g] + 2]++;
    for (uint32_t i = 2; i <= l->n_lanes + 1; i++)
        first[i] += first[i - 1];
    for (uint32_t g = 1; g < m->n_g; g++)
        if (l->lane_of_g[g] != LAY_NO_LANE)
            by_lane[first[l->lane_of_g[g] + 1]++] = g;
    for (uint32_t lane = 0; lane < l->n_lanes; lane++) {
        memset(sum, 0, (size_t)cols * LAY_MARK_COUNT * sizeof *sum);
        n_spans[lane] = 0;
        for (uint32_t k = first[lane]; k < first[lane + 1]; k++) {
            uint32_t g = by_lane[k];
            for (uint32_t s = m->g[g].span_first; s < m->g[g].span_first + m->g[g].span_count; s++) {
                lay_mark mk = lay_mark_of(cs_span_state(m, s), cs_span_reason(m, s));
                if (mk == LAY_MARK_NONE)
                    continue;
                int64_t t0 = cs_span_t0(m, s), t1 = cs_span_t1(m, s);
                if (t1 > a->t0 && t0 < a->t1)
                    n_spans[lane]++;
                /* the first column that can meet the span: the first whose end is not before t0 */
                uint32_t lo = 0, hi = cols;
                while (lo < hi) {
                    uint32_t mid = lo + (hi - lo) / 2;
                    if (tb[mid + 1] < t0)
                        lo = mid + 1;
                    else
                        hi = mid;
                }
                for (uint32_t c = lo; c < cols && tb[c] <= t1; c++) {
                    int64_t *v = &sum[(size_t)c * LAY_MARK_COUNT + mk];
                    if (tb[c + 1] == tb[c]) {
                        *v += t0 < tb[c] && tb[c] <= t1;
                    } else {
                        int64_t from = t0 > tb[c] ? t0 : tb[c], to = t1 < tb[c + 1] ? t1 : tb[c + 1];
                        *v += to > from ? to - from : 0;
                    }
                }
            }
        }
        for (uint32_t c = 0; c < cols; c++) {
            int64_t w = tb[c + 1] - tb[c], best = 0;
            uint8_t b = LAY_MARK_NONE;
            for (uint32_t mk = 1; mk < LAY_MARK_COUNT; mk++) {
                int64_t v = sum[(size_t)c * LAY_MARK_COUNT + mk];
                if (v > best)
                    best = v, b = (uint8_t)mk;
            }
            mark[(size_t)lane * cols + c] = best > w / 20 ? b : LAY_MARK_NONE;
        }
    }
    free(sum), free(by_lane), free(first);
}

static void compare_lod(const where *w, const char *what, const lay_lod *d, const uint8_t *mark,
                        const uint32_t *n_spans, const int64_t *tb, uint32_t lane0, uint32_t lane1)
{
    if (d->lane0 != lane0 || d->n_lanes != lane1 - lane0 || d->n_cols != w->cols) {
        mismatch(WHERE_FMT ": %s covers lanes %u+%u × %u columns, not %u+%u × %u", WHERE_ARGS(w), what, d->lane0,
                 d->n_lanes, d->n_cols, lane0, lane1 - lane0, w->cols);
        return;
    }
    for (uint32_t lane = lane0; lane < lane1; lane++) {
        if (d->n_spans[lane - lane0] != n_spans[lane])
            mismatch(WHERE_FMT ": %s lane %u: %u spans in the window, expected %u", WHERE_ARGS(w), what, lane,
                     d->n_spans[lane - lane0], n_spans[lane]);
        for (uint32_t c = 0; c < w->cols; c++) {
            uint8_t want = mark[(size_t)lane * w->cols + c], got = lay_lod_at(d, lane, c);
            if (want != got)
                mismatch(WHERE_FMT ": %s lane %u column %u [%lld, %lld): expected mark %u, got %u", WHERE_ARGS(w),
                         what, lane, c, (long long)tb[c], (long long)tb[c + 1], want, got);
        }
    }
}

/* ---- arrows ---------------------------------------------------------- */

typedef struct arrow {
    int64_t t0, t1;
    uint32_t from, to, chan, idx, col;
    uint8_t kind;
} arrow;

typedef struct arrows {
    arrow *a;
    uint32_t n, cap;
    uint32_t n_kind[LAY_ARROW_COUNT];
} arrows;

/* An arrow the pictures draw, with bundle.c's rules: both goroutines
 * known and shown, both times known, meeting the axis' range; its column
 * is the one its send is drawn in. */
static void arrow_add(arrows *v, const cs_model *m, const lay_axis *a, const lay_lanes *l, uint32_t cols,
                      lay_arrow_kind k, int64_t t0, int64_t t1, uint32_t gf, uint32_t gt, uint32_t chan,
                      uint32_t idx)
{
    if (gf == 0 || gt == 0 || gf >= m->n_g || gt >= m->n_g)
        return;
    if (l->lane_of_g[gf] == LAY_NO_LANE || l->lane_of_g[gt] == LAY_NO_LANE || t0 == CS_T_NONE || t1 == CS_T_NONE)
        return;
    if (t1 < a->t0 || t0 > a->t1)
        return;
    double x = lay_axis_x(a, t0) * cols;
    if (v->n == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 256;
        v->a = realloc(v->a, v->cap * sizeof *v->a);
        assert_non_null(v->a);
    }
    v->a[v->n++] = (arrow){.t0 = t0, .t1 = t1 < t0 ? t0 : t1, .from = l->lane_of_g[gf], .to = l->lane_of_g[gt],
                           .chan = chan, .idx = idx, .col = x >= cols ? cols - 1 : (uint32_t)x, .kind = (uint8_t)k};
    v->n_kind[k]++;
}

static void all_arrows(arrows *v, const cs_model *m, const lay_axis *a, const lay_lanes *l, uint32_t cols)
{
    memset(v, 0, sizeof *v);
    for (uint32_t i = 0; i < m->n_msgs; i++) {
        arrow_add(v, m, a, l, cols, lay_msg_arrow(&m->msgs[i]), cs_msg_t_send(m, i), cs_msg_t_recv(m, i),
                  cs_msg_sender(m, i), cs_msg_receiver(m, i), cs_msg_chan(m, i), i);
    }
    for (uint32_t i = 1; i < m->n_edges; i++) {
        const cs_edge *e = &m->edges[i];
        if (lay_edge_arrow(e) == LAY_ARROW_SYNC)
            arrow_add(v, m, a, l, cols, LAY_ARROW_SYNC, cs_edge_ts(m, i), cs_edge_ts(m, i), e->from, e->to, 0, i);
    }
    for (uint32_t g = 1; g < m->n_g; g++)
        if (m->g[g].parent)
            arrow_add(v, m, a, l, cols, LAY_ARROW_SPAWN, m->g[g].create_ns, m->g[g].create_ns, m->g[g].parent, g,
                      0, g);
}

/* The grid of a bundling: columns shifted right by g_cs, lanes by g_ls. */
static unsigned g_cs, g_ls;

#define CMP(a, b) \
    do { \
        if ((a) != (b)) \
            return (a) < (b) ? -1 : 1; \
    } while (0)

static int cell_cmp(const arrow *x, const arrow *y)
{
    CMP(x->kind, y->kind);
    CMP(x->from >> g_ls, y->from >> g_ls);
    CMP(x->to >> g_ls, y->to >> g_ls);
    CMP(x->col >> g_cs, y->col >> g_cs);
    return 0;
}

/* by cell, then earliest first */
static int by_cell(const void *pa, const void *pb)
{
    const arrow *x = pa, *y = pb;
    int r = cell_cmp(x, y);
    if (r)
        return r;
    CMP(x->t0, y->t0);
    CMP(x->idx, y->idx);
    return 0;
}

static int by_time(const void *pa, const void *pb)
{
    const lay_bundle *x = pa, *y = pb;
    CMP(x->t0, y->t0);
    CMP(x->kind, y->kind);
    CMP(x->from >> g_ls, y->from >> g_ls);
    CMP(x->to >> g_ls, y->to >> g_ls);
    CMP(x->col, y->col);
    return 0;
}

/* The bundles of v on the grid (col_shift, lane_shift): one per cell
 * holding arrows, drawn as its earliest arrow (the lowest index of equal
 * ones), with the cell's count, in time order (then kind, from, to, col). */
static lay_bundle *ref_bundles(arrows *v, unsigned col_shift, unsigned lane_shift, uint32_t *n)
{
    g_cs = col_shift, g_ls = lane_shift;
    if (v->n)
        qsort(v->a, v->n, sizeof *v->a, by_cell);
    lay_bundle *b = calloc((size_t)v->n + 1, sizeof *b);
    assert_non_null(b);
    *n = 0;
    for (uint32_t i = 0; i < v->n; i++) {
        const arrow *x = &v->a[i];
        if (i && cell_cmp(x, &v->a[i - 1]) == 0) {
            b[*n - 1].count++;
            continue;
        }
        b[(*n)++] = (lay_bundle){.t0 = x->t0, .t1 = x->t1, .from = x->from, .to = x->to, .count = 1,
                                 .chan = x->chan, .first = x->idx, .col = x->col >> col_shift, .kind = x->kind};
    }
    if (*n)
        qsort(b, *n, sizeof *b, by_time);
    return b;
}

/* First difference between bundles got and want, or -1. */
static int64_t bundles_differ(const lay_bundle *got, uint32_t n_got, const lay_bundle *want, uint32_t n_want)
{
    for (uint32_t i = 0; i < n_got && i < n_want; i++) {
        const lay_bundle *x = &got[i], *y = &want[i];
        if (x->t0 != y->t0 || x->t1 != y->t1 || x->from != y->from || x->to != y->to || x->count != y->count ||
            x->chan != y->chan || x->first != y->first || x->col != y->col || x->kind != y->kind)
            return i;
    }
    return n_got == n_want ? -1 : (int64_t)(n_got < n_want ? n_got : n_want);
}

static void say_bundle_diff(const where *w, const char *what, const lay_bundles *got, const lay_bundle *want,
                            uint32_t n_want, int64_t i)
{
    char g[160] = "none", e[160] = "none";
    if (i < got->n) {
        const lay_bundle *x = &got->b[i];
        snprintf(g, sizeof g, "kind %u lanes %u->%u col %u count %u first %u t0 %lld", x->kind, x->from, x->to,
                 x->col, x->count, x->first, (long long)x->t0);
    }
    if (i < n_want) {
        const lay_bundle *x = &want[i];
        snprintf(e, sizeof e, "kind %u lanes %u->%u col %u count %u first %u t0 %lld", x->kind, x->from, x->to,
                 x->col, x->count, x->first, (long long)x->t0);
    }
    mismatch(WHERE_FMT ": %s bundle %lld of %u (expected %u): expected %s, got %s", WHERE_ARGS(w), what,
             (long long)i, got->n, n_want, e, g);
}

static bool same_bundles(const lay_bundles *x, const lay_bundles *y)
{
    return x->n == y->n && x->cols == y->cols && memcmp(x->n_arrows, y->n_arrows, sizeof x->n_arrows) == 0 &&
           (x->n == 0 || memcmp(x->b, y->b, (size_t)x->n * sizeof *x->b) == 0);
}

/* Bundles without a limit equal the reference on the full grid. */
static void check_exact_bundles(const where *w, const char *what, const lay_bundles *got, arrows *v)
{
    if (memcmp(got->n_arrows, v->n_kind, sizeof v->n_kind) != 0)
        mismatch(WHERE_FMT ": %s arrows per kind %u %u %u %u, expected %u %u %u %u", WHERE_ARGS(w), what,
                 got->n_arrows[0], got->n_arrows[1], got->n_arrows[2], got->n_arrows[3], v->n_kind[0],
                 v->n_kind[1], v->n_kind[2], v->n_kind[3]);
    if (got->cols != w->cols)
        mismatch(WHERE_FMT ": %s made in %u columns", WHERE_ARGS(w), what, got->cols);
    uint32_t n;
    lay_bundle *want = ref_bundles(v, 0, 0, &n);
    int64_t i = bundles_differ(got->b, got->n, want, n);
    if (i >= 0)
        say_bundle_diff(w, what, got, want, n, i);
    free(want);
}

/* Bundles within max_bundles: as many as allowed, counting every arrow,
 * and equal to the reference on the grid they were made in (columns
 * halved as many times as got->cols says; lanes grouped by some power of
 * two, which the result does not tell, so each is tried). */
static void check_fitted_bundles(const where *w, const lay_bundles *got, arrows *v, uint32_t max_bundles)
{
    uint64_t sum = 0, total = 0;
    for (uint32_t i = 0; i < got->n; i++)
        sum += got->b[i].count;
    for (int k = 0; k < LAY_ARROW_COUNT; k++)
        total += v->n_kind[k];
    if (sum != total || memcmp(got->n_arrows, v->n_kind, sizeof v->n_kind) != 0 || got->n > max_bundles)
        mismatch(WHERE_FMT ": %u bundles within %u count %llu arrows, expected %llu", WHERE_ARGS(w), got->n,
                 max_bundles, (unsigned long long)sum, (unsigned long long)total);
    unsigned cs = 0;
    for (uint32_t c = w->cols; c > got->cols; c = (c + 1) / 2)
        cs++;
    for (unsigned ls = 0; ls <= 20; ls++) {
        uint32_t n;
        lay_bundle *want = ref_bundles(v, cs, ls, &n);
        bool same = bundles_differ(got->b, got->n, want, n) < 0;
        free(want);
        if (same)
            return;
    }
    mismatch(WHERE_FMT ": %u bundles within %u (in %u columns) are no grid's", WHERE_ARGS(w), got->n, max_bundles,
             got->cols);
}

/* ---- one case -------------------------------------------------------- */

#define FIT 64 /* a small budget of bundles */

/* What a case checks beyond the marks and the bundles of lay_lod_spans and
 * lay_lod_arrows. */
enum {
    DO_BAND = 1,      /* lay_lod_spans on lanes [1, n - 1) */
    DO_BUILD = 2,     /* lay_lod_build: the same marks and bundles */
    DO_UNBLOCKED = 4, /* the same bundles from a model without time blocks */
    DO_FIT = 8,       /* bundles within FIT, and the same on one thread */
};

static void check_case(const where *w, const cs_model *m, const cs_model *unblocked, const lay_axis *a,
                       const lay_lanes *l, unsigned what)
{
    cases++;
    uint32_t cols = w->cols;
    cs_err err = {0};
    int64_t *tb = boundaries(a, cols);
    uint8_t *mark = calloc((size_t)l->n_lanes * cols + 1, 1);
    uint32_t *n_spans = calloc((size_t)l->n_lanes + 1, sizeof *n_spans);
    assert_true(mark && n_spans);
    ref_marks(m, a, l, tb, cols, mark, n_spans);

    lay_lod d;
    assert_true(lay_lod_spans(m, a, l, 0, l->n_lanes, cols, &d, &err));
    compare_lod(w, "lay_lod_spans", &d, mark, n_spans, tb, 0, l->n_lanes);
    lay_lod_deinit(&d);
    if ((what & DO_BAND) && l->n_lanes > 2) {
        assert_true(lay_lod_spans(m, a, l, 1, l->n_lanes - 1, cols, &d, &err));
        compare_lod(w, "lay_lod_spans (lanes 1 to n-1)", &d, mark, n_spans, tb, 1, l->n_lanes - 1);
        lay_lod_deinit(&d);
    }

    arrows v;
    all_arrows(&v, m, a, l, cols);
    lay_bundles b, b2;
    assert_true(lay_lod_arrows(m, a, l, cols, 0, &b, &err));
    check_exact_bundles(w, "lay_lod_arrows", &b, &v);
    if (what & DO_BUILD) {
        assert_true(lay_lod_build(m, a, l, 0, l->n_lanes, cols, cols, 0, &d, &b2, &err));
        compare_lod(w, "lay_lod_build", &d, mark, n_spans, tb, 0, l->n_lanes);
        if (!same_bundles(&b, &b2))
            mismatch(WHERE_FMT ": lay_lod_build's bundles differ from lay_lod_arrows'", WHERE_ARGS(w));
        lay_lod_deinit(&d);
        lay_bundles_deinit(&b2);
    }
    if (what & DO_UNBLOCKED) {
        assert_true(lay_lod_arrows(unblocked, a, l, cols, 0, &b2, &err));
        if (!same_bundles(&b, &b2))
            mismatch(WHERE_FMT ": bundles differ without the time blocks", WHERE_ARGS(w));
        lay_bundles_deinit(&b2);
    }
    lay_bundles_deinit(&b);
    if (what & DO_FIT) {
        assert_true(lay_lod_arrows(m, a, l, cols, FIT, &b, &err));
        check_fitted_bundles(w, &b, &v, FIT);
        assert_true(lay__arrows(m, a, l, cols, FIT, false, &b2, &err));
        if (!same_bundles(&b, &b2))
            mismatch(WHERE_FMT ": bundles within %u differ on one thread", WHERE_ARGS(w), FIT);
        lay_bundles_deinit(&b2);
        lay_bundles_deinit(&b);
    }
    free(v.a);
    free(tb), free(mark), free(n_spans);
}

/* ---- every trace ----------------------------------------------------- */

typedef struct window {
    const char *name;
    double at, zoom; /* centre (fraction of the trace) and magnification; 0: the whole trace */
    int64_t ns;      /* or a width in ns, when not 0 */
    uint32_t max_cols; /* the column counts it is checked in */
} window;

/* The windows; 1921 columns (where the log mapping and the narrow window
 * make columns of no width) only in some, to keep the test quick under the
 * sanitizers. */
static const window windows[] = {
    {"whole", 0, 0, 0, 1921},          {"8x third", 1.0 / 3, 8, 0, 640},
    {"1.25x centre", 0.5, 1.25, 0, 640}, {"64x third", 1.0 / 3, 64, 0, 1921},
    {"first 16th", 1.0 / 32, 16, 0, 1921}, {"last 16th", 1 - 1.0 / 32, 16, 0, 640},
    {"97 ns", 1.0 / 3, 0, 97, 1921},
};
#define N_WINDOWS (sizeof windows / sizeof *windows)

static const uint32_t col_counts[] = {1, 7, 640, 1921};
#define N_COLS (sizeof col_counts / sizeof *col_counts)

/* The lanes, and how many of the windows (the first ones) each is checked
 * in: the full product of lanes, windows, mappings and column counts takes
 * minutes under the sanitizers, so compact and collapsed lanes are checked
 * in the whole trace and the 8x zoom only. */
static const struct {
    const char *name;
    lay_lanes_desc d;
    size_t n_windows;
} lane_sets[] = {
    {"default", {0}, N_WINDOWS},
    {"compact", {.compact = true}, 2},
    {"collapsed", {.collapse = true, .show_system = true}, 2},
};
#define N_LANE_SETS (sizeof lane_sets / sizeof *lane_sets)

/* The window's range in model time; false when the trace is too short for
 * it. */
static bool window_range(const cs_model *m, const window *wn, int64_t *t0, int64_t *t1)
{
    int64_t span = m->t_last - m->t_first;
    if (wn->zoom == 0 && wn->ns == 0) {
        *t0 = *t1 = 0;
        return true;
    }
    int64_t width = wn->ns ? wn->ns : (int64_t)((double)span / wn->zoom);
    if (width < 1 || width >= span)
        return false;
    int64_t c = m->t_first + (int64_t)((double)span * wn->at);
    *t0 = c - width / 2;
    *t0 = *t0 < m->t_first ? m->t_first : *t0 + width > m->t_last ? m->t_last - width : *t0;
    *t1 = *t0 + width;
    return true;
}

/* Every case of a trace: the marks and exact bundles in each; with the
 * default lanes at 640 columns, the bundles within FIT, and in the first
 * two windows lay_lod_build, a band of lanes and the model without time
 * blocks too. Compact and collapsed lanes: up to 640 columns. */
static void check_file(const char *path)
{
    cs_file f;
    cs_model m, ub;
    cs_err err = {0};
    if (!tl_load(path, &f, &m, NULL, &err)) {
        print_message("%s: %s\n", path, err.msg);
        failures++;
        cs_model_deinit(&m), cs_file_unmap(&f);
        return;
    }
    files++;
    assert_true(cs_model_copy(&m, &ub, &err));
    ub.n_msg_block = ub.n_sync_block = 0;
    for (size_t ls = 0; ls < N_LANE_SETS; ls++) {
        lay_lanes l;
        assert_true(lay_lanes_build(&m, &lane_sets[ls].d, &l, &err));
        for (size_t wi = 0; wi < lane_sets[ls].n_windows; wi++)
            for (int k = LAY_AXIS_LINEAR; k <= LAY_AXIS_GAPS; k++) {
                lay_axis_desc ad = {.kind = (lay_axis_kind)k};
                if (!window_range(&m, &windows[wi], &ad.t0, &ad.t1))
                    continue;
                lay_axis a;
                assert_true(lay_axis_build(&m, &ad, &a, &err));
                for (size_t ci = 0; ci < N_COLS; ci++) {
                    uint32_t cols = col_counts[ci];
                    if (cols > windows[wi].max_cols || (ls && cols > 640))
                        continue;
                    where w = {path, windows[wi].name, lane_sets[ls].name, k, cols};
                    unsigned what = ls || cols != 640 ? 0
                                    : wi < 2      ? DO_BAND | DO_BUILD | DO_UNBLOCKED | DO_FIT
                                                  : DO_FIT;
                    check_case(&w, &m, &ub, &a, &l, what);
                }
                lay_axis_deinit(&a);
            }
        lay_lanes_deinit(&l);
    }
    cs_model_deinit(&ub);
    cs_model_deinit(&m);
    cs_file_unmap(&f);
}

static int visit(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
    (void)sb, (void)ftw;
    size_t n = strlen(path);
    if (type == FTW_F && n > 6 && strcmp(path + n - 6, ".trace") == 0)
        check_file(path);
    return 0;
}

static void corpus_summaries_equal_full_detail(void **state)
{
    (void)state;
    files = cases = failures = 0;
    tl_walk("tests/data/corpus", (const char *const[]){"corpus", "gotrace-patched", NULL}, visit);
    print_message("compared %d traces in %d cases, %d mismatches\n", files, cases, failures);
    assert_true(files > 10);
    assert_int_equal(failures, 0);
}

/* Enough messages for lay_lod_arrows to share them between two threads
 * (bundle.c's SPLIT_MSGS): the same bundles as on one thread and as the
 * reference, with and without time blocks, also in a window that only the
 * first share's messages meet. */
static void many_messages_split_the_same(void **state)
{
    (void)state;
    static const window split_windows[] = {
        {"whole", 0, 0, 0, 640}, {"1.25x centre", 0.5, 1.25, 0, 640}, {"8x third", 1.0 / 3, 8, 0, 640},
        {"last 16th", 1 - 1.0 / 32, 16, 0, 640}};
    cs_model m, ub;
    cs_err err = {0};
    sy_workers(&m, 8, 40000);
    assert_true(m.n_msgs >= 1u << 16);
    assert_true(trf__msg_blocks(&m, &err) && trf__sync_blocks(&m, &err));
    assert_true(cs_model_copy(&m, &ub, &err));
    ub.n_msg_block = ub.n_sync_block = 0;
    failures = 0;
    lay_lanes l;
    assert_true(lay_lanes_build(&m, &(lay_lanes_desc){0}, &l, &err));
    for (size_t wi = 0; wi < sizeof split_windows / sizeof *split_windows; wi++)
        for (int k = LAY_AXIS_LINEAR; k <= LAY_AXIS_GAPS; k++) {
            lay_axis_desc ad = {.kind = (lay_axis_kind)k};
            assert_true(window_range(&m, &split_windows[wi], &ad.t0, &ad.t1));
            lay_axis a;
            assert_true(lay_axis_build(&m, &ad, &a, &err));
            where w = {"sy_workers(8, 40000)", split_windows[wi].name, "default", k, 640};
            check_case(&w, &m, &ub, &a, &l, DO_BAND | DO_BUILD | DO_UNBLOCKED | DO_FIT);
            lay_bundles b1, b2;
            assert_true(lay__arrows(&m, &a, &l, 640, 0, true, &b1, &err));
            assert_true(lay__arrows(&m, &a, &l, 640, 0, false, &b2, &err));
            if (!same_bundles(&b1, &b2))
                mismatch(WHERE_FMT ": bundles differ on one thread", WHERE_ARGS(&w));
            lay_bundles_deinit(&b1), lay_bundles_deinit(&b2);
            lay_axis_deinit(&a);
        }
    lay_lanes_deinit(&l);
    cs_model_deinit(&ub);
    cs_model_deinit(&m);
    assert_int_equal(failures, 0);
}

/* Where the columns' halving stops for a budget of max bundles: with
 * enough messages bundle.c gathers them straight into a coarser grid and
 * counts the finer ones from the columns each bundle took; the bundles
 * must be those of the first grid on the halving's way (1024 columns,
 * halved down to bundle.c's MIN_COLS, 64) with at most max, the same as
 * the reference there. Budgets that stop at the finest grid, in between
 * (gathered again there) and at the coarsest are all met. */
static void bundles_stop_where_halving_stops(void **state)
{
    (void)state;
    cs_model m;
    cs_err err = {0};
    sy_workers(&m, 8, 40000);
    assert_true(m.n_msgs >= 1u << 16); /* bundle.c's SUB_MSGS */
    assert_true(trf__msg_blocks(&m, &err) && trf__sync_blocks(&m, &err));
    lay_lanes l;
    lay_axis a;
    assert_true(lay_lanes_build(&m, &(lay_lanes_desc){0}, &l, &err));
    assert_true(lay_axis_build(&m, &(lay_axis_desc){0}, &a, &err));
    arrows v;
    all_arrows(&v, &m, &a, &l, 1024);
    uint32_t n_at[5]; /* the reference's bundles at 1024, 512, ... 64 columns */
    for (unsigned cs = 0; cs < 5; cs++)
        free(ref_bundles(&v, cs, 0, &n_at[cs]));
    bool stops[5] = {false};
    failures = 0;
    for (unsigned cs = 0; cs < 5; cs++)
        for (int d = -1; d <= 0; d++) { /* just under and at each grid's count */
            uint32_t max = n_at[cs] + (uint32_t)d, stop = 0;
            if (!max)
                continue;
            while (stop < 4 && n_at[stop] > max)
                stop++;
            if (n_at[stop] > max)
                continue; /* lanes grouped next: check_fitted_bundles' case */
            lay_bundles b;
            assert_true(lay_lod_arrows(&m, &a, &l, 1024, max, &b, &err));
            uint32_t n;
            lay_bundle *want = ref_bundles(&v, stop, 0, &n);
            int64_t i = bundles_differ(b.b, b.n, want, n);
            if (i >= 0 || b.cols != 1024u >> stop)
                mismatch("max %u: %u bundles in %u columns, expected %u in %u (first difference at %lld)", max,
                         b.n, b.cols, n, 1024u >> stop, (long long)i);
            stops[stop] = true;
            free(want);
            lay_bundles_deinit(&b);
        }
    assert_true(stops[0] && stops[2] && stops[4]);
    free(v.a);
    lay_axis_deinit(&a);
    lay_lanes_deinit(&l);
    cs_model_deinit(&m);
    assert_int_equal(failures, 0);
}

/* Bundles coarsened below the grid they were made in are what any finer
 * or coarser power-of-two grid above their final one gives
 * (lay_bundles_cover, which the tree view relies on when its wheel changes
 * the grid): the same bytes as made afresh. */
static void coarsened_bundles_cover_other_grids(void **state)
{
    (void)state;
    cs_model m;
    cs_err err = {0};
    sy_workers(&m, 8, 40000);
    assert_true(trf__msg_blocks(&m, &err) && trf__sync_blocks(&m, &err));
    lay_lanes l;
    lay_axis a;
    assert_true(lay_lanes_build(&m, &(lay_lanes_desc){0}, &l, &err));
    assert_true(lay_axis_build(&m, &(lay_axis_desc){0}, &a, &err));
    int covered = 0;
    for (uint32_t max = 16; max <= 4096; max *= 16) {
        lay_bundles b;
        assert_true(lay_lod_arrows(&m, &a, &l, 1024, max, &b, &err));
        for (uint32_t cols = 8; cols <= 8192; cols *= 2) {
            if (!lay_bundles_cover(&b, 1024, cols))
                continue;
            lay_bundles f;
            assert_true(lay_lod_arrows(&m, &a, &l, cols, max, &f, &err));
            if (!same_bundles(&b, &f))
                fail_msg("max %u: bundles made in 1024 columns (down to %u) differ from those made in %u", max,
                         b.cols, cols);
            lay_bundles_deinit(&f);
            covered++;
        }
        assert_false(lay_bundles_cover(&b, 1024, b.cols)); /* its own final grid may stop elsewhere */
        lay_bundles_deinit(&b);
    }
    assert_true(covered >= 8);
    lay_axis_deinit(&a);
    lay_lanes_deinit(&l);
    cs_model_deinit(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(corpus_summaries_equal_full_detail),
        cmocka_unit_test(many_messages_split_the_same),
        cmocka_unit_test(coarsened_bundles_cover_other_grids),
        cmocka_unit_test(bundles_stop_where_halving_stops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
