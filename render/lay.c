/* render/lay.c — the layout/ structures the lanes and tree views draw from:
 * the time axis (layout/axis.h), the lanes (lanes.h), the dominant mark per
 * (lane, pixel column) and the arrows bundled per (lane pair, column)
 * (lod.h). Each is rebuilt only when what it depends on changes, so the
 * frames of a playback reuse them and their cost is paid once per view.
 * While zoom or pan goes on (rnd_view.quick), the summaries of the window
 * before are kept and drawn stretched to the new one, with the axis they
 * were made with; the frame after the last step makes them afresh. In the
 * viewer (rnd_view.behind), a thread of their own makes them from the
 * move's first frame on, and the frames draw those before till they come,
 * so that no frame waits for them. */
#include "rnd.h"
#include "../core/file.h"

#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define JOB_NICE 10 /* of 19: the threads' priority below the frames' */

/* The job's thread: the axis as rnd__lay_lanes makes it for a settled
 * frame, and the summaries (the lanes' only, when the bundles stay). It
 * and the thread it starts yield to the frames: on two cores the three
 * would share them, and a frame take half as long again. */
static void *job_run(void *arg)
{
    rnd__lod_job *j = arg;
    const rnd__lod_key *k = &j->lkey;
    setpriority(PRIO_PROCESS, (id_t)gettid(), JOB_NICE); /* advice: unprivileged, only lowered */
    j->ok = lay_axis_build(j->m, &(lay_axis_desc){.kind = j->akey.kind, .t0 = j->akey.t0, .t1 = j->akey.t1},
                           &j->axis, &j->err) &&
            (j->arrows ? lay_lod_build(j->m, &j->axis, j->lanes, k->lane0, k->lane1, k->cols, j->bkey.arrow_cols,
                                       j->bkey.max_bundles, &j->lod, &j->bun, &j->err)
                       : lay_lod_spans(j->m, &j->axis, j->lanes, k->lane0, k->lane1, k->cols, &j->lod, &j->err));
    atomic_store(&j->done, true);
    j->wake(j->wake_ud);
    return NULL;
}

/* The job's thread ended, and what it made (if not taken) gone. */
static void job_end(rnd__lod_job *j)
{
    if (j->running)
        pthread_join(j->th, NULL);
    j->running = false;
    lay_axis_deinit(&j->axis);
    lay_lod_deinit(&j->lod);
    lay_bundles_deinit(&j->bun);
}

