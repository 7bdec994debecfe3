/* tests/test_core.c — the shared core: hash map, dense id table, string
 * interning, the model builder's spans, the bounded cursor, header
 * detection, streamed input (pipes, FIFOs) and output (atomic, through
 * links, never over the input), UTF-8 and the outputs' strings. */
#include "testlib.h"

#include "../core/build.h"
#include "../core/build_int.h"
#include "../core/ids.h"
#include "../core/map.h"
#include "../core/stats.h"
#include "../core/text.h"
#include "../decode/buf.h"
#include "synth.h"

#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static void map_survives_many_puts_and_deletes(void **st)
{
    (void)st;
    cs_map m;
    cs_err err = {0};
    cs_map_init(&m);
    for (uint64_t k = 0; k < 10000; k++)
        assert_true(cs_map_put(&m, k * 7919, (uint32_t)k, &err));
    for (uint64_t k = 0; k < 10000; k += 2)
        assert_true(cs_map_del(&m, k * 7919));
    assert_int_equal(cs_map_count(&m), 5000);
    for (uint64_t k = 0; k < 10000; k++) {
        uint32_t v;
        bool have = cs_map_get(&m, k * 7919, &v);
        assert_int_equal(have, k % 2 == 1);
        if (have)
            assert_int_equal(v, k);
    }
    cs_map_deinit(&m);
}

/* The builder's spans against a plain replay of its rule (a goroutine's
 * open span closes at its next state change, when that comes later):
 * state changes of 7 goroutines at times that repeat, go backwards, leave
 * gaps (ended goroutines) and now and then jump by seconds, from below
 * zero, so the ends kept apart (far ends) are many and spread over several
 * 64-span words, and starts too far apart for 32 bits, in the builder's
 * chunks (a new chunk) and once laid out (wide blocks), are many too; each
 * span's start, end and state, and cs_model_span_after at times around
 * each end (a binary search over the ends, as the spans of a sane trace
 * are in time order). A copy of the builder taken before the end
 * (cs_mb_copy, as a stream's first picture has it) finishes to the same
 * spans. */
#define SPAN_G 7
#define SPAN_EV 6000
static void spans_keep_their_ends(void **st)
{
    (void)st;
    static int64_t r_t0[SPAN_G][SPAN_EV], r_t1[SPAN_G][SPAN_EV];
    static uint8_t r_st[SPAN_G][SPAN_EV];
    uint32_t r_n[SPAN_G] = {0};
    int64_t open_t0[SPAN_G];
    uint8_t open_st[SPAN_G] = {0};
    for (int g = 0; g < SPAN_G; g++)
        open_t0[g] = CS_T_NONE;
    cs_model m;
    cs_mb mb;
    cs_err err = {0};
    cs_model_init(&m);
    assert_true(cs_mb_init(&mb, &m, &err));
    uint64_t x = 12345;
    int64_t t = -3000000000, t_max = t;
    for (int i = 0; i < SPAN_EV; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int g = (int)(x % SPAN_G);
        t += (int64_t)(x >> 8 & 15) - 3; /* now and then backwards or unchanged */
        t += x % 499 ? 0 : (int64_t)(x >> 24 & 7) << 31; /* or up to 15 s on */
        t_max = t > t_max ? t : t_max;
        uint8_t s = (uint8_t)(x >> 16 & 7) % CS_ST_COUNT; /* CS_ST_NONE ends it for a while */
        if (open_st[g] != CS_ST_NONE && open_t0[g] != CS_T_NONE && t > open_t0[g]) {
            r_t0[g][r_n[g]] = open_t0[g], r_t1[g][r_n[g]] = t, r_st[g][r_n[g]] = open_st[g];
            r_n[g]++;
        }
        open_st[g] = s, open_t0[g] = t;
        assert_true(cs_mb_set(&mb, t, 100 + (uint64_t)g, (cs_state)s, CS_R_NONE, 0, 0, &err));
    }
    for (int g = 0; g < SPAN_G; g++)
        if (open_st[g] != CS_ST_NONE && t_max + 1 > open_t0[g]) {
            r_t0[g][r_n[g]] = open_t0[g], r_t1[g][r_n[g]] = t_max + 1, r_st[g][r_n[g]] = open_st[g];
            r_n[g]++;
        }
    cs_model cm;
    cs_mb cmb;
    assert_true(cs_model_copy(&m, &cm, &err) && cs_mb_copy(&mb, &cm, &cmb, &err));
    assert_true(cs_mb_finish(&cmb, t_max + 1, &err));
    assert_true(cs_mb_finish(&mb, t_max + 1, &err));
    assert_int_equal(cm.n_span, m.n_span);
    for (uint32_t s = 0; s < m.n_span; s++) {
        assert_int_equal(cs_span_t0(&cm, s), cs_span_t0(&m, s));
        assert_int_equal(cs_span_t1(&cm, s), cs_span_t1(&m, s));
        assert_int_equal(cs_span_state(&cm, s), cs_span_state(&m, s));
    }
    cs_mb_deinit(&cmb);
    cs_model_deinit(&cm);
    uint32_t total = 0, near = 0;
    for (int g = 0; g < SPAN_G; g++) {
        uint32_t gi;
        assert_true(cs_model_g_find(&m, 100 + (uint64_t)g, &gi));
        const cs_goroutine *gr = &m.g[gi];
        assert_int_equal(gr->span_count, r_n[g]);
        for (uint32_t k = 0; k < r_n[g]; k++) {
            uint32_t s = gr->span_first + k;
            assert_int_equal(cs_span_t0(&m, s), r_t0[g][k]);
            assert_int_equal(cs_span_t1(&m, s), r_t1[g][k]);
            assert_int_equal(cs_span_state(&m, s), r_st[g][k]);
            near += k + 1 < r_n[g] && r_t0[g][k + 1] == r_t1[g][k];
            for (int64_t d = -1; d <= 1; d++) { /* its binary search over the ends given here */
                int64_t q = r_t1[g][k] + d;
                uint32_t lo = 0, hi = r_n[g];
                while (lo < hi) {
                    uint32_t mid = lo + (hi - lo) / 2;
                    if (r_t1[g][mid] <= q)
                        lo = mid + 1;
                    else
                        hi = mid;
                }
                assert_int_equal(cs_model_span_after(&m, gr, q), gr->span_first + lo);
            }
        }
        total += r_n[g];
    }
    assert_int_equal(m.n_span, total);
    assert_int_equal(m.n_far, total - near); /* only the ends no next start gives */
    assert_true(m.n_far > 64 && near > 64);
    print_message("%u spans, %u far ends, %u starts in wide blocks\n", total, m.n_far, m.n_wide);
    assert_true(m.n_wide >= 2 * CS_T0_BLOCK && m.n_wide < total / 2);
    cs_mb_deinit(&mb);
    cs_model_deinit(&m);
}

/* Goroutine 7's span i, from t: running and runnable in turn. */
static void turn(cs_mb *mb, int64_t t, uint32_t i, cs_err *err)
{
    assert_true(cs_mb_set(mb, t, 7, i % 2 ? CS_ST_RUNNABLE : CS_ST_RUNNING, CS_R_NONE, 0, 0, err));
}

/* A goroutine that ends in a part's builder (made before the part, so its
 * spans stay in its chunks) gives its cursor's place back, and when it is
 * given a state again takes another's place and writes on in its last
 * chunk, past the pages it had faulted in ahead: the place it left still
 * names that chunk, and finishing must not take those pages back. Every
 * span reads back as given. */
#define AGAIN_A 4000u /* chunks of 256, 512, 1024, 2048 spans, then 4096 */
#define AGAIN_B 1500u
static void spans_written_after_a_goroutine_ends_stay(void **st)
{
    (void)st;
    cs_model m;
    cs_mb mb;
    cs_err err = {0};
    cs_model_init(&m);
    assert_true(cs_mb_init(&mb, &m, &err));
    mb.part = true;
    assert_true(cs_mb_set(&mb, 5, 8, CS_ST_RUNNING, CS_R_NONE, 0, 0, &err));
    int64_t t = 1000;
    for (uint32_t i = 0; i < AGAIN_A; i++) /* goroutine 7: its last chunk's pages faulted in ahead */
        turn(&mb, t += 10, i, &err);
    assert_true(cs_mb_set(&mb, t += 10, 7, CS_ST_NONE, CS_R_NONE, 0, 0, &err));
    assert_true(cs_mb_set(&mb, t += 10, 8, CS_ST_NONE, CS_R_NONE, 0, 0, &err)); /* 8's place: the next taken */
    int64_t again = t += 10;
    for (uint32_t i = 0; i < AGAIN_B; i++)
        turn(&mb, t += 10, i, &err);
    assert_true(cs_mb_finish(&mb, t + 10, &err));
    uint32_t gi;
    assert_true(cs_model_g_find(&m, 7, &gi));
    const cs_goroutine *g = &m.g[gi];
    assert_int_equal(g->span_count, AGAIN_A + AGAIN_B);
    for (uint32_t k = 0; k < g->span_count; k++) {
        int64_t want = k < AGAIN_A ? 1010 + 10 * (int64_t)k : again + 10 + 10 * (int64_t)(k - AGAIN_A);
        if (cs_span_t0(&m, g->span_first + k) != want)
            fail_msg("span %u of goroutine 7 starts at %lld, not %lld", k,
                     (long long)cs_span_t0(&m, g->span_first + k), (long long)want);
    }
    cs_mb_deinit(&mb);
    cs_model_deinit(&m);
}

