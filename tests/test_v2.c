/* tests/test_v2.c — the Go 1.22+ decoder (wire 1.22, 1.23, 1.25, 1.26)
 * against Go 1.27's own reader and Summarizer, today's `go tool trace`: event
 * counts by public kind, every goroutine's statistics and every unblock
 * edge equal the oracles (NAME.oracle-go127.json) exactly; Go's conformance
 * traces are accepted or rejected as Go does; read from a pipe, a trace is
 * decoded a generation at a time, to the same results. Uses the repo's
 * tests/data copies always and ../shared/traces when present. */
#include "testlib.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <regex.h>
#include <signal.h>
#include <unistd.h>

static const char *const kinds[] = {"Sync", "Metric", "Label", "StackSample", "RangeBegin",
                                    "RangeActive", "RangeEnd", "TaskBegin", "TaskEnd", "RegionBegin",
                                    "RegionEnd", "Log", "StateTransition", "Experimental"};
#define NKINDS (sizeof kinds / sizeof *kinds)

typedef struct counts { uint64_t n[NKINDS]; uint64_t total; } counts;

static bool count_event(void *ud, const dec_event *ev, cs_err *err)
{
    (void)err;
    counts *c = ud;
    c->total++;
    for (size_t i = 0; i < NKINDS; i++)
        if (!strcmp(ev->kind_name, kinds[i]))
            c->n[i]++;
    return true;
}

/* One decode of a trace with all it produced. */
typedef struct decoded {
    bool ok;
    cs_err err;
    cs_file f;
    cs_model m;
    cs_stats s;
    counts c;
} decoded;

/* How a trace is decoded: with the model and every event (as `info` and
 * `events`), statistics only (as `stats`: the hot path emits inline), or
 * with the model and every event the general way, no hot path. */
typedef enum { RUN_EVENTS, RUN_STATS, RUN_GENERAL, RUN_KINDS } run_kind;

/* Decodes path with `jobs` threads (a worker whatever a generation's size). */
static void load(const char *path, int jobs, run_kind k, decoded *d)
{
    memset(d, 0, sizeof *d);
    cs_model_init(&d->m);
    assert_true(cs_file_map(path, &d->f, &d->err));
    dec_desc desc = {.path = path, .jobs = jobs, .split_min = 1, .no_model = k == RUN_STATS,
                     .no_hot = k == RUN_GENERAL, .on_event = k == RUN_STATS ? NULL : count_event,
                     .event_ud = &d->c};
    d->ok = dec_trace_load(&desc, &d->f, &d->m, &d->s, &d->err);
}

static void unload(decoded *d)
{
    cs_model_deinit(&d->m);
    cs_stats_deinit(&d->s);
    cs_file_unmap(&d->f);
}

static void check_counts(const char *name, const counts *c, json_t *o)
{
    json_t *ec = json_object_get(o, "event_counts");
    for (size_t i = 0; i < NKINDS; i++) {
        json_t *v = json_object_get(ec, kinds[i]);
        uint64_t want = v ? (uint64_t)json_integer_value(v) : 0;
        if (c->n[i] != want)
            fail_msg("%s: %s events: got %llu, oracle %llu", name, kinds[i], (unsigned long long)c->n[i],
                     (unsigned long long)want);
    }
    assert_int_equal(c->total, json_integer_value(json_object_get(o, "events")));
}

static int64_t kv_get(const cs_model *m, const cs_stats *s, const cs_gstat *g, uint32_t table,
                      const char *key, bool *found)
{
    for (uint32_t i = g->kv_first; i < g->kv_first + g->kv_count; i++)
        if (s->kv[i].table == table && !strcmp(cs_model_str(m, s->kv[i].key), key)) {
            *found = true;
            return s->kv[i].ns;
        }
    *found = false;
    return 0;
}

static void check_map(const char *name, const cs_model *m, const cs_stats *s, const cs_gstat *g,
                      uint32_t table, json_t *want)
{
    uint32_t have = 0;
    for (uint32_t i = g->kv_first; i < g->kv_first + g->kv_count; i++)
        have += s->kv[i].table == table;
    if (have != json_object_size(want))
        fail_msg("%s: goroutine %llu: %u entries in table %u, oracle %zu", name,
                 (unsigned long long)g->goid, have, table, json_object_size(want));
    const char *k;
    json_t *v;
    json_object_foreach(want, k, v) {
        bool found;
        int64_t got = kv_get(m, s, g, table, k, &found);
        if (!found || got != json_integer_value(v))
            fail_msg("%s: goroutine %llu: [%s] got %lld, oracle %lld", name, (unsigned long long)g->goid, k,
                     (long long)got, (long long)json_integer_value(v));
    }
}

#define EQ(field, key)                                                                             \
    if ((int64_t)(field) != (int64_t)json_integer_value(json_object_get(w, key)))                  \
        fail_msg("%s: goroutine %llu: %s got %lld, oracle %lld", name, (unsigned long long)g->goid, key, \
                 (long long)(field), (long long)json_integer_value(json_object_get(w, key)));

static void check_stats(const char *name, const cs_model *m, const cs_stats *s, json_t *o)
{
    json_t *gs = json_object_get(o, "goroutines");
    assert_int_equal(s->n, json_array_size(gs));
    for (uint32_t i = 0; i < s->n; i++) {
        const cs_gstat *g = &s->g[i];
        json_t *w = json_array_get(gs, i);
        EQ(g->goid, "ID") EQ(g->pc, "PC") EQ(g->creation, "Creation") EQ(g->start, "Start")
        EQ(g->end, "End") EQ(g->exec, "Exec") EQ(g->sched_wait, "SchedWait")
        EQ(g->syscall, "Syscall") EQ(g->syscall_block, "SyscallBlock") EQ(g->total, "Total")
        if (strcmp(cs_model_str(m, g->name), json_string_value(json_object_get(w, "Name"))))
            fail_msg("%s: goroutine %llu: name %s, oracle %s", name, (unsigned long long)g->goid,
                     cs_model_str(m, g->name), json_string_value(json_object_get(w, "Name")));
        check_map(name, m, s, g, CS_STAT_BLOCK_BY_REASON, json_object_get(w, "BlockByReason"));
        check_map(name, m, s, g, CS_STAT_RANGE_TIME, json_object_get(w, "RangeTime"));
    }
}

