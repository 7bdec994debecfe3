/* cli/cmd_stats.c — `chanscope stats TRACE`: per-goroutine statistics as Go's
 * own tools compute them (legacy: Go 1.21 GoroutineStats, §5.1 of
 * docs/trace-format.md), as an aligned table, JSON or CSV. Columns are a table
 * per trace family, so 1.22+ columns are one more table. Rows are sorted as
 * keys and indices, and written one at a time through a cli_out, so what the
 * output costs beyond the statistics is a row's text. */
#include "cli.h"

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

/* A time, descending, as a key that ascends. */
static uint64_t desc(int64_t v)
{
    return ~((uint64_t)v ^ UINT64_C(1) << 63);
}

/* A goroutine's key under --sort: a name's stands for its string (cmp_rows
 * compares those); by id all rows tie, and a tie goes by place in
 * cs_stats.g, which is by goid. */
static uint64_t row_key(const cs_gstat *g)
{
    if (!sort_col)
        return desc(keyed(g));
    switch (sort_col->kind) {
    case COL_ID: break;
    case COL_NAME: return g->name;
    case COL_PC: return g->pc;
    case COL_TIME: return desc(tval(g, sort_col));
    }
    return 0;
}

static int cmp_rows(const void *a, const void *b)
{
    const cli__srow *x = a, *y = b;
    int r = x->key < y->key ? -1 : x->key > y->key;
    if (r && sort_col && sort_col->kind == COL_NAME)
        r = strcmp(cs_model_str(sort_model, (cs_sid)x->key), cs_model_str(sort_model, (cs_sid)y->key));
    return r ? r : (x->g < y->g ? -1 : x->g > y->g);
}

/* The rows in --sort's order, or NULL when out of memory. */
static cli__srow *sorted_rows(const cs_stats *s)
{
    cli__srow *rows = cs_alloc(((size_t)s->n + 1) * sizeof *rows);
    if (!rows)
        return NULL;
    for (uint32_t i = 0; i < s->n; i++)
        rows[i] = (cli__srow){row_key(&s->g[i]), i};
    if (s->n && !(sort_col && sort_col->kind == COL_ID)) /* cs_stats.g is by goid */
        qsort(rows, s->n, sizeof *rows, cmp_rows);
    return rows;
}

/* 0 < |ns| < 1000 as printf("%" PRId64 "ns") makes it. */
static size_t ns_small(char *buf, int64_t ns)
{
    char t[4], *d = cli_dec(t + sizeof t, (uint64_t)(ns < 0 ? -ns : ns));
    size_t n = ns < 0, k = (size_t)(t + sizeof t - d);
    if (n)
        buf[0] = '-';
    memcpy(buf + n, d, k);
    memcpy(buf + n + k, "ns", 3);
    return n + k + 2;
}

/* ns / 10^(3 * u) with u decimals and its unit, as printf("%.<u>f") makes
 * of the double quotient: in integers, which round the exact quotient the
 * same way except at an exact tie (the double's own value decides then, so
 * snprintf does) and past 10^15 ns (the double's error may cross a
 * rounding boundary); 0 then, else the text's length. */
static size_t fmt_fixed(char *buf, int64_t ns, int u, const char *unit)
{
    static const int64_t p100[] = {1, 100, 10000, 1000000};
    int64_t scale = p100[u], q = ns / scale, r = ns % scale;
    if (ns < 0 || ns >= 1000000000000000 || 2 * r == scale)
        return 0;
    q += 2 * r > scale;
    char t[24], *end = t + sizeof t, *p = end;
    for (int i = 0; i < u; i++, q /= 10)
        *--p = (char)('0' + q % 10);
    *--p = '.';
    p = cli_dec(p, (uint64_t)q);
    size_t n = (size_t)(end - p), k = strlen(unit);
    memcpy(buf, p, n);
    memcpy(buf + n, unit, k + 1);
    return n + k;
}

size_t cli__fmt_ns(char *buf, int64_t ns)
{
    static const char *const unit[] = {"", "µs", "ms", "s"};
    static const double div[] = {1, 1e3, 1e6, 1e9};
    if (ns == 0) {
        memcpy(buf, "0", 2);
        return 1;
    }
    if (ns < 1000 && ns > -1000)
        return ns_small(buf, ns);
    int u = ns < 1000000 && ns > -1000000 ? 1 : ns < 1000000000 && ns > -1000000000 ? 2 : 3;
    size_t n = fmt_fixed(buf, ns, u, unit[u]);
    return n ? n : (size_t)snprintf(buf, CLI_NS_MAX, "%.*f%s", u, (double)ns / div[u], unit[u]);
}

void cli__stats_dur(cli_out *o, int64_t ns, int w)
{
    if (ns == 0) { /* most cells of a table of many goroutines */
        cli_out_pad(o, w - 1);
        cli_out_ch(o, '0');
        return;
    }
    char buf[CLI_NS_MAX];
    size_t n = cli__fmt_ns(buf, ns);
    int micro = n >= 3 && !memcmp(buf + n - 3, "µs", 3); /* "µ" is two bytes in UTF-8, one column on screen */
    cli_out_pad(o, w - (int)n + micro);
    cli_out_mem(o, buf, n);
}

int cli__stats_wname(const cs_stats *s, const cs_model *m)
{
    int wname = 4;
    for (uint32_t i = 0; i < s->n; i++) {
        int l = (int)strlen(cs_model_str(m, s->g[i].name));
        wname = l > wname ? (l > 48 ? 48 : l) : wname;
    }
    return wname;
}

