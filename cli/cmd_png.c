/* cli/cmd_png.c — `chanscope png TRACE -o OUT.png`: the viewer's renderer
 * drawing offscreen through EGL (works with DISPLAY unset), 4x MSAA, written
 * atomically. `--frames N` renders the playback as N numbered PNGs plus an
 * animated GIF (giflib). */
#include "cli.h"
#include "../render/render.h"
#include "../layout/graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: chanscope png [options] TRACE -o OUT.png\n\n"
    "Draw the trace to a PNG without a display (EGL offscreen, 4x multisampled):\n"
    "goroutine lanes with state bars, channel messages as arrows, spawn links,\n"
    "labels, time axis, legend and title.\n\n"
    "  -o, --output PATH     the PNG to write (required; written atomically)\n"
    "      --layout L        lanes (default), tree (3D spawn tree) or graph\n"
    "      --engine E        graph: Graphviz layout dot, neato, sfdp, fdp or circo\n"
    "                        (default: dot for one-way traffic, neato/sfdp for meshes)\n"
    "      --size WxH        image size in pixels (default 1920x1080)\n"
    "      --at TIME         draw the playback at TIME (e.g. 1.5ms, 200us, 40%):\n"
    "                        lanes grow up to it, messages in flight are pulses\n"
    "      --range FROM:TO   show only this time window (same units)\n"
    "      --theme T         dark (default), light or gotrace\n" CLI_LANE_HELP
    "                        (--axis also sets the tree view's time axis)\n"
    "      --system          include runtime goroutines\n"
    "      --filter TEXT     only goroutines whose function contains TEXT\n"
    "      --frames N        animate: write N frames of the playback as OUT-0001.png ...\n"
    "                        and an animated GIF OUT.gif (giflib, looping; one palette\n"
    "                        from the theme's colours and the picture's)\n"
    "      --fps F           GIF frame rate (default 10)\n" CLI_TRACE_HELP
    "  -h, --help            this help\n\n"
    "TIME is nanoseconds from the trace start, with an optional unit (ns, us, ms, s)\n"
    "or a percentage of the trace's duration.\n";

typedef struct png_opts {
    const char *out;
    cli_time at;
    cli_range range;
    int w, h, frames, fps;
    cli_lane_opts lanes;
    rnd_view view;
} png_opts;

static const char *const layouts[] = {"lanes", "tree", "graph"};
static const char *const themes[] = {"dark", "light", "gotrace"};

enum { O_LAYOUT = 2000, O_SIZE, O_AT, O_RANGE, O_THEME, O_SYSTEM, O_FILTER, O_FRAMES, O_FPS, O_ENGINE };

static const char *parse_opt(void *ud, int c, const char *arg)
{
    png_opts *p = ud;
    int v;
    switch (c) {
    case 'o': p->out = arg; return NULL;
    case O_LAYOUT:
        if ((v = cli_pick(arg, layouts, 3)) < 0)
            return "--layout must be lanes, tree or graph";
        p->view.layout = (rnd_layout)v;
        return NULL;
    case O_THEME:
        if ((v = cli_pick(arg, themes, 3)) < 0)
            return "--theme must be dark, light or gotrace";
        p->view.theme = (rnd_theme)v;
        return NULL;
    case O_SIZE:
        return cli_size_parse(arg, 16, 16384, &p->w, &p->h) ? NULL
                                                            : "--size must be WxH, each from 16 to 16384 (e.g. 1920x1080)";
    case O_AT: return cli_time_parse("--at", arg, &p->at);
    case O_ENGINE: return cli_engine_opt(&p->view.engine, arg);
    case O_RANGE: return cli_range_parse(arg, &p->range);
    case O_SYSTEM: p->view.show_system = true; return NULL;
    case O_FILTER: snprintf(p->view.filter, sizeof p->view.filter, "%s", arg); return NULL;
    case O_FRAMES:
        if (!cli_int_parse(arg, 1, 10000, &p->frames))
            return "--frames must be 1 to 10000";
        return NULL;
    case O_FPS:
        if (!cli_int_parse(arg, 1, 100, &p->fps))
            return "--fps must be 1 to 100";
        return NULL;
    }
    return cli_lane_opt(&p->lanes, c, arg);
}

