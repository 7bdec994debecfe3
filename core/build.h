/* core/build.h — the model builder both decoder families feed: goroutine
 * creation, state changes and wake-ups, in event order. It turns them into
 * per-goroutine spans and wake-up edges; decoders never touch span arrays.
 *
 * API
 *   bool cs_mb_init(cs_mb *mb, cs_model *m, cs_err *err)       m must be cs_model_init'ed
 *   uint32_t cs_mb_g(cs_mb *mb, uint64_t goid, cs_err *err)   index of goid, added if new; 0 on error
 *       (inline for one looked up lately; cs_mb_g_find for the others)
 *   bool cs_mb_create(cs_mb *mb, const cs_mb_create_desc *d, cs_err *err)
 *   bool cs_mb_set(cs_mb *mb, int64_t t, uint64_t goid, cs_state st, cs_reason r,
 *                  cs_sid reason_name, uint32_t stack, cs_err *err)
 *   bool cs_mb_unblock(cs_mb *mb, int64_t t, uint64_t from_goid, uint64_t to_goid,
 *                      uint32_t stack, cs_err *err)
 *   bool cs_mb_name(cs_mb *mb, uint64_t goid, cs_sid name, cs_err *err)   its entry function, when it has none
 *   bool cs_mb_waiting_before(cs_mb *mb, uint64_t goid, cs_err *err)   goid, blocked, was
 *       waiting before the trace began (its wake-up's site says so)
 *   bool cs_mb_finish(cs_mb *mb, int64_t t_end, cs_err *err)   closes spans, lays out those of the
 *       goroutines not laid out as they ended (a goroutine's spans together, in any order of goroutines)
 *   void cs_mb_deinit(cs_mb *mb)                              frees the builder, not the model
 *   bool cs_mb_copy(const cs_mb *mb, cs_model *m, cs_mb *out, cs_err *err)
 *       out: mb's state building m, a cs_model_copy of mb's model (to finish a copy
 *       while mb goes on; a wake-up given to it would add its site again)
 *   bool cs_mb_join_fits(const cs_mb *mb, const cs_mb *b)
 *       whether cs_mb_join can take b over: not when b made a goroutine mb has
 *   bool cs_mb_join(cs_mb *mb, cs_mb *b, cs_model_map *map, cs_err *err)
 *       b (b->part) built, in a model of its own, what comes after the events mb was
 *       given: mb takes it over as if it had been given b's calls itself, map being
 *       b's model's strings and stacks in mb's (cs_model_map_make); map->g is set
 *       to where b's goroutines are. b is left empty (cs_mb_deinit it), and its model's
 *       wake-ups and goroutines unreadable (their pages go back as they are copied): free
 *       that model.
 * Times given to a builder increase, but for what cs_mb_create evens out.
 * CS_NO_GOID stands for "no goroutine" (legacy G 0 as unblocker, 1.22+ -1).
 */
#ifndef CS_BUILD_H
#define CS_BUILD_H

#include "model.h"

#define CS_NO_GOID UINT64_MAX

/* A run of one goroutine's spans, and the pages chunks are cut from (build_int.h, build.c). */
typedef struct cs_mb_chunk cs_mb_chunk;
typedef struct cs_mb_slab cs_mb_slab;

/* A goroutine's cursor: 56 bytes, kept while it may still change (cs_mb.cur,
 * by its cs_mb_gref's slot). */
typedef struct cs_mb_cur {
    int64_t t0;           /* start of the open span */
    int64_t last_t1;      /* end of its last span */
    int64_t k_base;       /* its last chunk's starts are over this */
    cs_mb_chunk *last;    /* its last chunk (they are linked newest first); while
                             cs_mb_finish lays them out, its first (linked oldest first) */
    uint32_t block_stack;
    cs_sid reason_name;
    uint32_t n_spans;     /* spans closed so far */
    uint32_t k_n, k_cap;  /* its last chunk's spans, and how many it takes before the
                             slow path: its room, or where its pages faulted in end */
    uint8_t state, reason;
    uint8_t part;         /* what this builder did with it (build.c P_*), for cs_mb_join */
    bool waited;          /* it began to wait in the trace (not waiting since before it) */
} cs_mb_cur;

/* Where a goroutine's cursor is: 16 bytes for every goroutine (a server's
 * trace holds millions, at most a few hundred alive at once). A live one's
 * is cs_mb.cur[slot]; one that ended as goroutines do (build.c cur_retire)
 * keeps only its last chunk (none once its spans are laid out), its count
 * of spans and its part, and the rest of its cursor follows from its end
 * (build.c cur_ended); one not given a state yet has none of these. */
typedef struct cs_mb_gref {
    cs_mb_chunk *last;    /* not live: its last chunk (its count in its header) */
    uint32_t slot;        /* live: its cursor's index in cs_mb.cur; 0 not live */
    uint32_t n_spans : 28, part : 3; /* not live: cs_mb_cur's */
    uint32_t laid : 1;    /* not live: its spans are laid out (cs_mb_lay), from its span_first */
} cs_mb_gref;

/* Spans laid out in the model's columns (model.h span_t0, span_t0_base,
 * span_wide_t0, span_state_reason), before the model has them: a
 * goroutine's as it ends (build_lay.c), the others' at cs_mb_finish,
 * which gives them to the model. The last block's starts are held in blk
 * until it is whole. */
typedef struct cs_mb_lay {
    uint32_t *t0;
    uint8_t *sr;
    int64_t *base;
    int64_t *wide;        /* its wide blocks' starts, CS_T0_BLOCK each */
    uint32_t n, cap;      /* spans laid out; room in t0 and sr, and for cap / CS_T0_BLOCK + 1 bases */
    uint32_t n_wide, cap_wide;
    int64_t blk[CS_T0_BLOCK];
    uint16_t kinds[CS_ST_COUNT]; /* model.h span_kinds */
} cs_mb_lay;