/* As printf("%10" PRIu64 "  %-*.*s  %#10" PRIx64) makes them. */
void cli__stats_lead(cli_out *o, const cs_model *m, const cs_gstat *g, int wname)
{
    char t[20], *p = cli_dec(t + sizeof t, g->goid);
    cli_out_right(o, p, (size_t)(t + sizeof t - p), 10);
    const char *name = cs_model_str(m, g->name);
    size_t n = strnlen(name, (size_t)wname);
    cli_out_mem(o, "  ", 2);
    cli_out_mem(o, name, n);
    cli_out_pad(o, wname - (int)n + 2);
    p = t + sizeof t;
    for (uint64_t v = g->pc; p == t + sizeof t || v; v >>= 4)
        *--p = "0123456789abcdef"[v & 15];
    if (g->pc) {
        p -= 2;
        memcpy(p, "0x", 2);
    }
    cli_out_right(o, p, (size_t)(t + sizeof t - p), 10);
}

/* The legacy columns begin with ID, NAME and PC. */
static void print_table(const cs_stats *s, const cs_model *m, const cli__srow *rows, const col *cols, size_t nc)
{
    int wname = cli__stats_wname(s, m);
    for (size_t c = 0; c < nc; c++)
        printf(cols[c].kind == COL_NAME ? "%s%-*s" : "%s%*s", c ? "  " : "",
               cols[c].kind == COL_NAME ? wname : 10, cols[c].title);
    putchar('\n');
    cli_out o = {.f = stdout};
    for (uint32_t i = 0; i < s->n && !o.bad; i++) {
        const cs_gstat *g = &s->g[rows[i].g];
        cli__stats_lead(&o, m, g, wname);
        for (size_t c = 0; c < nc; c++) {
            if (cols[c].kind != COL_TIME)
                continue;
            cli_out_mem(&o, "  ", 2);
            cli__stats_dur(&o, tval(g, &cols[c]), 10);
        }
        cli_out_ch(&o, '\n');
    }
    cli_out_end(&o);
}

static void print_csv(const cs_stats *s, const cs_model *m, const cli__srow *rows, const col *cols, size_t nc)
{
    for (size_t c = 0; c < nc; c++)
        printf("%s%s", c ? "," : "", cols[c].key);
    putchar('\n');
    cli_out o = {.f = stdout};
    for (uint32_t i = 0; i < s->n && !o.bad; i++) {
        const cs_gstat *g = &s->g[rows[i].g];
        for (size_t c = 0; c < nc; c++) {
            if (c)
                cli_out_ch(&o, ',');
            switch (cols[c].kind) {
            case COL_ID: cli_out_u64(&o, g->goid); break;
            case COL_NAME: cli_out_csv_str(&o, cs_model_str(m, g->name)); break;
            case COL_PC: cli_out_u64(&o, g->pc); break;
            case COL_TIME: cli_out_i64(&o, tval(g, &cols[c])); break;
            }
        }
        cli_out_ch(&o, '\n');
    }
    cli_out_end(&o);
}

/* The JSON documents are laid out as jansson's JSON_INDENT(1) lays out a
 * tree: a member or an element on a line of its own, indented a space a
 * level; an empty object or array as {} or []. */
void cli__stats_json_head(cli_out *o, const cs_model *m)
{
    cli_out_str(o, "{\n \"version\": ");
    cli_out_json_str(o, dec_version_name(m->version));
    cli_out_str(o, ",\n \"goroutines\": [");
}

void cli__stats_json_tail(cli_out *o, uint32_t n)
{
    cli_out_str(o, n ? "\n ]\n}\n" : "]\n}\n");
}

/* A name that is not UTF-8 is null. */
static void json_row(cli_out *o, const cs_model *m, const cs_gstat *g, const col *cols, size_t nc)
{
    const char *name = cs_model_str(m, g->name);
    for (size_t c = 0; c < nc; c++) {
        cli_out_str(o, c ? ",\n   \"" : "  {\n   \"");
        cli_out_str(o, cols[c].key);
        cli_out_mem(o, "\": ", 3);
        switch (cols[c].kind) {
        case COL_ID: cli_out_i64(o, (int64_t)g->goid); break;
        case COL_NAME: cli_out_json_str(o, name); break;
        case COL_PC: cli_out_i64(o, (int64_t)g->pc); break;
        case COL_TIME: cli_out_i64(o, tval(g, &cols[c])); break;
        }
    }
    cli_out_str(o, "\n  }");
}

static void print_json(const cs_stats *s, const cs_model *m, const cli__srow *rows, const col *cols, size_t nc)
{
    cli_out o = {.f = stdout};
    cli__stats_json_head(&o, m);
    for (uint32_t i = 0; i < s->n && !o.bad; i++) {
        cli_out_str(&o, i ? ",\n" : "\n");
        json_row(&o, m, &s->g[rows[i].g], cols, nc);
    }
    cli__stats_json_tail(&o, s->n);
    cli_out_end(&o);
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
    cli__srow *rows = sorted_rows(&s);
    bool ok = rows != NULL;
    if (ok && s.family == CS_FAM_V2)
        ok = cli__stats_v2_print(&s, &m, rows, fmt == O_JSON ? 1 : fmt == O_CSV ? 2 : 0);
    else if (ok && fmt == O_JSON)
        print_json(&s, &m, rows, cols, nc);
    else if (ok && fmt == O_CSV)
        print_csv(&s, &m, rows, cols, nc);
    else if (ok)
        print_table(&s, &m, rows, cols, nc);
    cs_free(rows);
    cli_unload(&f, &m, &s);
    if (!ok)
        return cli_report(&(cs_err){.code = CS_E_NOMEM, .offset = CS_NO_OFFSET, .msg = "out of memory"}, o.path);
    return 0; /* main checks standard output */
}
