/* tests/testlib.h — what the cmocka tests share: locating test data (the
 * repo's tests/data and, when present, ../shared/traces beside the checkout),
 * loading a trace into a model, and reading oracle JSON with jansson.
 *
 * API (static inline)
 *   const char *tl_shared(void)     path of ../shared/traces, or NULL when absent
 *   const char *tl_data(void)       path of tests/data
 *   void tl_walk(const char *local, const char *const *shared, tl_visit_fn *visit)
 *       nftw(visit) over the folder local, then over each folder named in the
 *       NULL-terminated shared under ../shared/traces when that is present
 *   bool tl_load(const char *path, cs_file *f, cs_model *m, cs_stats *s, cs_err *err)
 *       decodes path and finds its channel traffic (trf_build)
 *   json_t *tl_json(const char *path)   parsed file, or NULL
 *   bool tl_same_edge(const cs_model *a, uint32_t i, const cs_model *b, uint32_t k)
 *       edge i of a is edge k of b: its time and every other field (the
 *       time's 32 bits are over its own block's base)
 *   bool tl_spans_tile(const cs_model *m)
 *       the goroutines' spans take every one of m's once (each goroutine's
 *       together, in any order of goroutines)
 *   bool tl_same_spans(const cs_model *a, uint32_t i, const cs_model *b, uint32_t k)
 *       goroutine i of a has the spans goroutine k of b has
 *   void tl_check_progress(const char *path)
 *       asserts the decoder's progress reports rise to the file size, and
 *       that a report answered with false stops decoding with CS_E_CANCELLED
 */
#ifndef TESTLIB_H
#define TESTLIB_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ftw.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/cs.h"
#include "../core/file.h"
#include "../core/model.h"
#include "../core/stats.h"
#include "../decode/decode.h"
#include "../traffic/traffic.h"

static inline const char *tl_shared(void)
{
    const char *env = getenv("CHANSCOPE_SHARED");
    static const char *cands[] = {"../shared/traces", NULL};
    struct stat st;
    if (env)
        return stat(env, &st) == 0 ? env : NULL;
    for (int i = 0; cands[i]; i++)
        if (stat(cands[i], &st) == 0 && S_ISDIR(st.st_mode))
            return cands[i];
    static bool said;
    if (!said)
        printf("skipping the checks on ../shared/traces: it is absent (CHANSCOPE_SHARED may name it)\n");
    said = true;
    return NULL;
}

static inline const char *tl_data(void) { return "tests/data"; }

typedef int tl_visit_fn(const char *path, const struct stat *st, int flag, struct FTW *ftw);

static inline void tl_walk(const char *local, const char *const *shared, tl_visit_fn *visit)
{
    nftw(local, visit, 16, FTW_PHYS);
    const char *root = tl_shared();
    for (int i = 0; root && shared[i]; i++) {
        char dir[512];
        snprintf(dir, sizeof dir, "%s/%s", root, shared[i]);
        nftw(dir, visit, 16, FTW_PHYS);
    }
}

static inline bool tl_load(const char *path, cs_file *f, cs_model *m, cs_stats *s, cs_err *err)
{
    cs_model_init(m);
    if (s)
        memset(s, 0, sizeof *s);
    if (!cs_file_map(path, f, err))
        return false;
    dec_desc d = {.path = path, .jobs = 2};
    return dec_trace_load(&d, f, m, s, err) && trf_build(m, err);
}

/* What a decoder reported through dec_desc.on_progress. */
typedef struct tl_progress {
    unsigned calls, stop_at;  /* stop_at: the report (1-based) answered with false, 0 none */
    uint64_t last, total;
    bool wrong;               /* a report went backwards, past its total, or changed the total */
} tl_progress;

static inline bool tl_on_progress(void *ud, uint64_t done, uint64_t total)
{
    tl_progress *p = ud;
    p->wrong |= done < p->last || done > total || (p->calls && total != p->total);
    p->last = done, p->total = total;
    return ++p->calls != p->stop_at;
}

/* Progress rises to the file size, and the first report answered with
 * false cancels, with one thread and with two, building the model or only
 * statistics. */