/* A goroutine's chunks of a page or more fill their whole pages, room for
 * no span more left at their end; and one that a far start leaves behind
 * (a span 2^32 ns or more after the chunk's base) gives back the pages it
 * faulted in ahead past its last span. Every span reads back as given. */
#define CUT_A 2900u /* in a chunk of four pages, its first page written */
#define CUT_B 3000u
static int64_t cut_t(uint32_t i) { return 1000 + 10 * (int64_t)i + (i >= CUT_A ? 5000000000 : 0); }

static void chunks_fill_their_pages_and_give_back_what_a_cut_leaves(void **st)
{
    (void)st;
    cs_model m;
    cs_mb mb;
    cs_err err = {0};
    cs_model_init(&m);
    assert_true(cs_mb_init(&mb, &m, &err));
    for (uint32_t i = 0; i < CUT_A; i++)
        turn(&mb, cut_t(i), i, &err);
    uint32_t gi;
    assert_true(cs_model_g_find(&m, 7, &gi));
    const cs_mb_cur *c = &mb.cur[mb.gref[gi].slot];
    cs_mb_chunk *cut = c->last;
    size_t page = cs_page_bytes();
    uintptr_t past = ((uintptr_t)cs__mb_rec(cut) + (size_t)c->k_n * CS__MB_REC + page - 1) & ~(uintptr_t)(page - 1);
    uintptr_t end = (uintptr_t)cut + cs__mb_chunk_room(cut->cap);
    if (end < past + page)
        fail_msg("the chunk of %u spans has no whole page past its %u spans", cut->cap, c->k_n);
    size_t n = (end - past) / page, ahead = 0;
    uint32_t at_cut = c->k_n;
    unsigned char in[64];
    assert_true(n <= sizeof in);
    assert_int_equal(mincore((void *)past, n * page, in), 0);
    for (size_t i = 0; i < n; i++)
        ahead += in[i] & 1;
    for (uint32_t i = CUT_A; i < CUT_A + CUT_B; i++)
        turn(&mb, cut_t(i), i, &err);
    c = &mb.cur[mb.gref[gi].slot];
    uint32_t cut_n = 0;
    for (const cs_mb_chunk *k = c->last; k; k = k->prev)
        cut_n = k->prev == cut ? k->prev->n : cut_n;
    assert_int_equal(cut_n, at_cut + 1); /* the far start closed the open span, then began a chunk */
    assert_int_equal(mincore((void *)past, n * page, in), 0);
    for (size_t i = 0; i < n; i++)
        if (in[i] & 1)
            fail_msg("page %zu of %zu past the cut chunk's last span is in memory", i, n);
    if (!ahead)
        print_message("this kernel faults no page in ahead: the pages past the cut were never in memory\n");
    for (const cs_mb_chunk *k = c->last->prev; k; k = k->prev) {
        size_t room = cs__mb_chunk_room(k->cap), left = room - sizeof *k - (size_t)k->cap * CS__MB_REC;
        if (room >= page && left >= CS__MB_REC)
            fail_msg("a chunk of %u spans leaves %zu bytes of its %zu", k->cap, left, room);
    }
    assert_true(cs_mb_finish(&mb, cut_t(CUT_A + CUT_B), &err));
    const cs_goroutine *g = &m.g[gi];
    assert_int_equal(g->span_count, CUT_A + CUT_B);
    for (uint32_t k = 0; k < g->span_count; k++)
        if (cs_span_t0(&m, g->span_first + k) != cut_t(k))
            fail_msg("span %u starts at %lld, not %lld", k, (long long)cs_span_t0(&m, g->span_first + k),
                     (long long)cut_t(k));
    cs_mb_deinit(&mb);
    cs_model_deinit(&m);
}

/* A model of more than a million spans is laid out in two halves of the
 * columns, on two threads or (decoding with -j 1) one after the other: 257
 * goroutines take turns, so one of them has spans on both sides of the
 * half, and two jumps of 5 s, one in each half, give each goroutine a wide
 * block and a new chunk there. Every span's start, end and state are those
 * given, and the model knows which kinds of span it has, syscalls being
 * only in goroutines of the second half. */
#define LAID_G 257u
#define LAID_EV (1200000u + 11u)
static int64_t laid_t(uint32_t i)
{
    return 1000 + (int64_t)i * 10 + (i >= LAID_EV / 4 ? 5000000000 : 0) + (i >= 3 * (LAID_EV / 4) ? 5000000000 : 0);
}
static uint8_t laid_st(uint32_t i)
{
    if (i % LAID_G >= 200 && i % 7 == 0) /* goroutines laid out in the second half */
        return CS_ST_SYSCALL;
    return (uint8_t)(CS_ST_RUNNING + (i / LAID_G + i) % 3);
}
static cs_reason laid_r(uint32_t i)
{
    uint8_t st = laid_st(i);
    return st == CS_ST_BLOCKED ? CS_R_CHAN_RECV : st == CS_ST_SYSCALL ? CS_R_NET : CS_R_NONE;
}

static void laid_out(bool one_thread)
{
    cs_model m;
    cs_mb mb;
    cs_err err = {0};
    cs_model_init(&m);
    assert_true(cs_mb_init(&mb, &m, &err));
    mb.one_thread = one_thread;
    for (uint32_t i = 0; i < LAID_EV; i++)
        assert_true(cs_mb_set(&mb, laid_t(i), 1000 + i % LAID_G, (cs_state)laid_st(i), laid_r(i), 0, 0, &err));
    int64_t t_end = laid_t(LAID_EV);
    assert_true(cs_mb_finish(&mb, t_end, &err));
    assert_int_equal(m.n_span, LAID_EV);
    for (uint32_t g = 0; g < LAID_G; g++) {
        uint32_t gi;
        assert_true(cs_model_g_find(&m, 1000 + g, &gi));
        const cs_goroutine *gr = &m.g[gi];
        assert_int_equal(gr->span_count, (LAID_EV - g + LAID_G - 1) / LAID_G);
        for (uint32_t k = 0; k < gr->span_count; k++) {
            uint32_t s = gr->span_first + k, i = g + k * LAID_G;
            if (cs_span_t0(&m, s) != laid_t(i) || cs_span_state(&m, s) != laid_st(i) || cs_span_reason(&m, s) != laid_r(i) ||
                cs_span_t1(&m, s) != (k + 1 < gr->span_count ? laid_t(i + LAID_G) : t_end))
                fail_msg("%s: goroutine %u span %u: [%lld, %lld) state %u", one_thread ? "one thread" : "two",
                         g, k, (long long)cs_span_t0(&m, s), (long long)cs_span_t1(&m, s), cs_span_state(&m, s));
        }
    }
    uint32_t nb = m.n_span >> CS_T0_BLOCK_BITS, wide_first = 0, wide_last = 0;
    for (uint32_t b = 0; b < nb; b++) {
        wide_first += b < nb / 4 + nb / 8 && m.span_t0_base[b] >= CS_T0_WIDE;
        wide_last += b > nb / 2 + nb / 8 && m.span_t0_base[b] >= CS_T0_WIDE;
    }
    assert_true(wide_first > 0 && wide_last > 0);
    assert_int_equal(m.span_kinds[CS_ST_RUNNING], 1u << CS_R_NONE);
    assert_int_equal(m.span_kinds[CS_ST_BLOCKED], 1u << CS_R_CHAN_RECV);
    assert_int_equal(m.span_kinds[CS_ST_SYSCALL], 1u << CS_R_NET);
    cs_mb_deinit(&mb);
    cs_model_deinit(&m);
}

static void spans_laid_out_in_two_halves(void **st)
{
    (void)st;
    laid_out(false);
    laid_out(true); /* the first half's chunks given back before the second is laid out */
}

/* Wake-up and message times in 32 bits over a base per block
 * (cs_edge_ts_set, cs_msg_t_set): times a little before the block's first
 * (Go's order allows it), jumps of seconds that make a block wide, hours
 * apart, and the extremes all read back, in blocks narrow and wide. */
