/* layout/lod.h — level of detail for pictures whose marks would be denser
 * than pixels (visual-design.md "Level of detail"), shared by the renderer
 * and the SVG exporter:
 *   lay_lod_spans    the dominant mark (the one covering most time) per
 *                    (lane, pixel column) for lanes [lane0, lane1), using
 *                    the axis' mapping, O(spans in the window + lanes ×
 *                    columns), two threads sharing the lanes;
 *   lay_lod_arrows   every arrow of the picture (channel messages, close
 *                    wake-ups, sync wake-ups, spawns) bundled per (kind,
 *                    sender lane, receiver lane, pixel column of the send),
 *                    with a count, O(arrows in the window's time blocks +
 *                    goroutines), when traffic/ indexed the model (else
 *                    O(all arrows)). With max_bundles set,
 *                    the grid gets coarser until the bundles fit: columns
 *                    halved down to 64, then neighbouring lanes grouped,
 *                    then columns again down to one; each bundle is drawn
 *                    as its earliest arrow. Arrows from or to hidden
 *                    goroutines and outside the axis range are dropped.
 *                    At most 2^16 columns.
 *
 * API
 *   bool lay_lod_spans(const cs_model *m, const lay_axis *a, const lay_lanes *l,
 *                      uint32_t lane0, uint32_t lane1, uint32_t cols, lay_lod *out, cs_err *err)
 *   uint8_t lay_lod_at(const lay_lod *d, uint32_t lane, uint32_t col)    a lay_mark
 *   bool lay_lod_build(const cs_model *m, const lay_axis *a, const lay_lanes *l, uint32_t lane0,
 *                      uint32_t lane1, uint32_t cols, uint32_t arrow_cols, uint32_t max_bundles,
 *                      lay_lod *lod, lay_bundles *bun, cs_err *err)
 *       lay_lod_spans and lay_lod_arrows at once: a second thread makes the
 *       bundles, then summarises the lanes the first has not reached; on
 *       failure neither is left to free
 *   void lay_lod_deinit(lay_lod *d)
 *   bool lay_lod_arrows(const cs_model *m, const lay_axis *a, const lay_lanes *l, uint32_t cols,
 *                       uint32_t max_bundles, lay_bundles *out, cs_err *err)   max_bundles 0 = no limit
 *   bool lay_bundles_cover(const lay_bundles *b, uint32_t built_cols, uint32_t cols)
 *       true when b, made by lay_lod_arrows with built_cols columns, is what
 *       the same call with cols columns gives (same model, axis, lanes and
 *       max_bundles): both powers of two, and b was coarsened below both
 *   void lay_bundles_deinit(lay_bundles *b)
 *   bool lay_bundles_crowding(const lay_bundles *b, uint32_t n_lanes, const lay_arrow_ink *ink,
 *                             double *out, cs_err *err)
 *       how crowded the arrows are: the largest share, over the lanes, of a
 *       lane's width that arrows drawn as ink says cover (a shaft for every
 *       arrow through or ending at the lane, a head for every one landing
 *       on it; spawn links left out); 1 = as much ink as the lane is wide
 *   float lay_arrow_fade(double crowding)
 *       1 up to LAY_CROWDED; above it the pictures draw the arrows behind the
 *       lanes' bars and this faint (down to 0.3), so where arrows crowd they
 *       shade the gaps between lanes by their density and never hide a lane
 * Labels beside arrows (boxes.c):
 *   void lay_boxes_init(lay_boxes *b, float x0, float y0, float x1, float y1)   labels stay inside
 *   bool lay_boxes_take(lay_boxes *b, float x0, float y0, float x1, float y1)
 *       true (and the box is taken) when it is inside the area and meets no box
 *       taken before; false once LAY_BOXES_MAX are taken
 *   bool lay_msg_value(const cs_model *m, uint32_t msg, char out[LAY_VALUE_CAP])
 *       the value an exact message carried (patched runtime, annotation) as the
 *       pictures print it beside its arrow where there is room: cut at a character
 *       boundary to LAY_VALUE_MAX bytes and ended by "…" when longer; false: none
 */
