/* cli/cmd_stats.c — `chanscope stats TRACE`: per-goroutine statistics as Go's
 * own tools compute them (legacy: Go 1.21 GoroutineStats, §5.1 of
 * docs/trace-format.md), as an aligned table, JSON or CSV. Columns are a table
 * per trace family, so 1.22+ columns are one more table. */
#include "cli.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: chanscope stats [options] TRACE\n\n"
    "Per-goroutine statistics (times in ns in JSON/CSV, with units in the table;\n"
    "the table's CREATED, STARTED, ENDED from the trace's start, - for none).\n\n"
    "  --json             {\"version\",\"goroutines\":[{\"id\",\"name\",\"pc\",\"creation\",...}]}\n"
    "  --csv              one header line, one line per goroutine\n"
    "  --sort COLUMN      order by COLUMN (a JSON field name; times descending, id/name ascending);\n"
    "                     Go 1.22+ also block (every reason), block:REASON, range:NAME (the CSV's names)\n"
    CLI_TRACE_HELP
    "  -h, --help         this help\n";

typedef enum col_kind { COL_ID, COL_NAME, COL_PC, COL_TIME } col_kind;

typedef struct col {
    const char *key;     /* JSON / CSV / --sort name */
    const char *title;   /* table header */
    col_kind kind;
    size_t off;          /* offset of the int64 in cs_gstat (COL_TIME) */
} col;

#define TCOL(key, title, field) {key, title, COL_TIME, offsetof(cs_gstat, field)}

static const col legacy_cols[] = {
    {"id", "ID", COL_ID, 0}, {"name", "NAME", COL_NAME, 0}, {"pc", "PC", COL_PC, 0},
    TCOL("creation", "CREATED", creation), TCOL("start", "STARTED", start), TCOL("end", "ENDED", end),
    TCOL("exec", "EXEC", exec), TCOL("sched_wait", "SCHED WAIT", sched_wait), TCOL("io", "NET WAIT", io),
    TCOL("block", "SYNC BLOCK", block), TCOL("syscall", "SYSCALL", syscall), TCOL("gc", "GC", gc),
    TCOL("sweep", "SWEEP", sweep), TCOL("total", "TOTAL", total),
};

/* 1.22+: the fixed Summarizer columns (block reasons and ranges are added by stats_v2.c). */
static const col v2_cols[] = {
    {"id", "ID", COL_ID, 0}, {"name", "NAME", COL_NAME, 0}, {"pc", "PC", COL_PC, 0},
    TCOL("creation", "CREATED", creation), TCOL("start", "STARTED", start), TCOL("end", "ENDED", end),
    TCOL("exec", "EXEC", exec), TCOL("sched_wait", "SCHED WAIT", sched_wait),
    TCOL("syscall", "SYSCALL", syscall), TCOL("syscall_block", "SYSCALL BLOCKED", syscall_block),
    TCOL("total", "TOTAL", total),
};

static const col *cols_of(const cs_stats *s, size_t *n)
{
    if (s->family == CS_FAM_V2) {
        *n = sizeof v2_cols / sizeof *v2_cols;
        return v2_cols;
    }
    *n = sizeof legacy_cols / sizeof *legacy_cols;
    return legacy_cols;
}

static int64_t tval(const cs_gstat *g, const col *c)
{
    int64_t v;
    memcpy(&v, (const char *)g + c->off, sizeof v);
    return v;
}

static const cs_model *sort_model;
static const col *sort_col;   /* else 1.22+'s keyed times: */
static const cs_stats *sort_stats;
static uint32_t sort_table;   /* cs_stat_table */
static const char *sort_key;  /* the reason or range, NULL: all of the table */

/* A goroutine's time under sort_key, or under every key of sort_table. */
static int64_t keyed(const cs_gstat *g)
{
    int64_t v = 0;
    for (uint32_t i = g->kv_first; i < g->kv_first + g->kv_count; i++) {
        const cs_stat_kv *kv = &sort_stats->kv[i];
        if (kv->table == sort_table && (!sort_key || !strcmp(cs_model_str(sort_model, kv->key), sort_key)))
            v += kv->ns;
    }
    return v;
}

/* --sort of a 1.22+ trace beyond the fixed columns: "block" (all reasons),
 * "block:REASON" and "range:NAME" (the CSV's column names), when present. */
