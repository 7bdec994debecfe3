/* layout/graph.h — the communication graph: nodes are goroutines (or groups
 * of goroutines by entry function), edges are channel traffic (one edge per
 * node pair and channel, weighted by message count), spawns and sync
 * wake-ups. Built as a Graphviz cgraph graph with chanscope's look as DOT
 * attributes (label, tooltip, penwidth, style, color from layout/palette.h)
 * and laid out by gvc: dot (left to right) for small graphs, neato, then
 * sfdp as they grow; positions and edge splines are read back into plain
 * arrays in points, y growing downwards.
 *   group            LAY_GROUP_AUTO: goroutines, or functions when there
 *                    would be more than 300 goroutine nodes.
 *   no_layout        build the cgraph graph only (for plain DOT output).
 * Goroutines without any edge are left out in goroutine mode.
 *
 * API
 *   bool lay_graph_build(const cs_model *m, const lay_graph_desc *d, lay_graph *out, cs_err *err)
 *       free with lay_graph_deinit (also after a failure)
 *   void lay_graph_deinit(lay_graph *g)
 *   const char *lay_graph_label(const lay_graph *g, uint32_t node)   one line, e.g. "G17 main.worker"
 *   const char *lay_graph_engine_for(uint32_t n_nodes)               the automatic choice
 */
#ifndef LAY_GRAPH_H
#define LAY_GRAPH_H

#include "../core/model.h"
#include "palette.h"

typedef enum lay_graph_group { LAY_GROUP_AUTO = 0, LAY_GROUP_GOROUTINE, LAY_GROUP_FUNCTION } lay_graph_group;

typedef struct lay_graph_desc {
    lay_graph_group group;
    bool show_system;
    lay_theme theme;
    const char *engine;   /* "dot", "neato", "sfdp", "fdp", "circo"; NULL = by size */
    bool no_layout;
    const char *title;    /* graph label at the top, or NULL */
} lay_graph_desc;

typedef struct lay_gnode {
    uint32_t g;           /* first goroutine (model index) */
    uint32_t n_g;         /* goroutines in the node */
    double x, y, w, h;    /* centre and size, points */
} lay_gnode;

typedef struct lay_gedge {
    uint32_t from, to;    /* nodes */
    uint32_t count;       /* messages / spawns / wake-ups */
    uint32_t chan;        /* channel (0 for spawn and sync) */
    uint32_t pt_first, n_pts; /* spline: cubic Bézier control points (3k+1), then the arrow tip */
    uint8_t kind;         /* lay_arrow_kind (layout/lod.h) */
    uint8_t pad[3];
} lay_gedge;

typedef struct lay_graph {
    lay_gnode *nodes;
    uint32_t n_nodes;
    lay_gedge *edges;
    uint32_t n_edges;
    double *pts;          /* x, y pairs */
    uint32_t n_pts;
    uint32_t *node_of_g;  /* per goroutine: node, or UINT32_MAX */
    double width, height; /* bounding box, points */
    const char *engine;
    bool by_function;
    uint32_t n_msgs;      /* messages on the edges */
    char *label_bytes;
    uint32_t *label_off;
    void *gvc;            /* GVC_t * (process-wide, never freed), for export/dot.c; NULL with no_layout */
    void *ag;             /* Agraph_t * */
} lay_graph;

bool lay_graph_build(const cs_model *m, const lay_graph_desc *d, lay_graph *out, cs_err *err);
void lay_graph_deinit(lay_graph *g);
const char *lay_graph_label(const lay_graph *g, uint32_t node);
const char *lay_graph_engine_for(uint32_t n_nodes);

#endif