static void check_unblocks(const char *name, const cs_model *m, json_t *o)
{
    json_t *us = json_object_get(o, "unblocks");
    assert_int_equal(m->n_edges - 1, json_array_size(us));
    for (uint32_t i = 1; i < m->n_edges; i++) {
        const cs_edge *e = &m->edges[i];
        const cs_wsite *site = cs_edge_site(m, e);
        json_t *w = json_array_get(us, i - 1);
        int64_t from = e->from ? (int64_t)m->g[e->from].goid : -1;
        if (cs_edge_ts(m, i) != json_integer_value(json_object_get(w, "Ts")) ||
            from != json_integer_value(json_object_get(w, "From")) ||
            (int64_t)m->g[e->to].goid != json_integer_value(json_object_get(w, "To")) ||
            strcmp(cs_model_str(m, site->reason_name), json_string_value(json_object_get(w, "Blocked"))))
            fail_msg("%s: unblock %u: got ts %lld %lld->%llu [%s], oracle ts %lld %lld->%lld [%s]", name, i,
                     (long long)cs_edge_ts(m, i), (long long)from, (unsigned long long)m->g[e->to].goid,
                     cs_model_str(m, site->reason_name), (long long)json_integer_value(json_object_get(w, "Ts")),
                     (long long)json_integer_value(json_object_get(w, "From")),
                     (long long)json_integer_value(json_object_get(w, "To")),
                     json_string_value(json_object_get(w, "Blocked")));
        json_t *stk = json_object_get(w, "Stack");
        uint32_t n = cs_model_stack_len(m, site->stack);
        assert_int_equal(n, json_is_array(stk) ? json_array_size(stk) : 0);
        for (uint32_t k = 0; k < n; k++)
            assert_string_equal(cs_model_str(m, cs_model_stack_frame(m, site->stack, k)->func),
                                json_string_value(json_array_get(stk, k)));
    }
}

/* Decodes path on one thread and on two, every run kind, and compares
 * each with its NAME.oracle-go127.json (a statistics-only run has no events to
 * count by kind and no wake-ups, only their number and the statistics). */
static void check_trace(const char *path)
{
    char opath[1024];
    snprintf(opath, sizeof opath, "%.*s.oracle-go127.json", (int)(strlen(path) - 6), path);
    json_t *o = tl_json(opath);
    assert_non_null(o);
    static const int jobs[] = {1, 2, 3, 5}; /* 3 and 5: statistics only, parts ahead cut elsewhere */
    for (size_t j = 0; j < sizeof jobs / sizeof *jobs; j++)
        for (run_kind k = RUN_EVENTS; k < RUN_KINDS; k++) {
            if (jobs[j] > 2 && k != RUN_STATS)
                continue;
            decoded d;
            load(path, jobs[j], k, &d);
            if (!d.ok)
                fail_msg("%s: %s (offset %llu)", path, d.err.msg, (unsigned long long)d.err.offset);
            assert_string_equal(d.m.warning, "");
            if (k == RUN_STATS) {
                assert_int_equal(d.m.n_events, json_integer_value(json_object_get(o, "events")));
            } else {
                check_counts(path, &d.c, o);
                check_unblocks(path, &d.m, o);
            }
            check_stats(path, &d.m, &d.s, o);
            unload(&d);
        }
    json_decref(o);
}

/* Calls fn on each NAME.trace of ../shared/traces/SUB (skipping the test
 * when that is absent), with its path, folder and file name; returns how
 * many. */
typedef void trace_fn(const char *path, const char *dir, const char *name, void *ud);

static int each_trace(const char *sub, trace_fn *fn, void *ud)
{
    const char *sh = tl_shared();
    if (!sh)
        skip();
    char dir[512];
    snprintf(dir, sizeof dir, "%s/%s", sh, sub);
    DIR *dp = opendir(dir);
    assert_non_null(dp);
    struct dirent *de;
    int n = 0;
    while ((de = readdir(dp))) {
        size_t l = strlen(de->d_name);
        if (l < 7 || strcmp(de->d_name + l - 6, ".trace"))
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        fn(path, dir, de->d_name, ud);
        n++;
    }
    closedir(dp);
    return n;
}

static void check_one(const char *path, const char *dir, const char *name, void *ud)
{
    (void)dir, (void)name, (void)ud;
    check_trace(path);
}

static void corpus_dir(const char *ver)
{
    char sub[64];
    snprintf(sub, sizeof sub, "corpus/%s", ver);
    assert_true(each_trace(sub, check_one, NULL) >= 10);
}

static void repo_copies_match_oracle(void **st)
{
    (void)st;
    static const char *const names[] = {
        "pingpong-go1.25", "corpus/go1.23/selectmix", "closebcast-go1.22", "gens/gens-go1.25",
        "gens/gens-gc-go1.25", "gens/gens-go1.27", "gens/gens-gc-go1.27", "corpus/go1.26/pingpong",
        "corpus/go1.26/fanin", "corpus/go1.26/workers", "corpus/go1.26/pipeline", "corpus/go1.27/pingpong",
        "corpus/go1.27/selectmix", "corpus/go1.27/closebcast", "corpus/go1.27/annotated",
        "corpus/go1.27/primesieve", "corpus/go1.27/netserver", "gcheavy/gcheavy-go1.27",
        "regions/regions-go1.27", "regions/regions-gens-go1.27"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s.trace", tl_data(), names[i]);
        check_trace(path);
    }
}

