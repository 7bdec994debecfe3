/* layout/ticks.c — tick marks and duration labels for the mappings of
 * axis.h: 1-2-5 steps in real units counted from the trace start, chosen so
 * neighbouring labels stay at least min_gap_px apart in every mapping. */
#include "axis.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const unit_names[] = {"ns", "µs", "ms", "s"};

static int unit_for(double ns)
{
    int u = 0;
    while (u < 3 && ns >= 1000.0 * pow(1000.0, u))
        u++;
    return u;
}

/* Smallest 1-2-5 x 10^k not below v. */
static int64_t nice_step(double v)
{
    if (v < 1)
        return 1;
    double p = pow(10, floor(log10(v)));
    double f = v / p;
    double k = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
    return (int64_t)llround(k * p);
}

static void fmt_in(int64_t ns, int unit, int decimals, char *buf, size_t n)
{
    if (ns == 0) {
        snprintf(buf, n, "0");
        return;
    }
    snprintf(buf, n, "%.*f %s", decimals, (double)ns / pow(1000.0, unit), unit_names[unit]);
}

void lay_fmt_dur(int64_t ns, char *buf, size_t n)
{
    double a = fabs((double)ns);
    int u = unit_for(a);
    double v = a / pow(1000.0, u);
    int dec = u == 0 || v >= 100 ? 0 : v >= 10 ? 1 : 2;
    char tmp[32];
    snprintf(tmp, sizeof tmp, "%.*f", dec, v);
    size_t l = strlen(tmp);
    if (strchr(tmp, '.')) { /* 1.50 -> 1.5, 2.00 -> 2 */
        while (l && tmp[l - 1] == '0') tmp[--l] = 0;
        if (l && tmp[l - 1] == '.') tmp[--l] = 0;
    }
    snprintf(buf, n, "%s%s %s", ns < 0 ? "-" : "", tmp, unit_names[u]);
}

typedef struct tick_out {
    const lay_axis *a;
    double len_px, min_gap_px;
    lay_tick *out;
    uint32_t cap, n;
} tick_out;

/* Appends t unless it is too close to the previous tick. */
static void push(tick_out *o, int64_t t, int unit, int dec)
{
    if (o->n >= o->cap || t < o->a->t0 || t > o->a->t1)
        return;
    double x = lay_axis_x(o->a, t);
    if (o->n && (x - o->out[o->n - 1].x) * o->len_px < o->min_gap_px)
        return;
    lay_tick *k = &o->out[o->n++];
    k->t_ns = t;
    k->x = x;
    int64_t rel = t - o->a->origin;
    if (unit < 0) { /* per-tick unit (log axis) */
        lay_fmt_dur(rel, k->label, sizeof k->label);
        if (rel == 0) snprintf(k->label, sizeof k->label, "0");
    } else {
        fmt_in(rel, unit, dec, k->label, sizeof k->label);
    }
}

/* Multiples of step (relative to the origin) inside [t0, t1]. */
static void linear_run(tick_out *o, int64_t t0, int64_t t1, int64_t step, int unit, int dec)
{
    int64_t org = o->a->origin;
    int64_t r = t0 - org;
    int64_t k = r >= 0 ? (r + step - 1) / step : -((-r) / step);
    for (int64_t t = org + k * step; t <= t1 && o->n < o->cap; t += step)
        push(o, t, unit, dec);
}

static void log_ticks(tick_out *o)
{
    const lay_axis *a = o->a;
    push(o, a->t0, -1, 0);
    for (double p = 1; p < 1e19; p *= 10) {
        for (int i = 0; i < 3; i++) {
            double v = p * (i == 0 ? 1 : i == 1 ? 2 : 5);
            if (v > (double)(a->t1 - a->origin))
                return;
            push(o, a->origin + (int64_t)v, -1, 0);
        }
    }
}

uint32_t lay_axis_ticks(const lay_axis *a, double len_px, double min_gap_px, lay_tick *out,
                        uint32_t cap)
{
    tick_out o = {.a = a, .len_px = len_px > 1 ? len_px : 1,
                  .min_gap_px = min_gap_px > 0 ? min_gap_px : 1, .out = out, .cap = cap};
    if (a->kind == LAY_AXIS_LOG) {
        log_ticks(&o);
        return o.n;
    }
    double ns_per_px = 1.0 / (a->ns_scale * o.len_px);
    int64_t step = nice_step(ns_per_px * o.min_gap_px);
    int64_t far = a->t1 - a->origin;
    int unit = unit_for(fmax((double)(far > 0 ? far : -far), (double)step));
    double su = (double)step / pow(1000.0, unit);
    int dec = su >= 1 ? 0 : (int)ceil(-log10(su) - 1e-9);
    int64_t t = a->t0;
    for (uint32_t i = 0; i < a->n_gaps; i++) { /* stretches between folded gaps */
        linear_run(&o, t, a->gaps[i].t0, step, unit, dec);
        t = a->gaps[i].t1;
    }
    linear_run(&o, t, a->t1, step, unit, dec);
    return o.n;
}
