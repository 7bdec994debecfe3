/* cli/stats_v2.c — the Go 1.22+ half of `chanscope stats`: Go 1.27's
 * Summarizer columns, where block time is split by reason and range times
 * are keyed by name (docs/trace-format.md §5.2). The text table and CSV get
 * one column per block reason and per range present in the trace; JSON
 * nests them as objects. Called by cmd_stats.c after sorting. */
#include "cli.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

typedef struct keyset {
    cs_sid *key;
    uint32_t n;
} keyset;

static const cs_model *key_model;

static int key_cmp(const void *a, const void *b)
{
    const cs_sid *x = a, *y = b;
    return strcmp(cs_model_str(key_model, *x), cs_model_str(key_model, *y));
}

/* Distinct keys of one table, sorted by name. */
static bool keys_of(const cs_stats *s, const cs_model *m, uint32_t table, keyset *out)
{
    out->key = cs_alloc(((size_t)s->n_kv + 1) * sizeof *out->key);
    out->n = 0;
    if (!out->key)
        return false;
    for (uint32_t i = 0; i < s->n_kv; i++) {
        if (s->kv[i].table != table)
            continue;
        bool seen = false;
        for (uint32_t k = 0; k < out->n && !seen; k++)
            seen = out->key[k] == s->kv[i].key;
        if (!seen)
            out->key[out->n++] = s->kv[i].key;
    }
    key_model = m;
    qsort(out->key, out->n, sizeof *out->key, key_cmp);
    return true;
}

static bool kv_val(const cs_stats *s, const cs_gstat *g, uint32_t table, cs_sid key, int64_t *v)
{
    for (uint32_t i = g->kv_first; i < g->kv_first + g->kv_count; i++)
        if (s->kv[i].table == table && s->kv[i].key == key) {
            *v = s->kv[i].ns;
            return true;
        }
    *v = 0;
    return false;
}

/* A fixed column; `at`: a time (Go's, on the machine's clock), else a duration. */
typedef struct fixed { const char *key, *title; size_t off; bool at; } fixed;
#define F(key, title, field) {key, title, offsetof(cs_gstat, field), false}
#define AT(key, title, field) {key, title, offsetof(cs_gstat, field), true}
static const fixed head[] = {AT("creation", "CREATED", creation), AT("start", "STARTED", start),
                             AT("end", "ENDED", end), F("exec", "EXEC", exec),
                             F("sched_wait", "SCHED WAIT", sched_wait)};
static const fixed tail[] = {F("syscall", "SYSCALL", syscall), F("syscall_block", "SYSCALL BLOCKED", syscall_block),
                             F("total", "TOTAL", total)};
#define NHEAD (sizeof head / sizeof *head)
#define NTAIL (sizeof tail / sizeof *tail)

static int64_t fval(const cs_gstat *g, const fixed *f)
{
    int64_t v;
    memcpy(&v, (const char *)g + f->off, sizeof v);
    return v;
}

static json_t *kv_obj(const cs_stats *s, const cs_model *m, const cs_gstat *g, uint32_t table)
{
    json_t *o = json_object();
    for (uint32_t i = g->kv_first; i < g->kv_first + g->kv_count; i++)
        if (s->kv[i].table == table)
            json_object_set_new(o, cs_model_str(m, s->kv[i].key), json_integer((json_int_t)s->kv[i].ns));
    return o;
}

static void print_json(const cs_stats *s, const cs_model *m)
{
    json_t *arr = json_array();
    for (uint32_t i = 0; i < s->n; i++) {
        const cs_gstat *g = &s->g[i];
        json_t *o = json_object();
        json_object_set_new(o, "id", json_integer((json_int_t)g->goid));
        json_object_set_new(o, "name", json_string(cs_model_str(m, g->name)));
        json_object_set_new(o, "pc", json_integer((json_int_t)g->pc));
        for (size_t c = 0; c < NHEAD; c++)
            json_object_set_new(o, head[c].key, json_integer((json_int_t)fval(g, &head[c])));
        json_object_set_new(o, "block_by_reason", kv_obj(s, m, g, CS_STAT_BLOCK_BY_REASON));
        for (size_t c = 0; c < NTAIL; c++)
            json_object_set_new(o, tail[c].key, json_integer((json_int_t)fval(g, &tail[c])));
        json_object_set_new(o, "range_time", kv_obj(s, m, g, CS_STAT_RANGE_TIME));
        json_array_append_new(arr, o);
    }
    json_t *j = json_pack("{s:s, s:o}", "version", dec_version_name(m->version), "goroutines", arr);
    json_dumpf(j, stdout, JSON_INDENT(1));
    fputc('\n', stdout);
    json_decref(j);
}

static void csv_str(const char *prefix, const char *s)
{
    putchar('"');
    fputs(prefix, stdout);
    for (; *s; s++) {
        if (*s == '"')
            putchar('"');
        putchar(*s);
    }
    putchar('"');
}