/* Trace NAME of tests/data (path filled) and its Go 1.27 oracle. */
static json_t *data_case(const char *name, char path[512])
{
    char opath[512];
    snprintf(path, 512, "%s/%s.trace", tl_data(), name);
    snprintf(opath, sizeof opath, "%s/%s.oracle-go127.json", tl_data(), name);
    json_t *o = tl_json(opath);
    assert_non_null(o);
    return o;
}

/* Three generations (assets/go/gens, Go 1.25 and 1.27): with n threads, statistics alone,
 * the file is cut in n parts of about equal size, inside generations; the
 * later ones are ordered and summarized ahead on workers while this thread
 * does the first, then joined, and everything still equals Go's; also with
 * a collection every second (sweeps and mark assists, ranges that may go
 * on from one generation into the next). */
static void generations_ahead_match_oracle(void **st)
{
    (void)st;
    static const char *const names[] = {"gens/gens-go1.25", "gens/gens-gc-go1.25", "gens/gens-go1.27",
                                        "gens/gens-gc-go1.27"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char path[512];
        json_t *o = data_case(names[i], path);
        json_int_t syncs = json_integer_value(json_object_get(json_object_get(o, "event_counts"), "Sync"));
        for (int jobs = 2; jobs <= 4; jobs++) {
            decoded d;
            load(path, jobs, RUN_STATS, &d);
            assert_true(d.ok);
            assert_int_equal(d.m.n_gens, syncs - 1); /* one Sync per generation and a last one */
            if (d.m.n_ahead != (uint32_t)jobs - 1)
                fail_msg("%s: %u of %d parts ordered ahead", path, d.m.n_ahead, jobs - 1);
            assert_int_equal(d.m.n_events, json_integer_value(json_object_get(o, "events")));
            check_stats(path, &d.m, &d.s, o);
            unload(&d);
        }
        json_decref(o);
    }
}

/* Statistics on two threads with the second part cut at 24 bytes spread
 * over the file (inside generations, where its worker replays the
 * generation up to the cut to find Go's frontier there): every result
 * equals Go's, and most parts are taken over (their replayed frontier and
 * everything else they assumed held), those of a GC-heavy trace too
 * (assets/go/gcheavy, 8 workers, 0.3 MB: its cuts fall inside mark assists
 * and sweeps, which its parts take to be in flight there), and of an
 * annotated one (assets/go/regions: its cuts fall inside nested user
 * regions, which its parts end). */
static void cuts_anywhere_match_oracle(void **st)
{
    (void)st;
    static const char *const names[] = {"gens/gens-go1.25", "gens/gens-gc-go1.25", "gens/gens-go1.27",
                                        "gens/gens-gc-go1.27", "corpus/go1.23/pingpong",
                                        "corpus/go1.23/annotated", "corpus/go1.27/pingpong",
                                        "gcheavy/gcheavy-go1.27", "regions/regions-go1.27"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char path[512];
        json_t *o = data_case(names[i], path);
        cs_file f;
        cs_err err = {0};
        assert_true(cs_file_map(path, &f, &err));
        uint64_t size = f.size, taken = 0;
        cs_file_unmap(&f);
        for (uint64_t k = 1; k <= 24; k++) {
            decoded d = {0};
            cs_model_init(&d.m);
            assert_true(cs_file_map(path, &d.f, &d.err));
            dec_desc desc = {.path = path, .jobs = 2, .split_min = 1, .cut = size * k / 25, .no_model = true};
            d.ok = dec_trace_load(&desc, &d.f, &d.m, &d.s, &d.err);
            if (!d.ok)
                fail_msg("%s cut at %llu: %s", path, (unsigned long long)desc.cut, d.err.msg);
            assert_int_equal(d.m.n_events, json_integer_value(json_object_get(o, "events")));
            check_stats(path, &d.m, &d.s, o);
            taken += d.m.n_ahead;
            unload(&d);
        }
        if (taken < 18)
            fail_msg("%s: %llu of 24 parts taken over", path, (unsigned long long)taken);
        json_decref(o);
    }
}

static void same_model(const char *what, const cs_model *a, const cs_model *b);

/* Path decoded for the model (as `info` and the pictures: no on_event),
 * statistics too, with `jobs` threads, the second part from byte `cut`. */
static void load_model(const char *path, int jobs, uint64_t cut, decoded *d)
{
    memset(d, 0, sizeof *d);
    cs_model_init(&d->m);
    assert_true(cs_file_map(path, &d->f, &d->err));
    dec_desc desc = {.path = path, .jobs = jobs, .split_min = 1, .cut = cut};
    d->ok = dec_trace_load(&desc, &d->f, &d->m, &d->s, &d->err);
    if (!d->ok)
        fail_msg("%s cut at %llu: %s", path, (unsigned long long)cut, d->err.msg);
}

/* The model of a part built on a worker from a cut anywhere (or with
 * four threads, still one part), joined to the one of everything before it (decode/v2_ahead.c,
 * dec__v2_model_join), is the model of one thread index for index, and
 * the statistics still Go's; most parts of each trace are taken over, of
 * the GC-heavy one and those with a collection every second too (ranges
 * that may be in flight at the cut, settled on join), and the annotated
 * one (user regions open at the cut, ended after it). */
