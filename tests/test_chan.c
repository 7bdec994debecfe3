/* tests/test_chan.c — channel traffic on models built through the builder:
 * from the oracles' unblock lists of the corpus (Go's own reading of every
 * wake-up, so the classifier is checked independently of our decoders), and
 * small hand-built cases for select (a select woken by a select too),
 * the runtime's own channels, close, nil stacks, goroutines blocked
 * at trace start or still blocked at the end, timers and annotations. */
#include "testlib.h"

#include "../core/build.h"

typedef struct tm {
    cs_model m;
    cs_mb mb;
    cs_err err;
} tm;

static void tm_init(tm *t)
{
    memset(&t->err, 0, sizeof t->err);
    cs_model_init(&t->m);
    assert_true(cs_mb_init(&t->mb, &t->m, &t->err));
}

static void tm_deinit(tm *t)
{
    cs_mb_deinit(&t->mb);
    cs_model_deinit(&t->m);
}

static cs_sid str(tm *t, const char *s)
{
    cs_sid id = cs_model_intern(&t->m, s, strlen(s), &t->err);
    assert_int_equal(t->err.code, CS_OK);
    return id;
}

/* A stack from "func:line" strings, innermost first, NULL-terminated. */
static uint32_t stk(tm *t, ...)
{
    cs_frame f[16];
    uint32_t n = 0;
    va_list ap;
    va_start(ap, t);
    for (const char *s; (s = va_arg(ap, const char *)) && n < 16; n++) {
        const char *colon = strrchr(s, ':');
        size_t len = colon ? (size_t)(colon - s) : strlen(s);
        f[n] = (cs_frame){.pc = 0x1000 + n, .func = cs_model_intern(&t->m, s, len, &t->err),
                          .file = str(t, "/src/main.go"), .line = colon ? (uint32_t)atoi(colon + 1) : 0};
    }
    va_end(ap);
    uint32_t id = cs_model_stack_add(&t->m, f, n, &t->err);
    assert_int_equal(t->err.code, CS_OK);
    return id;
}

static void blk(tm *t, int64_t ts, uint64_t g, cs_reason r, uint32_t stack)
{
    assert_true(cs_mb_set(&t->mb, ts, g, CS_ST_BLOCKED, r, str(t, cs_reason_name(r)), stack, &t->err));
}

static void run(tm *t, int64_t ts, uint64_t g)
{
    assert_true(cs_mb_set(&t->mb, ts, g, CS_ST_RUNNING, CS_R_NONE, 0, 0, &t->err));
}

static void unb(tm *t, int64_t ts, uint64_t from, uint64_t to, uint32_t stack)
{
    assert_true(cs_mb_unblock(&t->mb, ts, from, to, stack, &t->err));
}

static void fin(tm *t, int64_t end)
{
    assert_true(cs_mb_finish(&t->mb, end, &t->err));
    assert_true(trf_build(&t->m, &t->err));
}

static uint32_t gi(tm *t, uint64_t goid)
{
    uint32_t i = 0;
    assert_true(cs_model_g_find(&t->m, goid, &i));
    return i;
}

/* The messages' time blocks are the earliest send and latest receipt of
 * each CS_TBLOCK of them (of those with both), however they were made. */
static void msg_blocks_are_right(const cs_model *m)
{
    assert_int_equal(m->n_msg_block, (m->n_msgs + CS_TBLOCK - 1) / CS_TBLOCK);
    for (uint32_t b = 0; b < m->n_msg_block; b++) {
        cs_tblock want = {INT64_MAX, INT64_MIN};
        for (uint32_t i = b * CS_TBLOCK; i < m->n_msgs && i < (b + 1) * CS_TBLOCK; i++) {
            int64_t ts = cs_msg_t_send(m, i), tr = cs_msg_t_recv(m, i);
            if (ts != CS_T_NONE && tr != CS_T_NONE)
                want.t0 = ts < want.t0 ? ts : want.t0, want.t1 = tr > want.t1 ? tr : want.t1;
        }
        if (m->msg_block[b].t0 != want.t0 || m->msg_block[b].t1 != want.t1)
            fail_msg("block %u: [%lld, %lld], not [%lld, %lld]", b, (long long)m->msg_block[b].t0,
                     (long long)m->msg_block[b].t1, (long long)want.t0, (long long)want.t1);
    }
}

static uint32_t count_msgs(const cs_model *m, cs_msg_kind k)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->n_msgs; i++)
        n += cs_msg_kind_of(&m->msgs[i]) == k;
    return n;
}

/* ---- oracle unblock lists -------------------------------------------- */

