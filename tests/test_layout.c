/* tests/test_layout.c — layout/: time axes (ticks nice, monotone, labelled
 * from the trace start; gap folding compresses idle stretches), lanes
 * (children under parents, compact reuse never overlaps, system goroutines
 * hidden, labels), the 3D spawn tree (siblings never overlap), level of
 * detail, and determinism. Synthetic models from tests/synth.h, plus the
 * corpus traces when the decoders read them. */
#include "testlib.h"
#include "synth.h"

#include "../layout/axis.h"
#include "../layout/lanes.h"
#include "../layout/graph.h"
#include "../layout/lod.h"
#include "../layout/palette.h"
#include "../layout/tree.h"

#include <math.h>

/* A label reads "<number> <unit>" with a 1, 2 or 5 leading digit step. */
static void axis_linear_ticks_are_nice_and_monotone(void **state)
{
    (void)state;
    cs_model m;
    sy_pingpong(&m, 40);
    lay_axis a;
    cs_err err = {0};
    assert_true(lay_axis_build(&m, &(lay_axis_desc){0}, &a, &err));
    lay_tick t[64];
    uint32_t n = lay_axis_ticks(&a, 1000, 80, t, 64);
    assert_true(n >= 4 && n <= 13);
    assert_string_equal(t[0].label, "0");
    int64_t step = t[1].t_ns - t[0].t_ns;
    double lead = (double)step / pow(10, floor(log10((double)step)));
    assert_true(fabs(lead - 1) < 1e-9 || fabs(lead - 2) < 1e-9 || fabs(lead - 5) < 1e-9);
    for (uint32_t i = 1; i < n; i++) {
        assert_true(t[i].x > t[i - 1].x);
        assert_true((t[i].x - t[i - 1].x) * 1000 >= 80 - 1e-9);
        assert_int_equal(t[i].t_ns - t[i - 1].t_ns, step);
        assert_non_null(strstr(t[i].label, "µs"));
    }
    lay_axis_deinit(&a);
    cs_model_deinit(&m);
}

static void axis_inverse_round_trips_in_every_mapping(void **state)
{
    (void)state;
    cs_model m;
    sy_workers(&m, 4, 30);
    for (int k = LAY_AXIS_LINEAR; k <= LAY_AXIS_GAPS; k++) {
        lay_axis a;
        cs_err err = {0};
        assert_true(lay_axis_build(&m, &(lay_axis_desc){.kind = (lay_axis_kind)k}, &a, &err));
        double prev = -1;
        for (int64_t t = m.t_first; t <= m.t_last; t += 997) {
            double x = lay_axis_x(&a, t);
            assert_true(x >= prev && x >= 0 && x <= 1);
            prev = x;
            int64_t back = lay_axis_t(&a, x);
            assert_true(llabs(back - t) <= 2 + (int64_t)((double)(m.t_last - m.t_first) * 1e-9));
        }
        lay_tick ticks[64];
        uint32_t n = lay_axis_ticks(&a, 800, 60, ticks, 64);
        assert_true(n >= 3);
        for (uint32_t i = 1; i < n; i++)
            assert_true(ticks[i].x > ticks[i - 1].x && ticks[i].t_ns > ticks[i - 1].t_ns);
        lay_axis_deinit(&a);
    }
    cs_model_deinit(&m);
}

static void axis_log_ticks_are_1_2_5_decades(void **state)
{
    (void)state;
    cs_model m;
    sy_pingpong(&m, 200);
    lay_axis a;
    cs_err err = {0};
    assert_true(lay_axis_build(&m, &(lay_axis_desc){.kind = LAY_AXIS_LOG}, &a, &err));
    lay_tick t[64];
    uint32_t n = lay_axis_ticks(&a, 1000, 40, t, 64);
    assert_true(n >= 5);
    for (uint32_t i = 1; i < n; i++) {
        double v = (double)(t[i].t_ns - m.t_first);
        double lead = v / pow(10, floor(log10(v)));
        assert_true(fabs(lead - 1) < 1e-9 || fabs(lead - 2) < 1e-9 || fabs(lead - 5) < 1e-9);
    }
    /* the first decade gets as much room as the last: early detail */
    assert_true(lay_axis_x(&a, m.t_first + (m.t_last - m.t_first) / 100) > 0.3);
    lay_axis_deinit(&a);
    cs_model_deinit(&m);
}

