/* decode/legacy.h — what the files of the legacy decoder (Go 1.5–1.21 wire
 * formats, docs/trace-format.md §3) share. Not a public header: only
 * decode/legacy_*.c include it.
 *
 * Pipeline (one file per step):
 *   legacy_table.c  event table per version, argument counts (§3.2, §3.4, §7)
 *   legacy_rec.c    reading one record through dec_buf (§3.2)
 *   legacy_scan.c   pass 1: index batches per P, strings, stacks, frequency,
 *                   CPU samples; validates every record (§3.3, §3.7)
 *   legacy_cursor.c one P's events decoded lazily, with their order1007
 *                   state transitions (§3.3, §3.9)
 *   legacy_order.c  pass 2: order1007 k-way merge over per-P cursors,
 *                   order1005 sort (§3.9)
 *   legacy_post.c   Go's post-merge steps on a materialised event list
 *                   (syscall exit times, stable sort, futile wake-ups, §3.8)
 *   legacy_check.c  postProcessTrace validation (§3.10)
 *   legacy_stats.c  GoroutineStats (§5.1)
 *   legacy_hot.h    check + stats fused for the common events (fast path)
 *   legacy_model.c  model building through core/build.h
 *   legacy_load.c   entry point and the per-event sink; with two threads
 *                   the merge runs on a worker and only its order crosses
 *                   to the sink (core/pipe.h)
 *
 * Memory: the trace stays memory-mapped; events are decoded twice from it
 * (pass 1 skims, pass 2 decodes while merging) and never stored, except on
 * the materialised path (1.5 traces, traces with FutileWakeup, and callers
 * that want every event in Go's exact order).
 */
#ifndef DEC_LEGACY_H
#define DEC_LEGACY_H

#include "../core/build.h"
#include "../core/ids.h"
#include "buf.h"
#include "decode.h"
#include "symtab.h"

/* Internal event types: Go's numbering (§3.4), plus the gotrace patched
 * GoSend/GoRecv whose wire numbers depend on the version (§7). */
enum {
    LG_NONE = 0, LG_BATCH, LG_FREQUENCY, LG_STACK, LG_GOMAXPROCS, LG_PROCSTART,
    LG_PROCSTOP, LG_GCSTART, LG_GCDONE, LG_STWSTART, LG_STWDONE, LG_SWEEPSTART,
    LG_SWEEPDONE, LG_GOCREATE, LG_GOSTART, LG_GOEND, LG_GOSTOP, LG_GOSCHED,
    LG_GOPREEMPT, LG_GOSLEEP, LG_GOBLOCK, LG_GOUNBLOCK, LG_BLOCKSEND, LG_BLOCKRECV,
    LG_BLOCKSELECT, LG_BLOCKSYNC, LG_BLOCKCOND, LG_BLOCKNET, LG_SYSCALL, LG_SYSEXIT,
    LG_SYSBLOCK, LG_GOWAITING, LG_GOINSYSCALL, LG_HEAPALLOC, LG_HEAPGOAL, LG_TIMERG,
    LG_FUTILE, LG_STRING, LG_STARTLOCAL, LG_UNBLOCKLOCAL, LG_SYSEXITLOCAL,
    LG_STARTLABEL, LG_BLOCKGC, LG_ASSISTSTART, LG_ASSISTDONE, LG_TASKCREATE,
    LG_TASKEND, LG_REGION, LG_LOG, LG_CPUSAMPLE, LG_GOSEND, LG_GORECV, LG_NTYPES
};

/* Go's fake P ids (§3.3). */
#define LG_FAKEP 1000000
#define LG_TIMERP 1000001
#define LG_NETPOLLP 1000002
#define LG_SYSCALLP 1000003
#define LG_GCP 1000004
#define LG_PROFILEP 1000005

#define LG_MAXARGS 8       /* a non-Stack record never has more varints */
#define LG_MAX_STRLEN 1000000

typedef struct dec__lg_desc {
    const char *name;      /* Go 1.21's name */
    uint16_t min_ver;
    uint8_t nargs;         /* arguments after the timestamp, without the stack */
    uint8_t stack;         /* 1: the last argument is a stack id */
} dec__lg_desc;

extern const dec__lg_desc dec__lg_descs[LG_NTYPES];

/* Internal type of wire type `wire` in a `ver` file, LG_NONE if illegal. */
int dec__lg_type(unsigned wire, int ver);
/* Number of varints Go's argNum expects for a record of type t. */
unsigned dec__lg_argnum(int t, int ver);

