/* cli/view_input.c — keyboard and mouse of `chanscope view`: one table of
 * bindings (keys, what they do, the action) that both handles the GLFW
 * callbacks and prints the key list (the '?' overlay and `view --help`), so
 * the list cannot drift from what the keys do; the mouse rows are written
 * from the same function that decides what a drag does. Also the playback
 * clock (cli_view_tick): it runs over the whole trace, or loops inside a
 * range set with '[' and ']', and pages the window along when zoomed in. */
#include "view.h"

#include <GLFW/glfw3.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define STATUS_S 3.0   /* a status line shows this long, then fades */
#define FADE_S 1.0     /* over this long */

static cli_viewer *of(GLFWwindow *w) { return glfwGetWindowUserPointer(w); }

void cli_view_status(cli_viewer *vw, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(vw->status, sizeof vw->status, fmt, ap);
    va_end(ap);
    vw->view.status = vw->status;
    vw->view.status_fade = 0;
    vw->status_t = cli_clock();
}

/* Where playback starts and ends: the loop range when one is set, else the
 * whole trace (never the zoomed window). */
static int64_t play_start(const cli_viewer *vw)
{
    return vw->loop0 != CS_T_NONE ? vw->loop0 : vw->m->t_first;
}

static int64_t play_end(const cli_viewer *vw)
{
    return vw->loop1 != CS_T_NONE ? vw->loop1 : vw->m->t_last;
}

/* Keeps the playback position inside the visible window: a zoomed window
 * pages along (the position a twentieth in from the left edge; the last
 * page ends at the trace's end); End (the whole picture, now = none)
 * brings the window to the trace's end. */
static void follow(cli_viewer *vw)
{
    rnd_view *v = &vw->view;
    int64_t w = v->t1 - v->t0;
    if (v->now == CS_T_NONE) {
        if (v->t1 < vw->m->t_last)
            v->t1 = vw->m->t_last, v->t0 = v->t1 - w;
        return;
    }
    if (v->now < v->t0 || v->now > v->t1) {
        v->t0 = v->now - w / 20, v->t1 = v->t0 + w;
        rnd_view_inside(vw->m, v);
    }
}

void cli_view_tick(cli_viewer *vw, double dt_s)
{
    rnd_view *v = &vw->view;
    if (v->playing && v->now != CS_T_NONE) {
        int64_t a = play_start(vw), b = play_end(vw);
        v->now += (int64_t)(dt_s * v->speed);
        if (v->now >= b && (vw->loop0 != CS_T_NONE || vw->loop1 != CS_T_NONE))
            v->now = a + (b > a ? (v->now - b) % (b - a) : 0);
        else if (v->now >= b)
            v->now = b, v->playing = false;
        follow(vw);
    }
    if (v->status) {
        double age = cli_clock() - vw->status_t;
        v->status_fade = age < STATUS_S ? 0.0f : (float)((age - STATUS_S) / FADE_S);
        if (v->status_fade >= 1.0f)
            v->status = NULL, v->status_fade = 0;
    }
}

/* ---- actions: each takes the viewer and the binding's argument ---- */

typedef void action_fn(cli_viewer *vw, int arg);

static void play(cli_viewer *vw, int arg)
{
    (void)arg;
    rnd_view *v = &vw->view;
    if (v->now == CS_T_NONE || v->now >= play_end(vw) || v->now < play_start(vw))
        v->now = play_start(vw);
    v->playing = !v->playing;
    follow(vw);
}

static void speed(cli_viewer *vw, int dir)
{
    rnd_view *v = &vw->view;
    v->speed = dir > 0 ? v->speed * 2 : v->speed / 2 > 1 ? v->speed / 2 : 1;
    char buf[32];
    lay_fmt_dur((int64_t)v->speed, buf, sizeof buf);
    cli_view_status(vw, "speed %s/s", buf);
}

