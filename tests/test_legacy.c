/* tests/test_legacy.c — the legacy decoder (Go 1.5–1.21) against Go 1.21's
 * own legacy parser: for every trace with a *.legacy-oracle.json (the repo's
 * tests/data copies, and Go's test traces plus the go1.19/go1.21 corpus in
 * ../shared/traces when present) the event count per type and in total,
 * every goroutine's GoroutineStats to the nanosecond, and every unblock edge
 * (time, unblocker, woken goroutine, Go's block event name, unblocker's stack
 * function names) must equal the oracle. Also: the streaming and the
 * materialised paths agree, Go's rejected trace is rejected, and hand-made
 * hostile records fail with an offset. */
#include "testlib.h"

#include "../core/build.h"

#include <dirent.h>

#define MAX_TYPES 64

typedef struct counter {
    const char *name[MAX_TYPES];
    json_int_t n[MAX_TYPES];
    int used;
    json_int_t total;
} counter;

static bool count_event(void *ud, const dec_event *ev, cs_err *err)
{
    (void)err;
    counter *c = ud;
    c->total++;
    for (int i = 0; i < c->used; i++)
        if (!strcmp(c->name[i], ev->type_name)) {
            c->n[i]++;
            return true;
        }
    assert_true(c->used < MAX_TYPES);
    c->name[c->used] = ev->type_name;
    c->n[c->used++] = 1;
    return true;
}

static bool load_jobs(const char *path, int jobs, cs_file *f, cs_model *m, cs_stats *s, counter *c, cs_err *err)
{
    cs_model_init(m);
    memset(s, 0, sizeof *s);
    if (!cs_file_map(path, f, err))
        return false;
    dec_desc d = {.path = path, .jobs = jobs, .split_min = jobs > 1 ? 1 : 0, .on_event = c ? count_event : NULL,
                  .event_ud = c};
    return dec_trace_load(&d, f, m, s, err);
}

static bool load(const char *path, cs_file *f, cs_model *m, cs_stats *s, counter *c, cs_err *err)
{
    return load_jobs(path, 0, f, m, s, c, err);
}

static void check_counts(const char *path, const counter *c, json_t *o)
{
    json_t *want = json_object_get(o, "event_counts");
    if (c->total != json_integer_value(json_object_get(o, "events")))
        fail_msg("%s: %lld events, oracle %lld", path, (long long)c->total,
                 (long long)json_integer_value(json_object_get(o, "events")));
    assert_int_equal(json_object_size(want), c->used);
    for (int i = 0; i < c->used; i++)
        if (json_integer_value(json_object_get(want, c->name[i])) != c->n[i])
            fail_msg("%s: %s %lld, oracle %lld", path, c->name[i], (long long)c->n[i],
                     (long long)json_integer_value(json_object_get(want, c->name[i])));
}

static void check_stats(const char *path, const cs_stats *s, const cs_model *m, json_t *o)
{
    json_t *gs = json_object_get(o, "goroutines");
    assert_int_equal(json_array_size(gs), s->n);
    for (uint32_t i = 0; i < s->n; i++) {
        const cs_gstat *g = &s->g[i];
        json_t *w = json_array_get(gs, i); /* both sorted by id */
        int64_t got[] = {(int64_t)g->goid, (int64_t)g->pc, g->creation, g->start, g->end, g->exec,
                         g->sched_wait, g->io, g->block, g->syscall, g->gc, g->sweep, g->total};
        static const char *const keys[] = {"ID", "PC", "Creation", "Start", "End", "Exec", "SchedWait",
                                           "IO", "Block", "Syscall", "GC", "Sweep", "Total"};
        for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
            if (got[k] != (int64_t)json_integer_value(json_object_get(w, keys[k])))
                fail_msg("%s: goroutine %llu %s = %lld, oracle %lld", path, (unsigned long long)g->goid,
                         keys[k], (long long)got[k], (long long)json_integer_value(json_object_get(w, keys[k])));
        assert_string_equal(cs_model_str(m, g->name), json_string_value(json_object_get(w, "Name")));
    }
}

