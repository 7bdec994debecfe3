/* core/ids.c — the dense id table of ids.h: the direct array's growth,
 * the map for the ids it does not cover, and copies. */
#include "ids.h"

#include <string.h>

/* The slot rule's bound (`limit` may go beyond): ids under 4 × slots + 1024
 * take at most 16 bytes of array an id, twice that grown, no more than a
 * map's slots at most half full; it keeps the array's size in 32 bits. */
#define DIRECT_MAX (1u << 30)

void cs_ids_init(cs_ids *t, uint32_t limit)
{
    memset(t, 0, sizeof *t);
    t->limit = limit;
}

void cs_ids_deinit(cs_ids *t)
{
    cs_free(t->direct);
    cs_map_deinit(&t->big);
    memset(t, 0, sizeof *t);
}

/* An id that was not direct when it was added stays in the map, even once
 * the array has grown past it. */
uint32_t cs_ids__find_slow(const cs_ids *t, uint64_t id)
{
    uint32_t v;
    return t->big.count && cs_map_get(&t->big, id, &v) ? v : UINT32_MAX;
}

static bool grow_direct(cs_ids *t, uint64_t id, cs_err *err)
{
    uint32_t cap = t->n_direct, most = t->limit > DIRECT_MAX ? t->limit : DIRECT_MAX;
    uint32_t want = cap < 512 ? 1024 : cap * 2;
    if (want > most)
        want = most;
    if (want <= id)
        want = (uint32_t)id + 1;
    uint32_t *nd = cs_realloc(t->direct, (size_t)want * sizeof *nd);
    if (!nd)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for ids");
    memset(nd + cap, 0, (size_t)(want - cap) * sizeof *nd);
    t->direct = nd;
    t->n_direct = want;
    return true;
}

uint32_t cs_ids__add(cs_ids *t, uint64_t id, cs_err *err)
{
    if (t->n == UINT32_MAX - 1) {
        CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "too many ids");
        return UINT32_MAX;
    }
    uint32_t v = t->n;
    if (id < t->limit || (id < DIRECT_MAX && id < 4u * (uint64_t)v + 1024)) {
        if (id >= t->n_direct && !grow_direct(t, id, err))
            return UINT32_MAX;
        t->direct[id] = v + 1;
    } else if (!cs_map_put(&t->big, id, v, err)) {
        return UINT32_MAX;
    }
    t->n++;
    return v;
}

bool cs_ids_copy(const cs_ids *from, cs_ids *out, cs_err *err)
{
    cs_ids_init(out, from->limit);
    if (from->n_direct && !(out->direct = cs_alloc((size_t)from->n_direct * sizeof *out->direct)))
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for ids");
    if (from->n_direct)
        memcpy(out->direct, from->direct, (size_t)from->n_direct * sizeof *out->direct);
    out->n_direct = from->n_direct, out->n = from->n;
    if (!cs_map_copy(&from->big, &out->big, err)) {
        cs_ids_deinit(out);
        return false;
    }
    return true;
}