static void times_read_back_in_narrow_and_wide_blocks(void **st)
{
    (void)st;
    enum { N = 40 * CS_T0_BLOCK + 7 };
    static int64_t want[N];
    cs_model m;
    cs_err err = {0};
    cs_model_init(&m);
    assert_true(cs_grow((void **)&m.edges, &m.cap_edges, N, sizeof *m.edges, &err));
    uint64_t r = 7;
    int64_t t = 1000;
    for (uint32_t i = 1; i < N; i++) {
        r = r * 6364136223846793005u + 1442695040888963407u;
        switch (r >> 58) { /* 1 in 64 each but the last */
        case 0: case 1: case 2: case 3: t -= (int64_t)(r >> 40 & 0xffff); break; /* a little back */
        case 4: t += 3000000000 + (int64_t)(r >> 50); break;                   /* past 2^31 ns */
        case 5: t = (r >> 33 & 1) ? CS_T_MAX : -CS_T_MAX; break;              /* the extremes */
        case 6: t += (int64_t)3600 * 1000000000; break;                        /* an hour */
        default: t += (int64_t)(r >> 52);
        }
        t = t > CS_T_MAX ? CS_T_MAX : t < -CS_T_MAX ? -CS_T_MAX : t; /* as decoders keep them */
        want[i] = t;
        m.edges[i] = (cs_edge){.from = i, .to = i + 1};
        assert_true(cs_edge_ts_set(&m, i, t, &err));
        m.n_edges = i + 1;
        assert_true(cs_model_msg_add(&m, &(cs_msg_in){.t_send = t, .t_recv = t, .sender = i}, 0, &err));
    }
    uint32_t wide = 0;
    for (uint32_t i = 1; i < N; i++) {
        assert_int_equal(cs_edge_ts(&m, i), want[i]);
        assert_int_equal(m.edges[i].from, i);
        assert_int_equal(cs_msg_t(&m, i - 1), want[i]);
        assert_int_equal(cs_msg_sender(&m, i - 1), i);
    }
    for (uint32_t k = 0; k <= (N - 1) / CS_T0_BLOCK; k++)
        wide += m.edge_t.base[k] >= CS_T0_WIDE;
    assert_true(wide > 0 && wide < (N - 1) / CS_T0_BLOCK); /* both kinds were made */
    cs_model copy;
    assert_true(cs_model_copy(&m, &copy, &err));
    for (uint32_t i = 1; i < N; i++)
        assert_int_equal(cs_edge_ts(&copy, i), want[i]), assert_int_equal(cs_msg_t(&copy, i - 1), want[i]);
    cs_model_deinit(&copy);
    cs_model_deinit(&m);
}

/* A message keeps its receive as a distance from its send in 32 bits, its
 * goroutines in 24 and its channel in 14; what does not fit is in full in
 * msg_wide, which holds those messages only, by index; the values' table is
 * made by the first message that has one. */
static void message_fields_read_back_near_far_and_wide(void **st)
{
    (void)st;
    static const int64_t dts[] = {0, 1, -1, INT32_MAX, INT32_MIN + 2, (int64_t)INT32_MAX + 1, INT32_MIN + 1,
                                  INT32_MIN, (int64_t)INT32_MIN - 1, (int64_t)3600 * 1000000000};
    enum { N = sizeof dts / sizeof *dts };
    cs_model m;
    cs_err err = {0};
    cs_model_init(&m);
    uint32_t wide = 0;
    for (uint32_t i = 0; i < N; i++) {
        uint32_t s = CS_MSG_G_WIDE - 2 + i, r = i % 3 ? i + 1 : UINT32_MAX - i;
        uint32_t ch = i % 4 ? CS_MSG_CHAN_WIDE - 2 + i % 4 : CS_CHAN_MAX - 1;
        assert_true(cs_model_msg_add(&m, &(cs_msg_in){.t_send = 1000 + i, .t_recv = 1000 + i + dts[i], .sender = s,
                                                      .receiver = r, .chan = ch, .kind = CS_MK_CLOSE, .exact = 1},
                                     0, &err));
        wide += i >= 2 || i % 3 == 0 || i % 4 != 1; /* a field at its limit or more (and from 5, far) */
        assert_int_equal(m.n_msg_wide, wide);
    }
    assert_int_equal(m.msg_wide[0].msg, 0);
    assert_null(m.msg_value);
    assert_true(cs_model_msg_add(&m, &(cs_msg_in){.t_send = CS_T_NONE, .t_recv = -CS_T_MAX}, 7, &err));
    assert_non_null(m.msg_value); /* made by the first value */
    assert_true(cs_model_msg_add(&m, &(cs_msg_in){.t_send = CS_T_MAX, .t_recv = -CS_T_MAX}, 0, &err));
    assert_int_equal(m.n_msg_wide, wide + 1); /* the last one's receive is far, the one before fits */
    for (uint32_t i = 0; i < N; i++) {
        const cs_msg *x = &m.msgs[i];
        assert_int_equal(cs_msg_t_send(&m, i), 1000 + i);
        assert_int_equal(cs_msg_t_recv(&m, i), 1000 + i + dts[i]);
        assert_int_equal(cs_msg_sender(&m, i), CS_MSG_G_WIDE - 2 + i);
        assert_int_equal(cs_msg_receiver(&m, i), i % 3 ? i + 1 : UINT32_MAX - i);
        assert_int_equal(cs_msg_chan(&m, i), i % 4 ? CS_MSG_CHAN_WIDE - 2 + i % 4 : CS_CHAN_MAX - 1);
        assert_true(cs_msg_kind_of(x) == CS_MK_CLOSE && cs_msg_exact(x) && cs_msg_value(&m, i) == 0);
    }
    assert_int_equal(cs_msg_t_send(&m, N), CS_T_NONE);
    assert_int_equal(cs_msg_t_recv(&m, N), -CS_T_MAX);
    assert_int_equal(cs_msg_t(&m, N), -CS_T_MAX); /* the message's time: its receive */
    assert_int_equal(cs_msg_value(&m, N), 7);
    assert_int_equal(cs_msg_sender(&m, N), 0);
    assert_int_equal(cs_msg_t_recv(&m, N + 1), -CS_T_MAX);
    assert_false(cs_model_msg_add(&m, &(cs_msg_in){.chan = CS_CHAN_MAX}, 0, &err));
    assert_int_equal(err.code, CS_E_INVALID);
    assert_int_equal(m.n_msgs, N + 2);
    cs_model_deinit(&m);
}

/* A goroutine made again after its end (an id reused, or a hostile trace
 * whose status puts it back at the last Sync) is made no earlier than its
 * last span ended: its spans stay in time order. */
static void a_goroutine_made_again_keeps_its_spans_in_order(void **st)
{
    (void)st;
    cs_model m;
    cs_mb mb;
    cs_err err = {0};
    sy_begin(&m, &mb);
    assert_true(cs_mb_create(&mb, &(cs_mb_create_desc){.t = 100, .goid = 7, .parent_goid = CS_NO_GOID}, &err));
    assert_true(cs_mb_set(&mb, 150, 7, CS_ST_RUNNING, CS_R_NONE, 0, 0, &err));
    assert_true(cs_mb_set(&mb, 200, 7, CS_ST_NONE, CS_R_NONE, 0, 0, &err));
    assert_true(cs_mb_create(&mb, &(cs_mb_create_desc){.t = 10, .goid = 7, .parent_goid = CS_NO_GOID,
                                                       .state = CS_ST_BLOCKED, .at_start = true}, &err));
    assert_true(cs_mb_finish(&mb, 300, &err));
    uint32_t gi;
    assert_true(cs_model_g_find(&m, 7, &gi));
    const cs_goroutine *g = &m.g[gi];
    assert_int_equal(g->create_ns, 200);
    assert_int_equal(g->span_count, 3);
    for (uint32_t s = g->span_first; s + 1 < g->span_first + g->span_count; s++)
        assert_true(cs_span_t0(&m, s) < cs_span_t0(&m, s + 1) && cs_span_t1(&m, s) <= cs_span_t0(&m, s + 1));
    assert_int_equal(cs_span_t0(&m, g->span_first + 2), 200);
    cs_mb_deinit(&mb);
    cs_model_deinit(&m);
}

/* One call to a builder: c create (parent g2, state st), s set (state st,
 * reason r, a reason name and stack for a block), u unblock (g by g2). */
typedef struct mb_op {
    char k;
    int64_t t;
    uint64_t g, g2;
    uint8_t st, r;
} mb_op;

static void mb_apply(cs_mb *mb, const mb_op *o)
{
    cs_err err = {0};
    cs_model *m = mb->m;
    bool ok;
    if (o->k == 'c') {
        cs_mb_create_desc d = {.t = o->t, .goid = o->g, .parent_goid = o->g2, .state = o->st, .reason = o->r,
                               .name = cs_model_intern(m, "main.work", 9, &err)};
        ok = cs_mb_create(mb, &d, &err);
    } else if (o->k == 's') {
        cs_frame fr = {.pc = o->g, .func = cs_model_intern(m, "main.f", 6, &err), .line = (uint32_t)o->t};
        uint32_t stack = o->st == CS_ST_BLOCKED ? cs_model_stack_add(m, &fr, 1, &err) : 0;
        ok = cs_mb_set(mb, o->t, o->g, o->st, o->r, o->st == CS_ST_BLOCKED ? cs_model_intern(m, "chan receive", 12, &err) : 0,
                       stack, &err);
    } else {
        ok = cs_mb_unblock(mb, o->t, o->g2, o->g, 0, &err);
    }
    assert_true(ok && err.code == CS_OK);
}

