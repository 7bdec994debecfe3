/* decode/v2.h — what the files of the Go 1.22+ decoder (decode/v2_*.c) share.
 * Format and algorithms: docs/trace-format.md §4 (wire format, tables, the
 * reader loop and the ordering rules of Go's internal/trace, May 2025) and
 * §5.2 (Summarizer). Not a public header: only decode/v2_*.c include it.
 *
 * Pipeline, per generation, in file order:
 *   v2_gen.c     split the file into batches and generations (framing only)
 *   v2_tables.c  strings, stacks, CPU samples, frequency, clock snapshot
 *   v2_reader.c  per-M cursors merged by time (Go's heap, v2_heap.h), CPU
 *                samples, Sync events, strictly increasing timestamps
 *   v2_order*.c  Go's ordering/validation state machine (§4.7–4.9)
 *   v2_emit.c    public event kinds (§4.10) -> model builder, on_event
 *   v2_stats.c   Go 1.27's Summarizer (§5.2, §4.14)
 *   v2_split.c   with two threads: the ordering on a worker, emitting on
 *                the caller's thread, only the order crossing between them
 *   v2_cut.c     cuts inside generations: where, and cursors at a cut
 *   v2_front.c   Go's heap at a cut, replayed by time from the generation's start
 *   v2_ahead.c   statistics only: a later part of the file on a worker
 *   v2_keep.c    strings the ordering holds past their generation, on a stream
 *   v2_load.c    entry point: generation after generation
 *
 * Identifiers: goroutines, Ps and Ms get dense slots (cs_ids) on first
 * sight, so the hot path indexes arrays instead of hashing.
 */
#ifndef DEC_V2_H
#define DEC_V2_H

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "../core/build.h"
#include "../core/ids.h"
#include "../core/map.h"
#include "../core/pipe.h"
#include "buf.h"
#include "decode.h"

#define V2_NONE UINT64_MAX /* Go's NoGoroutine / NoProc / NoThread / NoTask */
#define V2_MAX_BATCH 65536u
#define V2_MAX_FRAMES 128u
#define V2_MAX_STRING 1024u

/* ---- event table (v2_spec.c) ---- */

enum {
    V2_EvNone = 0, V2_EvEventBatch, V2_EvStacks, V2_EvStack, V2_EvStrings, V2_EvString,
    V2_EvCPUSamples, V2_EvCPUSample, V2_EvFrequency, V2_EvProcsChange, V2_EvProcStart,
    V2_EvProcStop, V2_EvProcSteal, V2_EvProcStatus, V2_EvGoCreate, V2_EvGoCreateSyscall,
    V2_EvGoStart, V2_EvGoDestroy, V2_EvGoDestroySyscall, V2_EvGoStop, V2_EvGoBlock,
    V2_EvGoUnblock, V2_EvGoSyscallBegin, V2_EvGoSyscallEnd, V2_EvGoSyscallEndBlocked,
    V2_EvGoStatus, V2_EvSTWBegin, V2_EvSTWEnd, V2_EvGCActive, V2_EvGCBegin, V2_EvGCEnd,
    V2_EvGCSweepActive, V2_EvGCSweepBegin, V2_EvGCSweepEnd, V2_EvGCMarkAssistActive,
    V2_EvGCMarkAssistBegin, V2_EvGCMarkAssistEnd, V2_EvHeapAlloc, V2_EvHeapGoal,
    V2_EvGoLabel, V2_EvUserTaskBegin, V2_EvUserTaskEnd, V2_EvUserRegionBegin,
    V2_EvUserRegionEnd, V2_EvUserLog, V2_EvGoSwitch, V2_EvGoSwitchDestroy,
    V2_EvGoCreateBlocked, V2_EvGoStatusStack, V2_EvExperimentalBatch, V2_EvSync,
    V2_EvClockSnapshot, V2_EvEndOfGeneration,
    V2_EvExpFirst = 128, V2_EvExpLast = 136
};

/* Public event kinds of Go's reader (§4.10); index into v2_kind_names. */
typedef enum v2_kind {
    V2K_NONE = 0, V2K_SYNC, V2K_METRIC, V2K_LABEL, V2K_STACK_SAMPLE, V2K_RANGE_BEGIN,
    V2K_RANGE_ACTIVE, V2K_RANGE_END, V2K_TASK_BEGIN, V2K_TASK_END, V2K_REGION_BEGIN,
    V2K_REGION_END, V2K_LOG, V2K_STATE, V2K_EXPERIMENTAL, V2K_COUNT
} v2_kind;

typedef struct v2_spec {
    const char *name;
    uint8_t nargs;     /* varints after the type byte, dt included */
    uint8_t kind;      /* v2_kind */
    uint8_t timed;     /* first argument is a timestamp delta */
    uint8_t stack;     /* 1-based index (after dt) of the main stack argument, 0 none */
    uint8_t stack2;    /* a second stack argument (GoCreate's new_stack), 0 none */
    uint8_t strmask;   /* bit i: argument i (after dt) is a string id */
    uint16_t minver;   /* first header version with this type */
} v2_spec;

/* Spec of a type valid for `version`, or NULL. */
const v2_spec *dec__v2_spec(unsigned type, int version);
/* Spec of a type already known to be valid (hot path). */
extern const v2_spec dec__v2_specs[137];
#define V2_SPEC(type) (&dec__v2_specs[(type)])
extern const char *const dec__v2_kind_names[V2K_COUNT];


/* ---- generations (v2_gen.c, v2_tables.c) ---- */

