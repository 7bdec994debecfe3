/* cli/common.c — shared option handling, trace loading with a progress bar,
 * and the single place where errors reach the user. */
#include "cli.h"
#include "../layout/graph.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *cli_trace_name(const char *path)
{
    return strcmp(path, "-") ? path : "stdin";
}

const char *cli_out_name(const char *path)
{
    return strcmp(path, "-") ? path : "standard output";
}

int cli_report(const cs_err *err, const char *path)
{
    const char *p = path ? cli_trace_name(path) : "chanscope";
    if (err->offset != CS_NO_OFFSET)
        fprintf(stderr, "%s:%llu: %s\n", p, (unsigned long long)err->offset, err->msg);
    else
        fprintf(stderr, "%s: %s\n", p, err->msg);
    if (getenv("CHANSCOPE_DEBUG"))
        fprintf(stderr, "  (%s, raised at source line %d)\n", cs_code_name(err->code), err->src_line);
    return err->code == CS_E_USAGE ? 2 : 1;
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "chanscope %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\nTry 'chanscope %s --help'.\n", cmd);
    va_end(ap);
    return 2;
}

bool cli_int_parse(const char *s, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < lo || v > hi)
        return false;
    *out = (int)v;
    return true;
}

bool cli_size_parse(const char *s, int lo, int hi, int *w, int *h)
{
    const char *x = strchr(s, 'x');
    char ws[16];
    if (!x || (size_t)(x - s) >= sizeof ws)
        return false;
    memcpy(ws, s, (size_t)(x - s));
    ws[x - s] = 0;
    return cli_int_parse(ws, lo, hi, w) && cli_int_parse(x + 1, lo, hi, h);
}

/* The shared trace options: true when opt is one; *why is then the usage
 * message for a bad value, or NULL. */
static bool trace_opt(int opt, const char *arg, cli_trace_opts *o, const char **why)
{
    *why = NULL;
    switch (opt) {
    case CLI_OPT_BINARY: o->binary = arg; return true;
    case CLI_OPT_STRICT: o->strict = true; return true;
    case 'q': o->quiet = true; return true;
    case 'j':
        if (!cli_int_parse(arg, 1, 256, &o->jobs))
            *why = "-j (--jobs) must be a number of threads from 1 to 256";
        return true;
    }
    return false;
}

/* The command's own long options, then --help and the shared trace options. */
static const struct option *all_longopts(const struct option *own)
{
    static const struct option shared[] = {{"help", no_argument, NULL, 'h'}, CLI_TRACE_LONGOPTS, {0}};
    static struct option all[64];
    size_t n = 0;
    for (; own && own[n].name && n < 48; n++)
        all[n] = own[n];
    for (size_t i = 0; i < sizeof shared / sizeof *shared; i++)
        all[n + i] = shared[i];
    return all;
}

int cli_args_parse(const cli_args *a, int argc, char **argv, cli_trace_opts *o)
{
    char shortopts[64];
    snprintf(shortopts, sizeof shortopts, "hj:q%s", a->shortopts ? a->shortopts : "");
    const struct option *longopts = all_longopts(a->longopts);
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        if (c == 'h') {
            fputs(a->help, stdout);
            return 0;
        }
        if (c == '?')
            return cli_usage(a->cmd, "bad option");
        const char *why;
        if (!trace_opt(c, optarg, o, &why))
            why = a->on_opt ? a->on_opt(a->ud, c, optarg) : "bad option";
        if (why)
            return cli_usage(a->cmd, "%s", why);
    }
    if (optind != argc - 1)
        return cli_usage(a->cmd, "expected exactly one TRACE");
    o->path = argv[optind];
    return -1;
}

const char *cli_json_flag(void *ud, int opt, const char *arg)
{
    (void)arg;
    if (opt != 'J')
        return "bad option";
    *(bool *)ud = true;
    return NULL;
}

const char *cli_lane_opt(cli_lane_opts *o, int opt, const char *arg)
{
    static const char *const axes[] = {"linear", "log", "gaps"};
    int k;
    switch (opt) {
    case CLI_OPT_AXIS:
        if ((k = cli_pick(arg, axes, 3)) < 0)
            return "--axis must be linear, log or gaps";
        o->axis = (lay_axis_kind)k;
        return NULL;
    case CLI_OPT_COMPACT: o->compact = true; return NULL;
    case CLI_OPT_COLLAPSE: o->collapse = true; return NULL;
    }
    return "bad option";
}

int cli_pick(const char *arg, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(arg, names[i]))
            return i;
    return -1;
}

