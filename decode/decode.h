/* decode/decode.h — reading a Go execution trace of any version into the
 * model. decode/ promises safety on hostile input: every byte goes through
 * dec_buf, no allocation is sized from an unchecked field, and a bad file
 * yields a cs_err with the byte offset (or, for a trace cut short, the good
 * prefix plus cs_model.warning).
 *
 * Files: detect.c (header, dispatch), legacy_*.c (1.5–1.21, §3 of
 * go-trace-format.md), v2_*.c (1.22+, §4), *_stats.c (§5), chan_*.c (§6–7).
 *
 * API
 *   bool dec_detect(const uint8_t *p, size_t n, int *version, cs_family *fam, cs_err *err)
 *   bool dec_trace_load(const dec_desc *d, const cs_file *f, cs_model *out,
 *                       cs_stats *stats, cs_err *err)
 *       out must be cs_model_init'ed; stats may be NULL (not computed).
 *       On failure out holds whatever was built; cs_model_deinit it.
 *   const char *dec_version_name(int version)      "1.19" for 1019
 *   bool dec_chan_build(cs_model *m, cs_err *err)
 *       classifies every edge and builds messages and channels (§6–7);
 *       dec_trace_load calls it once the family decoder has built a model.
 *   size_t dec_chan_site(const cs_model *m, uint32_t stack, char *out, size_t cap)
 *       code site of a channel operation in a stack, "func:file:line"
 *       ("" when none); returns the length written.
 */
#ifndef DEC_DECODE_H
#define DEC_DECODE_H

#include "../core/cs.h"
#include "../core/file.h"
#include "../core/model.h"
#include "../core/stats.h"

/* One event in Go's order, handed to dec_desc.on_event. Transient: valid only
 * during the call. */
typedef struct dec_event {
    uint64_t off;          /* byte offset of the record in the file */
    int64_t ts;            /* ns, as Go's reader reports it */
    int64_t p;             /* P id, -1 none (legacy fake Ps >= 1000000 kept) */
    uint64_t g;            /* goroutine the event belongs to, CS_NO_GOID none (legacy: Go's G, 0 = none) */
    uint64_t args[6];      /* arguments after the timestamp, wire order */
    uint8_t nargs;
    uint16_t type;         /* the family's wire type number */
    const char *type_name; /* Go's name of the type, e.g. "GoBlockRecv" */
    const char *kind_name; /* 1.22+: public event kind ("StateTransition"); legacy: type_name */
    uint32_t stack;        /* model stack index, 0 none */
    const char *sarg;      /* string argument (label, name, log message) or NULL */
    size_t sarg_len;
} dec_event;

typedef bool dec_event_fn(void *ud, const dec_event *ev, cs_err *err);
/* Called now and then while decoding (at least every few MB of the file)
 * from the thread that called dec_trace_load; returning false stops the
 * decoder, which fails with CS_E_CANCELLED. */
typedef bool dec_progress_fn(void *ud, uint64_t done_bytes, uint64_t total_bytes);

typedef struct dec_desc {
    const char *path;       /* for messages only */
    int jobs;               /* threads; 0 = one for files under 4 MB, else the cores nothing else is busy on */
    size_t split_min;       /* with jobs > 1, the least work worth a second thread: a legacy file
                               of this size has pass 1 split, a 1.22+ generation of this size is
                               ordered on a worker (0: 8 MB and 1 MB) */
    uint64_t cut;           /* 1.22+ statistics on two threads: the byte the second part starts
                               at (0: where it evens out the work; tests move it about) */
    bool strict;            /* a truncated trace is an error, not a warning */
    bool no_model;          /* skip spans/edges/messages (stats and events only) */
    bool no_hot;            /* 1.22+: every event the general way, none through the inline
                               hot path (tests compare the two) */
    const char *binary;     /* Go binary to symbolize 1.5/1.6 PCs, or NULL */
    dec_event_fn *on_event; /* called for every event in Go's order, or NULL */
    bool loose_order;       /* on_event only counts: a legacy GoSysExit may come at its merge
                               position instead of Go's re-sorted one, so decoding streams */
    void *event_ud;
    dec_progress_fn *on_progress; /* or NULL */
    void *progress_ud;
} dec_desc;

/* The trace wire versions chanscope reads, for messages and --help. */
#define DEC_VERSIONS "1.5, 1.7-1.11, 1.19, 1.21, 1.22, 1.23, 1.25, 1.26"
bool dec_detect(const uint8_t *p, size_t n, int *version, cs_family *fam, cs_err *err);
bool dec_trace_load(const dec_desc *d, const cs_file *f, cs_model *out, cs_stats *stats,
                    cs_err *err);
const char *dec_version_name(int version);
bool dec_chan_build(cs_model *m, cs_err *err);
size_t dec_chan_site(const cs_model *m, uint32_t stack, char *out, size_t cap);

/* Reports progress through d->on_progress (if any); false with
 * CS_E_CANCELLED when the callback asks to stop. */
bool dec__progress(const dec_desc *d, uint64_t done_bytes, uint64_t total_bytes, cs_err *err);

/* Threads to decode a file of `size` bytes with: d->jobs, or when 0 one
 * for small files, else the online cores less the threads of other work
 * runnable right now (at least 1). */
int dec__threads(const dec_desc *d, size_t size);

/* Family entry points, called by dec_trace_load after detection. */
bool dec__legacy_load(const dec_desc *d, const cs_file *f, int version, cs_model *out,
                      cs_stats *stats, cs_err *err);
bool dec__v2_load(const dec_desc *d, const cs_file *f, int version, cs_model *out,
                  cs_stats *stats, cs_err *err);

#endif
