/* cli/cmd_edges.c — `chanscope edges [--json] TRACE`: every wake-up of a
 * waiting goroutine in event order, with Go's block reason and chanscope's
 * classification (traffic/classify.c). JSON shape, one object per edge:
 *   {"time","from","to","reason","kind","site_from","site_to"}
 * from/to are Go goroutine ids (from = 0 when no goroutine unblocked it);
 * sites are "func:file:line" of the channel operation ("" when unknown). */
#include "cli.h"

#include <stdio.h>

static const char help[] =
    "usage: chanscope edges [options] TRACE\n\n"
    "List every wake-up of a waiting goroutine: when, who woke whom, why it\n"
    "waited (Go's reason) and what chanscope makes of it (send, recv, close,\n"
    "select-send, select-recv, sync, timer, net, other).\n\n"
    "  --json             a JSON array of {time, from, to, reason, kind, site_from, site_to}\n"
    CLI_TRACE_HELP
    "  -h, --help         this help\n";

static uint64_t goid(const cs_model *m, uint32_t g)
{
    return g ? m->g[g].goid : 0;
}

static void print_json(const cs_model *m)
{
    char a[512], b[512];
    fputs("[", stdout);
    for (uint32_t i = 1; i < m->n_edges; i++) {
        const cs_edge *e = &m->edges[i];
        const cs_wsite *w = cs_edge_site(m, e);
        trf_site(m, w->stack, a, sizeof a);
        trf_site(m, w->block_stack, b, sizeof b);
        printf("%s\n {\"time\":%lld,\"from\":%llu,\"to\":%llu,\"reason\":", i > 1 ? "," : "",
               (long long)cs_edge_ts(m, i), (unsigned long long)goid(m, e->from),
               (unsigned long long)goid(m, e->to));
        cli_json_str(stdout, cs_model_str(m, w->reason_name));
        printf(",\"kind\":\"%s\",\"site_from\":", cs_edge_kind_name(e->kind));
        cli_json_str(stdout, a);
        fputs(",\"site_to\":", stdout);
        cli_json_str(stdout, b);
        fputc('}', stdout);
    }
    fputs("\n]\n", stdout);
}

static void print_text(const cs_model *m)
{
    char a[512], b[512];
    printf("%14s %8s %8s  %-12s %-20s %s\n", "time_ns", "from", "to", "kind", "reason", "sites");
    for (uint32_t i = 1; i < m->n_edges; i++) {
        const cs_edge *e = &m->edges[i];
        const cs_wsite *w = cs_edge_site(m, e);
        trf_site(m, w->stack, a, sizeof a);
        trf_site(m, w->block_stack, b, sizeof b);
        printf("%14lld %8llu %8llu  %-12s %-20s %s -> %s\n", (long long)(cs_edge_ts(m, i) - m->t_first),
               (unsigned long long)goid(m, e->from), (unsigned long long)goid(m, e->to),
               cs_edge_kind_name(e->kind), cs_model_str(m, w->reason_name), a[0] ? a : "?",
               b[0] ? b : "?");
    }
}

int cli_cmd_edges(int argc, char **argv)
{
    static const struct option longopts[] = {{"json", no_argument, NULL, 'J'}, {0}};
    cli_trace_opts o = {0};
    bool json = false;
    int rc = cli_args_parse(&(cli_args){.cmd = "edges", .help = help, .longopts = longopts,
                                        .on_opt = cli_json_flag, .ud = &json}, argc, argv, &o);
    cs_file f;
    cs_model m;
    if (rc >= 0 || !cli_open(&o, &f, &m, NULL, &rc))
        return rc;
    if (json)
        print_json(&m);
    else
        print_text(&m);
    cli_unload(&f, &m, NULL);
    return 0;
}
