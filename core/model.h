/* core/model.h — the data that flows from decode/ through traffic/ to
 * layout/, render/ and export/: one model for every trace version. Decoders
 * fill it through the builder in build.h; traffic/ then classifies its
 * edges and adds messages and channels; later stages only read it.
 *
 * Shape (style.md §8–9): compact arrays indexed by dense uint32 indices, slot
 * 0 of every table reserved for "none", so a zeroed struct is safely empty.
 * Columns for what is scanned per frame (spans), fixed-size structs for what
 * is read whole (edges, messages), side tables for strings and stacks.
 *
 * Times are int64 nanoseconds exactly as Go's reader reports them: legacy
 * traces (1.5–1.21) count from the trace's first event (0); 1.22+ traces use
 * the reader's absolute timestamps. CS_T_NONE marks "unknown/never".
 *
 * Sizes: a goroutine costs 48 bytes, a span about 5.4 (t0 in 32 bits over
 * its block's base, its state and reason in a byte, a bit and its rank; 8
 * more when it does not end where its goroutine's next span begins, and 8
 * more in a block of 32 spans that lasts 4.29 s or more), an edge 16 (its
 * time in 32 bits, as span starts are; what it shares with other wake-ups,
 * a site of 16 bytes, once per distinct site), a message 16 (its time so
 * too, its goroutines and channel in one word; 24 more in msg_wide when
 * they or its receive do not fit, 4 more each once one has a value), a
 * frame 24 (+4 per stack-frame reference), a patched-runtime event 48; the
 * time blocks 16 bytes per 256 messages and per 256 edges.
 *
 * API
 *   void cs_model_init(cs_model *m) / cs_model_deinit(cs_model *m)
 *   cs_sid cs_model_intern(cs_model *m, const char *s, size_t len, cs_err *err)   0 on error too
 *   const char *cs_model_str(const cs_model *m, cs_sid id)                   NUL-terminated
 *   uint32_t cs_model_str_len(const cs_model *m, cs_sid id)                  its length (it may hold NULs)
 *   uint32_t cs_model_stack_add(cs_model *m, const cs_frame *f, uint32_t n, cs_err *err)
 *   uint32_t cs_model_stack_len(const cs_model *m, uint32_t stack)
 *   const cs_frame *cs_model_stack_frame(const cs_model *m, uint32_t stack, uint32_t i)  i=0 innermost
 *   bool cs_model_g_find(const cs_model *m, uint64_t goid, uint32_t *out)
 *   bool cs_model_map_make(cs_model *m, const cs_model *from, const uint32_t *stack_to,
 *                          cs_model_map *map, cs_err *err)
 *       map: each string and stack of `from` as one of m's, interned or added in
 *       from's order; stack_to[k] (when not NULL) a stack of m that from's stack k
 *       already is, 0 none; map->g is the caller's to fill (build.h cs_mb_join)
 *   void cs_model_map_free(cs_model_map *map)
 *   int64_t cs_span_t0(const cs_model *m, uint32_t s)   start of span s (inline)
 *   int64_t cs_span_t1(const cs_model *m, uint32_t s)   end of span s (inline)
 *   cs_state cs_span_state(const cs_model *m, uint32_t s), cs_reason cs_span_reason(...)
 *       what span s's goroutine did, and why when it waited (inline)
 *   int64_t cs_edge_ts(const cs_model *m, uint32_t i)   time of wake-up i (inline)
 *   const cs_wsite *cs_edge_site(const cs_model *m, const cs_edge *e)   its stacks and
 *       reason (inline)
 *   bool cs_edge_ts_set(cs_model *m, uint32_t i, int64_t t, cs_err *err)   sets it; the
 *       edges are given their times in index order, a block's base being set by its first
 *       (edge 1 for block 0): CS_E_NOMEM (inline for a time that fits its narrow block;
 *       cs_tcol_put for a block's first and a wide block)
 *   int64_t cs_msg_t(const cs_model *m, uint32_t i)   message i's time, its sort key (inline)
 *   bool cs_msg_t_set(cs_model *m, uint32_t i, int64_t t, cs_err *err)   sets it, the
 *       messages in index order as the edges (inline)
 *   cs_sid cs_msg_value(const cs_model *m, uint32_t i)   message i's value as text, 0 unknown (inline)
 *   int64_t cs_msg_t_send(const cs_model *m, uint32_t i) / cs_msg_t_recv(...)   (inline)
 *   uint32_t cs_msg_sender(const cs_model *m, uint32_t i) / cs_msg_receiver(...) /
 *       cs_msg_chan(...)   message i's goroutines and channel (inline)
 *   const cs_msg_wide *cs_msg_wide_at(const cs_model *m, uint32_t i)   the entry of
 *       message i, which must have one (cs_msg_is_wide): a binary search
 *   bool cs_msg_is_wide(const cs_msg *x)   x has an entry in msg_wide (inline)
 *   cs_msg_kind cs_msg_kind_of(const cs_msg *x), bool cs_msg_exact(const cs_msg *x)   (inline)
 *   bool cs_model_msg_add(cs_model *m, const cs_msg_in *x, cs_sid value, cs_err *err)
 *       appends a message (value 0: none); CS_E_NOMEM, or CS_E_INVALID for a channel
 *       index from CS_CHAN_MAX
 *   bool cs_model_msgs_reserve(cs_model *m, uint32_t n)   room for n more messages, of
 *       exactly that size, made now; false (and nothing changed) when it cannot be had
 *   bool cs_model_msgs_add(cs_model *m, const cs_msg_in *x, uint32_t n, cs_err *err)
 *       the same for n messages without a value, their room in msgs made once
 *   bool cs_span_is_far(const cs_model *m, uint32_t s)   its end is not the next span's start (inline)
 *   uint32_t cs_span_far_at(const cs_model *m, uint32_t s)   far span s's place in span_far_t1
 *   uint32_t cs_model_msg_from(const cs_model *m, int64_t t)   the first message whose
 *       cs_msg_t is t or later (n_msgs when none): a binary search on their order
 *   uint32_t cs_model_span_after(const cs_model *m, const cs_goroutine *g, int64_t t)
 *       index of g's first span that ends after t (g's span end when none)
 *   size_t cs_model_bytes(const cs_model *m)      bytes its tables use (filled part, for figures)
 *   void cs_model_fit(cs_model *m)   the pages of each table past what it holds given back
 *       (its room stays: what is added later faults them in again)
 *   bool cs_model_before_traffic(const cs_model *m, cs_model *out, cs_err *err)
 *       out: m as it is drawn while traffic/ works on it (the viewer's first picture):
 *       its own copy of m's strings (traffic/ interns more, and may move them), no
 *       wake-ups, messages or channels, and the rest (goroutines, spans, stacks,
 *       ranges, logs, patched-runtime events: what traffic/ only reads) borrowed
 *       from m; free with cs_model_before_traffic_free, before m
 *   bool cs_runtime_func(const char *func)   a function of the runtime's own: runtime.* but
 *       runtime.main (Go's internal/trace IsSystemGoroutine, summary.go)
 *   const char *cs_state_name(cs_state s) / cs_reason_name(cs_reason r) / cs_edge_kind_name(k) / cs_msg_kind_name(k)
 */