/* The calls of ops[from, to) into a new builder of m (a part when from > 0). */
static void mb_run(cs_model *m, cs_mb *mb, const mb_op *ops, size_t from, size_t to)
{
    cs_err err = {0};
    cs_model_init(m);
    assert_true(cs_mb_init(mb, m, &err));
    mb->part = from > 0;
    for (size_t i = from; i < to; i++)
        mb_apply(mb, &ops[i]);
}

/* A builder given the calls after a cut, joined onto the one given those
 * before (cs_mb_join), builds what one builder given them all does, cut
 * anywhere: a span going on across the cut, a goroutine blocked before it
 * and woken after (its state set or not in between), one ended before and
 * seen again after, one made after by one made before, one made twice
 * after (the second time by none), one only after; a part that makes a
 * goroutine the one before has does not fit. */
static void parts_joined_build_what_one_builder_does(void **st)
{
    (void)st;
    static const mb_op ops[] = {
        {'c', 10, 1, CS_NO_GOID, CS_ST_RUNNING, 0}, {'c', 11, 2, 1, 0, 0},       {'s', 12, 2, 0, CS_ST_RUNNING, 0},
        {'c', 13, 3, 1, 0, 0},                      {'s', 14, 3, 0, CS_ST_RUNNING, 0}, {'s', 15, 2, 0, CS_ST_BLOCKED, CS_R_CHAN_RECV},
        {'s', 16, 3, 0, CS_ST_NONE, 0},             {'s', 17, 1, 0, CS_ST_RUNNABLE, 0}, {'s', 18, 1, 0, CS_ST_RUNNING, 0},
        {'u', 19, 2, 1, 0, 0},                      {'s', 20, 3, 0, CS_ST_RUNNING, 0}, {'c', 21, 4, 1, CS_ST_BLOCKED, CS_R_SYNC},
        {'u', 22, 4, 3, 0, 0},                      {'s', 23, 5, 0, CS_ST_RUNNABLE, 0}, {'s', 24, 2, 0, CS_ST_RUNNING, 0},
        {'s', 25, 2, 0, CS_ST_BLOCKED, CS_R_CHAN_SEND}, {'u', 26, 2, CS_NO_GOID, 0, 0}, {'s', 27, 4, 0, CS_ST_RUNNING, 0},
        {'s', 28, 3, 0, CS_ST_RUNNABLE, 0},       {'c', 29, 6, 1, 0, 0},         {'s', 30, 6, 0, CS_ST_NONE, 0},
        {'c', 31, 6, CS_NO_GOID, 0, 0},           {'s', 32, 5, 0, CS_ST_BLOCKED, CS_R_SELECT},
        {'s', 33, 5, 0, CS_ST_RUNNABLE, 0},       {'u', 34, 5, 1, 0, 0},
    };
    size_t n = sizeof ops / sizeof *ops;
    cs_err err = {0};
    cs_model one;
    cs_mb mb1;
    mb_run(&one, &mb1, ops, 0, n);
    assert_true(cs_mb_finish(&mb1, 40, &err));
    size_t refused = 0;
    for (size_t cut = 1; cut < n; cut++) {
        cs_model ma, mb_m;
        cs_mb a, b;
        mb_run(&ma, &a, ops, 0, cut);
        mb_run(&mb_m, &b, ops, cut, n);
        if (!cs_mb_join_fits(&a, &b)) { /* 6 made before the cut and again after it */
            refused++;
            cs_mb_deinit(&a), cs_mb_deinit(&b);
            cs_model_deinit(&ma), cs_model_deinit(&mb_m);
            continue;
        }
        cs_model_map map;
        assert_true(cs_model_map_make(&ma, &mb_m, NULL, &map, &err));
        assert_true(cs_mb_join(&a, &b, &map, &err));
        assert_true(cs_mb_finish(&a, 40, &err));
        assert_int_equal(ma.n_g, one.n_g);
        assert_int_equal(ma.n_span, one.n_span);
        assert_int_equal(ma.n_far, one.n_far);
        assert_int_equal(ma.n_edges, one.n_edges);
        for (uint32_t i = 1; i < one.n_g; i++) {
            const cs_goroutine *x = &ma.g[i], *y = &one.g[i];
            if (x->goid != y->goid || x->create_ns != y->create_ns ||
                x->end_ns != y->end_ns || x->parent != y->parent || x->flags != y->flags ||
                strcmp(cs_model_str(&ma, x->name), cs_model_str(&one, y->name)))
                fail_msg("cut %zu: goroutine %u differs", cut, i);
            if (!tl_same_spans(&ma, i, &one, i)) /* wherever the layout put them */
                fail_msg("cut %zu: goroutine %u's spans differ", cut, i);
        }
        assert_true(tl_spans_tile(&ma));
        assert_true(tl_spans_tile(&one));
        for (uint32_t i = 1; i < one.n_edges; i++) {
            const cs_edge *ex = &ma.edges[i], *ey = &one.edges[i];
            const cs_wsite *x = cs_edge_site(&ma, ex), *y = cs_edge_site(&one, ey);
            if (cs_edge_ts(&ma, i) != cs_edge_ts(&one, i) || ex->from != ey->from || ex->to != ey->to ||
                x->reason != y->reason || x->wait_before != y->wait_before || ex->guessed != ey->guessed ||
                strcmp(cs_model_str(&ma, x->reason_name), cs_model_str(&one, y->reason_name)) ||
                cs_model_stack_len(&ma, x->block_stack) != cs_model_stack_len(&one, y->block_stack) ||
                (x->block_stack && cs_model_stack_frame(&ma, x->block_stack, 0)->line !=
                                       cs_model_stack_frame(&one, y->block_stack, 0)->line))
                fail_msg("cut %zu: wake-up %u differs", cut, i);
        }
        cs_model_map_free(&map);
        cs_mb_deinit(&a), cs_mb_deinit(&b);
        cs_model_deinit(&ma), cs_model_deinit(&mb_m);
    }
    assert_int_equal(refused, 2);
    /* goroutine 2 made again after the cut: only one builder can say where its spans go */
    static const mb_op again[] = {{'c', 10, 2, CS_NO_GOID, CS_ST_RUNNING, 0}, {'c', 11, 2, CS_NO_GOID, 0, 0}};
    cs_model ma, mb_m;
    cs_mb a, b;
    mb_run(&ma, &a, again, 0, 1);
    mb_run(&mb_m, &b, again, 1, 2);
    assert_false(cs_mb_join_fits(&a, &b));
    cs_mb_deinit(&a), cs_mb_deinit(&b), cs_mb_deinit(&mb1);
    cs_model_deinit(&ma), cs_model_deinit(&mb_m), cs_model_deinit(&one);
}

/* x and y have the same goroutines, each with the same spans, wherever
 * their layouts put them. */
static void same_spans(const cs_model *x, const cs_model *y, size_t cut)
{
    assert_int_equal(x->n_g, y->n_g);
    assert_int_equal(x->n_span, y->n_span);
    assert_int_equal(x->n_far, y->n_far);
    assert_true(tl_spans_tile(x));
    for (uint32_t i = 1; i < y->n_g; i++)
        if (x->g[i].goid != y->g[i].goid || !tl_same_spans(x, i, y, i))
            fail_msg("cut %zu: goroutine %u's spans differ", cut, i);
}

/* Goroutines laid out as they end for good (build.c lay_out): one made
 * runnable that ends, one woken that ends, one made by a goroutine that
 * ended. Cut anywhere, a copy of the builder (cs_mb_copy) finishes to what
 * the builder given the calls before the cut does, and parts joined at
 * the cut (the second laying out those it made, and keeping in chunks
 * those made before it) build what one builder does. */