/* Two bursts of ping-pong with 50 ms of nothing between: folded to 2 % of the
 * axis, marked with its real length, and ticks on both sides. */
static void axis_gap_folding_compresses_idle_stretches(void **state)
{
    (void)state;
    cs_model m;
    sy_pingpong(&m, 10);
    int64_t idle0 = m.t_last, idle = 50000000;
    uint32_t n0 = m.n_msgs;
    for (uint32_t i = 0; i < n0; i++) /* copy the burst 50 ms later */
        sy_msg(&m, cs_msg_t_send(&m, i) + idle0 + idle, cs_msg_t_recv(&m, i) + idle0 + idle,
               m.g[cs_msg_sender(&m, i)].goid, m.g[cs_msg_receiver(&m, i)].goid, 1);
    m.t_last = idle0 + idle + idle0;
    lay_axis lin, gap;
    cs_err err = {0};
    assert_true(lay_axis_build(&m, &(lay_axis_desc){0}, &lin, &err));
    assert_true(lay_axis_build(&m, &(lay_axis_desc){.kind = LAY_AXIS_GAPS}, &gap, &err));
    assert_int_equal(gap.n_gaps, 1);
    assert_true(gap.gaps[0].t1 - gap.gaps[0].t0 >= idle);
    assert_true(fabs(gap.gaps[0].x1 - gap.gaps[0].x0 - 0.02) < 1e-9);
    /* the first burst takes almost nothing linearly and about half when folded */
    double burst_lin = lay_axis_x(&lin, idle0), burst_gap = lay_axis_x(&gap, idle0);
    assert_true(burst_lin < 0.01);
    assert_true(burst_gap > 0.4 && burst_gap < 0.6);
    lay_tick t[64];
    uint32_t n = lay_axis_ticks(&gap, 1000, 60, t, 64);
    uint32_t before = 0, after = 0;
    for (uint32_t i = 0; i < n; i++)
        before += t[i].x < gap.gaps[0].x0, after += t[i].x > gap.gaps[0].x1;
    assert_true(before >= 2 && after >= 2);
    char buf[32];
    lay_fmt_dur(gap.gaps[0].t1 - gap.gaps[0].t0, buf, sizeof buf);
    assert_non_null(strstr(buf, "ms"));
    lay_axis_deinit(&lin);
    lay_axis_deinit(&gap);
    cs_model_deinit(&m);
}

/* A trace that is one long idle stretch between two events: everything is
 * gap, and every time still maps to a finite position, in order. */
static void axis_gaps_on_an_all_idle_trace_stay_finite(void **state)
{
    (void)state;
    cs_file f;
    cs_model m;
    cs_err err = {0};
    assert_true(tl_load("tests/data/regress/layout-all-gap.trace", &f, &m, NULL, &err));
    lay_axis a;
    assert_true(lay_axis_build(&m, &(lay_axis_desc){.kind = LAY_AXIS_GAPS}, &a, &err));
    assert_true(a.n_gaps >= 1);
    double prev = 0;
    for (int i = 0; i <= 64; i++) {
        int64_t t = m.t_first + (int64_t)((double)(m.t_last - m.t_first) * i / 64);
        double x = lay_axis_x(&a, t);
        assert_true(isfinite(x) && x >= prev && x <= 1);
        prev = x;
    }
    lay_axis_deinit(&a);
    cs_model_deinit(&m);
    cs_file_unmap(&f);
}