static bool keyed_sort(const cs_stats *s, const char *sort)
{
    if (s->family != CS_FAM_V2)
        return false;
    sort_stats = s, sort_key = NULL;
    if (!strcmp(sort, "block")) {
        sort_table = CS_STAT_BLOCK_BY_REASON;
        return true;
    }
    if (!strncmp(sort, "block:", 6))
        sort_table = CS_STAT_BLOCK_BY_REASON, sort_key = sort + 6;
    else if (!strncmp(sort, "range:", 6))
        sort_table = CS_STAT_RANGE_TIME, sort_key = sort + 6;
    else
        return false;
    for (uint32_t i = 0; i < s->n_kv; i++)
        if (s->kv[i].table == sort_table && !strcmp(cs_model_str(sort_model, s->kv[i].key), sort_key))
            return true;
    return false;
}

static int cmp_rows(const void *a, const void *b)
{
    const cs_gstat *x = a, *y = b;
    int r = 0;
    if (!sort_col)
        r = keyed(x) > keyed(y) ? -1 : keyed(x) < keyed(y);
    else if (sort_col->kind == COL_NAME)
        r = strcmp(cs_model_str(sort_model, x->name), cs_model_str(sort_model, y->name));
    else if (sort_col->kind == COL_PC)
        r = x->pc < y->pc ? -1 : x->pc > y->pc;
    else if (sort_col->kind == COL_TIME)
        r = tval(x, sort_col) > tval(y, sort_col) ? -1 : tval(x, sort_col) < tval(y, sort_col);
    return r ? r : (x->goid < y->goid ? -1 : x->goid > y->goid);
}

/* ns / 10^(3 * u) with d decimals and its unit, as printf("%.<d>f") makes
 * of the double quotient: in integers, which round the exact quotient the
 * same way except at an exact tie (the double's own value decides then, so
 * snprintf does) and past 10^15 ns (the double's error may cross a
 * rounding boundary); false then. */
static bool fmt_fixed(char *buf, size_t n, int64_t ns, int u, int d, const char *unit)
{
    static const int64_t p10[] = {1, 10, 100, 1000, 10000, 100000, 1000000};
    int64_t scale = p10[3 * u - d], q = ns / scale, r = ns % scale;
    if (ns < 0 || ns >= 1000000000000000 || 2 * r == scale)
        return false;
    q += 2 * r > scale;
    snprintf(buf, n, "%" PRId64 ".%0*" PRId64 "%s", q / p10[d], d, q % p10[d], unit);
    return true;
}

void cli__fmt_ns(char *buf, size_t n, int64_t ns)
{
    double v = (double)ns;
    if (ns == 0)
        snprintf(buf, n, "0");
    else if (ns < 1000 && ns > -1000)
        snprintf(buf, n, "%" PRId64 "ns", ns);
    else if (ns < 1000000 && ns > -1000000) {
        if (!fmt_fixed(buf, n, ns, 1, 1, "µs"))
            snprintf(buf, n, "%.1fµs", v / 1e3);
    } else if (ns < 1000000000 && ns > -1000000000) {
        if (!fmt_fixed(buf, n, ns, 2, 2, "ms"))
            snprintf(buf, n, "%.2fms", v / 1e6);
    } else if (!fmt_fixed(buf, n, ns, 3, 3, "s")) {
        snprintf(buf, n, "%.3fs", v / 1e9);
    }
}

static void print_table(const cs_stats *s, const cs_model *m, const col *cols, size_t nc)
{
    int wname = 4;
    for (uint32_t i = 0; i < s->n; i++) {
        int l = (int)strlen(cs_model_str(m, s->g[i].name));
        wname = l > wname ? (l > 48 ? 48 : l) : wname;
    }
    for (size_t c = 0; c < nc; c++)
        printf(cols[c].kind == COL_NAME ? "%s%-*s" : "%s%*s", c ? "  " : "",
               cols[c].kind == COL_NAME ? wname : 10, cols[c].title);
    putchar('\n');
    for (uint32_t i = 0; i < s->n; i++) {
        const cs_gstat *g = &s->g[i];
        for (size_t c = 0; c < nc; c++) {
            char buf[64];
            fputs(c ? "  " : "", stdout);
            switch (cols[c].kind) {
            case COL_ID: printf("%10" PRIu64, g->goid); break;
            case COL_NAME: printf("%-*.*s", wname, wname, cs_model_str(m, g->name)); break;
            case COL_PC: printf("%#10" PRIx64, g->pc); break;
            case COL_TIME: /* "µ" is two bytes wide in UTF-8, one column on screen */
                cli__fmt_ns(buf, sizeof buf, tval(g, &cols[c]));
                printf("%*s", strstr(buf, "µ") ? 11 : 10, buf);
                break;
            }
        }
        putchar('\n');
    }
}

