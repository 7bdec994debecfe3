/* layout/graph.h — the communication graph: nodes are goroutines (or groups
 * of goroutines), edges are channel traffic (one edge per node pair and
 * channel, weighted by message count), spawns and sync wake-ups. Built as a
 * Graphviz cgraph graph with chanscope's look as DOT attributes (label,
 * tooltip, penwidth, style, color from layout/palette.h) and laid out by gvc;
 * positions, edge splines and edge-label places are read back into plain
 * arrays in pixels of the canvas, y growing downwards.
 *
 * Sizes. Every node is a box sized from its label's measured text
 * (lay_text_width) at font_px, so Graphviz routes edges around the names.
 * With a canvas (width_px × height_px), Graphviz is asked for that aspect
 * ratio (ratio=fill, size): a graph smaller than the canvas is spread over
 * it, a bigger one comes back with the canvas's shape and is scaled down by
 * lay_graph_scale. Text is never drawn below LAY_GRAPH_FONT_MIN px: a graph
 * that would need smaller text is folded instead —
 *   group  LAY_GROUP_AUTO: one node per goroutine; when that would not fit
 *          the canvas, goroutines of one function with the same traffic
 *          (the same kinds of messages on the same channels to and from the
 *          same functions) become one node "main.worker ×N"; when even that
 *          does not fit, one node per function.
 *          LAY_GROUP_GOROUTINE, LAY_GROUP_FUNCTION: always that.
 * Engine (unless desc.engine names one): dot for pipelines and trees (the
 * messages mostly run one way: few back edges in a depth-first walk), top
 * to bottom or left to right, whichever fills the canvas better; neato for
 * meshes, sfdp for big meshes.
 *   no_layout  build the cgraph graph only (for plain DOT output).
 * Goroutines without any edge are left out.
 *
 * Labels and their rectangles. lay_graph_rects lists, at a drawing scale,
 * every node's box, its label (inside the box, or at LAY_GRAPH_FONT_MIN
 * when the scale would make it smaller) and the count labels of edges
 * ("17×", where Graphviz found room); a label that would overlap a box or
 * another label is left out of the list. Every picture of the graph (PNG,
 * viewer, SVG) draws exactly the labels in that list.
 *
 * API
 *   bool lay_graph_build(const cs_model *m, const lay_graph_desc *d, lay_graph *out, cs_err *err)
 *       free with lay_graph_deinit (also after a failure)
 *   void lay_graph_deinit(lay_graph *g)
 *   const char *lay_graph_label(const lay_graph *g, uint32_t node)   one line, e.g. "G17 main.worker"
 *   double lay_graph_font_for(double width_px, double height_px)    label size for a canvas
 *   double lay_graph_scale(const lay_graph *g, double width_px, double height_px)
 *       the uniform scale that fits the layout into the given area
 *   uint32_t lay_graph_rects_max(const lay_graph *g)
 *   uint32_t lay_graph_rects(const lay_graph *g, double scale, lay_grect *out)
 *       out has lay_graph_rects_max entries; returns how many were written,
 *       nodes first (in node order), then labels
 *   void lay_graph_edge_text(const lay_gedge *e, char *buf, size_t n)    "17×"
 *   bool lay_graph_edge_counted(const lay_gedge *e)   the edge shows its count
 *   double lay_graph_edge_width(const lay_gedge *e)   its pen width in px at scale 1
 *       (Graphviz's penwidth, the SVG's and the PNG's stroke)
 *   uint32_t lay_graph_edge_find(g, kind, from, to, chan)   the edge of that
 *       kind between those nodes over that channel, UINT32_MAX if none
 *   const char *lay_graph_engine_parse(const char *name)
 *       the engine's name as a static string, NULL when Graphviz has no such layout here
 *   double lay_text_width(const char *utf8, double font_px)         text.c: width in px
 *   size_t lay_utf8_floor(const char *s, size_t k)   text.c: the last character boundary
 *       of s at or before byte k (k <= strlen(s)): where a cut keeps characters whole
 */
#ifndef LAY_GRAPH_H
#define LAY_GRAPH_H

#include "../core/model.h"
#include "palette.h"