typedef struct v2_batch {
    uint64_t data_off;  /* file offset of the data */
    uint32_t size;
    uint32_t next;      /* next batch of the same M in this generation, or UINT32_MAX */
    uint64_t ts;        /* base timestamp, clock units */
} v2_batch;

typedef struct v2_str { const uint8_t *p; uint32_t len; uint32_t sid1; } v2_str; /* sid1 = model sid + 1, 0 not yet */
typedef struct v2_stk { uint64_t off; uint32_t nframes; uint32_t mstack1; } v2_stk; /* mstack1 = model stack + 1 */
typedef struct v2_frame { uint64_t pc, func, file, line; } v2_frame;

typedef struct v2_sample {
    int64_t ts;          /* ns */
    uint64_t m, p, g, stk, off;
} v2_sample;

typedef struct v2_mrun { uint64_t m; uint32_t first, last; } v2_mrun;

typedef struct v2_gen {
    uint64_t gen;
    uint64_t off, end;        /* file bytes of its batches (while scanning: where the scan goes on) */
    uint64_t min_ts;          /* smallest batch ts, clock units */
    uint64_t freq;            /* clock units per second */
    double ns_per_unit;
    uint64_t ns_mul;          /* ns_per_unit when it is a whole number up to 1024, else 0 */
    bool has_freq, has_snapshot;
    bool ended;               /* wire 1.26+: its EndOfGeneration byte was read (g->end is past it) */
    v2_batch *b; uint32_t n_b, cap_b;      /* event batches */
    v2_batch *tb; uint32_t n_tb, cap_tb;   /* table batches; .next holds the kind byte */
    v2_mrun *ms; uint32_t n_ms, cap_ms;    /* Ms of event batches, in order of first appearance */
    cs_ids m_ids;
    v2_str *str; uint32_t n_str, cap_str; cs_ids str_ids;
    v2_stk *stk; uint32_t n_stk, cap_stk; cs_ids stk_ids;
    v2_frame *frames; uint32_t n_frames, cap_frames; cs_map pc_frame; /* pc -> first frame */
    v2_sample *samples; uint32_t n_samples, cap_samples;
    uint32_t n_experimental;  /* experimental batches (skipped) */
    uint64_t snap_units, snap_mono, snap_sec, snap_nsec;
} v2_gen;

/* Scans batch headers from `off` and collects one generation's batches.
 * *next_off = where the next generation starts (== f->size at the end).
 * On a framing error returns false; *trunc tells whether the error is the
 * file ending inside a batch (a cut-short trace) rather than bad bytes. */
bool dec__v2_gen_scan(const cs_file *f, uint64_t off, int version, v2_gen *g,
                      uint64_t *next_off, bool *trunc, cs_err *err);
/* Goes on with the scan of g where it ran out of bytes: at the batch the
 * file ended inside of (*trunc), or at f->size. */
bool dec__v2_gen_scan_more(const cs_file *f, int version, v2_gen *g, uint64_t *next_off, bool *trunc,
                           cs_err *err);
/* The last generation of a file may have been cut off at a batch boundary:
 * true when the tables written at its end are missing (*why says which). */
bool dec__v2_gen_incomplete(const v2_gen *g, int version, const char **why);
/* Parses the structural batches (tables) of a scanned generation. */
bool dec__v2_gen_tables(const cs_file *f, int version, v2_gen *g, cs_err *err);
void dec__v2_gen_deinit(v2_gen *g);
/* Go's timestamp conversion. Clamped to [0, 2^60] so that sums of times
 * from hostile files never overflow (V2_T_MAX). */
#define V2_T_MAX CS_T_MAX
static inline int64_t dec__v2_ns(const v2_gen *g, uint64_t units)
{
    if (units < (1ull << 40) && g->ns_mul) /* the same in integers: the double product is exact below 2^53 */
        return (int64_t)(units * g->ns_mul);
    double v = (double)units * g->ns_per_unit;
    return v >= (double)V2_T_MAX ? V2_T_MAX : v > 0 ? (int64_t)v : 0;
}
/* String of id in the generation: true when the id exists (0 always does). */
bool dec__v2_str(const v2_gen *g, uint64_t id, const uint8_t **p, uint32_t *len);
/* Model sid of a string id (interned on first use), 0 for unknown/empty. */
cs_sid dec__v2_sid(v2_gen *g, cs_model *m, uint64_t id, cs_err *err);
/* Adds the stack at slot (a stack of g with no model stack yet): out of
 * line, its frames on its own stack frame. */
uint32_t dec__v2_stack_add(v2_gen *g, const cs_file *f, cs_model *m, uint32_t slot, cs_err *err);
/* Model stack index of a stack id (added on first use), 0 none. */
static inline uint32_t dec__v2_stack(v2_gen *g, const cs_file *f, cs_model *m, uint64_t id, cs_err *err)
{
    uint32_t slot = id ? cs_ids_find(&g->stk_ids, id) : UINT32_MAX;
    if (slot == UINT32_MAX)
        return 0;
    uint32_t ms1 = g->stk[slot].mstack1;
    return ms1 ? ms1 - 1 : dec__v2_stack_add(g, f, m, slot, err);
}
static inline bool dec__v2_stack_ok(const v2_gen *g, uint64_t id)
{
    return id == 0 || cs_ids_find(&g->stk_ids, id) != UINT32_MAX;
}

/* ---- events and ordering (v2_order*.c) ---- */