/* The next (dir > 0) or previous message send after the playback position,
 * anywhere in the trace; the window follows. */
static void step(cli_viewer *vw, int dir)
{
    const cs_model *m = vw->m;
    rnd_view *v = &vw->view;
    int64_t lo = m->t_first, hi = m->t_last;
    int64_t now = v->now == CS_T_NONE ? hi : v->now, best = dir > 0 ? hi : lo;
    /* the messages are in cs_msg_t order, a message's send when it has one
     * (core/model.h): the first after now, then on (or back) past those
     * without a send */
    uint32_t a = cs_model_msg_from(m, now + 1);
    for (uint32_t i = a; dir > 0 && i < m->n_msgs; i++) {
        int64_t t = cs_msg_t_send(m, i);
        if (t != CS_T_NONE) {
            best = t < best ? t : best;
            break;
        }
    }
    for (uint32_t i = a; dir < 0 && i-- > 0;) {
        int64_t t = cs_msg_t_send(m, i);
        if (t != CS_T_NONE && t < now) {
            best = t > best ? t : best;
            break;
        }
    }
    if (!m->n_msgs) /* no messages: a tenth of a second of playback */
        best = now + (int64_t)(dir * v->speed / 10);
    v->now = best < lo ? lo : best > hi ? hi : best;
    v->playing = false;
    follow(vw);
}

static void home(cli_viewer *vw, int arg)
{
    (void)arg;
    vw->view.now = play_start(vw);
    follow(vw);
}

static void end(cli_viewer *vw, int arg)
{
    (void)arg;
    vw->view.now = CS_T_NONE, vw->view.playing = false;
    follow(vw);
}

static void restart(cli_viewer *vw, int arg)
{
    (void)arg;
    vw->view.now = play_start(vw), vw->view.playing = true;
    follow(vw);
}

/* '[' and ']': the loop range starts / ends at the playback position;
 * 'c' clears it. */
static void loop_mark(cli_viewer *vw, int which)
{
    rnd_view *v = &vw->view;
    int64_t t = v->now == CS_T_NONE ? vw->m->t_last : v->now;
    char a[32], b[32];
    if (which == 0) {
        vw->loop0 = vw->loop1 = CS_T_NONE, v->loop = false;
        cli_view_status(vw, "loop off: playback runs over the whole trace");
        return;
    }
    if (which < 0)
        vw->loop0 = t;
    else
        vw->loop1 = t;
    if (vw->loop0 != CS_T_NONE && vw->loop1 != CS_T_NONE && vw->loop1 <= vw->loop0)
        *(which < 0 ? &vw->loop1 : &vw->loop0) = CS_T_NONE; /* the other end was on the wrong side */
    v->loop = vw->loop0 != CS_T_NONE || vw->loop1 != CS_T_NONE;
    v->loop0 = play_start(vw), v->loop1 = play_end(vw);
    lay_fmt_dur((vw->loop0 != CS_T_NONE ? vw->loop0 : vw->m->t_first) - vw->m->t_first, a, sizeof a);
    lay_fmt_dur((vw->loop1 != CS_T_NONE ? vw->loop1 : vw->m->t_last) - vw->m->t_first, b, sizeof b);
    cli_view_status(vw, "loop %s \xE2\x86\x92 %s", a, b);
}

static void next_layout(cli_viewer *vw, int arg)
{
    (void)arg;
    static const char *names[] = {"lanes", "tree", "graph"};
    rnd_view *v = &vw->view;
    v->layout = (rnd_layout)((v->layout + 1) % RND_LAYOUT_COUNT);
    v->pan_x = v->pan_y = 0;
    cli_view_status(vw, "layout: %s", names[v->layout]);
}

/* The camera as it starts: the tree or graph framed to fill the window,
 * the lanes showing the whole trace from the first lane. */