#define LAY_GRAPH_FONT_MIN 10.0   /* px: no graph label is drawn smaller */
#define LAY_GRAPH_FONT_MAX 20.0
#define LAY_GRAPH_EDGE_FONT 0.8   /* edge count labels, relative to node labels */
#define LAY_TEXT_EM_PER_CHAR 0.6  /* text.c: no character counts narrower */

typedef enum lay_graph_group { LAY_GROUP_AUTO = 0, LAY_GROUP_GOROUTINE, LAY_GROUP_FUNCTION } lay_graph_group;

typedef struct lay_graph_desc {
    lay_graph_group group;
    bool show_system;
    lay_theme theme;
    const char *engine;   /* "dot", "neato", "sfdp", "fdp", "circo"; NULL = by shape */
    bool no_layout;
    const char *title;    /* graph label at the top, or NULL */
    double width_px, height_px; /* canvas the graph is drawn into; 0 = its natural size */
    double font_px;       /* node label size; 0 = lay_graph_font_for(canvas) */
} lay_graph_desc;

typedef struct lay_gnode {
    uint32_t g;           /* first goroutine (model index) */
    uint32_t n_g;         /* goroutines in the node */
    double x, y, w, h;    /* centre and size, px */
} lay_gnode;

typedef struct lay_gedge {
    uint32_t from, to;    /* nodes */
    uint32_t count;       /* messages / spawns / wake-ups */
    uint32_t chan;        /* channel (0 for spawn and sync) */
    uint32_t pt_first, n_pts; /* spline: cubic Bézier control points (3k+1), then the arrow tip */
    double lx, ly;        /* centre of the count label; lx < 0: none */
    uint8_t kind;         /* lay_arrow_kind (layout/lod.h) */
    uint8_t pad[7];
} lay_gedge;

typedef enum lay_grect_kind { LAY_RECT_NODE, LAY_RECT_LABEL, LAY_RECT_EDGE_LABEL } lay_grect_kind;

typedef struct lay_grect {
    double x0, y0, x1, y1; /* px at the scale asked for, origin at the layout's top left */
    double font_px;        /* labels: text size */
    uint32_t idx;          /* node (NODE, LABEL) or edge (EDGE_LABEL) */
    uint8_t kind;          /* lay_grect_kind */
    uint8_t pad[3];
} lay_grect;

typedef struct lay_graph {
    lay_gnode *nodes;
    uint32_t n_nodes;
    lay_gedge *edges;
    uint32_t n_edges;
    double *pts;          /* x, y pairs */
    uint32_t n_pts;
    uint32_t *node_of_g;  /* per goroutine: node, or UINT32_MAX */
    double width, height; /* bounding box, px */
    double font_px;       /* node label size the boxes were measured for */
    const char *engine;
    bool by_function;     /* one node per function */
    bool folded;          /* goroutines with the same function and traffic share a node */
    uint32_t n_msgs;      /* messages on the edges */
    char *label_bytes;
    uint32_t *label_off;
    void *gvc;            /* GVC_t * (process-wide, never freed), for export/dot.c; NULL with no_layout */
    void *ag;             /* Agraph_t * */
} lay_graph;

bool lay_graph_build(const cs_model *m, const lay_graph_desc *d, lay_graph *out, cs_err *err);
void lay_graph_deinit(lay_graph *g);
const char *lay_graph_label(const lay_graph *g, uint32_t node);
double lay_graph_font_for(double width_px, double height_px);
double lay_graph_scale(const lay_graph *g, double width_px, double height_px);
uint32_t lay_graph_rects_max(const lay_graph *g);
uint32_t lay_graph_rects(const lay_graph *g, double scale, lay_grect *out);
void lay_graph_edge_text(const lay_gedge *e, char *buf, size_t n);
bool lay_graph_edge_counted(const lay_gedge *e);
double lay_graph_edge_width(const lay_gedge *e);
uint32_t lay_graph_edge_find(const lay_graph *g, uint8_t kind, uint32_t from, uint32_t to, uint32_t chan);
const char *lay_graph_engine_parse(const char *name);
double lay_text_width(const char *utf8, double font_px);
size_t lay_utf8_floor(const char *s, size_t k);

#endif