#ifndef CS_MODEL_H
#define CS_MODEL_H

#include "cs.h"
#include "ids.h"

#define CS_T_NONE INT64_MIN
/* Every time in the model lies in [-CS_T_MAX, CS_T_MAX] (about 36 years):
 * decoders clamp hostile timestamps there, so later stages can add and
 * subtract times without overflow. Go's reader then stamps an event a
 * nanosecond after the last when it is not later: a run of events clamped
 * at CS_T_MAX goes past it, by at most their count. */
#define CS_T_MAX ((int64_t)1 << 60)

/* Span starts (cs_model.span_t0): blocks of CS_T0_BLOCK spans; a block's
 * base from CS_T0_WIDE up marks a wide one, far above any time. */
#define CS_T0_BLOCK_BITS 5
#define CS_T0_BLOCK (1u << CS_T0_BLOCK_BITS)
#define CS_T0_WIDE ((int64_t)1 << 62)

/* Time s of a column of times kept in 32 bits over a base per block of
 * CS_T0_BLOCK: b is its block's base, *lo its 32 bits (read only when the
 * block is narrow), wide the times of the wide blocks in full. */
static inline int64_t cs_t_at(int64_t b, const uint32_t *lo, const int64_t *wide, uint32_t s)
{
    return b < CS_T0_WIDE ? b + *lo : wide[b - CS_T0_WIDE + (s & (CS_T0_BLOCK - 1))];
}

/* A column of times kept in 32 bits, in its elements (cs_edge.t_lo,
 * cs_msg.t_lo), over a base per block of CS_T0_BLOCK of them, given in
 * index order (cs_tcol_put): a block's base lies 2^31 ns before its first
 * time, so that it holds in 32 bits the times within ±2.1 s of that one
 * (Go's order may put a wake-up a little before the one emitted ahead of
 * it); else the block goes wide: its base is CS_T0_WIDE + k and its times
 * are in full at wide[k...]. */
typedef struct cs_tcol {
    int64_t *base; uint32_t cap_base;
    int64_t *wide; uint32_t n_wide, cap_wide;
} cs_tcol;

