/* core/ids.c — the dense id table of ids.h: the direct array's growth,
 * the map for the ids it does not cover, and copies. */
#include "ids.h"

#include <string.h>

/* The slot rule's bound (`limit` may go beyond): a window under
 * 4 × slots + 1024 ids takes at most 16 bytes of array an id, twice that
 * grown, no more than a map's slots at most half full; it keeps the
 * array's size in 32 bits. */
#define DIRECT_MAX (1u << 30)
/* the first id's window starts at a multiple of this */
#define DIRECT_ALIGN 1024u
/* ids from here are always in the map, so a window never wraps */
#define DIRECT_TOP ((uint64_t)1 << 62)

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

/* Not in the array: in the map, which holds no id of the window's range
 * (take_in) and none outside its bounds, so that the lookups of ids not
 * there yet (a part of a trace looks up each of the millions it makes
 * before adding it) need no hash. */
uint32_t cs_ids__find_slow(const cs_ids *t, uint64_t id)
{
    uint32_t v;
    return t->big.count && id - t->base >= t->n_direct && id >= t->big_lo && id <= t->big_hi &&
                   cs_map_get(&t->big, id, &v)
               ? v
               : UINT32_MAX;
}

/* id to slot in the map, its bounds kept. */
static bool big_put(cs_ids *t, uint64_t id, uint32_t slot, cs_err *err)
{
    if (!t->big.cap) /* its first */
        t->big_lo = t->big_hi = id;
    t->big_lo = id < t->big_lo ? id : t->big_lo;
    t->big_hi = id > t->big_hi ? id : t->big_hi;
    return cs_map_put(&t->big, id, slot, err);
}

/* The map's ids that the window now covers go into the array, the map
 * keeping the rest, its bounds made again; nothing changes when out of
 * memory. */
static bool take_in(cs_ids *t, cs_err *err)
{
    cs_map rest;
    cs_map_init(&rest);
    uint64_t lo = UINT64_MAX, hi = 0;
    for (uint32_t i = 0; i < t->big.cap; i++) {
        const cs_map_slot *x = &t->big.slots[i];
        if (!x->used || x->key - t->base < t->n_direct)
            continue;
        if (!cs_map_put(&rest, x->key, x->val, err)) {
            cs_map_deinit(&rest);
            return false;
        }
        lo = x->key < lo ? x->key : lo, hi = x->key > hi ? x->key : hi;
    }
    for (uint32_t i = 0; i < t->big.cap; i++) {
        const cs_map_slot *x = &t->big.slots[i];
        if (x->used && x->key - t->base < t->n_direct)
            t->direct[x->key - t->base] = x->val + 1;
    }
    cs_map_deinit(&t->big);
    t->big = rest, t->big_lo = lo, t->big_hi = hi;
    return true;
}

/* Whether the window may span [lo, hi). */
static bool may_span(const cs_ids *t, uint64_t lo, uint64_t hi)
{
    uint64_t most = 4u * (uint64_t)t->n + 1024;
    if (most > DIRECT_MAX)
        most = DIRECT_MAX;
    return hi - lo <= most || hi - lo <= t->limit;
}

/* The window made to cover id, which may_span allows: up, twice as wide
 * (at most DIRECT_MAX or limit wide), or down as far as it is wide (not
 * below 0, nor so far that may_span would not allow it). */
