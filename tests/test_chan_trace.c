/* tests/test_chan_trace.c — channel traffic decoded from real traces: every
 * corpus program under every Go version (tests/data/corpus, and
 * ../shared/traces/corpus when present) against what the program knows it
 * did (*.truth.json) and what Go's own readers saw (Go 1.27's
 * *.oracle-go127.json, Go 1.21's *.legacy-oracle.json), and gotrace's patched-runtime traces against their
 * GoSend/GoRecv counts. */
#include "testlib.h"
#include "../layout/lod.h"

static const char *const versions[] = {"go1.19", "go1.21", "go1.22", "go1.23", "go1.25", "go1.26", "go1.27"};
#define N_VERSIONS (sizeof versions / sizeof *versions)

typedef struct corpus_case {
    char trace[600], base[512]; /* base: path without ".trace" */
    cs_file f;
    cs_model m;
    json_t *truth;
} corpus_case;

/* Loads DIR/VER/PROG.trace; false when the files are absent. */
static bool open_case(corpus_case *c, const char *dir, const char *ver, const char *prog)
{
    snprintf(c->base, sizeof c->base, "%s/%s/%s", dir, ver, prog);
    snprintf(c->trace, sizeof c->trace, "%s.trace", c->base);
    char path[600];
    snprintf(path, sizeof path, "%s.truth.json", c->base);
    struct stat st;
    if (stat(c->trace, &st) != 0 || !(c->truth = tl_json(path)))
        return false;
    cs_err err = {0};
    if (!tl_load(c->trace, &c->f, &c->m, NULL, &err))
        fail_msg("%s:%llu: %s", c->trace, (unsigned long long)err.offset, err.msg);
    return true;
}

static void close_case(corpus_case *c)
{
    cs_model_deinit(&c->m);
    cs_file_unmap(&c->f);
    json_decref(c->truth);
}

/* Calls fn on every copy of PROG: the repo's and the shared corpus. */
static int each_case(const char *prog, void (*fn)(corpus_case *c, const char *ver))
{
    char shared[512];
    const char *sh = tl_shared();
    snprintf(shared, sizeof shared, "%s/corpus", sh ? sh : "");
    const char *dirs[] = {"tests/data/corpus", sh ? shared : NULL};
    int n = 0;
    for (int d = 0; d < 2 && dirs[d]; d++)
        for (size_t v = 0; v < N_VERSIONS; v++) {
            corpus_case c;
            memset(&c, 0, sizeof c);
            if (!open_case(&c, dirs[d], versions[v], prog))
                continue;
            fn(&c, versions[v]);
            close_case(&c);
            n++;
        }
    return n;
}

static uint32_t count(const cs_model *m, cs_msg_kind k, int exact)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->n_msgs; i++)
        n += cs_msg_kind_of(&m->msgs[i]) == k && cs_msg_exact(&m->msgs[i]) == exact;
    return n;
}

/* At least min cases ran (the repo's copies alone give that many). */
static void need(int n, int min)
{
    assert_true(n >= min);
}

/* ---- hand-offs equal the truth -------------------------------------- */

static void check_handoffs(corpus_case *c, const char *ver)
{
    json_t *h = json_object_get(c->truth, "handoffs");
    if (!h)
        return;
    uint32_t got = count(&c->m, CS_MK_SEND, 0);
    if (got != json_integer_value(h))
        fail_msg("%s (%s): %u send->receive messages, the program made %lld", c->trace, ver, got,
                 (long long)json_integer_value(h));
}

static void corpus_handoffs_equal_truth_for_every_version(void **st)
{
    (void)st;
    static const char *progs[] = {"pingpong", "selectmix", "fanin", "workers", "ring", "spawnstorm"};
    int n = 0;
    for (size_t p = 0; p < sizeof progs / sizeof *progs; p++)
        n += each_case(progs[p], check_handoffs);
    need(n, 4);
}

