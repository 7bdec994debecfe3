/* core/build_int.h — what the builder's two files share and nothing else
 * uses: build.c (its calls, cursors and chunks) and build_lay.c (laying
 * its spans out in the model's columns).
 *
 * API
 *   uint8_t *cs__mb_rec(cs_mb_chunk *k)   the record of k's first span (inline)
 *   void cs__mb_rec_set(cs_mb_chunk *k, uint32_t i, uint32_t dt, uint8_t sr)   k's span i
 *       starts dt after k's base, in state and reason sr (inline)
 *   int64_t cs__mb_rec_t0(const cs_mb_chunk *k, uint32_t i)   the start of k's span i (inline)
 *   size_t cs__mb_chunk_room(uint32_t cap)   the bytes a chunk of cap spans takes
 *       from its slab (inline)
 *   void *cs__mb_slab_take(cs_mb *mb, size_t bytes, cs_err *err)   room in mb's slabs
 *   void cs__mb_slabs_free(cs_mb *mb)   mb's slabs, and its spare chunks
 *   void cs__mb_chunk_give(cs_mb *mb, cs_mb_chunk *k)   k, copied out, for another
 *       goroutine's: kept spare when of a room chunks are taken in, else its pages go back
 *   bool cs__mb_lay_out(cs_mb *mb, uint32_t gi, cs_mb_chunk *last, uint32_t n_spans, cs_err *err)
 *       goroutine gi's spans, in its chunks (last the newest), laid out after those
 *       laid out so far; its chunks go to others
 *   bool cs__mb_unlay(cs_mb *mb, uint32_t gi, cs_err *err)   gi's spans laid out back in
 *       chunks of its own (cs_mb.relay)
 *   bool cs__mb_lay_anew(cs_mb *mb, cs_err *err)   every goroutine's spans laid out back in
 *       chunks, the columns emptied (cs_mb.relay, at cs_mb_finish)
 *   bool cs__mb_lay_copy(const cs_mb_lay *l, cs_mb_lay *out, cs_err *err)
 *   bool cs__mb_lay_join(cs_mb *mb, cs_mb *b, uint32_t *off, cs_err *err)   b's spans laid
 *       out after mb's (*off: where they go)
 *   void cs__mb_lay_free(cs_mb_lay *l)
 *   bool cs__mb_spans_out(cs_mb *mb, cs_err *err)   the rest laid out, the far ends made:
 *       the model has its spans
 */
#ifndef CS_BUILD_INT_H
#define CS_BUILD_INT_H

#include "build.h"
#include "file.h"

#include <string.h>

/* A chunk: its header, then room for cap spans (CS__MB_REC bytes each).
 * The last chunk of a goroutine keeps its count in cs_mb_cur.k_n (the hot
 * path touches no header); the others, here. */
struct cs_mb_chunk {
    cs_mb_chunk *prev;
    int64_t base;
    uint32_t n, cap;
};

#define CS__MB_CHUNK_MAX 65536u

/* A span in a chunk: its start over the chunk's base (4 bytes, unaligned)
 * and its state and reason in one byte (cs_span_state_reason) — one
 * record, so that an append writes one place. */
#define CS__MB_REC 5u

/* A part's pages go back a batch of this many wake-ups, goroutines or
 * spans at a time as the join reads them. */
#define CS__MB_JOIN_BATCH 65536u

static inline uint8_t *cs__mb_rec(cs_mb_chunk *k) { return (uint8_t *)(k + 1); }

static inline void cs__mb_rec_set(cs_mb_chunk *k, uint32_t i, uint32_t dt, uint8_t sr)
{
    uint8_t *rec = cs__mb_rec(k) + (size_t)i * CS__MB_REC;
    memcpy(rec, &dt, 4);
    rec[4] = sr;
}

static inline int64_t cs__mb_rec_t0(const cs_mb_chunk *k, uint32_t i)
{
    uint32_t dt;
    memcpy(&dt, (const uint8_t *)(k + 1) + (size_t)i * CS__MB_REC, 4);
    return k->base + dt;
}

/* Whole pages for a chunk of a page or more, all of which go back once it
 * is copied. */
static inline size_t cs__mb_chunk_room(uint32_t cap)
{
    size_t page = cs_page_bytes(), bytes = sizeof(cs_mb_chunk) + (size_t)cap * CS__MB_REC;
    return bytes < page ? bytes : (bytes + page - 1) & ~(page - 1);
}

void *cs__mb_slab_take(cs_mb *mb, size_t bytes, cs_err *err);
void cs__mb_slabs_free(cs_mb *mb);
void cs__mb_chunk_give(cs_mb *mb, cs_mb_chunk *k);
bool cs__mb_lay_out(cs_mb *mb, uint32_t gi, cs_mb_chunk *last, uint32_t n_spans, cs_err *err);
bool cs__mb_unlay(cs_mb *mb, uint32_t gi, cs_err *err);
bool cs__mb_lay_anew(cs_mb *mb, cs_err *err);
bool cs__mb_lay_copy(const cs_mb_lay *l, cs_mb_lay *out, cs_err *err);
bool cs__mb_lay_join(cs_mb *mb, cs_mb *b, uint32_t *off, cs_err *err);
void cs__mb_lay_free(cs_mb_lay *l);
bool cs__mb_spans_out(cs_mb *mb, cs_err *err);

#endif
