/* layout/axis.h — time-axis mappings from trace time (ns) to a position
 * 0..1 along the axis, and "nice" tick labels for them (1-2-5 steps, in ns,
 * µs, ms or s, counted from the trace start = 0) in every mapping:
 *   LAY_AXIS_LINEAR  x proportional to time;
 *   LAY_AXIS_LOG     x = log(1 + dt/u) / log(1 + range/u): early detail,
 *                    late overview (u = log_unit_ns, default range/1e4);
 *   LAY_AXIS_GAPS    linear, except idle stretches (no state change, no
 *                    message, no creation for longer than gap_min_ns) are
 *                    folded to a fixed width and listed in lay_axis.gaps with
 *                    their real length, so pictures can mark them.
 *
 * API
 *   bool lay_axis_build(const cs_model *m, const lay_axis_desc *d, lay_axis *out, cs_err *err)
 *       out is overwritten; free with lay_axis_deinit (also after a failure).
 *   void lay_axis_deinit(lay_axis *a)
 *   double lay_axis_x(const lay_axis *a, int64_t t_ns)     0..1, clamped
 *   int64_t lay_axis_t(const lay_axis *a, double x)        inverse, clamped
 *   uint32_t lay_axis_ticks(const lay_axis *a, double len_px, double min_gap_px,
 *                           lay_tick *out, uint32_t cap)   ticks in x order, at least
 *                                                           min_gap_px apart; returns count
 *   void lay_fmt_dur(int64_t ns, char *buf, size_t n)      "1.5 ms", 3 significant digits
 */
#ifndef LAY_AXIS_H
#define LAY_AXIS_H

#include "../core/model.h"

typedef enum lay_axis_kind { LAY_AXIS_LINEAR = 0, LAY_AXIS_LOG, LAY_AXIS_GAPS } lay_axis_kind;

typedef struct lay_axis_desc {
    lay_axis_kind kind;
    int64_t t0, t1;        /* visible range in model time; t0 == t1 means the whole trace */
    int64_t gap_min_ns;    /* GAPS: fold idle stretches longer than this; 0 = range/50 */
    double gap_width;      /* GAPS: axis fraction of one folded gap; 0 = 0.02 */
    uint32_t max_gaps;     /* GAPS: fold at most this many (the longest); 0 = 32 */
    const struct lay_axis *gaps_of; /* GAPS: take the idle stretches of this axis that meet the
                                       range instead of finding the model's (no scan: for a frame
                                       that stretches summaries made for it); NULL = the model's */
    double log_unit_ns;    /* LOG: 0 = range/1e4 */
} lay_axis_desc;

typedef struct lay_gap {
    int64_t t0, t1;        /* the real idle stretch */
    double x0, x1;         /* where it sits on the axis */
} lay_gap;

typedef struct lay_axis {
    lay_axis_kind kind;
    int64_t t0, t1;        /* mapped range (t1 > t0) */
    int64_t origin;        /* time shown as 0: the trace start */
    double log_u;
    lay_gap *gaps;         /* GAPS only, in time order */
    uint32_t n_gaps;
    double ns_scale;       /* GAPS: axis fraction per unfolded ns */
} lay_axis;

typedef struct lay_tick {
    int64_t t_ns;          /* model time */
    double x;              /* 0..1 */
    char label[24];        /* relative to the trace start, e.g. "1.5 ms" */
} lay_tick;

bool lay_axis_build(const cs_model *m, const lay_axis_desc *d, lay_axis *out, cs_err *err);
void lay_axis_deinit(lay_axis *a);
double lay_axis_x(const lay_axis *a, int64_t t_ns);
int64_t lay_axis_t(const lay_axis *a, double x);
uint32_t lay_axis_ticks(const lay_axis *a, double len_px, double min_gap_px, lay_tick *out,
                        uint32_t cap);
void lay_fmt_dur(int64_t ns, char *buf, size_t n);

#endif
