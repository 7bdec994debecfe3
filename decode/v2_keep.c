/* decode/v2_keep.c — copies of the strings Go's ordering holds on to from
 * one generation of a Go 1.22+ trace to the next (an STW range's kind, a
 * task's name, an open region's name), for a stream: its bytes go once
 * their generation is decoded (decode/v2_load.c). Reading a mapped file,
 * the ordering points into the file and nothing is copied. Each distinct
 * string is copied once and never moves (an event passed to the emitting
 * thread may point at it, v2_split.c); all go with the ordering
 * (dec__v2_order_deinit). */
#include "v2.h"

#include <string.h>
#include <xxhash.h>

const uint8_t *dec__v2_keep(v2_order *o, const uint8_t *p, uint32_t len, cs_err *err)
{
    v2_keep *k = &o->keep;
    if (!k->on || !len)
        return len ? p : (const uint8_t *)"";
    uint64_t h = XXH3_64bits(p, len);
    uint32_t i;
    if (cs_map_get(&k->index, h, &i) && k->s[i].len == len && !memcmp(k->s[i].p, p, len))
        return k->s[i].p;
    uint8_t *copy = cs_alloc(len);
    if (!copy || !cs_grow((void **)&k->s, &k->cap, k->n + 1, sizeof *k->s, err)) {
        cs_free(copy);
        if (err->code == CS_OK)
            CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for a string");
        return NULL;
    }
    memcpy(copy, p, len);
    k->s[k->n] = (v2_str){copy, len, 0};
    /* a second string of the same hash is kept unindexed */
    if (!cs_map_get(&k->index, h, NULL) && !cs_map_put(&k->index, h, k->n, err)) {
        cs_free(copy);
        return NULL;
    }
    return k->s[k->n++].p;
}

void dec__v2_keep_deinit(v2_keep *k)
{
    for (uint32_t i = 0; i < k->n; i++)
        cs_free((void *)k->s[i].p);
    cs_free(k->s);
    cs_map_deinit(&k->index);
    memset(k, 0, sizeof *k);
}