static void check_closebcast(corpus_case *c, const char *ver)
{
    (void)ver;
    const cs_model *m = &c->m;
    assert_int_equal(count(m, CS_MK_CLOSE, 0), json_integer_value(json_object_get(c->truth, "close_wakeups")));
    assert_int_equal(count(m, CS_MK_SEND, 0), 0);
    uint32_t chan = 0;
    for (uint32_t i = 0; i < m->n_msgs; i++) {
        const cs_msg *x = &m->msgs[i];
        if (cs_msg_kind_of(x) != CS_MK_CLOSE)
            continue;
        assert_int_equal(m->g[cs_msg_sender(m, i)].goid, 1); /* main closes */
        if (!chan)
            chan = cs_msg_chan(m, i);
        assert_int_equal(cs_msg_chan(m, i), chan); /* one close site, one receive site */
        for (uint32_t j = 0; j < i; j++)
            assert_true(cs_msg_receiver(m, j) != cs_msg_receiver(m, i));
    }
    assert_int_equal(m->chans[chan].count, 16);
}

static void closebcast_is_one_close_waking_sixteen(void **st)
{
    (void)st;
    need(each_case("closebcast", check_closebcast), 2);
}

static void check_annotated(corpus_case *c, const char *ver)
{
    const cs_model *m = &c->m;
    assert_int_equal(count(m, CS_MK_SEND, 1), json_integer_value(json_object_get(c->truth, "annotated_sends")));
    uint32_t seen = 0;
    for (uint32_t i = 0; i < m->n_msgs; i++) {
        const cs_msg *x = &m->msgs[i];
        if (!cs_msg_exact(x))
            continue;
        /* the producer sends i*i for i = 0..9; messages come in send order */
        char want[16];
        snprintf(want, sizeof want, "%u", seen * seen);
        if (strcmp(cs_model_str(m, cs_msg_value(m, i)), want) != 0)
            fail_msg("%s (%s): message %u has value '%s', want %s", c->trace, ver, seen,
                     cs_model_str(m, cs_msg_value(m, i)), want);
        assert_true(cs_msg_sender(m, i) && cs_msg_receiver(m, i) && cs_msg_sender(m, i) != cs_msg_receiver(m, i));
        assert_true(cs_msg_t_send(m, i) < cs_msg_t_recv(m, i));
        assert_true(m->chans[cs_msg_chan(m, i)].rt_id != 0);
        seen++;
    }
}

static void annotated_pairs_its_ten_sends_with_values(void **st)
{
    (void)st;
    need(each_case("annotated", check_annotated), 2);
}

/* ---- edges against Go's own readers ---------------------------------- */

typedef struct ub {
    int64_t ts;
    uint64_t from, to;
} ub;

static int ub_cmp(const void *a, const void *b)
{
    const ub *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    if (x->to != y->to)
        return x->to < y->to ? -1 : 1;
    return (x->from > y->from) - (x->from < y->from);
}

static bool chan_blocked(const char *why)
{
    static const char *names[] = {"GoBlockSend", "GoBlockRecv", "GoBlockSelect", "chan send",
                                  "chan receive", "select"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(why, names[i]))
            return true;
    return false;
}

/* A frame of the channel functions (chanrecv -> chanrecv1, selectgo). */
static bool chan_func(const char *f)
{
    static const char *prefixes[] = {"runtime.chansend", "runtime.chanrecv", "runtime.selectgo",
                                     "runtime.selectnb", "reflect."};
    for (size_t i = 0; f && i < sizeof prefixes / sizeof *prefixes; i++)
        if (!strncmp(f, prefixes[i], strlen(prefixes[i])))
            return true;
    return false;
}

/* A send, receive or select the runtime made for itself: the frame after
 * the channel functions is the runtime's (GC workers starting). */
