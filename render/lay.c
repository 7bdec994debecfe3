/* render/lay.c — the layout/ structures the lanes and tree views draw from:
 * the time axis (layout/axis.h), the lanes (lanes.h), the dominant mark per
 * (lane, pixel column) and the arrows bundled per (lane pair, column)
 * (lod.h). Each is rebuilt only when what it depends on changes, so the
 * frames of a playback reuse them and their cost is paid once per view.
 * While zoom or pan goes on (rnd_view.quick), the summaries of the window
 * before are kept and drawn stretched to the new one, with the axis they
 * were made with; the frame after the last step makes them afresh. */
#include "rnd.h"

#include <string.h>

void rnd__lay_arrows_drop(rnd__lay *l)
{
    lay_bundles_deinit(&l->bun);
    cs_free(l->rep);
    l->rep = NULL;
    l->have_bun = false;
}

/* Drops the summaries (and the axis they were made with, if it is not the
 * current one). */
static void lod_drop(rnd__lay *l)
{
    rnd__lay_arrows_drop(l);
    lay_lod_deinit(&l->lod);
    if (l->moved)
        lay_axis_deinit(&l->lod_axis);
    l->have_lod = l->moved = false;
}

void rnd__lay_deinit(rnd__lay *l)
{
    lod_drop(l);
    lay_lanes_deinit(&l->lanes);
    lay_axis_deinit(&l->axis);
    l->have = false;
}

static bool fail(rnd__lay *l)
{
    rnd__lay_deinit(l);
    memset(&l->key, 0, sizeof l->key);
    return false;
}

bool rnd__lay_lanes(rnd_renderer *r, const rnd_view *v, bool one_per_g)
{
    rnd__lay *l = &r->lay;
    rnd__lay_key k = {.compact = v->compact && !one_per_g, .collapse = v->collapse && !one_per_g,
                      .show_system = v->show_system, .one_per_g = one_per_g,
                      .keep = v->selected < r->m->n_g && (r->m->g[v->selected].flags & CS_G_SYSTEM) ? v->selected : 0};
    memcpy(k.filter, v->filter, sizeof k.filter);
    rnd__axis_key ak = {.kind = v->axis, .t0 = v->t0, .t1 = v->t1 > v->t0 ? v->t1 : v->t0 + 1};
    bool lanes = l->have && !memcmp(&k, &l->key, sizeof k),
         axis = lanes && ak.kind == l->akey.kind && ak.t0 == l->akey.t0 && ak.t1 == l->akey.t1 && /* not its padding */
                (v->quick || !l->axis_rough);
    if (!lanes)
        rnd__lay_deinit(l);
    else if (!axis && (l->have_lod || l->have_bun) && !l->moved) /* the summaries' axis, to stretch them */
        l->lod_axis = l->axis, l->moved = true;
    else if (!axis)
        lay_axis_deinit(&l->axis);
    l->key = k, l->akey = ak;
    /* a stretched frame's folded stretches: the summaries' axis', not the model's (no scan) */
    const lay_axis *rough = v->quick && l->moved && ak.kind == LAY_AXIS_GAPS ? &l->lod_axis : NULL;
    if (!axis && !lay_axis_build(r->m, &(lay_axis_desc){.kind = ak.kind, .t0 = ak.t0, .t1 = ak.t1, .gaps_of = rough},
                                 &l->axis, &l->err))
        return fail(l);
    if (!axis)
        l->axis_rough = rough != NULL;
    if (!lanes) {
        /* the tree's first frame orders every goroutine as the lanes' spawn tree does: that
         * order is kept from here for it (rnd__tree_place), not made again */
        bool keep = v->layout == RND_TREE && !r->label_order;
        if (keep && !r->order)
            r->order = cs_alloc(((size_t)r->m->n_g + 1) * sizeof *r->order); /* none: it makes its own */
        if (!lay_lanes_build(r->m, &(lay_lanes_desc){.compact = k.compact, .collapse = k.collapse,
                                                     .show_system = k.show_system, .keep = k.keep,
                                                     .filter = k.filter,
                                                     .max_lanes = RND__MAX_LANES,
                                                     .spawn_order = keep ? r->order : NULL,
                                                     .n_spawn = &r->n_order},
                             &l->lanes, &l->err))
            return fail(l);
        l->have = true;
        l->gen++;
    }
    if (!lanes || !r->row_lanes) /* the graph view sets rows of its own */
        for (uint32_t i = 0; i < r->m->n_g; i++)
            r->row[i] = i && l->lanes.lane_of_g[i] != LAY_NO_LANE ? (int32_t)l->lanes.lane_of_g[i] : -1;
    r->row_lanes = true;
    return true;
}