static cs_reason reason_of(const char *go)
{
    static const struct { const char *name; cs_reason r; } map[] = {
        {"GoBlockSend", CS_R_CHAN_SEND}, {"chan send", CS_R_CHAN_SEND},
        {"GoBlockRecv", CS_R_CHAN_RECV}, {"chan receive", CS_R_CHAN_RECV},
        {"GoBlockSelect", CS_R_SELECT},  {"select", CS_R_SELECT},
        {"GoBlockSync", CS_R_SYNC},      {"sync", CS_R_SYNC},
        {"GoBlockCond", CS_R_COND},      {"sync.(*Cond).Wait", CS_R_COND},
        {"GoSleep", CS_R_SLEEP},         {"sleep", CS_R_SLEEP},
        {"GoBlockNet", CS_R_NET},        {"network", CS_R_NET},
        {"GoBlockGC", CS_R_GC},          {"GoBlock", CS_R_OTHER},
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (!strcmp(go, map[i].name))
            return map[i].r;
    return go[0] ? CS_R_OTHER : CS_R_NONE;
}

static uint32_t oracle_stack(tm *t, json_t *frames)
{
    cs_frame f[32];
    uint32_t n = 0;
    json_t *v;
    size_t i;
    json_array_foreach(frames, i, v) {
        if (n == 32)
            break;
        f[n++] = (cs_frame){.func = str(t, json_string_value(v)), .file = str(t, "x.go"), .line = 1};
    }
    return n ? cs_model_stack_add(&t->m, f, n, &t->err) : 0;
}

/* Builds a model whose only events are the oracle's unblocks: each woken
 * goroutine blocks just before with the oracle's reason, and runs after. */
static void oracle_model(tm *t, json_t *unblocks)
{
    tm_init(t);
    json_t *u;
    size_t i;
    int64_t last = 0;
    json_array_foreach(unblocks, i, u) {
        int64_t ts = json_integer_value(json_object_get(u, "Ts"));
        json_int_t from = json_integer_value(json_object_get(u, "From"));
        uint64_t to = (uint64_t)json_integer_value(json_object_get(u, "To"));
        const char *why = json_string_value(json_object_get(u, "Blocked"));
        blk(t, ts - 1, to, reason_of(why ? why : ""), 0);
        unb(t, ts, from > 0 ? (uint64_t)from : CS_NO_GOID, to, oracle_stack(t, json_object_get(u, "Stack")));
        run(t, ts + 1, to);
        last = ts + 2;
    }
    fin(t, last);
}

static int corpus_checked;

static void check_oracle(const char *dir, const char *ver, const char *prog, const char *kind)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/%s.truth.json", dir, ver, prog);
    json_t *truth = tl_json(path);
    snprintf(path, sizeof path, "%s/%s/%s.%s.json", dir, ver, prog, kind);
    json_t *oracle = tl_json(path);
    if (!truth || !oracle) {
        json_decref(truth), json_decref(oracle);
        return;
    }
    tm t;
    oracle_model(&t, json_object_get(oracle, "unblocks"));
    json_t *h = json_object_get(truth, "handoffs"), *cw = json_object_get(truth, "close_wakeups");
    if (h) {
        if (count_msgs(&t.m, CS_MK_SEND) != json_integer_value(h))
            fail_msg("%s: %u send messages, truth says %lld handoffs", path,
                     count_msgs(&t.m, CS_MK_SEND), (long long)json_integer_value(h));
        for (uint32_t i = 0; i < t.m.n_msgs; i++)
            assert_true(cs_msg_sender(&t.m, i) != cs_msg_receiver(&t.m, i) && cs_msg_exact(&t.m.msgs[i]) == 0);
    }
    if (cw) { /* one close, every receiver woken by the same goroutine */
        assert_int_equal(count_msgs(&t.m, CS_MK_CLOSE), json_integer_value(cw));
        for (uint32_t i = 0; i < t.m.n_msgs; i++)
            assert_int_equal(cs_msg_sender(&t.m, i), cs_msg_sender(&t.m, 0));
    }
    corpus_checked++;
    tm_deinit(&t);
    json_decref(truth), json_decref(oracle);
}

static void oracle_unblocks_give_truth_handoffs(void **st)
{
    (void)st;
    static const char *vers[] = {"go1.19", "go1.21", "go1.22", "go1.23", "go1.25", "go1.26", "go1.27"};
    static const char *progs[] = {"pingpong", "selectmix", "fanin", "workers", "ring",
                                  "spawnstorm", "closebcast"};
    char shared[512];
    const char *sh = tl_shared();
    snprintf(shared, sizeof shared, "%s/corpus", sh ? sh : "");
    const char *dirs[] = {"tests/data/corpus", sh ? shared : NULL};
    corpus_checked = 0;
    for (int d = 0; d < 2 && dirs[d]; d++)
        for (size_t v = 0; v < sizeof vers / sizeof *vers; v++)
            for (size_t p = 0; p < sizeof progs / sizeof *progs; p++) {
                check_oracle(dirs[d], vers[v], progs[p], "oracle-go127");
                check_oracle(dirs[d], vers[v], progs[p], "legacy-oracle");
            }
    assert_true(corpus_checked > 0);
}

/* ---- hand-built cases ------------------------------------------------ */

static void sender_waits_and_receiver_waits_give_truthful_times(void **st)
{
    (void)st;
    tm t;
    tm_init(&t);
    run(&t, 10, 1), run(&t, 10, 2);
    /* G1 sends first and parks; G2 receives at 50 and wakes it */
    blk(&t, 20, 1, CS_R_CHAN_SEND, stk(&t, "runtime.chansend1", "main.producer:7", NULL));
    unb(&t, 50, 2, 1, stk(&t, "runtime.chanrecv1", "main.consumer:12", NULL));
    run(&t, 60, 1);
    /* G2 receives next and parks at 70; G1 sends at 80; G2 runs at 95 */
    blk(&t, 70, 2, CS_R_CHAN_RECV, stk(&t, "runtime.chanrecv1", "main.consumer:12", NULL));
    unb(&t, 80, 1, 2, stk(&t, "runtime.chansend1", "main.producer:7", NULL));
    run(&t, 95, 2);
    fin(&t, 100);
    assert_int_equal(t.m.edges[1].kind, CS_EK_RECV);
    assert_int_equal(t.m.edges[2].kind, CS_EK_SEND);
    assert_int_equal(t.m.n_msgs, 2);
    assert_int_equal(cs_msg_sender(&t.m, 0), gi(&t, 1)), assert_int_equal(cs_msg_receiver(&t.m, 0), gi(&t, 2));
    /* G1 waited from 20, but the value left it when G2 took it at 50 */
    assert_int_equal(cs_msg_t_send(&t.m, 0), 50), assert_int_equal(cs_msg_t_recv(&t.m, 0), 50);
    assert_int_equal(cs_msg_sender(&t.m, 1), gi(&t, 1)), assert_int_equal(cs_msg_receiver(&t.m, 1), gi(&t, 2));
    assert_int_equal(cs_msg_t_send(&t.m, 1), 80), assert_int_equal(cs_msg_t_recv(&t.m, 1), 95);
    /* both hand-offs go from the same send statement to the same receive */
    uint32_t ch = cs_msg_chan(&t.m, 0);
    assert_int_equal(ch, cs_msg_chan(&t.m, 1));
    assert_int_equal(t.m.n_chans, 2);
    assert_string_equal(cs_model_str(&t.m, t.m.chans[ch].name), "main.producer:7 \xe2\x86\x92 main.consumer:12");
    assert_string_equal(cs_model_str(&t.m, t.m.chans[ch].site_send), "main.producer:/src/main.go:7");
    assert_int_equal(t.m.chans[ch].count, 2);
    tm_deinit(&t);
}

