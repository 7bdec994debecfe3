/* render/arrows.c — drawing one message arrow in any view (shaft, filled
 * head, and the pulse that travels from send to receive during playback),
 * the pulses of messages in flight that a bundle hides (so a bundled
 * picture still plays), and the per-pair totals the graph view draws as
 * edges. */
#include "rnd.h"

#include <stdlib.h>

#define PULSE_S 0.6      /* a pulse stays on screen at least this long (wall time) */
#define FLYING_MAX 300u  /* messages in flight drawn besides the bundles, per frame */

/* How far along A→B the pulse is at time-fraction k of the flight: under
 * an axis, the fraction of the way from x(t0) to x(t1) that x(now) lies. */
static float along(const lay_axis *ax, int64_t t0, int64_t t1, float k)
{
    if (!ax || t1 <= t0)
        return k;
    double x0 = lay_axis_x(ax, t0), x1 = lay_axis_x(ax, t1);
    double x = lay_axis_x(ax, t0 + (int64_t)((double)(t1 - t0) * k));
    return x1 > x0 ? (float)((x - x0) / (x1 - x0)) : k;
}

/* How long arrow a flies: its latency, but at least PULSE_S of playback so
 * zero-time hand-offs show a flight too, cut short when the receiver sends
 * on (so a rally shows one ball). */
static double flight_ns(const cs_model *m, const rnd_view *v, const rnd__arrow *a)
{
    double pulse_ns = v->speed > 0 ? v->speed * PULSE_S : 0;
    if (a->t_next > a->t0 && (double)(a->t_next - a->t0) < pulse_ns)
        pulse_ns = (double)(a->t_next - a->t0);
    double lat = (double)(rnd__arrow_t1(m, a) - a->t0);
    return lat > pulse_ns ? lat : pulse_ns;
}

bool rnd__arrow_flying(const cs_model *m, const rnd_view *v, const rnd__arrow *a)
{
    return v->now != CS_T_NONE && a->kind != LAY_ARROW_SYNC && v->now >= a->t0 &&
           (double)(v->now - a->t0) < flight_ns(m, v, a);
}

float rnd__arrow_progress(const cs_model *m, const rnd_view *v, const rnd__arrow *a)
{
    double dur = flight_ns(m, v, a);
    return dur > 0 ? (float)((double)(v->now - a->t0) / dur) : 1.0f;
}

void rnd__arrow_draw(rnd_renderer *r, const rnd_view *v, const rnd__arrow *a, const float *A,
                     const float *B, float head_px, const lay_axis *ax)
{
    const rnd__theme *th = rnd__theme_get(v->theme);
    bool lit = rnd__arrow_lit(r, v, a);
    uint32_t col = rnd__arrow_color(r, th, a);
    if (!lit)
        col = rnd__dim(col, 0.75f, th->bg);
    float w = a->kind == LAY_ARROW_SYNC ? 1.0f : (lit && v->selected ? 2.5f : 1.6f);
    if (rnd__arrow_flying(r->m, v, a)) {
        float k = along(ax, a->t0, rnd__arrow_t1(r->m, a), rnd__arrow_progress(r->m, v, a));
        float P[3] = {A[0] + (B[0] - A[0]) * k, A[1] + (B[1] - A[1]) * k, A[2] + (B[2] - A[2]) * k};
        rnd__seg(&r->sc, RND__SEGS, A[0], A[1], A[2], P[0], P[1], P[2], w, col);
        rnd__seg(&r->sc, RND__DOTS, P[0], P[1], P[2], P[0], P[1], P[2], 10.0f, rnd__alpha(col, 0.45f));
        rnd__seg(&r->sc, RND__DOTS, P[0], P[1], P[2], P[0], P[1], P[2], 5.5f, th->pulse);
        return;
    }
    if (r->arrow_fade < 1.0f) { /* crowded: a faint shaft behind the bars, no head */
        rnd__seg(&r->sc, RND__SEGS, A[0], A[1], A[2], B[0], B[1], B[2], w, rnd__alpha(col, r->arrow_fade));
        return;
    }
    rnd__seg(&r->sc, RND__SEGS, A[0], A[1], A[2], B[0], B[1], B[2], w, col);
    if (a->kind != LAY_ARROW_SYNC)
        rnd__seg(&r->sc, RND__HEADS, A[0], A[1], A[2], B[0], B[1], B[2], head_px, col);
}

void rnd__arrows_flying(rnd_renderer *r, const rnd_view *v, rnd__ends_fn *ends, const void *ctx,
                        float head_px, const lay_axis *ax)
{
    if (v->now == CS_T_NONE || !r->lay.rep)
        return;
    uint32_t drawn = 0, seen = 0;
    rnd__apos p = rnd__arrow_lower(r, v->now + 1);
    for (uint32_t ref; (ref = rnd__arrow_prev(r, &p)) && drawn < FLYING_MAX && seen++ < 8 * FLYING_MAX;) {
        rnd__arrow arrow;
        const rnd__arrow *a = &arrow;
        float A[3], B[3];
        if (!rnd__arrow_get(r, ref, &arrow) || (a->msg && rnd__arrow_rep(r, a->msg - 1)) ||
            !rnd__arrow_flying(r->m, v, a) || r->row[a->from] < 0 || r->row[a->to] < 0 || !ends(ctx, a, A, B))
            continue;
        rnd__arrow_draw(r, v, a, A, B, head_px, ax);
        drawn++;
    }
}

uint32_t rnd__arrow_color(const rnd_renderer *r, const rnd__theme *th, const rnd__arrow *a)
{
    if (a->kind == LAY_ARROW_SYNC)
        return th->sync;
    uint32_t chan = rnd__arrow_chan(r->m, a);
    return th->hue[chan < r->m->n_chans ? r->tr.hue[chan] % LAY_CHAN_HUES : 0];
}