static void reset_camera(cli_viewer *vw, int arg)
{
    (void)arg;
    rnd_view *v = &vw->view, d;
    rnd_view_defaults(vw->m, &d);
    v->yaw = d.yaw, v->pitch = d.pitch, v->dist = d.dist, v->pan_x = v->pan_y = 0;
    if (v->layout == RND_LANES)
        v->t0 = d.t0, v->t1 = d.t1, v->scroll_px = 0;
    cli_view_status(vw, "view reset");
}

/* Linear → log → gap-folding → linear; playback and the window stay. */
static void next_axis(cli_viewer *vw, int arg)
{
    (void)arg;
    static const char *names[] = {"time axis: linear", "time axis: logarithmic", "time axis: gaps folded"};
    vw->view.axis = (lay_axis_kind)((vw->view.axis + 1) % 3);
    cli_view_status(vw, "%s", names[vw->view.axis]);
}

static void highlight(cli_viewer *vw, int h)
{
    static const char *names[] = {"", "channel traffic", "blocked spans", "partners of the selection", "spawns"};
    vw->view.highlight = vw->view.highlight == (rnd_highlight)h ? RND_HL_NONE : (rnd_highlight)h;
    cli_view_status(vw, "highlight: %s", vw->view.highlight ? names[h] : "off");
}

static void system_gs(cli_viewer *vw, int arg)
{
    (void)arg;
    vw->view.show_system = !vw->view.show_system;
    cli_view_status(vw, "system goroutines %s", vw->view.show_system ? "shown" : "hidden");
}

static void filter(cli_viewer *vw, int arg)
{
    (void)arg;
    vw->filtering = true, vw->view.filter[0] = 0;
    cli_view_status(vw, "filter: type a function name, Enter ends");
}

static void shot(cli_viewer *vw, int arg) { (void)arg; vw->shot = true; }
static void quit(cli_viewer *vw, int arg) { (void)arg; vw->quit = true; }
static void help(cli_viewer *vw, int arg) { (void)arg; vw->view.help = !vw->view.help; }

/* ---- the table ---- */

typedef struct binding {
    const char *keys, *what; /* the key list's row */
    unsigned cp[3];          /* characters that trigger it (0 ends) */
    int key[3];              /* GLFW keys that trigger it (0 ends) */
    action_fn *fn;
    int arg;
} binding;

/* Rows without text (keys NULL) are more triggers of the row above: one
 * line of the key list. */
static const binding bindings[] = {
    {"space", "play / pause (from the start after the end)", {' '}, {0}, play, 0},
    {"+ / -", "faster / slower", {'+', '='}, {GLFW_KEY_KP_ADD}, speed, 1},
    {NULL, NULL, {'-', '_'}, {GLFW_KEY_KP_SUBTRACT}, speed, -1},
    {"\xE2\x86\x90 / \xE2\x86\x92", "previous / next message", {0}, {GLFW_KEY_LEFT}, step, -1},
    {NULL, NULL, {0}, {GLFW_KEY_RIGHT}, step, 1},
    {"Home", "to the start of the trace (or of the loop)", {0}, {GLFW_KEY_HOME}, home, 0},
    {"End", "the whole trace, to its end", {0}, {GLFW_KEY_END}, end, 0},
    {"r", "restart and play", {'r'}, {0}, restart, 0},
    {"[ / ]", "loop from / to the playback position", {'['}, {0}, loop_mark, -1},
    {NULL, NULL, {']'}, {0}, loop_mark, 1},
    {"c", "clear the loop", {'c'}, {0}, loop_mark, 0},
    {"l", "next layout (lanes, tree, graph)", {'l'}, {0}, next_layout, 0},
    {"0", "reset the view (fit the window)", {'0'}, {0}, reset_camera, 0},
    {"a", "next time axis (linear, log, gaps folded)", {'a'}, {0}, next_axis, 0},
    {"1 - 4", "highlight: channels, blocked, partners, spawns", {'1'}, {0}, highlight, RND_HL_CHAN},
    {NULL, NULL, {'2'}, {0}, highlight, RND_HL_BLOCKED},
    {NULL, NULL, {'3'}, {0}, highlight, RND_HL_PARTNERS},
    {NULL, NULL, {'4'}, {0}, highlight, RND_HL_SPAWNS},
    {"h", "system goroutines", {'h'}, {0}, system_gs, 0},
    {"/", "filter by function (Enter ends; partners stay, dimmed)", {'/'}, {0}, filter, 0},
    {"p", "screenshot PNG", {'p'}, {0}, shot, 0},
    {"q / Esc", "quit", {'q'}, {GLFW_KEY_ESCAPE}, quit, 0},
    {"?", "this list", {'?'}, {0}, help, 0},
};
enum { N_BINDINGS = sizeof bindings / sizeof *bindings };