static bool edge_matches(const cs_model *m, uint32_t ei, json_t *u)
{
    const cs_edge *e = &m->edges[ei];
    const cs_wsite *w = cs_edge_site(m, e);
    json_t *stk = json_object_get(u, "Stack");
    uint64_t from = e->from ? m->g[e->from].goid : 0;
    if (cs_edge_ts(m, ei) != json_integer_value(json_object_get(u, "Ts")) ||
        from != (uint64_t)json_integer_value(json_object_get(u, "From")) ||
        m->g[e->to].goid != (uint64_t)json_integer_value(json_object_get(u, "To")) ||
        strcmp(cs_model_str(m, w->reason_name), json_string_value(json_object_get(u, "Blocked"))) ||
        cs_model_stack_len(m, w->stack) != json_array_size(stk))
        return false;
    for (uint32_t i = 0; i < cs_model_stack_len(m, w->stack); i++)
        if (strcmp(cs_model_str(m, cs_model_stack_frame(m, w->stack, i)->func),
                   json_string_value(json_array_get(stk, i))))
            return false;
    return true;
}

/* Go breaks ties between Ps at equal times arbitrarily (map order), so edges
 * with the same time may come in any order: match within equal-time groups. */
static void check_edges(const char *path, const cs_model *m, json_t *o)
{
    json_t *ub = json_object_get(o, "unblocks");
    assert_int_equal(json_array_size(ub), m->n_edges - 1);
    for (size_t i = 0; i < json_array_size(ub); i++) {
        bool found = false;
        for (uint32_t j = (uint32_t)i + 1; j < m->n_edges && !found; j++) {
            if (cs_edge_ts(m, j) != json_integer_value(json_object_get(json_array_get(ub, i), "Ts")))
                break;
            found = edge_matches(m, j, json_array_get(ub, i));
        }
        for (uint32_t j = (uint32_t)i + 1; j-- > 1 && !found;) {
            if (cs_edge_ts(m, j) != json_integer_value(json_object_get(json_array_get(ub, i), "Ts")))
                break;
            found = edge_matches(m, j, json_array_get(ub, i));
        }
        if (!found)
            fail_msg("%s: unblock %zu (ts %lld, to %lld) has no equal edge", path, i,
                     (long long)json_integer_value(json_object_get(json_array_get(ub, i), "Ts")),
                     (long long)json_integer_value(json_object_get(json_array_get(ub, i), "To")));
    }
}

/* trace + oracle: counts through on_event (materialised path), stats and
 * edges through the streaming path on one thread and on two, and stats
 * equal on all. */
static void check_trace(const char *trace, const char *oracle)
{
    json_t *o = tl_json(oracle);
    assert_non_null(o);
    cs_file f;
    cs_model m;
    cs_stats s;
    cs_err err = {0};
    counter c = {0};
    if (json_object_get(o, "error")) {
        assert_false(load(trace, &f, &m, &s, NULL, &err));
        assert_non_null(strstr(err.msg, json_string_value(json_object_get(o, "error"))));
    } else {
        if (!load(trace, &f, &m, &s, &c, &err))
            fail_msg("%s:%llu: %s", trace, (unsigned long long)err.offset, err.msg);
        check_counts(trace, &c, o);
        check_stats(trace, &s, &m, o);
        for (int jobs = 1; jobs <= 2; jobs++) {
            cs_model_deinit(&m), cs_stats_deinit(&s), cs_file_unmap(&f);
            assert_true(load_jobs(trace, jobs, &f, &m, &s, NULL, &err));
            check_stats(trace, &s, &m, o);
            check_edges(trace, &m, o);
            assert_int_equal(m.n_events, c.total);
        }
    }
    cs_model_deinit(&m), cs_stats_deinit(&s), cs_file_unmap(&f);
    json_decref(o);
}

/* Every NAME(.trace) in dir with a NAME.legacy-oracle.json beside it. */
static int check_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *suf = ".legacy-oracle.json";
        size_t l = strlen(e->d_name), ls = strlen(suf);
        if (l <= ls || strcmp(e->d_name + l - ls, suf))
            continue;
        char oracle[600], trace[600];
        snprintf(oracle, sizeof oracle, "%s/%s", dir, e->d_name);
        snprintf(trace, sizeof trace, "%s/%.*s.trace", dir, (int)(l - ls), e->d_name);
        struct stat st;
        if (stat(trace, &st) != 0)
            snprintf(trace, sizeof trace, "%s/%.*s", dir, (int)(l - ls), e->d_name);
        check_trace(trace, oracle);
        n++;
    }
    closedir(d);
    return n;
}

static void repo_copies_match_go_exactly(void **st)
{
    (void)st;
    int n = check_dir("tests/data/corpus/go1.19") + check_dir("tests/data/corpus/go1.21");
    assert_true(n >= 4);
}