static void fmt_dur_uses_real_units(void **state)
{
    (void)state;
    char b[32];
    lay_fmt_dur(999, b, sizeof b), assert_string_equal(b, "999 ns");
    lay_fmt_dur(1500, b, sizeof b), assert_string_equal(b, "1.5 µs");
    lay_fmt_dur(20000000, b, sizeof b), assert_string_equal(b, "20 ms");
    lay_fmt_dur(3250000000LL, b, sizeof b), assert_string_equal(b, "3.25 s");
}

/* In depth-first lane order every goroutine sits below its parent, and the
 * whole subtree of a goroutine takes consecutive lanes right under it. */
static void lanes_children_sit_under_parents(void **state)
{
    (void)state;
    cs_model m;
    sy_tree(&m, 3, 3);
    lay_lanes l;
    cs_err err = {0};
    assert_true(lay_lanes_build(&m, &(lay_lanes_desc){0}, &l, &err));
    assert_int_equal(l.n_lanes, m.n_g - 1);
    for (uint32_t g = 1; g < m.n_g; g++) {
        uint32_t p = m.g[g].parent;
        if (p)
            assert_true(l.lane_of_g[g] > l.lane_of_g[p]);
    }
    /* subtree contiguity: between a goroutine and its child only descendants */
    for (uint32_t g = 1; g < m.n_g; g++) {
        uint32_t p = m.g[g].parent;
        if (!p)
            continue;
        for (uint32_t lane = l.lane_of_g[p] + 1; lane < l.lane_of_g[g]; lane++) {
            uint32_t h = l.lane_g[lane];
            while (h && h != p)
                h = m.g[h].parent;
            assert_int_equal(h, p);
        }
    }
    assert_string_equal(lay_lanes_label(&l, 0), "G1 main.main");
    lay_lanes_deinit(&l);
    cs_model_deinit(&m);
}

static void lanes_compact_reuse_never_overlaps(void **state)
{
    (void)state;
    cs_model m;
    sy_tree(&m, 6, 3); /* 258 short-lived goroutines */
    lay_lanes l;
    cs_err err = {0};
    assert_true(lay_lanes_build(&m, &(lay_lanes_desc){.compact = true}, &l, &err));
    assert_true(l.n_lanes < m.n_g / 4);
    for (uint32_t a = 1; a < m.n_g; a++)
        for (uint32_t b = a + 1; b < m.n_g; b++) {
            if (l.lane_of_g[a] != l.lane_of_g[b])
                continue;
            const cs_goroutine *x = &m.g[a], *y = &m.g[b];
            int64_t xe = x->end_ns == CS_T_NONE ? INT64_MAX : x->end_ns;
            int64_t ye = y->end_ns == CS_T_NONE ? INT64_MAX : y->end_ns;
            assert_true(xe < y->create_ns || ye < x->create_ns);
        }
    lay_lanes_deinit(&l);
    cs_model_deinit(&m);
}

static void lanes_hide_system_and_shorten_names(void **state)
{
    (void)state;
    cs_model m;
    sy_workers(&m, 4, 8);
    m.g[2].flags |= CS_G_SYSTEM;
    lay_lanes l;
    cs_err err = {0};
    assert_true(lay_lanes_build(&m, &(lay_lanes_desc){0}, &l, &err));
    assert_int_equal(l.n_shown, 4);
    assert_int_equal(l.lane_of_g[2], LAY_NO_LANE);
    assert_string_equal(lay_lanes_label(&l, 1), "G3 work.worker");
    lay_lanes_deinit(&l);
    assert_true(lay_lanes_build(&m, &(lay_lanes_desc){.show_system = true}, &l, &err));
    assert_int_equal(l.n_shown, 5);
    lay_lanes_deinit(&l);
    cs_model_deinit(&m);
}

