/* decode/v2_heap.h — Go's frontier heap (internal/trace/batchcursor.go):
 * a min-heap of the Ms' cursors keyed by their next event's time, with
 * Go's exact sifts, so that ties between Ms' events at the same time break
 * as in Go. Used by the reader (v2_reader.c) and by the replay that finds
 * the frontier at a cut (v2_front.c). */
#ifndef DEC_V2_HEAP_H
#define DEC_V2_HEAP_H

#include "v2.h"

typedef struct v2_hnode { int64_t ts; uint32_t c; } v2_hnode; /* a cursor and its next event's time */
typedef struct v2_heap { v2_hnode *h; uint32_t n; } v2_heap;

static inline void dec__v2_heap_swap(v2_heap *hp, uint32_t a, uint32_t b)
{
    v2_hnode t = hp->h[a];
    hp->h[a] = hp->h[b];
    hp->h[b] = t;
}

static inline uint32_t dec__v2_heap_up(v2_heap *hp, uint32_t i)
{
    while (i > 0 && hp->h[(i - 1) / 2].ts > hp->h[i].ts) {
        dec__v2_heap_swap(hp, (i - 1) / 2, i);
        i = (i - 1) / 2;
    }
    return i;
}

static inline void dec__v2_heap_down(v2_heap *hp, uint32_t i)
{
    for (;;) {
        uint32_t m = i, l = 2 * i + 1, r = 2 * i + 2;
        int64_t mt = i < hp->n ? hp->h[i].ts : INT64_MAX;
        if (l < hp->n && hp->h[l].ts < mt)
            m = l, mt = hp->h[l].ts;
        if (r < hp->n && hp->h[r].ts < mt)
            m = r;
        if (m == i)
            return;
        dec__v2_heap_swap(hp, i, m);
        i = m;
    }
}

/* dec__v2_heap_down(hp, 0), written for the root: the same swaps. */
static inline void dec__v2_heap_root_down(v2_heap *hp)
{
    v2_hnode *h = hp->h;
    uint32_t n = hp->n, i = 0;
    for (;;) {
        uint32_t l = 2 * i + 1, m = l;
        if (l >= n)
            return;
        if (l + 1 < n && h[l + 1].ts < h[l].ts)
            m = l + 1;
        if (h[m].ts >= h[i].ts)
            return;
        v2_hnode t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

/* The least time among the root's children: the root stays where it is
 * while its time is at most this (dec__v2_heap_root_down moves it only
 * past a smaller). */
static inline int64_t dec__v2_heap_stays(const v2_heap *hp)
{
    const v2_hnode *h = hp->h;
    return hp->n < 2 ? INT64_MAX : hp->n == 2 || h[1].ts <= h[2].ts ? h[1].ts : h[2].ts;
}

static inline void dec__v2_heap_remove(v2_heap *hp, uint32_t i)
{
    while (i > 0) {
        dec__v2_heap_swap(hp, (i - 1) / 2, i);
        i = (i - 1) / 2;
    }
    dec__v2_heap_swap(hp, 0, hp->n - 1);
    hp->n--;
    dec__v2_heap_down(hp, 0);
}

/* slices.SortFunc on a handful of cursors is an insertion sort: stable. */
static inline void dec__v2_heap_sort(v2_heap *hp)
{
    for (uint32_t i = 1; i < hp->n; i++)
        for (uint32_t j = i; j > 0 && hp->h[j - 1].ts > hp->h[j].ts; j--)
            dec__v2_heap_swap(hp, j - 1, j);
}

/* Go's frontier as the heap holds it now (fr->c allocated). */
bool dec__v2_front_of(const v2_heap *hp, v2_front *fr, cs_err *err);

#endif