static void select_cases_get_their_direction(void **st)
{
    (void)st;
    tm t;
    tm_init(&t);
    uint32_t sel_a = stk(&t, "runtime.selectgo", "main.a:30", NULL);
    /* G1 selects, G2's plain send completes it: select-send */
    blk(&t, 10, 1, CS_R_SELECT, sel_a);
    unb(&t, 20, 2, 1, stk(&t, "runtime.chansend1", "main.b:40", NULL));
    run(&t, 21, 1);
    /* G4 parks sending; G1's select receives from it: select-recv */
    blk(&t, 22, 4, CS_R_CHAN_SEND, stk(&t, "runtime.chansend1", "main.d:60", NULL));
    unb(&t, 25, 1, 4, sel_a);
    /* G1 selects again, G3's select completes it: direction from votes (main.a receives) */
    blk(&t, 30, 1, CS_R_SELECT, sel_a);
    unb(&t, 40, 3, 1, stk(&t, "runtime.selectgo", "main.c:50", NULL));
    run(&t, 41, 1);
    fin(&t, 50);
    assert_int_equal(t.m.edges[1].kind, CS_EK_SELECT_SEND);
    assert_int_equal(t.m.edges[2].kind, CS_EK_SELECT_RECV);
    assert_int_equal(t.m.edges[3].kind, CS_EK_SELECT_SEND);
    assert_false(t.m.edges[1].guessed);
    assert_true(t.m.edges[3].guessed);
    assert_int_equal(count_msgs(&t.m, CS_MK_SEND), 3);
    assert_int_equal(cs_msg_sender(&t.m, 1), gi(&t, 4));
    assert_int_equal(cs_msg_receiver(&t.m, 1), gi(&t, 1));
    assert_int_equal(cs_msg_sender(&t.m, 2), gi(&t, 3));
    tm_deinit(&t);
}

/* A select woken by a select takes its direction from the line its
 * unblocker's selectgo woke it from, a call of recv or of send: the order
 * of the program's two lines (recv's first), the lines of Go's releases
 * for the trace's version, hand-offs of known direction from the same
 * line, or (in a trace older than the order is known for) from the other
 * line; no guess by site votes, which would say the unblocker sent. */
static void selects_woken_by_selects_go_by_selectgo_s_line(void **st)
{
    (void)st;
    for (int k = 0; k < 4; k++) {
        tm t;
        tm_init(&t);
        /* 1030: a release whose lines are not known; 1011: nor their order */
        t.m.version = k == 1 ? 1026 : k == 3 ? 1011 : 1030;
        uint32_t line_recv = k == 0 || k == 3 ? 600 : k == 1 ? 497 : 700;
        uint32_t at_p = stk(&t, "runtime.selectgo:351", "main.p:30", NULL);
        char recv_line[32], send_line[32];
        snprintf(recv_line, sizeof recv_line, "runtime.selectgo:%u", line_recv);
        snprintf(send_line, sizeof send_line, "runtime.selectgo:%u", line_recv + 30);
        if (k == 2) { /* G4 parks sending; G2's select receives from it, from line 700 */
            blk(&t, 1, 4, CS_R_CHAN_SEND, stk(&t, "runtime.chansend1", "main.d:60", NULL));
            unb(&t, 2, 2, 4, stk(&t, recv_line, "main.c:22", NULL));
            run(&t, 3, 4);
        }
        if (k == 3) { /* G2 parks receiving; G4's select sends to it, from line 630: the other line sends */
            blk(&t, 1, 2, CS_R_CHAN_RECV, stk(&t, "runtime.chanrecv1", "main.e:70", NULL));
            unb(&t, 2, 4, 2, stk(&t, send_line, "main.f:80", NULL));
            run(&t, 3, 2);
        }
        /* G1 selects (sending); G2's select receives from it */
        blk(&t, 10, 1, CS_R_SELECT, at_p);
        unb(&t, 20, 2, 1, stk(&t, recv_line, "main.c:22", NULL));
        run(&t, 21, 1);
        if (k == 0) { /* G2 selects (receiving); G1's select sends to it, from the other line */
            blk(&t, 30, 2, CS_R_SELECT, stk(&t, "runtime.selectgo:351", "main.c:22", NULL));
            unb(&t, 40, 1, 2, stk(&t, send_line, "main.p:30", NULL));
            run(&t, 41, 2);
        }
        fin(&t, 50);
        uint32_t e1 = k >= 2 ? 2 : 1;
        print_message("case %d: %u edges, %u messages\n", k, t.m.n_edges - 1, t.m.n_msgs);
        assert_int_equal(t.m.edges[e1].kind, CS_EK_SELECT_RECV);
        assert_false(t.m.edges[e1].guessed);
        if (k == 0)
            assert_int_equal(t.m.edges[2].kind, CS_EK_SELECT_SEND);
        assert_int_equal(count_msgs(&t.m, CS_MK_SEND), k == 1 ? 1 : 2);
        if (k == 3)
            assert_int_equal(t.m.edges[1].kind, CS_EK_SELECT_SEND);
        for (uint32_t i = 0; i < t.m.n_msgs; i++) /* every value went from G1 (or G4) to G2 */
            assert_int_equal(cs_msg_receiver(&t.m, i), gi(&t, 2));
        tm_deinit(&t);
    }
}

/* The runtime's own channels carry no message of the program's: a GC
 * worker starting wakes the goroutine that started the GC (both calls in
 * the runtime); a reflect.Select, whose selectgo the runtime calls for the
 * program, and a plain send still hand values over. */
static void the_runtime_s_own_channels_carry_no_message(void **st)
{
    (void)st;
    tm t;
    tm_init(&t);
    blk(&t, 10, 1, CS_R_CHAN_RECV, stk(&t, "runtime.chanrecv1", "runtime.gcBgMarkStartWorkers",
                                       "runtime.gcStart", "main.alloc:24", NULL));
    unb(&t, 20, 5, 1, stk(&t, "runtime.chansend1", "runtime.gcBgMarkWorker", NULL));
    run(&t, 21, 1);
    blk(&t, 30, 1, CS_R_SELECT, stk(&t, "runtime.selectgo", "reflect.rselect", "reflect.select0",
                                    "reflect.Select", "main.sel:40", NULL));
    unb(&t, 40, 2, 1, stk(&t, "runtime.chansend1", "main.send:50", NULL));
    run(&t, 41, 1);
    blk(&t, 50, 1, CS_R_CHAN_SEND, stk(&t, "runtime.chansend1", "main.send2:60", NULL));
    unb(&t, 60, 2, 1, stk(&t, "runtime.selectgo", "reflect.rselect", "reflect.select0", "reflect.Select",
                          "main.r:70", NULL));
    run(&t, 61, 1);
    /* signal.Notify: os/signal's goroutine and the runtime's signal M hand over */
    blk(&t, 70, 3, CS_R_CHAN_RECV, stk(&t, "runtime.chanrecv1", "runtime.sigenable", "os/signal.signal_enable",
                                       "os/signal.Notify", "main.main:9", NULL));
    unb(&t, 80, 6, 3, stk(&t, "runtime.chansend1", "runtime.ensureSigM.func1", NULL));
    run(&t, 81, 3);
    fin(&t, 90);
    assert_int_equal(t.m.edges[1].kind, CS_EK_OTHER);
    assert_int_equal(t.m.edges[2].kind, CS_EK_SELECT_SEND);
    assert_int_equal(t.m.edges[3].kind, CS_EK_SELECT_RECV);
    assert_int_equal(t.m.edges[4].kind, CS_EK_OTHER);
    assert_int_equal(t.m.n_msgs, 2);
    tm_deinit(&t);
}

