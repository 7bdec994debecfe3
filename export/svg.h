/* export/svg.h — `chanscope svg`: the lanes view (or the communication graph)
 * as an SVG 1.1 document: state segments as <rect>, arrows as <line>/<path>
 * with <marker> heads, text as <text> (searchable), a <title> tooltip on each
 * goroutine and arrow, time axis, legend, title and counts. Level of detail
 * (layout/lod.h) keeps the file bounded by the picture, not the trace: dense
 * lanes become per-pixel-column summaries and arrows are bundled per (lane
 * pair, pixel column). Reads the model and layout/, never GL.
 *
 * API
 *   bool exp_svg_write_to(cs_write_fn *fn, void *ctx, const cs_model *m,
 *                         const exp_svg_desc *d, cs_err *err)
 *   bool exp_svg_write(const char *path, const cs_model *m, const exp_svg_desc *d, cs_err *err)
 *       atomic: path.tmp then rename; "-" writes to standard output
 */
#ifndef EXP_SVG_H
#define EXP_SVG_H

#include "../core/model.h"
#include "../layout/axis.h"
#include "../layout/palette.h"

typedef enum exp_svg_layout { EXP_SVG_LANES = 0, EXP_SVG_GRAPH } exp_svg_layout;

typedef struct exp_svg_desc {
    const char *name;        /* title: the trace's file name; NULL = "trace" */
    exp_svg_layout layout;
    lay_theme theme;
    lay_axis_kind axis;      /* lanes: time mapping */
    int64_t t0, t1;          /* lanes: visible range in model time; equal = whole trace */
    uint32_t width;          /* px; 0 = 1600 */
    bool compact;            /* lanes: reuse lanes after goroutines end */
    bool collapse;           /* lanes: one lane per entry function (also when lanes get thin) */
    bool show_system;        /* include runtime goroutines */
    const char *engine;      /* graph: Graphviz layout, NULL = by the graph's shape */
} exp_svg_desc;

bool exp_svg_write_to(cs_write_fn *fn, void *ctx, const cs_model *m, const exp_svg_desc *d,
                      cs_err *err);
bool exp_svg_write(const char *path, const cs_model *m, const exp_svg_desc *d, cs_err *err);

#endif