static void goroutines_laid_out_as_they_end(void **st)
{
    (void)st;
    static const mb_op ops[] = {
        {'c', 10, 1, CS_NO_GOID, CS_ST_RUNNING, 0}, {'c', 11, 2, 1, 0, 0},        {'s', 12, 2, 0, CS_ST_RUNNING, 0},
        {'c', 13, 3, 1, 0, 0},                      {'s', 14, 2, 0, CS_ST_NONE, 0}, {'s', 15, 3, 0, CS_ST_RUNNING, 0},
        {'s', 16, 3, 0, CS_ST_BLOCKED, CS_R_CHAN_RECV}, {'c', 17, 4, 3, 0, 0},     {'u', 18, 3, 1, 0, 0},
        {'s', 19, 4, 0, CS_ST_RUNNING, 0},          {'s', 20, 3, 0, CS_ST_RUNNING, 0}, {'s', 21, 3, 0, CS_ST_NONE, 0},
        {'c', 22, 5, 4, 0, 0},                      {'s', 23, 4, 0, CS_ST_NONE, 0}, {'s', 24, 5, 0, CS_ST_RUNNING, 0},
        {'s', 25, 1, 0, CS_ST_RUNNABLE, 0},         {'s', 26, 5, 0, CS_ST_NONE, 0}, {'s', 27, 1, 0, CS_ST_RUNNING, 0},
    };
    size_t n = sizeof ops / sizeof *ops;
    cs_err err = {0};
    cs_model one;
    cs_mb mb1;
    mb_run(&one, &mb1, ops, 0, n);
    assert_int_equal(mb1.lay.n, 2 + 5 + 2 + 2); /* 2, 3, 4 and 5, none given a state again */
    assert_false(mb1.relay);
    assert_true(cs_mb_finish(&mb1, 40, &err));
    for (size_t cut = 1; cut < n; cut++) {
        cs_model pm, cm, ma, mbm;
        cs_mb p, c, a, b;
        mb_run(&pm, &p, ops, 0, cut);
        assert_true(cs_model_copy(&pm, &cm, &err) && cs_mb_copy(&p, &cm, &c, &err));
        assert_true(cs_mb_finish(&c, 40, &err) && cs_mb_finish(&p, 40, &err));
        same_spans(&cm, &pm, cut);
        mb_run(&ma, &a, ops, 0, cut);
        mb_run(&mbm, &b, ops, cut, n);
        assert_true(cs_mb_join_fits(&a, &b));
        cs_model_map map;
        assert_true(cs_model_map_make(&ma, &mbm, NULL, &map, &err) && cs_mb_join(&a, &b, &map, &err));
        assert_true(cs_mb_finish(&a, 40, &err));
        same_spans(&ma, &one, cut);
        cs_model_map_free(&map);
        cs_mb_deinit(&p), cs_mb_deinit(&c), cs_mb_deinit(&a), cs_mb_deinit(&b);
        cs_model_deinit(&pm), cs_model_deinit(&cm), cs_model_deinit(&ma), cs_model_deinit(&mbm);
    }
    cs_mb_deinit(&mb1);
    cs_model_deinit(&one);
}

/* The mapping /proc/self/maps lists around address a: [*from, *to), or
 * false when none holds it. */
static bool mapping_of(const void *a, uintptr_t *from, uintptr_t *to)
{
    FILE *f = fopen("/proc/self/maps", "r");
    assert_non_null(f);
    char line[512];
    bool found = false;
    while (!found && fgets(line, sizeof line, f))
        found = sscanf(line, "%" SCNxPTR "-%" SCNxPTR, from, to) == 2 && *from <= (uintptr_t)a && (uintptr_t)a < *to;
    fclose(f);
    return found;
}

/* A block of 2 MB or more is mapped on its own, on a 2 MB boundary: its
 * bytes stay through growing (in place or moved), shrinking and changing
 * kind either way, a zeroed one reads as zeros, and the counts come back.
 * One grown ends on a 2 MB boundary (its huge pages reach its end), and its
 * whole mapping goes when it is freed. */
static void big_blocks_keep_their_bytes_across_kinds(void **st)
{
    (void)st;
    size_t at_start = cs_alloc_current(), mb = (size_t)1 << 20;
    const size_t sizes[] = {mb, 3 * mb, 64 * mb, 5 * mb / 2, 100 << 10, 7 * mb};
    uint8_t *p = NULL;
    size_t filled = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        size_t n = sizes[k];
        p = cs_realloc(p, n);
        assert_non_null(p);
        assert_int_equal((uintptr_t)p % 16, 0);
        if (n >= 2 * mb)
            assert_int_equal(((uintptr_t)p - 16) % (2 * mb), 0);
        size_t kept = filled < n ? filled : n;
        for (size_t i = 0; i < kept; i += 4093)
            if (p[i] != (uint8_t)(i * 7 + i / 4093))
                fail_msg("size %zu: byte %zu lost", n, i);
        for (size_t i = 0; i < n; i++)
            p[i] = (uint8_t)(i * 7 + i / 4093);
        filled = n;
        assert_int_equal(cs_alloc_current(), at_start + n);
    }
    assert_null(cs_realloc(p, SIZE_MAX - 64)); /* no such mapping: the block stays */
    assert_null(cs_alloc(SIZE_MAX - 64));
    assert_int_equal(p[filled - 1], (uint8_t)((filled - 1) * 7 + (filled - 1) / 4093));
    uintptr_t from, to, from2, to2;
    assert_true(mapping_of(p, &from, &to));
    assert_int_equal(to % (2 * mb), 0);
    assert_true(to - (uintptr_t)p >= filled);
    cs_free(p);
    assert_false(mapping_of(p, &from2, &to2));
    assert_false(mapping_of((void *)(to - 1), &from2, &to2));
    uint8_t *z = cs_calloc(4, mb);
    assert_non_null(z);
    for (size_t i = 0; i < 4 * mb; i += 511)
        assert_int_equal(z[i], 0);
    cs_free(z);
    assert_int_equal(cs_alloc_current(), at_start);
}

/* Pages given back a batch at a time: more ranges than a batch holds
 * (the first batch goes by itself), some within one page, some across
 * pages' edges. Every whole page inside a range reads as zeros after, and
 * every byte outside whole pages keeps its value. A batch also goes by
 * itself once it holds CS_RELEASE_BYTES. */
static void released_pages_read_as_zeros_and_nothing_else_does(void **st)
{
    (void)st;
    size_t page = cs_page_bytes();
    cs_releases r = {0};
    if (2 * page * CS_RELEASES < CS_RELEASE_BYTES) { /* a batch fills by its ranges first */
        size_t n_pages = 6 * CS_RELEASES, size = n_pages * page;
        uint8_t *p = cs_pages(size), *want = malloc(size);
        assert_non_null(p), assert_non_null(want);
        memset(p, 0xA5, size), memset(want, 0xA5, size);
        size_t last = 0; /* the first whole page of the last range added */
        for (size_t i = 0; i + 3 <= n_pages; i += 3) {
            size_t k = i / 3 % 3; /* two whole pages; one whole page inside; no whole page */
            size_t from = i * page + (k ? page / 2 : 0), len = k == 2 ? page / 4 : 2 * page;
            cs_release_add(&r, p + from, len);
            size_t a = (from + page - 1) / page * page, b = (from + len) / page * page;
            if (b > a)
                memset(want + a, 0, b - a), last = a;
        }
        assert_true(r.n > 0 && r.n < CS_RELEASES);
        assert_int_equal(p[0], 0); /* the first batch went when full */
        assert_int_equal(p[last], 0xA5); /* the last waits for the flush */
        cs_release_flush(&r);
        assert_int_equal(r.n, 0), assert_int_equal(r.bytes, 0);
        for (size_t i = 0; i < size; i++)
            if (p[i] != want[i])
                fail_msg("byte %zu (page %zu) is %u, not %u", i, i / page, p[i], want[i]);
        free(want);
        cs_pages_free(p, size);
    } else {
        print_message("pages of %zu KB: a batch fills by its bytes first; only that is tested\n", page >> 10);
    }
    size_t half = (CS_RELEASE_BYTES / 2 + page - 1) / page * page, big = 2 * half + page;
    uint8_t *q = cs_pages(big);
    assert_non_null(q);
    memset(q, 0xA5, big);
    cs_release_add(&r, q, half); /* short of the bytes: waits */
    assert_int_equal(r.n, 1);
    assert_int_equal(q[0], 0xA5);
    cs_release_add(&r, q + half + page, half); /* the bytes reached: goes, both ranges */
    assert_int_equal(r.n, 0), assert_int_equal(r.bytes, 0);
    assert_int_equal(q[0], 0), assert_int_equal(q[half - 1], 0), assert_int_equal(q[big - 1], 0);
    assert_int_equal(q[half], 0xA5), assert_int_equal(q[half + page - 1], 0xA5); /* the page between */
    cs_pages_free(q, big);
}

/* Pages faulted in ahead (cs_prefault) keep every byte: those written
 * before, the zeros of those never written, the bytes of the pages it only
 * partly covers; and the whole pages inside the range are in memory after
 * (on a kernel that takes MADV_POPULATE_WRITE, 5.14 and later). */
static void prefaulted_pages_keep_their_bytes(void **st)
{
    (void)st;
    size_t page = cs_page_bytes(), size = 8 * page;
    uint8_t *p = cs_pages(size);
    assert_non_null(p);
    memset(p, 0xA5, 4 * page);
    cs_prefault(p + page / 2, 6 * page);
    cs_prefault(p, 0);
    for (size_t i = 0; i < size; i++)
        if (p[i] != (i < 4 * page ? 0xA5 : 0))
            fail_msg("byte %zu (page %zu) is %u", i, i / page, p[i]);
    unsigned char in[8];
    uint8_t *q = cs_pages(size); /* never written: only what cs_prefault made */
    assert_non_null(q);
    bool took = cs_prefault(q + page / 2, 6 * page);
    assert_int_equal(mincore(q, size, in), 0);
    if (took) {
        for (size_t i = 1; i < 6; i++)
            if (!(in[i] & 1))
                fail_msg("page %zu is not in memory", i);
    } else {
        print_message("this kernel faults no page in ahead: only the bytes are tested\n");
    }
    for (size_t i = 0; i < size; i++)
        assert_int_equal(q[i], 0);
    cs_pages_free(p, size), cs_pages_free(q, size);
}