static bool runtime_own(json_t *stack)
{
    size_t n = json_array_size(stack), i = 0;
    while (i < n && !chan_func(json_string_value(json_array_get(stack, i))))
        i++;
    while (i < n && chan_func(json_string_value(json_array_get(stack, i))))
        i++;
    const char *f = i < n ? json_string_value(json_array_get(stack, i)) : NULL;
    return f && !strncmp(f, "runtime.", 8) && strcmp(f, "runtime.main");
}

/* The oracle's unblocks; with only_chan, those a goroutine made on a
 * channel-blocked goroutine with a stack (the ones that are hand-offs or
 * closes), by the oracle's own fields, but for the runtime's own. */
static uint32_t oracle_unblocks(json_t *o, bool only_chan, ub *out, uint32_t cap)
{
    json_t *u;
    size_t i;
    uint32_t n = 0;
    json_array_foreach(json_object_get(o, "unblocks"), i, u) {
        json_int_t from = json_integer_value(json_object_get(u, "From"));
        json_t *stack = json_object_get(u, "Stack");
        const char *why = json_string_value(json_object_get(u, "Blocked"));
        if (only_chan && (from <= 0 || !why || !chan_blocked(why) || json_array_size(stack) == 0 ||
                          runtime_own(stack)))
            continue;
        if (n < cap)
            out[n] = (ub){json_integer_value(json_object_get(u, "Ts")), from > 0 ? (uint64_t)from : 0,
                          (uint64_t)json_integer_value(json_object_get(u, "To"))};
        n++;
    }
    return n;
}

static uint32_t model_unblocks(const cs_model *m, bool only_msgs, ub *out, uint32_t cap)
{
    uint32_t n = 0;
    for (uint32_t i = 1; i < m->n_edges; i++) {
        const cs_edge *e = &m->edges[i];
        if (only_msgs && !(e->kind >= CS_EK_SEND && e->kind <= CS_EK_SELECT_RECV))
            continue;
        if (n < cap)
            out[n] = (ub){cs_edge_ts(m, i), e->from ? m->g[e->from].goid : 0, m->g[e->to].goid};
        n++;
    }
    return n;
}

static void compare(const char *what, const char *trace, ub *a, uint32_t na, ub *b, uint32_t nb)
{
    if (na != nb)
        fail_msg("%s %s: chanscope has %u, Go's reader %u", trace, what, na, nb);
    qsort(a, na, sizeof *a, ub_cmp);
    qsort(b, nb, sizeof *b, ub_cmp);
    for (uint32_t i = 0; i < na; i++)
        if (ub_cmp(&a[i], &b[i]) != 0)
            fail_msg("%s %s #%u: chanscope %lld %llu->%llu, Go %lld %llu->%llu", trace, what, i,
                     (long long)a[i].ts, (unsigned long long)a[i].from, (unsigned long long)a[i].to,
                     (long long)b[i].ts, (unsigned long long)b[i].from, (unsigned long long)b[i].to);
}

static void check_edges(corpus_case *c, const char *ver)
{
    bool legacy = !strcmp(ver, "go1.19") || !strcmp(ver, "go1.21");
    char path[600];
    snprintf(path, sizeof path, "%s.%s.json", c->base, legacy ? "legacy-oracle" : "oracle-go127");
    json_t *o = tl_json(path);
    if (!o)
        return;
    uint32_t cap = c->m.n_edges + json_array_size(json_object_get(o, "unblocks")) + 1;
    ub *a = test_malloc(cap * sizeof *a), *b = test_malloc(cap * sizeof *b);
    for (int only = 0; only < 2; only++) {
        uint32_t na = model_unblocks(&c->m, only, a, cap), nb = oracle_unblocks(o, only, b, cap);
        compare(only ? "hand-off and close edges" : "wake-ups", c->trace, a, na, b, nb);
    }
    /* messages stand on those edges, one each (closes included) */
    uint32_t inferred = count(&c->m, CS_MK_SEND, 0) + count(&c->m, CS_MK_CLOSE, 0);
    uint32_t chan_edges = model_unblocks(&c->m, true, a, cap);
    if (!count(&c->m, CS_MK_SEND, 1))
        assert_int_equal(inferred, chan_edges);
    test_free(a), test_free(b);
    json_decref(o);
}

