/* cli/cmd_pairs.c — `chanscope pairs TRACE [--json|--csv] [--channel SITE]`:
 * every channel message of the model (traffic/) and a per-channel
 * summary: message count and min/median/max latency (t_recv - t_send, over
 * messages whose send time is known). JSON shape:
 *   {"messages":[{"kind","sender","receiver","send_time","recv_time",
 *                 "channel","value","exact"}],
 *    "channels":[{"channel","count","latency_ns":{"min","median","max"}}]}
 * sender/receiver are Go goroutine ids (0 unknown), times ns as the model
 * has them (null when unknown), value a string or null. CSV: messages only. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: chanscope pairs [options] TRACE\n\n"
    "List channel messages (send -> receive, and receivers woken by close):\n"
    "sender and receiver goroutines, send and receive times, the channel and,\n"
    "when the trace carries them (patched runtime, chan.send/chan.recv logs),\n"
    "the value. Inferred messages name channels by their pair of code sites.\n\n"
    "  --json             machine-readable: messages and per-channel summary\n"
    "  --csv              messages as CSV\n"
    "  --channel SITE     only channels whose name or site contains SITE\n"
    CLI_TRACE_HELP
    "  -h, --help         this help\n";

typedef struct summary {
    uint32_t count, n_lat;
    int64_t min, median, max;
} summary;

static bool chan_match(const cs_model *m, uint32_t ci, const char *want)
{
    if (!want)
        return true;
    if (!ci)
        return false;
    const cs_chan *c = &m->chans[ci];
    return strstr(cs_model_str(m, c->name), want) || strstr(cs_model_str(m, c->site_send), want) ||
           strstr(cs_model_str(m, c->site_recv), want);
}

static int lat_cmp(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Per channel: count and latency order statistics (latencies grouped by
 * channel with a counting sort, then each group sorted). */
static summary *summarise(const cs_model *m, const bool *keep, cs_err *err)
{
    uint32_t nc = m->n_chans ? m->n_chans : 1;
    summary *s = cs_calloc(nc, sizeof *s);
    uint32_t *first = cs_calloc(nc + 1, sizeof *first);
    int64_t *lat = cs_alloc((size_t)m->n_msgs * sizeof *lat + 1);
    if (!s || !first || !lat) {
        cs_free(s), cs_free(first), cs_free(lat);
        CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory summarising %u messages", m->n_msgs);
        return NULL;
    }
    for (uint32_t i = 0; i < m->n_msgs; i++) {
        uint32_t ch = cs_msg_chan(m, i);
        if (keep[ch]) {
            s[ch].count++;
            s[ch].n_lat += cs_msg_t_send(m, i) != CS_T_NONE;
        }
    }
    for (uint32_t c = 0; c < nc; c++)
        first[c + 1] = first[c] + s[c].n_lat;
    for (uint32_t i = 0; i < m->n_msgs; i++) {
        uint32_t ch = cs_msg_chan(m, i);
        int64_t ts = cs_msg_t_send(m, i);
        if (keep[ch] && ts != CS_T_NONE)
            lat[first[ch]++] = cs_msg_t_recv(m, i) - ts;
    }
    for (uint32_t c = 0; c < nc; c++) {
        int64_t *g = lat + first[c] - s[c].n_lat;
        uint32_t n = s[c].n_lat;
        if (!n)
            continue;
        qsort(g, n, sizeof *g, lat_cmp);
        s[c].min = g[0], s[c].max = g[n - 1];
        s[c].median = n % 2 ? g[n / 2] : g[n / 2 - 1] + (g[n / 2] - g[n / 2 - 1]) / 2;
    }
    cs_free(first), cs_free(lat);
    return s;
}

static uint64_t goid(const cs_model *m, uint32_t g)
{
    return g ? m->g[g].goid : 0;
}

static const char *chan_name(const cs_model *m, uint32_t ci)
{
    return ci ? cs_model_str(m, m->chans[ci].name) : "";
}

static void json_msgs(const cs_model *m, const bool *keep)
{
    bool first = true;
    fputs("{\"messages\":[", stdout);
    for (uint32_t i = 0; i < m->n_msgs; i++) {
        const cs_msg *x = &m->msgs[i];
        uint32_t ch = cs_msg_chan(m, i);
        if (!keep[ch])
            continue;
        printf("%s\n {\"kind\":\"%s\",\"sender\":%llu,\"receiver\":%llu,\"send_time\":", first ? "" : ",",
               cs_msg_kind_name(cs_msg_kind_of(x)), (unsigned long long)goid(m, cs_msg_sender(m, i)),
               (unsigned long long)goid(m, cs_msg_receiver(m, i)));
        first = false;
        cli_json_time(stdout, cs_msg_t_send(m, i));
        fputs(",\"recv_time\":", stdout);
        cli_json_time(stdout, cs_msg_t_recv(m, i));
        fputs(",\"channel\":", stdout);
        cli_json_str(stdout, chan_name(m, ch));
        fputs(",\"value\":", stdout);
        if (cs_msg_value(m, i))
            cli_json_str(stdout, cs_model_str(m, cs_msg_value(m, i)));
        else
            fputs("null", stdout);
        printf(",\"exact\":%s}", cs_msg_exact(x) ? "true" : "false");
    }
}