void rnd__lay_arrows_drop(rnd__lay *l)
{
    job_end(&l->job); /* of the arrows (and model) before */
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

/* Whether bun, made for l->bkey, is what bk asks for. */
static bool bun_fits(const rnd__lay *l, const rnd__bun_key *bk)
{
    return l->have_bun && bk->max_bundles == l->bkey.max_bundles &&
           (bk->arrow_cols == l->bkey.arrow_cols || lay_bundles_cover(&l->bun, l->bkey.arrow_cols, bk->arrow_cols));
}

/* l->rep for the bundles about to be made: none set yet. */
static bool rep_new(rnd_renderer *r)
{
    rnd__lay *l = &r->lay;
    l->rep = cs_calloc((size_t)r->m->n_msgs / 64 + 1, sizeof *l->rep);
    return l->rep ? true
                  : CS_FAIL(&l->err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u messages", r->m->n_msgs);
}

/* l->rep's bits: the messages that are a bundle's first arrow. */
static void rep_set(rnd_renderer *r)
{
    rnd__lay *l = &r->lay;
    for (uint32_t i = 0; i < l->bun.n; i++) {
        const lay_bundle *b = &l->bun.b[i];
        if ((b->kind == LAY_ARROW_CHAN || b->kind == LAY_ARROW_CLOSE) && b->first < r->m->n_msgs)
            l->rep[b->first >> 6] |= 1ull << (b->first & 63);
    }
}

/* The job's summaries, done, made l's: its lod, and its bundles when it
 * made them (else those before stay); when they are of a view the frames
 * have left, with the axis to stretch them from. False on failure. */
static bool job_take(rnd_renderer *r)
{
    rnd__lay *l = &r->lay;
    rnd__lod_job *j = &l->job;
    lay_lod lod = j->lod;
    lay_bundles bun = j->bun;
    lay_axis axis = j->axis;
    bool left = j->akey.kind != l->akey.kind || j->akey.t0 != l->akey.t0 || j->akey.t1 != l->akey.t1;
    memset(&j->lod, 0, sizeof j->lod), memset(&j->bun, 0, sizeof j->bun), memset(&j->axis, 0, sizeof j->axis);
    job_end(j);
    if (!j->arrows) { /* the lanes alone moved: the bundles before stay */
        lay_lod_deinit(&l->lod);
        l->lod = lod, l->lkey = j->lkey;
        lay_axis_deinit(&axis);
        return true;
    }
    lod_drop(l);
    l->lod = lod, l->bun = bun, l->lkey = j->lkey, l->bkey = j->bkey;
    l->have_lod = l->have_bun = true;
    if (left)
        l->lod_axis = axis, l->moved = true;
    else
        lay_axis_deinit(&axis);
    if (!rep_new(r))
        return fail(l);
    rep_set(r);
    return true;
}

/* A frame of the viewer (rnd_view.behind), quick or settled, whose
 * summaries are stale: true when it draws the summaries it has (those the
 * job made for it, now taken, or, while a job makes them, those before,
 * stretched as in a quick frame); false when the caller goes on as without
 * a job (nothing to stretch, another width, no thread, a job that failed).
 * A job is started at once, by the first quick frame of a move: mostly
 * the view has settled before it is done. A job done for a view the frames
 * have left is taken too, as the summaries to stretch from then on, when
 * it made the bundles as well and is of these lanes and width, and the
 * axis is not a quick frame's folding the stretches of those before: a
 * long drag so fills in what comes into view. */
static bool behind(rnd_renderer *r, const rnd_view *v, const rnd__lod_key *k, const rnd__bun_key *bk)
{
    rnd__lay *l = &r->lay;
    rnd__lod_job *j = &l->job;
    bool fits = bun_fits(l, bk), arrows = l->moved || !fits;
    bool mine = j->m == r->m && j->gen == l->gen && !memcmp(k, &j->lkey, sizeof *k) &&
                !memcmp(bk, &j->bkey, sizeof *bk) && j->akey.kind == l->akey.kind && j->akey.t0 == l->akey.t0 &&
                j->akey.t1 == l->akey.t1 && j->arrows == arrows;
    if (!l->have_lod || !l->have_bun || k->cols != l->lkey.cols ||
        (!l->moved && !memcmp(k, &l->lkey, sizeof *k) && fits)) {
        if (j->running && atomic_load(&j->done))
            job_end(j); /* made for a view left before they came: not pending any more */
        return false;
    }
    if (j->running && (!atomic_load(&j->done) || (mine && l->axis_rough)))
        return true; /* still making them (for this view or the one before: then anew once done), or made
                      * for an axis the settled frame makes again (a quick frame's folds those before) */
    if (j->running) {
        pthread_join(j->th, NULL);
        j->running = false;
        bool usable = j->ok && (mine || (j->arrows && !l->axis_rough && j->m == r->m && j->gen == l->gen &&
                                         j->lkey.cols == k->cols));
        if (!usable)
            job_end(j);
        else if (!job_take(r))
            return false;
        if (mine)
            return usable; /* taken; else it failed: the caller's turn, which says why */
        arrows = l->moved || !bun_fits(l, bk);
    }
    j->m = r->m, j->lanes = &l->lanes, j->gen = l->gen, j->lkey = *k, j->bkey = *bk, j->akey = l->akey;
    j->wake = v->behind, j->wake_ud = v->behind_ud, j->arrows = arrows;
    atomic_store(&j->done, false);
    j->running = cs_thread_create(&j->th, job_run, j) == 0;
    return j->running;
}

static bool summaries(rnd_renderer *r, uint32_t lane0, uint32_t lane1, uint32_t cols, uint32_t arrow_cols,
                      uint32_t max_bundles, bool quick, const rnd_view *v)
{
    rnd__lay *l = &r->lay;
    rnd__lod_key k = {lane0, lane1, cols ? cols : 1};
    rnd__bun_key bk = {arrow_cols ? arrow_cols : 1, max_bundles};
    if (!l->have)
        return false;
    if (v && v->behind && behind(r, v, &k, &bk))
        return true;
    if (!l->have)
        return false; /* behind failed */
    /* while the lanes scroll, the summaries of the lanes in view before stay,
     * as those of the window before stay while it moves: a lane that comes
     * into view is drawn once the view settles */
    if (quick && l->have_lod && l->lkey.cols == k.cols)
        k.lane0 = l->lkey.lane0, k.lane1 = l->lkey.lane1;
    if (l->moved && quick && l->have_lod && l->have_bun && !memcmp(&k, &l->lkey, sizeof k) &&
        !memcmp(&bk, &l->bkey, sizeof bk))
        return true; /* stretched */
    if (l->moved)
        lod_drop(l);
    bool lod = l->have_lod && !memcmp(&k, &l->lkey, sizeof k);
    bool bun = bun_fits(l, &bk);
    if (bun)
        bk = l->bkey; /* what they were made for */
    if (lod && bun)
        return true;
    if (!bun) {
        rnd__lay_arrows_drop(l);
        if (!rep_new(r))
            return fail(l);
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
    if (!bun)
        rep_set(r);
    l->have_lod = l->have_bun = true;
    return true;
}

bool rnd__lay_lod(rnd_renderer *r, uint32_t lane0, uint32_t lane1, uint32_t cols, uint32_t arrow_cols,
                  uint32_t max_bundles, bool quick, const rnd_view *v)
{
    if (!summaries(r, lane0, lane1, cols, arrow_cols, max_bundles, quick, v))
        return false;
    r->legend_shown = r->lay.bun.chan_arrows; /* the frame's messages, as its legend counts them */
    return true;
}

bool rnd_pending(const rnd_renderer *r)
{
    return r->lay.job.running;
}

bool rnd__bundle_arrow(const rnd_renderer *r, const lay_bundle *b, rnd__arrow *out)
{
    if (b->kind == LAY_ARROW_SYNC)
        return b->first < RND__REF_SYNC && rnd__arrow_get(r, b->first | RND__REF_SYNC, out);
    return (b->kind == LAY_ARROW_CHAN || b->kind == LAY_ARROW_CLOSE) && b->first < r->m->n_msgs &&
           rnd__arrow_get(r, b->first + 1, out);
}