static void go_testdata_and_corpus_match_go_exactly(void **st)
{
    (void)st;
    const char *sh = tl_shared();
    if (!sh)
        skip();
    char dir[512];
    int n = 0;
    snprintf(dir, sizeof dir, "%s/go-testdata/legacy", sh);
    n += check_dir(dir);
    snprintf(dir, sizeof dir, "%s/corpus/go1.19", sh);
    n += check_dir(dir);
    snprintf(dir, sizeof dir, "%s/corpus/go1.21", sh);
    n += check_dir(dir);
    assert_true(n >= 50); /* 26 Go test traces + 13 + 13 corpus programs */
}

static void unordered_1_5_trace_is_rejected(void **st)
{
    (void)st;
    const char *sh = tl_shared();
    if (!sh)
        skip();
    char path[512];
    snprintf(path, sizeof path, "%s/go-testdata/legacy/stress_1_5_unordered", sh);
    cs_file f;
    cs_model m;
    cs_stats s;
    cs_err err = {0};
    assert_false(load(path, &f, &m, &s, NULL, &err));
    assert_string_equal(err.msg, "time stamps out of order");
    assert_true(err.offset > 16 && err.offset < f.size);
    cs_model_deinit(&m), cs_stats_deinit(&s), cs_file_unmap(&f);
}

/* Decodes bytes given in memory; returns the error (code CS_OK on success). */
static cs_err decode_bytes(const uint8_t *p, size_t n)
{
    cs_file f = {.data = p, .size = n, .path = "mem"};
    cs_model m;
    cs_stats s = {0};
    cs_err err = {0};
    cs_model_init(&m);
    dec_desc d = {.path = "mem"};
    dec_trace_load(&d, &f, &m, &s, &err);
    cs_model_deinit(&m), cs_stats_deinit(&s);
    return err;
}

static void hostile_records_fail_with_offset(void **st)
{
    (void)st;
    static const uint8_t hdr[16] = "go 1.19 trace\0\0";
    uint8_t buf[64];
    /* a String record claiming 2^60 bytes */
    memcpy(buf, hdr, 16);
    uint8_t huge[] = {37, 1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x10};
    memcpy(buf + 16, huge, sizeof huge);
    cs_err e = decode_bytes(buf, 16 + sizeof huge);
    assert_int_equal(e.code, CS_E_CORRUPT);
    assert_int_equal(e.offset, 16);
    /* a length-prefixed Stack whose length runs past the end */
    uint8_t stk[] = {3 | 3 << 6, 0xff, 0xff, 0x03, 1, 2};
    memcpy(buf + 16, stk, sizeof stk);
    e = decode_bytes(buf, 16 + sizeof stk);
    assert_int_equal(e.code, CS_E_TRUNCATED);
    assert_int_equal(e.offset, 16);
    /* an event type the version does not have (type 49 in a 1.11 file is a
     * patched GoSend only with 4 varints; 50 is GoRecv; 55 is nothing) */
    memcpy(buf, "go 1.11 trace\0\0", 16);
    buf[16] = 55;
    e = decode_bytes(buf, 17);
    assert_int_equal(e.code, CS_E_CORRUPT);
    assert_non_null(strstr(e.msg, "unknown event type 55"));
    /* events but no Frequency record */
    uint8_t nofreq[] = {1 | 1 << 6, 0, 10, 5 | 1 << 6, 1, 7};
    memcpy(buf, hdr, 16);
    memcpy(buf + 16, nofreq, sizeof nofreq);
    e = decode_bytes(buf, 16 + sizeof nofreq);
    assert_non_null(strstr(e.msg, "no Frequency record"));
    /* Go's own corrupted-input case */
    static const uint8_t go_case[] = "go 1.5 trace\0\0\0\0\x02" "0";
    e = decode_bytes(go_case, sizeof go_case - 1);
    assert_int_not_equal(e.code, CS_OK);
}

/* corpus program `annotated`: one task "batch", regions "produce" and
 * "consume" around 10 trace.Log calls each side, all closed. */