/* Applies --at and --range, which need the trace's duration. */
static bool apply_times(png_opts *p, const cs_model *m, cs_err *err)
{
    int64_t dur = m->t_last - m->t_first, a, b;
    if (p->range.set) {
        if (!cli_range_resolve(&p->range, dur, &a, &b, err))
            return false;
        p->view.t0 = m->t_first + a, p->view.t1 = m->t_first + b;
    }
    if (p->at.set) {
        if (!cli_time_resolve("--at", &p->at, dur, &a, err))
            return false;
        p->view.now = m->t_first + a;
    }
    return true;
}

static void title(char *buf, size_t n, const char *path, const cs_model *m)
{
    char dur[32];
    double ns = (double)(m->t_last - m->t_first);
    snprintf(dur, sizeof dur, ns >= 1e9 ? "%.2f s" : ns >= 1e6 ? "%.2f ms" : "%.1f \xC2\xB5s",
             ns >= 1e9 ? ns / 1e9 : ns >= 1e6 ? ns / 1e6 : ns / 1e3);
    snprintf(buf, n, "%s \xC2\xB7 Go %s \xC2\xB7 %s", cli_base_name(path), dec_version_name(m->version), dur);
}

/* OUT.png → OUT-0001.png and OUT.gif */
static void frame_path(char *buf, size_t n, const char *out, int i, const char *ext)
{
    size_t len = strlen(out);
    if (len > 4 && !strcmp(out + len - 4, ".png"))
        len -= 4;
    if (i > 0)
        snprintf(buf, n, "%.*s-%04d.png", (int)len, out, i);
    else
        snprintf(buf, n, "%.*s%s", (int)len, out, ext);
}

static bool render_one(rnd_surface *s, rnd_renderer *r, const rnd_view *v, uint8_t *rgba, cs_err *err)
{
    int w, h;
    rnd_surface_size(s, &w, &h);
    rnd_surface_begin(s);
    if (!rnd_frame_draw(r, v, w, h, err))
        return false;
    rnd_surface_end(s);
    return rnd_surface_read(s, rgba, err);
}

static bool animate(const png_opts *p, rnd_surface *s, rnd_renderer *r, uint8_t *rgba, cs_err *err)
{
    rnd_view v = p->view;
    char path[4200];
    rnd_gif gif;
    int fps = p->fps ? p->fps : 10;
    int64_t a = v.t0, b = v.now != CS_T_NONE ? v.now : v.t1;
    v.speed = (double)(b - a) * fps / p->frames; /* the playback fills the animation */
    v.playing = true;
    v.now = b; /* the last frame holds every colour the animation will show: the GIF palette's sample */
    if (!render_one(s, r, &v, rgba, err))
        return false;
    frame_path(path, sizeof path, p->out, 0, ".gif");
    if (!rnd_gif_open(&gif, &(rnd_gif_desc){.path = path, .w = p->w, .h = p->h, .delay_cs = 100 / fps,
                                            .theme = v.theme, .sample = rgba}, err))
        return false;
    for (int i = 1; i <= p->frames; i++) {
        v.now = a + (int64_t)((double)(b - a) * i / p->frames);
        frame_path(path, sizeof path, p->out, i, NULL);
        if (!render_one(s, r, &v, rgba, err) || !rnd_png_write(path, rgba, p->w, p->h, err) ||
            !rnd_gif_frame(&gif, rgba, err)) {
            rnd_gif_abort(&gif);
            return false;
        }
    }
    if (!rnd_gif_close(&gif, err))
        return false;
    frame_path(path, sizeof path, p->out, 0, ".gif");
    printf("wrote %d frames and %s\n", p->frames, path);
    return true;
}

