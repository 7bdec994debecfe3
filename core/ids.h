/* core/ids.h — dense slots for sparse 64-bit ids (goroutine, P and M ids,
 * string and stack ids): the n-th id first seen gets slot n. Ids below a
 * bound go through a direct array, so the common lookup is one load with no
 * hashing; the rest through a cs_map. The array covers a window of ids,
 * [base, base + n_direct), which starts at the first id's 1024 and moves
 * down or grows up for a new id when the window it then spans is below
 * `limit` (set at init, e.g. from the file size) or below both 2^30 and
 * 4 × slots + 1024, so the array stays bounded by what the input justifies
 * wherever the ids begin (a part of a trace decoded from a cut sees ids in
 * the millions, after a few small ones: while a table holds fewer than 64
 * ids, one that does not fit starts the window afresh). The map's ids
 * that a window grown or moved comes to cover go into the array: an id is
 * in one place, and the map holds none in the window's range.
 *
 * API
 *   void cs_ids_init(cs_ids *t, uint32_t limit)     zeroed table (a zeroed struct is limit 0)
 *   void cs_ids_deinit(cs_ids *t)
 *   uint32_t cs_ids_direct(const cs_ids *t, uint64_t id) slot + 1 of an id in the direct
 *       array, 0 for any other (absent, or in the map): the hot paths' one load
 *   uint32_t cs_ids_find(const cs_ids *t, uint64_t id)   slot, or UINT32_MAX when absent
 *   uint32_t cs_ids_get(cs_ids *t, uint64_t id, bool add, cs_err *err)
 *       slot, adding the id when absent and `add`; UINT32_MAX when absent,
 *       or on allocation failure (err set then)
 *   bool cs_ids_set(cs_ids *t, uint64_t id, uint32_t slot, cs_err *err)   id, which t has,
 *       finds slot from now on (a table whose user hands slots out again, decode/v2_order.c);
 *       UINT32_MAX: id is absent from now on, until added again (that takes no room and
 *       never fails); false only out of memory
 *   bool cs_ids_copy(const cs_ids *from, cs_ids *out, cs_err *err)   out: a new table, equal
 *   t->n                                             slots handed out
 */
#ifndef CS_IDS_H
#define CS_IDS_H

#include "map.h"

typedef struct cs_ids {
    uint32_t *direct;  /* id - base -> slot + 1 for direct ids, 0 = absent */
    uint64_t base;
    uint32_t n_direct;
    uint32_t limit;    /* ids below this always go direct */
    cs_map big;        /* the rest */
    uint64_t big_lo, big_hi; /* the least and greatest id big has held: none outside is there */
    uint32_t n;        /* slots handed out */
} cs_ids;

void cs_ids_init(cs_ids *t, uint32_t limit);
void cs_ids_deinit(cs_ids *t);
uint32_t cs_ids__find_slow(const cs_ids *t, uint64_t id);
uint32_t cs_ids__add(cs_ids *t, uint64_t id, cs_err *err);
bool cs_ids_set(cs_ids *t, uint64_t id, uint32_t slot, cs_err *err);
bool cs_ids_copy(const cs_ids *from, cs_ids *out, cs_err *err);

static inline uint32_t cs_ids_direct(const cs_ids *t, uint64_t id)
{
    return id - t->base < t->n_direct ? t->direct[id - t->base] : 0;
}

static inline uint32_t cs_ids_find(const cs_ids *t, uint64_t id)
{
    uint32_t s = cs_ids_direct(t, id);
    return s ? s - 1 : cs_ids__find_slow(t, id);
}

static inline uint32_t cs_ids_get(cs_ids *t, uint64_t id, bool add, cs_err *err)
{
    uint32_t v = cs_ids_find(t, id);
    return v != UINT32_MAX || !add ? v : cs_ids__add(t, id, err);
}

#endif
