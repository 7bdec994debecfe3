/* cli/cmd_svg.c — `chanscope svg TRACE -o OUT.svg`: the lanes view or the
 * communication graph as a vector picture (export/svg.h). */
#include "cli.h"
#include "../export/svg.h"
#include "../layout/graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: chanscope svg [options] TRACE -o OUT.svg\n\n"
    "Draw the trace as SVG: one lane per goroutine with its states over time and\n"
    "an arrow for every channel message (or, with --layout graph, who talks to\n"
    "whom). Text stays text; hover a goroutine or an arrow for details.\n\n"
    "  -o, --output PATH     where to write (\"-\" = standard output); required\n"
    "      --layout KIND     lanes (default) or graph\n"
    "      --engine E        graph: Graphviz layout dot, neato, sfdp, fdp or circo\n"
    "                        (default: dot for one-way traffic, neato/sfdp for meshes)\n"
    "      --range FROM:TO   only this time window, from the trace start, e.g. 2ms:5ms\n"
    "                        or 10%:50% (either may be left out)\n"
    "      --theme NAME      dark (default), light or gotrace\n"
    "      --width PX        picture width (default 1600)\n" CLI_LANE_HELP
    "      --system          include runtime goroutines\n" CLI_TRACE_HELP
    "  -h, --help            this help\n";

enum { O_LAYOUT = 2000, O_RANGE, O_THEME, O_WIDTH, O_SYSTEM, O_ENGINE };

typedef struct svg_args {
    exp_svg_desc d;
    cli_lane_opts lanes;
    const char *out;
    cli_range range;
} svg_args;

static const char *parse_opt(void *ud, int c, const char *arg)
{
    svg_args *a = ud;
    exp_svg_desc *d = &a->d;
    switch (c) {
    case 'o': a->out = arg; return NULL;
    case O_LAYOUT:
        d->layout = !strcmp(arg, "graph") ? EXP_SVG_GRAPH : EXP_SVG_LANES;
        return !strcmp(arg, "graph") || !strcmp(arg, "lanes") ? NULL : "--layout must be lanes or graph";
    case O_RANGE: return cli_range_parse(arg, &a->range);
    case O_THEME: return lay_theme_parse(arg, &d->theme) ? NULL : "--theme must be dark, light or gotrace";
    case O_WIDTH: {
        int v;
        if (!cli_int_parse(arg, 400, 20000, &v))
            return "--width must be 400 to 20000";
        d->width = (uint32_t)v;
        return NULL;
    }
    case O_SYSTEM: d->show_system = true; return NULL;
    case O_ENGINE: return cli_engine_opt(&d->engine, arg);
    }
    return cli_lane_opt(&a->lanes, c, arg);
}

int cli_cmd_svg(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'}, {"layout", required_argument, NULL, O_LAYOUT},
        {"engine", required_argument, NULL, O_ENGINE},
        {"range", required_argument, NULL, O_RANGE}, {"theme", required_argument, NULL, O_THEME},
        {"width", required_argument, NULL, O_WIDTH}, {"system", no_argument, NULL, O_SYSTEM},
        CLI_LANE_LONGOPTS, {0}};
    cli_trace_opts o = {.drawn_only = true};
    svg_args a = {0};
    int rc = cli_args_parse(&(cli_args){.cmd = "svg", .help = help, .shortopts = "o:", .longopts = longopts,
                                        .on_opt = parse_opt, .ud = &a}, argc, argv, &o);
    if (rc < 0 && !a.out)
        rc = cli_usage("svg", "missing -o OUT.svg");
    cs_file f;
    cs_model m;
    if (rc >= 0 || !cli_open(&o, &f, &m, NULL, &rc))
        return rc;
    cs_err err = {0};
    int64_t from, to;
    if (a.range.set) {
        if (!cli_range_resolve(&a.range, m.t_last - m.t_first, &from, &to, &err)) {
            cli_unload(&f, &m, NULL);
            return cli_report(&err, "chanscope svg");
        }
        a.d.t0 = m.t_first + from, a.d.t1 = m.t_first + to;
    }
    a.d.name = cli_base_name(o.path);
    a.d.axis = a.lanes.axis, a.d.compact = a.lanes.compact, a.d.collapse = a.lanes.collapse;
    bool ok = exp_svg_write(a.out, &m, &a.d, &err);
    cli_unload(&f, &m, NULL);
    return ok ? 0 : cli_report(&err, cli_out_name(a.out));
}