/* cs_permute moves each element to its place in place, cycle by cycle,
 * a parallel array alike: against a copy made the plain way, for random
 * orders with cycles of every length, fixed points and none. */
static void permute_in_place_equals_a_copy(void **st)
{
    (void)st;
    enum { N = 1000 };
    static uint32_t to[N];
    static uint64_t a[N], want_a[N];
    static uint16_t b[N], want_b[N];
    static int64_t c[N], want_c[N];
    uint64_t x = 99;
    for (int round = 0; round < 20; round++) {
        for (uint32_t i = 0; i < N; i++)
            to[i] = i, a[i] = i * 1000003u, b[i] = (uint16_t)(i * 7), c[i] = -(int64_t)i;
        for (uint32_t i = N - 1; i > 0 && round; i--) { /* round 0: the identity */
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            uint32_t j = (uint32_t)(x % (i + 1)), t = to[i];
            to[i] = to[j], to[j] = t;
        }
        for (uint32_t i = 0; i < N; i++)
            want_a[i] = a[to[i]], want_b[i] = b[to[i]], want_c[i] = c[to[i]];
        cs_permute(to, N, (cs_permuted[]){{a, sizeof *a}, {round & 1 ? b : NULL, sizeof *b}, {c, sizeof *c}},
                   round & 2 ? 3 : 2);
        assert_memory_equal(a, want_a, sizeof a);
        if (round & 1)
            assert_memory_equal(b, want_b, sizeof b);
        if (round & 2)
            assert_memory_equal(c, want_c, sizeof c);
    }
}

/* Slots in first-seen order, whether an id is direct or in the map; an id
 * that went to the map while the array was small keeps its slot after the
 * array grows past it; a limit makes a window that wide direct. */
static void ids_keep_slots_as_the_array_grows(void **st)
{
    (void)st;
    for (uint32_t limit = 0; limit <= 1u << 22; limit += 1u << 22) {
        cs_ids t;
        cs_ids_init(&t, limit);
        cs_err err = {0};
        static const uint64_t first[] = {5000, 1ull << 40, 3000000};
        for (uint32_t i = 0; i < 3; i++)
            assert_int_equal(cs_ids_get(&t, first[i], true, &err), i);
        assert_int_equal(cs_ids_find(&t, 5000), 0); /* in the map once the window left it */
        for (uint64_t id = 0; id < 8192; id++)
            if (id != 5000)
                assert_int_not_equal(cs_ids_get(&t, id, true, &err), UINT32_MAX);
        assert_true(t.n_direct > 5000);
        for (uint32_t i = 0; i < 3; i++) {
            assert_int_equal(cs_ids_find(&t, first[i]), i);
            assert_int_equal(cs_ids_get(&t, first[i], true, &err), i);
        }
        assert_int_equal(cs_ids_direct(&t, 3000000), limit ? 3 : 0);
        assert_int_equal(t.n, 3 + 8191);
        assert_int_equal(cs_ids_find(&t, 9000), UINT32_MAX);
        assert_int_equal(cs_ids_get(&t, 9001, false, &err), UINT32_MAX);
        assert_int_equal(err.code, CS_OK);
        cs_ids_deinit(&t);
    }
}

/* An id is in one place: one inside the window goes into the array even
 * where the window grew ahead wider than the slot rule allows for the ids
 * it holds, and an id of the map moves into the array when the window
 * comes to cover it; every id keeps the slot it was given. */
static void ids_keep_one_place(void **st)
{
    (void)st;
    cs_ids t;
    cs_err err = {0};
    cs_ids_init(&t, 0);
    uint64_t order[4400];
    uint32_t n = 0;
    for (uint64_t id = 0; id < 100; id++)
        order[n++] = id;
    order[n++] = 5000;                           /* too far for 101 ids: the map */
    for (uint64_t id = 1024; id <= 1100; id++) /* the window doubles to [0, 2048) */
        order[n++] = id;
    order[n++] = 1900;                           /* inside it, though 2048 > 4 * 178 + 1024 */
    for (uint64_t id = 2048; id < 4200; id++)  /* up to [0, 8192), over 5000 */
        order[n++] = id;
    for (uint32_t k = 0; k < n; k++) {
        assert_int_equal(cs_ids_get(&t, order[k], true, &err), k);
        if (order[k] == 1900)
            assert_int_not_equal(cs_ids_direct(&t, 1900), 0);
        if (order[k] == 5000)
            assert_int_equal(t.big.count, 1);
    }
    assert_int_equal(t.big.count, 0);
    assert_int_equal(cs_ids_direct(&t, 5000), 101);
    for (uint32_t k = 0; k < n; k++)
        assert_int_equal(cs_ids_find(&t, order[k]), k);
    assert_int_equal(cs_ids_find(&t, 4500), UINT32_MAX); /* in the window, in neither */
    cs_ids_deinit(&t);
}

/* Ids that begin in the millions (a part of a trace from a cut) or beyond
 * 2^32 are direct as they come, the window moving down for older ones
 * while it stays within the slot rule; ids far below stay in the map. */
static void ids_window_follows_where_ids_begin(void **st)
{
    (void)st;
    static const uint64_t start[] = {1100000, (1ull << 40) + 77};
    for (uint32_t k = 0; k < 2; k++) {
        cs_ids t;
        cs_ids_init(&t, 0);
        cs_err err = {0};
        for (uint32_t i = 0; i < 10; i++) /* a few small ones first, which go to the map */
            assert_int_equal(cs_ids_get(&t, i + 1, true, &err), i);
        for (uint32_t i = 0; i < 100000; i++)
            assert_int_equal(cs_ids_get(&t, start[k] + i, true, &err), i + 10);
        for (uint32_t i = 0; i < 100000; i += 997)
            assert_int_equal(cs_ids_direct(&t, start[k] + i), i + 10 + 1);
        assert_true(t.big.count == 10);
        for (uint32_t i = 0; i < 10; i++)
            assert_int_equal(cs_ids_find(&t, i + 1), i);
        for (uint32_t i = 1; i <= 5000; i++) /* older ones, newest first: the window moves down */
            assert_int_equal(cs_ids_get(&t, start[k] - i, true, &err), 100010 + i - 1);
        assert_int_equal(cs_ids_direct(&t, start[k] - 5000), 100010 + 5000);
        assert_int_equal(cs_ids_get(&t, 20, true, &err), 105010); /* far below: the map */
        assert_int_equal(cs_ids_direct(&t, 20), 0);
        assert_int_equal(cs_ids_find(&t, 20), 105010);
        assert_true(t.n_direct <= 4u * t.n + 1024 + 2 * 1024);
        cs_ids c;
        assert_true(cs_ids_copy(&t, &c, &err));
        for (uint32_t i = 0; i < 100000; i += 991)
            assert_int_equal(cs_ids_find(&c, start[k] + i), i + 10);
        assert_int_equal(cs_ids_find(&c, 20), 105010);
        assert_int_equal(cs_ids_find(&c, 1), 0);
        /* a slot set again, an id taken away (direct and in the map), then added anew */
        assert_true(cs_ids_set(&c, start[k] + 5, 7, &err) && cs_ids_set(&c, 20, 8, &err));
        assert_int_equal(cs_ids_find(&c, start[k] + 5), 7);
        assert_int_equal(cs_ids_find(&c, 20), 8);
        assert_true(cs_ids_set(&c, start[k] + 6, UINT32_MAX, &err) && cs_ids_set(&c, 1, UINT32_MAX, &err));
        assert_int_equal(cs_ids_find(&c, start[k] + 6), UINT32_MAX);
        assert_int_equal(cs_ids_find(&c, 1), UINT32_MAX);
        uint32_t slots = c.n;
        assert_int_equal(cs_ids_get(&c, start[k] + 6, true, &err), slots);
        assert_int_equal(cs_ids_find(&c, 2), 1); /* the others stay */
        assert_int_equal(err.code, CS_OK);
        cs_ids_deinit(&c);
        cs_ids_deinit(&t);
    }
}

/* Stats rows in goid order, equal goids as they were (a hostile trace's). */
static void stats_rows_sort_by_goid_stably(void **st)
{
    (void)st;
    static const uint64_t goid[] = {5, 3, 5, 1, 9, 3, 2};
    cs_stats s = {0};
    cs_err err = {0};
    s.n = s.cap = 7;
    s.g = cs_calloc(7, sizeof *s.g);
    assert_non_null(s.g);
    for (uint32_t i = 0; i < 7; i++)
        s.g[i].goid = goid[i], s.g[i].pc = i;
    assert_true(cs_stats_sort(&s, &err));
    static const uint64_t want_goid[] = {1, 2, 3, 3, 5, 5, 9}, want_pc[] = {3, 6, 1, 5, 0, 2, 4};
    for (uint32_t i = 0; i < 7; i++) {
        assert_int_equal(s.g[i].goid, want_goid[i]);
        assert_int_equal(s.g[i].pc, want_pc[i]);
    }
    cs_stats_deinit(&s);
}

