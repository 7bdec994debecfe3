/* layout/lod.h — level of detail for pictures whose marks would be denser
 * than pixels (visual-design.md "Level of detail"), shared by the renderer
 * and the SVG exporter:
 *   lay_lod_spans    the dominant mark (the one covering most time) per
 *                    (lane, pixel column) for lanes [lane0, lane1), using
 *                    the axis' mapping, O(spans + lanes × columns);
 *   lay_lod_arrows   every arrow of the picture (channel messages, close
 *                    wake-ups, sync wake-ups, spawns) bundled per (kind,
 *                    sender lane, receiver lane, pixel column of the send),
 *                    with a count, O(n) (radix sort). With max_bundles set,
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
 *   void lay_lod_deinit(lay_lod *d)
 *   bool lay_lod_arrows(const cs_model *m, const lay_axis *a, const lay_lanes *l, uint32_t cols,
 *                       uint32_t max_bundles, lay_bundles *out, cs_err *err)   max_bundles 0 = no limit
 *   void lay_bundles_deinit(lay_bundles *b)
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
    uint8_t pad[7];
} lay_bundle;

typedef struct lay_bundles {
    lay_bundle *b;        /* sorted by (t0, kind, from, to) */
    uint32_t n;
    uint32_t cols;        /* columns the bundles were finally made in */
    uint32_t n_arrows[LAY_ARROW_COUNT]; /* arrows drawn, per kind, before bundling */
} lay_bundles;

bool lay_lod_spans(const cs_model *m, const lay_axis *a, const lay_lanes *l, uint32_t lane0,
                   uint32_t lane1, uint32_t cols, lay_lod *out, cs_err *err);
uint8_t lay_lod_at(const lay_lod *d, uint32_t lane, uint32_t col);
void lay_lod_deinit(lay_lod *d);
bool lay_lod_arrows(const cs_model *m, const lay_axis *a, const lay_lanes *l, uint32_t cols,
                    uint32_t max_bundles, lay_bundles *out, cs_err *err);
void lay_bundles_deinit(lay_bundles *b);

#endif