static void lanes_reuse_then_collapse_when_too_many(void **state)
{
    (void)state;
    cs_model m;
    sy_tree(&m, 10, 3); /* 1111 goroutines in 3 functions, a few dozen alive at once */
    lay_lanes l;
    cs_err err = {0};
    assert_true(lay_lanes_build(&m, &(lay_lanes_desc){.max_lanes = 300}, &l, &err));
    assert_true(l.compacted && !l.collapsed);
    assert_true(l.n_lanes > 3 && l.n_lanes <= 300);
    assert_int_equal(l.n_shown, 1111);
    uint32_t held = 0;
    for (uint32_t i = 0; i < l.n_lanes; i++)
        held += l.lane_n[i];
    assert_int_equal(held, 1111);
    assert_non_null(strstr(lay_lanes_label(&l, l.n_lanes - 1), " +"));
    assert_int_equal(l.lane_first[l.n_lanes], 1111); /* by lane, one after another */
    for (uint32_t i = 0; i < l.n_lanes; i++)
        for (uint32_t k = l.lane_first[i]; k < l.lane_first[i + 1]; k++) {
            assert_int_equal(l.lane_of_g[l.by_lane[k]], i);
            if (k > l.lane_first[i])
                assert_true(m.g[l.by_lane[k - 1]].end_ns < m.g[l.by_lane[k]].create_ns);
        }
    /* the goroutine of a lane at a time, by binary search, as a scan of all finds it */
    for (uint32_t i = 0; i < l.n_lanes; i += 7)
        for (int64_t t = m.t_first - 1; t <= m.t_last + 1; t += (m.t_last - m.t_first) / 97 + 1) {
            uint32_t want = l.lane_g[i];
            for (uint32_t gi = 1; gi < m.n_g; gi++)
                if (l.lane_of_g[gi] == i && m.g[gi].create_ns <= t && (m.g[gi].end_ns == CS_T_NONE || m.g[gi].end_ns >= t)) {
                    want = gi;
                    break;
                }
            assert_int_equal(lay_lanes_g_at(&m, &l, i, t), want);
        }
    lay_lanes_deinit(&l);
    /* more alive at once than that: one lane per function */
    assert_true(lay_lanes_build(&m, &(lay_lanes_desc){.max_lanes = 10}, &l, &err));
    assert_true(l.collapsed && !l.compacted && !l.by_lane);
    assert_int_equal(l.n_lanes, 3);
    assert_string_equal(lay_lanes_label(&l, 2), "main.leaf \u00d71100");
    lay_lanes_deinit(&l);
    /* within the limit: a lane each */
    assert_true(lay_lanes_build(&m, &(lay_lanes_desc){.max_lanes = 1111}, &l, &err));
    assert_true(!l.compacted && !l.collapsed);
    assert_int_equal(l.n_lanes, 1111);
    lay_lanes_deinit(&l);
    cs_model_deinit(&m);
}

/* Asked to collapse, lanes fold by function at any height; a filter keeps
 * only matching functions; `keep` shows one system goroutine anyway. */
static void lanes_filter_keep_and_forced_collapse(void **state)
{
    (void)state;
    cs_model m;
    sy_workers(&m, 4, 8); /* main.main and 4 work.worker */
    m.g[2].flags |= CS_G_SYSTEM;
    lay_lanes l;
    cs_err err = {0};
    assert_true(lay_lanes_build(&m, &(lay_lanes_desc){.collapse = true}, &l, &err));
    assert_true(l.collapsed);
    assert_int_equal(l.n_shown, 4);
    assert_int_equal(l.n_lanes, 2);
    assert_string_equal(lay_lanes_label(&l, 1), "work.worker \u00d73");
    lay_lanes_deinit(&l);
    /* the filter keeps main.main too: it sends to the workers (a partner) */
    assert_true(lay_lanes_build(&m, &(lay_lanes_desc){.filter = "worker"}, &l, &err));
    assert_int_equal(l.n_shown, 4);
    assert_true(l.lane_of_g[1] != LAY_NO_LANE);
    assert_int_equal(l.lane_of_g[2], LAY_NO_LANE);
    assert_false(l.collapsed);
    lay_lanes_deinit(&l);
    uint8_t *in = lay_filter_build(&m, "worker", &err);
    assert_non_null(in);
    assert_int_equal(in[1], LAY_FILTER_PARTNER);
    assert_int_equal(in[3], LAY_FILTER_MATCH);
    cs_free(in);
    assert_true(lay_lanes_build(&m, &(lay_lanes_desc){.filter = "worker", .keep = 2}, &l, &err));
    assert_int_equal(l.n_shown, 5);
    assert_true(l.lane_of_g[2] != LAY_NO_LANE);
    lay_lanes_deinit(&l);
    assert_true(lay_lanes_build(&m, &(lay_lanes_desc){.filter = "nothing"}, &l, &err));
    assert_int_equal(l.n_lanes, 0);
    lay_lanes_deinit(&l);
    cs_model_deinit(&m);
}