typedef struct v2_ctx { uint64_t g, p, m; } v2_ctx;
/* Wire statuses of goroutines and Ps (the ordering's own, not Go's public states). */
enum { GS_BAD = 0, GS_RUNNABLE, GS_RUNNING, GS_SYSCALL, GS_WAITING };
enum { PS_BAD = 0, PS_RUNNING, PS_IDLE, PS_SYSCALL, PS_ABANDONED };
enum { GC_UNDET = 0, GC_NOT_RUNNING, GC_RUNNING };
enum { V2_MUSTNOT = 0, V2_MAY = 1, V2_MUST = 2 };
/* Go's public goroutine and proc states (docs/trace-format.md §4.6). */
enum { V2G_UNDET = 0, V2G_NOTEXIST, V2G_RUNNABLE, V2G_RUNNING, V2G_WAITING, V2G_SYSCALL };
enum { V2P_UNDET = 0, V2P_NOTEXIST, V2P_RUNNING, V2P_IDLE };

typedef struct v2_ev {
    int64_t ts;           /* ns */
    uint64_t off;         /* file offset of the type byte */
    uint64_t args[5];     /* after dt */
    uint64_t extra[2];    /* smuggled: old state, task parent */
    const uint8_t *str;   /* smuggled string: STW kind (Begin and End), TaskEnd name */
    uint32_t str_len;
    v2_ctx ctx;           /* context before the event */
    uint8_t type;
    uint8_t synth;        /* made up by the ordering (GoSwitch, GoDestroySyscall) */
} v2_ev;

/* Strings the ordering compares point into the mapped file (a stream's:
 * into copies, dec__v2_keep): it never touches the model, so it can run on
 * its own thread (v2_split.c). */
typedef struct v2_region { uint64_t task; const uint8_t *name; uint32_t len; } v2_region;
/* Go's userRegion equality (order.go, endRegion): task and name. */
static inline bool dec__v2_same_region(const v2_region *a, const v2_region *b)
{
    return a->task == b->task && a->len == b->len && (!a->len || !memcmp(a->name, b->name, a->len));
}
typedef struct v2_range { const uint8_t *desc; uint32_t len; uint8_t type; } v2_range; /* type = the Begin event */

/* What few goroutines have at a time, out of the way of the state every
 * event reads: special ranges and user regions in flight. */
typedef struct v2_gext {
    v2_range ranges[4];   /* in-flight special ranges (STW, mark assist): v2_gst.n_ranges of them */
    v2_region *reg; uint32_t n_reg, cap_reg; /* open user regions, innermost last */
    /* ahead (v2_ahead.c), of a goroutine whose state is taken from before
     * the cut: the regions the part ended with none of its own open, in
     * the order it ended them; the innermost ones open at the cut, as far
     * as there were any (checked on join) */
    v2_region *pre; uint32_t n_pre, cap_pre;
} v2_gext;

/* v2_gst.before, v2_pst.before, ahead (v2_ahead.c): its state is taken
 * from before the cut, the part has met its mark assists (a goroutine's)
 * or sweeps (a proc's), and it took one to be in flight at the cut. */
enum { V2_BEFORE = 1, V2_RANGE_MET = 2, V2_RANGE_IN = 4 };

typedef struct v2_gst {   /* 40 bytes: a thousand goroutines' fit a core's first-level cache */
    uint8_t status, exists, n_ranges, before;
    uint32_t sum_slot;    /* the slot + 1 of its summary in the Summarizer of the same thread (the
                             hot path's; 0: not looked up yet) */
    uint64_t id;
    uint64_t seq_gen, seq;
    v2_gext *x;           /* NULL until it first has a range or a region */
} v2_gst;

typedef struct v2_pst {
    uint8_t status, exists, n_ranges, before;
    uint64_t id;
    uint64_t seq_gen, seq;
    v2_range ranges[2];
} v2_pst;

typedef struct v2_mst { uint64_t id, g, p; } v2_mst;

/* Go's ordering rules, each once (they read the types above). */
#include "v2_rules.h"

/* A part of a trace ordered ahead (v2_ahead.c) starts from a state it does
 * not know: an M's goroutine and P are V2_UNK until the part says, and
 * whatever it takes for granted of the state before is written down here,
 * to be checked against the real one. */
#define V2_UNK (V2_NONE - 1)
enum {
    V2A_G_HAS = 1,  /* goroutine id existed with status st, the ranges its v2_gst.before says
                       (V2_RANGE_IN: one mark assist; else none), and its innermost regions
                       v2_gext.pre as far as it had any */
    V2A_G_SEQ,      /* ... and with sequence number v in the cut generation */
    V2A_P_HAS,      /* proc id existed with status st, and the ranges its v2_pst.before says */
    V2A_P_SEQ,      /* ... and with sequence number v in the cut generation */
    V2A_P_NONE,     /* proc id did not exist */
    V2A_M_G,        /* thread id had goroutine v (V2_NONE: none) */
    V2A_M_P,        /* thread id had proc v (V2_NONE: none) */
    V2A_GC,         /* the first GC event (type st, sequence v; id: in the first generation) was ready and valid */
    V2A_TASK_NONE,  /* task id was not live */
};
typedef struct v2_assume { uint8_t kind, st; uint64_t id, v; } v2_assume;
/* What an M's own events just before a cut say (v2_cut.c): its goroutine
 * (status gst, sequence gseq) and proc (pst, pseq; PS_BAD: a proc whose
 * status and sequence are for later events to say), V2_UNK when they do
 * not say, and the time of its last event before the cut (INT64_MIN:
 * none). */
typedef struct v2_look { uint64_t g, p, gseq, pseq; uint8_t gst, pst; int64_t last; } v2_look;

typedef struct v2_task { uint64_t id, parent; const uint8_t *name; uint32_t len, live; } v2_task;