/* Start s of a column of starts (cs_model.span_t0 and the builder's). */
static inline int64_t cs_t0_at(const uint32_t *col, const int64_t *base, const int64_t *wide, uint32_t s)
{
    return cs_t_at(base[s >> CS_T0_BLOCK_BITS], &col[s], wide, s);
}

typedef uint32_t cs_sid; /* index into the model's string table; 0 = "" */

/* The model's limits on its indices: a wake-up keeps its site in fewer
 * than 32 bits (cs_edge), a message its channel (cs_msg). */
#define CS_SID_MAX ((uint32_t)1 << 30)
#define CS_STACK_MAX ((uint32_t)1 << 28)
#define CS_WSITE_MAX ((uint32_t)1 << 27)
#define CS_CHAN_MAX ((uint32_t)1 << 30)

typedef enum cs_family { CS_FAM_NONE = 0, CS_FAM_LEGACY, CS_FAM_V2 } cs_family;

/* What a goroutine is doing during a span. */
typedef enum cs_state {
    CS_ST_NONE = 0,   /* not alive (before creation, after end) */
    CS_ST_RUNNING,
    CS_ST_RUNNABLE,   /* waiting for a P */
    CS_ST_BLOCKED,    /* waiting; the span's reason says on what */
    CS_ST_SYSCALL,
    CS_ST_COUNT
} cs_state;

/* Why a goroutine waits: Go's block reasons folded into classes. The exact
 * Go name is kept in edges (reason_name) and stats. */
typedef enum cs_reason {
    CS_R_NONE = 0,
    CS_R_CHAN_SEND,
    CS_R_CHAN_RECV,
    CS_R_SELECT,
    CS_R_SYNC,        /* Mutex, RWMutex, WaitGroup, semaphores */
    CS_R_COND,        /* sync.Cond */
    CS_R_SLEEP,       /* time.Sleep, timers */
    CS_R_NET,         /* network poller */
    CS_R_SYSCALL,     /* blocked in a syscall (P handed off) */
    CS_R_GC,          /* GC assist wait, sweep wait, STW */
    CS_R_FOREVER,     /* select{}, nil channel */
    CS_R_PREEMPTED,   /* Gosched / preemption: runnable, not waiting */
    CS_R_OTHER,
    CS_R_COUNT
} cs_reason;

typedef enum cs_g_flag {
    CS_G_SYSTEM = 1u << 0,   /* the runtime's (core/build.c is_system): runtime.* but runtime.main and
                                runtime.corostart, the tracer's runtime/trace.*, or unnamed where
                                others are named and in one state */
    CS_G_AT_START = 1u << 1, /* existed when tracing started */
    CS_G_ENDED = 1u << 2,    /* ended inside the trace */
} cs_g_flag;

typedef struct cs_goroutine {
    uint64_t goid;        /* Go's goroutine id */
    int64_t create_ns;    /* creation (or trace start for CS_G_AT_START) */
    int64_t end_ns;       /* end, CS_T_NONE if alive at trace end */
    cs_sid name;          /* entry function, e.g. "main.worker" */
    uint32_t parent;      /* creator's index in cs_model.g, 0 none/unknown */
    uint32_t flags;       /* cs_g_flag */
    uint32_t span_first;  /* spans of this goroutine: [span_first, +span_count) */
    uint32_t span_count;
} cs_goroutine;

typedef struct cs_frame {
    uint64_t pc;
    cs_sid func;          /* "" when unknown (1.5 traces without --binary) */
    cs_sid file;
    uint32_t line;
} cs_frame;

/* How chanscope classifies a wake-up (trf_build fills it in, traffic/classify.c). */
typedef enum cs_edge_kind {
    CS_EK_OTHER = 0,
    CS_EK_SEND,         /* unblocker sent, woken goroutine was receiving */
    CS_EK_RECV,         /* unblocker received, woken goroutine was sending */
    CS_EK_CLOSE,        /* unblocker closed the channel */
    CS_EK_SELECT_SEND,  /* hand-off completed through a select, unblocker sent */
    CS_EK_SELECT_RECV,  /* ... unblocker received */
    CS_EK_SYNC,
    CS_EK_TIMER,
    CS_EK_NET,
    CS_EK_COUNT
} cs_edge_kind;

/* What a wake-up shares with the others of its code sites (cs_model.wsites,
 * each distinct one once): the unblocker's stack and the woken goroutine's
 * block. A program wakes its goroutines from a few places, so the millions
 * of wake-ups of a channel-heavy trace (much of its model) keep a site's
 * index, not these 16 bytes. Site 0 is all zeros. */
