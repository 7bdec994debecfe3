/* tools/bench_layout.c — `make bench` figures for layout/ and export/: a
 * synthetic model of 100k goroutines (a spawn tree, 10 children each) and
 * 1M channel messages between them, then the wall time of each layout step
 * and of writing the SVG and Perfetto JSON into memory. Built and run by
 * tools/bench_layout.sh against the release objects. */
#include "../core/build.h"
#include "../export/perfetto.h"
#include "../export/svg.h"
#include "../layout/axis.h"
#include "../layout/lanes.h"
#include "../layout/lod.h"
#include "../layout/tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NG 100000u
#define NMSG 1000000u

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static size_t sink(void *ctx, const void *data, size_t n)
{
    (void)data;
    *(size_t *)ctx += n;
    return n;
}

static bool build(cs_model *m, cs_err *err)
{
    cs_mb mb;
    cs_model_init(m);
    if (!cs_mb_init(&mb, m, err))
        return false;
    cs_sid fn = cs_model_intern(m, "main.node", 9, err);
    for (uint64_t g = 1; g <= NG; g++) {
        int64_t t = (int64_t)g * 100;
        if (!cs_mb_create(&mb, &(cs_mb_create_desc){.t = t, .goid = g, .parent_goid = g > 1 ? g / 10 + (g / 10 == 0) : CS_NO_GOID,
                                                    .name = fn}, err) ||
            !cs_mb_set(&mb, t + 50, g, CS_ST_RUNNING, 0, 0, 0, err) ||
            !cs_mb_set(&mb, t + 90, g, CS_ST_BLOCKED, CS_R_CHAN_RECV, 0, 0, err))
            return false;
    }
    if (!cs_mb_finish(&mb, (int64_t)NG * 100 + 1000000, err))
        return false;
    cs_mb_deinit(&mb);
    m->t_first = 0, m->t_last = (int64_t)NG * 100 + 1000000;
    if (!cs_grow((void **)&m->chans, &m->cap_chans, 2, sizeof *m->chans, err))
        return false;
    m->chans[1] = (cs_chan){.count = NMSG};
    m->n_chans = 2;
    uint64_t x = 88172645463325252ull;
    for (uint32_t i = 0; i < NMSG; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int64_t t = (int64_t)(x % (uint64_t)m->t_last);
        if (!cs_model_msg_add(m, &(cs_msg_in){.t_send = t, .t_recv = t + 500, .sender = 1 + (uint32_t)(x >> 20) % NG,
                                              .receiver = 1 + (uint32_t)(x >> 40) % NG, .chan = 1}, 0, err))
            return false;
    }
    return true;
}

int main(void)
{
    cs_model m;
    cs_err err = {0};
    cs_alloc_init(); /* as chanscope's main */
    if (!build(&m, &err)) {
        fprintf(stderr, "bench_layout: %s\n", err.msg);
        return 1;
    }
    lay_axis a;
    lay_lanes l, lc;
    lay_tree t;
    lay_lod d;
    lay_bundles b;
    size_t svg_bytes = 0, json_bytes = 0;
    double t0 = now();
    bool ok = lay_axis_build(&m, &(lay_axis_desc){.kind = LAY_AXIS_GAPS}, &a, &err);
    double t1 = now();
    ok = ok && lay_lanes_build(&m, &(lay_lanes_desc){0}, &l, &err);
    double t2 = now();
    ok = ok && lay_lanes_build(&m, &(lay_lanes_desc){.compact = true}, &lc, &err);
    double t3 = now();
    ok = ok && lay_tree_build(&m, &(lay_tree_desc){0}, &t, &err);
    double t4 = now();
    ok = ok && lay_lod_spans(&m, &a, &l, 0, 2000, 1920, &d, &err);
    double t5 = now();
    ok = ok && lay_lod_arrows(&m, &a, &l, 1920, 20000, &b, &err);
    double t6 = now();
    ok = ok && exp_svg_write_to(sink, &svg_bytes, &m, &(exp_svg_desc){0}, &err);
    double t7 = now();
    ok = ok && exp_perfetto_write_to(sink, &json_bytes, &m, &(exp_perfetto_desc){0}, &err);
    double t8 = now();
    if (!ok) {
        fprintf(stderr, "bench_layout: %s\n", err.msg);
        return 1;
    }
    printf("layout of %u goroutines, %u messages (synthetic):\n", NG, NMSG);
    printf("  axis (gap folding)        %7.3f s  (%u gaps)\n", t1 - t0, a.n_gaps);
    printf("  lanes (spawn-tree order)  %7.3f s  (%u lanes)\n", t2 - t1, l.n_lanes);
    printf("  lanes --compact           %7.3f s  (%u lanes)\n", t3 - t2, lc.n_lanes);
    printf("  3D tree                   %7.3f s  (radius %.0f)\n", t4 - t3, t.radius);
    printf("  LOD spans 2000x1920       %7.3f s\n", t5 - t4);
    printf("  LOD arrows, 1920 columns  %7.3f s  (%u bundles: random pairs, at least one per lane pair)\n", t6 - t5, b.n);
    printf("  svg (collapsed lanes)     %7.3f s  (%.0f KB)\n", t7 - t6, svg_bytes / 1e3);
    printf("  perfetto JSON             %7.3f s  (%.1f MB)\n", t8 - t7, json_bytes / 1e6);
    lay_axis_deinit(&a), lay_lanes_deinit(&l), lay_lanes_deinit(&lc), lay_tree_deinit(&t);
    lay_lod_deinit(&d), lay_bundles_deinit(&b);
    cs_model_deinit(&m);
    return 0;
}