static void palette_channel_hue_is_stable(void **state)
{
    (void)state;
    cs_model m;
    sy_workers(&m, 2, 2);
    uint32_t h1 = lay_chan_hue(&m, 1), h2 = lay_chan_hue(&m, 2);
    assert_true(h1 < LAY_CHAN_HUES && h2 < LAY_CHAN_HUES);
    cs_model m2;
    sy_workers(&m2, 3, 5); /* same sites, different run: same hues */
    assert_int_equal(lay_chan_hue(&m2, 1), h1);
    assert_int_equal(lay_chan_hue(&m2, 2), h2);
    char hex[8];
    lay_rgba_hex(lay_palette_get(LAY_THEME_DARK)->mark[LAY_MARK_RUNNING], hex);
    assert_string_equal(hex, "#56b4e9");
    assert_int_equal(lay_mark_of(CS_ST_BLOCKED, CS_R_SELECT), LAY_MARK_BLOCK_CHAN);
    cs_model_deinit(&m);
    cs_model_deinit(&m2);
}

/* Least distance between any two goroutines' lines (O(n²), small n). */
static double closest_pair(const lay_tree *t)
{
    double best = INFINITY;
    for (uint32_t a = 1; a < t->n_g; a++)
        for (uint32_t b = a + 1; b < t->n_g; b++)
            best = fmin(best, hypot(t->x[a] - t->x[b], t->z[a] - t->z[b]));
    return best;
}

static void tree_siblings_never_overlap_for_1_to_1000_children(void **state)
{
    (void)state;
    static const int fan[] = {1, 2, 3, 7, 12, 50, 200, 1000};
    for (size_t i = 0; i < sizeof fan / sizeof *fan; i++) {
        cs_model m;
        sy_tree(&m, fan[i], 1);
        lay_tree t;
        cs_err err = {0};
        assert_true(lay_tree_build(&m, &(lay_tree_desc){.spacing = 2}, &t, &err));
        assert_true(closest_pair(&t) >= 2 * 0.999);
        /* the circle grows with the sibling count, not faster */
        assert_true(t.radius <= 2 + 2.5 * fan[i]);
        lay_tree_deinit(&t);
        cs_model_deinit(&m);
    }
}

static void tree_subtrees_never_overlap_and_chains_grow_linearly(void **state)
{
    (void)state;
    cs_model m;
    sy_tree(&m, 4, 4); /* 341 goroutines, subtrees of very different sizes */
    lay_tree t;
    cs_err err = {0};
    assert_true(lay_tree_build(&m, &(lay_tree_desc){0}, &t, &err));
    assert_true(closest_pair(&t) >= 0.999);
    assert_int_equal(t.depth[m.n_g - 1], 4);
    lay_tree_deinit(&t);
    cs_model_deinit(&m);
    sy_tree(&m, 1, 500); /* a chain */
    assert_true(lay_tree_build(&m, &(lay_tree_desc){0}, &t, &err));
    assert_true(closest_pair(&t) >= 0.999);
    assert_true(t.radius < 2.0 * 500);
    lay_tree_deinit(&t);
    cs_model_deinit(&m);
}