/* Copies of strings the ordering holds past their generation (v2_keep.c). */
typedef struct v2_keep {
    bool on;              /* a stream: the bytes of a generation go once it is decoded */
    v2_str *s; uint32_t n, cap;
    cs_map index;         /* hash of the bytes -> index into s */
} v2_keep;

typedef struct v2_order {
    cs_ids gids, pids, mids;
    v2_gst *g; uint32_t cap_g, n_g; /* gids finds a goroutine's place in g (dec__v2_gslot) */
    uint32_t *g_free; uint32_t n_g_free, cap_g_free; /* places in g of goroutines gone (not ahead) */
    v2_pst *p; uint32_t cap_p;
    v2_mst *m; uint32_t cap_m;
    v2_task *tasks; uint32_t n_tasks, cap_tasks; cs_ids task_ids;
    uint64_t gc_seq, initial_gen;
    uint8_t gc_state;     /* 0 undetermined, 1 not running, 2 running */
    bool ahead;           /* ordering a part ahead: assume and note (v2_ahead.c) */
    uint64_t cut_gen;     /* ahead: the generation it starts inside of, where anything not
                             seen yet may have been seen before */
    bool gc_seen;         /* ahead: a GC event was ordered */
    v2_assume *as; uint32_t n_as, cap_as;
    uint64_t *g_none; uint32_t n_g_none, cap_g_none; /* ahead: goroutines that did not exist, as ids
                             alone (a server's part makes a million, each taken not to exist) */
    /* where ready events go, in order (v2_reader.c: emit or pass to the emitting thread) */
    bool (*out)(void *ud, const v2_ev *ev, v2_ctx ctx, cs_err *err);
    void *out_ud;
    v2_keep keep;
} v2_order;

/* Go's Advance: *ok=false means "not ready yet"; false return = fatal error.
 * May rewrite ev's arguments (Go smuggles old states through them).
 * `m` is the M slot of the batch (UINT32_MAX for M -1). */
bool dec__v2_advance(v2_order *o, v2_gen *g, v2_ev *ev, uint32_t mslot,
                     bool *ok, cs_err *err);
void dec__v2_order_deinit(v2_order *o);
/* Lets the goroutines' states go (40 bytes each, every goroutine the trace
 * had) once the last event is ordered: the model's spans are laid out
 * after, in the room. */
void dec__v2_order_end_gs(v2_order *o);
/* The string p[0..len) as the ordering may hold it past its generation:
 * p itself unless o->keep.on, else a copy that lasts as long as o (NULL,
 * with err set, when out of memory). */
const uint8_t *dec__v2_keep(v2_order *o, const uint8_t *p, uint32_t len, cs_err *err);
void dec__v2_keep_deinit(v2_keep *k);
uint32_t dec__v2_mslot(v2_order *o, uint64_t mid, cs_err *err);
/* The place in o->g of goroutine goid, made when it has none: the place of
 * one gone (dec__v2_g_gone), else a new one, zeroed; UINT32_MAX out
 * of memory. A server's trace has millions of goroutines, tens alive at once. */
uint32_t dec__v2_gslot(v2_order *o, uint64_t goid, cs_err *err);
/* Goroutine g is gone (GoDestroy): as Go's ordering deletes its state
 * (order.go), its id is found no more and its place is another's next.
 * Ahead, one whose state was taken from before the part stays, for the
 * join to end it there too (v2_ahead.c put_g); one the part made goes as
 * well: named again, it would be taken for one from before the part,
 * which the join's checks refuse (a server's part makes a million). */
bool dec__v2_g_gone(v2_order *o, v2_gst *g, cs_err *err);
bool dec__v2_push(v2_order *o, const v2_ev *ev, v2_ctx ctx, cs_err *err);
/* helpers shared by v2_order.c and v2_order_res.c */
static inline v2_gst *dec__v2_gget(v2_order *o, uint64_t goid)
{
    uint32_t s = cs_ids_get(&o->gids, goid, false, NULL);
    return s != UINT32_MAX && o->g[s].exists ? &o->g[s] : NULL;
}
static inline v2_pst *dec__v2_pget(v2_order *o, uint64_t pid)
{
    uint32_t s = cs_ids_get(&o->pids, pid, false, NULL);
    return s != UINT32_MAX && o->p[s].exists ? &o->p[s] : NULL;
}
static inline v2_mst *dec__v2_mget(v2_order *o, uint64_t mid)
{
    uint32_t s = mid == V2_NONE ? UINT32_MAX : cs_ids_get(&o->mids, mid, false, NULL);
    return s == UINT32_MAX ? NULL : &o->m[s];
}
bool dec__v2_reqs_fail(v2_ctx c, int m, int p, int g, uint64_t off, cs_err *err);
/* Go's validateCtx (dec__v2_ctx_holds), failing with Go's message. */
static inline bool dec__v2_reqs(v2_ctx c, int m, int p, int g, uint64_t off, cs_err *err)
{
    return dec__v2_ctx_holds(c, m, p, g) || dec__v2_reqs_fail(c, m, p, g, off, err);
}
bool dec__v2_order_res(v2_order *o, v2_gen *gen, v2_ev *e, v2_ctx cur,
                       bool *ok, cs_err *err);
/* Frees a goroutine's ranges and regions (NULL: nothing). */
void dec__v2_gext_free(v2_gext *x);
bool dec__v2_has_range(const v2_range *r, uint8_t n, uint8_t type, const uint8_t *desc, uint32_t len);
/* Ahead: notes an assumption, or that goroutine id did not exist (false
 * on allocation failure); or gives up on the generation (always false: the
 * generation is ordered again in turn). */
