/* cli/stats_v2.c — the Go 1.22+ half of `chanscope stats`: Go 1.27's
 * Summarizer columns, where block time is split by reason and range times
 * are keyed by name (docs/trace-format.md §5.2). The text table and CSV get
 * one column per block reason and per range present in the trace; JSON
 * nests them as objects. Called by cmd_stats.c with the rows in order. */
#include "cli.h"

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

/* Whether kv[i] is the first of g's entries in its table under its key:
 * where a JSON object holds that key. */
static bool kv_first_of(const cs_stats *s, const cs_model *m, const cs_gstat *g, uint32_t i)
{
    const char *key = cs_model_str(m, s->kv[i].key);
    for (uint32_t j = g->kv_first; j < i; j++)
        if (s->kv[j].table == s->kv[i].table && !strcmp(cs_model_str(m, s->kv[j].key), key))
            return false;
    return true;
}

/* The value a JSON object holds under kv[i]'s key: its last entry's. */
static int64_t kv_last(const cs_stats *s, const cs_model *m, const cs_gstat *g, uint32_t i)
{
    const char *key = cs_model_str(m, s->kv[i].key);
    for (uint32_t j = g->kv_first + g->kv_count; --j > i;)
        if (s->kv[j].table == s->kv[i].table && !strcmp(cs_model_str(m, s->kv[j].key), key))
            return s->kv[j].ns;
    return s->kv[i].ns;
}

/* g's entries of one table as a JSON object, a member of a row. */
static void json_kv(cli_out *o, const cs_stats *s, const cs_model *m, const cs_gstat *g, uint32_t table)
{
    bool any = false;
    cli_out_ch(o, '{');
    for (uint32_t i = g->kv_first; i < g->kv_first + g->kv_count; i++) {
        const char *key = cs_model_str(m, s->kv[i].key);
        if (s->kv[i].table != table || !kv_first_of(s, m, g, i))
            continue;
        cli_out_str(o, any ? ",\n    " : "\n    ");
        cli_out_json_str(o, key);
        cli_out_mem(o, ": ", 2);
        cli_out_i64(o, kv_last(s, m, g, i));
        any = true;
    }
    cli_out_str(o, any ? "\n   }" : "}");
}

/* Members "key": ns of g, each after ",\n" and its indent. */
static void json_fixed(cli_out *o, const cs_gstat *g, const fixed *f, size_t n)
{
    for (size_t c = 0; c < n; c++) {
        cli_out_str(o, ",\n   \"");
        cli_out_str(o, f[c].key);
        cli_out_mem(o, "\": ", 3);
        cli_out_i64(o, fval(g, &f[c]));
    }
}

static void json_row(cli_out *o, const cs_stats *s, const cs_model *m, const cs_gstat *g)
{
    const char *name = cs_model_str(m, g->name);
    cli_out_str(o, "  {\n   \"id\": ");
    cli_out_i64(o, (int64_t)g->goid);
    cli_out_str(o, ",\n   \"name\": ");
    cli_out_json_str(o, name);
    cli_out_str(o, ",\n   \"pc\": ");
    cli_out_i64(o, (int64_t)g->pc);
    json_fixed(o, g, head, NHEAD);
    cli_out_str(o, ",\n   \"block_by_reason\": ");
    json_kv(o, s, m, g, CS_STAT_BLOCK_BY_REASON);
    json_fixed(o, g, tail, NTAIL);
    cli_out_str(o, ",\n   \"range_time\": ");
    json_kv(o, s, m, g, CS_STAT_RANGE_TIME);
    cli_out_str(o, "\n  }");
}

static void print_json(const cs_stats *s, const cs_model *m, const cli__srow *rows)
{
    cli_out o = {.f = stdout};
    cli__stats_json_head(&o, m);
    for (uint32_t i = 0; i < s->n && !o.bad; i++) {
        cli_out_str(&o, i ? ",\n" : "\n");
        json_row(&o, s, m, &s->g[rows[i].g]);
    }
    cli__stats_json_tail(&o, s->n);
    cli_out_end(&o);
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

static void print_csv(const cs_stats *s, const cs_model *m, const cli__srow *rows, const keyset *br,
                      const keyset *rt)
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
    cli_out o = {.f = stdout};
    for (uint32_t i = 0; i < s->n && !o.bad; i++) {
        const cs_gstat *g = &s->g[rows[i].g];
        int64_t v;
        cli_out_u64(&o, g->goid);
        cli_out_ch(&o, ',');
        cli_out_csv_str(&o, cs_model_str(m, g->name));
        cli_out_ch(&o, ',');
        cli_out_u64(&o, g->pc);
        for (size_t c = 0; c < NHEAD; c++) {
            cli_out_ch(&o, ',');
            cli_out_i64(&o, fval(g, &head[c]));
        }
        for (uint32_t k = 0; k < br->n; k++) {
            kv_val(s, g, CS_STAT_BLOCK_BY_REASON, br->key[k], &v);
            cli_out_ch(&o, ',');
            cli_out_i64(&o, v);
        }
        for (size_t c = 0; c < NTAIL; c++) {
            cli_out_ch(&o, ',');
            cli_out_i64(&o, fval(g, &tail[c]));
        }
        for (uint32_t k = 0; k < rt->n; k++) {
            kv_val(s, g, CS_STAT_RANGE_TIME, rt->key[k], &v);
            cli_out_ch(&o, ',');
            cli_out_i64(&o, v);
        }
        cli_out_ch(&o, '\n');
    }
    cli_out_end(&o);
}