typedef struct cs_wsite {
    uint32_t stack;               /* unblocker's stack (cs_model stack index), 0 none */
    uint32_t block_stack;         /* woken goroutine's stack when it blocked, 0 none */
    cs_sid reason_name;           /* Go's name: legacy "GoBlockRecv", 1.22+ "chan receive" */
    uint8_t reason;               /* cs_reason */
    uint8_t wait_before;          /* 1: `to` was waiting since before the trace began (or since an
                                     unknown time) */
    uint16_t pad;                 /* 0 */
} cs_wsite;

/* One wake-up of a waiting goroutine (Waiting -> Runnable), in event order:
 * 16 bytes. */
typedef struct cs_edge {
    uint32_t t_lo;                /* time of the unblock, over its block's base: cs_edge_ts */
    uint32_t from;                /* unblocker (index in g), 0 = none: timer, netpoller, G0 */
    uint32_t to;                  /* woken goroutine */
    unsigned site : 27;           /* its stacks and reason: cs_edge_site */
    unsigned kind : 4;            /* cs_edge_kind */
    unsigned guessed : 1;         /* a select woken by a select: its direction from site votes */
} cs_edge;

typedef enum cs_msg_kind {
    CS_MK_SEND = 0,     /* a value passed from sender to receiver */
    CS_MK_CLOSE,        /* a close woke the receiver */
    CS_MK_COUNT
} cs_msg_kind;

/* One channel message (send -> receive), inferred or exact, sorted by time
 * (t_send, or t_recv when t_send is unknown). Inferred from a wake-up edge:
 * t_send is the hand-off, the moment the value left the sender (the unblock;
 * a sender that had to wait shows that wait as its blocked span, not in the
 * message), t_recv when the receiver had it (the same instant when the
 * receiver was running, else the receiver's next start). So a hand-off to a
 * running receiver is vertical in the lanes view, as visual-design.md asks.
 * A close: t_send = the close, t_recv = the woken receiver's next start.
 * Exact ones carry the times of their events. t_send is CS_T_NONE when it is
 * not known (an exact receive whose send happened before the trace).
 *
 * 16 bytes: t is t_send, or t_recv when the send is unknown (so t is the
 * message's time, its sort key: cs_msg_t); else the receive is kept as its
 * distance from the send. Its goroutines take 24 bits each and its channel
 * 14; what does not fit there (a goroutine index from 2^24 - 1, a channel
 * from 2^14 - 1, a receive 2.1 s or more after the send) is at all ones in
 * the message and in full in the side table msg_wide, which holds such
 * messages only, by index. So read a message's goroutines, channel and
 * receive with cs_msg_sender, cs_msg_receiver, cs_msg_chan and
 * cs_msg_t_recv. Its value, when known, is cs_msg_value's: only exact ones
 * have one, and that table exists from the first message that has one.
 * Messages are added with cs_model_msg_add. */
#define CS_MSG_NO_SEND INT32_MIN     /* cs_msg.dt: the send is unknown, t is the receive */
#define CS_MSG_FAR (INT32_MIN + 1)   /* cs_msg.dt: the receive is in msg_wide */
#define CS_MSG_G_WIDE 0xffffffu      /* a goroutine of cs_msg.who: it is in msg_wide */
#define CS_MSG_CHAN_WIDE 0x3fffu     /* its channel: it is in msg_wide */
typedef struct cs_msg {
    uint32_t t_lo;        /* t_send, or t_recv when t_send is unknown, over its block's
                             base: cs_msg_t */
    int32_t dt;           /* t_recv - t_send, or CS_MSG_NO_SEND, CS_MSG_FAR */
    uint64_t who;         /* from bit 0: the sender (index in g, 24 bits: cs_msg_sender),
                             the receiver (24: cs_msg_receiver), the channel (index in
                             chans, 0 unknown, 14: cs_msg_chan), its cs_msg_kind (1) and
                             whether it is exact (1: cs_msg_exact; patched runtime or
                             annotation, else inferred); one word, so that a message is
                             written at once */
} cs_msg;

/* A message's fields that do not fit in it, in full (cs_model.msg_wide,
 * by message index); a field that fits is here too. */
typedef struct cs_msg_wide {
    uint32_t msg;         /* index in msgs */
    uint32_t sender, receiver, chan;
    int64_t t_recv;       /* its receive when dt is CS_MSG_FAR, else 0 */
} cs_msg_wide;

/* A message as it is found, for cs_model_msg_add. */
typedef struct cs_msg_in {
    int64_t t_send;       /* CS_T_NONE unknown */
    int64_t t_recv;
    uint32_t sender, receiver, chan;
    uint8_t kind, exact;
} cs_msg_in;