/* Both of the above for one version, as lookup tables for the hot loops. */
typedef struct dec__lg_vtab {
    int ver;
    uint8_t type[64];          /* wire type -> internal type */
    uint8_t argn[LG_NTYPES];   /* internal type -> expected varints */
    uint8_t plain[LG_NTYPES];  /* 1: an ordinary event record (no special layout or role) */
} dec__lg_vtab;

void dec__lg_vtab_init(dec__lg_vtab *v, int ver);

/* One raw record (§3.2). For Stack records the varints are not stored:
 * [body, body_end) is their byte range. */
typedef struct dec__lg_rec {
    uint64_t off;          /* file offset of the type byte */
    uint64_t a[LG_MAXARGS];
    uint32_t n;            /* varints read */
    uint8_t type;          /* internal type */
    uint8_t wire;
    uint64_t body, body_end;
    uint64_t str_off;      /* String bytes / UserLog message, file offset */
    uint32_t str_len;
} dec__lg_rec;

/* Reads the record at b's cursor. `check` verifies the argument count (pass 1);
 * pass 2 rereads records pass 1 already checked. */
bool dec__lg_rec_read(dec_buf *b, const dec__lg_vtab *v, bool check, dec__lg_rec *r, cs_err *err);

/* An event as Go's legacy parser holds it (Event in internal/trace). */
typedef struct dec__lg_ev {
    int64_t ts;            /* ticks until converted, then ns */
    int64_t seq;           /* 1.5 global sequence */
    uint64_t args[3];
    uint64_t g;
    uint64_t stk;          /* wire stack id, 0 none */
    uint64_t off;
    uint64_t str_off;      /* UserLog message */
    int64_t p;
    uint32_t str_len;
    uint8_t type;
    uint8_t wire;
    uint8_t dead;          /* removed as a futile wake-up */
    uint8_t from_create;   /* GoStart carrying its GoCreate's start stack/PC */
} dec__lg_ev;

/* Pass-1 results. */
typedef struct dec__lg_batch {
    uint64_t start, end;   /* records after the Batch record */
    uint64_t ticks;
    int64_t seq;
    uint32_t next;         /* next batch of the same P, UINT32_MAX none */
} dec__lg_batch;

typedef struct dec__lg_str {
    uint64_t off;
    uint64_t id, rec;      /* String id and the record's offset (joining pass 1's halves) */
    uint32_t len;
    cs_sid sid;            /* interned in the model, 0 not yet */
} dec__lg_str;

typedef struct dec__lg_cpu {
    int64_t ts;            /* realTicks */
    uint64_t off;          /* the record */
} dec__lg_cpu;

typedef struct dec__lg_scan {
    int ver;
    dec__lg_vtab vt;
    const cs_file *f;
    const uint8_t *data;   /* f's bytes */
    size_t size;
    cs_releases *done;     /* the batches its cursors leave, given back (cs_file_release_add): the
                              last reader's; NULL, they stay (a reader ahead of another) */
    dec__lg_batch *batches; uint32_t n_batches, cap_batches;
    int64_t *pid;          /* distinct P ids in order of first batch */
    uint32_t *p_first, *p_last;
    uint32_t n_p, cap_p, cap_p1, cap_p2;
    cs_map p_map;          /* P id -> index in pid */
    dec__lg_str *strs; uint32_t n_strs, cap_strs;
    cs_map str_index;      /* String id -> index in strs */
    uint64_t *stack_recs; uint32_t n_stack_recs, cap_stack_recs; /* offsets */
    cs_map stack_index;    /* wire stack id -> model stack index */
    dec__lg_cpu *cpu; uint32_t n_cpu, cap_cpu;
    cs_map timer_g;        /* TimerGoroutine ids (value unused) */
    int64_t freq;
    uint64_t n_events;
    bool has_futile;
    const dec_symtab *sym;  /* --binary for 1.5 traces, or NULL */
} dec__lg_scan;

/* Pass 1, on two threads when d allows more than one and the file has at
 * least d->split_min bytes. */
bool dec__lg_scan_run(dec__lg_scan *s, const cs_file *f, int ver, const dec_desc *d, cs_model *m, cs_err *err);
void dec__lg_scan_deinit(dec__lg_scan *s);
/* Model string id of String record `id` ("" when unknown). */
cs_sid dec__lg_str_sid(dec__lg_scan *s, cs_model *m, uint64_t id, cs_err *err);
uint32_t dec__lg_stack(const dec__lg_scan *s, uint64_t wire_id);
/* Function name of a 1.5 code PC through --binary (0 = "" without one). */
cs_sid dec__lg_pc_sid(const dec__lg_scan *s, cs_model *m, uint64_t pc, cs_err *err);