static void intern_returns_same_id_for_same_bytes(void **st)
{
    (void)st;
    cs_model m;
    cs_err err = {0};
    cs_model_init(&m);
    cs_sid a = cs_model_intern(&m, "main.worker", 11, &err);
    cs_sid b = cs_model_intern(&m, "main.worker", 11, &err);
    cs_sid c = cs_model_intern(&m, "main.work", 9, &err);
    assert_int_equal(err.code, CS_OK);
    assert_true(a != 0);
    assert_int_equal(a, b);
    assert_true(a != c);
    assert_string_equal(cs_model_str(&m, a), "main.worker");
    assert_string_equal(cs_model_str(&m, 0), "");
    cs_model_deinit(&m);
}

static void uvarint_accepts_padding_and_rejects_overflow(void **st)
{
    (void)st;
    static const uint8_t padded[] = {0x8f, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00};
    dec_buf b = dec_buf_make(padded, sizeof padded, 0);
    assert_int_equal(dec_buf_uv(&b), 15);
    assert_int_equal(b.bad, 0);
    static const uint8_t over[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
    b = dec_buf_make(over, sizeof over, 0);
    dec_buf_uv(&b);
    assert_true(b.bad & DEC_BUF_BADVARINT);
    static const uint8_t minus1[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
    b = dec_buf_make(minus1, sizeof minus1, 0);
    assert_true(dec_buf_uv(&b) == UINT64_MAX);
    static const uint8_t cut[] = {0x80, 0x80};
    b = dec_buf_make(cut, sizeof cut, 100);
    assert_int_equal(dec_buf_uv(&b), 0);
    assert_true(b.bad & DEC_BUF_SHORT);
    assert_int_equal(dec_buf_off(&b), 102);
    assert_null(dec_buf_bytes(&b, 1));
}

static void header_detection_follows_go(void **st)
{
    (void)st;
    int v;
    cs_family fam;
    cs_err err = {0};
    assert_true(dec_detect((const uint8_t *)"go 1.19 trace\0\0\0", 16, &v, &fam, &err));
    assert_int_equal(v, 1019);
    assert_int_equal(fam, CS_FAM_LEGACY);
    assert_true(dec_detect((const uint8_t *)"go 1.5 trace\0\0\0\0", 16, &v, &fam, &err));
    assert_int_equal(v, 1005);
    assert_true(dec_detect((const uint8_t *)"go 1.25 trace\0\0\0", 16, &v, &fam, &err));
    assert_int_equal(fam, CS_FAM_V2);
    assert_false(dec_detect((const uint8_t *)"go 1.24 trace\0\0\0", 16, &v, &fam, &err));
    assert_int_equal(err.code, CS_E_VERSION);
    err = (cs_err){0};
    assert_false(dec_detect((const uint8_t *)"go 1.19 trace", 13, &v, &fam, &err));
    assert_int_equal(err.code, CS_E_FORMAT);
    err = (cs_err){0};
    assert_false(dec_detect((const uint8_t *)"PK\3\4 not a trace", 16, &v, &fam, &err));
    assert_int_equal(err.code, CS_E_FORMAT);
}

static void atomic_output_leaves_nothing_on_abort(void **st)
{
    (void)st;
    char dir[] = "/tmp/cs-test-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    cs_out o;
    cs_err err = {0};
    assert_true(cs_out_open(&o, path, &err));
    cs_out_write(&o, "half", 4);
    cs_out_abort(&o);
    assert_int_not_equal(access(path, F_OK), 0);
    assert_true(cs_write_file(path, "whole", 5, &err));
    cs_file f;
    assert_true(cs_file_map(path, &f, &err));
    assert_int_equal(f.size, 5);
    assert_memory_equal(f.data, "whole", 5);
    cs_file_unmap(&f);
    unlink(path);
    rmdir(dir);
}

typedef struct feed {
    int fd;
    const uint8_t *p;
    size_t n;
    unsigned delay_ms; /* before the first byte */
} feed;

/* Writes p[0..n) in chunks of 1 to 9000 bytes, then closes fd. */
static void *feeder(void *arg)
{
    feed *f = arg;
    usleep(f->delay_ms * 1000);
    uint32_t x = 12345;
    for (size_t off = 0; off < f->n;) {
        x = x * 1103515245u + 12345u;
        size_t c = 1 + (x >> 8) % 9000;
        ssize_t w = write(f->fd, f->p + off, c < f->n - off ? c : f->n - off);
        if (w <= 0)
            break;
        off += (size_t)w;
    }
    close(f->fd);
    return NULL;
}

/* Sizes around the reader's first 1 MiB buffer and its doublings. */
static void stream_reads_back_what_a_pipe_carries(void **st)
{
    (void)st;
    static const size_t sizes[] = {0, 1, 4095, (1u << 20) - 1, 1u << 20, (1u << 20) + 7, (3u << 20) + 1};
    uint8_t *data = malloc(sizes[6]);
    assert_non_null(data);
    for (size_t i = 0; i < sizes[6]; i++)
        data[i] = (uint8_t)(i * 131 + (i >> 9));
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        int fds[2];
        assert_int_equal(pipe(fds), 0);
        feed f = {.fd = fds[1], .p = data, .n = sizes[k]};
        pthread_t th;
        assert_int_equal(pthread_create(&th, NULL, feeder, &f), 0);
        char name[64];
        snprintf(name, sizeof name, "/proc/self/fd/%d", fds[0]);
        cs_file in;
        cs_err err = {0};
        assert_true(cs_file_open(name, NULL, &in, &err));
        assert_true(in.stream && in.size == 0); /* nothing read before it is asked for */
        assert_true(cs_file_whole(&in, &err));
        close(fds[0]);
        pthread_join(th, NULL);
        assert_int_equal(in.size, sizes[k]);
        assert_int_equal(in.base, 0);
        if (sizes[k])
            assert_memory_equal(in.data, data, sizes[k]);
        assert_true(in.owned && in.ended && !in.stream);
        cs_file_unmap(&in);
    }
    free(data);
}

typedef struct late_writer { const char *path; } late_writer;

static void *write_late(void *arg)
{
    usleep(600 * 1000); /* longer than the reader waits before saying so */
    int fd = open(((late_writer *)arg)->path, O_WRONLY);
    if (fd >= 0) {
        feed f = {.fd = fd, .p = (const uint8_t *)"late bytes", .n = 10};
        feeder(&f);
    }
    return NULL;
}

static void count_wait(void *ud, const char *path)
{
    (void)path;
    ++*(int *)ud;
}

static void fifo_without_a_writer_waits_and_says_so(void **st)
{
    (void)st;
    char dir[] = "/tmp/cs-test-XXXXXX", path[256];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/in.fifo", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    late_writer lw = {path};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, write_late, &lw), 0);
    int waits = 0;
    cs_file in;
    cs_err err = {0};
    assert_true(cs_file_open(path, &(cs_file_hooks){.on_wait = count_wait, .ud = &waits}, &in, &err));
    assert_true(cs_file_whole(&in, &err));
    pthread_join(th, NULL);
    assert_int_equal(waits, 1);
    assert_int_equal(in.size, 10);
    assert_memory_equal(in.data, "late bytes", 10);
    cs_file_unmap(&in);
    unlink(path);
    rmdir(dir);
}

/* A file still being written, followed: its bytes come as they are
 * written, its end for now is not the end; a pipe ends with its writer. */
static void follow_reads_a_growing_file_and_a_pipe(void **st)
{
    (void)st;
    char dir[] = "/tmp/cs-test-XXXXXX", path[256];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/growing", dir);
    cs_err err = {0};
    assert_true(cs_write_file(path, "first", 5, &err));
    cs_file f;
    assert_true(cs_file_follow(path, &f, &err));
    assert_true(f.stream && f.growing && f.size == 0);
    for (int i = 0; i < 3; i++)
        assert_true(cs_file_poll(&f, 10, &err));
    assert_int_equal(f.size, 5);
    assert_false(f.ended);
    FILE *w = fopen(path, "ab");
    assert_non_null(w);
    fputs(" second", w);
    fclose(w);
    for (int i = 0; i < 3; i++)
        assert_true(cs_file_poll(&f, 10, &err));
    assert_int_equal(f.size, 12);
    assert_memory_equal(cs_file_at(&f, 0), "first second", 12);
    cs_file_drop(&f, 6);
    assert_true(f.base == 6 && f.size == 12 && !memcmp(cs_file_at(&f, 6), "second", 6));
    assert_false(f.ended);
    cs_file_unmap(&f);
    unlink(path);
    rmdir(dir);

    int fds[2];
    assert_int_equal(pipe(fds), 0);
    char name[64];
    snprintf(name, sizeof name, "/proc/self/fd/%d", fds[0]);
    assert_true(cs_file_follow(name, &f, &err));
    assert_false(f.growing);
    assert_true(cs_file_poll(&f, 10, &err)); /* nothing yet: it waits, then says nothing came */
    assert_true(f.size == 0 && !f.ended);
    assert_int_equal(write(fds[1], "abc", 3), 3);
    close(fds[1]);
    while (!f.ended)
        assert_true(cs_file_poll(&f, 10, &err));
    assert_int_equal(f.size, 3);
    cs_file_unmap(&f);
    close(fds[0]);
}

static void *mask_of(void *arg)
{
    pthread_sigmask(SIG_BLOCK, NULL, arg);
    return NULL;
}

/* Threads the program starts never take the cleanup signals (the handler
 * runs on the main thread), and the caller's mask is as it was. */
static void threads_start_with_the_cleanup_signals_blocked(void **st)
{
    (void)st;
    sigset_t before, in, after;
    pthread_sigmask(SIG_BLOCK, NULL, &before);
    assert_false(sigismember(&before, SIGINT));
    pthread_t th;
    assert_int_equal(cs_thread_create(&th, mask_of, &in), 0);
    pthread_join(th, NULL);
    pthread_sigmask(SIG_BLOCK, NULL, &after);
    assert_true(sigismember(&in, SIGINT) && sigismember(&in, SIGTERM) && sigismember(&in, SIGHUP) &&
                sigismember(&in, SIGQUIT));
    assert_false(sigismember(&after, SIGINT));
}

static void output_follows_links_and_spares_the_input(void **st)
{
    (void)st;
    char dir[] = "/tmp/cs-test-XXXXXX", target[256], lnk[256], hard[256];
    assert_non_null(mkdtemp(dir));
    snprintf(target, sizeof target, "%s/target", dir);
    snprintf(lnk, sizeof lnk, "%s/link", dir);
    snprintf(hard, sizeof hard, "%s/hard", dir);
    cs_err err = {0};
    assert_true(cs_write_file(target, "old", 3, &err));
    assert_int_equal(symlink("target", lnk), 0);
    assert_true(cs_write_file(lnk, "new!", 4, &err));
    struct stat sl;
    assert_int_equal(lstat(lnk, &sl), 0);
    assert_true(S_ISLNK(sl.st_mode)); /* the link stays a link */
    cs_file in;
    assert_true(cs_file_map(target, &in, &err));
    assert_int_equal(in.size, 4);
    /* the input, by its name, through the link and through a hard link */
    assert_int_equal(link(target, hard), 0);
    cs_out_protect(&in);
    const char *names[] = {target, lnk, hard};
    for (int i = 0; i < 3; i++) {
        cs_out o;
        err = (cs_err){0};
        assert_false(cs_out_open(&o, names[i], &err));
        assert_int_equal(err.code, CS_E_USAGE);
    }
    assert_memory_equal(in.data, "new!", 4);
    cs_file_unmap(&in);
    cs_out_protect(&in); /* a zeroed file protects nothing */
    /* a character device is written, not replaced */
    err = (cs_err){0};
    assert_true(cs_write_file("/dev/null", "x", 1, &err));
    assert_int_equal(stat("/dev/null", &sl), 0);
    assert_true(S_ISCHR(sl.st_mode));
    unlink(hard), unlink(lnk), unlink(target);
    rmdir(dir);
}

/* A cs_write_fn into a fixed buffer, NUL-terminated. */
typedef struct textbuf { char b[256]; size_t n; } textbuf;

static size_t text_put(void *ctx, const void *data, size_t n)
{
    textbuf *t = ctx;
    assert_true(t->n + n < sizeof t->b);
    memcpy(t->b + t->n, data, n);
    t->n += n;
    t->b[t->n] = 0;
    return n;
}

typedef void text_writer(cs_write_fn *fn, void *ctx, const char *s);

static const char *text_of(text_writer *w, const char *s, textbuf *t)
{
    t->n = 0, t->b[0] = 0;
    w(text_put, t, s);
    return t->b;
}

/* Go's utf8.DecodeRune: a byte that begins no valid sequence is one bad
 * byte (cut short, overlong, a surrogate, past U+10FFFF); four-byte
 * sequences are code points. */
static void utf8_decodes_as_go_does(void **st)
{
    (void)st;
    static const struct { const char *s; uint32_t cp[6]; } cases[] = {
        {"a\xC3\xA9", {'a', 0xE9}},
        {"\xE2\x86\x92\xF0\x9F\x98\x80", {0x2192, 0x1F600}},
        {"\xEF\xBF\xBD", {0xFFFD}},                              /* U+FFFD itself is valid */
        {"\xC0\x80", {CS_UTF8_BAD, CS_UTF8_BAD}},                  /* overlong NUL */
        {"\xE0\x80\xAF", {CS_UTF8_BAD, CS_UTF8_BAD, CS_UTF8_BAD}}, /* overlong '/' */
        {"\xED\xA0\x80", {CS_UTF8_BAD, CS_UTF8_BAD, CS_UTF8_BAD}}, /* a surrogate */
        {"\xF4\x90\x80\x80", {CS_UTF8_BAD, CS_UTF8_BAD, CS_UTF8_BAD, CS_UTF8_BAD}},
        {"\xE2\x86", {CS_UTF8_BAD, CS_UTF8_BAD}},                  /* cut short by the NUL */
        {"\x80x", {CS_UTF8_BAD, 'x'}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *s = cases[i].s;
        size_t k = 0;
        while (*s)
            assert_int_equal(cs_utf8_next(&s), cases[i].cp[k++]);
        assert_int_equal(cases[i].cp[k], 0);
        assert_int_equal(cs_utf8_valid(cases[i].s), i < 3);
    }
}

/* JSON as jansson writes it, a bad byte as \ufffd; CSV quotes doubled,
 * bytes as they are; XML entities, bad bytes and controls as U+FFFD;
 * plain text with U+FFFD for a bad byte. */
static void strings_are_written_valid(void **st)
{
    (void)st;
    textbuf t;
    assert_string_equal(text_of(cs_json_str, "main.f", &t), "\"main.f\"");
    assert_string_equal(text_of(cs_json_str, "a\"b\\c\b\f\n\r\t\x01\x1F\x7F", &t),
                        "\"a\\\"b\\\\c\\b\\f\\n\\r\\t\\u0001\\u001F\x7F\"");
    assert_string_equal(text_of(cs_json_str, "\xC3\xA9\xFF\xC0\x80z", &t), "\"\xC3\xA9\\ufffd\\ufffd\\ufffdz\"");
    assert_string_equal(text_of(cs_json_str, "", &t), "\"\"");
    assert_string_equal(text_of(cs_csv_str, "a\"b\"\xFF", &t), "\"a\"\"b\"\"\xFF\"");
    assert_string_equal(text_of(cs_xml_text, "<a&b>'\"\t\n\x01\xFF\xEF\xBF\xBE\xC3\xA9", &t),
                        "&lt;a&amp;b&gt;&apos;&quot;\t\n&#xFFFD;&#xFFFD;&#xFFFD;\xC3\xA9");
    assert_string_equal(text_of(cs_utf8_text, "a\xFF\xE2\x86\x92\xE2\x86", &t),
                        "a\xEF\xBF\xBD\xE2\x86\x92\xEF\xBF\xBD\xEF\xBF\xBD");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(map_survives_many_puts_and_deletes),
        cmocka_unit_test(utf8_decodes_as_go_does),
        cmocka_unit_test(strings_are_written_valid),
        cmocka_unit_test(ids_keep_slots_as_the_array_grows),
        cmocka_unit_test(ids_window_follows_where_ids_begin),
        cmocka_unit_test(ids_keep_one_place),
        cmocka_unit_test(stats_rows_sort_by_goid_stably),
        cmocka_unit_test(spans_keep_their_ends),
        cmocka_unit_test(spans_written_after_a_goroutine_ends_stay),
        cmocka_unit_test(chunks_fill_their_pages_and_give_back_what_a_cut_leaves),
        cmocka_unit_test(spans_laid_out_in_two_halves),
        cmocka_unit_test(a_goroutine_made_again_keeps_its_spans_in_order),
        cmocka_unit_test(parts_joined_build_what_one_builder_does),
        cmocka_unit_test(goroutines_laid_out_as_they_end),
        cmocka_unit_test(times_read_back_in_narrow_and_wide_blocks),
        cmocka_unit_test(message_fields_read_back_near_far_and_wide),
        cmocka_unit_test(big_blocks_keep_their_bytes_across_kinds),
        cmocka_unit_test(released_pages_read_as_zeros_and_nothing_else_does),
        cmocka_unit_test(prefaulted_pages_keep_their_bytes),
        cmocka_unit_test(permute_in_place_equals_a_copy),
        cmocka_unit_test(intern_returns_same_id_for_same_bytes),
        cmocka_unit_test(uvarint_accepts_padding_and_rejects_overflow),
        cmocka_unit_test(header_detection_follows_go),
        cmocka_unit_test(atomic_output_leaves_nothing_on_abort),
        cmocka_unit_test(stream_reads_back_what_a_pipe_carries),
        cmocka_unit_test(fifo_without_a_writer_waits_and_says_so),
        cmocka_unit_test(follow_reads_a_growing_file_and_a_pipe),
        cmocka_unit_test(threads_start_with_the_cleanup_signals_blocked),
        cmocka_unit_test(output_follows_links_and_spares_the_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