/* A logical channel: a runtime id when known, else a pair of code sites. */
typedef struct cs_chan {
    cs_sid name;          /* readable, e.g. "main.player:23 → main.player:18" */
    cs_sid site_send;     /* "func:file:line" or "" */
    cs_sid site_recv;
    uint64_t rt_id;       /* channel id from a patched runtime / annotation, 0 none */
    uint32_t count;       /* messages on it */
    uint32_t pad;
} cs_chan;

typedef enum cs_range_kind {
    CS_RK_GC = 0,         /* a GC cycle (global) */
    CS_RK_STW,            /* stop-the-world (global) */
    CS_RK_SWEEP,          /* sweeping on a P */
    CS_RK_MARK_ASSIST,    /* a goroutine's mark assist */
    CS_RK_REGION,         /* user region on a goroutine */
    CS_RK_TASK,           /* user task */
    CS_RK_COUNT
} cs_range_kind;

/* The ranges the pictures draw (bands over the lanes, Perfetto's "gc"
 * track): collections and stops of the world. A model for pictures keeps
 * only these (dec_desc.drawn_ranges): a GC-heavy trace has millions of
 * sweeps and mark assists, an annotated one of user regions. */
static inline bool cs_range_drawn(uint8_t kind)
{
    return kind == CS_RK_GC || kind == CS_RK_STW;
}

typedef struct cs_range {
    int64_t t0, t1;       /* t1 = trace end if never closed */
    cs_sid name;          /* STW reason, region/task name */
    uint32_t g;           /* goroutine index for goroutine-scoped ranges, else 0 */
    uint64_t id;          /* task id for tasks/regions, P for sweeps */
    uint8_t kind;         /* cs_range_kind */
    uint8_t pad[7];
} cs_range;

/* A gotrace patched-runtime channel event (docs/trace-format.md §7): GoSend or
 * GoRecv with the runtime's event id, channel id and value, in event order.
 * Pairing them into cs_msg is traffic/patched.c's job. */
typedef struct cs_rtmsg {
    int64_t ts;
    uint64_t eid;         /* event id pairing a send with its receive (222/333: see §7) */
    uint64_t cid;         /* channel id from makechan */
    uint64_t val;         /* first word of the element */
    uint64_t goid;        /* goroutine that sent or received (Go's id) */
    uint8_t is_recv;      /* 0 GoSend, 1 GoRecv */
    uint8_t pad[7];
} cs_rtmsg;

/* trace.Log(ctx, category, message) */
#define CS_TBLOCK 256u
typedef struct cs_tblock { int64_t t0, t1; } cs_tblock;

typedef struct cs_log {
    int64_t ts;
    uint64_t task;
    uint32_t g;           /* emitting goroutine */
    cs_sid category;
    cs_sid message;
    uint32_t stack;
} cs_log;