static bool summaries(rnd_renderer *r, uint32_t lane0, uint32_t lane1, uint32_t cols, uint32_t arrow_cols,
                      uint32_t max_bundles, bool quick)
{
    rnd__lay *l = &r->lay;
    rnd__lod_key k = {lane0, lane1, cols ? cols : 1};
    rnd__bun_key bk = {arrow_cols ? arrow_cols : 1, max_bundles};
    if (!l->have)
        return false;
    if (l->moved && quick && l->have_lod && l->have_bun && !memcmp(&k, &l->lkey, sizeof k) &&
        !memcmp(&bk, &l->bkey, sizeof bk))
        return true; /* stretched */
    if (l->moved)
        lod_drop(l);
    bool lod = l->have_lod && !memcmp(&k, &l->lkey, sizeof k);
    bool bun = l->have_bun && bk.max_bundles == l->bkey.max_bundles &&
               (bk.arrow_cols == l->bkey.arrow_cols || lay_bundles_cover(&l->bun, l->bkey.arrow_cols, bk.arrow_cols));
    if (bun)
        bk = l->bkey; /* what they were made for */
    if (lod && bun)
        return true;
    if (!bun) {
        rnd__lay_arrows_drop(l);
        l->rep = cs_calloc((size_t)r->m->n_msgs / 64 + 1, sizeof *l->rep);
        if (!l->rep) {
            CS_FAIL(&l->err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u messages", r->m->n_msgs);
            return fail(l);
        }
    }
    if (!lod)
        lay_lod_deinit(&l->lod), l->have_lod = false;
    l->lkey = k, l->bkey = bk;
    bool ok = !lod && !bun ? lay_lod_build(r->m, &l->axis, &l->lanes, k.lane0, k.lane1, k.cols, bk.arrow_cols,
                                           bk.max_bundles, &l->lod, &l->bun, &l->err)
              : !lod ? lay_lod_spans(r->m, &l->axis, &l->lanes, k.lane0, k.lane1, k.cols, &l->lod, &l->err)
                     : lay_lod_arrows(r->m, &l->axis, &l->lanes, bk.arrow_cols, bk.max_bundles, &l->bun, &l->err);
    if (!ok)
        return fail(l);
    for (uint32_t i = 0; !bun && i < l->bun.n; i++) {
        const lay_bundle *b = &l->bun.b[i];
        if ((b->kind == LAY_ARROW_CHAN || b->kind == LAY_ARROW_CLOSE) && b->first < r->m->n_msgs)
            l->rep[b->first >> 6] |= 1ull << (b->first & 63);
    }
    l->have_lod = l->have_bun = true;
    return true;
}

bool rnd__lay_lod(rnd_renderer *r, uint32_t lane0, uint32_t lane1, uint32_t cols, uint32_t arrow_cols,
                  uint32_t max_bundles, bool quick)
{
    if (!summaries(r, lane0, lane1, cols, arrow_cols, max_bundles, quick))
        return false;
    r->legend_shown = r->lay.bun.chan_arrows; /* the frame's messages, as its legend counts them */
    return true;
}

bool rnd__bundle_arrow(const rnd_renderer *r, const lay_bundle *b, rnd__arrow *out)
{
    if (b->kind == LAY_ARROW_SYNC)
        return b->first < RND__REF_SYNC && rnd__arrow_get(r, b->first | RND__REF_SYNC, out);
    return (b->kind == LAY_ARROW_CHAN || b->kind == LAY_ARROW_CLOSE) && b->first < r->m->n_msgs &&
           rnd__arrow_get(r, b->first + 1, out);
}