static void annotations_become_ranges_and_logs(void **st)
{
    (void)st;
    cs_file f;
    cs_model m;
    cs_stats s;
    cs_err err = {0};
    assert_true(load("tests/data/corpus/go1.19/annotated.trace", &f, &m, &s, NULL, &err));
    int tasks = 0, produce = 0, consume = 0;
    for (uint32_t i = 0; i < m.n_ranges; i++) {
        const cs_range *r = &m.ranges[i];
        assert_true(r->t0 <= r->t1 && r->t1 <= m.t_last);
        const char *name = cs_model_str(&m, r->name);
        tasks += r->kind == CS_RK_TASK && !strcmp(name, "batch");
        produce += r->kind == CS_RK_REGION && !strcmp(name, "produce") && r->g;
        consume += r->kind == CS_RK_REGION && !strcmp(name, "consume") && r->g;
    }
    assert_int_equal(tasks, 1);
    assert_int_equal(produce, 10);
    assert_int_equal(consume, 10);
    uint32_t sends = 0;
    for (uint32_t i = 0; i < m.n_logs; i++)
        sends += !strcmp(cs_model_str(&m, m.logs[i].category), "chan.send") &&
                 !strncmp(cs_model_str(&m, m.logs[i].message), "ch=", 3) && m.logs[i].g && m.logs[i].task;
    assert_int_equal(sends, 10);
    cs_model_deinit(&m), cs_stats_deinit(&s), cs_file_unmap(&f);
}

/* A model for pictures keeps of the ranges the collections and stops of
 * the world (not the sweeps, mark assists, task and regions), as the full
 * model has them, decoded on one thread or two: of the corpus's annotated
 * program none, and with ../shared, of its GC-heavy one (Go 1.19) 60 of
 * 1,292. */
static void pictures_keep_the_drawn_ranges(void **st)
{
    (void)st;
    char gc[512];
    const char *sh = tl_shared();
    snprintf(gc, sizeof gc, "%s/corpus/go1.19/gcheavy.trace", sh ? sh : "");
    const char *const names[] = {"tests/data/corpus/go1.19/annotated.trace", sh ? gc : NULL};
    for (size_t i = 0; i < 2 && names[i]; i++) {
        cs_file f;
        cs_model m;
        cs_stats s;
        cs_err err = {0};
        assert_true(load(names[i], &f, &m, &s, NULL, &err));
        uint32_t drawn = tl_drawn_ranges(names[i], 1, 0, &m, NULL);
        assert_true(drawn < m.n_ranges / 8 && (drawn > 0) == (i == 1));
        assert_int_equal(tl_drawn_ranges(names[i], 2, 0, &m, NULL), drawn);
        cs_model_deinit(&m), cs_stats_deinit(&s), cs_file_unmap(&f);
    }
    if (!sh)
        printf("skipping the GC-heavy Go 1.19 trace: ../shared/traces not found\n");
}

/* A trace cut inside its stack table (after the Frequency record) keeps its
 * events with a warning; --strict makes it an error. */
static void cut_stack_table_keeps_good_prefix_unless_strict(void **st)
{
    (void)st;
    cs_file f;
    cs_err err = {0};
    assert_true(cs_file_map("tests/data/corpus/go1.19/pingpong.trace", &f, &err));
    for (int strict = 0; strict < 2; strict++) {
        cs_file cut = {.data = f.data, .size = f.size - 30, .path = "cut"};
        cs_model m;
        cs_stats s = {0};
        cs_model_init(&m);
        err = (cs_err){0};
        dec_desc d = {.path = "cut", .strict = strict};
        bool ok = dec_trace_load(&d, &cut, &m, &s, &err);
        if (strict) {
            assert_false(ok);
            assert_int_equal(err.code, CS_E_TRUNCATED);
            assert_true(err.offset <= cut.size);
        } else {
            assert_true(ok);
            assert_non_null(strstr(m.warning, "cut short"));
            assert_true(m.n_events > 600 && s.n >= 8);
        }
        cs_model_deinit(&m), cs_stats_deinit(&s);
    }
    cs_file_unmap(&f);
}

/* Both streaming runs (one thread, two threads) give the same statistics
 * or the same error. */
static int same_result(bool ok0, const cs_err *e0, const cs_stats *s0, bool ok1, const cs_err *e1,
                       const cs_stats *s1)
{
    if (ok0 != ok1 || e0->code != e1->code || e0->offset != e1->offset || strcmp(e0->msg, e1->msg) ||
        s0->n != s1->n)
        return 1;
    for (uint32_t i = 0; i < s0->n; i++) {
        const cs_gstat *a = &s0->g[i], *b = &s1->g[i];
        if (a->goid != b->goid || a->creation != b->creation || a->start != b->start || a->end != b->end ||
            a->exec != b->exec || a->sched_wait != b->sched_wait || a->io != b->io || a->block != b->block ||
            a->syscall != b->syscall || a->gc != b->gc || a->sweep != b->sweep || a->total != b->total)
            return 1;
    }
    return 0;
}

