/* tests/lay_all.h — every layout on a decoded model, results thrown away:
 * the axis in all three mappings with its ticks and their labels, the
 * mapping back from positions to times, lanes plain/compact/collapsed/
 * filtered, level of detail, arrow bundles, the 3D tree, and the graph
 * without running Graphviz's layout. Shared by the hostile-input sweep (test_sweep.c) and
 * the layout fuzzer (fuzz/fuzz_layout.c), which look for crashes, UB and
 * runaway memory, not for results.
 *
 * API (static)
 *   void tl_lay_all(const cs_model *m)
 */
#ifndef TESTS_LAY_ALL_H
#define TESTS_LAY_ALL_H

#include <string.h>

#include "../layout/graph.h"
#include "../layout/lod.h"
#include "../layout/tree.h"

static inline void tl_lay_all(const cs_model *m)
{
    cs_err err = {0};
    for (int kind = LAY_AXIS_LINEAR; kind <= LAY_AXIS_GAPS; kind++) {
        lay_axis a;
        lay_lanes l;
        lay_lod d;
        lay_bundles b;
        memset(&l, 0, sizeof l), memset(&d, 0, sizeof d), memset(&b, 0, sizeof b);
        if (lay_axis_build(m, &(lay_axis_desc){.kind = (lay_axis_kind)kind}, &a, &err)) {
            lay_tick t[64];
            uint32_t n = lay_axis_ticks(&a, 1000, 60, t, 64);
            for (uint32_t i = 0; i < n; i++) {
                char buf[32];
                lay_fmt_dur(lay_axis_t(&a, t[i].x), buf, sizeof buf);
            }
        }
        if (err.code == CS_OK &&
            lay_lanes_build(m, &(lay_lanes_desc){.compact = kind == 1, .show_system = kind == 2,
                                                  .collapse = kind == 2, .filter = kind == 1 ? "main" : NULL,
                                                  .keep = kind == 0 ? 1 : 0, .max_lanes = kind == 0 ? 13 : 0},
                            &l, &err) &&
            lay_lod_spans(m, &a, &l, 0, l.n_lanes, 64, &d, &err))
            lay_lod_arrows(m, &a, &l, 64, 256, &b, &err);
        lay_bundles_deinit(&b);
        lay_lod_deinit(&d);
        lay_lanes_deinit(&l);
        lay_axis_deinit(&a);
        err = (cs_err){0};
    }
    lay_tree t;
    lay_tree_build(m, &(lay_tree_desc){0}, &t, &err);
    lay_tree_deinit(&t);
    lay_graph g;
    err = (cs_err){0};
    lay_graph_build(m, &(lay_graph_desc){.no_layout = true}, &g, &err);
    lay_graph_deinit(&g);
}

#endif