static void model_parts_match_one_thread(void **st)
{
    (void)st;
    static const char *const names[] = {
        "gens/gens-go1.25", "gens/gens-gc-go1.25", "gens/gens-go1.27", "gens/gens-gc-go1.27",
        "pingpong-go1.25", "closebcast-go1.22", "corpus/go1.23/selectmix", "corpus/go1.23/annotated",
        "corpus/go1.26/fanin", "corpus/go1.26/workers", "corpus/go1.27/primesieve", "corpus/go1.27/netserver",
        "corpus/go1.27/annotated", "gcheavy/gcheavy-go1.27", "regions/regions-go1.27",
        "regions/regions-gens-go1.27"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char path[512];
        json_t *o = data_case(names[i], path);
        decoded one;
        load_model(path, 1, 0, &one);
        uint32_t taken = 0;
        for (uint64_t k = 0; k <= 24; k++) { /* 0: with 4 threads, where the work evens out */
            decoded d;
            load_model(path, k ? 2 : 4, one.f.size * k / 25, &d);
            char what[600];
            snprintf(what, sizeof what, "%s cut at %llu/25", path, (unsigned long long)k);
            same_model(what, &d.m, &one.m);
            check_stats(path, &d.m, &d.s, o);
            taken += d.m.n_ahead;
            unload(&d);
        }
        if (taken < 20)
            fail_msg("%s: %u of 25 parts taken over", path, taken);
        unload(&one);
        json_decref(o);
    }
}

/* Go's own test traces (../shared/traces/go-testdata/v2) that decode:
 * cut anywhere, the model of two threads is the model of one. */
typedef struct parts_count { int decoded; uint32_t taken, tried; } parts_count;

static void model_parts_of(const char *path, const char *dir, const char *name, void *ud)
{
    (void)dir, (void)name;
    parts_count *n = ud;
    decoded one;
    memset(&one, 0, sizeof one);
    cs_model_init(&one.m);
    assert_true(cs_file_map(path, &one.f, &one.err));
    dec_desc d1 = {.path = path, .jobs = 1};
    if (dec_trace_load(&d1, &one.f, &one.m, &one.s, &one.err)) { /* not a case Go rejects */
        for (uint64_t k = 1; k <= 9; k++) {
            decoded d;
            load_model(path, 2, one.f.size * k / 10, &d);
            char what[1100];
            snprintf(what, sizeof what, "%s cut at %llu/10", path, (unsigned long long)k);
            same_model(what, &d.m, &one.m);
            n->taken += d.m.n_ahead, n->tried++;
            unload(&d);
        }
        n->decoded++;
    }
    unload(&one);
}

/* Their events often share a time, so the last event before a cut is
 * often emitted after the latest time read there (dec__v2_after_last): a
 * part whose first event comes later still is taken over, and the worker
 * counts on the stamps Go's reader gives the events before its cut from
 * the generation before on (v2_ahead.c, last_before); with the ranges in
 * flight at the cut, the tasks and the user regions ended after it, 143 of
 * the 180 cuts are taken over (79 with none of these). */
static void go_testdata_model_parts_match_one_thread(void **st)
{
    (void)st;
    parts_count n = {0};
    each_trace("go-testdata/v2", model_parts_of, &n);
    assert_true(n.decoded >= 10);
    if (n.taken < 140)
        fail_msg("%u of %u parts taken over", n.taken, n.tried);
}

/* A goroutine's user regions in the model nest as it began and ended them:
 * ordered by start (the longer first of two that start together), each
 * ends by the end of every one it started inside of. Returns how many. */
static const cs_model *region_m;

static int region_cmp(const void *a, const void *b)
{
    const cs_range *x = &region_m->ranges[*(const uint32_t *)a], *y = &region_m->ranges[*(const uint32_t *)b];
    if (x->g != y->g)
        return x->g < y->g ? -1 : 1;
    if (x->t0 != y->t0)
        return x->t0 < y->t0 ? -1 : 1;
    return (x->t1 < y->t1) - (x->t1 > y->t1);
}

static uint32_t regions_nest(const char *what, const cs_model *m)
{
    uint32_t *r = test_malloc(((size_t)m->n_ranges + 1) * sizeof *r);
    uint32_t *open = test_malloc(((size_t)m->n_ranges + 1) * sizeof *open);
    uint32_t n = 0, depth = 0;
    for (uint32_t i = 0; i < m->n_ranges; i++)
        if (m->ranges[i].kind == CS_RK_REGION)
            r[n++] = i;
    region_m = m;
    qsort(r, n, sizeof *r, region_cmp);
    for (uint32_t i = 0; i < n; i++) {
        const cs_range *x = &m->ranges[r[i]];
        while (depth && (m->ranges[open[depth - 1]].g != x->g || m->ranges[open[depth - 1]].t1 <= x->t0))
            depth--;
        if (depth && x->t1 > m->ranges[open[depth - 1]].t1)
            fail_msg("%s: region %s of goroutine %u [%lld, %lld] ends after %s [%lld, %lld] it began in", what,
                     cs_model_str(m, x->name), x->g, (long long)x->t0, (long long)x->t1,
                     cs_model_str(m, m->ranges[open[depth - 1]].name), (long long)m->ranges[open[depth - 1]].t0,
                     (long long)m->ranges[open[depth - 1]].t1);
        open[depth++] = r[i];
    }
    test_free(r), test_free(open);
    return n;
}

static void regions_of(const char *path, const char *dir, const char *name, void *ud)
{
    (void)dir;
    if (!strstr(name, "annotations"))
        return;
    decoded d;
    load_model(path, 1, 0, &d);
    *(uint32_t *)ud += regions_nest(path, &d.m);
    unload(&d);
}

/* The annotated worker pool (assets/go/regions: each worker's "handle"
 * inside its "worker" region, "compute" inside that, while the others'
 * open and close) and Go's annotation test traces: one thread's model
 * nests every goroutine's regions, and a part's, joined, still does. */