static void print_csv(const cs_stats *s, const cs_model *m, const keyset *br, const keyset *rt)
{
    fputs("id,name,pc", stdout);
    for (size_t c = 0; c < NHEAD; c++)
        printf(",%s", head[c].key);
    for (uint32_t k = 0; k < br->n; k++) {
        putchar(',');
        csv_str("block:", cs_model_str(m, br->key[k]));
    }
    for (size_t c = 0; c < NTAIL; c++)
        printf(",%s", tail[c].key);
    for (uint32_t k = 0; k < rt->n; k++) {
        putchar(',');
        csv_str("range:", cs_model_str(m, rt->key[k]));
    }
    putchar('\n');
    for (uint32_t i = 0; i < s->n; i++) {
        const cs_gstat *g = &s->g[i];
        int64_t v;
        printf("%" PRIu64 ",", g->goid);
        csv_str("", cs_model_str(m, g->name));
        printf(",%" PRIu64, g->pc);
        for (size_t c = 0; c < NHEAD; c++)
            printf(",%" PRId64, fval(g, &head[c]));
        for (uint32_t k = 0; k < br->n; k++) {
            kv_val(s, g, CS_STAT_BLOCK_BY_REASON, br->key[k], &v);
            printf(",%" PRId64, v);
        }
        for (size_t c = 0; c < NTAIL; c++)
            printf(",%" PRId64, fval(g, &tail[c]));
        for (uint32_t k = 0; k < rt->n; k++) {
            kv_val(s, g, CS_STAT_RANGE_TIME, rt->key[k], &v);
            printf(",%" PRId64, v);
        }
        putchar('\n');
    }
}

/* Width of a column: its title, at least 10. */
static int width(const char *title)
{
    int l = (int)strlen(title);
    return l < 10 ? 10 : l;
}

static void cell(int64_t ns, int w)
{
    char buf[64];
    if (ns == CS_T_NONE) /* a time that is not */
        snprintf(buf, sizeof buf, "-");
    else
        cli__fmt_ns(buf, sizeof buf, ns);
    int cols = (int)strlen(buf) - (strstr(buf, "µ") ? 1 : 0); /* "µ" is two bytes but one column */
    for (; cols < w; cols++)
        putchar(' ');
    fputs(buf, stdout);
    fputs("  ", stdout);
}

static bool print_table(const cs_stats *s, const cs_model *m, const keyset *br, const keyset *rt)
{
    int wname = 4;
    for (uint32_t i = 0; i < s->n; i++) {
        int l = (int)strlen(cs_model_str(m, s->g[i].name));
        wname = l > wname ? (l > 48 ? 48 : l) : wname;
    }
    char t[1100];
    int *bw = cs_alloc((size_t)br->n * sizeof *bw + 1); /* the BLOCK columns' widths */
    if (!bw)
        return false;
    printf("%10s  %-*s  %10s  ", "ID", wname, "NAME", "PC");
    for (size_t c = 0; c < NHEAD; c++)
        printf("%*s  ", width(head[c].title), head[c].title);
    for (uint32_t k = 0; k < br->n; k++) {
        snprintf(t, sizeof t, "BLOCK (%s)", cs_model_str(m, br->key[k]));
        printf("%*s  ", bw[k] = width(t), t);
    }
    for (size_t c = 0; c < NTAIL; c++)
        printf("%*s  ", width(tail[c].title), tail[c].title);
    for (uint32_t k = 0; k < rt->n; k++)
        printf("%*s  ", width(cs_model_str(m, rt->key[k])), cs_model_str(m, rt->key[k]));
    putchar('\n');
    for (uint32_t i = 0; i < s->n; i++) {
        const cs_gstat *g = &s->g[i];
        int64_t v;
        printf("%10" PRIu64 "  %-*.*s  %#10" PRIx64 "  ", g->goid, wname, wname, cs_model_str(m, g->name), g->pc);
        for (size_t c = 0; c < NHEAD; c++) { /* times from the trace's start; 0, Go's "none": - */
            v = fval(g, &head[c]);
            cell(!head[c].at ? v : v ? v - m->t_first : CS_T_NONE, width(head[c].title));
        }
        for (uint32_t k = 0; k < br->n; k++) {
            kv_val(s, g, CS_STAT_BLOCK_BY_REASON, br->key[k], &v);
            cell(v, bw[k]);
        }
        for (size_t c = 0; c < NTAIL; c++)
            cell(fval(g, &tail[c]), width(tail[c].title));
        for (uint32_t k = 0; k < rt->n; k++) {
            kv_val(s, g, CS_STAT_RANGE_TIME, rt->key[k], &v);
            cell(v, width(cs_model_str(m, rt->key[k])));
        }
        putchar('\n');
    }
    cs_free(bw);
    return true;
}

bool cli__stats_v2_print(const cs_stats *s, const cs_model *m, int fmt)
{
    if (fmt == 1) {
        print_json(s, m);
        return true;
    }
    keyset br, rt;
    if (!keys_of(s, m, CS_STAT_BLOCK_BY_REASON, &br))
        return false;
    if (!keys_of(s, m, CS_STAT_RANGE_TIME, &rt)) {
        cs_free(br.key);
        return false;
    }
    bool ok = true;
    if (fmt == 2)
        print_csv(s, m, &br, &rt);
    else
        ok = print_table(s, m, &br, &rt);
    cs_free(br.key);
    cs_free(rt.key);
    return ok;
}
