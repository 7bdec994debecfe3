/* decode/legacy_gtab.c — goroutine id -> dense index for the legacy
 * decoder's per-goroutine state. Go hands out goroutine ids densely, so ids
 * below a bound go through a direct array (no hashing on the hot path);
 * larger ids, which only hostile or very long-running programs produce, go
 * through the hash map. The direct array never exceeds one uint32 per byte of
 * the file, so memory stays bounded by the file size. */
#include "legacy.h"

#include <string.h>

void dec__lg_gtab_init(dec__lg_gtab *t, size_t file_size)
{
    memset(t, 0, sizeof *t);
    size_t lim = file_size < 4096 ? 4096 : file_size;
    t->limit = lim > (1u << 26) ? (1u << 26) : (uint32_t)lim;
    t->n = 1;
}

void dec__lg_gtab_deinit(dec__lg_gtab *t)
{
    cs_free(t->direct);
    cs_map_deinit(&t->map);
    memset(t, 0, sizeof *t);
}

static bool grow_direct(dec__lg_gtab *t, uint64_t goid, cs_err *err)
{
    uint32_t ncap = t->cap_direct ? t->cap_direct : 1024;
    while (ncap <= goid)
        ncap *= 2;
    if (ncap > t->limit)
        ncap = t->limit;
    uint32_t *p = cs_realloc(t->direct, (size_t)ncap * sizeof *p);
    if (!p)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for goroutine table");
    memset(p + t->cap_direct, 0, (size_t)(ncap - t->cap_direct) * sizeof *p);
    t->direct = p;
    t->cap_direct = ncap;
    return true;
}

uint32_t dec__lg_gtab_add(dec__lg_gtab *t, uint64_t goid, cs_err *err)
{
    uint32_t v = dec__lg_gtab_get(t, goid);
    if (v)
        return v;
    if (t->n == UINT32_MAX) {
        CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "too many goroutines");
        return 0;
    }
    if (goid < t->limit) {
        if (goid >= t->cap_direct && !grow_direct(t, goid, err))
            return 0;
        t->direct[goid] = t->n;
    } else if (!cs_map_put(&t->map, goid, t->n, err)) {
        return 0;
    }
    return t->n++;
}