/* Goroutine id -> dense index, 1-based (0 = not present): slot + 1 of a
 * cs_ids whose direct array may span one uint32 per byte of the file (up to
 * 2^26), so memory stays bounded by the file size. */
#define DEC__LG_GTAB_LIMIT(file_size) \
    ((file_size) < 4096 ? 4096u : (file_size) > (1u << 26) ? (1u << 26) : (uint32_t)(file_size))
static inline uint32_t dec__lg_gtab_get(const cs_ids *t, uint64_t goid) { return cs_ids_find(t, goid) + 1; }
/* Index of goid, adding it if absent; 0 on allocation failure. */
static inline uint32_t dec__lg_gtab_add(cs_ids *t, uint64_t goid, cs_err *err)
{
    return cs_ids_get(t, goid, true, err) + 1;
}

/* Everything the decoder tracks per goroutine, indexed through dec__lg_gtab_get.
 * Times of the stats part are ns with Go's convention 0 = "none". */
typedef struct dec__lg_g {
    uint64_t goid;
    uint64_t create_stk;    /* validation: newStk of the GoCreate not yet started */
    int64_t last_sys_block; /* ticks of the last GoSysBlock/GoInSyscall, 0 none */
    int64_t creation, start, end, exec, sched, io, block, syscall, gc, sweep, total;
    int64_t last_start, block_net, block_sync, block_syscall, block_sched, block_sweep;
    uint64_t pc;
    cs_sid name;
    uint32_t region_top;    /* innermost open region (index + 1), 0 none */
    uint32_t assist_range;  /* open mark-assist range (index + 1), 0 none */
    uint8_t state;          /* validation: LG_G* state */
    uint8_t ev;             /* validation: type of the last blocking/unblocking event */
    uint8_t flags;          /* LG_GF_* */
} dec__lg_g;

enum { LG_GDEAD = 0, LG_GRUNNABLE, LG_GRUNNING, LG_GWAITING };
enum {
    LG_GF_KNOWN = 1,        /* in validation's goroutine map */
    LG_GF_CREATE = 2,       /* create_stk is pending */
    LG_GF_ASSIST = 4,       /* a mark assist is open */
    LG_GF_STATS = 8,        /* in GoroutineStats' map (created by GoCreate) */
};

/* order1007's per-goroutine state, in the merge's own compact table so the
 * readiness checks stay in cache. */
typedef struct dec__lg_ord {
    uint64_t seq;
    uint8_t st;             /* LG_G* status */
    uint8_t pad[7];
} dec__lg_ord;

typedef struct dec__lg_pst {
    uint64_t g;             /* goroutine running on the P */
    uint32_t sweep_range;   /* open sweep range + 1, 0 none */
    uint8_t running, stw, sweep, pad;
} dec__lg_pst;

typedef struct dec__lg_region {
    uint64_t task;
    cs_sid name;
    uint32_t prev;          /* enclosing open region + 1 */
    uint32_t range;         /* model range + 1 */
} dec__lg_region;

/* The consumer of ordered events (legacy_load.c). Events arrive with ts in
 * ticks; the sink converts them, validates, computes stats and builds the
 * model. */
typedef struct dec__lg_sink {
    const dec_desc *d;
    dec__lg_scan *s;
    cs_model *m;
    cs_stats *stats;
    cs_mb mb;
    bool model;             /* build spans, edges and ranges */
    cs_ids gt;
    dec__lg_g *g; uint32_t cap_g;
    int64_t min_ticks;
    double ns_per_tick;
    bool started;
    int64_t last_ticks;     /* streaming order check */
    uint32_t cur_gi;        /* dense index of the current event's G */
    /* validation */
    dec__lg_pst *ps; uint32_t n_ps, cap_ps;
    cs_map p_map;
    uint32_t p_direct[64];  /* P ids -1..62 -> ps index + 1 */
    bool gc_on, stw_on;
    cs_map tasks;
    dec__lg_region *regions; uint32_t n_regions, cap_regions;
    uint32_t popped_region; /* region this event ended (+1), for the model */
    uint32_t ended_regions; /* GoEnd: the goroutine's innermost open region (+1) */
    /* stats */
    int64_t last_ts, gc_start;
    /* model */
    uint32_t gc_range, stw_range;
    cs_map task_ranges;     /* task id -> open task range + 1 */
    bool seen_procs;
    cs_sid type_sid[LG_NTYPES];
    /* on_event: wire stack id -> model stack, direct-mapped cache of dec__lg_stack */
    uint64_t stk_key[64];
    uint32_t stk_val[64];
} dec__lg_sink;

/* Per-goroutine record of goid, created if absent; NULL on allocation failure.
 * Pointers are invalidated by the next call. */
