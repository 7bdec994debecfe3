/* cli/view_input.c — keyboard and mouse of `chanscope view`: GLFW
 * callbacks that change the viewer's rnd_view (play, speed, step, layout,
 * time axis, highlight, filter, camera) — see the key list in cmd_view.c's help. */
#include "view.h"

#include <GLFW/glfw3.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static cli_viewer *of(GLFWwindow *w) { return glfwGetWindowUserPointer(w); }

static void set_status(cli_viewer *vw, const char *msg)
{
    snprintf(vw->status, sizeof vw->status, "%s", msg);
    vw->view.status = vw->status;
}

/* The next (dir > 0) or previous message time after the playback position. */
static void step(cli_viewer *vw, int dir)
{
    const cs_model *m = vw->m;
    rnd_view *v = &vw->view;
    int64_t now = v->now == CS_T_NONE ? v->t1 : v->now, best = dir > 0 ? v->t1 : v->t0;
    for (uint32_t i = 0; i < m->n_msgs; i++) {
        int64_t t = m->msgs[i].t_send;
        if (dir > 0 && t > now && t < best)
            best = t;
        if (dir < 0 && t < now && t > best)
            best = t;
    }
    if (!m->n_msgs) /* no messages: a tenth of a second of playback */
        best = now + (int64_t)(dir * v->speed / 10);
    v->now = best < v->t0 ? v->t0 : best > v->t1 ? v->t1 : best;
    v->playing = false;
}

static void highlight(cli_viewer *vw, rnd_highlight h)
{
    static const char *names[] = {"", "channel traffic", "blocked spans", "partners of the selection", "spawns"};
    vw->view.highlight = vw->view.highlight == h ? RND_HL_NONE : h;
    char buf[80];
    snprintf(buf, sizeof buf, "highlight: %s", vw->view.highlight ? names[h] : "off");
    set_status(vw, buf);
}

/* Linear → log → gap-folding → linear; playback and the window stay. */
static void next_axis(cli_viewer *vw)
{
    static const char *names[] = {"time axis: linear", "time axis: logarithmic", "time axis: gaps folded"};
    vw->view.axis = (lay_axis_kind)((vw->view.axis + 1) % 3);
    set_status(vw, names[vw->view.axis]);
}

static void on_char(GLFWwindow *w, unsigned int cp)
{
    cli_viewer *vw = of(w);
    rnd_view *v = &vw->view;
    if (vw->filtering) {
        size_t n = strlen(v->filter);
        if (cp >= 32 && cp < 127 && n + 1 < sizeof v->filter)
            v->filter[n] = (char)cp, v->filter[n + 1] = 0;
        return;
    }
    switch (cp) {
    case ' ':
        if (v->now == CS_T_NONE || v->now >= v->t1)
            v->now = v->t0;
        v->playing = !v->playing;
        break;
    case '+': case '=': v->speed *= 2; break;
    case '-': case '_': v->speed = v->speed / 2 > 1 ? v->speed / 2 : 1; break;
    case 'r': v->now = v->t0, v->playing = true; break;
    case 'l':
        v->layout = (rnd_layout)((v->layout + 1) % RND_LAYOUT_COUNT);
        v->pan_x = v->pan_y = 0;
        break;
    case 'a': next_axis(vw); break;
    case '1': case '2': case '3': case '4': highlight(vw, (rnd_highlight)(cp - '0')); break;
    case 'h': v->show_system = !v->show_system; break;
    case '/': vw->filtering = true, v->filter[0] = 0, set_status(vw, "filter: type a function name, Enter ends"); break;
    case 'p': vw->shot = true; break;
    case 'q': vw->quit = true; break;
    case '?': v->help = !v->help; break;
    }
}

static void on_key(GLFWwindow *w, int key, int scancode, int action, int mods)
{
    (void)scancode, (void)mods;
    cli_viewer *vw = of(w);
    rnd_view *v = &vw->view;
    if (action == GLFW_RELEASE)
        return;
    if (vw->filtering) {
        size_t n = strlen(v->filter);
        if (key == GLFW_KEY_BACKSPACE && n)
            v->filter[n - 1] = 0;
        else if (key == GLFW_KEY_ENTER || key == GLFW_KEY_KP_ENTER || key == GLFW_KEY_ESCAPE)
            vw->filtering = false, set_status(vw, v->filter[0] ? "filter on ('/' then Enter clears)" : "filter off");
        return;
    }
    switch (key) {
    case GLFW_KEY_ESCAPE: vw->quit = true; break;
    case GLFW_KEY_RIGHT: step(vw, 1); break;
    case GLFW_KEY_LEFT: step(vw, -1); break;
    case GLFW_KEY_HOME: v->now = v->t0, v->playing = false; break;
    case GLFW_KEY_END: v->now = CS_T_NONE, v->playing = false; break;
    case GLFW_KEY_KP_ADD: v->speed *= 2; break;
    case GLFW_KEY_KP_SUBTRACT: v->speed = v->speed / 2 > 1 ? v->speed / 2 : 1; break;
    }
}