/* A span that does not end where its goroutine's next one begins. */
typedef struct cs_mb_far {
    int64_t t1;
    uint32_t g;           /* its goroutine */
    uint32_t span;        /* its place among the goroutine's spans */
} cs_mb_far;

/* goroutines looked up lately: a direct-mapped cache in front of g_index
 * (a goroutine's index never changes) and of its cursor's place */
#define CS_MB_RECENT 1024
typedef struct cs_mb_recent {
    uint64_t goid;
    uint32_t idx;         /* 0: empty */
    uint32_t slot;        /* cs_mb_gref.slot, kept with it (build.c cur_revive, cur_retire) */
} cs_mb_recent;

/* A goroutine made in a part (cs_mb.part), by one the part does not know;
 * or CS_NO_GOID: made again, by none or one it knows (the last making is
 * the one that counts). */
typedef struct cs_mb_parent {
    uint64_t goid;
    uint32_t g;
} cs_mb_parent;

/* chunks kept for reuse: of 2^1 to 2^(CS_MB_SPARE - 1) spans (the
 * biggest less than a page: one of a page or more gives its pages back) */
#define CS_MB_SPARE 10

/* wake-up sites used lately: a direct-mapped cache in front of site_slot */
#define CS_MB_SITES 256

/* A wake-up, in a part, of a goroutine whose block the part did not see
 * (and whose state it had not set either: state_before). */
typedef struct cs_mb_pre {
    uint32_t edge;
    bool state_before;
} cs_mb_pre;

typedef struct cs_mb {
    cs_model *m;
    bool one_thread;      /* the caller's: cs_mb_finish starts no thread (decoding with -j 1) */
    bool part;            /* the caller's: a part of the trace from a cut on, for cs_mb_join */
    cs_mb_pre *pre;       /* in a part: the wake-ups whose block is the join's to fill in */
    uint32_t n_pre, cap_pre;
    cs_mb_parent *parents;
    uint32_t n_parents, cap_parents;
    int64_t *first;       /* in a part: per goroutine it did not make, when it was first given a state */
    uint32_t cap_first;
    cs_mb_recent recent[CS_MB_RECENT];
    uint32_t *site_slot;  /* the model's wsites by the hash of their bytes: open addressing, a
                             site's index + 1 per slot (0 empty), at most half full */
    uint32_t site_cap;    /* slots, a power of two; 0 none (freed by cs_mb_finish) */
    uint32_t site_recent[CS_MB_SITES]; /* a site's index, by its stacks (build.c site_of) */
    cs_mb_gref *gref;     /* per goroutine index */
    uint32_t cap_gref;
    cs_mb_cur *cur;       /* the live goroutines' cursors, by slot (0 none) */
    uint32_t n_cur, cap_cur;
    uint32_t cur_free;    /* a slot given back, 0 none; each links the next by its block_stack */
    uint32_t n_span;      /* spans closed so far; the model has them once finished */
    cs_mb_slab *slabs;    /* newest first */
    cs_mb_chunk *spare[CS_MB_SPARE]; /* chunks moved out of or laid out (build.c chunk_move, build_lay.c chunk_give),
                                        by log2 of their room */
    cs_mb_far *far;
    uint32_t n_far, cap_far;
    cs_mb_lay lay;
    bool relay;           /* a goroutine laid out was given a state again: cs_mb_finish lays all out anew */
} cs_mb;

typedef struct cs_mb_create_desc {
    int64_t t;
    uint64_t goid;
    uint64_t parent_goid; /* CS_NO_GOID when unknown (e.g. existed at start) */
    cs_sid name;          /* entry function, 0 unknown */
    cs_state state;       /* initial state; 0 means runnable */
    cs_reason reason;     /* when state is blocked */
    bool at_start;        /* existed when tracing started */
} cs_mb_create_desc;

bool cs_mb_init(cs_mb *mb, cs_model *m, cs_err *err);
uint32_t cs_mb_g_find(cs_mb *mb, uint64_t goid, cs_err *err);
/* cs_mb_g: a goroutine looked up lately inline, the others (and new ones)
 * by cs_mb_g_find */
static inline uint32_t cs_mb_g(cs_mb *mb, uint64_t goid, cs_err *err)
{
    const cs_mb_recent *r = &mb->recent[goid & (CS_MB_RECENT - 1)];
    return r->idx && r->goid == goid ? r->idx : cs_mb_g_find(mb, goid, err);
}
bool cs_mb_create(cs_mb *mb, const cs_mb_create_desc *d, cs_err *err);
bool cs_mb_set(cs_mb *mb, int64_t t, uint64_t goid, cs_state st, cs_reason r,
               cs_sid reason_name, uint32_t stack, cs_err *err);
bool cs_mb_unblock(cs_mb *mb, int64_t t, uint64_t from_goid, uint64_t to_goid,
                   uint32_t stack, cs_err *err);
bool cs_mb_name(cs_mb *mb, uint64_t goid, cs_sid name, cs_err *err);
bool cs_mb_waiting_before(cs_mb *mb, uint64_t goid, cs_err *err);
bool cs_mb_finish(cs_mb *mb, int64_t t_end, cs_err *err);
void cs_mb_deinit(cs_mb *mb);
bool cs_mb_copy(const cs_mb *mb, cs_model *m, cs_mb *out, cs_err *err);
bool cs_mb_join_fits(const cs_mb *mb, const cs_mb *b);
bool cs_mb_join(cs_mb *mb, cs_mb *b, cs_model_map *map, cs_err *err);

#endif
