/* layout/tree.h — the 3D spawn tree (gotrace's idea, with its overlaps
 * fixed): time runs down the Y axis; every goroutine is a vertical line at
 * (x, z) that starts at its creation time beside its parent; children sit on
 * a circle around the parent, each subtree inside its own wedge of that
 * circle ("balloon" layout), the circle's radius growing with the number and
 * size of the subtrees. Two goroutines' lines are never closer than
 * `spacing`, sibling subtrees never share a wedge, so neither lines nor
 * spawn links overlap however many children a goroutine has. Subtrees are
 * turned so their centre lies outwards, which keeps a long chain of single
 * children growing linearly rather than doubling at every level.
 * O(n) after the spawn tree's O(n log n) sort; deterministic. The Y of a
 * time is the caller's choice of mapping (any lay_axis of layout/axis.h).
 *
 * API
 *   bool lay_tree_build(const cs_model *m, const lay_tree_desc *d, lay_tree *out, cs_err *err)
 *       free with lay_tree_deinit (also after a failure)
 *   void lay_tree_deinit(lay_tree *t)
 *   bool lay_tree_orders(const cs_model *m, uint32_t *order, uint32_t *by_size, uint32_t *n, cs_err *err)
 *       every goroutine in the spawn tree's depth-first order (children under their
 *       parents, by creation) into order, and by the size of its subtree (itself and its
 *       descendants), biggest first, then by index, into by_size (labels are offered in
 *       that order); *n of each (m->n_g - 1); both arrays of m->n_g. When *n is not 0,
 *       order holds the depth-first order already (lay_lanes_desc.spawn_order)
 */
#ifndef LAY_TREE_H
#define LAY_TREE_H

#include "../core/model.h"

typedef struct lay_tree_desc {
    double spacing;       /* least distance between two goroutines' lines; 0 = 1 */
    const uint32_t *line_of; /* per goroutine, the goroutine whose line it is drawn on (itself:
                                its own, 0: none) when goroutines share lines (layout/lanes.h
                                max_lanes): the tree is laid out over the lines, each under
                                the line of its goroutine's parent; NULL: each its own */
} lay_tree_desc;

typedef struct lay_tree {
    float *x, *z;         /* per model goroutine index (n_g entries; [0] unused): its line's place */
    uint32_t *depth;      /* spawn depth per goroutine, roots 0 */
    uint32_t n_g;
    double radius;        /* every goroutine lies within this distance of (0, 0) */
} lay_tree;

bool lay_tree_build(const cs_model *m, const lay_tree_desc *d, lay_tree *out, cs_err *err);
void lay_tree_deinit(lay_tree *t);
bool lay_tree_orders(const cs_model *m, uint32_t *order, uint32_t *by_size, uint32_t *n, cs_err *err);

#endif