static void csv_str(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"')
            putchar('"');
        putchar(*s);
    }
    putchar('"');
}

static void print_csv(const cs_stats *s, const cs_model *m, const col *cols, size_t nc)
{
    for (size_t c = 0; c < nc; c++)
        printf("%s%s", c ? "," : "", cols[c].key);
    putchar('\n');
    for (uint32_t i = 0; i < s->n; i++) {
        const cs_gstat *g = &s->g[i];
        for (size_t c = 0; c < nc; c++) {
            if (c)
                putchar(',');
            switch (cols[c].kind) {
            case COL_ID: printf("%" PRIu64, g->goid); break;
            case COL_NAME: csv_str(cs_model_str(m, g->name)); break;
            case COL_PC: printf("%" PRIu64, g->pc); break;
            case COL_TIME: printf("%" PRId64, tval(g, &cols[c])); break;
            }
        }
        putchar('\n');
    }
}

static void print_json(const cs_stats *s, const cs_model *m, const col *cols, size_t nc)
{
    json_t *arr = json_array();
    for (uint32_t i = 0; i < s->n; i++) {
        const cs_gstat *g = &s->g[i];
        json_t *o = json_object();
        for (size_t c = 0; c < nc; c++) {
            json_t *v = cols[c].kind == COL_ID ? json_integer((json_int_t)g->goid)
                      : cols[c].kind == COL_NAME ? json_string(cs_model_str(m, g->name))
                      : cols[c].kind == COL_PC ? json_integer((json_int_t)g->pc)
                      : json_integer((json_int_t)tval(g, &cols[c]));
            json_object_set_new(o, cols[c].key, v ? v : json_null());
        }
        json_array_append_new(arr, o);
    }
    json_t *j = json_pack("{s:s, s:o}", "version", dec_version_name(m->version), "goroutines", arr);
    json_dumpf(j, stdout, JSON_INDENT(1));
    fputc('\n', stdout);
    json_decref(j);
}

enum { O_JSON = 1, O_CSV, O_SORT };

typedef struct stats_args {
    int fmt;
    const char *sort;
} stats_args;

static const char *parse_opt(void *ud, int opt, const char *arg)
{
    stats_args *a = ud;
    switch (opt) {
    case O_JSON: case O_CSV: a->fmt = opt; return NULL;
    case O_SORT: a->sort = arg; return NULL;
    }
    return "bad option";
}

int cli_cmd_stats(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"json", no_argument, NULL, O_JSON}, {"csv", no_argument, NULL, O_CSV},
        {"sort", required_argument, NULL, O_SORT}, {0}};
    cli_trace_opts o = {.no_model = true};
    stats_args a = {.sort = "id"};
    int rc = cli_args_parse(&(cli_args){.cmd = "stats", .help = help, .longopts = longopts,
                                        .on_opt = parse_opt, .ud = &a}, argc, argv, &o);
    cs_file f;
    cs_model m;
    cs_stats s;
    if (rc >= 0 || !cli_open(&o, &f, &m, &s, &rc))
        return rc;
    int fmt = a.fmt;
    const char *sort = a.sort;
    size_t nc;
    const col *cols = cols_of(&s, &nc);
    sort_col = NULL;
    sort_model = &m;
    for (size_t c = 0; c < nc; c++)
        if (!strcmp(cols[c].key, sort))
            sort_col = &cols[c];
    if (!sort_col && !keyed_sort(&s, sort)) {
        cli_unload(&f, &m, &s);
        return cli_usage("stats", "unknown --sort column '%s'", sort);
    }
    if (s.n)
        qsort(s.g, s.n, sizeof *s.g, cmp_rows);
    if (s.family == CS_FAM_V2) {
        if (!cli__stats_v2_print(&s, &m, fmt == O_JSON ? 1 : fmt == O_CSV ? 2 : 0)) {
            cli_unload(&f, &m, &s);
            return cli_report(&(cs_err){.code = CS_E_NOMEM, .offset = CS_NO_OFFSET, .msg = "out of memory"}, o.path);
        }
    } else if (fmt == O_JSON)
        print_json(&s, &m, cols, nc);
    else if (fmt == O_CSV)
        print_csv(&s, &m, cols, nc);
    else
        print_table(&s, &m, cols, nc);
    cli_unload(&f, &m, &s);
    return 0; /* main checks standard output */
}
