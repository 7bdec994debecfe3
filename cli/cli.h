/* cli/cli.h — what the chanscope commands share: the command table, loading a
 * trace with the common options, and the one place errors are printed.
 *
 * Exit status of every command: 0 ok, 1 bad input (or failed output), 2 usage.
 *
 * API
 *   int cli_report(const cs_err *err, const char *path)   prints "path:offset: msg", returns exit status
 *   int cli_usage(const char *cmd, const char *fmt, ...)  prints a usage error, returns 2
 *   bool cli_load(const cli_trace_opts *o, cs_file *f, cs_model *m, cs_stats *s, cs_err *err)
 *       decodes (dec_trace_load), then, unless o->no_model or o->traffic_later,
 *       finds the channel traffic (cli_traffic)
 *   bool cli_decode(const cli_trace_opts *o, cs_file *f, cs_model *m, cs_stats *s, cs_err *err)
 *       cli_load's second half: f (a stream: read as it is decoded) into m (initialised by the caller)
 *   bool cli_traffic(const cli_trace_opts *o, cs_model *m, cs_err *err)
 *       the channel traffic of a decoded model (traffic/), as o asks: what cli_decode
 *       does after decoding, unless o->traffic_later
 *   void cli_unload(cs_file *f, cs_model *m, cs_stats *s)
 *   int cli_args_parse(const cli_args *a, int argc, char **argv, cli_trace_opts *o)
 *       -h prints a->help; shared trace options fill o; the command's own go to
 *       a->on_opt; exactly one TRACE becomes o->path. Returns -1 to go on, else
 *       the exit status to return now (0 after --help, 2 on a usage error).
 *   cli_opt_fn cli_json_flag                       on_opt for commands whose only option is
 *                                                  --json (val 'J'): sets *(bool *)ud
 *   const char *cli_trace_name(const char *path)   how messages name a trace: "stdin" for "-"
 *   const char *cli_out_name(const char *path)     how messages name an output: "standard output" for "-"
 *   const char *cli_base_name(const char *path)    the file name without its folders ("stdin" for "-")
 *   double cli_clock(void)                          monotonic seconds
 *   const char *cli_engine_opt(const char **engine, const char *arg)
 *       --engine: the Graphviz layout named, or the usage message
 *   int cli_pick(const char *arg, const char *const *names, int n)   index of arg in names, or -1
 *   bool cli_int_parse(const char *s, int lo, int hi, int *out)      a decimal integer within lo..hi
 *   bool cli_size_parse(const char *s, int lo, int hi, int *w, int *h)   "WxH", each within lo..hi
 *   bool cli_open(const cli_trace_opts *o, cs_file *f, cs_model *m, cs_stats *s, int *rc)
 *       cli_load; on failure unloads, reports, and sets *rc to the exit status
 *   CLI_TRACE_LONGOPTS / CLI_TRACE_HELP                               their getopt_long entries and help text
 *   const char *cli_lane_opt(cli_lane_opts *o, int opt, const char *arg)
 *       takes CLI_LANE_LONGOPTS' options into o: NULL when taken, else the usage message
 *   CLI_LANE_LONGOPTS / CLI_LANE_HELP                                 their getopt_long entries and help text
 *   const char *cli_time_parse(const char *opt, const char *s, cli_time *out)
 *       opt's TIME: NULL, or the usage message saying why it is not one
 *   const char *cli_range_parse(const char *s, cli_range *out)   --range FROM:TO (either may be empty), likewise
 *   bool cli_time_resolve(const char *opt, const cli_time *t, int64_t dur, int64_t *out_ns, cs_err *err)
 *   bool cli_range_resolve(const cli_range *r, int64_t dur, int64_t *from_ns, int64_t *to_ns, cs_err *err)
 *       ns from the trace start, within 0..dur; a usage error naming the trace's span when not
 *   void cli_json_str(FILE *f, const char *s)     a JSON string literal (cs_json_str)
 *   void cli_json_time(FILE *f, int64_t t)        ns, or null for CS_T_NONE
 *   void cli_csv_str(FILE *f, const char *s)      a quoted CSV field (cs_csv_str)
 *
 * cli_out: text gathered in a buffer of its own and written to o->f when it
 * fills, for outputs of a line per goroutine (`cli_out o = {.f = stdout}`):
 *   void cli_out_mem(cli_out *o, const char *s, size_t n) / cli_out_str(o, s) / cli_out_ch(o, c)
 *   void cli_out_pad(cli_out *o, int n)               n spaces, none when n <= 0
 *   void cli_out_right(cli_out *o, const char *s, size_t n, int w)   s right-aligned in w bytes
 *   void cli_out_u64(cli_out *o, uint64_t v) / cli_out_i64(o, int64_t v)   in decimal
 *   char *cli_dec(char *end, uint64_t v)               v's decimal digits, ending at end; their start
 *   void cli_out_json_str(cli_out *o, const char *s)  the same, into o
 *   void cli_out_csv_str(cli_out *o, const char *s)   likewise
 *   void cli_out_flush(cli_out *o)                    writes what is held; once a write has
 *                                                     failed (o->bad) writes nothing more
 *   void cli_out_end(cli_out *o)                      the last flush: its last byte goes through
 *       the stream's own buffer even after a failed write, so that main's closing fflush
 *       writes again and can say why it fails
 */