static void message_edges_are_exactly_the_oracle_unblocks(void **st)
{
    (void)st;
    static const char *progs[] = {"pingpong", "selectmix", "closebcast", "annotated", "fanin",
                                  "workers", "spawnstorm", "primesieve", "pipeline", "syncmix",
                                  "netserver", "gcheavy"};
    int n = 0;
    for (size_t p = 0; p < sizeof progs / sizeof *progs; p++)
        n += each_case(progs[p], check_edges);
    need(n, 8);
}

static void check_ring_end(corpus_case *c, const char *ver)
{
    (void)ver;
    const cs_model *m = &c->m;
    uint32_t blocked = 0;
    for (uint32_t i = 1; i < m->n_g; i++) {
        const cs_goroutine *g = &m->g[i];
        if (!g->span_count || (g->flags & CS_G_SYSTEM))
            continue;
        uint32_t last = g->span_first + g->span_count - 1;
        blocked += cs_span_state(m, last) == CS_ST_BLOCKED && cs_span_reason(m, last) == CS_R_CHAN_RECV;
    }
    /* 100 goroutines, the one holding the token ends; the rest wait forever */
    assert_true(blocked >= 90);
    assert_int_equal(count(m, CS_MK_SEND, 0), json_integer_value(json_object_get(c->truth, "handoffs")));
}

static void trace_ending_with_blocked_goroutines_keeps_every_handoff(void **st)
{
    (void)st;
    need(each_case("ring", check_ring_end), 2);
}

/* ---- a still picture's model ------------------------------------------ */

/* trf_build_drawn keeps exactly the sync wake-ups, in order, with the time
 * blocks over them, and the arrows a picture bundles from it are the
 * same, message for message. */
static void check_build_drawn(corpus_case *c, const char *ver)
{
    cs_model t;
    cs_err err = {0};
    assert_true(cs_model_copy(&c->m, &t, &err));
    assert_true(trf_build_drawn(&t, &err));
    uint32_t k = 1;
    for (uint32_t i = 1; i < c->m.n_edges; i++) {
        if (c->m.edges[i].kind != CS_EK_SYNC)
            continue;
        if (k >= t.n_edges || !tl_same_edge(&c->m, i, &t, k))
            fail_msg("%s (%s): sync wake-up %u is not kept as edge %u", c->trace, ver, i, k);
        k++;
    }
    assert_int_equal(k, t.n_edges);
    assert_int_equal(t.n_msgs, c->m.n_msgs);
    assert_int_equal(t.n_sync_block, (t.n_edges + CS_TBLOCK - 1) / CS_TBLOCK);
    lay_axis a;
    lay_lanes l;
    lay_bundles b0, b1;
    assert_true(lay_axis_build(&c->m, &(lay_axis_desc){0}, &a, &err));
    assert_true(lay_lanes_build(&c->m, &(lay_lanes_desc){.show_system = true}, &l, &err));
    assert_true(lay_lod_arrows(&c->m, &a, &l, 640, 0, &b0, &err));
    assert_true(lay_lod_arrows(&t, &a, &l, 640, 0, &b1, &err));
    assert_int_equal(b0.n, b1.n);
    for (int kd = 0; kd < LAY_ARROW_COUNT; kd++)
        assert_int_equal(b0.n_arrows[kd], b1.n_arrows[kd]);
    for (uint32_t i = 0; i < b0.n; i++) {
        const lay_bundle *x = &b0.b[i], *y = &b1.b[i];
        assert_true(x->t0 == y->t0 && x->t1 == y->t1 && x->from == y->from && x->to == y->to &&
                    x->count == y->count && x->kind == y->kind && x->col == y->col);
        if (x->kind != LAY_ARROW_SYNC)
            assert_int_equal(x->first, y->first);
    }
    lay_bundles_deinit(&b0), lay_bundles_deinit(&b1);
    lay_lanes_deinit(&l);
    lay_axis_deinit(&a);
    cs_model_deinit(&t);
}