bool dec__v2_assume(v2_order *o, uint8_t kind, uint8_t st, uint64_t id, uint64_t v, cs_err *err);
bool dec__v2_assume_g_none(v2_order *o, uint64_t id, cs_err *err);
bool dec__v2_not_ahead(uint64_t off, const char *why, cs_err *err);
/* Ahead from inside generation gen: M slot `mslot` was as look says
 * before the cut (noted, with its goroutine and proc). */
bool dec__v2_order_look(v2_order *o, uint64_t gen, uint32_t mslot, const v2_look *k, cs_err *err);


/* ---- public events, model, stats (v2_emit.c, v2_stats.c) ---- */


typedef struct v2_trans {   /* a StateTransition */
    bool is_g;              /* goroutine (else P) */
    uint64_t id;
    uint8_t from, to;
    cs_sid reason;          /* Go's reason string */
    uint64_t stack_id;      /* transition stack (generation stack id), 0 none */
} v2_trans;

/* When a goroutine's first transition says it was first in its state: one
 * first seen through its status (it existed before the trace, or the
 * window) was in that state since the last Sync, one coming into being at
 * its event (Go's Summarizer, summary.go: the GoUndetermined case; the
 * model draws it so too). */
static inline int64_t dec__v2_first_since(const v2_trans *t, int64_t sync_ts, int64_t ts)
{
    return t->from == V2G_UNDET ? sync_ts : ts;
}

typedef struct v2_kv { cs_sid key; uint32_t next; int64_t v; } v2_kv; /* list node; key = model sid */

typedef struct v2_sg {      /* Summarizer state of one goroutine (GoroutineSummary): 176 bytes, the
                               hot path's fields (v2_hot.h) in its first 64, no padding */
    uint8_t present;               /* 0 no summary; 1 yes; 2 (ahead) one going on from before the part
                                      that has not left its first state yet (the hot path leaves it alone) */
    bool has_syscall_p;            /* syscallingG entry present (syscall_p) */
    bool inherited;                /* ahead: see first_old */
    uint8_t first_old;
    cs_sid last_block_reason;
    int64_t last_start, last_runnable, last_block; /* pending (Go's private goroutineSummary) */
    int64_t sched, exec, start;
    uint32_t block_kv_hit;         /* the hot path's: the BlockTimeByReason entry the last unblock added to */
    uint32_t block_kv, range_kv;   /* BlockTimeByReason, RangeTime: list heads, 0 empty */
    cs_sid name;
    uint32_t last_range_kv;        /* pending lastRangeTime; v == 0 means deleted */
    uint32_t before_kv;            /* ahead: ranges that may be open since before the part, by name: the
                                      time up to which Go adds from lastRangeTime then (done on join) */
    uint64_t goid, pc;
    int64_t creation, end, syscall, syscall_block, total;
    int64_t last_syscall, last_syscall_block; /* pending */
    uint64_t syscall_p;
    /* ahead (v2_ahead.c): the summary goes on from one before the part,
     * which leaves state first_old at first_t (Go's transition out, done on join) */
    int64_t first_t;
    uint64_t first_sys_p;          /* ... leaving a syscall: the syscallingP key Go deletes then (V2_UNK: not known) */
} v2_sg;
_Static_assert(sizeof(v2_sg) == 176, "a summary has no padding");

/* Ahead: a sweep of proc p, ended in the part by goroutine goid, which
 * rangesP before the part must have had (p -> goid). */
typedef struct v2_sweep { uint64_t p, goid; } v2_sweep;

typedef struct v2_sum {
    cs_ids ids;                    /* goroutine id -> slot in g */
    v2_sg *g; uint32_t cap_g, n_g; /* slots below n_g are set (zero or a summary); the rest not touched */
    v2_kv *kv; uint32_t n_kv, cap_kv; /* kv[0] unused */
    cs_map sys_p;                  /* syscallingP: P id -> goroutine slot */
    cs_map range_p;                /* rangesP (sweeps): P id -> goroutine slot */
    int64_t last_ts, sync_ts;
    cs_sid sid_sweep, sid_assist, sid_forever;
    bool warm;                     /* sids interned and sync_ts set: the hot path may go */
    bool ahead;                    /* summarizing a part ahead (v2_ahead.c) */
    bool sync_taken;               /* ahead: sync_ts is the time taken for the Sync of the cut's generation */
    bool sync_used;                /* ... and a range active since then needed it (checked on join) */
    cs_map sys_seen;               /* ahead: P ids of sys_p looked at or set */
    uint64_t *sys_none; uint32_t n_sys_none, cap_sys_none; /* ahead: P ids sys_p had no entry for */
    cs_map range_seen;             /* ahead: P ids of range_p set or looked at */
    v2_sweep *sweeps; uint32_t n_sweeps, cap_sweeps; /* ahead: rangesP entries the part took to be there */
} v2_sum;

bool dec__v2_sum_event(v2_sum *s, cs_model *m, const v2_ev *e, uint8_t kind,
                       const v2_trans *tr, v2_gen *g, const cs_file *f, cs_err *err);
bool dec__v2_sum_finish(v2_sum *s, cs_stats *out, cs_err *err);
/* Joins the Summarizer of a part summarized ahead (a, strings in am) onto
 * s (strings in m), as if s had gone on through it; only when what a took
 * for granted is so (dec__v2_sum_fits). a's summaries go back to the
 * system as they are read: a is only to be freed after. */
bool dec__v2_sum_fits(v2_sum *s, const v2_sum *a);
bool dec__v2_sum_join(v2_sum *s, cs_model *m, v2_sum *a, const cs_model *am, cs_err *err);
void dec__v2_sum_deinit(v2_sum *s);