/* Lanes: wheel zooms time around the cursor. Tree/graph: camera distance. */
static void on_scroll(GLFWwindow *w, double dx, double dy)
{
    (void)dx;
    cli_viewer *vw = of(w);
    rnd_view *v = &vw->view;
    float k = dy > 0 ? 0.8f : 1.25f;
    if (v->layout != RND_LANES) {
        v->dist = fmaxf(0.1f, fminf(20.0f, v->dist * k));
        return;
    }
    rnd_hit hit;
    rnd_pick(vw->r, v, (float)vw->mx, (float)vw->my, &hit);
    int64_t c = hit.t != CS_T_NONE ? hit.t : (v->t0 + v->t1) / 2;
    int64_t a = c - (int64_t)((double)(c - v->t0) * k), b = c + (int64_t)((double)(v->t1 - c) * k);
    if (b - a >= 100) /* no closer than 100 ns across the window */
        v->t0 = a, v->t1 = b;
}

static void drag(cli_viewer *vw, double dx, double dy)
{
    rnd_view *v = &vw->view;
    int w, h;
    rnd_surface_size(vw->surf, &w, &h);
    if (v->layout == RND_LANES) {
        int64_t span = v->t1 - v->t0, shift = (int64_t)(-dx / (w * 0.8) * (double)span);
        v->t0 += shift, v->t1 += shift;
        v->scroll_px = fmaxf(0.0f, v->scroll_px - (float)dy);
    } else if (v->layout == RND_TREE && vw->drag == 1) {
        v->yaw -= (float)dx * 0.01f;
        v->pitch = fmaxf(-1.5f, fminf(1.5f, v->pitch + (float)dy * 0.01f));
    } else {
        v->pan_x += (float)dx, v->pan_y += (float)dy;
    }
}

void cli_view_hover(cli_viewer *vw)
{
    rnd_hit hit = {0};
    if (glfwGetWindowAttrib(rnd_surface_window(vw->surf), GLFW_HOVERED))
        rnd_pick(vw->r, &vw->view, (float)vw->mx, (float)vw->my, &hit);
    vw->view.hover = hit.g;
    vw->view.tip_x = (float)vw->mx, vw->view.tip_y = (float)vw->my;
}

static void on_cursor(GLFWwindow *w, double x, double y)
{
    cli_viewer *vw = of(w);
    if (vw->drag) {
        drag(vw, x - vw->mx, y - vw->my);
        if (fabs(x - vw->press_x) + fabs(y - vw->press_y) > 3)
            vw->moved = true;
    }
    vw->mx = x, vw->my = y;
}

static void on_button(GLFWwindow *w, int button, int action, int mods)
{
    (void)mods;
    cli_viewer *vw = of(w);
    if (action == GLFW_PRESS) {
        vw->drag = button == GLFW_MOUSE_BUTTON_RIGHT ? 2 : 1;
        vw->press_x = vw->mx, vw->press_y = vw->my;
        vw->moved = false;
        return;
    }
    if (vw->drag == 1 && !vw->moved) { /* a click selects (or clears) */
        rnd_hit hit;
        rnd_pick(vw->r, &vw->view, (float)vw->mx, (float)vw->my, &hit);
        vw->view.selected = hit.g == vw->view.selected ? 0 : hit.g;
    }
    vw->drag = 0;
}

void cli_view_input_install(cli_viewer *vw)
{
    GLFWwindow *w = rnd_surface_window(vw->surf);
    glfwSetWindowUserPointer(w, vw);
    glfwSetCharCallback(w, on_char);
    glfwSetKeyCallback(w, on_key);
    glfwSetScrollCallback(w, on_scroll);
    glfwSetCursorPosCallback(w, on_cursor);
    glfwSetMouseButtonCallback(w, on_button);
}