typedef struct cs_model {
    cs_family family;
    int version;          /* 1005 ... 1026 (go 1.N -> 1000+N) */
    int64_t t_first, t_last; /* first and last event time */
    uint64_t n_events;    /* events the decoder produced */
    uint32_t n_gens;      /* 1.22+: generations decoded */
    uint32_t n_ahead;     /* 1.22+: parts of the file ordered on a worker ahead of their turn (decode/v2_ahead.c) */
    int nprocs;           /* highest GOMAXPROCS seen */

    /* strings: bytes of string i at str_bytes + str_off[i], NUL-terminated */
    char *str_bytes;
    uint32_t *str_off;
    uint32_t n_str, cap_str, len_bytes, cap_bytes;
    cs_map str_index;     /* hash of bytes -> sid */

    /* stacks: stack s has frames stack_frames[stack_first[s] .. stack_first[s+1]) */
    cs_frame *frames;
    uint32_t n_frames, cap_frames;
    uint32_t *stack_first; /* n_stack + 1 entries */
    uint32_t n_stack, cap_stack;

    cs_goroutine *g;      /* g[0] is the reserved "none" */
    uint32_t n_g, cap_g;
    cs_ids g_index;       /* goid -> index - 1: goroutines are added in index order */

    /* spans, grouped by goroutine (cs_goroutine.span_first; the groups in
     * the order the builder laid them out, core/build_lay.c) and in time
     * order; span s lasts [cs_span_t0(m, s), cs_span_t1(m, s)). A start is
     * kept in 32 bits over the earliest start of its block of CS_T0_BLOCK
     * spans (span_t0_base); a block whose starts lie 2^32 ns apart or more
     * is wide: its base is CS_T0_WIDE + k and its starts are in full at
     * span_wide_t0[k...], span_t0 unused for it. Most spans end where their
     * goroutine's next one begins, so only the others ("far" ends, the last
     * span of each goroutine among them) keep their end: bit s of span_far
     * marks them, span_far_t1 holds their ends in span order,
     * span_far_rank[w] counts the far spans before span 64·w. */
    uint32_t *span_t0;
    int64_t *span_t0_base; /* n_span / CS_T0_BLOCK + 1 */
    int64_t *span_wide_t0; /* n_wide: CS_T0_BLOCK per wide block */
    uint32_t n_wide;
    uint8_t *span_state_reason; /* its cs_state, and its cs_reason when blocked or runnable, in
                                   one byte: read with cs_span_state and cs_span_reason */
    uint16_t span_kinds[CS_ST_COUNT]; /* per state, bit r: some span has it with reason r
                                         (what a legend names, without a pass over the spans;
                                         CS_R_COUNT <= 16, asserted below) */
    uint64_t *span_far;   /* n_span bits (n_span / 64 + 1 words) */
    uint32_t *span_far_rank;
    int64_t *span_far_t1; /* n_far */
    uint32_t n_span, cap_span, n_far;

    /* wake-ups, edges[0] reserved; their times as span starts' are, in
     * blocks of CS_T0_BLOCK edges (cs_edge_ts_set) */
    cs_edge *edges;  uint32_t n_edges, cap_edges;
    cs_tcol edge_t;
    cs_wsite *wsites; uint32_t n_wsites, cap_wsites; /* their sites, wsites[0] all zeros */
    cs_msg *msgs;    uint32_t n_msgs, cap_msgs;
    cs_tcol msg_t;   /* their times */
    cs_sid *msg_value; uint32_t cap_msg_value;      /* per message its value as text, 0 unknown;
                                                       NULL while no message has one */
    cs_msg_wide *msg_wide; uint32_t n_msg_wide, cap_msg_wide; /* the messages whose fields
                                                                 do not fit, by index */
    cs_chan *chans;  uint32_t n_chans, cap_chans;   /* chans[0] reserved */
    cs_range *ranges; uint32_t n_ranges, cap_ranges;
    cs_log *logs;    uint32_t n_logs, cap_logs;
    cs_rtmsg *rtmsgs; uint32_t n_rtmsgs, cap_rtmsgs; /* gotrace GoSend/GoRecv, event order */
    /* what the pictures draw, found by time: per CS_TBLOCK messages (msgs
     * i·CS_TBLOCK ...), the earliest send and latest receive of those with
     * both; per CS_TBLOCK edges, the earliest and latest of the sync
     * wake-ups (CS_EK_SYNC) among them. A block with none has t0 > t1.
     * traffic/ builds them with the messages; 0 blocks: not built. */
    cs_tblock *msg_block;  uint32_t n_msg_block;
    cs_tblock *sync_block; uint32_t n_sync_block;
    uint64_t n_cpu_samples; /* CPU profile samples in the trace */

    /* a warning for the user, e.g. "showing the good prefix: ..." ("" none) */
    char warning[200];
} cs_model;

_Static_assert(sizeof(cs_edge) == 16 && sizeof(cs_wsite) == 16, "cs_edge and cs_wsite layouts");
_Static_assert(sizeof(cs_msg) == 16 && sizeof(cs_msg_wide) == 24, "cs_msg and cs_msg_wide layouts");
_Static_assert(CS_CHAN_MAX > CS_MSG_CHAN_WIDE, "a channel index CS_MSG_CHAN_WIDE or more is in msg_wide");
_Static_assert(CS_R_COUNT <= 16 && CS_EK_COUNT <= 16 && CS_MK_COUNT <= 2,
               "the bit-fields of cs_edge and cs_msg");
_Static_assert(CS_ST_COUNT <= 16 && CS_R_COUNT <= 16, "a span's state and reason in a byte (cs_span_state_reason)");
_Static_assert(sizeof(cs_frame) == 24, "cs_frame layout");
_Static_assert(sizeof(cs_rtmsg) == 48, "cs_rtmsg layout");

/* Where the strings, stacks and goroutines of one model lie in another
 * (cs_model_map_make): index i of each table -> index in the other. */
typedef struct cs_model_map {
    cs_sid *sid;
    uint32_t *stack;
    uint32_t *g;
} cs_model_map;

void cs_model_init(cs_model *m);
void cs_model_deinit(cs_model *m);
/* out: a copy of m that owns all it holds (free with cs_model_deinit; on failure nothing to free). */
bool cs_model_copy(const cs_model *m, cs_model *out, cs_err *err);
cs_sid cs_model_intern(cs_model *m, const char *s, size_t len, cs_err *err);
const char *cs_model_str(const cs_model *m, cs_sid id);
uint32_t cs_model_str_len(const cs_model *m, cs_sid id);
bool cs_model_map_make(cs_model *m, const cs_model *from, const uint32_t *stack_to, cs_model_map *map,
                       cs_err *err);
