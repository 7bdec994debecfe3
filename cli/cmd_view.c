/* cli/cmd_view.c — `chanscope view TRACE`: the interactive OpenGL window
 * (GLFW). Owns the command line, the frame loop and the playback clock;
 * input handling is in view_input.c. Needs an X display; without one it
 * says so and points at the export commands. */
#include "view.h"

#include <GLFW/glfw3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help_head[] =
    "usage: chanscope view [options] TRACE\n\n"
    "Open the trace in a window: goroutine lanes (or the 3D spawn tree, or the\n"
    "communication graph) with channel messages as arrows, played back in time\n"
    "from the start of the trace.\n\n"
    "      --layout L        lanes (default), tree or graph\n"
    "      --engine E        graph: Graphviz layout dot, neato, sfdp, fdp or circo\n"
    "      --theme T         dark (default), light or gotrace\n"
    "      --size WxH        window size (default 1280x720)\n" CLI_LANE_HELP
    "      --system          show runtime goroutines from the start\n"
    "      --shots DIR       where 'p' saves screenshots (default: current folder)\n"
    "      --bench-frames N  draw N frames, print the frame time and exit\n"
    "      --bench-zoom N    then (or alone): from the whole trace at the fit view,\n"
    "                        N wheel notches in at the centre, then N drags of a\n"
    "                        tenth of the width; print the median and worst step\n"
    "                        (view change to frame shown; in lanes drawn from the\n"
    "                        summaries before, stretched), settled (till the frame\n"
    "                        that shows the summaries made afresh: in lanes behind\n"
    "                        the frames) and the longest frame meanwhile; then, a\n"
    "                        line each, N drags of the layout's other kinds (lanes:\n"
    "                        vertical and diagonal, a tenth of the height up and\n"
    "                        back by turns; tree: orbit) timed alike, and exit\n"
    "      --follow          the trace is still being written (a file, a pipe, a FIFO;\n"
    "                        TRACE - implies it): the picture grows as Go 1.22+\n"
    "                        generations arrive, about once a second\n" CLI_TRACE_HELP
    "  -h, --help            this help\n\n"
    "Keys and mouse (also in the window: ?):\n";
static const char help_tail[] =
    "While the trace loads the window shows a progress bar; q or Esc cancels.\n\n"
    "Without a display use 'chanscope png' (or svg, dot, perfetto).\n";

bool cli_view_screenshot(cli_viewer *vw, cs_err *err)
{
    int w, h;
    rnd_surface_size(vw->surf, &w, &h);
    uint8_t *rgba = cs_alloc((size_t)w * (size_t)h * 4);
    if (!rgba)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for a screenshot");
    char path[4200];
    snprintf(path, sizeof path, "%s/chanscope-%03d.png", vw->shot_dir ? vw->shot_dir : ".", ++vw->shots);
    bool ok = rnd_surface_read(vw->surf, rgba, err) && rnd_png_write(path, rgba, w, h, err);
    cs_free(rgba);
    if (ok) {
        printf("screenshot %s\n", path);
        fflush(stdout);
        cli_view_status(vw, "saved %.150s", path);
    }
    return ok;
}

/* The frame loop's event wait woken from the thread that made a view's
 * summaries behind the frames (rnd_view.behind): the next frame takes them. */
static void wake_loop(void *ud)
{
    (void)ud;
    glfwPostEmptyEvent();
}

static bool frame(cli_viewer *vw, cs_err *err)
{
    int w, h;
    rnd_surface_begin(vw->surf);
    rnd_surface_size(vw->surf, &w, &h);
    vw->view.quick = cli_view_quick(vw, cli_clock());
    if (!rnd_frame_draw(vw->r, &vw->view, w, h, err))
        return false;
    if (vw->shot) { /* a failed screenshot is the user's to see, not a reason to close */
        cs_err e = {0};
        vw->shot = false;
        if (!cli_view_screenshot(vw, &e))
            cli_view_status(vw, "screenshot not saved: %.140s", e.msg);
    }
    rnd_surface_end(vw->surf);
    return true;
}