static bool cover(cs_ids *t, uint64_t id, cs_err *err)
{
    uint64_t lo = t->base, hi = t->base + t->n_direct;
    uint64_t most = t->limit > DIRECT_MAX ? t->limit : DIRECT_MAX;
    uint64_t nlo = lo, nhi = hi;
    if (id >= hi) {
        uint64_t want = t->n_direct < 512 ? 1024 : 2 * (uint64_t)t->n_direct;
        nhi = lo + (want < most ? want : most);
        if (nhi <= id)
            nhi = id + 1;
    } else {
        uint64_t step = hi - lo > DIRECT_ALIGN ? hi - lo : DIRECT_ALIGN;
        nlo = lo > step ? lo - step : 0;
        if (nlo > id || !may_span(t, nlo, hi))
            nlo = id;
    }
    uint32_t *nd = nlo == lo ? cs_realloc(t->direct, (size_t)(nhi - nlo) * sizeof *nd)
                             : cs_alloc((size_t)(nhi - nlo) * sizeof *nd);
    if (!nd)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for ids");
    if (nlo == lo) {
        memset(nd + t->n_direct, 0, (size_t)(nhi - hi) * sizeof *nd);
    } else {
        memset(nd, 0, (size_t)(lo - nlo) * sizeof *nd);
        memcpy(nd + (lo - nlo), t->direct, (size_t)t->n_direct * sizeof *nd);
        cs_free(t->direct);
    }
    t->direct = nd;
    t->base = nlo;
    t->n_direct = (uint32_t)(nhi - nlo);
    return !t->big.count || take_in(t, err);
}

/* While the table holds fewer ids than this, an id the window cannot take
 * starts it afresh there, the few it held going to the map: a part of a
 * trace meets a few old goroutines (its program's first) before the
 * millions made after the cut. At most that many times, each over a
 * window of a few thousand slots. */
#define RESTART_BELOW 64u

static bool restart(cs_ids *t, uint64_t id, cs_err *err)
{
    for (uint32_t k = 0; k < t->n_direct; k++)
        if (t->direct[k] && !big_put(t, t->base + k, t->direct[k] - 1, err))
            return false;
    cs_free(t->direct);
    t->direct = NULL, t->n_direct = 0;
    t->base = id - id % DIRECT_ALIGN;
    return true;
}

uint32_t cs_ids__add(cs_ids *t, uint64_t id, cs_err *err)
{
    if (t->n == UINT32_MAX - 1) {
        CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "too many ids");
        return UINT32_MAX;
    }
    uint32_t v = t->n;
    if (!t->n_direct)
        t->base = id - id % DIRECT_ALIGN;
    uint64_t lo = id < t->base ? id : t->base, hi = t->base + t->n_direct;
    if (hi <= id)
        hi = id + 1;
    /* inside the window: its place is there (the window may be wider than
     * may_span allows for so few ids, grown ahead) */
    bool fits = id - t->base < t->n_direct || (id < DIRECT_TOP && may_span(t, lo, hi));
    if (!fits && id < DIRECT_TOP && t->n < RESTART_BELOW) {
        if (!restart(t, id, err))
            return UINT32_MAX;
        fits = true;
    }
    if (fits) {
        if (id - t->base >= t->n_direct && !cover(t, id, err))
            return UINT32_MAX;
        t->direct[id - t->base] = v + 1;
    } else if (!big_put(t, id, v, err)) {
        return UINT32_MAX;
    }
    t->n++;
    return v;
}

bool cs_ids_set(cs_ids *t, uint64_t id, uint32_t slot, cs_err *err)
{
    if (id - t->base < t->n_direct && t->direct[id - t->base]) {
        t->direct[id - t->base] = slot == UINT32_MAX ? 0 : slot + 1;
        return true;
    }
    if (slot == UINT32_MAX) {
        cs_map_del(&t->big, id);
        return true;
    }
    return big_put(t, id, slot, err);
}

bool cs_ids_copy(const cs_ids *from, cs_ids *out, cs_err *err)
{
    cs_ids_init(out, from->limit);
    if (from->n_direct && !(out->direct = cs_alloc((size_t)from->n_direct * sizeof *out->direct)))
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for ids");
    if (from->n_direct)
        memcpy(out->direct, from->direct, (size_t)from->n_direct * sizeof *out->direct);
    out->base = from->base, out->n_direct = from->n_direct, out->n = from->n;
    out->big_lo = from->big_lo, out->big_hi = from->big_hi;
    if (!cs_map_copy(&from->big, &out->big, err)) {
        cs_ids_deinit(out);
        return false;
    }
    return true;
}
