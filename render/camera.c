/* render/camera.c — moving the tree's and the graph's camera by the
 * pointer: both draw screen = area centre + pan + zoom · picture (tree.c,
 * graph.c), zoom = 1 / v->dist, so zooming about a pixel is a change of
 * dist with the pan that keeps that pixel's point in place. */
#include "rnd.h"

#include <math.h>

void rnd_zoom_at(const rnd_renderer *r, rnd_view *v, int w, int h, float x, float y, float k)
{
    float a[4];
    if (v->layout == RND_TREE)
        rnd__tree_area(r, v, w, h, a);
    else
        rnd__graph_area(r, v, w, h, a);
    float d0 = v->dist > 0 ? v->dist : 1.0f, d1 = fmaxf(0.05f, fminf(20.0f, d0 / k));
    float q = d0 / d1; /* the zoom's change, after the limits */
    float ux = x - 0.5f * (a[0] + a[2]) - v->pan_x, uy = y - 0.5f * (a[1] + a[3]) - v->pan_y;
    v->dist = d1;
    if (v->layout != RND_LANES)
        v->pan_x += ux - q * ux, v->pan_y += uy - q * uy;
}