/* An open model range: range idx of kind/key, and the open ones of its
 * kind/key it is inside of (outer) and that are inside of it (inner),
 * UINT32_MAX none: user regions nest (v2_sink.open_of). */
typedef struct v2_open { uint64_t key; uint32_t idx, outer, inner; uint8_t kind; } v2_open;
/* In a part: a range of kind/key closed at t that the part did not open
 * (idx UINT32_MAX), or the part's range idx, in progress since a Sync, that
 * may be one open before the cut (cut_sync: the Sync of the cut's
 * generation, whose time the join knows): the join's to settle, in this
 * order. */
typedef struct v2_pend { uint64_t key; int64_t t; uint32_t idx; uint8_t kind; bool cut_sync; } v2_pend;
/* In a part: wake-up `edge` of its model came from the goroutine of M `m`,
 * which the part did not know yet (V2_UNK): the join's to fill in. */
typedef struct v2_unk { uint64_t m; uint32_t edge; } v2_unk;

typedef struct v2_sink {
    const dec_desc *d;
    uint8_t nargs[256];     /* dec__v2_nargs of the version */
    const cs_file *f;
    int version;
    cs_model *m;
    cs_mb mb;
    v2_order *o;
    v2_sum *sum;            /* NULL when stats are not wanted */
    int64_t last_ts;        /* the last emitted event's time (dec__v2_after_last) */
    int64_t sync_ts;        /* the last Sync's time */
    uint64_t syncs;
    uint64_t n_events;
    int64_t first_ts;       /* the first emitted event's own time, before the fix-up (a part's join) */
    uint8_t *rclass; uint32_t cap_rclass;   /* model sid -> cs_reason (0 = not yet) */
    uint64_t rs_gen, rs_id; cs_sid rs_sid;  /* last GoBlock reason: string id of generation rs_gen -> sid */
    v2_open *open; uint32_t n_open, cap_open;
    cs_map open_of[CS_RK_COUNT]; /* per kind: key -> its innermost range in open */
    bool fast_order;        /* the hot path (v2_hot.h) may order and decode */
    bool fast_emit;         /* ... and emit: the sink only summarizes */
    bool part;              /* its model is a part's, from a cut on (v2_ahead.c) */
    bool odd;               /* ... that met what only the part before could place: an M's
                               goroutine or P not known yet (V2_UNK) but as a waker */
    v2_pend *pend; uint32_t n_pend, cap_pend; /* ... the ranges that may go on from before */
    v2_unk *unk; uint32_t n_unk, cap_unk; /* ... the wakers */
} v2_sink;

/* Model side of one event (v2_model.c). */
bool dec__v2_model_event(v2_sink *s, v2_gen *g, const v2_ev *e, uint8_t kind, const v2_trans *t,
                         cs_err *err);
void dec__v2_model_close_ranges(v2_sink *s, int64_t t_end);
/* Frees what the sink holds for its model (not the model). */
void dec__v2_model_sink_free(v2_sink *s);
/* A part's model, w's (from its cut on, built on a worker), onto s's,
 * which has every event before the cut, as if s had built it itself:
 * whether it can be (dec__v2_model_fits), then the join. g is the
 * generation the cut is in, as s read it: w's first stacks, those of w's
 * model below n_cut_stk, are its stacks at the slots cut_stk gives. */
bool dec__v2_model_fits(const v2_sink *s, const v2_sink *w);
bool dec__v2_model_join(v2_sink *s, v2_sink *w, const v2_gen *g, const uint32_t *cut_stk, uint32_t n_cut_stk,
                        cs_err *err);

/* Go's strictly increasing timestamp fix-up (docs/trace-format.md §4.8):
 * the time an event read at ts is emitted at, after s's last. */
static inline int64_t dec__v2_after_last(const v2_sink *s, int64_t ts)
{
    return ts <= s->last_ts ? s->last_ts + 1 : ts;
}

/* Hands one ordered event to the model, the Summarizer and on_event.
 * Applies the timestamp fix-up first. */
bool dec__v2_emit(v2_sink *s, v2_gen *g, v2_ev *e, cs_err *err);
/* Emits a Sync event (kind V2K_SYNC) at time ts. */
bool dec__v2_emit_sync(v2_sink *s, v2_gen *g, int64_t ts, cs_err *err);
bool dec__v2_emit_sample(v2_sink *s, v2_gen *g, const v2_sample *smp, cs_err *err);

/* ---- one M's events, decoded one at a time (v2_reader.c) ---- */

typedef struct v2_cur {
    v2_ev ev;             /* the M's next event */
    dec_buf b;            /* current batch */
    int64_t last;         /* previous event time, ns; 0 = batch not entered */
    size_t fast_len;      /* dec__v2_cur_fast may decode while b.pos is below this */
    uint32_t batch;       /* current batch index, UINT32_MAX at the end */
    uint32_t mslot;       /* the M's slot in v2_order, UINT32_MAX for M -1 */
    uint64_t entered;     /* bytes of the batches entered (progress) */
} v2_cur;

/* Which type bytes start an event of this version, with their varint
 * counts (dt included); 0 = not an event. */
void dec__v2_nargs(int version, uint8_t nargs[256]);
/* Cursor c at the start of batch b, its first event not decoded yet (its
 * M slot kept); dec__v2_cur_open: at the first batch of the generation's
 * i-th M. */