#ifndef CLI_H
#define CLI_H

#include "../core/cs.h"
#include "../core/file.h"
#include "../core/model.h"
#include "../core/stats.h"
#include "../decode/decode.h"
#include "../traffic/traffic.h"
#include "../layout/axis.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

typedef struct cli_cmd {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
} cli_cmd;

/* Options every command that reads a trace accepts. */
typedef struct cli_trace_opts {
    const char *path;
    const char *binary; /* --binary */
    int jobs;           /* -j */
    bool strict;        /* --strict */
    bool quiet;         /* -q: no warnings, no progress */
    bool no_model;      /* set by commands that need only events/stats */
    bool drawn_only;    /* set by pictures: of the wake-ups and the ranges keep the drawn ones
                           (trf_build_drawn, dec_desc.drawn_ranges) */
    bool traffic_later; /* the caller runs cli_traffic itself (the viewer, after its first picture) */
    dec_event_fn *on_event;
    bool loose_order;   /* see dec_desc.loose_order */
    void *event_ud;
    dec_progress_fn *on_progress; /* instead of the stderr progress bar, or NULL */
    void *progress_ud;
} cli_trace_opts;

enum { CLI_OPT_BINARY = 1000, CLI_OPT_STRICT, CLI_OPT_AXIS, CLI_OPT_COMPACT, CLI_OPT_COLLAPSE };

#define CLI_TRACE_LONGOPTS                                       \
    {"binary", required_argument, NULL, CLI_OPT_BINARY},         \
    {"jobs", required_argument, NULL, 'j'},                      \
    {"strict", no_argument, NULL, CLI_OPT_STRICT},               \
    {"quiet", no_argument, NULL, 'q'}

#define CLI_TRACE_HELP                                                               \
    "  -j, --jobs N       decode with N threads (default: the idle cores)\n"          \
    "      --strict       treat a truncated trace as an error\n"                     \
    "      --binary PATH  Go binary to symbolize PCs of Go 1.5/1.6 traces\n"        \
    "  -q, --quiet        no warnings or progress bar on stderr\n"

/* How the lanes view lays out time and goroutines (svg, png, view). */
typedef struct cli_lane_opts {
    lay_axis_kind axis;   /* --axis linear|log|gaps */
    bool compact;         /* --compact */
    bool collapse;        /* --collapse */
} cli_lane_opts;

#define CLI_LANE_LONGOPTS                                        \
    {"axis", required_argument, NULL, CLI_OPT_AXIS},             \
    {"compact", no_argument, NULL, CLI_OPT_COMPACT},             \
    {"collapse", no_argument, NULL, CLI_OPT_COLLAPSE}

#define CLI_LANE_HELP                                                                       \
    "      --axis KIND       time axis: linear (default), log (early detail, late\n"         \
    "                        overview) or gaps (idle stretches folded and marked)\n"        \
    "      --compact         reuse a lane after its goroutine ends\n"                       \
    "      --collapse        one lane per entry function\n"                                 \
    "                        (too many goroutines for the picture's lanes: lanes are\n"     \
    "                        reused, and collapsed when as many are alive at once)\n"

int cli_report(const cs_err *err, const char *path);
int cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A command's own option: NULL when taken, else the usage message. */
typedef const char *cli_opt_fn(void *ud, int opt, const char *arg);

typedef struct cli_args {
    const char *cmd;                /* "png" */
    const char *help;               /* printed by -h/--help */
    const char *shortopts;          /* the command's own, e.g. "o:"; "hj:q" are added */
    const struct option *longopts;  /* the command's own, {0}-terminated, or NULL */
    cli_opt_fn *on_opt;
    void *ud;
} cli_args;

int cli_args_parse(const cli_args *a, int argc, char **argv, cli_trace_opts *o);

/* A time as given on the command line (cli/times.c). */
typedef struct cli_time {
    const char *text; /* as typed, for messages */
    double v;
    double unit_ns;   /* ns per unit; 0 = v is a percentage of the duration */
    bool set;
} cli_time;

typedef struct cli_range {
    const char *text;
    cli_time from, to; /* unset: the trace's start, end */
    bool set;
} cli_range;

