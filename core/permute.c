/* core/permute.c — arrays put in a new order in place (cs_permute): the
 * caller sorts their places, and the elements then move cycle by cycle,
 * with no copy of the arrays held. */
#include "cs.h"

#include <assert.h>
#include <string.h>

void cs_permute(uint32_t *to, uint32_t n, const cs_permuted *arr, unsigned n_arr)
{
    unsigned char keep[CS_PERMUTE_ARRAYS][CS_PERMUTE_MAX];
    assert(n_arr <= CS_PERMUTE_ARRAYS);
    for (uint32_t k = 0; k < n; k++) { /* place j takes the element at to[j] */
        if (to[k] == k)
            continue;
        for (unsigned a = 0; a < n_arr; a++)
            if (arr[a].p)
                memcpy(keep[a], (unsigned char *)arr[a].p + k * arr[a].size, arr[a].size);
        for (uint32_t j = k;;) {
            uint32_t from = to[j];
            to[j] = j;
            for (unsigned a = 0; a < n_arr; a++) {
                unsigned char *p = arr[a].p;
                if (p)
                    memcpy(p + j * arr[a].size, from == k ? keep[a] : p + from * arr[a].size, arr[a].size);
            }
            if (from == k)
                break;
            j = from;
        }
    }
}
