/* export/dot.h — `chanscope dot`: the communication graph (layout/graph.h) as
 * a Graphviz DOT file that reads well without rendering (label, tooltip,
 * penwidth, style=dashed|dotted, color from the palette), or, with render
 * set, laid out and rendered by gvc to SVG, PNG (cairo) or PDF.
 *
 * API
 *   bool exp_dot_write_to(cs_write_fn *fn, void *ctx, const cs_model *m,
 *                         const exp_dot_desc *d, cs_err *err)
 *   bool exp_dot_write(const char *path, const cs_model *m, const exp_dot_desc *d, cs_err *err)
 *       atomic: path.tmp then rename; "-" writes to standard output
 */
#ifndef EXP_DOT_H
#define EXP_DOT_H

#include "../core/model.h"
#include "../layout/graph.h"

typedef struct exp_dot_desc {
    lay_graph_group group;   /* goroutine or function nodes; AUTO by size */
    lay_theme theme;
    bool show_system;
    const char *engine;      /* NULL = by size */
    const char *render;      /* NULL = DOT text; "svg", "png", "pdf" */
    const char *name;        /* title: the trace's file name, or NULL for none */
} exp_dot_desc;

bool exp_dot_write_to(cs_write_fn *fn, void *ctx, const cs_model *m, const exp_dot_desc *d,
                      cs_err *err);
bool exp_dot_write(const char *path, const cs_model *m, const exp_dot_desc *d, cs_err *err);

#endif
