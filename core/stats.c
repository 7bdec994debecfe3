/* core/stats.c — freeing and ordering cs_stats. Computing them is
 * decode/'s job. */
#include "stats.h"

#include <stdlib.h>
#include <string.h>

void cs_stats_deinit(cs_stats *s)
{
    if (!s)
        return;
    cs_free(s->g);
    cs_free(s->kv);
    memset(s, 0, sizeof *s);
}

typedef struct row_key { uint64_t goid; uint32_t row, pad; } row_key;

static int row_key_cmp(const void *a, const void *b)
{
    const row_key *x = a, *y = b;
    if (x->goid != y->goid)
        return x->goid < y->goid ? -1 : 1;
    return (x->row > y->row) - (x->row < y->row);
}

bool cs_stats_sort(cs_stats *s, cs_err *err)
{
    if (s->n < 2)
        return true;
    row_key *k = cs_alloc((size_t)s->n * sizeof *k);
    uint32_t *to = cs_alloc((size_t)s->n * sizeof *to);
    if (!k || !to) {
        cs_free(k), cs_free(to);
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory ordering %u goroutines", s->n);
    }
    for (uint32_t i = 0; i < s->n; i++)
        k[i] = (row_key){.goid = s->g[i].goid, .row = i};
    qsort(k, s->n, sizeof *k, row_key_cmp);
    for (uint32_t i = 0; i < s->n; i++)
        to[i] = k[i].row;
    cs_free(k);
    cs_permute(to, s->n, (cs_permuted[]){{s->g, sizeof *s->g}}, 1);
    cs_free(to);
    return true;
}