static void regions_nest_in_the_model(void **st)
{
    (void)st;
    char path[512];
    snprintf(path, sizeof path, "%s/regions/regions-go1.27.trace", tl_data());
    decoded d;
    load_model(path, 1, 0, &d);
    assert_int_equal(regions_nest(path, &d.m), 2 * 1500 + 8 + 1); /* per request, worker and the feeder */
    uint64_t size = d.f.size;
    unload(&d);
    load_model(path, 2, size / 2, &d);
    assert_int_equal(d.m.n_ahead, 1);
    regions_nest(path, &d.m);
    unload(&d);
    uint32_t n = 0;
    if (tl_shared()) {
        each_trace("go-testdata/v2", regions_of, &n);
        assert_true(n > 0);
    }
}

/* A model for pictures keeps of the ranges the collections and stops of
 * the world, as the full model has them, on one thread and with a part
 * decoded ahead: none of the GC-heavy trace's sweeps and mark assists
 * (13,253 of its 13,455 ranges), nor the annotated one's task and regions
 * (all but a stop of the world). */
static void pictures_keep_the_drawn_ranges(void **st)
{
    (void)st;
    static const char *const names[] = {"gcheavy/gcheavy-go1.27", "regions/regions-gens-go1.27"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s.trace", tl_data(), names[i]);
        decoded one;
        load_model(path, 1, 0, &one);
        uint32_t drawn = tl_drawn_ranges(path, 1, 0, &one.m, NULL), taken = 0, ahead;
        assert_true(drawn > 0 && drawn < one.m.n_ranges / 8);
        for (uint64_t k = 1; k <= 3; k++) {
            assert_int_equal(tl_drawn_ranges(path, 2, one.f.size * k / 4, &one.m, &ahead), drawn);
            taken += ahead;
        }
        assert_true(taken >= 2);
        unload(&one);
    }
}

/* Go's conformance cases: NAME.expect is SUCCESS or FAILURE "regexp". */
static void conformance_case(const char *path, const char *dir, const char *name, void *ud)
{
    char epath[1024], expect[512] = "";
    snprintf(epath, sizeof epath, "%s/%.*s.expect", dir, (int)(strlen(name) - 6), name);
    FILE *fp = fopen(epath, "r");
    assert_non_null(fp);
    size_t got = fread(expect, 1, sizeof expect - 1, fp);
    fclose(fp);
    expect[got] = 0;
    for (int run = 0; run < 2 * RUN_KINDS; run++) {
        int jobs = 1 + run / RUN_KINDS;
        decoded d;
        load(path, jobs, (run_kind)(run % RUN_KINDS), &d);
        if (!strncmp(expect, "SUCCESS", 7)) {
            if (!d.ok || d.m.warning[0])
                fail_msg("%s: expected success, got %s%s", name, d.err.msg, d.m.warning);
        } else {
            assert_false(d.ok);
            char want[512];
            char *q1 = strchr(expect, '"'), *q2 = q1 ? strrchr(expect, '"') : NULL;
            assert_true(q1 && q2 > q1);
            snprintf(want, sizeof want, "%.*s", (int)(q2 - q1 - 1), q1 + 1);
            regex_t re;
            assert_int_equal(regcomp(&re, want, REG_EXTENDED | REG_NOSUB), 0);
            if (regexec(&re, d.err.msg, 0, NULL, 0))
                fail_msg("%s: message '%s' does not match '%s'", name, d.err.msg, want);
            regfree(&re);
            *(int *)ud += run == 0;
        }
        unload(&d);
    }
}

static void go_conformance_cases_accepted_or_rejected(void **st)
{
    (void)st;
    int failures = 0;
    assert_true(each_trace("go-testdata/v2", conformance_case, &failures) >= 20);
    assert_true(failures >= 2);
}

/* A writer of a file's bytes into a pipe, `chunk` bytes at a time. */
typedef struct feed { int fd; const uint8_t *p; size_t n, chunk; } feed;

static void *feeder(void *arg)
{
    feed *f = arg;
    for (size_t off = 0; off < f->n;) {
        ssize_t w = write(f->fd, f->p + off, f->chunk < f->n - off ? f->chunk : f->n - off);
        if (w <= 0)
            break;
        off += (size_t)w;
    }
    close(f->fd);
    return NULL;
}

/* Where each generation starts: the offsets its Sync event carries (the
 * last Sync's is the end of the file). */
typedef struct gen_starts { counts c; uint64_t off[64]; uint32_t n; } gen_starts;

static bool note_sync(void *ud, const dec_event *ev, cs_err *err)
{
    gen_starts *g = ud;
    if (!strcmp(ev->kind_name, "Sync") && g->n < 64)
        g->off[g->n++] = ev->off;
    return count_event(&g->c, ev, err);
}

/* Every Go 1.22+ trace of the repo written into a pipe in pieces of a few
 * sizes and decoded as it comes (statistics alone and with the model, on
 * one and two threads) equals Go's oracle; the decoder never held more
 * than the largest generation and what one read of the pipe brings after
 * it (the pipe made to hold a page), with the next batch's header that
 * tells where the generation ends (before Go 1.26's end marker): those of
 * its bytes that came in the read before, when the header was cut short
 * there, and as many for the generations' starts measured at their Sync
 * events: for the four traces of three generations, less than the file. */