void cs_model_map_free(cs_model_map *map);
uint32_t cs_model_stack_add(cs_model *m, const cs_frame *f, uint32_t n, cs_err *err);
uint32_t cs_model_stack_len(const cs_model *m, uint32_t stack);
const cs_frame *cs_model_stack_frame(const cs_model *m, uint32_t stack, uint32_t i);
bool cs_model_g_find(const cs_model *m, uint64_t goid, uint32_t *out);
uint32_t cs_model_msg_from(const cs_model *m, int64_t t);
uint32_t cs_model_span_after(const cs_model *m, const cs_goroutine *g, int64_t t);
size_t cs_model_bytes(const cs_model *m);
void cs_model_fit(cs_model *m);
bool cs_model_before_traffic(const cs_model *m, cs_model *out, cs_err *err);
void cs_model_before_traffic_free(cs_model *out);
/* Sets the time of element i of column c to t, its 32 bits at lo, the
 * elements `stride` bytes apart; `first`: i opens its block. false:
 * CS_E_NOMEM. */
bool cs_tcol_put(cs_tcol *c, uint32_t i, bool first, int64_t t, uint32_t *lo, size_t stride, cs_err *err);
bool cs_model_msg_add(cs_model *m, const cs_msg_in *x, cs_sid value, cs_err *err);
bool cs_model_msgs_reserve(cs_model *m, uint32_t n);
bool cs_model_msgs_add(cs_model *m, const cs_msg_in *x, uint32_t n, cs_err *err);
const cs_msg_wide *cs_msg_wide_at(const cs_model *m, uint32_t i);
static inline int64_t cs_edge_ts(const cs_model *m, uint32_t i)
{
    return cs_t_at(m->edge_t.base[i >> CS_T0_BLOCK_BITS], &m->edges[i].t_lo, m->edge_t.wide, i);
}

static inline const cs_wsite *cs_edge_site(const cs_model *m, const cs_edge *e)
{
    return &m->wsites[e->site];
}

static inline int64_t cs_msg_t(const cs_model *m, uint32_t i)
{
    return cs_t_at(m->msg_t.base[i >> CS_T0_BLOCK_BITS], &m->msgs[i].t_lo, m->msg_t.wide, i);
}

/* Whether time t is held in *lo over base b of a narrow block: sets it if
 * so (cs__tcol_set and cs_tcol_put). */
static inline bool cs__t_narrow(uint32_t *lo, int64_t b, int64_t t)
{
    if (b >= CS_T0_WIDE || t - b < 0 || t - b > UINT32_MAX)
        return false;
    *lo = (uint32_t)(t - b);
    return true;
}

/* Sets element i's time in column c as cs_tcol_put does, a time that fits
 * its narrow block here. always_inline: the millions of wake-ups and
 * inferred messages are given their times through it. */
static inline __attribute__((always_inline)) bool cs__tcol_set(cs_tcol *c, uint32_t i, bool first, int64_t t,
                                                               uint32_t *lo, size_t stride, cs_err *err)
{
    return (!first && cs__t_narrow(lo, c->base[i >> CS_T0_BLOCK_BITS], t)) ||
           cs_tcol_put(c, i, first, t, lo, stride, err);
}

static inline bool cs_edge_ts_set(cs_model *m, uint32_t i, int64_t t, cs_err *err)
{
    bool first = !(i & (CS_T0_BLOCK - 1)) || i == 1; /* edge 1 for block 0: edge 0 is none */
    return cs__tcol_set(&m->edge_t, i, first, t, &m->edges[i].t_lo, sizeof *m->edges, err);
}

static inline __attribute__((always_inline)) bool cs_msg_t_set(cs_model *m, uint32_t i, int64_t t, cs_err *err)
{
    return cs__tcol_set(&m->msg_t, i, !(i & (CS_T0_BLOCK - 1)), t, &m->msgs[i].t_lo, sizeof *m->msgs, err);
}

/* A span's state and reason as one byte (span_state_reason, and the model
 * builder's span records): the state in the low four bits. */
static inline uint8_t cs_span_state_reason(cs_state st, cs_reason r)
{
    return (uint8_t)(st | r << 4);
}

/* The state and the reason in a byte of cs_span_state_reason. */
static inline cs_state cs_sr_state(uint8_t sr)
{
    return (cs_state)(sr & 15);
}

static inline cs_reason cs_sr_reason(uint8_t sr)
{
    return (cs_reason)(sr >> 4);
}

