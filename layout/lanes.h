/* layout/lanes.h — the 2D lanes view: one horizontal lane per goroutine,
 * ordered as a depth-first walk of the spawn tree (children directly under
 * their parent, siblings and roots by creation time, then goroutine id), so
 * the order is the same in every run.
 *   compact        lanes are reused after a goroutine ends: goroutines taken
 *                  in creation order get the lowest lane free at their
 *                  creation (a lane is free strictly after its last
 *                  goroutine's end), so two goroutines never share a lane
 *                  while both are alive.
 *   show_system    include CS_G_SYSTEM goroutines (hidden by default; their
 *                  children still get lanes, placed where the parent was).
 *   keep           a goroutine (model index) shown even when it is a system
 *                  goroutine (the viewer's selection); 0 = none.
 *   filter         only goroutines whose function name contains this text,
 *                  and their message partners (lay_filter_build); NULL or "" = all.
 *   collapse       one lane per entry function, always (lay_lanes.collapsed).
 *   max_lanes      at most this many lanes (0: no limit): more goroutines
 *                  than that reuse lanes as with compact (lay_lanes.compacted),
 *                  and when they still need more (that many alive at once),
 *                  lanes are collapsed as with collapse. A picture has room
 *                  for so many lanes, and a program that starts a goroutine
 *                  per request has millions of them, a few alive at a time.
 * Labels: "G17 main.worker" (function without its package path when no other
 * function shortens to the same text); compact lanes that hold more than one
 * goroutine add " +N"; collapsed lanes read "main.worker ×1000".
 *
 * API
 *   bool lay_lanes_build(const cs_model *m, const lay_lanes_desc *d, lay_lanes *out, cs_err *err)
 *       out is overwritten; free with lay_lanes_deinit (also after a failure).
 *   void lay_lanes_deinit(lay_lanes *l)
 *   const char *lay_lanes_label(const lay_lanes *l, uint32_t lane)
 *   int64_t lay_made_at(const cs_model *m, const cs_goroutine *g)   when g is taken to be
 *       made: its creation, else the trace's start (inline)
 *   uint32_t lay_lanes_alive_from(const cs_model *m, const uint32_t *gs, uint32_t ng, int64_t t)
 *       of goroutines gs[0, ng) that follow one another (a lane's of by_lane), the
 *       place of the first alive at t or later, ng when none: a binary search on ends
 *   uint32_t lay_lanes_made_from(const cs_model *m, const uint32_t *gs, uint32_t ng, int64_t t)
 *       of the same, the place of the first made at t or later (they are in creation
 *       order), ng when none
 *   uint32_t lay_lanes_g_at(const cs_model *m, const lay_lanes *l, uint32_t lane, int64_t t)
 *       the goroutine of lane alive at t (made at or before t, not ended before),
 *       else the lane's first (lane_g); O(log n) in a compacted lane, else a scan
 *   const char *lay_short_name(const char *func)     pointer into func after the last '/'
 *   double lay_lanes_fit_px(uint32_t n_lanes, double avail_px)
 *       lane height in a picture of avail_px for the lanes: they share all of
 *       it, so a picture of a few goroutines is as full as one of many
 *   uint8_t *lay_filter_build(const cs_model *m, const char *filter, cs_err *err)
 *       filter.c: per goroutine LAY_FILTER_MATCH (its function contains filter; all
 *       when filter is NULL or ""), LAY_FILTER_PARTNER (it exchanges messages with
 *       a match) or 0; n_g bytes, free with cs_free; NULL on out of memory
 */
#ifndef LAY_LANES_H
#define LAY_LANES_H

#include "../core/model.h"

#define LAY_NO_LANE UINT32_MAX

typedef struct lay_lanes_desc {
    bool compact;
    bool show_system;
    bool collapse;
    uint32_t keep;
    const char *filter;
    uint32_t max_lanes;
    uint32_t *spawn_order; /* when set (room for m->n_g): the spawn tree's depth-first order of
                              every goroutine, shown or not, goes there and its count to
                              *n_spawn (the tree's orders start from it: lay_tree_orders) */
    uint32_t *n_spawn;
} lay_lanes_desc;

typedef struct lay_lanes {
    uint32_t *lane_of_g;  /* per model goroutine index: lane, or LAY_NO_LANE when hidden */
    uint32_t *lane_g;     /* per lane: its first goroutine (model index) */
    uint32_t *lane_n;     /* per lane: how many goroutines it holds */
    uint32_t n_lanes;
    uint32_t n_shown;     /* goroutines with a lane */
    uint32_t n_total;     /* goroutines in the model (m->n_g - 1) */
    bool collapsed;       /* lanes are entry-function groups */
    bool compacted;       /* lanes are reused after their goroutines end (compact) */
    uint32_t *by_lane;    /* compacted: the goroutines lane by lane, each lane's in creation
                             order (one ends before the next is made), lane i's from
                             lane_first[i] to lane_first[i + 1]; else NULL */
    uint32_t *lane_first;
    char *label_bytes;    /* label of lane i at label_bytes + label_off[i] */
    uint32_t *label_off;
} lay_lanes;

enum { LAY_FILTER_MATCH = 1, LAY_FILTER_PARTNER = 2 };

bool lay_lanes_build(const cs_model *m, const lay_lanes_desc *d, lay_lanes *out, cs_err *err);
void lay_lanes_deinit(lay_lanes *l);
const char *lay_lanes_label(const lay_lanes *l, uint32_t lane);
static inline int64_t lay_made_at(const cs_model *m, const cs_goroutine *g)
{
    return g->create_ns == CS_T_NONE ? m->t_first : g->create_ns;
}
uint32_t lay_lanes_alive_from(const cs_model *m, const uint32_t *gs, uint32_t ng, int64_t t);
uint32_t lay_lanes_made_from(const cs_model *m, const uint32_t *gs, uint32_t ng, int64_t t);
uint32_t lay_lanes_g_at(const cs_model *m, const lay_lanes *l, uint32_t lane, int64_t t);
const char *lay_short_name(const char *func);
double lay_lanes_fit_px(uint32_t n_lanes, double avail_px);
uint8_t *lay_filter_build(const cs_model *m, const char *filter, cs_err *err);

#endif