void dec__v2_cur_batch(v2_cur *c, const v2_gen *g, const cs_file *f, uint32_t b);
static inline void dec__v2_cur_open(v2_cur *c, const v2_gen *g, const cs_file *f, uint32_t i)
{
    dec__v2_cur_batch(c, g, f, g->ms[i].first);
}
/* Decodes the M's next event into c->ev; false + *more=false at the end.
 * With `done`, the pages of each batch c leaves go back with done's batch
 * (the caller flushes it): the last reader of a batch gives it back, so
 * that a big generation holds little more of the file than the batches
 * its cursors are in (a page read again comes back from the file). */
bool dec__v2_cur_next(v2_cur *c, const v2_gen *g, const cs_file *f, const uint8_t *nargs, int version,
                      cs_releases *done, bool *more, cs_err *err);

/* ---- ordering on a worker, emitting on the caller's thread (v2_split.c) ----
 * The worker runs the reader loop and passes on only the order: runs of
 * events from one M that the caller decodes again on cursors of its own,
 * with the context it predicts; every event it could not predict (made up
 * by the ordering, rewritten, or in an unexpected context) goes whole
 * through a second pipe, as do Sync and CPU samples. */

typedef struct v2_note { v2_ev ev; v2_ctx ctx; bool own; } v2_note; /* own: ev is not copied */

typedef struct v2_split {
    cs_pipe runs, wholes;
    v2_sink ws;            /* the worker's copy of the sink: the original is busy on the other core */
    v2_gen *g;
    v2_cur *wc;            /* the worker's cursors */
    v2_ctx *wpred;         /* the worker's copy of the caller's predictions */
    const v2_ev *own;      /* the cursor event being ordered */
    v2_note notes[8];      /* what ordering it emitted (GoSwitch: 3 events) */
    uint32_t n_notes, run_ci, run_len;
    cs_err werr;
    bool wok;
} v2_split;

/* The worker's side, called by the reader loop: before ordering a cursor's
 * event, for every event the ordering emits, and once the cursor's event
 * was ordered. */
static inline void dec__v2_split_begin(v2_split *sp, const v2_ev *own) { sp->own = own, sp->n_notes = 0; }
void dec__v2_split_copy(v2_split *sp, const v2_ev *e, v2_ctx ctx);
static inline void dec__v2_split_note(v2_split *sp, const v2_ev *e, v2_ctx ctx)
{
    if (e == sp->own && sp->n_notes < 8) {
        v2_note *t = &sp->notes[sp->n_notes++];
        t->own = true, t->ctx = ctx;
    } else {
        dec__v2_split_copy(sp, e, ctx);
    }
}
bool dec__v2_split_slow(v2_split *sp, uint32_t ci, cs_err *err);
bool dec__v2_split_flush(v2_split *sp, cs_err *err);
/* Types whose ordering neither rewrites the event nor touches another M. */
extern const uint8_t dec__v2_plain[256];
/* Bytes the fast decoders (dec__v2_cur_fast, v2_front.c) may read of an
 * event with no check: its type and six varints of at most 10 bytes. */
#define V2_FAST_NEED 61
#define V2_RUN_BITS 12u
#define V2_RUN_MAX ((1u << V2_RUN_BITS) - 1)
/* The common case inline: one plain event, emitted as it is, leaving its M
 * in the predicted context, joins the run. (It was emitted in the predicted
 * context: every M's context equals the prediction after every event, and
 * the ordering emits a plain event in its M's context.) */
static inline bool dec__v2_split_done(v2_split *sp, uint32_t ci, cs_err *err)
{
    const v2_ev *own = &sp->wc[ci].ev;
    v2_ctx *pred = &sp->wpred[ci];
    if (sp->n_notes != 1 || !sp->notes[0].own || !dec__v2_plain[own->type])
        return dec__v2_split_slow(sp, ci, err);
    v2_ctx after = *pred;
    dec__v2_m_after(&after, own->type, own);
    uint32_t ms = sp->wc[ci].mslot;
    if (ms != UINT32_MAX && (sp->ws.o->m[ms].g != after.g || sp->ws.o->m[ms].p != after.p))
        return dec__v2_split_slow(sp, ci, err);
    if (sp->run_len && (sp->run_ci != ci || sp->run_len == V2_RUN_MAX) && !dec__v2_split_flush(sp, err))
        return false;
    *pred = after;
    sp->run_ci = ci;
    sp->run_len++;
    return true;
}
bool dec__v2_split_item(v2_split *sp, const v2_ev *e, cs_err *err);  /* a Sync or CPU sample */

/* Orders one generation on a worker and emits it here; false on error. */
bool dec__v2_split_gen(v2_sink *s, v2_gen *g, cs_err *err);

/* Go's frontier: the Ms' cursors (indices into the generation's Ms) in the
 * order its heap holds them. Go breaks ties between Ms' events at the same
 * time by where they sit in the heap, so a part ordered from a cut is Go's
 * only if it starts from Go's frontier there. */
typedef struct v2_front { uint32_t *c, n; } v2_front;

/* The part of a generation a reader orders: the events at or after `from`
 * and before `to` (raw times, ns; INT64_MIN: from its start, its Sync
 * included; INT64_MAX: to its end). Go's order of the whole generation is
 * that of the parts one after the other unless an event before the cut
 * waits for one after it: then the reader is `stuck` at `to`. With
 * go_on it goes on past `to` to the end of the generation; without, it
 * gives up (not ordered ahead). A reader from a cut starts from the
 * frontier `start` (not owned); unless stuck, it leaves its frontier where
 * it stops (at `to`, or empty at the end) in `end` (allocated: the caller
 * frees it). */
typedef struct v2_span { int64_t from, to; bool go_on, stuck; v2_front start, end; } v2_span;