static void close_wakes_every_receiver_from_one_site(void **st)
{
    (void)st;
    tm t;
    tm_init(&t);
    uint32_t wait = stk(&t, "runtime.chanrecv1", "main.main.func1:20", NULL);
    for (uint64_t g = 2; g < 6; g++)
        blk(&t, (int64_t)g, g, CS_R_CHAN_RECV, wait);
    blk(&t, 6, 6, CS_R_SELECT, stk(&t, "runtime.selectgo", "main.waiter:33", NULL));
    uint32_t closer = stk(&t, "main.main:25", "runtime.main", NULL);
    for (uint64_t g = 2; g < 7; g++)
        unb(&t, 100 + (int64_t)g, 1, g, closer);
    fin(&t, 200);
    assert_int_equal(count_msgs(&t.m, CS_MK_CLOSE), 5);
    assert_int_equal(count_msgs(&t.m, CS_MK_SEND), 0);
    for (uint32_t i = 0; i < t.m.n_msgs; i++) {
        assert_int_equal(cs_msg_sender(&t.m, i), gi(&t, 1));
        assert_int_equal(cs_msg_kind_of(&t.m.msgs[i]), CS_MK_CLOSE);
    }
    /* four receivers at one statement share a channel, the select another */
    assert_int_equal(t.m.n_chans, 3);
    assert_string_equal(cs_model_str(&t.m, t.m.chans[cs_msg_chan(&t.m, 0)].name),
                        "close main.main:25 \xe2\x86\x92 main.main.func1:20");
    tm_deinit(&t);
}

static void nil_stack_and_goroutineless_wakeups_make_no_messages(void **st)
{
    (void)st;
    tm t;
    tm_init(&t);
    blk(&t, 1, 2, CS_R_CHAN_RECV, stk(&t, "runtime.chanrecv1", "main.r:5", NULL));
    unb(&t, 2, 1, 2, 0);                 /* a goroutine, but no stack */
    blk(&t, 3, 2, CS_R_SELECT, stk(&t, "runtime.selectgo", "main.r:9", NULL));
    unb(&t, 4, CS_NO_GOID, 2, 0);       /* time.After firing from the scheduler */
    blk(&t, 5, 2, CS_R_SLEEP, 0);
    unb(&t, 6, CS_NO_GOID, 2, 0);
    blk(&t, 7, 2, CS_R_CHAN_RECV, stk(&t, "runtime.chanrecv1", "main.r:5", NULL));
    unb(&t, 8, 3, 2, stk(&t, "runtime.selectnbsend", "time.sendTime", "runtime.runOneTimer", NULL));
    blk(&t, 9, 2, CS_R_SYNC, 0);
    unb(&t, 10, 3, 2, stk(&t, "sync.(*Mutex).Unlock", "main.m:3", NULL));
    blk(&t, 11, 2, CS_R_NET, 0);
    unb(&t, 12, CS_NO_GOID, 2, 0);
    fin(&t, 20);
    static const uint8_t want[] = {0, CS_EK_OTHER, CS_EK_TIMER, CS_EK_TIMER, CS_EK_TIMER, CS_EK_SYNC, CS_EK_NET};
    assert_int_equal(t.m.n_edges, 7);
    for (uint32_t i = 1; i < 7; i++)
        assert_int_equal(t.m.edges[i].kind, want[i]);
    assert_int_equal(t.m.n_msgs, 0);
    tm_deinit(&t);
}

static void goroutines_blocked_at_start_still_hand_off(void **st)
{
    (void)st;
    tm t;
    tm_init(&t);
    /* G2 waited before tracing began, reason unknown (legacy GoWaiting) */
    assert_true(cs_mb_create(&t.mb, &(cs_mb_create_desc){.t = 0, .goid = 2, .parent_goid = CS_NO_GOID,
                                                          .state = CS_ST_BLOCKED, .at_start = true}, &t.err));
    /* G4 likewise, as the decoders record it (reason "other") */
    assert_true(cs_mb_create(&t.mb, &(cs_mb_create_desc){.t = 0, .goid = 4, .parent_goid = CS_NO_GOID,
                                                          .state = CS_ST_BLOCKED, .reason = CS_R_OTHER,
                                                          .at_start = true}, &t.err));
    /* G3 waited sending, reason known */
    assert_true(cs_mb_create(&t.mb, &(cs_mb_create_desc){.t = 0, .goid = 3, .parent_goid = CS_NO_GOID,
                                                          .state = CS_ST_BLOCKED, .reason = CS_R_CHAN_SEND,
                                                          .at_start = true}, &t.err));
    run(&t, 1, 1);
    unb(&t, 10, 1, 2, stk(&t, "runtime.chansend1", "main.main:8", NULL));
    unb(&t, 20, 1, 3, stk(&t, "runtime.chanrecv2", "main.main:9", NULL));
    unb(&t, 25, 1, 4, stk(&t, "runtime.selectgo", "main.main:12", NULL));
    /* a generic wait that began inside the trace is not a channel wait */
    blk(&t, 26, 4, CS_R_OTHER, 0);
    unb(&t, 27, 1, 4, stk(&t, "runtime.chansend1", "main.main:8", NULL));
    fin(&t, 30);
    assert_true(cs_edge_site(&t.m, &t.m.edges[1])->wait_before);
    assert_int_equal(t.m.edges[1].kind, CS_EK_SEND);
    assert_int_equal(t.m.edges[2].kind, CS_EK_RECV);
    assert_int_equal(t.m.edges[3].kind, CS_EK_SELECT_SEND); /* select: direction by vote (tie) */
    assert_true(t.m.edges[3].guessed);
    assert_int_equal(t.m.edges[4].kind, CS_EK_OTHER);
    assert_int_equal(t.m.n_msgs, 3);
    /* G3 waited to send since before the trace: the hand-off is still at 20 */
    assert_int_equal(cs_msg_t_send(&t.m, 0), 10);
    assert_int_equal(cs_msg_t_send(&t.m, 1), 20);
    assert_int_equal(cs_msg_t_recv(&t.m, 1), 20);
    assert_int_equal(cs_msg_sender(&t.m, 1), gi(&t, 3));
    tm_deinit(&t);
}