static void still_model_keeps_the_sync_wakeups_and_draws_the_same(void **st)
{
    (void)st;
    static const char *progs[] = {"netserver", "syncmix", "closebcast", "pingpong"};
    int n = 0;
    for (size_t p = 0; p < sizeof progs / sizeof *progs; p++)
        n += each_case(progs[p], check_build_drawn);
    need(n, 4);
}

/* ---- gotrace patched runtimes ---------------------------------------- */

static int check_patched(const char *trace)
{
    char path[600];
    snprintf(path, sizeof path, "%.*s.truth.json", (int)(strlen(trace) - 6), trace);
    json_t *truth = tl_json(path);
    assert_non_null(truth);
    cs_file f;
    cs_model m;
    cs_err err = {0};
    if (!tl_load(trace, &f, &m, NULL, &err))
        fail_msg("%s:%llu: %s", trace, (unsigned long long)err.offset, err.msg);
    uint32_t sends = 0, recvs = 0;
    for (uint32_t i = 0; i < m.n_rtmsgs; i++)
        *(m.rtmsgs[i].is_recv ? &recvs : &sends) += 1;
    assert_int_equal(sends, json_integer_value(json_object_get(truth, "gosend")));
    assert_int_equal(recvs, json_integer_value(json_object_get(truth, "gorecv")));
    uint32_t pairs = count(&m, CS_MK_SEND, 1);
    assert_true(pairs > 0 && pairs <= sends && pairs <= recvs);
    assert_int_equal(count(&m, CS_MK_SEND, 0) + count(&m, CS_MK_CLOSE, 0), 0);
    for (uint32_t i = 0; i < m.n_msgs; i++) {
        assert_true(m.chans[cs_msg_chan(&m, i)].rt_id != 0);
        if (cs_msg_kind_of(&m.msgs[i]) == CS_MK_SEND)
            assert_true(cs_msg_value(&m, i) != 0 && cs_msg_sender(&m, i) != 0 && cs_msg_receiver(&m, i) != 0);
        /* the pictures show both ends by default: a Go 1.5 trace names no
         * goroutine, which does not make them all the runtime's */
        assert_false(m.g[cs_msg_sender(&m, i)].flags & CS_G_SYSTEM);
        assert_false(m.g[cs_msg_receiver(&m, i)].flags & CS_G_SYSTEM);
    }
    cs_model_deinit(&m);
    cs_file_unmap(&f);
    json_decref(truth);
    return 1;
}

static void gotrace_patched_events_match_truth_and_pair(void **st)
{
    (void)st;
    static const char *names[] = {"fanin1", "pingpong01", "primesieve", "range", "select", "workers1"};
    char shared[512], path[700];
    const char *sh = tl_shared();
    snprintf(shared, sizeof shared, "%s/gotrace-patched", sh ? sh : "");
    const char *dirs[] = {"tests/data/gotrace-patched", sh ? shared : NULL};
    int n = 0;
    for (int d = 0; d < 2 && dirs[d]; d++)
        for (int v = 0; v < 2; v++)
            for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
                snprintf(path, sizeof path, "%s/go1.%d-%s.trace", dirs[d], v ? 8 : 6, names[i]);
                struct stat s;
                if (stat(path, &s) == 0)
                    n += check_patched(path);
            }
    need(n, 12);
}

/* ---- goroutines from before the trace -------------------------------- */

static const cs_goroutine *g_named(const cs_model *m, const char *name)
{
    for (uint32_t i = 1; i < m->n_g; i++)
        if (!strcmp(cs_model_str(m, m->g[i].name), name))
            return &m->g[i];
    return NULL;
}