#ifndef LAY_LOD_H
#define LAY_LOD_H

#include "arrow.h"
#include "axis.h"
#include "lanes.h"

typedef struct lay_lod {
    uint32_t lane0, n_lanes, n_cols;
    uint8_t *mark;        /* n_lanes × n_cols, row-major; LAY_MARK_NONE where not alive */
    uint32_t *n_spans;    /* per lane: spans inside the range (to choose exact or summary) */
} lay_lod;

typedef struct lay_bundle {
    int64_t t0, t1;       /* first arrow of the bundle: send (or unblock, creation) and receive */
    uint32_t from, to;    /* lanes */
    uint32_t count;       /* arrows in the bundle */
    uint32_t chan;        /* channel of the first arrow (0 for non-channel kinds) */
    uint32_t first;       /* index of the first arrow in msgs / edges / g */
    uint32_t col;         /* column of the send, in lay_bundles.cols columns */
    uint8_t kind;         /* lay_arrow_kind */
    uint8_t pad[3];
    uint32_t sub;         /* while bundle.c gathers at a coarser grid: the finer columns it holds */
} lay_bundle;

typedef struct lay_bundles {
    lay_bundle *b;        /* sorted by (t0, kind, from, to) */
    uint32_t n;
    uint32_t cols;        /* columns the bundles were finally made in */
    uint32_t n_arrows[LAY_ARROW_COUNT]; /* arrows drawn, per kind, before bundling */
    uint32_t *chan_arrows; /* per channel (m->n_chans): its message and close arrows, as n_arrows */
} lay_bundles;

#define LAY_BOXES_MAX 512u
#define LAY_CROWDED 1.0 /* arrows would ink more than some lane is wide: a wall */

typedef struct lay_arrow_ink {
    double shaft_px, head_px; /* how wide a shaft and a head are drawn */
    double width_px;          /* the lanes' width */
} lay_arrow_ink;

typedef struct lay_boxes {
    float area[4];
    float box[LAY_BOXES_MAX][4]; /* x0 y0 x1 y1 */
    uint32_t n;
} lay_boxes;

bool lay_lod_spans(const cs_model *m, const lay_axis *a, const lay_lanes *l, uint32_t lane0,
                   uint32_t lane1, uint32_t cols, lay_lod *out, cs_err *err);
uint8_t lay_lod_at(const lay_lod *d, uint32_t lane, uint32_t col);
bool lay_lod_build(const cs_model *m, const lay_axis *a, const lay_lanes *l, uint32_t lane0, uint32_t lane1,
                   uint32_t cols, uint32_t arrow_cols, uint32_t max_bundles, lay_lod *lod, lay_bundles *bun,
                   cs_err *err);
void lay_lod_deinit(lay_lod *d);
bool lay_lod_arrows(const cs_model *m, const lay_axis *a, const lay_lanes *l, uint32_t cols,
                    uint32_t max_bundles, lay_bundles *out, cs_err *err);
bool lay_bundles_cover(const lay_bundles *b, uint32_t built_cols, uint32_t cols);
void lay_bundles_deinit(lay_bundles *b);
bool lay_bundles_crowding(const lay_bundles *b, uint32_t n_lanes, const lay_arrow_ink *ink, double *out,
                          cs_err *err);
float lay_arrow_fade(double crowding);
void lay_boxes_init(lay_boxes *b, float x0, float y0, float x1, float y1);
bool lay_boxes_take(lay_boxes *b, float x0, float y0, float x1, float y1);
#define LAY_VALUE_MAX 20                  /* bytes of a value printed beside an arrow */
#define LAY_VALUE_CAP (LAY_VALUE_MAX + 4) /* and "…" and the NUL */
bool lay_msg_value(const cs_model *m, uint32_t msg, char out[LAY_VALUE_CAP]);

#endif
