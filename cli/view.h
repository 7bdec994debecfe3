/* cli/view.h — what the two files of `chanscope view` share: the viewer's
 * state (view, clock, mouse), loading the trace behind a progress screen
 * (view_load.c) and the GLFW input callbacks that change the view
 * (view_input.c); cmd_view.c owns the loop and the command line.
 *
 * API
 *   cli_loader *cli_view_load_start(const cli_trace_opts *o, cs_file *f, cs_model *m, bool early, cs_err *err)
 *       starts loading o->path into f and m on a worker thread, before the
 *       window exists; with `early` (and a big file), the first picture comes
 *       before the channel traffic; NULL (err filled) when out of memory
 *   bool cli_view_load(cli_viewer *vw, cli_loader *ld, int *rc)
 *       attaches the first picture's model to vw->r (made without a model)
 *       while the window shows progress, and sets vw->m; on failure reports
 *       it and sets *rc (1, or 0 when the user cancelled); either way ld is
 *       vw->loader, for the caller to stop after destroying vw->r, then to
 *       cli_unload f and m
 *   bool cli_view_load_pending(const cli_loader *ld)   the whole model is still to come
 *   void cli_view_load_shown(cli_viewer *vw)   status line for the first picture
 *   bool cli_view_load_poll(cli_viewer *vw, cs_err *err)
 *       each frame: once the worker has the channel traffic, hands it to vw->r
 *       (rnd_traffic_take) and sets vw->m, the view kept (vw->loader freed);
 *       false (err filled) when the traffic failed
 *   void cli_view_load_stop(cli_loader *ld)   stops (the traffic, once begun, runs
 *       out), joins and frees a load (NULL: nothing)
 *   void cli_view_quit_keys(cli_viewer *vw)       q and Esc (only) set vw->quit: for waiting screens
 *   bool cli_view_follow_start(const cli_trace_opts *o, cli_follow **out, cs_err *err)
 *       starts reading a growing trace (view_follow.c); free with cli_view_follow_stop
 *   bool cli_view_follow_first(cli_viewer *vw, cli_follow *fl, int *rc)
 *       a waiting screen until the first model, attached to vw->r (made without
 *       one); false with *rc when the user quit (0) or the input ended without one
 *   const cs_model *cli_view_follow_model(const cli_follow *fl)   the model shown now
 *   void cli_view_follow_shown(cli_viewer *vw, cli_follow *fl)    status line for it
 *   bool cli_view_follow_poll(cli_viewer *vw, cli_follow *fl, cs_err *err)
 *       each frame: swaps a newer model in (a new vw->r, vw->m), the view kept
 *   void cli_view_follow_stop(cli_follow *fl)                     accepts NULL
 *   void cli_view_input_install(cli_viewer *vw)   sets the GLFW callbacks
 *   void cli_view_wheel(cli_viewer *vw, double dy)   a wheel notch (dy > 0 in) at the
 *       pointer (vw->mx, vw->my), as the callback does it
 *   void cli_view_drag(cli_viewer *vw, int button, double dx, double dy)
 *       the pointer moved by dx, dy with button (1 left, 2 right) held, as the callback does it
 *   bool cli_view_quick(cli_viewer *vw, double now)
 *       whether the frame drawn now may stretch the lanes' summaries (rnd_view.quick):
 *       within CLI_VIEW_SETTLE_S of a wheel notch or drag that moved the lanes' window,
 *       and for at most CLI_VIEW_STALE_S in a row (it notes when such frames began)
 *   void cli_view_hover(cli_viewer *vw)           what is under the mouse now (tooltip), none
 *       when the mouse is outside; called every frame, as the view may have
 *       moved under a still mouse (filter, step, layout)
 *   bool cli_view_screenshot(cli_viewer *vw, cs_err *err)   writes the current frame to a PNG
 *   void cli_view_status(cli_viewer *vw, const char *fmt, ...)  a status line; it fades
 *       out after a few seconds (cli_view_tick)
 *   void cli_view_tick(cli_viewer *vw, double dt_s)  advances playback by dt_s of wall
 *       time (stopping at the end of the trace, or wrapping inside the loop range),
 *       keeps the playback position in the window and fades the status
 *   size_t cli_view_keys_text(char *buf, size_t n)   the key list as text (--help),
 *       from the same table that handles the keys; returns the length written
 */
#ifndef CLI_VIEW_H
#define CLI_VIEW_H

#include "cli.h"
#include "../render/render.h"

typedef struct cli_follow cli_follow;
typedef struct cli_loader cli_loader;

/* After the last zoom or pan step the summaries are made afresh for the
 * window reached: about one wheel notch's spacing later, so a spun wheel
 * or a drag is drawn at once from the summaries made before, stretched;
 * and never stretched for longer than CLI_VIEW_STALE_S in a row. */
#define CLI_VIEW_SETTLE_S 0.12
#define CLI_VIEW_STALE_S 0.5

typedef struct cli_viewer {
    const cs_model *m;
    cli_follow *follow;      /* --follow: where newer models come from, NULL none */
    cli_loader *loader;      /* a load not done with (its channel traffic still to come), NULL none */
    rnd_surface *surf;
    rnd_renderer *r;
    rnd_view view;
    bool quit;
    bool filtering;          /* typing a filter after '/' */
    bool shot;               /* save the next frame */
    int shots;               /* screenshots taken (file numbering) */
    const char *shot_dir;
    char status[160];
    double status_t;         /* when the status was set (cli_clock) */
    int64_t loop0, loop1;    /* playback loop range, CS_T_NONE each when unset */
    rnd_key_row keys[32];    /* the key list overlay, from view_input.c's table */
    /* mouse */
    double mx, my, press_x, press_y;
    int drag;                /* 0 none, 1 left, 2 right */
    bool moved;
    double settle_at;        /* the lanes' window moves (wheel, drag) until then (cli_clock) */
    double quick_since;      /* when the frames in a row that stretch the summaries began, 0 none */
    double t_start;          /* cli_clock when the command started (--bench-frames) */
} cli_viewer;

cli_loader *cli_view_load_start(const cli_trace_opts *o, cs_file *f, cs_model *m, bool early, cs_err *err);
bool cli_view_load(cli_viewer *vw, cli_loader *ld, int *rc);
bool cli_view_load_pending(const cli_loader *ld);
void cli_view_load_shown(cli_viewer *vw);
bool cli_view_load_poll(cli_viewer *vw, cs_err *err);
void cli_view_load_stop(cli_loader *ld);
void cli_view_quit_keys(cli_viewer *vw);
bool cli_view_follow_start(const cli_trace_opts *o, cli_follow **out, cs_err *err);
bool cli_view_follow_first(cli_viewer *vw, cli_follow *fl, int *rc);
const cs_model *cli_view_follow_model(const cli_follow *fl);
void cli_view_follow_shown(cli_viewer *vw, cli_follow *fl);
bool cli_view_follow_poll(cli_viewer *vw, cli_follow *fl, cs_err *err);
void cli_view_follow_stop(cli_follow *fl);
void cli_view_input_install(cli_viewer *vw);
void cli_view_wheel(cli_viewer *vw, double dy);
void cli_view_drag(cli_viewer *vw, int button, double dx, double dy);
bool cli_view_quick(cli_viewer *vw, double now);
void cli_view_hover(cli_viewer *vw);
bool cli_view_screenshot(cli_viewer *vw, cs_err *err);
void cli_view_status(cli_viewer *vw, const char *fmt, ...);
void cli_view_tick(cli_viewer *vw, double dt_s);
size_t cli_view_keys_text(char *buf, size_t n);

#endif