/* A still picture is laid out and its scene built before the GL stack
 * (about 150 MB) is loaded, and the model goes first: from then on the
 * renderer draws its scene only (rnd_frame_show). */
static bool still(const png_opts *p, cs_model *m, uint8_t *rgba, cs_err *err)
{
    rnd_surface *s = NULL;
    rnd_renderer *r = rnd_create_still(m, err);
    bool ok = r && rnd_frame_build(r, &p->view, p->w, p->h, err);
    if (ok)
        cs_model_deinit(m);
    ok = ok && rnd_surface_egl_create(p->w, p->h, &s, err);
    if (ok) {
        rnd_surface_begin(s);
        ok = rnd_frame_show(r, &p->view, p->w, p->h, err);
        rnd_surface_end(s);
        ok = ok && rnd_surface_read(s, rgba, err) && rnd_png_write(p->out, rgba, p->w, p->h, err);
    }
    rnd_destroy(r);
    rnd_surface_destroy(s);
    return ok;
}

static bool run(png_opts *p, cs_model *m, const char *trace, cs_err *err)
{
    char ttl[300];
    title(ttl, sizeof ttl, trace, m);
    rnd_view defaults;
    rnd_view_defaults(m, &defaults);
    p->view.t0 = defaults.t0, p->view.t1 = defaults.t1, p->view.now = CS_T_NONE;
    p->view.yaw = defaults.yaw, p->view.pitch = defaults.pitch, p->view.dist = defaults.dist;
    p->view.speed = defaults.speed;
    p->view.title = ttl;
    p->view.axis = p->lanes.axis, p->view.compact = p->lanes.compact, p->view.collapse = p->lanes.collapse;
    if (!apply_times(p, m, err))
        return false;
    rnd_surface *s = NULL;
    rnd_renderer *r = NULL;
    uint8_t *rgba = cs_alloc((size_t)p->w * (size_t)p->h * 4);
    bool ok = rgba ? true : CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for a %dx%d image", p->w, p->h);
    if (ok && !p->frames) {
        ok = still(p, m, rgba, err);
        cs_free(rgba);
        return ok;
    }
    ok = ok && rnd_surface_egl_create(p->w, p->h, &s, err) && (r = rnd_create_still(m, err)) != NULL;
    ok = ok && animate(p, s, r, rgba, err);
    rnd_destroy(r);
    rnd_surface_destroy(s);
    cs_free(rgba);
    return ok;
}

int cli_cmd_png(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'}, {"layout", required_argument, NULL, O_LAYOUT},
        {"engine", required_argument, NULL, O_ENGINE},
        {"size", required_argument, NULL, O_SIZE}, {"at", required_argument, NULL, O_AT},
        {"range", required_argument, NULL, O_RANGE}, {"theme", required_argument, NULL, O_THEME},
        {"system", no_argument, NULL, O_SYSTEM}, {"filter", required_argument, NULL, O_FILTER},
        {"frames", required_argument, NULL, O_FRAMES}, {"fps", required_argument, NULL, O_FPS},
        CLI_LANE_LONGOPTS, {0}};
    png_opts p = {.w = 1920, .h = 1080};
    cli_trace_opts o = {.drawn_only = true}; /* the model shrinks before GL grows */
    int rc = cli_args_parse(&(cli_args){.cmd = "png", .help = help, .shortopts = "o:", .longopts = longopts,
                                        .on_opt = parse_opt, .ud = &p}, argc, argv, &o);
    if (rc < 0 && !p.out)
        rc = cli_usage("png", "missing -o OUT.png");
    cs_file f;
    cs_model m;
    if (rc >= 0 || !cli_open(&o, &f, &m, NULL, &rc))
        return rc;
    cs_err err = {0};
    bool ok = run(&p, &m, o.path, &err);
    cli_unload(&f, &m, NULL);
    return ok ? 0 : cli_report(&err, "chanscope png");
}