/* Orders one generation (v2_reader.c), or the part `span` of it (NULL:
 * all), on cursors c opened for every M with their M slots (at span->from:
 * dec__v2_open_at), and emits inline or (sp) notes for the emitter. */
bool dec__v2_read_gen(v2_sink *s, v2_gen *g, v2_split *sp, v2_cur *c, v2_span *span, cs_err *err);
/* Orders and emits one generation, or the part span of it, on this thread. */
bool dec__v2_read_gen_here(v2_sink *s, v2_gen *g, v2_span *span, cs_err *err);
/* The frontier Go's reader has when the least time of the Ms' next events
 * first reaches t, if every M's event it took before was ready (no M
 * waited for another): the heap built as at the generation's start, then
 * each root advanced in turn, by time alone. Cursors c (their M slots
 * kept) are left at each M's first event at or after t; fr->c allocated. */
bool dec__v2_front_at(v2_sink *s, v2_gen *g, v2_cur *c, int64_t t, v2_front *fr, cs_err *err);

/* ---- cuts inside generations (v2_cut.c) ---- */

/* A cut is at a byte of the file: inside the generation whose batches span
 * it, `at` bytes of its event batches in (those before the byte, but no
 * fewer than 2%): true when pos is inside g. */
bool dec__v2_cut_in(const v2_gen *g, uint64_t pos, uint64_t *at);
/* The time of a cut `at` bytes into generation g: the base time of the
 * batch, taken in time order, in which the bytes before it reach `at`
 * (INT64_MAX: past the end). */
bool dec__v2_cut_time(const v2_gen *g, uint64_t at, int64_t *t, cs_err *err);
/* Of g's events (its tables read) before time t, each M's from its first
 * batch or (tail) from its last only, and its CPU samples: how many (n),
 * and the latest time, before Go's reader stamps it (*last, no earlier
 * than g's earliest). */
bool dec__v2_gen_tally(const v2_gen *g, const cs_file *f, const uint8_t *nargs, int version, bool tail, int64_t t,
                       uint64_t *n, int64_t *last, cs_err *err);
/* Cursor of g's i-th M at its first event at or after t (c->ev; batch
 * UINT32_MAX when none), and with lk, what its events before t say. */
bool dec__v2_cur_seek(v2_cur *c, const v2_gen *g, const cs_file *f, const uint8_t *nargs, int version, uint32_t i,
                      int64_t t, v2_look *lk, cs_err *err);
/* Cursors c for every M of g with their M slots, at its start or (from >
 * INT64_MIN) seeked to from, with lk[i] filled when lk. */
bool dec__v2_open_at(v2_sink *s, v2_gen *g, v2_cur *c, int64_t from, v2_look *lk, cs_err *err);

/* ---- the decode, generation after generation (v2_load.c) ---- */

typedef struct v2_run v2_run;
/* A decode of f (d and f must outlive it) into out (and stats, or NULL);
 * NULL with err on failure. */
v2_run *dec__v2_run_create(const dec_desc *d, cs_file *f, int version, cs_model *out, cs_stats *stats,
                           cs_err *err);
/* Decodes generations: with `wait` to the end of the input, reading a
 * stream as it needs; without, those wholly in hand (the one the bytes stop
 * inside of waits for more; with `settled`, one before wire 1.26 that has
 * its tables is taken as complete). *added (or NULL): how many. */
bool dec__v2_run_gens(v2_run *r, bool wait, bool settled, uint32_t *added, cs_err *err);
/* The input's last generation was decoded (or the decode failed). */
bool dec__v2_run_is_done(const v2_run *r);
/* After the last generation: the last Sync; the model and the statistics closed. */
bool dec__v2_run_finish(v2_run *r, cs_err *err);
/* out: what dec__v2_run_finish would make of the model now, as a copy
 * (the decode goes on); on failure nothing to free. */
bool dec__v2_run_model(const v2_run *r, cs_model *out, cs_err *err);
void dec__v2_run_destroy(v2_run *r);

/* ---- a later part ordered, summarized and modelled on a worker (v2_ahead.c) ---- */

typedef struct v2_ahead v2_ahead;
/* Starts a worker on the part of the file from the cut at byte `from` up
 * to the cut at byte `to` (0: the end), with s's settings; NULL when no
 * thread could be had. */
v2_ahead *dec__v2_ahead_start(const v2_sink *s, uint64_t from, uint64_t to, bool settles);
/* Where its part begins: `from` at once, or with `settles` (a single part
 * to the end), where the work is evened out (v2_ahead.c settled_cut:
 * later in the same generation, or for the model where it is or at the
 * next generation's start, when near), once the worker has found that
 * generation. */
uint64_t dec__v2_ahead_cut(v2_ahead *a);
/* Waits for the worker, once s has emitted every event before its cut
 * (g: the generation it is in, as s read it), with Go's frontier fr
 * there; *used: its result was exact and is now s's
 * (*gens: the generations it ordered from their start; *stop: the offset
 * of the generation its `to` is in; fr: the frontier there), and s goes on
 * at its `to`; else s orders the part itself. Frees a. False only on an
 * error of s (out of memory). */
bool dec__v2_ahead_join(v2_sink *s, v2_ahead *a, const v2_gen *g, v2_front *fr, bool *used, uint32_t *gens,
                        uint64_t *stop, cs_err *err);
/* Stops the worker soon and frees a, its result unused (the caller failed). */
void dec__v2_ahead_drop(v2_ahead *a);
/* Whether the worker has given up already (its part is the caller's). */
bool dec__v2_ahead_failed(v2_ahead *a);

#endif