/* Decodes p[0..n) three ways (streaming on one thread, streaming on two
 * with pass 1 split in halves, materialised through on_event); each must
 * succeed or fail with a message
 * and an offset inside the file, within a small multiple of the file's
 * size in memory, and the two streaming runs must agree exactly. */
static int sweep_run(const uint8_t *p, size_t n)
{
    int bad = 0;
    cs_stats st[2] = {{0}};
    cs_err e[2] = {{0}};
    bool ok[2] = {false, false};
    for (int way = 0; way < 3; way++) {
        cs_file f = {.data = n ? p : NULL, .size = n, .path = "sweep"};
        cs_model m;
        cs_stats s = {0};
        cs_err err = {0};
        counter c = {0};
        cs_model_init(&m);
        cs_alloc_peak_reset();
        size_t base = cs_alloc_current();
        dec_desc d = {.path = "sweep", .jobs = way == 1 ? 2 : 1, .split_min = 1, /* split whatever its size */
                      .on_event = way == 2 ? count_event : NULL, .event_ud = &c};
        bool r = dec_trace_load(&d, &f, &m, &s, &err);
        if (!r && (!err.msg[0] || (err.offset != CS_NO_OFFSET && err.offset > n)))
            bad++;
        if (cs_alloc_peak() - base > 64 * n + (4u << 20))
            bad++;
        cs_model_deinit(&m);
        if (way < 2)
            st[way] = s, e[way] = err, ok[way] = r;
        else
            cs_stats_deinit(&s);
    }
    bad += same_result(ok[0], &e[0], &st[0], ok[1], &e[1], &st[1]);
    cs_stats_deinit(&st[0]), cs_stats_deinit(&st[1]);
    return bad;
}

static void prefixes_and_flips_of_repo_copies_fail_cleanly(void **st)
{
    (void)st;
    static const char *const files[] = {
        "tests/data/corpus/go1.19/pingpong.trace", "tests/data/corpus/go1.19/selectmix.trace",
        "tests/data/corpus/go1.21/pingpong.trace", "tests/data/gotrace-patched/go1.6-pingpong01.trace",
        "tests/data/gotrace-patched/go1.8-select.trace"};
    uint64_t rng = 0x1e9ac7;
    int bad = 0, runs = 0;
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        cs_file f;
        cs_err err = {0};
        assert_true(cs_file_map(files[i], &f, &err));
        uint8_t *buf = malloc(f.size);
        assert_non_null(buf);
        for (size_t len = 0; len <= f.size; len++, runs++) { /* every prefix, alone in a buffer of its size:
                                                                 ASan sees a fast path read past the cut */
            uint8_t *cut = malloc(len ? len : 1);
            assert_non_null(cut);
            memcpy(cut, f.data, len);
            bad += sweep_run(cut, len);
            free(cut);
        }
        for (int k = 0; k < 300; k++, runs++) {
            memcpy(buf, f.data, f.size);
            for (int j = 0; j < 3; j++) {
                rng = rng * 6364136223846793005ull + 1442695040888963407ull;
                size_t at = 16 + (size_t)(rng >> 33) % (f.size - 16);
                buf[at] = j == 0 ? 0xff : (uint8_t)(rng >> 20); /* 0xff: a long varint continuation */
            }
            bad += sweep_run(buf, f.size);
        }
        free(buf);
        cs_file_unmap(&f);
    }
    print_message("%d runs\n", runs);
    assert_int_equal(bad, 0);
}

/* Both orderings (streaming 1.19, materialised 1.5) report through the same sink. */
static void progress_rises_to_file_size_and_false_cancels(void **st)
{
    (void)st;
    tl_check_progress("tests/data/corpus/go1.19/selectmix.trace");
    const char *sh = tl_shared();
    if (sh) {
        char path[512];
        snprintf(path, sizeof path, "%s/go-testdata/legacy/http_1_5_good", sh);
        tl_check_progress(path);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(progress_rises_to_file_size_and_false_cancels),
        cmocka_unit_test(repo_copies_match_go_exactly),
        cmocka_unit_test(go_testdata_and_corpus_match_go_exactly),
        cmocka_unit_test(unordered_1_5_trace_is_rejected),
        cmocka_unit_test(hostile_records_fail_with_offset),
        cmocka_unit_test(pictures_keep_the_drawn_ranges),
        cmocka_unit_test(annotations_become_ranges_and_logs),
        cmocka_unit_test(cut_stack_table_keeps_good_prefix_unless_strict),
        cmocka_unit_test(prefixes_and_flips_of_repo_copies_fail_cleanly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
