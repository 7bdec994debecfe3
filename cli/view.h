/* cli/view.h — what the two files of `chanscope view` share: the viewer's
 * state (view, clock, mouse) and the GLFW input callbacks that change it
 * (view_input.c); cmd_view.c owns the loop and the command line.
 *
 * API
 *   void cli_view_input_install(cli_viewer *vw)   sets the GLFW callbacks
 *   void cli_view_screenshot(cli_viewer *vw)      writes the current frame to a PNG
 */
#ifndef CLI_VIEW_H
#define CLI_VIEW_H

#include "cli.h"
#include "../render/render.h"

typedef struct cli_viewer {
    const cs_model *m;
    rnd_surface *surf;
    rnd_renderer *r;
    rnd_view view;
    bool quit;
    bool filtering;          /* typing a filter after '/' */
    bool shot;               /* save the next frame */
    int shots;               /* screenshots taken (file numbering) */
    const char *shot_dir;
    char status[160];
    /* mouse */
    double mx, my, press_x, press_y;
    int drag;                /* 0 none, 1 left, 2 right */
    bool moved;
} cli_viewer;

void cli_view_input_install(cli_viewer *vw);
bool cli_view_screenshot(cli_viewer *vw, cs_err *err);

#endif