/* ---- the mouse ---- */

typedef enum drag_mode { DRAG_PAN_TIME, DRAG_ORBIT, DRAG_PAN, DRAG_COUNT } drag_mode;

/* What a drag with button (1 left, 2 right) does in a layout. */
static drag_mode drag_of(int button, rnd_layout layout)
{
    if (layout == RND_LANES)
        return DRAG_PAN_TIME;
    return layout == RND_TREE && button == 1 ? DRAG_ORBIT : DRAG_PAN;
}

/* "lanes: pans time and lanes; tree: orbits; graph: pans" for a button,
 * from drag_of itself. */
static void drag_text(int button, char *buf, size_t n)
{
    static const char *layouts[] = {"lanes", "tree", "graph"};
    static const char *modes[] = {"pans time and lanes", "orbits", "pans"};
    size_t len = 0;
    buf[0] = 0;
    for (int l = 0; l < RND_LAYOUT_COUNT && len < n; l++) {
        int w = snprintf(buf + len, n - len, "%s%s: %s", l ? "; " : "", layouts[l], modes[drag_of(button, (rnd_layout)l)]);
        len += w > 0 ? (size_t)w : 0;
    }
}

static char drag_rows[2][120];
static const rnd_key_row mouse_rows[] = {
    {"drag", drag_rows[0]},
    {"right-drag", drag_rows[1]},
    {"wheel", "zooms at the pointer (lanes: time)"},
    {"click", "selects a goroutine (again: clears)"},
    {"hover", "details of a goroutine, state or message"},
};

/* Rows of the key list: one per binding that has text, then the mouse. */
static uint32_t key_rows(rnd_key_row *out, uint32_t max)
{
    drag_text(1, drag_rows[0], sizeof drag_rows[0]);
    drag_text(2, drag_rows[1], sizeof drag_rows[1]);
    uint32_t n = 0;
    for (int i = 0; i < N_BINDINGS && n < max; i++)
        if (bindings[i].keys)
            out[n++] = (rnd_key_row){bindings[i].keys, bindings[i].what};
    for (size_t i = 0; i < sizeof mouse_rows / sizeof *mouse_rows && n < max; i++)
        out[n++] = mouse_rows[i];
    return n;
}

size_t cli_view_keys_text(char *buf, size_t n)
{
    rnd_key_row rows[64];
    uint32_t k = key_rows(rows, 64);
    size_t len = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < k && len < n; i++) {
        int chars = 0; /* the keys column is 12 characters wide, UTF-8 counted as such */
        for (const char *c = rows[i].keys; *c; c++)
            chars += ((unsigned char)*c & 0xC0) != 0x80;
        int w = snprintf(buf + len, n - len, "  %s%*s %s\n", rows[i].keys, chars < 12 ? 12 - chars : 0, "",
                         rows[i].what);
        len += w > 0 ? (size_t)w : 0;
    }
    return len < n ? len : n - 1;
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
    for (int i = 0; i < N_BINDINGS; i++)
        for (int j = 0; j < 3 && bindings[i].cp[j]; j++)
            if (bindings[i].cp[j] == cp) {
                bindings[i].fn(vw, bindings[i].arg);
                return;
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
            vw->filtering = false,
            cli_view_status(vw, "%s", v->filter[0] ? "filter on ('/' then Enter clears)" : "filter off");
        return;
    }
    for (int i = 0; i < N_BINDINGS; i++)
        for (int j = 0; j < 3 && bindings[i].key[j]; j++)
            if (bindings[i].key[j] == key) {
                bindings[i].fn(vw, bindings[i].arg);
                return;
            }
}

