/* cli/cmd_svg.c — `chanscope svg TRACE -o OUT.svg`: the lanes view or the
 * communication graph as a vector picture (export/svg.h). */
#include "cli.h"
#include "../export/svg.h"

#include <libgen.h>
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
    "      --range FROM:TO   only this time window, from the trace start, e.g. 2ms:5ms\n"
    "      --axis KIND       linear (default), log, or gaps (fold idle stretches)\n"
    "      --theme NAME      dark (default), light or gotrace\n"
    "      --width PX        picture width (default 1600)\n"
    "      --compact         reuse a lane after its goroutine ends\n"
    "      --system          include runtime goroutines\n" CLI_TRACE_HELP
    "  -h, --help            this help\n";

enum { O_LAYOUT = 2000, O_RANGE, O_AXIS, O_THEME, O_WIDTH, O_COMPACT, O_SYSTEM };

static bool parse_opt(int c, const char *arg, exp_svg_desc *d, int64_t *from, int64_t *to)
{
    switch (c) {
    case O_LAYOUT:
        d->layout = !strcmp(arg, "graph") ? EXP_SVG_GRAPH : EXP_SVG_LANES;
        return !strcmp(arg, "graph") || !strcmp(arg, "lanes");
    case O_RANGE: return lay_parse_range(arg, from, to);
    case O_AXIS:
        d->axis = !strcmp(arg, "log") ? LAY_AXIS_LOG : !strcmp(arg, "gaps") ? LAY_AXIS_GAPS : LAY_AXIS_LINEAR;
        return !strcmp(arg, "log") || !strcmp(arg, "gaps") || !strcmp(arg, "linear");
    case O_THEME: return lay_theme_parse(arg, &d->theme);
    case O_WIDTH: {
        char *end;
        long v = strtol(arg, &end, 10);
        d->width = (uint32_t)v;
        return !*end && v >= 400 && v <= 20000;
    }
    case O_COMPACT: d->compact = true; return true;
    case O_SYSTEM: d->show_system = true; return true;
    }
    return false;
}

int cli_cmd_svg(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'}, {"layout", required_argument, NULL, O_LAYOUT},
        {"range", required_argument, NULL, O_RANGE}, {"axis", required_argument, NULL, O_AXIS},
        {"theme", required_argument, NULL, O_THEME}, {"width", required_argument, NULL, O_WIDTH},
        {"compact", no_argument, NULL, O_COMPACT}, {"system", no_argument, NULL, O_SYSTEM},
        {"help", no_argument, NULL, 'h'}, CLI_TRACE_LONGOPTS, {0}};
    cli_trace_opts o = {0};
    exp_svg_desc d = {0};
    const char *out = NULL;
    int64_t from = 0, to = INT64_MAX;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:j:q", longopts, NULL)) != -1) {
        if (c == 'h') {
            fputs(help, stdout);
            return 0;
        } else if (c == 'o') {
            out = optarg;
        } else if (!parse_opt(c, optarg, &d, &from, &to) && !cli_trace_opt(c, optarg, &o)) {
            return cli_usage("svg", "bad option or value%s%s", optarg ? ": " : "", optarg ? optarg : "");
        }
    }
    if (optind != argc - 1)
        return cli_usage("svg", "expected exactly one TRACE");
    if (!out)
        return cli_usage("svg", "missing -o OUT.svg");
    o.path = argv[optind];
    cs_file f;
    cs_model m;
    cs_err err = {0};
    if (!cli_load(&o, &f, &m, NULL, &err)) {
        cli_unload(&f, &m, NULL);
        return cli_report(&err, o.path);
    }
    if (from != 0 || to != INT64_MAX) {
        d.t0 = m.t_first + from;
        d.t1 = to - from < m.t_last - d.t0 ? d.t0 + (to - from) : m.t_last;
    }
    char name[4096];
    snprintf(name, sizeof name, "%s", o.path);
    d.name = basename(name);
    bool ok = exp_svg_write(out, &m, &d, &err);
    cli_unload(&f, &m, NULL);
    return ok ? 0 : cli_report(&err, out);
}
