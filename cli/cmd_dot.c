/* cli/cmd_dot.c — `chanscope dot TRACE -o OUT.dot`: the communication graph
 * as Graphviz DOT, or rendered by Graphviz (export/dot.h). */
#include "cli.h"
#include "../export/dot.h"

#include <libgen.h>
#include <stdio.h>
#include <string.h>

static const char help[] =
    "usage: chanscope dot [options] TRACE -o OUT.dot\n\n"
    "Write who talks to whom as a Graphviz graph: nodes are goroutines (or entry\n"
    "functions), edges are channel traffic labelled with message count and channel\n"
    "site; spawn edges are dashed, sync wake-ups dotted.\n\n"
    "  -o, --output PATH     where to write (\"-\" = standard output); required\n"
    "      --group KIND      goroutine or function (default: goroutine, function\n"
    "                        when there would be more than 300 nodes)\n"
    "      --render FMT      lay out and render with Graphviz: svg, png or pdf\n"
    "      --engine NAME     Graphviz layout: dot, neato, sfdp, fdp, circo\n"
    "                        (default by size: dot, neato up to 250 nodes, sfdp)\n"
    "      --theme NAME      dark (default), light or gotrace\n"
    "      --system          include runtime goroutines\n" CLI_TRACE_HELP
    "  -h, --help            this help\n";

enum { O_GROUP = 2000, O_RENDER, O_ENGINE, O_THEME, O_SYSTEM };

static bool parse_opt(int c, const char *arg, exp_dot_desc *d)
{
    static const char *const engines[] = {"dot", "neato", "sfdp", "fdp", "circo", NULL};
    switch (c) {
    case O_GROUP:
        d->group = !strcmp(arg, "function") ? LAY_GROUP_FUNCTION : LAY_GROUP_GOROUTINE;
        return !strcmp(arg, "function") || !strcmp(arg, "goroutine");
    case O_RENDER:
        d->render = arg;
        return !strcmp(arg, "svg") || !strcmp(arg, "png") || !strcmp(arg, "pdf");
    case O_ENGINE:
        for (int i = 0; engines[i]; i++)
            if (!strcmp(arg, engines[i]))
                return d->engine = engines[i], true;
        return false;
    case O_THEME: return lay_theme_parse(arg, &d->theme);
    case O_SYSTEM: d->show_system = true; return true;
    }
    return false;
}

int cli_cmd_dot(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'}, {"group", required_argument, NULL, O_GROUP},
        {"render", required_argument, NULL, O_RENDER}, {"engine", required_argument, NULL, O_ENGINE},
        {"theme", required_argument, NULL, O_THEME}, {"system", no_argument, NULL, O_SYSTEM},
        {"help", no_argument, NULL, 'h'}, CLI_TRACE_LONGOPTS, {0}};
    cli_trace_opts o = {0};
    exp_dot_desc d = {0};
    const char *out = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:j:q", longopts, NULL)) != -1) {
        if (c == 'h') {
            fputs(help, stdout);
            return 0;
        } else if (c == 'o') {
            out = optarg;
        } else if (!parse_opt(c, optarg, &d) && !cli_trace_opt(c, optarg, &o)) {
            return cli_usage("dot", "bad option or value%s%s", optarg ? ": " : "", optarg ? optarg : "");
        }
    }
    if (optind != argc - 1)
        return cli_usage("dot", "expected exactly one TRACE");
    if (!out)
        return cli_usage("dot", "missing -o OUT.dot");
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
    bool ok = exp_dot_write(out, &m, &d, &err);
    cli_unload(&f, &m, NULL);
    return ok ? 0 : cli_report(&err, out);
}
