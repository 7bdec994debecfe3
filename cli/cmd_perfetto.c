/* cli/cmd_perfetto.c — `chanscope perfetto TRACE -o OUT.json`: Chrome
 * trace-event JSON with channel messages as flow arrows (export/perfetto.h). */
#include "cli.h"
#include "../export/perfetto.h"

#include <libgen.h>
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

int cli_cmd_perfetto(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'}, {"no-system", no_argument, NULL, O_NO_SYSTEM},
        {"help", no_argument, NULL, 'h'}, CLI_TRACE_LONGOPTS, {0}};
    cli_trace_opts o = {0};
    exp_perfetto_desc d = {0};
    const char *out = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:j:q", longopts, NULL)) != -1) {
        if (c == 'h') {
            fputs(help, stdout);
            return 0;
        } else if (c == 'o') {
            out = optarg;
        } else if (c == O_NO_SYSTEM) {
            d.hide_system = true;
        } else if (!cli_trace_opt(c, optarg, &o)) {
            return cli_usage("perfetto", "bad option");
        }
    }
    if (optind != argc - 1)
        return cli_usage("perfetto", "expected exactly one TRACE");
    if (!out)
        return cli_usage("perfetto", "missing -o OUT.json");
    o.path = argv[optind];
    cs_file f;
    cs_model m;
    cs_err err = {0};
    if (!cli_load(&o, &f, &m, NULL, &err)) {
        cli_unload(&f, &m, NULL);
        return cli_report(&err, o.path);
    }
    char name[4096];
    snprintf(name, sizeof name, "%s", o.path);
    d.name = basename(name);
    bool ok = exp_perfetto_write(out, &m, &d, &err);
    cli_unload(&f, &m, NULL);
    return ok ? 0 : cli_report(&err, out);
}
