/* layout/sort.c — stable LSD radix sort of (64-bit key, uint32 payload)
 * pairs, 16 bits per pass, skipping passes where every key has the same
 * digit, and the whole sort where the keys are in order already: sorts a
 * million arrows in a few tens of ms where qsort with a many-field
 * comparator takes half a second. */
#include "internal.h"

#include <string.h>

/* This many keys or fewer are sorted in place (the spawn tree sorts each
 * run of goroutines made at one time). */
#define SORT_SHORT 32u

bool lay__sort_keys(uint64_t *key, uint32_t *val, uint32_t n, cs_err *err)
{
    uint32_t in_order = 1;
    while (in_order < n && key[in_order - 1] <= key[in_order])
        in_order++;
    if (in_order >= n)
        return true; /* in order already (a server's goroutines by creation): stable, nothing moves */
    if (n <= SORT_SHORT) { /* insertion, stable: no passes over 65536 counts for a few keys */
        for (uint32_t i = in_order; i < n; i++) {
            uint64_t k = key[i];
            uint32_t v = val[i], at = i;
            for (; at > 0 && key[at - 1] > k; at--)
                key[at] = key[at - 1], val[at] = val[at - 1];
            key[at] = k, val[at] = v;
        }
        return true;
    }
    uint64_t *k2 = cs_alloc((size_t)n * sizeof *k2 + 1);
    uint32_t *v2 = cs_alloc((size_t)n * sizeof *v2 + 1);
    uint32_t *cnt = cs_alloc(65536 * sizeof *cnt);
    if (!k2 || !v2 || !cnt) {
        cs_free(k2), cs_free(v2), cs_free(cnt);
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory sorting %u keys", n);
    }
    uint64_t *ka = key, *kb = k2;
    uint32_t *va = val, *vb = v2;
    for (int shift = 0; shift < 64; shift += 16) {
        memset(cnt, 0, 65536 * sizeof *cnt);
        for (uint32_t i = 0; i < n; i++)
            cnt[(ka[i] >> shift) & 0xffff]++;
        if (n && cnt[(ka[0] >> shift) & 0xffff] == n)
            continue; /* one digit everywhere: this pass changes nothing */
        uint32_t sum = 0;
        for (uint32_t d = 0; d < 65536; d++) {
            uint32_t c = cnt[d];
            cnt[d] = sum;
            sum += c;
        }
        for (uint32_t i = 0; i < n; i++) {
            uint32_t at = cnt[(ka[i] >> shift) & 0xffff]++;
            kb[at] = ka[i];
            vb[at] = va[i];
        }
        uint64_t *tk = ka; ka = kb; kb = tk;
        uint32_t *tv = va; va = vb; vb = tv;
    }
    if (ka != key) {
        memcpy(key, ka, (size_t)n * sizeof *key);
        memcpy(val, va, (size_t)n * sizeof *val);
    }
    cs_free(k2), cs_free(v2), cs_free(cnt);
    return true;
}
