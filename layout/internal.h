/* layout/internal.h — what files of layout/ share and nobody else uses: the
 * spawn tree (children lists sorted by creation time, and its depth-first
 * order), used by lanes.c and tree.c.
 *
 * API
 *   bool lay__spawn_build(const cs_model *m, const uint32_t *line, lay__spawn *out, cs_err *err)
 *       free with lay__spawn_deinit; line NULL: every goroutine, else only those
 *       that are their own line (line[g] == g), each under the line its parent
 *       is on (line[parent], 0 none: a root)
 *   void lay__spawn_order_only(lay__spawn *s)   lets all but s's order and n go
 *   void lay__spawn_deinit(lay__spawn *s)
 *   bool lay__sort_keys(uint64_t *key, uint32_t *val, uint32_t n, cs_err *err)
 *       sort.c: stable sort of (key, val) pairs by key (radix)
 *   uint64_t lay__time_key(int64_t t)   t as a key that sorts as the times do (inline)
 *   bool lay__arrows(const cs_model *m, const lay_axis *a, const lay_lanes *l, uint32_t cols,
 *                    uint32_t max_bundles, bool split, lay_bundles *out, cs_err *err)
 *       bundle.c: lay_lod_arrows, with the messages shared by two threads
 *       only when split (lay_lod_build's own second thread does not)
 *   bool lay__graph_gv(const cs_model *m, const lay_graph_desc *d, lay_graph *g, cs_err *err)
 *       graph_gv.c: builds g->ag (cgraph) from nodes/edges and, unless d->no_layout,
 *       lays it out (on d's canvas) and reads positions back
 */
#ifndef LAY_INTERNAL_H
#define LAY_INTERNAL_H

#include "../core/model.h"
#include "graph.h"
#include "lod.h"

typedef struct lay__spawn {
    uint32_t *child;      /* children of g i: child[first[i] .. first[i+1]), by (create_ns, goid) */
    uint32_t *first;      /* n_g + 1 entries; index 0 holds the roots */
    uint32_t *order;      /* the goroutines in the tree in depth-first order (n entries) */
    uint32_t *depth;      /* per goroutine: 0 for roots */
    uint32_t n;           /* goroutines in the tree: n_g - 1, or the lines */
} lay__spawn;

bool lay__spawn_build(const cs_model *m, const uint32_t *line, lay__spawn *out, cs_err *err);
void lay__spawn_order_only(lay__spawn *s);
void lay__spawn_deinit(lay__spawn *s);
bool lay__sort_keys(uint64_t *key, uint32_t *val, uint32_t n, cs_err *err);
static inline uint64_t lay__time_key(int64_t t) { return (uint64_t)t ^ (1ull << 63); }
bool lay__arrows(const cs_model *m, const lay_axis *a, const lay_lanes *l, uint32_t cols, uint32_t max_bundles,
                 bool split, lay_bundles *out, cs_err *err);
bool lay__graph_gv(const cs_model *m, const lay_graph_desc *d, lay_graph *g, cs_err *err);

#endif