/* Children follow one another by creation, those made at the same time by
 * goid, whatever order the model has them in: a run of 40 ties (put in
 * goid order by a sort) and one of 5 (in place), made in falling and
 * mixed goid order, between goroutines made at times of their own. */
static int by_creation_goid(const void *a, const void *b, void *ctx)
{
    const cs_model *m = ctx;
    const cs_goroutine *x = &m->g[*(const uint32_t *)a], *y = &m->g[*(const uint32_t *)b];
    if (x->create_ns != y->create_ns)
        return x->create_ns < y->create_ns ? -1 : 1;
    return x->goid < y->goid ? -1 : x->goid > y->goid;
}

static void spawn_order_breaks_ties_by_goid(void **state)
{
    (void)state;
    cs_model m;
    cs_mb mb;
    sy_begin(&m, &mb);
    sy_go(&mb, 0, 1, 0, "main.main");
    static const uint64_t five[] = {300, 150, 250, 100, 120};
    sy_go(&mb, 5, 900, 1, "main.first");
    for (uint64_t k = 0; k < 40; k++)
        sy_go(&mb, 10, 200 - k, 1, "main.tie40");
    sy_go(&mb, 15, 50, 1, "main.between");
    for (int k = 0; k < 5; k++)
        sy_go(&mb, 20, five[k], 1, "main.tie5");
    sy_go(&mb, 25, 10, 1, "main.last");
    sy_end(&m, &mb, 100);
    uint32_t n = m.n_g, got = 0, order[64], by_size[64], want[64];
    cs_err err = {0};
    assert_true(lay_tree_orders(&m, order, by_size, &got, &err));
    assert_int_equal(got, n - 1);
    for (uint32_t i = 2; i < n; i++) /* main first, then its children */
        want[i - 2] = i;
    qsort_r(want, n - 2, sizeof *want, by_creation_goid, &m);
    assert_int_equal(m.g[order[0]].goid, 1);
    for (uint32_t i = 0; i + 2 < n; i++)
        assert_int_equal(order[i + 1], want[i]);
    cs_model_deinit(&m);
}

static void layouts_are_deterministic(void **state)
{
    (void)state;
    cs_model m;
    sy_tree(&m, 5, 3);
    lay_tree t1, t2;
    lay_lanes l1, l2;
    cs_err err = {0};
    assert_true(lay_tree_build(&m, &(lay_tree_desc){0}, &t1, &err));
    assert_true(lay_tree_build(&m, &(lay_tree_desc){0}, &t2, &err));
    assert_memory_equal(t1.x, t2.x, t1.n_g * sizeof *t1.x);
    assert_memory_equal(t1.z, t2.z, t1.n_g * sizeof *t1.z);
    assert_true(lay_lanes_build(&m, &(lay_lanes_desc){.compact = true}, &l1, &err));
    assert_true(lay_lanes_build(&m, &(lay_lanes_desc){.compact = true}, &l2, &err));
    assert_memory_equal(l1.lane_of_g, l2.lane_of_g, m.n_g * sizeof *l1.lane_of_g);
    lay_tree_deinit(&t1), lay_tree_deinit(&t2);
    lay_lanes_deinit(&l1), lay_lanes_deinit(&l2);
    cs_model_deinit(&m);
}

/* Per-column summary: a lane that runs 3/4 of each column shows running;
 * bundles merge arrows of one lane pair in one column and keep the count. */
