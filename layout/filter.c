/* layout/filter.c — which goroutines a function-name filter keeps
 * (lanes.h, lay_filter_build): those whose function contains the text, and
 * their partners, the goroutines they exchange messages with, so a filtered
 * picture still shows where each message came from or went (the views draw
 * the partners and their messages dimmed). */
#include "lanes.h"

#include <string.h>

uint8_t *lay_filter_build(const cs_model *m, const char *filter, cs_err *err)
{
    uint8_t *in = cs_calloc(m->n_g ? m->n_g : 1, 1);
    if (!in) {
        CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u goroutines", m->n_g);
        return NULL;
    }
    for (uint32_t gi = 1; gi < m->n_g; gi++)
        in[gi] = !filter || !filter[0] || strstr(cs_model_str(m, m->g[gi].name), filter) ? LAY_FILTER_MATCH : 0;
    for (uint32_t i = 0; i < m->n_msgs; i++) {
        uint32_t s = cs_msg_sender(m, i), r = cs_msg_receiver(m, i);
        if (!s || !r || s >= m->n_g || r >= m->n_g)
            continue;
        if (in[s] == LAY_FILTER_MATCH && !in[r])
            in[r] = LAY_FILTER_PARTNER;
        else if (in[r] == LAY_FILTER_MATCH && !in[s])
            in[s] = LAY_FILTER_PARTNER;
    }
    return in;
}
