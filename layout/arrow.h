/* layout/arrow.h — which arrow a message or a wake-up is drawn as. The
 * classification itself is traffic/'s (cs_msg.kind, cs_edge.kind, stored
 * in the model once, traffic/classify.c); these two functions are the one
 * place that turns it into an arrow, for every view and export.
 *
 * API
 *   lay_arrow_kind lay_msg_arrow(const cs_msg *msg)     LAY_ARROW_CHAN or LAY_ARROW_CLOSE
 *   lay_arrow_kind lay_edge_arrow(const cs_edge *e)
 *       LAY_ARROW_SYNC for a sync wake-up (mutex, WaitGroup, cond), else
 *       LAY_ARROW_COUNT: the wake-up is not drawn (channel hand-offs are
 *       drawn as their messages, spawns from cs_g.parent)
 *   const char *lay_arrow_name(lay_arrow_kind k)         legend text, e.g. "sync wake-up"
 */
#ifndef LAY_ARROW_H
#define LAY_ARROW_H

#include "../core/model.h"
#include "../traffic/traffic.h"

typedef enum lay_arrow_kind {
    LAY_ARROW_CHAN = 0,   /* a channel message */
    LAY_ARROW_CLOSE,      /* a close waking a receiver */
    LAY_ARROW_SYNC,       /* mutex / WaitGroup / cond wake-up */
    LAY_ARROW_SPAWN,      /* parent creates child */
    LAY_ARROW_COUNT
} lay_arrow_kind;

static inline lay_arrow_kind lay_msg_arrow(const cs_msg *msg)
{
    return cs_msg_kind_of(msg) == CS_MK_CLOSE ? LAY_ARROW_CLOSE : LAY_ARROW_CHAN;
}

static inline lay_arrow_kind lay_edge_arrow(const cs_edge *e)
{
    return trf_edge_drawn(e) ? LAY_ARROW_SYNC : LAY_ARROW_COUNT;
}

static inline const char *lay_arrow_name(lay_arrow_kind k)
{
    static const char *const names[LAY_ARROW_COUNT] = {"channel message", "close wake-up", "sync wake-up",
                                                      "spawn"};
    return (unsigned)k < LAY_ARROW_COUNT ? names[k] : "?";
}

#endif