#define PIPE_HOLDS 4096
#define HEADER_MAX 42 /* a batch's header: its type, an experiment's kind, four varints of at most 10 bytes */
#define HOLDS_PAST (PIPE_HOLDS + 2 * HEADER_MAX)
static void streams_decode_a_generation_at_a_time(void **st)
{
    (void)st;
    signal(SIGPIPE, SIG_IGN);
    static const char *const names[] = {
        "pingpong-go1.25", "corpus/go1.23/selectmix", "closebcast-go1.22", "gens/gens-go1.25",
        "gens/gens-gc-go1.25", "gens/gens-go1.27", "gens/gens-gc-go1.27", "corpus/go1.23/annotated",
        "corpus/go1.27/annotated", "corpus/go1.27/netserver"};
    static const size_t chunks[] = {1, 1000, 65536};
    unsigned bites = 0;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char path[512];
        json_t *o = data_case(names[i], path);
        cs_file whole;
        cs_err err = {0};
        assert_true(cs_file_map(path, &whole, &err));
        for (size_t c = 0; c < sizeof chunks / sizeof *chunks; c++)
            for (int run = 0; run < 3; run++) {
                if (chunks[c] == 1 && whole.size > 70000 && run)
                    continue; /* a byte at a time is slow: once per big trace */
                int fds[2];
                assert_int_equal(pipe(fds), 0);
                assert_int_equal(fcntl(fds[1], F_SETPIPE_SZ, PIPE_HOLDS), PIPE_HOLDS);
                feed fd = {.fd = fds[1], .p = whole.data, .n = whole.size, .chunk = chunks[c]};
                pthread_t th;
                assert_int_equal(pthread_create(&th, NULL, feeder, &fd), 0);
                char name[64];
                snprintf(name, sizeof name, "/proc/self/fd/%d", fds[0]);
                decoded d = {0};
                gen_starts gs = {0};
                cs_model_init(&d.m);
                assert_true(cs_file_open(name, NULL, &d.f, &d.err));
                dec_desc desc = {.path = path, .jobs = run == 2 ? 2 : 1, .split_min = 1, .no_model = run == 1,
                                 .on_event = run == 1 ? NULL : note_sync, .event_ud = &gs};
                d.ok = dec_trace_load(&desc, &d.f, &d.m, &d.s, &d.err);
                close(fds[0]);
                pthread_join(th, NULL);
                if (!d.ok)
                    fail_msg("%s from a pipe: %s (offset %llu)", path, d.err.msg, (unsigned long long)d.err.offset);
                assert_true(d.f.ended && d.f.size == whole.size);
                assert_int_equal(d.m.n_events, json_integer_value(json_object_get(o, "events")));
                check_stats(path, &d.m, &d.s, o);
                if (run != 1) {
                    check_counts(path, &gs.c, o);
                    check_unblocks(path, &d.m, o);
                    uint64_t big = 0;
                    for (uint32_t k = 1; k < gs.n; k++)
                        big = gs.off[k] - gs.off[k - 1] > big ? gs.off[k] - gs.off[k - 1] : big;
                    assert_true(gs.n >= 2 && gs.off[gs.n - 1] == whole.size);
                    if (d.f.held_max > big + HOLDS_PAST)
                        fail_msg("%s: %zu bytes held at once, the largest generation has %llu", path,
                                 d.f.held_max, (unsigned long long)big);
                    bites += big + HOLDS_PAST < whole.size; /* a reader of the whole file would fail */
                }
                unload(&d);
            }
        cs_file_unmap(&whole);
        json_decref(o);
    }
    assert_true(bites >= 20); /* the four, with the model: on one and two threads, in three piece sizes */
}

/* The same events, strings, stacks, goroutines, spans, wake-ups, ranges and
 * logs, index for index. */
static void same_model(const char *what, const cs_model *a, const cs_model *b)
{
    const char *diff = NULL;
#define DIFF(cond, what) if (!diff && !(cond)) diff = what;
    DIFF(a->n_events == b->n_events && a->n_gens == b->n_gens && a->t_first == b->t_first &&
         a->t_last == b->t_last && a->n_g == b->n_g && a->n_span == b->n_span && a->n_edges == b->n_edges &&
         a->n_ranges == b->n_ranges && a->n_str == b->n_str && a->n_logs == b->n_logs && a->n_far == b->n_far &&
         a->nprocs == b->nprocs && !strcmp(a->warning, b->warning), "counts")
    DIFF(a->n_stack == b->n_stack && a->n_frames == b->n_frames, "stack counts")
    for (uint32_t i = 0; !diff && i < a->n_str; i++)
        DIFF(!strcmp(cs_model_str(a, i), cs_model_str(b, i)), "strings")
    for (uint32_t i = 0; !diff && i < a->n_frames; i++)
        DIFF(a->frames[i].pc == b->frames[i].pc && a->frames[i].func == b->frames[i].func &&
             a->frames[i].file == b->frames[i].file && a->frames[i].line == b->frames[i].line, "frames")
    for (uint32_t i = 0; !diff && a->n_stack && i <= a->n_stack; i++)
        DIFF(a->stack_first[i] == b->stack_first[i], "stacks")
    for (uint32_t i = 1; !diff && i < a->n_g; i++)
        DIFF(a->g[i].goid == b->g[i].goid && a->g[i].create_ns == b->g[i].create_ns &&
             a->g[i].end_ns == b->g[i].end_ns &&
             a->g[i].name == b->g[i].name && a->g[i].parent == b->g[i].parent && a->g[i].flags == b->g[i].flags &&
             a->g[i].span_count == b->g[i].span_count, "goroutines")
    /* each goroutine's spans, wherever the layout put them (a part lays out those it saw end) */
    DIFF(a->n_span == b->n_span && tl_spans_tile(a) && tl_spans_tile(b), "spans' places")
    for (uint32_t i = 1; !diff && i < a->n_g; i++)
        DIFF(tl_same_spans(a, i, b, i), "spans")
    for (uint32_t i = 1; !diff && i < a->n_edges; i++) {
        cs_edge x = a->edges[i], y = b->edges[i];
        x.t_lo = y.t_lo = 0; /* over bases that may differ */
        DIFF(cs_edge_ts(a, i) == cs_edge_ts(b, i) && !memcmp(&x, &y, sizeof x), "wake-ups")
    }
    for (uint32_t i = 0; !diff && i < a->n_ranges; i++)
        DIFF(a->ranges[i].t0 == b->ranges[i].t0 && a->ranges[i].t1 == b->ranges[i].t1 &&
             a->ranges[i].name == b->ranges[i].name && a->ranges[i].g == b->ranges[i].g &&
             a->ranges[i].id == b->ranges[i].id && a->ranges[i].kind == b->ranges[i].kind, "ranges")
    for (uint32_t i = 0; !diff && i < a->n_logs; i++)
        DIFF(!memcmp(&a->logs[i], &b->logs[i], sizeof *a->logs), "logs")
#undef DIFF
    if (diff)
        fail_msg("%s: the models' %s differ (%llu/%llu events, %u/%u generations, %u/%u spans)", what, diff,
                 (unsigned long long)a->n_events, (unsigned long long)b->n_events, a->n_gens, b->n_gens, a->n_span,
                 b->n_span);
}

