/* cli/cmd_info.c — `chanscope info TRACE`: what a trace is (format, Go
 * version, size) and what the model holds (goroutines, spans, edges,
 * messages), as text or JSON. */
#include "cli.h"

#include <jansson.h>
#include <stdio.h>

static const char help[] =
    "usage: chanscope info [options] TRACE\n\n"
    "Print the trace's format, Go version, duration and model counts.\n\n"
    "  --json             machine-readable output\n" CLI_TRACE_HELP
    "  -h, --help         this help\n";

int cli_cmd_info(int argc, char **argv)
{
    static const struct option longopts[] = {{"json", no_argument, NULL, 'J'}, {0}};
    cli_trace_opts o = {0};
    bool json = false;
    int rc = cli_args_parse(&(cli_args){.cmd = "info", .help = help, .longopts = longopts,
                                        .on_opt = cli_json_flag, .ud = &json}, argc, argv, &o);
    cs_file f;
    cs_model m;
    if (rc >= 0 || !cli_open(&o, &f, &m, NULL, &rc))
        return rc;
    uint32_t user = 0;
    for (uint32_t i = 1; i < m.n_g; i++)
        user += !(m.g[i].flags & CS_G_SYSTEM);
    int64_t dur = m.t_last - m.t_first;
    if (json) {
        json_t *j = json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:s}",
                              "format", m.family == CS_FAM_LEGACY ? "legacy" : "v2",
                              "version", dec_version_name(m.version), "size", (json_int_t)f.size,
                              "events", (json_int_t)m.n_events, "generations", (json_int_t)m.n_gens,
                              "duration_ns", (json_int_t)dur,
                              "goroutines", (json_int_t)(m.n_g - 1), "user_goroutines", (json_int_t)user,
                              "spans", (json_int_t)m.n_span, "edges", (json_int_t)(m.n_edges - 1),
                              "messages", (json_int_t)m.n_msgs, "channels", (json_int_t)(m.n_chans - 1),
                              "model_bytes", (json_int_t)cs_model_bytes(&m), "warning", m.warning);
        json_dumpf(j, stdout, JSON_INDENT(1));
        fputc('\n', stdout);
        json_decref(j);
    } else {
        printf("file        %s (%zu bytes)\n", cli_trace_name(o.path), f.size);
        printf("format      Go %s (%s)\n", dec_version_name(m.version),
               m.family == CS_FAM_LEGACY ? "legacy" : "generation-based");
        printf("events      %llu\n", (unsigned long long)m.n_events);
        if (m.family == CS_FAM_V2)
            printf("generations %u\n", m.n_gens);
        printf("duration    %.3f ms\n", (double)dur / 1e6);
        printf("goroutines  %u (%u user)\n", m.n_g - 1, user);
        printf("spans       %u\n", m.n_span);
        printf("wake-ups    %u\n", m.n_edges - 1);
        printf("messages    %u on %u channels\n", m.n_msgs, m.n_chans - 1);
    }
    cli_unload(&f, &m, NULL);
    return 0;
}
