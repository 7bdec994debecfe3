/* core/map.c — the uint64 -> uint32 hash map of map.h. Deletion uses
 * backward-shift so no tombstones accumulate. */
#include "map.h"

#include <string.h>
#include <xxhash.h>

static uint32_t slot_of(uint64_t key, uint32_t cap)
{
    return (uint32_t)XXH3_64bits(&key, sizeof key) & (cap - 1);
}

void cs_map_init(cs_map *m) { memset(m, 0, sizeof *m); }

void cs_map_deinit(cs_map *m)
{
    cs_free(m->slots);
    memset(m, 0, sizeof *m);
}

bool cs_map_get(const cs_map *m, uint64_t key, uint32_t *out)
{
    if (!m->cap)
        return false;
    for (uint32_t i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
        const cs_map_slot *s = &m->slots[i];
        if (!s->used)
            return false;
        if (s->key == key) {
            if (out)
                *out = s->val;
            return true;
        }
    }
}

static bool rehash(cs_map *m, uint32_t ncap, cs_err *err)
{
    cs_map_slot *ns = cs_calloc(ncap, sizeof *ns);
    if (!ns)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory (hash map of %u slots)", ncap);
    for (uint32_t j = 0; j < m->cap; j++) {
        if (!m->slots[j].used)
            continue;
        uint32_t i = slot_of(m->slots[j].key, ncap);
        while (ns[i].used)
            i = (i + 1) & (ncap - 1);
        ns[i] = m->slots[j];
    }
    cs_free(m->slots);
    m->slots = ns;
    m->cap = ncap;
    return true;
}

bool cs_map_put(cs_map *m, uint64_t key, uint32_t val, cs_err *err)
{
    if ((uint64_t)(m->count + 1) * 2 > m->cap) {
        if (m->cap >= (1u << 31))
            return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "hash map too large");
        if (!rehash(m, m->cap ? m->cap * 2 : 64, err))
            return false;
    }
    uint32_t i = slot_of(key, m->cap);
    while (m->slots[i].used && m->slots[i].key != key)
        i = (i + 1) & (m->cap - 1);
    if (!m->slots[i].used)
        m->count++;
    m->slots[i] = (cs_map_slot){key, val, 1};
    return true;
}

bool cs_map_del(cs_map *m, uint64_t key)
{
    if (!m->cap)
        return false;
    uint32_t mask = m->cap - 1, i = slot_of(key, m->cap);
    while (m->slots[i].used && m->slots[i].key != key)
        i = (i + 1) & mask;
    if (!m->slots[i].used)
        return false;
    /* backward-shift: pull later members of the probe run into the hole */
    for (uint32_t j = (i + 1) & mask; m->slots[j].used; j = (j + 1) & mask) {
        uint32_t home = slot_of(m->slots[j].key, m->cap);
        if (((j - home) & mask) >= ((j - i) & mask)) {
            m->slots[i] = m->slots[j];
            i = j;
        }
    }
    m->slots[i].used = 0;
    m->count--;
    return true;
}

void cs_map_clear(cs_map *m)
{
    if (m->cap)
        memset(m->slots, 0, (size_t)m->cap * sizeof *m->slots);
    m->count = 0;
}

uint32_t cs_map_count(const cs_map *m) { return m->count; }

bool cs_map_copy(const cs_map *from, cs_map *out, cs_err *err)
{
    cs_map_init(out);
    if (!from->cap)
        return true;
    out->slots = cs_alloc((size_t)from->cap * sizeof *out->slots);
    if (!out->slots)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory (hash map of %u slots)", from->cap);
    memcpy(out->slots, from->slots, (size_t)from->cap * sizeof *out->slots);
    out->cap = from->cap, out->count = from->count;
    return true;
}