static void goroutines_still_blocked_at_the_end_make_no_messages(void **st)
{
    (void)st;
    tm t;
    tm_init(&t);
    run(&t, 1, 1), run(&t, 1, 2);
    blk(&t, 5, 2, CS_R_CHAN_RECV, stk(&t, "runtime.chanrecv1", "main.r:5", NULL));
    unb(&t, 6, 1, 2, stk(&t, "runtime.chansend1", "main.s:3", NULL));
    blk(&t, 7, 2, CS_R_CHAN_RECV, stk(&t, "runtime.chanrecv1", "main.r:5", NULL));
    blk(&t, 8, 1, CS_R_CHAN_SEND, stk(&t, "runtime.chansend1", "main.other:4", NULL));
    fin(&t, 10);
    assert_int_equal(t.m.n_msgs, 1);
    assert_int_equal(cs_msg_t_recv(&t.m, 0), 6); /* never ran again: receipt = unblock */
    const cs_goroutine *g2 = &t.m.g[gi(&t, 2)];
    assert_int_equal(cs_span_state(&t.m, g2->span_first + g2->span_count - 1), CS_ST_BLOCKED);
    assert_int_equal(cs_span_t1(&t.m, g2->span_first + g2->span_count - 1), 10);
    tm_deinit(&t);
}

static void add_log(tm *t, int64_t ts, uint64_t g, const char *cat, const char *msg, uint32_t stack)
{
    cs_model *m = &t->m;
    assert_true(cs_grow((void **)&m->logs, &m->cap_logs, m->n_logs + 1, sizeof *m->logs, &t->err));
    m->logs[m->n_logs++] = (cs_log){.ts = ts, .g = cs_mb_g(&t->mb, g, &t->err), .category = str(t, cat),
                                    .message = str(t, msg), .stack = stack};
}

static void annotations_pair_exactly_and_cover_inferred_handoffs(void **st)
{
    (void)st;
    tm t;
    tm_init(&t);
    uint32_t ls = stk(&t, "chanscope/chanlog.Send[...]", "main.prod:11", NULL);
    uint32_t lr = stk(&t, "chanscope/chanlog.Recv", "main.cons:21", NULL);
    run(&t, 1, 1), run(&t, 1, 2);
    add_log(&t, 10, 1, "chan.send", "ch=0xc000010000 seq=0 val=hello world", ls);
    add_log(&t, 12, 1, "chan.send", "ch=0xc000010000 seq=1 val=7", ls);
    add_log(&t, 13, 1, "chan.other", "ch=0xc000010000 seq=1 val=x", ls);
    /* the receive of seq 1 woke nobody; seq 0's receiver was parked */
    blk(&t, 5, 2, CS_R_CHAN_RECV, stk(&t, "runtime.chanrecv1", "chanscope/chanlog.Recv", "main.cons:21", NULL));
    unb(&t, 11, 1, 2, stk(&t, "runtime.chansend1", "chanscope/chanlog.Send[...]", "main.prod:11", NULL));
    run(&t, 14, 2);
    add_log(&t, 15, 2, "chan.recv", "ch=0xc000010000 seq=0 val=hello world", lr);
    add_log(&t, 16, 2, "chan.recv", "ch=0xc000010000 seq=1 val=7", lr);
    add_log(&t, 17, 2, "chan.recv", "ch=0xc000010000 seq=9 val=never sent", lr);
    add_log(&t, 18, 1, "chan.send", "garbage", ls);
    fin(&t, 20);
    assert_int_equal(t.m.n_msgs, 2);
    assert_int_equal(t.m.edges[1].kind, CS_EK_SEND); /* the edge keeps its kind */
    for (uint32_t i = 0; i < 2; i++) {
        assert_int_equal(cs_msg_exact(&t.m.msgs[i]), 1);
        assert_int_equal(cs_msg_sender(&t.m, i), gi(&t, 1));
        assert_int_equal(cs_msg_receiver(&t.m, i), gi(&t, 2));
        assert_int_equal(cs_msg_chan(&t.m, i), 1);
    }
    assert_string_equal(cs_model_str(&t.m, cs_msg_value(&t.m, 0)), "hello world");
    assert_string_equal(cs_model_str(&t.m, cs_msg_value(&t.m, 1)), "7");
    assert_int_equal(cs_msg_t_send(&t.m, 0), 10), assert_int_equal(cs_msg_t_recv(&t.m, 0), 15);
    assert_int_equal(t.m.chans[1].rt_id, 0xc000010000ull);
    assert_string_equal(cs_model_str(&t.m, t.m.chans[1].name),
                        "0xc000010000: main.prod:11 \xe2\x86\x92 main.cons:21");
    tm_deinit(&t);
}

/* The stacks of an annotated pair (chanscope/chanlog) and of a plain
 * hand-off, with goroutines 1 to 3 running from 1: where the tests of
 * exact and inferred messages together start. */
typedef struct mixed {
    uint32_t ls, lr;      /* chanlog.Send's, chanlog.Recv's */
    uint32_t snd, rcv;    /* chansend1's, chanrecv1's */
} mixed;

static mixed mixed_start(tm *t)
{
    mixed x;
    x.ls = stk(t, "chanscope/chanlog.Send[...]", "main.prod:11", NULL);
    x.lr = stk(t, "chanscope/chanlog.Recv", "main.cons:21", NULL);
    x.snd = stk(t, "runtime.chansend1", "main.s:3", NULL);
    x.rcv = stk(t, "runtime.chanrecv1", "main.r:5", NULL);
    run(t, 1, 1), run(t, 1, 2), run(t, 1, 3);
    return x;
}

/* An exact message found first but late in time, then a thousand
 * inferred ones before it: all are sorted, and every time block made
 * again over the sorted messages. */