static inline cs_state cs_span_state(const cs_model *m, uint32_t s)
{
    return cs_sr_state(m->span_state_reason[s]);
}

static inline cs_reason cs_span_reason(const cs_model *m, uint32_t s)
{
    return cs_sr_reason(m->span_state_reason[s]);
}

static inline int64_t cs_span_t0(const cs_model *m, uint32_t s)
{
    return cs_t0_at(m->span_t0, m->span_t0_base, m->span_wide_t0, s);
}

/* Where far span s's end is in span_far_t1: the far spans before it. */
static inline uint32_t cs_span_far_at(const cs_model *m, uint32_t s)
{
    uint64_t below = m->span_far[s >> 6] & ((UINT64_C(1) << (s & 63)) - 1);
    return m->span_far_rank[s >> 6] + (uint32_t)__builtin_popcountll(below);
}

static inline bool cs_span_is_far(const cs_model *m, uint32_t s)
{
    return m->span_far[s >> 6] >> (s & 63) & 1;
}

static inline cs_sid cs_msg_value(const cs_model *m, uint32_t i)
{
    return m->msg_value ? m->msg_value[i] : 0;
}

static inline int64_t cs_msg_t_send(const cs_model *m, uint32_t i)
{
    return m->msgs[i].dt == CS_MSG_NO_SEND ? CS_T_NONE : cs_msg_t(m, i);
}

static inline int64_t cs_msg_t_recv(const cs_model *m, uint32_t i)
{
    int32_t dt = m->msgs[i].dt;
    return dt == CS_MSG_NO_SEND ? cs_msg_t(m, i) : dt == CS_MSG_FAR ? cs_msg_wide_at(m, i)->t_recv
                                                                   : cs_msg_t(m, i) + dt;
}

/* The fields of cs_msg.who as they are kept (CS_MSG_G_WIDE, CS_MSG_CHAN_WIDE
 * when in msg_wide), and their word from them. */
static inline uint32_t cs__msg_snd(const cs_msg *x) { return (uint32_t)(x->who & CS_MSG_G_WIDE); }
static inline uint32_t cs__msg_rcv(const cs_msg *x) { return (uint32_t)(x->who >> 24 & CS_MSG_G_WIDE); }
static inline uint32_t cs__msg_chn(const cs_msg *x) { return (uint32_t)(x->who >> 48 & CS_MSG_CHAN_WIDE); }
static inline uint64_t cs__msg_who(uint32_t snd, uint32_t rcv, uint32_t chn, unsigned kind, unsigned exact)
{
    return snd | (uint64_t)rcv << 24 | (uint64_t)chn << 48 | (uint64_t)(kind & 1) << 62 |
           (uint64_t)(exact & 1) << 63;
}

static inline cs_msg_kind cs_msg_kind_of(const cs_msg *x) { return (cs_msg_kind)(x->who >> 62 & 1); }
static inline bool cs_msg_exact(const cs_msg *x) { return x->who >> 63; }

static inline uint32_t cs_msg_sender(const cs_model *m, uint32_t i)
{
    uint32_t g = cs__msg_snd(&m->msgs[i]);
    return g != CS_MSG_G_WIDE ? g : cs_msg_wide_at(m, i)->sender;
}

static inline uint32_t cs_msg_receiver(const cs_model *m, uint32_t i)
{
    uint32_t g = cs__msg_rcv(&m->msgs[i]);
    return g != CS_MSG_G_WIDE ? g : cs_msg_wide_at(m, i)->receiver;
}

static inline uint32_t cs_msg_chan(const cs_model *m, uint32_t i)
{
    uint32_t c = cs__msg_chn(&m->msgs[i]);
    return c != CS_MSG_CHAN_WIDE ? c : cs_msg_wide_at(m, i)->chan;
}

/* Message x has an entry in msg_wide. */
static inline bool cs_msg_is_wide(const cs_msg *x)
{
    return cs__msg_snd(x) == CS_MSG_G_WIDE || cs__msg_rcv(x) == CS_MSG_G_WIDE ||
           cs__msg_chn(x) == CS_MSG_CHAN_WIDE || x->dt == CS_MSG_FAR;
}

static inline int64_t cs_span_t1(const cs_model *m, uint32_t s)
{
    return cs_span_is_far(m, s) ? m->span_far_t1[cs_span_far_at(m, s)] : cs_span_t0(m, s + 1);
}

bool cs_runtime_func(const char *func);
const char *cs_state_name(cs_state s);
const char *cs_reason_name(cs_reason r);
const char *cs_edge_kind_name(cs_edge_kind k);
const char *cs_msg_kind_name(cs_msg_kind k);

#endif
