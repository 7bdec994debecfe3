/* core/stats.c — freeing cs_stats. Computing them is decode/'s job. */
#include "stats.h"

#include <string.h>

void cs_stats_deinit(cs_stats *s)
{
    if (!s)
        return;
    cs_free(s->g);
    cs_free(s->kv);
    memset(s, 0, sizeof *s);
}