static bool loop(cli_viewer *vw, cs_err *err)
{
    GLFWwindow *win = rnd_surface_window(vw->surf);
    rnd_view *v = &vw->view;
    double last = cli_clock(), fps_t = last, busy = 0;
    int fps_n = 0;
    while (!vw->quit && !glfwWindowShouldClose(win)) {
        double settle = vw->settle_at - cli_clock();
        if (v->playing)
            glfwPollEvents();
        else /* the frame after a zoom or pan settles comes on time */
            glfwWaitEventsTimeout(settle > 0 && settle < 0.1 ? settle : 0.1);
        double t = cli_clock();
        cli_view_tick(vw, t - last);
        last = t;
        if (vw->follow && !cli_view_follow_poll(vw, vw->follow, err))
            return false;
        if (vw->loader && !cli_view_load_poll(vw, err))
            return false;
        cli_view_hover(vw);
        if (!frame(vw, err))
            return false;
        fps_n++, busy += cli_clock() - t;
        /* frames a second: drawn, while playing; while paused (a frame
         * each event or tenth of a second), what the frames took allows */
        if (t - fps_t >= 0.5) {
            v->fps = fps_n / (v->playing || busy <= 0 ? t - fps_t : busy);
            fps_n = 0, fps_t = t, busy = 0;
        }
    }
    return true;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Sorts n > 0 times and gives their median and worst. */
static void median_worst(double *dt, int n, double *median, double *worst)
{
    qsort(dt, (size_t)n, sizeof *dt, cmp_double);
    *median = dt[n / 2], *worst = dt[n - 1];
}

/* Before the figures: a first picture before the channel traffic drawn as
 * the viewer shows it (*shown: when, after start, and *msgs: the messages
 * it had, for the caller's report), then its traffic waited for and taken
 * over, so what is timed is the whole model's frames. */
static bool bench_load(cli_viewer *vw, double *shown, uint32_t *msgs, cs_err *err)
{
    if (cli_view_load_pending(vw->loader)) {
        if (!frame(vw, err))
            return false;
        glFinish();
        *shown = cli_clock() - vw->t_start;
        *msgs = rnd_last_stats(vw->r)->msgs_total;
        while (cli_view_load_pending(vw->loader))
            glfwWaitEventsTimeout(0.01);
    }
    return cli_view_load_poll(vw, err);
}

/* Draws n frames with the playback running and prints the frame times: the
 * first one apart (it builds the level-of-detail caches, as every zoom or
 * pan does), then the median, mean and worst of the others; and when the
 * first picture and the first of the whole model were shown. */
static bool bench_frames(cli_viewer *vw, int n, cs_err *err)
{
    rnd_view *v = &vw->view;
    double *dt = cs_alloc((size_t)n * sizeof *dt);
    if (!dt)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %d frame times", n);
    v->playing = true;
    double first_shown = -1, shown = 0;
    uint32_t first_msgs = 0;
    if (!bench_load(vw, &first_shown, &first_msgs, err)) {
        cs_free(dt);
        return false;
    }
    for (int i = 0; i < n; i++) {
        v->now = v->t0 + (int64_t)((double)(v->t1 - v->t0) * (i + 1) / n);
        double t = cli_clock();
        if (!frame(vw, err)) {
            cs_free(dt);
            return false;
        }
        glFinish();
        dt[i] = cli_clock() - t;
        if (i == 0)
            shown = cli_clock() - vw->t_start;
        glfwPollEvents();
    }
    double first = dt[0], total = 0, median, worst;
    int m = n > 1 ? n - 1 : 1;
    double *rest = n > 1 ? dt + 1 : dt;
    for (int i = 0; i < m; i++)
        total += rest[i];
    median_worst(rest, m, &median, &worst);
    const rnd_stats *s = rnd_last_stats(vw->r);
    int w, h;
    rnd_surface_size(vw->surf, &w, &h);
    printf("frames %d  size %dx%d  smoothed %s  first %.2f ms  then median %.2f ms  mean %.2f ms  worst %.2f ms  "
           "(last frame: %u segments, %u heads, %u dots, %u glyphs; %u goroutines, %u/%u messages)  "
           "first shown %.2f s after start (%u messages), with its channel traffic %.2f s\n",
           n, w, h, vw->view.rough ? "no" : "yes", first * 1e3, median * 1e3, total / m * 1e3,
           worst * 1e3, s->segs, s->heads, s->dots, s->glyphs, s->lanes, s->msgs_shown, s->msgs_total,
           first_shown >= 0 ? first_shown : shown, first_shown >= 0 ? first_msgs : s->msgs_total, shown);
    cs_free(dt);
    return true;
}

/* The steps --bench-zoom times, each as the mouse makes it at the window's
 * centre through the viewer's own input code: a wheel notch in, or a drag
 * with button (1 left, 2 right) by dx, dy (a share of the window's width
 * and height). A vertical move goes up then back down by turns, so the
 * lanes scrolled out of view come back into it. */
typedef struct bench_kind {
    const char *name;
    bool zoom;
    int button;
    double dx, dy;
} bench_kind;

static const bench_kind zoom_in = {"zoom", true, 0, 0, 0}, pan_time = {"pan", false, 2, -0.1, 0};
static const bench_kind lanes_drags[] = {{"vertical", false, 2, 0, -0.1}, {"diagonal", false, 2, -0.1, -0.1}};
static const bench_kind tree_drags[] = {{"orbit", false, 1, -0.1, -0.1}};

/* Step i of kind k; *dt is the time from the view change to glFinish() of
 * the frame that shows it, *settled that of the frame once the step has
 * settled (the lanes' summaries made afresh for the new window: behind the
 * frames, so from the settled frame to the one after the summaries' wake-up),
 * *longest the longest frame meanwhile. */
static bool bench_step(cli_viewer *vw, const bench_kind *k, int i, double *dt, double *settled, double *longest,
                       cs_err *err)
{
    int w, h;
    rnd_surface_size(vw->surf, &w, &h);
    vw->mx = w / 2.0, vw->my = h / 2.0;
    double t = cli_clock();
    if (k->zoom)
        cli_view_wheel(vw, 1.0);
    else
        cli_view_drag(vw, k->button, k->dx * w, (i & 1 ? -k->dy : k->dy) * h);
    if (!frame(vw, err))
        return false;
    glFinish();
    *dt = cli_clock() - t;
    vw->settle_at = 0;
    t = cli_clock();
    *longest = 0;
    for (;;) {
        double f = cli_clock();
        if (!frame(vw, err))
            return false;
        glFinish();
        *longest = fmax(*longest, cli_clock() - f);
        if (!rnd_pending(vw->r))
            break;
        glfwWaitEventsTimeout(1.0); /* till the summaries' wake-up */
    }
    *settled = cli_clock() - t;
    glfwPollEvents();
    return true;
}

/* n steps of kind k; q: the median and worst as shown, then settled, then
 * of the longest frame while settling (dt: room for 3n). */
static bool bench_run(cli_viewer *vw, const bench_kind *k, int n, double *dt, double q[6], cs_err *err)
{
    for (int i = 0; i < n; i++)
        if (!bench_step(vw, k, i, &dt[i], &dt[n + i], &dt[2 * n + i], err))
            return false;
    median_worst(dt, n, &q[0], &q[1]);
    median_worst(dt + n, n, &q[2], &q[3]);
    median_worst(dt + 2 * n, n, &q[4], &q[5]);
    return true;
}

/* From the whole trace shown at the fit view (as End shows it; one frame
 * drawn first), n zoom steps in, then n pan steps (drags a tenth of the
 * width left) at the depth they reached; prints the median and worst of
 * each, as shown and settled, and the worst frame while settling. Then,
 * one line each, n of the layout's other drags: in lanes vertical and
 * diagonal, in the tree an orbit. */
static bool bench_steps(cli_viewer *vw, int n, cs_err *err)
{
    double *dt = cs_alloc(3 * (size_t)n * sizeof *dt), zq[6], pq[6], q[6];
    if (!dt)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %d step times", 3 * n);
    double shown;
    uint32_t msgs;
    bool ok = bench_load(vw, &shown, &msgs, err);
    vw->view.now = CS_T_NONE, vw->view.playing = false;
    ok = ok && frame(vw, err);
    glFinish();
    ok = ok && bench_run(vw, &zoom_in, n, dt, zq, err) && bench_run(vw, &pan_time, n, dt, pq, err);
    if (ok)
        printf("steps %d  zoom median %.2f ms  worst %.2f ms  pan median %.2f ms  worst %.2f ms  "
               "settled: zoom median %.2f ms  worst %.2f ms  pan median %.2f ms  worst %.2f ms  "
               "longest frame meanwhile: zoom %.2f ms  pan %.2f ms\n",
               n, zq[0] * 1e3, zq[1] * 1e3, pq[0] * 1e3, pq[1] * 1e3, zq[2] * 1e3, zq[3] * 1e3, pq[2] * 1e3,
               pq[3] * 1e3, zq[5] * 1e3, pq[5] * 1e3);
    const bench_kind *more = NULL;
    size_t n_more = 0;
    if (vw->view.layout == RND_LANES)
        more = lanes_drags, n_more = sizeof lanes_drags / sizeof *lanes_drags;
    else if (vw->view.layout == RND_TREE)
        more = tree_drags, n_more = sizeof tree_drags / sizeof *tree_drags;
    for (size_t j = 0; ok && j < n_more; j++)
        if ((ok = bench_run(vw, &more[j], n, dt, q, err)))
            printf("drag %s %d  median %.2f ms  worst %.2f ms  settled: median %.2f ms  worst %.2f ms  "
                   "longest frame meanwhile %.2f ms\n",
                   more[j].name, n, q[0] * 1e3, q[1] * 1e3, q[2] * 1e3, q[3] * 1e3, q[5] * 1e3);
    cs_free(dt);
    return ok;
}

enum { O_LAYOUT = 2000, O_ENGINE, O_THEME, O_SIZE, O_SYSTEM, O_SHOTS, O_BENCH, O_BENCH_ZOOM, O_FOLLOW };

typedef struct view_args {
    cli_viewer *vw;
    cli_lane_opts lanes;
    int w, h, bench_n, zoom_n;
    bool follow;
} view_args;

static const char *parse_opt(void *ud, int c, const char *arg)
{
    static const char *const layouts[] = {"lanes", "tree", "graph"}, *const themes[] = {"dark", "light", "gotrace"};
    view_args *a = ud;
    int k;
    switch (c) {
    case O_LAYOUT:
        if ((k = cli_pick(arg, layouts, 3)) < 0)
            return "--layout must be lanes, tree or graph";
        a->vw->view.layout = (rnd_layout)k;
        return NULL;
    case O_ENGINE: return cli_engine_opt(&a->vw->view.engine, arg);
    case O_THEME:
        if ((k = cli_pick(arg, themes, 3)) < 0)
            return "--theme must be dark, light or gotrace";
        a->vw->view.theme = (rnd_theme)k;
        return NULL;
    case O_SIZE:
        if (!cli_size_parse(arg, 64, 8192, &a->w, &a->h))
            return "--size must be WxH, 64 to 8192 each";
        return NULL;
    case O_SYSTEM: a->vw->view.show_system = true; return NULL;
    case O_SHOTS: a->vw->shot_dir = arg; return NULL;
    case O_FOLLOW: a->follow = true; return NULL;
    case O_BENCH: return cli_int_parse(arg, 1, 1000000, &a->bench_n) ? NULL : "--bench-frames must be 1 to 1000000";
    case O_BENCH_ZOOM: return cli_int_parse(arg, 1, 1000, &a->zoom_n) ? NULL : "--bench-zoom must be 1 to 1000";
    }
    return cli_lane_opt(&a->lanes, c, arg);
}

/* Opens the window, loads the trace behind the loading screen, then runs
 * the viewer; returns the exit status. */
static int run(cli_viewer *vw, const cli_trace_opts *o, int w, int h, int bench_n, int zoom_n, bool follow)
{
    cs_err err = {0};
    cs_file f = {0};
    cs_model m;
    cs_model_init(&m);
    char title[300];
    snprintf(title, sizeof title, "chanscope \xE2\x80\x94 %s", cli_trace_name(o->path));
    int rc = 0;
    cli_loader *ld = NULL;
    bool early = vw->view.layout != RND_GRAPH; /* the graph is the traffic: it waits for it */
    if (!follow && !(ld = cli_view_load_start(o, &f, &m, early, &err))) {
        rc = cli_report(&err, "chanscope view");
    } else if (!rnd_surface_glfw_create(title, w, h, &vw->surf, &err) || !(vw->r = rnd_create(NULL, &err))) {
        cli_view_load_stop(ld);
        rc = cli_report(&err, "chanscope view");
    } else if (follow && !cli_view_follow_start(o, &vw->follow, &err)) {
        rc = cli_report(&err, o->path);
    } else if (follow ? cli_view_follow_first(vw, vw->follow, &rc) : cli_view_load(vw, ld, &rc)) {
        rnd_view opts = vw->view;
        if (follow)
            vw->m = cli_view_follow_model(vw->follow);
        rnd_view_defaults(vw->m, &vw->view);
        vw->view.layout = opts.layout, vw->view.theme = opts.theme, vw->view.show_system = opts.show_system;
        vw->view.engine = opts.engine;
        vw->view.axis = opts.axis, vw->view.compact = opts.compact, vw->view.collapse = opts.collapse;
        vw->view.hud = true;
        vw->view.rough = rnd_surface_software(vw->surf);
        vw->view.behind = wake_loop; /* no frame waits for a settled view's summaries */
        vw->view.now = vw->m->t_first, vw->view.playing = !bench_n && !zoom_n; /* from the start, playing */
        vw->loop0 = vw->loop1 = CS_T_NONE;
        if (follow)
            cli_view_follow_shown(vw, vw->follow);
        else
            cli_view_load_shown(vw);
        cli_view_input_install(vw);
        bool ok = bench_n || zoom_n ? (!bench_n || bench_frames(vw, bench_n, &err)) &&
                                          (!zoom_n || bench_steps(vw, zoom_n, &err))
                                    : loop(vw, &err);
        if (!ok)
            rc = cli_report(&err, "chanscope view");
    }
    if (vw->loader && vw->surf) /* its traffic runs out unseen */
        glfwHideWindow(rnd_surface_window(vw->surf));
    rnd_destroy(vw->r);
    cli_view_load_stop(vw->loader); /* after the renderer that may show its model */
    cli_view_follow_stop(vw->follow);
    rnd_surface_destroy(vw->surf);
    cli_unload(&f, &m, NULL);
    return rc;
}

int cli_cmd_view(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"layout", required_argument, NULL, O_LAYOUT}, {"engine", required_argument, NULL, O_ENGINE},
        {"theme", required_argument, NULL, O_THEME},
        {"size", required_argument, NULL, O_SIZE}, {"system", no_argument, NULL, O_SYSTEM},
        {"shots", required_argument, NULL, O_SHOTS}, {"bench-frames", required_argument, NULL, O_BENCH},
        {"bench-zoom", required_argument, NULL, O_BENCH_ZOOM},
        {"follow", no_argument, NULL, O_FOLLOW}, CLI_LANE_LONGOPTS, {0}};
    cli_viewer vw = {.t_start = cli_clock()};
    cli_trace_opts o = {.drawn_only = true}; /* the viewer reads no wake-up it does not draw */
    view_args a = {.vw = &vw, .w = 1280, .h = 720};
    static char help[sizeof help_head + sizeof help_tail + 4096];
    size_t n = strlen(help_head);
    memcpy(help, help_head, n);
    n += cli_view_keys_text(help + n, sizeof help - n - sizeof help_tail);
    memcpy(help + n, "\n", 1), memcpy(help + n + 1, help_tail, sizeof help_tail);
    int rc = cli_args_parse(&(cli_args){.cmd = "view", .help = help, .longopts = longopts,
                                        .on_opt = parse_opt, .ud = &a}, argc, argv, &o);
    if (rc >= 0)
        return rc;
    vw.view.axis = a.lanes.axis, vw.view.compact = a.lanes.compact, vw.view.collapse = a.lanes.collapse;
    cs_err err = {0};
    const char *disp = getenv("DISPLAY");
    if (!disp || !disp[0]) {
        CS_FAIL(&err, CS_E_GL, CS_NO_OFFSET, "no display (DISPLAY is not set); to draw without one "
                "use 'chanscope png' (or svg, dot, perfetto)");
        return cli_report(&err, "chanscope view");
    }
    return run(&vw, &o, a.w, a.h, a.bench_n, a.zoom_n, a.follow || !strcmp(o.path, "-"));
}