static bool shown(const cs_model *m, uint32_t gi)
{
    return gi && gi < m->n_g && !(m->g[gi].flags & CS_G_SYSTEM);
}

/* tests/data/before/pre.go: goroutines that exist before trace.Start, one
 * blocked for good, one woken by main's send, one asleep, one in read(2).
 * Each is in the state its status gives from the trace's first Sync (as
 * Go's Summarizer has it), not from its status event's time; the three
 * that did something are the program's although no event of theirs
 * carries a stack to name them, so main's one send is drawn; the runtime's
 * own, seen in one state, stay hidden. iterpull.go: iter.Pull's coroutines
 * (runtime.corostart) are the program's, and so are all 50 messages of the
 * channel one of them reads. */
static void goroutines_from_before_the_trace_are_drawn_from_its_start(void **st)
{
    (void)st;
    const char *pre[] = {"tests/data/before/pre-go1.23.trace", "tests/data/before/pre-go1.27.trace"};
    for (size_t k = 0; k < sizeof pre / sizeof *pre; k++) {
        cs_file f;
        cs_model m;
        cs_err err = {0};
        assert_true(tl_load(pre[k], &f, &m, NULL, &err));
        const cs_goroutine *leak = g_named(&m, "main.leak"), *fg = g_named(&m, "runtime.forcegchelper");
        assert_non_null(leak);
        assert_non_null(fg);
        assert_true(leak->create_ns == m.t_first && (leak->flags & CS_G_AT_START) && !(leak->flags & CS_G_SYSTEM));
        assert_int_equal(leak->span_count, 1);
        assert_true(cs_span_t0(&m, leak->span_first) == m.t_first &&
                    cs_span_state(&m, leak->span_first) == CS_ST_BLOCKED);
        assert_true(fg->flags & CS_G_SYSTEM);
        uint32_t unnamed = 0;
        for (uint32_t i = 1; i < m.n_g; i++)
            if (!cs_model_str(&m, m.g[i].name)[0] && shown(&m, i)) {
                assert_true(m.g[i].create_ns == m.t_first && m.g[i].span_count > 1);
                unnamed++;
            }
        assert_int_equal(unnamed, 3);
        assert_int_equal(m.n_msgs, 1);
        assert_true(shown(&m, cs_msg_receiver(&m, 0)) && m.g[cs_msg_sender(&m, 0)].goid == 1);
        cs_model_deinit(&m);
        cs_file_unmap(&f);
    }
    cs_file f;
    cs_model m;
    cs_err err = {0};
    assert_true(tl_load("tests/data/before/iterpull-go1.27.trace", &f, &m, NULL, &err));
    const cs_goroutine *co = g_named(&m, "runtime.corostart");
    assert_true(co && !(co->flags & CS_G_SYSTEM));
    assert_int_equal(m.n_msgs, 50);
    for (uint32_t i = 0; i < m.n_msgs; i++)
        assert_true(shown(&m, cs_msg_sender(&m, i)) && shown(&m, cs_msg_receiver(&m, i)));
    cs_model_deinit(&m);
    cs_file_unmap(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(corpus_handoffs_equal_truth_for_every_version),
        cmocka_unit_test(closebcast_is_one_close_waking_sixteen),
        cmocka_unit_test(annotated_pairs_its_ten_sends_with_values),
        cmocka_unit_test(message_edges_are_exactly_the_oracle_unblocks),
        cmocka_unit_test(trace_ending_with_blocked_goroutines_keeps_every_handoff),
        cmocka_unit_test(gotrace_patched_events_match_truth_and_pair),
        cmocka_unit_test(still_model_keeps_the_sync_wakeups_and_draws_the_same),
        cmocka_unit_test(goroutines_from_before_the_trace_are_drawn_from_its_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