/* A trace still being written, `piece` bytes at a time into a pipe this
 * thread reads: after each piece, the generations wholly in hand are
 * decoded (and no more), and the model so far equals the one decoded from
 * the file cut at the end of the last of them; at the end, the whole
 * file's. Then the same through dec_stream_feed and the window: the
 * generations before are let go. One trace has user regions and a task
 * open from one generation into the next: a model taken meanwhile closes
 * its copies of them, and they go on in the stream's. */
static void stream_decoder_grows_a_generation_at_a_time(void **st)
{
    (void)st;
    signal(SIGPIPE, SIG_IGN);
    static const char *const names[] = {"gens/gens-go1.25", "gens/gens-gc-go1.27", "corpus/go1.23/annotated",
                                        "corpus/go1.27/annotated", "corpus/go1.19/pingpong",
                                        "regions/regions-gens-go1.27"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s.trace", tl_data(), names[i]);
        cs_file whole;
        cs_err err = {0};
        assert_true(cs_file_map(path, &whole, &err));
        /* where each generation ends: the Sync events' offsets */
        gen_starts gs = {0};
        cs_model full;
        cs_model_init(&full);
        dec_desc md = {.path = path, .jobs = 1, .on_event = note_sync, .event_ud = &gs};
        assert_true(dec_trace_load(&md, &whole, &full, NULL, &err));
        cs_model_deinit(&full);
        cs_model_init(&full);
        dec_desc d = {.path = path, .jobs = 1}; /* events handed out intern their strings and stacks: none */
        assert_true(dec_trace_load(&d, &whole, &full, NULL, &err));
        bool legacy = full.family == CS_FAM_LEGACY;
        int fds[2];
        assert_int_equal(pipe(fds), 0);
        size_t piece = whole.size / 7 + 1, sent = 0;
        cs_file f;
        dec_stream *ds;
        assert_true(write(fds[1], whole.data, piece) == (ssize_t)piece);
        sent = piece;
        char name[64];
        snprintf(name, sizeof name, "/proc/self/fd/%d", fds[0]);
        assert_true(cs_file_follow(name, &f, &err));
        assert_true(dec_stream_open(&d, &f, &ds, &err));
        uint32_t gens = 0;
        for (;;) {
            while (f.size < sent) /* all that was written: never a wait */
                assert_true(cs_file_more(&f, &err));
            uint32_t added;
            if (!dec_stream_feed(ds, false, &added, &err))
                fail_msg("%s: %s", path, err.msg);
            gens += added;
            if (!legacy && !dec_stream_done(ds)) {
                /* every generation that ended before the bytes in hand (with the next one's first
                 * batch header in hand too for wire 1.25), none after */
                uint32_t k = 0;
                while (k + 1 < gs.n && gs.off[k + 1] + (full.version < 1026 ? 20 : 0) <= f.size)
                    k++;
                if (gens + 1 < k || gens > k)
                    fail_msg("%s: %u generations decoded with %zu bytes in hand", path, gens, f.size);
            }
            if (gens && !dec_stream_done(ds)) {
                cs_model snap, cut;
                cs_model_init(&cut);
                cs_file part = {.data = whole.data, .size = gs.off[gens], .path = path};
                assert_true(dec_stream_model(ds, &snap, &err));
                assert_true(dec_trace_load(&d, &part, &cut, NULL, &err));
                same_model(path, &snap, &cut);
                cs_model_deinit(&snap), cs_model_deinit(&cut);
            }
            if (dec_stream_done(ds))
                break;
            if (sent < whole.size) {
                size_t n = piece < whole.size - sent ? piece : whole.size - sent;
                assert_true(write(fds[1], whole.data + sent, n) == (ssize_t)n);
                sent += n;
            } else if (fds[1] >= 0) {
                close(fds[1]), fds[1] = -1;
            } else {
                assert_true(cs_file_more(&f, &err)); /* the end */
            }
        }
        assert_true(legacy ? gens == 1 : gens == full.n_gens);
        cs_model last;
        assert_true(dec_stream_model(ds, &last, &err));
        same_model(path, &last, &full);
        if (!legacy && f.held_max >= whole.size && full.n_gens > 2)
            fail_msg("%s: all of its %zu bytes held at once", path, whole.size);
        cs_model_deinit(&last), cs_model_deinit(&full);
        dec_stream_close(ds);
        cs_file_unmap(&f);
        close(fds[0]);
        cs_file_unmap(&whole);
    }
}

/* A legacy trace in a file still being written is decoded whole each time
 * the file has grown and then paused: cut, it waits (no error, no model);
 * complete, it gives the file's model, and the file is still followed. */
