/* render/spans.c — level of detail for one goroutine's spans: walks the
 * spans overlapping [t0, t_end) and reports runs of one drawing style. Spans
 * shorter than a column (col_ns) are summed per column and the column takes
 * its dominant style; touching runs of one style merge. The number of runs
 * is bounded by the columns on screen, whatever the number of spans. */
#include "rnd.h"

#include <string.h>

uint32_t rnd__span_lower(const cs_model *m, const cs_goroutine *g, int64_t t)
{
    uint32_t lo = g->span_first, hi = g->span_first + g->span_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (m->span_t1[mid] <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

typedef struct runs {
    rnd__run_fn *fn;
    void *ctx;
    int style;               /* pending run, -1 none */
    int64_t a, b;
    double acc[LAY_MARK_COUNT]; /* durations in the open column */
    int64_t col;             /* start of the open column, CS_T_NONE none */
} runs;

static void run_add(runs *r, int style, int64_t a, int64_t b)
{
    if (r->style == style && a <= r->b) {
        r->b = b > r->b ? b : r->b;
        return;
    }
    if (r->style >= 0)
        r->fn(r->ctx, r->style, r->a, r->b);
    r->style = style, r->a = a, r->b = b;
}

static void column_close(runs *r, int64_t col_ns)
{
    if (r->col == CS_T_NONE)
        return;
    int best = -1;
    for (int s = 0; s < LAY_MARK_COUNT; s++)
        if (r->acc[s] > 0 && (best < 0 || r->acc[s] > r->acc[best]))
            best = s;
    if (best >= 0)
        run_add(r, best, r->col, r->col + col_ns);
    memset(r->acc, 0, sizeof r->acc);
    r->col = CS_T_NONE;
}

void rnd__span_runs(const cs_model *m, uint32_t gi, int64_t t0, int64_t t_end, int64_t col_ns,
                    rnd__run_fn *fn, void *ctx)
{
    const cs_goroutine *g = &m->g[gi];
    runs r = {.fn = fn, .ctx = ctx, .style = -1, .col = CS_T_NONE};
    col_ns = col_ns > 0 ? col_ns : 1;
    uint32_t end = g->span_first + g->span_count;
    for (uint32_t s = rnd__span_lower(m, g, t0); s < end && m->span_t0[s] < t_end; s++) {
        int64_t a = m->span_t0[s] > t0 ? m->span_t0[s] : t0;
        int64_t b = m->span_t1[s] < t_end ? m->span_t1[s] : t_end;
        int style = lay_mark_of((cs_state)m->span_state[s], (cs_reason)m->span_reason[s]);
        if (style == LAY_MARK_NONE)
            continue;
        if (b - a >= col_ns) {
            column_close(&r, col_ns);
            run_add(&r, style, a, b);
            continue;
        }
        int64_t col = t0 + (a - t0) / col_ns * col_ns;
        if (col != r.col)
            column_close(&r, col_ns);
        r.col = col;
        r.acc[style] += (double)(b - a) + 1.0;
    }
    column_close(&r, col_ns);
    if (r.style >= 0)
        fn(ctx, r.style, r.a, r.b);
}