static void json_chans(const cs_model *m, const summary *s)
{
    bool first = true;
    fputs("\n],\"channels\":[", stdout);
    for (uint32_t c = 0; c < m->n_chans; c++) {
        if (!s[c].count)
            continue;
        printf("%s\n {\"channel\":", first ? "" : ",");
        first = false;
        cli_json_str(stdout, chan_name(m, c));
        printf(",\"count\":%u,\"latency_ns\":", s[c].count);
        if (s[c].n_lat)
            printf("{\"min\":%lld,\"median\":%lld,\"max\":%lld}}", (long long)s[c].min,
                   (long long)s[c].median, (long long)s[c].max);
        else
            fputs("{\"min\":null,\"median\":null,\"max\":null}}", stdout);
    }
    fputs("\n]}\n", stdout);
}

static void csv_msgs(const cs_model *m, const bool *keep)
{
    puts("kind,sender,receiver,send_time,recv_time,channel,value,exact");
    for (uint32_t i = 0; i < m->n_msgs; i++) {
        const cs_msg *x = &m->msgs[i];
        uint32_t ch = cs_msg_chan(m, i);
        if (!keep[ch])
            continue;
        printf("%s,%llu,%llu,", cs_msg_kind_name(cs_msg_kind_of(x)), (unsigned long long)goid(m, cs_msg_sender(m, i)),
               (unsigned long long)goid(m, cs_msg_receiver(m, i)));
        int64_t ts = cs_msg_t_send(m, i);
        if (ts != CS_T_NONE)
            printf("%lld", (long long)ts);
        printf(",%lld,", (long long)cs_msg_t_recv(m, i));
        cli_csv_str(stdout, chan_name(m, ch));
        fputc(',', stdout);
        cli_csv_str(stdout, cs_model_str(m, cs_msg_value(m, i)));
        printf(",%d\n", cs_msg_exact(x));
    }
}

static void text_out(const cs_model *m, const bool *keep, const summary *s)
{
    printf("%-5s %8s %8s %14s %14s  %-8s %-24s %s\n", "kind", "from", "to", "send_ns", "recv_ns",
           "how", "value", "channel");
    for (uint32_t i = 0; i < m->n_msgs; i++) {
        const cs_msg *x = &m->msgs[i];
        uint32_t ch = cs_msg_chan(m, i);
        if (!keep[ch])
            continue;
        char ts[24] = "-";
        int64_t t_send = cs_msg_t_send(m, i);
        if (t_send != CS_T_NONE)
            snprintf(ts, sizeof ts, "%lld", (long long)(t_send - m->t_first));
        printf("%-5s %8llu %8llu %14s %14lld  %-8s %-24s %s\n", cs_msg_kind_name(cs_msg_kind_of(x)),
               (unsigned long long)goid(m, cs_msg_sender(m, i)), (unsigned long long)goid(m, cs_msg_receiver(m, i)), ts,
               (long long)(cs_msg_t_recv(m, i) - m->t_first), cs_msg_exact(x) ? "exact" : "inferred",
               cs_msg_value(m, i) ? cs_model_str(m, cs_msg_value(m, i)) : "-", chan_name(m, ch));
    }
    printf("\n%8s %12s %12s %12s  %s\n", "messages", "min_ns", "median_ns", "max_ns", "channel");
    for (uint32_t c = 0; c < m->n_chans; c++)
        if (s[c].count)
            printf("%8u %12lld %12lld %12lld  %s\n", s[c].count, (long long)s[c].min,
                   (long long)s[c].median, (long long)s[c].max, c ? chan_name(m, c) : "(unknown)");
}

static int output(const cs_model *m, int fmt, const char *want, cs_err *err)
{
    uint32_t nc = m->n_chans ? m->n_chans : 1;
    bool *keep = cs_calloc(nc, sizeof *keep);
    if (!keep)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory"), 1;
    for (uint32_t c = 0; c < nc; c++)
        keep[c] = chan_match(m, c, want);
    summary *s = fmt == 'C' ? NULL : summarise(m, keep, err);
    if (fmt == 'C')
        csv_msgs(m, keep);
    else if (s && fmt == 'J')
        json_msgs(m, keep), json_chans(m, s);
    else if (s)
        text_out(m, keep, s);
    bool ok = fmt == 'C' || s;
    cs_free(keep), cs_free(s);
    return ok ? 0 : 1;
}

typedef struct pairs_args {
    int fmt;
    const char *want;
} pairs_args;

static const char *parse_opt(void *ud, int c, const char *arg)
{
    pairs_args *a = ud;
    if (c == 'J' || c == 'C') {
        if (a->fmt != 'T' && a->fmt != c)
            return "--json and --csv exclude each other";
        a->fmt = c;
        return NULL;
    }
    if (c == 'c') {
        a->want = arg;
        return NULL;
    }
    return "bad option";
}

int cli_cmd_pairs(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"json", no_argument, NULL, 'J'}, {"csv", no_argument, NULL, 'C'},
        {"channel", required_argument, NULL, 'c'}, {0}};
    cli_trace_opts o = {0};
    pairs_args a = {.fmt = 'T'};
    int rc = cli_args_parse(&(cli_args){.cmd = "pairs", .help = help, .shortopts = "c:", .longopts = longopts,
                                        .on_opt = parse_opt, .ud = &a}, argc, argv, &o);
    cs_file f;
    cs_model m;
    if (rc >= 0 || !cli_open(&o, &f, &m, NULL, &rc))
        return rc;
    cs_err err = {0};
    rc = output(&m, a.fmt, a.want, &err);
    cli_unload(&f, &m, NULL);
    return rc ? cli_report(&err, o.path) : 0;
}