/* Lanes: a notch zooms time around the pointer. Tree/graph: the camera,
 * the point under the pointer staying there. */
void cli_view_wheel(cli_viewer *vw, double dy)
{
    rnd_view *v = &vw->view;
    float k = dy > 0 ? 0.8f : 1.25f;
    if (v->layout != RND_LANES) {
        int ww, wh;
        rnd_surface_size(vw->surf, &ww, &wh);
        rnd_zoom_at(vw->r, v, ww, wh, (float)vw->mx, (float)vw->my, 1.0f / k);
        return;
    }
    rnd_hit hit;
    rnd_pick(vw->r, v, (float)vw->mx, (float)vw->my, &hit);
    int64_t c = hit.t != CS_T_NONE ? hit.t : (v->t0 + v->t1) / 2;
    int64_t a = c - (int64_t)((double)(c - v->t0) * k), b = c + (int64_t)((double)(v->t1 - c) * k);
    if (b - a >= 100) { /* no closer than 100 ns across the window */
        v->t0 = a, v->t1 = b, vw->settle_at = cli_clock() + CLI_VIEW_SETTLE_S;
        rnd_view_inside(vw->m, v);
    }
}

static void on_scroll(GLFWwindow *w, double dx, double dy)
{
    (void)dx;
    cli_view_wheel(of(w), dy);
}

void cli_view_drag(cli_viewer *vw, int button, double dx, double dy)
{
    rnd_view *v = &vw->view;
    int w, h;
    rnd_surface_size(vw->surf, &w, &h);
    switch (drag_of(button, v->layout)) {
    case DRAG_PAN_TIME: {
        int64_t span = v->t1 - v->t0, shift = (int64_t)(-dx / (w * 0.8) * (double)span);
        v->t0 += shift, v->t1 += shift;
        rnd_view_inside(vw->m, v);
        v->scroll_px = fmaxf(0.0f, v->scroll_px - (float)dy);
        vw->settle_at = cli_clock() + CLI_VIEW_SETTLE_S;
        break;
    }
    case DRAG_ORBIT:
        v->yaw -= (float)dx * 0.01f;
        v->pitch = fmaxf(-1.5f, fminf(1.5f, v->pitch + (float)dy * 0.01f));
        break;
    default:
        v->pan_x += (float)dx, v->pan_y += (float)dy;
    }
}

bool cli_view_quick(cli_viewer *vw, double now)
{
    bool moving = now < vw->settle_at;
    if (!moving || (vw->quick_since && now - vw->quick_since > CLI_VIEW_STALE_S)) {
        vw->quick_since = 0; /* this frame makes them afresh */
        return false;
    }
    if (!vw->quick_since)
        vw->quick_since = now;
    return true;
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
        cli_view_drag(vw, vw->drag, x - vw->mx, y - vw->my);
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
    vw->view.n_keys = key_rows(vw->keys, sizeof vw->keys / sizeof *vw->keys);
    vw->view.keys = vw->keys;
    glfwSetWindowUserPointer(w, vw);
    glfwSetCharCallback(w, on_char);
    glfwSetKeyCallback(w, on_key);
    glfwSetScrollCallback(w, on_scroll);
    glfwSetCursorPosCallback(w, on_cursor);
    glfwSetMouseButtonCallback(w, on_button);
}