static void lod_summaries_and_bundles(void **state)
{
    (void)state;
    cs_model m;
    sy_workers(&m, 2, 400);
    lay_axis a;
    lay_lanes l;
    lay_lod d;
    lay_bundles b;
    cs_err err = {0};
    assert_true(lay_axis_build(&m, &(lay_axis_desc){0}, &a, &err));
    assert_true(lay_lanes_build(&m, &(lay_lanes_desc){0}, &l, &err));
    assert_true(lay_lod_spans(&m, &a, &l, 0, l.n_lanes, 50, &d, &err));
    uint32_t w = l.lane_of_g[2], running = 0;
    for (uint32_t c = 5; c < 45; c++)
        running += lay_lod_at(&d, w, c) == LAY_MARK_RUNNING;
    assert_true(running >= 38); /* jobs keep both workers running nearly all the time */
    assert_true(d.n_spans[w] > 300);
    assert_true(lay_lod_arrows(&m, &a, &l, 50, 0, &b, &err));
    uint32_t total = 0;
    for (uint32_t i = 0; i < b.n; i++) {
        total += b.b[i].count;
        if (i)
            assert_true(b.b[i].t0 >= b.b[i - 1].t0);
    }
    assert_int_equal(b.n_arrows[LAY_ARROW_CHAN], m.n_msgs);
    assert_int_equal(total, m.n_msgs + 2); /* + the two spawns */
    assert_true(b.n <= 2 * 2 * 50 + 2);
    lay_bundles_deinit(&b);
    assert_true(lay_lod_arrows(&m, &a, &l, 50, 20, &b, &err)); /* coarser until they fit */
    total = 0;
    for (uint32_t i = 0; i < b.n; i++)
        total += b.b[i].count;
    assert_int_equal(total, m.n_msgs + 2);
    assert_true(b.n <= 20 && b.cols < 50);
    lay_bundles_deinit(&b);
    lay_lod_deinit(&d);
    lay_lanes_deinit(&l);
    lay_axis_deinit(&a);
    cs_model_deinit(&m);
}

/* The widest times a trace may hold (±2^60 ns) in one column, in a lane of
 * many goroutines: the nanoseconds summed per column hold at their
 * largest instead of overflowing (the sanitizer builds would stop), and
 * the mark is still the state covering the column. */
static void lod_widest_column_many_goroutines(void **state)
{
    (void)state;
    cs_model m;
    cs_mb mb;
    sy_begin(&m, &mb);
    const int64_t t0 = -CS_T_MAX, t1 = CS_T_MAX;
    for (uint64_t g = 1; g <= 16; g++) {
        sy_go(&mb, t0, g, CS_NO_GOID, "main.worker");
        sy_set(&mb, t0 + 1, g, CS_ST_RUNNING, 0);
    }
    sy_end(&m, &mb, t1);
    m.t_first = t0;
    lay_axis a;
    lay_lanes l;
    lay_lod d;
    cs_err err = {0};
    assert_true(lay_axis_build(&m, &(lay_axis_desc){.t0 = t0, .t1 = t1}, &a, &err));
    assert_true(lay_lanes_build(&m, &(lay_lanes_desc){.collapse = true}, &l, &err));
    assert_int_equal(l.n_lanes, 1);
    for (uint32_t cols = 1; cols <= 2; cols++) {
        assert_true(lay_lod_spans(&m, &a, &l, 0, 1, cols, &d, &err));
        for (uint32_t c = 0; c < cols; c++)
            assert_int_equal(lay_lod_at(&d, 0, c), LAY_MARK_RUNNING);
        lay_lod_deinit(&d);
    }
    lay_lanes_deinit(&l);
    lay_axis_deinit(&a);
    cs_model_deinit(&m);
}

/* Many lane pairs and a tight budget: the grid coarsens in lanes as well as
 * in time, so the arrows still cover the whole window instead of all being
 * drawn at its start, and no arrow is lost from the counts. */
