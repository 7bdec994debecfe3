/* render/traffic.c — what a renderer draws of its model's channel traffic
 * (rnd_traffic: the playback table, the channels' hues, which kinds of
 * arrow there are), made from the model alone. A renderer makes its own
 * when it is given a model (frame.c); the viewer makes one on its loading
 * thread while the picture before the traffic is shown, and the renderer
 * of that picture takes it over (rnd_traffic_take), keeping what it made
 * of the goroutines and spans that the traffic does not change. */
#include "rnd.h"

#include <string.h>

/* the bit of an arrow, and the earliest arrow: by (t0, from), the first
 * of equals */
static void present_arrow(rnd_traffic *t, const rnd__arrow *a, rnd__arrow *first)
{
    t->present |= a->kind == LAY_ARROW_SYNC ? RND__PRESENT_SYNC : RND__PRESENT_MSGS;
    if (a->t0 < first->t0 || (a->t0 == first->t0 && a->from < first->from))
        *first = *a;
}

bool rnd__traffic_build(const cs_model *m, bool table, rnd_traffic *t, cs_err *err)
{
    memset(t, 0, sizeof *t);
    if ((table && !rnd__arrows_build(m, t, err)) || !(t->hue = lay_chan_hue_table(m, err)))
        return false;
    /* the messages come sorted by time (core/model.h): the first arrow and
     * its ties settle them; a still picture's model keeps few wake-ups, the
     * sync ones it draws (trf_build_drawn), all read */
    rnd__arrow a, first = {.t0 = INT64_MAX};
    for (uint32_t i = 0; i < m->n_msgs && (first.t0 == INT64_MAX || cs_msg_t(m, i) <= first.t0); i++)
        if (rnd__msg_arrow(m, i, &a))
            present_arrow(t, &a, &first);
    for (uint32_t i = 1; i < m->n_edges; i++)
        if (rnd__edge_arrow(m, i, &a))
            present_arrow(t, &a, &first);
    t->first_chan = first.msg ? cs_msg_chan(m, first.msg - 1) : 0;
    return true;
}

/* The playback table of t goes (t->next.d NULL again). */
static void table_free(rnd_traffic *t)
{
    cs_free(t->next.d), cs_free(t->next.far), cs_free(t->sync);
    t->next = (rnd__next){0}, t->sync = NULL, t->n_sync = 0;
}

void rnd__traffic_deinit(rnd_traffic *t)
{
    table_free(t);
    cs_free(t->hue);
    memset(t, 0, sizeof *t);
}

/* What is made of the arrows goes, for the next frame to make again: their
 * bundles, the lanes' marks, the selection's partners. */
static void arrows_changed(rnd_renderer *r)
{
    rnd__lay_arrows_drop(&r->lay);
    r->lc.valid = false;
    r->lit_for = UINT32_MAX;
}

void rnd__traffic_install(rnd_renderer *r, const cs_model *m, rnd_traffic *t)
{
    rnd_traffic was = r->tr;
    r->m = m;
    r->tr = *t;
    r->stats.msgs_total = m->n_msgs; /* the model's messages, as info and the SVG count them */
    *t = was;
    arrows_changed(r);
}

bool rnd__traffic_table(rnd_renderer *r, cs_err *err)
{
    if (!rnd__arrows_build(r->m, &r->tr, err)) {
        table_free(&r->tr);
        return false;
    }
    arrows_changed(r);
    return true;
}

rnd_traffic *rnd_traffic_create(const cs_model *m, cs_err *err)
{
    rnd_traffic *t = cs_alloc(sizeof *t);
    if (!t) {
        CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory");
        return NULL;
    }
    if (!rnd__traffic_build(m, true, t, err)) {
        rnd_traffic_destroy(t);
        return NULL;
    }
    return t;
}

void rnd_traffic_take(rnd_renderer *r, const cs_model *m, rnd_traffic *t)
{
    rnd__traffic_install(r, m, t);
    rnd_traffic_destroy(t);
    cs_err ignored = {0}; /* out of memory: the characters the font lacks read '?' */
    rnd__font_follow(&r->font, &r->font_next, m, &ignored); /* the values the traffic found */
    /* besides what is made of the arrows: the graph (the traffic is its
     * edges), and what takes in the messages, with what was made of it: a
     * filter's matches (and partners), the gaps axis' idle stretches
     * (layout/axis.h), the lanes and summaries made with either */
    rnd__graph_deinit(&r->graph);
    if (r->filt || (r->lay.have && r->lay.akey.kind == LAY_AXIS_GAPS)) {
        cs_free(r->filt);
        r->filt = NULL, r->filt_for[0] = 0;
        rnd__lay_deinit(&r->lay);
    }
}

void rnd_traffic_destroy(rnd_traffic *t)
{
    if (!t)
        return;
    rnd__traffic_deinit(t);
    cs_free(t);
}