const char *cli_time_parse(const char *opt, const char *s, cli_time *out);
const char *cli_range_parse(const char *s, cli_range *out);
bool cli_time_resolve(const char *opt, const cli_time *t, int64_t dur, int64_t *out_ns, cs_err *err);
bool cli_range_resolve(const cli_range *r, int64_t dur, int64_t *from_ns, int64_t *to_ns, cs_err *err);
bool cli_open(const cli_trace_opts *o, cs_file *f, cs_model *m, cs_stats *s, int *rc);
const char *cli_json_flag(void *ud, int opt, const char *arg);
const char *cli_lane_opt(cli_lane_opts *o, int opt, const char *arg);
const char *cli_trace_name(const char *path);
const char *cli_out_name(const char *path);
const char *cli_base_name(const char *path);
double cli_clock(void);
const char *cli_engine_opt(const char **engine, const char *arg);
int cli_pick(const char *arg, const char *const *names, int n);
bool cli_int_parse(const char *s, int lo, int hi, int *out);
bool cli_size_parse(const char *s, int lo, int hi, int *w, int *h);
bool cli_load(const cli_trace_opts *o, cs_file *f, cs_model *m, cs_stats *s, cs_err *err);
bool cli_decode(const cli_trace_opts *o, cs_file *f, cs_model *m, cs_stats *s, cs_err *err);
bool cli_traffic(const cli_trace_opts *o, cs_model *m, cs_err *err);
void cli_unload(cs_file *f, cs_model *m, cs_stats *s);
void cli_json_str(FILE *f, const char *s);
void cli_json_time(FILE *f, int64_t t);
void cli_csv_str(FILE *f, const char *s);

typedef struct cli_out {
    FILE *f;
    bool bad;         /* a write to f failed: the stream's error indicator is set */
    size_t n;         /* bytes held in b */
    char b[16384];
} cli_out;

void cli_out_flush(cli_out *o);
void cli_out_end(cli_out *o);
void cli__out_spill(cli_out *o, const char *s, size_t n);
void cli_out_pad(cli_out *o, int n);
void cli_out_right(cli_out *o, const char *s, size_t n, int w);
void cli_out_u64(cli_out *o, uint64_t v);
void cli_out_i64(cli_out *o, int64_t v);
char *cli_dec(char *end, uint64_t v);
void cli_out_json_str(cli_out *o, const char *s);
void cli_out_csv_str(cli_out *o, const char *s);

static inline void cli_out_mem(cli_out *o, const char *s, size_t n)
{
    if (n > sizeof o->b - o->n) {
        cli__out_spill(o, s, n);
        return;
    }
    memcpy(o->b + o->n, s, n);
    o->n += n;
}

static inline void cli_out_str(cli_out *o, const char *s)
{
    cli_out_mem(o, s, strlen(s));
}

static inline void cli_out_ch(cli_out *o, char c)
{
    if (o->n == sizeof o->b)
        cli_out_flush(o);
    o->b[o->n++] = c;
}

/* Commands (one file each: cli/cmd_<name>.c). */
int cli_cmd_info(int argc, char **argv);
int cli_cmd_pairs(int argc, char **argv);
int cli_cmd_edges(int argc, char **argv);
int cli_cmd_svg(int argc, char **argv);
int cli_cmd_perfetto(int argc, char **argv);
int cli_cmd_png(int argc, char **argv);
int cli_cmd_view(int argc, char **argv);
int cli_cmd_events(int argc, char **argv);
int cli_cmd_stats(int argc, char **argv);

/* stats: a goroutine's place in the order --sort asks for: key ascending
 * (cmd_stats.c), then g, its index in cs_stats.g (which is by goid). */
typedef struct cli__srow {
    uint64_t key;
    uint32_t g;
} cli__srow;
/* stats_v2.c: the Go 1.22+ stats output of rows[0..s->n); fmt 0 table, 1 JSON,
 * 2 CSV. False on out of memory. */
bool cli__stats_v2_print(const cs_stats *s, const cs_model *m, const cli__srow *rows, int fmt);
/* cmd_stats.c, for both families: the tables' NAME width; "ID  NAME  PC" of
 * a table's row; a duration right-aligned in w columns; the JSON document's
 * start and end (n rows), between which a row follows a newline, and a comma
 * but for the first. */
int cli__stats_wname(const cs_stats *s, const cs_model *m);
void cli__stats_lead(cli_out *o, const cs_model *m, const cs_gstat *g, int wname);
void cli__stats_dur(cli_out *o, int64_t ns, int w);
void cli__stats_json_head(cli_out *o, const cs_model *m);
void cli__stats_json_tail(cli_out *o, uint32_t n);
/* A duration for the stats table: "0", "750ns", "1.5µs", "2.25ms", "1.250s",
 * in buf (CLI_NS_MAX bytes), NUL-terminated; its length. */
#define CLI_NS_MAX 32
size_t cli__fmt_ns(char *buf, int64_t ns);
int cli_cmd_dot(int argc, char **argv);

#endif