static void blocks_are_made_again_after_a_sort(void **st)
{
    (void)st;
    tm t;
    tm_init(&t);
    mixed x = mixed_start(&t);
    int64_t ts = 10;
    for (int i = 0; i < 1000; i++, ts += 10)
        blk(&t, ts, 3, CS_R_CHAN_RECV, x.rcv), unb(&t, ts + 2, 1, 3, x.snd), run(&t, ts + 5 + i % 3, 3);
    add_log(&t, ts + 100, 1, "chan.send", "ch=0xc000010000 seq=0 val=late", x.ls);
    add_log(&t, ts + 200, 2, "chan.recv", "ch=0xc000010000 seq=0 val=late", x.lr);
    fin(&t, ts + 300);
    assert_int_equal(t.m.n_msgs, 1001);
    assert_int_equal(cs_msg_exact(&t.m.msgs[1000]), 1);
    assert_int_equal(cs_msg_t_send(&t.m, 0), 12);
    msg_blocks_are_right(&t.m);
    tm_deinit(&t);
}

/* Receives seconds after their sends (kept in full beside the messages)
 * and a value stay with their messages when the sort moves them: the
 * exact message is found first, the inferred ones before it in time after. */
static void far_receives_and_values_move_with_their_messages(void **st)
{
    (void)st;
    tm t;
    tm_init(&t);
    const int64_t s3 = 3000000000;
    mixed x = mixed_start(&t);
    blk(&t, 10, 3, CS_R_CHAN_RECV, x.rcv), unb(&t, 20, 1, 3, x.snd), run(&t, 20 + s3, 3); /* far */
    blk(&t, 40, 2, CS_R_CHAN_RECV, x.rcv), unb(&t, 50, 1, 2, x.snd), run(&t, 60, 2);      /* near */
    add_log(&t, 5 * s3, 1, "chan.send", "ch=0xc000010000 seq=0 val=late", x.ls);
    add_log(&t, 6 * s3, 2, "chan.recv", "ch=0xc000010000 seq=0 val=late", x.lr);
    fin(&t, 7 * s3);
    assert_int_equal(t.m.n_msgs, 3);
    assert_int_equal(t.m.n_msg_wide, 2); /* the far ones, by their places once sorted */
    assert_int_equal(t.m.msg_wide[0].msg, 0), assert_int_equal(t.m.msg_wide[1].msg, 2);
    static const int64_t sends[] = {20, 50, 5 * s3}, recvs[] = {20 + s3, 60, 6 * s3};
    for (uint32_t i = 0; i < 3; i++) {
        assert_int_equal(cs_msg_t_send(&t.m, i), sends[i]);
        assert_int_equal(cs_msg_t_recv(&t.m, i), recvs[i]);
        assert_int_equal(cs_msg_exact(&t.m.msgs[i]), i == 2);
    }
    assert_int_equal(cs_msg_value(&t.m, 0), 0);
    assert_string_equal(cs_model_str(&t.m, cs_msg_value(&t.m, 2)), "late");
    tm_deinit(&t);
}

static void add_rt(tm *t, int64_t ts, uint64_t g, int recv, uint64_t eid, uint64_t cid, uint64_t val)
{
    cs_model *m = &t->m;
    assert_true(cs_mb_g(&t->mb, g, &t->err));
    assert_true(cs_grow((void **)&m->rtmsgs, &m->cap_rtmsgs, m->n_rtmsgs + 1, sizeof *m->rtmsgs, &t->err));
    m->rtmsgs[m->n_rtmsgs++] = (cs_rtmsg){.ts = ts, .eid = eid, .cid = cid, .val = val, .goid = g,
                                          .is_recv = (uint8_t)recv};
}

static void patched_events_pair_newest_first_and_closes_stay_closes(void **st)
{
    (void)st;
    tm t;
    tm_init(&t);
    run(&t, 1, 1), run(&t, 1, 2), run(&t, 1, 3);
    add_rt(&t, 10, 1, 0, 7, 5, 100);  /* send eid 7 on chan 5 */
    add_rt(&t, 11, 1, 0, 7, 5, 101);  /* same ids again (newest wins) */
    add_rt(&t, 12, 2, 1, 7, 5, 101);
    add_rt(&t, 13, 3, 1, 7, 5, 100);
    add_rt(&t, 14, 1, 0, 8, 6, 42);   /* other channel */
    add_rt(&t, 15, 2, 1, 8, 6, 42);
    add_rt(&t, 16, 2, 1, 333, 6, 9);  /* from the buffer: unpaired */
    blk(&t, 17, 3, CS_R_CHAN_RECV, 0);
    unb(&t, 18, 1, 3, 0);             /* the close that woke G3 */
    add_rt(&t, 19, 3, 1, 7, 5, 0);    /* stale id: close */
    add_rt(&t, 20, 2, 1, 222, 5, 0);  /* closed and empty: close, nobody woke it */
    /* an inferred hand-off is not added when the runtime reported every one */
    blk(&t, 21, 2, CS_R_CHAN_RECV, stk(&t, "runtime.chanrecv1", "main.r:5", NULL));
    unb(&t, 22, 1, 2, stk(&t, "runtime.chansend1", "main.s:3", NULL));
    fin(&t, 30);
    assert_int_equal(count_msgs(&t.m, CS_MK_SEND), 3);
    assert_int_equal(count_msgs(&t.m, CS_MK_CLOSE), 2);
    const cs_msg *x = t.m.msgs;
    assert_int_equal(cs_msg_t_send(&t.m, 0), 10), assert_int_equal(cs_msg_t_recv(&t.m, 0), 13);
    assert_int_equal(cs_msg_receiver(&t.m, 0), gi(&t, 3));
    assert_string_equal(cs_model_str(&t.m, cs_msg_value(&t.m, 0)), "100");
    assert_int_equal(cs_msg_t_send(&t.m, 1), 11), assert_int_equal(cs_msg_t_recv(&t.m, 1), 12);
    assert_string_equal(cs_model_str(&t.m, cs_msg_value(&t.m, 1)), "101");
    assert_int_equal(t.m.chans[cs_msg_chan(&t.m, 1)].rt_id, 5);
    assert_string_equal(cs_model_str(&t.m, t.m.chans[cs_msg_chan(&t.m, 1)].name), "chan 5");
    assert_int_equal(t.m.chans[cs_msg_chan(&t.m, 2)].rt_id, 6);
    assert_int_equal(cs_msg_kind_of(&x[3]), CS_MK_CLOSE);
    assert_int_equal(cs_msg_sender(&t.m, 3), gi(&t, 1));
    assert_int_equal(cs_msg_t_send(&t.m, 3), 18);
    assert_int_equal(cs_msg_kind_of(&x[4]), CS_MK_CLOSE);   /* sorted by receipt: unknown send time */
    assert_int_equal(cs_msg_sender(&t.m, 4), 0);
    for (uint32_t i = 0; i < t.m.n_msgs; i++)
        assert_int_equal(cs_msg_exact(&x[i]), 1);
    msg_blocks_are_right(&t.m); /* made over the messages once sorted */
    tm_deinit(&t);
}

