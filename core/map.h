/* core/map.h — open-addressing hash map from uint64_t keys to uint32_t
 * values (goroutine id -> dense index, string id -> offset, ...). Keys are
 * hashed with xxHash (XXH3); linear probing; load factor <= 1/2.
 *
 * API
 *   void cs_map_init(cs_map *m)                  zeroed map, no allocation
 *   void cs_map_deinit(cs_map *m)
 *   bool cs_map_get(const cs_map *m, uint64_t key, uint32_t *out)
 *   bool cs_map_put(cs_map *m, uint64_t key, uint32_t val, cs_err *err)   insert or overwrite
 *   bool cs_map_del(cs_map *m, uint64_t key)      true if it was there
 *   void cs_map_clear(cs_map *m)                 keeps the table allocated
 *   uint32_t cs_map_count(const cs_map *m)
 *   bool cs_map_copy(const cs_map *from, cs_map *out, cs_err *err)   out: a new map, equal
 */
#ifndef CS_MAP_H
#define CS_MAP_H

#include "cs.h"

typedef struct cs_map_slot {
    uint64_t key;
    uint32_t val;
    uint32_t used; /* 0 empty, 1 used */
} cs_map_slot;

typedef struct cs_map {
    cs_map_slot *slots;
    uint32_t cap;   /* power of two, or 0 */
    uint32_t count;
} cs_map;

void cs_map_init(cs_map *m);
void cs_map_deinit(cs_map *m);
bool cs_map_get(const cs_map *m, uint64_t key, uint32_t *out);
bool cs_map_put(cs_map *m, uint64_t key, uint32_t val, cs_err *err);
bool cs_map_del(cs_map *m, uint64_t key);
void cs_map_clear(cs_map *m);
uint32_t cs_map_count(const cs_map *m);
bool cs_map_copy(const cs_map *from, cs_map *out, cs_err *err);

#endif