static void growing_legacy_file_decodes_once_it_pauses(void **st)
{
    (void)st;
    char path[512], dir[] = "/tmp/cs-test-XXXXXX", grow[256];
    snprintf(path, sizeof path, "%s/corpus/go1.19/pingpong.trace", tl_data());
    assert_non_null(mkdtemp(dir));
    snprintf(grow, sizeof grow, "%s/growing.trace", dir);
    cs_file whole;
    cs_err err = {0};
    assert_true(cs_file_map(path, &whole, &err));
    cs_model full;
    cs_model_init(&full);
    dec_desc d = {.path = path, .jobs = 1};
    assert_true(dec_trace_load(&d, &whole, &full, NULL, &err));
    assert_true(cs_write_file(grow, whole.data, whole.size / 2, &err));
    cs_file f;
    dec_stream *ds;
    assert_true(cs_file_follow(grow, &f, &err));
    assert_true(dec_stream_open(&d, &f, &ds, &err));
    uint32_t added = 0, total = 0;
    for (int i = 0; i < 4; i++) { /* it grew, then paused: tried, cut, no error */
        assert_true(cs_file_poll(&f, 1, &err) && dec_stream_feed(ds, false, &added, &err));
        total += added;
    }
    assert_int_equal(total, 0);
    FILE *w = fopen(grow, "ab");
    assert_non_null(w);
    assert_int_equal(fwrite(whole.data + whole.size / 2, 1, whole.size - whole.size / 2, w),
                     whole.size - whole.size / 2);
    fclose(w);
    for (int i = 0; i < 4; i++) {
        assert_true(cs_file_poll(&f, 1, &err) && dec_stream_feed(ds, false, &added, &err));
        total += added;
    }
    assert_int_equal(total, 1);
    assert_false(dec_stream_done(ds)); /* a file may grow yet */
    cs_model m;
    assert_true(dec_stream_model(ds, &m, &err));
    same_model(path, &m, &full);
    cs_model_deinit(&m), cs_model_deinit(&full);
    dec_stream_close(ds);
    cs_file_unmap(&f);
    cs_file_unmap(&whole);
    unlink(grow);
    rmdir(dir);
}

/* A finished file followed as if still being written: a Go 1.26+
 * generation ends with its EndOfGeneration byte, so all are decoded; the
 * last Go 1.25 one, which nothing ends, only once the caller says the
 * writer has paused (settled), to the file's model. */
static void followed_file_shows_its_last_generation_once_settled(void **st)
{
    (void)st;
    static const char *const names[] = {"gens/gens-go1.25", "gens/gens-go1.27"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s.trace", tl_data(), names[i]);
        cs_file whole, f;
        cs_err err = {0};
        assert_true(cs_file_map(path, &whole, &err));
        cs_model full, m;
        cs_model_init(&full);
        dec_desc d = {.path = path, .jobs = 1};
        assert_true(dec_trace_load(&d, &whole, &full, NULL, &err));
        dec_stream *ds;
        assert_true(cs_file_follow(path, &f, &err));
        assert_true(dec_stream_open(&d, &f, &ds, &err));
        uint32_t added, gens = 0;
        for (int k = 0; k < 40 && f.size < whole.size; k++)
            assert_true(cs_file_poll(&f, 1, &err));
        assert_true(f.size == whole.size && !f.ended);
        assert_true(dec_stream_feed(ds, false, &added, &err));
        gens += added;
        assert_int_equal(gens, full.version >= 1026 ? full.n_gens : full.n_gens - 1);
        assert_true(dec_stream_feed(ds, true, &added, &err));
        gens += added;
        assert_int_equal(gens, full.n_gens);
        assert_false(dec_stream_done(ds));
        assert_true(dec_stream_model(ds, &m, &err));
        same_model(path, &m, &full);
        cs_model_deinit(&m), cs_model_deinit(&full);
        dec_stream_close(ds);
        cs_file_unmap(&f);
        cs_file_unmap(&whole);
    }
}

static void go122_corpus_matches_oracle(void **st) { (void)st; corpus_dir("go1.22"); }
static void go123_corpus_matches_oracle(void **st) { (void)st; corpus_dir("go1.23"); }
static void go125_corpus_matches_oracle(void **st) { (void)st; corpus_dir("go1.25"); }
static void go126_corpus_matches_oracle(void **st) { (void)st; corpus_dir("go1.26"); }
static void go127_corpus_matches_oracle(void **st) { (void)st; corpus_dir("go1.27"); }

static void progress_rises_to_file_size_and_false_cancels(void **st)
{
    (void)st;
    tl_check_progress("tests/data/pingpong-go1.25.trace");
    tl_check_progress("tests/data/corpus/go1.23/annotated.trace");
    tl_check_progress("tests/data/gens/gens-go1.25.trace");
    tl_check_progress("tests/data/gens/gens-go1.27.trace");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(progress_rises_to_file_size_and_false_cancels),
        cmocka_unit_test(repo_copies_match_oracle),
        cmocka_unit_test(generations_ahead_match_oracle),
        cmocka_unit_test(cuts_anywhere_match_oracle),
        cmocka_unit_test(model_parts_match_one_thread),
        cmocka_unit_test(go_testdata_model_parts_match_one_thread),
        cmocka_unit_test(regions_nest_in_the_model),
        cmocka_unit_test(pictures_keep_the_drawn_ranges),
        cmocka_unit_test(streams_decode_a_generation_at_a_time),
        cmocka_unit_test(stream_decoder_grows_a_generation_at_a_time),
        cmocka_unit_test(growing_legacy_file_decodes_once_it_pauses),
        cmocka_unit_test(followed_file_shows_its_last_generation_once_settled),
        cmocka_unit_test(go_conformance_cases_accepted_or_rejected),
        cmocka_unit_test(go122_corpus_matches_oracle),
        cmocka_unit_test(go123_corpus_matches_oracle),
        cmocka_unit_test(go125_corpus_matches_oracle),
        cmocka_unit_test(go126_corpus_matches_oracle),
        cmocka_unit_test(go127_corpus_matches_oracle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