dec__lg_g *dec__lg_g_get(dec__lg_sink *k, uint64_t goid, cs_err *err);
/* Feeds one ordered event (ts in ticks). */
bool dec__lg_sink_put(dec__lg_sink *k, dec__lg_ev *ev, cs_err *err);

bool dec__lg_check(dec__lg_sink *k, dec__lg_ev *ev, cs_err *err);
dec__lg_pst *dec__lg_p_state(dec__lg_sink *k, int64_t p, cs_err *err);
bool dec__lg_stats_event(dec__lg_sink *k, const dec__lg_ev *ev, cs_err *err);
bool dec__lg_stats_finish(dec__lg_sink *k, cs_err *err);
bool dec__lg_model_init(dec__lg_sink *k, cs_err *err);
bool dec__lg_model_event(dec__lg_sink *k, const dec__lg_ev *ev, cs_err *err);
bool dec__lg_model_finish(dec__lg_sink *k, cs_err *err);

/* One P's lazily decoded events (legacy_cursor.c); h is the head event with
 * its order1007 transition: key goroutine (LG_UNORDERED: none, LG_GARBAGE:
 * the GC pseudo-goroutine), required and next seq/status. */
#define LG_NOSEQ UINT64_MAX
#define LG_SEQINC (UINT64_MAX - 1)
#define LG_UNORDERED UINT64_MAX
#define LG_GARBAGE (UINT64_MAX - 1)

typedef struct dec__lg_head {
    dec__lg_ev ev;
    uint64_t key, init_seq, next_seq;
    uint8_t init_st, next_st;
} dec__lg_head;

typedef struct dec__lg_cur {
    uint32_t batch;         /* current batch, UINT32_MAX when done */
    uint32_t cpu_next;      /* ProfileP cursor: next CPU sample */
    uint64_t pos, end;
    int64_t last_ts, last_seq;
    uint64_t last_g;
    int64_t p;
    bool profile;
    bool has_head;
    dec__lg_head h;
} dec__lg_cur;

/* Cursor over P index pi (pi == s->n_p: the CPU-sample pseudo-batch). */
void dec__lg_cur_open(const dec__lg_scan *s, dec__lg_cur *c, uint32_t pi);
/* Decodes the next event into c->h (c->has_head false at the end). */
bool dec__lg_cur_next(const dec__lg_scan *s, dec__lg_cur *c, cs_err *err);

/* Ordering (legacy_order.c). order1007 hands each event, in Go's merge
 * order, to put with the index of the cursor it came from: the streaming
 * sink, the pipe to the sink's thread (which replays the indices on cursors
 * of its own), or a list (then the caller runs legacy_post.c). */
typedef struct dec__lg_list {
    dec__lg_ev *ev;
    uint32_t n, cap;
} dec__lg_list;

typedef bool dec__lg_put_fn(void *ud, uint32_t cursor, dec__lg_ev *ev, cs_err *err);
bool dec__lg_order1007(const dec__lg_scan *s, dec__lg_put_fn *put, void *ud, cs_err *err);
bool dec__lg_order1005(const dec__lg_scan *s, dec__lg_list *out, cs_err *err);
/* Decodes every event of P cursor order into out (file order per P). */
bool dec__lg_decode_all(const dec__lg_scan *s, dec__lg_list *out, cs_err *err);

/* Post-merge steps on a materialised list (legacy_post.c). */
bool dec__lg_post1007(dec__lg_list *l, cs_err *err);
bool dec__lg_remove_futile(dec__lg_list *l, cs_err *err);
void dec__lg_list_free(dec__lg_list *l);
bool dec__lg_list_push(dec__lg_list *l, const dec__lg_ev *ev, cs_err *err);

/* The type an event has once merged: the *Local variants of 1.7+ become the
 * plain ones. */
static inline uint8_t dec__lg_plain_type(uint8_t t)
{
    return t == LG_STARTLOCAL ? LG_GOSTART : t == LG_UNBLOCKLOCAL ? LG_GOUNBLOCK
         : t == LG_SYSEXITLOCAL ? LG_SYSEXIT : t;
}

/* Time arithmetic as Go does it: int64 that wraps instead of overflowing,
 * so hostile timestamps give Go's numbers rather than undefined behaviour. */
static inline int64_t dec__lg_span(int64_t t, int64_t since)
{
    return (int64_t)((uint64_t)t - (uint64_t)since);
}

static inline void dec__lg_acc(int64_t *acc, int64_t t, int64_t since)
{
    *acc = (int64_t)((uint64_t)*acc + (uint64_t)t - (uint64_t)since);
}

#endif