/* ---- a still picture's traffic ---------------------------------------- */

/* trf_build_drawn over many of its trimming steps (eleven windows of
 * wake-ups on two threads, each trimmed once the other thread may no
 * longer read it, traffic/infer.c): the same messages as trf_build,
 * naming no edge, and of the edges exactly the sync wake-ups, in order,
 * with their time blocks. */
/* A channel index from CS_MSG_CHAN_WIDE on is kept beside its message
 * (msg_wide) and moves with it when the sort moves it: 20,000 runtime
 * channels, a message each, found in the order of their receives, which
 * is the reverse of their sends. */
static void wide_channels_move_with_their_messages(void **st)
{
    (void)st;
    enum { N = 20000 };
    tm t;
    tm_init(&t);
    run(&t, 1, 1), run(&t, 1, 2);
    for (uint64_t i = 0; i < N; i++)
        add_rt(&t, 10 + (int64_t)i, 1, 0, i + 1, i + 1, i);
    for (uint64_t i = N; i-- > 0;)
        add_rt(&t, 10 + 2 * N - (int64_t)i, 2, 1, i + 1, i + 1, i);
    fin(&t, 10 + 3 * N);
    assert_int_equal(t.m.n_msgs, N);
    assert_true(t.m.n_chans > CS_MSG_CHAN_WIDE);
    assert_int_equal(t.m.n_msg_wide, N + 1 - CS_MSG_CHAN_WIDE); /* channels 1 ... N by the first send */
    for (uint32_t i = 0; i < N; i++) { /* by send: channel i + 1 */
        uint32_t ch = cs_msg_chan(&t.m, i);
        assert_int_equal(cs_msg_t_send(&t.m, i), 10 + i);
        assert_int_equal(cs_msg_t_recv(&t.m, i), 10 + 2 * N - i);
        assert_int_equal(t.m.chans[ch].rt_id, i + 1);
        assert_int_equal(t.m.chans[ch].count, 1);
        assert_int_equal(cs_msg_sender(&t.m, i), gi(&t, 1)), assert_int_equal(cs_msg_receiver(&t.m, i), gi(&t, 2));
    }
    for (uint32_t k = 1; k < t.m.n_msg_wide; k++)
        assert_true(t.m.msg_wide[k - 1].msg < t.m.msg_wide[k].msg);
    tm_deinit(&t);
}

static void still_picture_traffic_keeps_the_messages_and_the_sync_wakeups(void **st)
{
    (void)st;
    tm t;
    tm_init(&t);
    uint32_t send = stk(&t, "runtime.chansend1", "main.producer:7", NULL);
    uint32_t recv = stk(&t, "runtime.chanrecv1", "main.consumer:12", NULL);
    uint32_t unlock = stk(&t, "sync.(*Mutex).Unlock", "main.m:3", NULL);
    const uint32_t n = 10 * 65536 + 123;
    int64_t ts = 10;
    run(&t, ts, 1), run(&t, ts, 2);
    for (uint32_t i = 0; i < n; i++, ts += i % 37 ? 10 : 3000000000) { /* blocks narrow and wide */
        uint64_t g = 1 + i % 2;
        switch (i % 5) {
        case 0: case 1: case 2: /* a receiver parks, a sender wakes it */
            blk(&t, ts, g, CS_R_CHAN_RECV, recv), unb(&t, ts + 3, 3 - g, g, send);
            break;
        case 3: /* a mutex */
            blk(&t, ts, g, CS_R_SYNC, 0), unb(&t, ts + 3, 3 - g, g, unlock);
            break;
        default: /* a timer */
            blk(&t, ts, g, CS_R_SLEEP, 0), unb(&t, ts + 3, CS_NO_GOID, g, 0);
        }
        run(&t, ts + 6, g);
    }
    assert_true(cs_mb_finish(&t.mb, ts, &t.err));
    cs_model d;
    assert_true(cs_model_copy(&t.m, &d, &t.err));
    assert_true(trf_build(&t.m, &t.err));
    assert_true(trf_build_drawn(&d, &t.err));
    assert_int_equal(t.m.n_msgs, n / 5 * 3 + (n % 5 > 3 ? 3 : n % 5));
    assert_int_equal(d.n_msgs, t.m.n_msgs);
    for (uint32_t i = 0; i < d.n_msgs; i++) {
        cs_msg a = t.m.msgs[i], b = d.msgs[i];
        if (memcmp(&a, &b, sizeof a))
            fail_msg("message %u differs", i);
    }
    uint32_t k = 1;
    for (uint32_t i = 1; i < t.m.n_edges; i++)
        if (t.m.edges[i].kind == CS_EK_SYNC) {
            if (k >= d.n_edges || !tl_same_edge(&t.m, i, &d, k))
                fail_msg("sync wake-up %u is not kept as edge %u", i, k);
            k++;
        }
    assert_int_equal(k, d.n_edges);
    assert_int_equal(d.n_edges - 1, (n + 1) / 5);
    assert_int_equal(d.n_sync_block, (d.n_edges + CS_TBLOCK - 1) / CS_TBLOCK);
    for (uint32_t b = 0; b < d.n_sync_block; b++) {
        uint32_t last = (b + 1) * CS_TBLOCK < d.n_edges ? (b + 1) * CS_TBLOCK - 1 : d.n_edges - 1;
        assert_true(d.sync_block[b].t1 == cs_edge_ts(&d, last));
    }
    cs_model_deinit(&d);
    tm_deinit(&t);
}

/* Hand-offs among many goroutines, in several windows of edges (two
 * threads, traffic/infer.c): each message's receipt is its
 * receiver's next start, straight away or after a wait to run, or the
 * hand-off itself when the receiver blocked again before it ran. */
