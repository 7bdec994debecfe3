/* cli/cmd_perfetto.c — `chanscope perfetto TRACE -o OUT.json`: Chrome
 * trace-event JSON with channel messages as flow arrows (export/perfetto.h). */
#include "cli.h"
#include "../export/perfetto.h"

#include <stdio.h>
#include <string.h>

static const char help[] =
    "usage: chanscope perfetto [options] TRACE -o OUT.json\n\n"
    "Write Chrome trace-event JSON for the Perfetto UI (ui.perfetto.dev) or\n"
    "chrome://tracing: goroutines as threads, their states as slices, and every\n"
    "channel message as a flow arrow from the send to the receive.\n\n"
    "  -o, --output PATH     where to write (\"-\" = standard output); required\n"
    "      --no-system       leave out runtime goroutines\n" CLI_TRACE_HELP
    "  -h, --help            this help\n";

enum { O_NO_SYSTEM = 2000 };

typedef struct perfetto_args {
    exp_perfetto_desc d;
    const char *out;
} perfetto_args;

static const char *parse_opt(void *ud, int c, const char *arg)
{
    perfetto_args *a = ud;
    switch (c) {
    case 'o': a->out = arg; return NULL;
    case O_NO_SYSTEM: a->d.hide_system = true; return NULL;
    }
    return "bad option";
}

int cli_cmd_perfetto(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'}, {"no-system", no_argument, NULL, O_NO_SYSTEM}, {0}};
    cli_trace_opts o = {0};
    perfetto_args a = {0};
    int rc = cli_args_parse(&(cli_args){.cmd = "perfetto", .help = help, .shortopts = "o:",
                                        .longopts = longopts, .on_opt = parse_opt, .ud = &a}, argc, argv, &o);
    if (rc < 0 && !a.out)
        rc = cli_usage("perfetto", "missing -o OUT.json");
    cs_file f;
    cs_model m;
    if (rc >= 0 || !cli_open(&o, &f, &m, NULL, &rc))
        return rc;
    cs_err err = {0};
    a.d.name = cli_base_name(o.path);
    bool ok = exp_perfetto_write(a.out, &m, &a.d, &err);
    cli_unload(&f, &m, NULL);
    return ok ? 0 : cli_report(&err, cli_out_name(a.out));
}
