/* export/svg_int.h — what the SVG files share: the drawing context, the
 * document frame (svg.c: header, markers, title, legend) and the two views
 * (svg_lanes.c, svg_graph.c).
 *
 * API
 *   void exp__svg_open(exp__svg *s, double w, double h)    header, defs, background
 *   void exp__svg_title(exp__svg *s, const char *counts)   title line and counts line
 *   void exp__svg_legend(exp__svg *s, const uint32_t *shown)  marks and arrow kinds used, then
 *                                                          the busiest channels in their hues, each
 *                                                          counting shown[chan] of its messages
 *                                                          (lay_bundles.chan_arrows; NULL: all)
 *   void exp__svg_arrow_style(exp__svg *s, uint8_t kind, uint32_t chan, double width)
 *                                                          stroke, dash and marker attributes
 *   bool exp__svg_lanes(exp__svg *s, cs_err *err)          the lanes view, whole document
 *   bool exp__svg_graph(exp__svg *s, cs_err *err)          the graph view, whole document
 */
#ifndef EXP_SVG_INT_H
#define EXP_SVG_INT_H

#include "internal.h"
#include "svg.h"
#include "../layout/lod.h"

#define EXP__SVG_TOP 116.0  /* below title, counts and the two legend rows */

typedef struct exp__svg {
    exp__w *w;
    const cs_model *m;
    const exp_svg_desc *d;
    const lay_palette *pal;
    double width;
    bool mark_used[LAY_MARK_COUNT];
    bool arrow_used[LAY_ARROW_COUNT];
    bool gc_used;          /* GC or stop-the-world bands drawn */
    uint8_t *hue;          /* per channel (layout/palette.h lay_chan_hue_table) */
} exp__svg;

void exp__svg_open(exp__svg *s, double w, double h);
void exp__svg_title(exp__svg *s, const char *counts);
void exp__svg_legend(exp__svg *s, const uint32_t *shown);
void exp__svg_arrow_style(exp__svg *s, uint8_t kind, uint32_t chan, double width);
bool exp__svg_lanes(exp__svg *s, cs_err *err);
bool exp__svg_graph(exp__svg *s, cs_err *err);

#endif
