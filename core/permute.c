/* core/permute.c — arrays put in a new order in place (cs_permute): the
 * caller sorts their places, and the elements then move cycle by cycle,
 * with no copy of the arrays held. */
#include "cs.h"

#include <string.h>

void cs_permute(uint32_t *to, uint32_t n, void *a, size_t a_size, void *b, size_t b_size)
{
    unsigned char keep_a[CS_PERMUTE_MAX], keep_b[CS_PERMUTE_MAX], *pa = a, *pb = b;
    for (uint32_t k = 0; k < n; k++) { /* place j takes the element at to[j] */
        if (to[k] == k)
            continue;
        memcpy(keep_a, pa + k * a_size, a_size);
        if (pb)
            memcpy(keep_b, pb + k * b_size, b_size);
        for (uint32_t j = k;;) {
            uint32_t from = to[j];
            to[j] = j;
            if (from == k) {
                memcpy(pa + j * a_size, keep_a, a_size);
                if (pb)
                    memcpy(pb + j * b_size, keep_b, b_size);
                break;
            }
            memcpy(pa + j * a_size, pa + from * a_size, a_size);
            if (pb)
                memcpy(pb + j * b_size, pb + from * b_size, b_size);
            j = from;
        }
    }
}