static void bundles_over_budget_stay_spread_in_time(void **state)
{
    (void)state;
    cs_model m;
    sy_workers(&m, 64, 6400);
    lay_axis a;
    lay_lanes l;
    lay_bundles b;
    cs_err err = {0};
    assert_true(lay_axis_build(&m, &(lay_axis_desc){0}, &a, &err));
    assert_true(lay_lanes_build(&m, &(lay_lanes_desc){0}, &l, &err));
    assert_true(lay_lod_arrows(&m, &a, &l, 600, 300, &b, &err));
    assert_true(b.n <= 300);
    assert_true(b.cols >= 8);
    uint32_t total = 0, late = 0;
    int64_t half = a.t0 + (a.t1 - a.t0) / 2;
    for (uint32_t i = 0; i < b.n; i++) {
        total += b.b[i].count;
        late += b.b[i].t0 > half;
    }
    assert_int_equal(total, m.n_msgs + 64); /* + the spawns */
    assert_true(late >= b.n / 4);
    lay_bundles_deinit(&b);
    lay_lanes_deinit(&l);
    lay_axis_deinit(&a);
    cs_model_deinit(&m);
}

/* Graphviz positions come back inside the bounding box, nodes apart. */
static void graph_positions_come_back_from_graphviz(void **state)
{
    (void)state;
    cs_model m;
    sy_workers(&m, 4, 12);
    lay_graph g;
    cs_err err = {0};
    assert_true(lay_graph_build(&m, &(lay_graph_desc){0}, &g, &err));
    assert_int_equal(g.n_nodes, 5);
    assert_string_equal(g.engine, "neato"); /* jobs out, results back: a mesh */
    assert_int_equal(g.n_msgs, 24);
    assert_int_equal(g.n_edges, 4 + 4 + 4); /* jobs, results, spawns per worker */
    for (uint32_t i = 0; i < g.n_nodes; i++) {
        assert_true(g.nodes[i].x >= 0 && g.nodes[i].x <= g.width);
        assert_true(g.nodes[i].y >= 0 && g.nodes[i].y <= g.height);
        for (uint32_t j = i + 1; j < g.n_nodes; j++)
            assert_true(hypot(g.nodes[i].x - g.nodes[j].x, g.nodes[i].y - g.nodes[j].y) > 20);
    }
    for (uint32_t i = 0; i < g.n_edges; i++)
        assert_true(g.edges[i].n_pts >= 4);
    lay_graph_deinit(&g);
    assert_true(lay_graph_build(&m, &(lay_graph_desc){.group = LAY_GROUP_FUNCTION}, &g, &err));
    assert_int_equal(g.n_nodes, 2);
    assert_string_equal(lay_graph_label(&g, 1), "work.worker \u00d74");
    lay_graph_deinit(&g);
    cs_model_deinit(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(axis_linear_ticks_are_nice_and_monotone),
        cmocka_unit_test(axis_inverse_round_trips_in_every_mapping),
        cmocka_unit_test(axis_log_ticks_are_1_2_5_decades),
        cmocka_unit_test(axis_gap_folding_compresses_idle_stretches),
        cmocka_unit_test(axis_gaps_on_an_all_idle_trace_stay_finite),
        cmocka_unit_test(fmt_dur_uses_real_units),
        cmocka_unit_test(lanes_children_sit_under_parents),
        cmocka_unit_test(lanes_compact_reuse_never_overlaps),
        cmocka_unit_test(lanes_hide_system_and_shorten_names),
        cmocka_unit_test(lanes_reuse_then_collapse_when_too_many),
        cmocka_unit_test(lanes_filter_keep_and_forced_collapse),
        cmocka_unit_test(palette_channel_hue_is_stable),
        cmocka_unit_test(tree_siblings_never_overlap_for_1_to_1000_children),
        cmocka_unit_test(tree_subtrees_never_overlap_and_chains_grow_linearly),
        cmocka_unit_test(spawn_order_breaks_ties_by_goid),
        cmocka_unit_test(layouts_are_deterministic),
        cmocka_unit_test(lod_summaries_and_bundles),
        cmocka_unit_test(lod_widest_column_many_goroutines),
        cmocka_unit_test(bundles_over_budget_stay_spread_in_time),
        cmocka_unit_test(graph_positions_come_back_from_graphviz),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