/* Width of a column: its title, at least 10. */
static int width(const char *title)
{
    int l = (int)strlen(title);
    return l < 10 ? 10 : l;
}

/* A time or duration right-aligned in w columns, then two spaces. */
static void cell(cli_out *o, int64_t ns, int w)
{
    if (ns == CS_T_NONE) /* a time that is not */
        cli_out_right(o, "-", 1, w);
    else
        cli__stats_dur(o, ns, w);
    cli_out_mem(o, "  ", 2);
}

/* The widths of the columns after the first three, in order; NULL when out of memory. */
static int *widths(const cs_model *m, const keyset *br, const keyset *rt)
{
    char t[1100];
    int *w = cs_alloc((NHEAD + br->n + NTAIL + rt->n) * sizeof *w), *p = w;
    if (!w)
        return NULL;
    for (size_t c = 0; c < NHEAD; c++)
        *p++ = width(head[c].title);
    for (uint32_t k = 0; k < br->n; k++) {
        snprintf(t, sizeof t, "BLOCK (%s)", cs_model_str(m, br->key[k]));
        *p++ = width(t);
    }
    for (size_t c = 0; c < NTAIL; c++)
        *p++ = width(tail[c].title);
    for (uint32_t k = 0; k < rt->n; k++)
        *p++ = width(cs_model_str(m, rt->key[k]));
    return w;
}

static void table_head(const cs_model *m, const keyset *br, const keyset *rt, int wname, const int *w)
{
    char t[1100];
    printf("%10s  %-*s  %10s  ", "ID", wname, "NAME", "PC");
    for (size_t c = 0; c < NHEAD; c++)
        printf("%*s  ", *w++, head[c].title);
    for (uint32_t k = 0; k < br->n; k++) {
        snprintf(t, sizeof t, "BLOCK (%s)", cs_model_str(m, br->key[k]));
        printf("%*s  ", *w++, t);
    }
    for (size_t c = 0; c < NTAIL; c++)
        printf("%*s  ", *w++, tail[c].title);
    for (uint32_t k = 0; k < rt->n; k++)
        printf("%*s  ", *w++, cs_model_str(m, rt->key[k]));
    putchar('\n');
}

static void table_row(cli_out *o, const cs_stats *s, const cs_model *m, const cs_gstat *g, const keyset *br,
                      const keyset *rt, int wname, const int *w)
{
    int64_t v;
    cli__stats_lead(o, m, g, wname);
    cli_out_mem(o, "  ", 2);
    for (size_t c = 0; c < NHEAD; c++) { /* times from the trace's start; 0, Go's "none": - */
        v = fval(g, &head[c]);
        cell(o, !head[c].at ? v : v ? v - m->t_first : CS_T_NONE, *w++);
    }
    for (uint32_t k = 0; k < br->n; k++) {
        kv_val(s, g, CS_STAT_BLOCK_BY_REASON, br->key[k], &v);
        cell(o, v, *w++);
    }
    for (size_t c = 0; c < NTAIL; c++)
        cell(o, fval(g, &tail[c]), *w++);
    for (uint32_t k = 0; k < rt->n; k++) {
        kv_val(s, g, CS_STAT_RANGE_TIME, rt->key[k], &v);
        cell(o, v, *w++);
    }
    cli_out_ch(o, '\n');
}

static bool print_table(const cs_stats *s, const cs_model *m, const cli__srow *rows, const keyset *br,
                        const keyset *rt)
{
    int wname = cli__stats_wname(s, m);
    int *w = widths(m, br, rt);
    if (!w)
        return false;
    table_head(m, br, rt, wname, w);
    cli_out o = {.f = stdout};
    for (uint32_t i = 0; i < s->n && !o.bad; i++)
        table_row(&o, s, m, &s->g[rows[i].g], br, rt, wname, w);
    cli_out_end(&o);
    cs_free(w);
    return true;
}

bool cli__stats_v2_print(const cs_stats *s, const cs_model *m, const cli__srow *rows, int fmt)
{
    if (fmt == 1) {
        print_json(s, m, rows);
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
        print_csv(s, m, rows, &br, &rt);
    else
        ok = print_table(s, m, rows, &br, &rt);
    cs_free(br.key);
    cs_free(rt.key);
    return ok;
}
