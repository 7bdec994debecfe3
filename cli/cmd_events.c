/* cli/cmd_events.c — `chanscope events TRACE`: every event in the decoder's
 * order, one line each (time ns, P, G, type, arguments, stack id), like
 * `go tool trace -d`; --stacks adds the frames; --summary counts events per
 * type (legacy: Go's legacy type names; 1.22+: also per public event kind). */
#include "cli.h"
#include "../core/build.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

static const char help[] =
    "usage: chanscope events [options] TRACE\n\n"
    "Print every event in order: time (ns), P, G, type, arguments, stack id.\n\n"
    "  --stacks           print each event's stack frames below it\n"
    "  --summary          count events per type instead of listing them\n"
    "  --json             with --summary: {\"version\",\"total\",\"by_type\"[,\"by_kind\"]}\n"
    CLI_TRACE_HELP
    "  -h, --help         this help\n";

#define MAX_NAMES 128

/* Names are the decoder's static strings, so counting by pointer is exact. */
typedef struct counts {
    const char *name[MAX_NAMES];
    uint64_t n[MAX_NAMES];
    uint32_t used;
    const char *slot_name[64]; /* direct-mapped by pointer: name -> index */
    uint8_t slot[64];
} counts;

typedef struct ev_ctx {
    const cs_model *m;
    bool summary, stacks;
    uint64_t total;
    counts by_type, by_kind;
} ev_ctx;

static void count(counts *c, const char *name)
{
    uint32_t h = (uint32_t)((uintptr_t)name >> 3) & 63;
    if (c->slot_name[h] == name) {
        c->n[c->slot[h]]++;
        return;
    }
    uint32_t i = 0;
    while (i < c->used && c->name[i] != name)
        i++;
    if (i == c->used)
        for (i = 0; i < c->used && strcmp(c->name[i], name); i++) {
        }
    if (i == c->used) {
        if (c->used == MAX_NAMES)
            return;
        c->name[c->used++] = name;
        c->n[i] = 0;
    }
    c->slot_name[h] = name, c->slot[h] = (uint8_t)i;
    c->n[i]++;
}

static void print_stack(const cs_model *m, uint32_t stack)
{
    uint32_t n = cs_model_stack_len(m, stack);
    for (uint32_t i = 0; i < n; i++) {
        const cs_frame *f = cs_model_stack_frame(m, stack, i);
        printf("    %#llx %s %s:%u\n", (unsigned long long)f->pc, cs_model_str(m, f->func),
               cs_model_str(m, f->file), f->line);
    }
}

static bool on_event(void *ud, const dec_event *ev, cs_err *err)
{
    (void)err;
    ev_ctx *c = ud;
    c->total++;
    if (c->summary) {
        count(&c->by_type, ev->type_name);
        if (c->m->family == CS_FAM_V2) /* legacy kind names are just the type names */
            count(&c->by_kind, ev->kind_name);
        return true;
    }
    printf("%lld p=%lld g=%lld %s", (long long)ev->ts, (long long)ev->p,
           ev->g == CS_NO_GOID ? -1LL : (long long)ev->g, ev->type_name);
    for (unsigned i = 0; i < ev->nargs && i < 6; i++)
        printf(" %llu", (unsigned long long)ev->args[i]);
    if (ev->sarg)
        printf(" \"%.*s\"", (int)(ev->sarg_len > 200 ? 200 : ev->sarg_len), ev->sarg);
    if (ev->stack)
        printf(" stack=%u", ev->stack);
    putchar('\n');
    if (c->stacks && ev->stack)
        print_stack(c->m, ev->stack);
    return true;
}

static json_t *count_obj(const counts *c)
{
    json_t *o = json_object();
    for (uint32_t i = 0; i < c->used; i++)
        json_object_set_new(o, c->name[i], json_integer((json_int_t)c->n[i]));
    return o;
}

static void print_summary(const ev_ctx *c, const cs_model *m, bool json)
{
    if (json) {
        json_t *j = json_pack("{s:s, s:I, s:o}", "version", dec_version_name(m->version), "total",
                              (json_int_t)c->total, "by_type", count_obj(&c->by_type));
        if (c->by_kind.used)
            json_object_set_new(j, "by_kind", count_obj(&c->by_kind));
        json_dumpf(j, stdout, JSON_INDENT(1) | JSON_SORT_KEYS);
        fputc('\n', stdout);
        json_decref(j);
        return;
    }
    printf("Go %s trace, %llu events\n", dec_version_name(m->version), (unsigned long long)c->total);
    for (uint32_t i = 0; i < c->by_type.used; i++)
        printf("  %-20s %10llu\n", c->by_type.name[i], (unsigned long long)c->by_type.n[i]);
    for (uint32_t i = 0; i < c->by_kind.used; i++)
        printf("  kind %-15s %10llu\n", c->by_kind.name[i], (unsigned long long)c->by_kind.n[i]);
}

enum { O_STACKS = 1, O_SUMMARY, O_JSON };

typedef struct events_args {
    ev_ctx *c;
    bool json;
} events_args;

static const char *parse_opt(void *ud, int opt, const char *arg)
{
    (void)arg;
    events_args *a = ud;
    switch (opt) {
    case O_STACKS: a->c->stacks = true; return NULL;
    case O_SUMMARY: a->c->summary = true; return NULL;
    case O_JSON: a->json = true; return NULL;
    }
    return "bad option";
}

int cli_cmd_events(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"stacks", no_argument, NULL, O_STACKS}, {"summary", no_argument, NULL, O_SUMMARY},
        {"json", no_argument, NULL, O_JSON}, {0}};
    cli_trace_opts o = {.no_model = true};
    ev_ctx c = {0};
    events_args a = {.c = &c};
    int rc = cli_args_parse(&(cli_args){.cmd = "events", .help = help, .longopts = longopts,
                                        .on_opt = parse_opt, .ud = &a}, argc, argv, &o);
    if (rc < 0 && a.json && !c.summary)
        rc = cli_usage("events", "--json needs --summary");
    if (rc >= 0)
        return rc;
    static char obuf[1 << 16];
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
    cs_file f;
    cs_model m;
    c.m = &m;
    o.on_event = on_event;
    o.event_ud = &c;
    o.loose_order = c.summary; /* counting needs no exact order: lets decoding stream */
    bool loaded = cli_open(&o, &f, &m, NULL, &rc);
    fflush(stdout);
    if (!loaded)
        return rc;
    if (c.summary)
        print_summary(&c, &m, a.json);
    cli_unload(&f, &m, NULL);
    return 0; /* main checks standard output */
}
