/* decode/decode.h — reading a Go execution trace of any version into the
 * model. decode/ promises safety on hostile input: every byte goes through
 * dec_buf, no allocation is sized from an unchecked field, and a bad file
 * yields a cs_err with the byte offset (or, for a trace cut short, the good
 * prefix plus cs_model.warning).
 *
 * Channel traffic (docs/trace-format.md §6–7) is the next stage: traffic/
 * reads the model built here (trf_build, traffic/traffic.h).
 *
 * Files: detect.c (header, dispatch), legacy_*.c (1.5–1.21, §3 of
 * docs/trace-format.md), v2_*.c (1.22+, §4), *_stats.c (§5).
 *
 * API
 *   bool dec_detect(const uint8_t *p, size_t n, int *version, cs_family *fam, cs_err *err)
 *   bool dec_trace_load(const dec_desc *d, cs_file *f, cs_model *out,
 *                       cs_stats *stats, cs_err *err)
 *       out must be cs_model_init'ed; stats may be NULL (not computed).
 *       A stream f (cs_file.stream) is read as decoding needs it: a Go
 *       1.22+ one a generation at a time (the window holds the generation
 *       being decoded and a read ahead), a legacy one whole. Offsets in
 *       errors and events are the input's.
 *       On failure out holds whatever was built; cs_model_deinit it.
 *   const char *dec_version_name(int version)      "1.19" for 1019
 *
 *   A trace still being written (decode/stream.c), from a stream f the caller reads:
 *   bool dec_stream_open(const dec_desc *d, cs_file *f, dec_stream **out, cs_err *err)
 *       f must outlive it; d is copied (no stats: a model only)
 *   bool dec_stream_feed(dec_stream *ds, bool settled, uint32_t *added, cs_err *err)
 *       decodes what the bytes in hand allow, never reading: the Go 1.22+
 *       generations wholly in hand (*added of them), a legacy trace once f
 *       has ended; at f's end, the rest, and the model is closed. A
 *       generation before wire 1.26 is known to end only where the next
 *       begins: `settled` (the caller's word that its writer has paused, as
 *       at the end of a finished file) takes one that has the tables Go
 *       writes at its end as complete
 *   bool dec_stream_done(const dec_stream *ds)     the whole input was decoded
 *   bool dec_stream_model(const dec_stream *ds, cs_model *out, cs_err *err)
 *       out: the model so far, finished (what dec_trace_load makes of the input
 *       up to the end of the last generation decoded), a copy of its own
 *   void dec_stream_close(dec_stream *ds)          accepts NULL
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
    size_t split_min;       /* with jobs > 1, the fewest bytes of work worth a second thread; the
                               work is what a family hands to it: the whole file for legacy
                               (its first pass split in two), one generation for 1.22+ (ordered
                               on a worker). 0: 8 MB and 1 MB (decode/desc.c) */
    uint64_t cut;           /* 1.22+ statistics on two threads: the byte the second part starts
                               at (0: where it evens out the work; tests move it about) */
    bool strict;            /* a truncated trace is an error, not a warning */
    bool no_model;          /* skip spans and edges (stats and events only) */
    bool drawn_ranges;      /* of the ranges keep those the pictures draw (cs_range_drawn) */
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
bool dec_trace_load(const dec_desc *d, cs_file *f, cs_model *out, cs_stats *stats,
                    cs_err *err);
const char *dec_version_name(int version);

typedef struct dec_stream dec_stream;
bool dec_stream_open(const dec_desc *d, cs_file *f, dec_stream **out, cs_err *err);
bool dec_stream_feed(dec_stream *ds, bool settled, uint32_t *added, cs_err *err);
bool dec_stream_done(const dec_stream *ds);
bool dec_stream_model(const dec_stream *ds, cs_model *out, cs_err *err);
void dec_stream_close(dec_stream *ds);

/* decode/desc.c: the descriptor with every zero field that has a default
 * filled in (jobs, split_min), decided once per load; and the progress hook
 * both families report through (false with CS_E_CANCELLED when the callback
 * asks to stop). */
dec_desc dec__desc_defaults(const dec_desc *d, cs_family fam, size_t size);
bool dec__progress(const dec_desc *d, uint64_t done_bytes, uint64_t total_bytes, cs_err *err);

/* Family entry points, called by dec_trace_load after detection. */
bool dec__legacy_load(const dec_desc *d, const cs_file *f, int version, cs_model *out,
                      cs_stats *stats, cs_err *err);
bool dec__v2_load(const dec_desc *d, cs_file *f, int version, cs_model *out,
                  cs_stats *stats, cs_err *err);

#endif
