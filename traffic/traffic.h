/* traffic/traffic.h — channel traffic, the stage after decoding
 * (docs/trace-format.md §6–7): turns the wake-ups of a finished model into
 * classified edges, messages and logical channels. Reads only the model,
 * never trace bytes; layout/, render/ and export/ read what it stores
 * (cs_edge.kind, cs_msg.kind, cs_model.chans) and never classify again.
 *
 * API
 *   bool trf_build(cs_model *m, cs_err *err)
 *       classifies every edge and builds messages and channels; run it once
 *       dec_trace_load() has built a model (not after a no_model load). It
 *       may be run again on the same model (it starts from no messages).
 *       false with *err filled when out of memory.
 *   bool trf_build_drawn(cs_model *m, cs_err *err)
 *       trf_build for a still picture: keeps of the edges only the sync
 *       wake-ups (renumbered; a message then names no edge, edge 0), the
 *       others let go while their messages are inferred, so the model never
 *       holds both (with a patched runtime's exact traffic, at the end).
 *       Run once: after it, or after a failure of it, the model is only to
 *       be drawn or freed.
 *   bool trf_edge_drawn(const cs_edge *e)    (inline)
 *       the wake-ups pictures draw as arrows of their own: the sync ones
 *       (mutex, WaitGroup, cond); channel hand-offs are drawn as their
 *       messages, timer and network wake-ups not at all (layout/arrow.h,
 *       the time blocks, trf_build_drawn)
 *   size_t trf_site(const cs_model *m, uint32_t stack, char *out, size_t cap)
 *       code site of a channel operation in a stack, "func:file:line"
 *       ("" when none); returns the length written.
 */
#ifndef TRF_TRAFFIC_H
#define TRF_TRAFFIC_H

#include "../core/cs.h"
#include "../core/model.h"

bool trf_build(cs_model *m, cs_err *err);

static inline bool trf_edge_drawn(const cs_edge *e)
{
    return e->kind == CS_EK_SYNC;
}
bool trf_build_drawn(cs_model *m, cs_err *err);
size_t trf_site(const cs_model *m, uint32_t stack, char *out, size_t cap);

#endif
