/* cli/cmd_dot.c — `chanscope dot TRACE -o OUT.dot`: the communication graph
 * as Graphviz DOT, or rendered by Graphviz (export/dot.h). */
#include "cli.h"
#include "../export/dot.h"

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

typedef struct dot_args {
    exp_dot_desc d;
    const char *out;
} dot_args;

static const char *parse_opt(void *ud, int c, const char *arg)
{
    exp_dot_desc *d = &((dot_args *)ud)->d;
    switch (c) {
    case 'o': ((dot_args *)ud)->out = arg; return NULL;
    case O_GROUP:
        d->group = !strcmp(arg, "function") ? LAY_GROUP_FUNCTION : LAY_GROUP_GOROUTINE;
        return !strcmp(arg, "function") || !strcmp(arg, "goroutine") ? NULL : "--group must be function or goroutine";
    case O_RENDER:
        d->render = arg;
        return !strcmp(arg, "svg") || !strcmp(arg, "png") || !strcmp(arg, "pdf") ? NULL : "--render must be svg, png or pdf";
    case O_ENGINE: return cli_engine_opt(&d->engine, arg);
    case O_THEME: return lay_theme_parse(arg, &d->theme) ? NULL : "--theme must be dark, light or gotrace";
    case O_SYSTEM: d->show_system = true; return NULL;
    }
    return "bad option";
}

int cli_cmd_dot(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'}, {"group", required_argument, NULL, O_GROUP},
        {"render", required_argument, NULL, O_RENDER}, {"engine", required_argument, NULL, O_ENGINE},
        {"theme", required_argument, NULL, O_THEME}, {"system", no_argument, NULL, O_SYSTEM}, {0}};
    cli_trace_opts o = {.drawn_only = true};
    dot_args a = {0};
    int rc = cli_args_parse(&(cli_args){.cmd = "dot", .help = help, .shortopts = "o:", .longopts = longopts,
                                        .on_opt = parse_opt, .ud = &a}, argc, argv, &o);
    if (rc < 0 && !a.out)
        rc = cli_usage("dot", "missing -o OUT.dot");
    cs_file f;
    cs_model m;
    if (rc >= 0 || !cli_open(&o, &f, &m, NULL, &rc))
        return rc;
    cs_err err = {0};
    a.d.name = cli_base_name(o.path);
    bool ok = exp_dot_write(a.out, &m, &a.d, &err);
    cli_unload(&f, &m, NULL);
    return ok ? 0 : cli_report(&err, cli_out_name(a.out));
}