static inline void tl_check_progress(const char *path)
{
    for (unsigned run = 0; run < 8; run++) {
        unsigned stop_at = run & 1;
        int jobs = 1 + (int)(run >> 1 & 1);
        bool stats_only = run >> 2;
        cs_file f;
        cs_model m;
        cs_stats st = {0};
        cs_model_init(&m);
        cs_err err = {0};
        tl_progress p = {.stop_at = stop_at};
        assert_true(cs_file_map(path, &f, &err));
        dec_desc d = {.path = path, .jobs = jobs, .split_min = 1, .no_model = stats_only,
                      .on_progress = tl_on_progress, .progress_ud = &p};
        bool ok = dec_trace_load(&d, &f, &m, stats_only ? &st : NULL, &err);
        if (stop_at) {
            assert_false(ok);
            assert_int_equal(err.code, CS_E_CANCELLED);
            assert_int_equal(p.calls, 1);
        } else {
            assert_true(ok);
            assert_true(p.calls >= 1);
            assert_false(p.wrong);
            assert_int_equal(p.last, f.size);
            assert_int_equal(p.total, f.size);
        }
        cs_stats_deinit(&st);
        cs_model_deinit(&m);
        cs_file_unmap(&f);
    }
}

/* Wake-up i of a and k of b: the same, sites compared by what they hold
 * (a model keeps its sites in the order it met them). */
static inline bool tl_spans_tile(const cs_model *m)
{
    uint8_t *seen = calloc(m->n_span + 1, 1);
    bool ok = seen != NULL;
    for (uint32_t i = 1; ok && i < m->n_g; i++)
        for (uint32_t s = m->g[i].span_first, n = m->g[i].span_count; ok && n; s++, n--)
            ok = s < m->n_span && !seen[s]++;
    for (uint32_t s = 0; ok && s < m->n_span; s++)
        ok = seen[s];
    free(seen);
    return ok;
}

static inline bool tl_same_spans(const cs_model *a, uint32_t i, const cs_model *b, uint32_t k)
{
    if (a->g[i].span_count != b->g[k].span_count)
        return false;
    for (uint32_t n = 0, x = a->g[i].span_first, y = b->g[k].span_first; n < a->g[i].span_count; n++, x++, y++)
        if (cs_span_t0(a, x) != cs_span_t0(b, y) || cs_span_t1(a, x) != cs_span_t1(b, y) ||
            cs_span_state(a, x) != cs_span_state(b, y) || cs_span_reason(a, x) != cs_span_reason(b, y))
            return false;
    return true;
}

static inline bool tl_same_edge(const cs_model *a, uint32_t i, const cs_model *b, uint32_t k)
{
    cs_edge x = a->edges[i], y = b->edges[k];
    const cs_wsite *sx = cs_edge_site(a, &x), *sy = cs_edge_site(b, &y);
    x.t_lo = y.t_lo = 0, x.site = y.site = 0;
    return !memcmp(&x, &y, sizeof x) && !memcmp(sx, sy, sizeof *sx) && cs_edge_ts(a, i) == cs_edge_ts(b, k);
}

/* Trace `path` decoded for pictures (dec_desc.drawn_ranges, with `jobs`
 * threads, a second part from byte `cut`, 0: where the work evens out)
 * keeps of the ranges of its model `full` the drawn ones, in order, and
 * no others, and the same goroutines and spans; returns how many, and in
 * *ahead (if not NULL) how many parts were decoded ahead. */
static inline uint32_t tl_drawn_ranges(const char *path, int jobs, uint64_t cut, const cs_model *full,
                                       uint32_t *ahead)
{
    cs_file f;
    cs_model m;
    cs_err err = {0};
    cs_model_init(&m);
    assert_true(cs_file_map(path, &f, &err));
    dec_desc d = {.path = path, .jobs = jobs, .split_min = jobs > 1, .cut = cut, .drawn_ranges = true};
    if (!dec_trace_load(&d, &f, &m, NULL, &err))
        fail_msg("%s: %s", path, err.msg);
    uint32_t n = 0;
    for (uint32_t i = 0; i < full->n_ranges; i++) {
        const cs_range *x = &full->ranges[i], *y = n < m.n_ranges ? &m.ranges[n] : NULL;
        if (!cs_range_drawn(x->kind))
            continue;
        if (!y || y->t0 != x->t0 || y->t1 != x->t1 || y->kind != x->kind || y->g != x->g || y->id != x->id ||
            strcmp(cs_model_str(&m, y->name), cs_model_str(full, x->name)))
            fail_msg("%s (%d threads): drawn range %u is not the model's %u", path, jobs, n, i);
        n++;
    }
    assert_int_equal(m.n_ranges, n);
    assert_int_equal(m.n_g, full->n_g);
    assert_int_equal(m.n_span, full->n_span);
    for (uint32_t i = 1; i < m.n_g; i++)
        assert_true(m.g[i].goid == full->g[i].goid && m.g[i].span_count == full->g[i].span_count);
    if (ahead)
        *ahead = m.n_ahead;
    cs_model_deinit(&m);
    cs_file_unmap(&f);
    return n;
}

static inline json_t *tl_json(const char *path)
{
    json_error_t je;
    return json_load_file(path, 0, &je);
}

#endif