const char *cli_base_name(const char *path)
{
    path = cli_trace_name(path);
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

bool cli_open(const cli_trace_opts *o, cs_file *f, cs_model *m, cs_stats *s, int *rc)
{
    cs_err err = {0};
    if (cli_load(o, f, m, s, &err))
        return true;
    cli_unload(f, m, s);
    *rc = cli_report(&err, o->path);
    return false;
}

/* The stderr progress bar: drawn once loading has taken a quarter of a
 * second (a faster load shows none, and spends nothing on the terminal),
 * then when its percentage changes, at most ten times a second. */
typedef struct bar { double t0, drawn_at; int pct; bool shown; } bar;

double cli_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static bool progress(void *ud, uint64_t done, uint64_t total)
{
    bar *b = ud;
    int pct = total ? (int)(done * 100 / total) : 0, n = pct * 30 / 100;
    if (!total || done >= total || pct == b->pct)
        return true;
    double t = cli_clock();
    if (t - b->t0 < 0.25 || t - b->drawn_at < 0.1)
        return true;
    fprintf(stderr, "\rdecoding [%.*s%*s] %3d%%", n, "==============================", 30 - n, "", pct);
    b->pct = pct, b->drawn_at = t, b->shown = true;
    return true;
}

/* Reading a stream: its notices and progress. */
typedef struct reading { const cli_trace_opts *o; bar b; } reading;

static void waiting(void *ud, const char *path)
{
    if (!((const reading *)ud)->o->quiet)
        fprintf(stderr, "chanscope: waiting for a writer on %s (Ctrl-C to stop)\n", path);
}

/* A stream's bytes so far go to the caller's progress function (the
 * viewer's loading screen, which may cancel), else, on a terminal, to a
 * "reading N MB" line drawn as the decoding bar is. */
static bool read_progress(void *ud, uint64_t bytes)
{
    reading *r = ud;
    if (r->o->on_progress)
        return r->o->on_progress(r->o->progress_ud, bytes, 0);
    double t = cli_clock();
    if (r->o->quiet || !isatty(2) || t - r->b.t0 < 0.25 || t - r->b.drawn_at < 0.1)
        return true;
    fprintf(stderr, "\rreading %.1f MB", (double)bytes / 1e6);
    r->b.drawn_at = t, r->b.shown = true;
    return true;
}

bool cli_load(const cli_trace_opts *o, cs_file *f, cs_model *m, cs_stats *s, cs_err *err)
{
    cs_model_init(m);
    if (s)
        memset(s, 0, sizeof *s);
    reading r = {.o = o, .b = {.t0 = cli_clock()}};
    bool ok = cs_file_open(o->path, &(cs_file_hooks){.on_wait = waiting, .on_read = read_progress, .ud = &r}, f, err);
    if (ok)
        cs_out_protect(f);
    ok = ok && cli_decode(o, f, m, s, err); /* a stream is read while it is decoded */
    f->hooks = (cs_file_hooks){0};          /* r goes now */
    if (r.b.shown)
        fputs("\r\033[K", stderr);
    return ok;
}

bool cli_decode(const cli_trace_opts *o, cs_file *f, cs_model *m, cs_stats *s, cs_err *err)
{
    bool show_progress = !o->quiet && f->size > 50u * 1024 * 1024 && isatty(2);
    bar b = {.t0 = cli_clock(), .pct = -1};
    dec_desc d = {
        .path = o->path, .jobs = o->jobs, .strict = o->strict, .no_model = o->no_model,
        .drawn_ranges = o->drawn_only,
        .binary = o->binary, .on_event = o->on_event, .event_ud = o->event_ud,
        .loose_order = o->loose_order,
        .on_progress = o->on_progress ? o->on_progress : show_progress ? progress : NULL,
        .progress_ud = o->on_progress ? o->progress_ud : &b,
    };
    bool ok = dec_trace_load(&d, f, m, s, err) && (o->traffic_later || cli_traffic(o, m, err));
    if (b.shown)
        fputs("\r\033[K", stderr);
    if (!ok)
        return false;
    if (m->warning[0] && !o->quiet)
        fprintf(stderr, "%s: warning: %s\n", cli_trace_name(o->path), m->warning);
    return true;
}

bool cli_traffic(const cli_trace_opts *o, cs_model *m, cs_err *err)
{
    if (o->no_model)
        return true;
    if (!(o->drawn_only ? trf_build_drawn(m, err) : trf_build(m, err)))
        return false;
    cs_model_fit(m); /* the model is whole: nothing is added to it from here on */
    return true;
}

void cli_unload(cs_file *f, cs_model *m, cs_stats *s)
{
    cs_model_deinit(m);
    cs_stats_deinit(s);
    cs_file_unmap(f);
}

const char *cli_engine_opt(const char **engine, const char *arg)
{
    return (*engine = lay_graph_engine_parse(arg)) ? NULL : "--engine must be dot, neato, sfdp, fdp or circo";
}
