/* tests/fuzz/fuzz_layout.c — libFuzzer harness: whole files through decode,
 * channel traffic and every layout on the decoded model (axis in all three
 * mappings, lanes plain/compact/collapsed, level of detail, arrow bundles,
 * the 3D tree, and the graph without running Graphviz's layout). */
#include "fuzz_common.h"

#include "../../layout/graph.h"
#include "../../layout/lod.h"
#include "../../layout/tree.h"

static void lay_all(const cs_model *m)
{
    cs_err err = {0};
    for (int kind = LAY_AXIS_LINEAR; kind <= LAY_AXIS_GAPS; kind++) {
        lay_axis a;
        lay_lanes l;
        lay_lod d;
        lay_bundles b;
        memset(&l, 0, sizeof l), memset(&d, 0, sizeof d), memset(&b, 0, sizeof b);
        if (lay_axis_build(m, &(lay_axis_desc){.kind = (lay_axis_kind)kind}, &a, &err) &&
            lay_lanes_build(m, &(lay_lanes_desc){.compact = kind == 1, .show_system = kind == 2,
                                                  .height_px = kind == 0 ? 40 : 0}, &l, &err) &&
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_run_with(data, size, lay_all);
    return 0;
}