static void receipts_over_many_receivers_are_their_next_starts(void **st)
{
    (void)st;
    enum { G = 300, N = 70000 };
    tm t;
    tm_init(&t);
    uint32_t send = stk(&t, "runtime.chansend1", "main.producer:7", NULL);
    uint32_t recv = stk(&t, "runtime.chanrecv1", "main.consumer:12", NULL);
    int64_t *want = malloc(N * sizeof *want);
    assert_non_null(want);
    int64_t ts = 100;
    for (uint64_t g = 1; g <= G; g++)
        run(&t, ts, g);
    for (uint32_t i = 0; i < N; i++, ts += 10) {
        uint64_t g = 1 + (uint64_t)i * 7 % G, from = 1 + ((uint64_t)i * 13 + 5) % G;
        if (from == g)
            from = g % G + 1;
        blk(&t, ts, g, CS_R_CHAN_RECV, recv), unb(&t, ts + 1, from, g, send);
        switch (i % 3) {
        case 0: run(&t, ts + 2, g), want[i] = ts + 2; break;       /* at once */
        case 1: want[i] = ts + 1; break;                           /* blocks again first */
        default:                                                   /* waits to run, long */
            assert_true(cs_mb_set(&t.mb, ts + 4, g, CS_ST_RUNNABLE, CS_R_PREEMPTED, 0, 0, &t.err));
            run(&t, ts + 6, g), want[i] = ts + 6;
        }
    }
    assert_true(cs_mb_finish(&t.mb, ts, &t.err));
    cs_model d;
    assert_true(cs_model_copy(&t.m, &d, &t.err));
    assert_true(trf_build(&t.m, &t.err));
    assert_true(trf_build_drawn(&d, &t.err));
    const cs_model *ms[2] = {&t.m, &d};
    for (int k = 0; k < 2; k++) {
        assert_int_equal(ms[k]->n_msgs, N);
        for (uint32_t i = 0; i < N; i++)
            if (cs_msg_t_send(ms[k], i) != 100 + 10 * (int64_t)i + 1 || cs_msg_t_recv(ms[k], i) != want[i])
                fail_msg("message %u: sent at %lld, received at %lld, not %lld", i,
                         (long long)cs_msg_t_send(ms[k], i), (long long)cs_msg_t_recv(ms[k], i),
                         (long long)want[i]);
        msg_blocks_are_right(ms[k]); /* made as the messages came, in order */
    }
    free(want);
    cs_model_deinit(&d);
    tm_deinit(&t);
}

/* The viewer's first picture (cli/view_load.c) is drawn from
 * cs_model_before_traffic while traffic/ works on the model: what it
 * borrows traffic/ leaves alone, and its strings stay its own while
 * traffic/ interns more and moves the model's. */
static void the_picture_before_traffic_outlives_the_traffic(void **st)
{
    (void)st;
    tm t;
    tm_init(&t);
    uint32_t send = stk(&t, "runtime.chansend1", "main.producer:7", NULL);
    uint32_t recv = stk(&t, "runtime.chanrecv1", "main.consumer:12", NULL);
    int64_t ts = 10;
    run(&t, ts, 1), run(&t, ts, 2);
    assert_true(cs_mb_name(&t.mb, 1, str(&t, "main.producer"), &t.err));
    assert_true(cs_mb_name(&t.mb, 2, str(&t, "main.consumer"), &t.err));
    for (uint32_t i = 0; i < 1000; i++, ts += 10) {
        uint64_t g = 1 + i % 2;
        blk(&t, ts, g, CS_R_CHAN_RECV, recv), unb(&t, ts + 3, 3 - g, g, send), run(&t, ts + 6, g);
    }
    assert_true(cs_mb_finish(&t.mb, ts, &t.err));
    cs_model b;
    assert_true(cs_model_before_traffic(&t.m, &b, &t.err));
    const uint32_t *t0 = t.m.span_t0;
    const char *name1 = cs_model_str(&b, b.g[gi(&t, 1)].name);
    assert_true(trf_build_drawn(&t.m, &t.err));
    for (int i = 0; i < 20000; i++) { /* the model's strings move */
        char s[32];
        snprintf(s, sizeof s, "s%d", i);
        str(&t, s);
    }
    assert_int_equal(t.m.n_msgs, 1000);
    assert_int_equal(b.n_msgs, 0);
    assert_int_equal(b.n_edges, 1);
    assert_int_equal(b.n_chans, 1);
    assert_int_equal(b.n_msg_block + b.n_sync_block, 0);
    assert_memory_equal(&b.edges[0], &(cs_edge){0}, sizeof b.edges[0]);
    assert_ptr_equal(b.span_t0, t0);
    assert_ptr_equal(b.g, t.m.g);
    assert_int_equal(b.n_span, t.m.n_span);
    assert_string_equal(name1, "main.producer");
    assert_string_equal(cs_model_str(&b, b.g[gi(&t, 2)].name), "main.consumer");
    cs_model_before_traffic_free(&b);
    tm_deinit(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(oracle_unblocks_give_truth_handoffs),
        cmocka_unit_test(sender_waits_and_receiver_waits_give_truthful_times),
        cmocka_unit_test(select_cases_get_their_direction),
        cmocka_unit_test(selects_woken_by_selects_go_by_selectgo_s_line),
        cmocka_unit_test(the_runtime_s_own_channels_carry_no_message),
        cmocka_unit_test(close_wakes_every_receiver_from_one_site),
        cmocka_unit_test(nil_stack_and_goroutineless_wakeups_make_no_messages),
        cmocka_unit_test(goroutines_blocked_at_start_still_hand_off),
        cmocka_unit_test(goroutines_still_blocked_at_the_end_make_no_messages),
        cmocka_unit_test(annotations_pair_exactly_and_cover_inferred_handoffs),
        cmocka_unit_test(blocks_are_made_again_after_a_sort),
        cmocka_unit_test(far_receives_and_values_move_with_their_messages),
        cmocka_unit_test(patched_events_pair_newest_first_and_closes_stay_closes),
        cmocka_unit_test(wide_channels_move_with_their_messages),
        cmocka_unit_test(still_picture_traffic_keeps_the_messages_and_the_sync_wakeups),
        cmocka_unit_test(receipts_over_many_receivers_are_their_next_starts),
        cmocka_unit_test(the_picture_before_traffic_outlives_the_traffic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
