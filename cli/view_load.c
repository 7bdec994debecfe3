/* cli/view_load.c — opening a trace in the viewer without freezing the
 * window: decoding (cli_load) and the renderer's placement
 * (rnd_model_attach) run on a worker thread, started before the window is
 * made (which takes a few tenths of a second of its own), while this thread
 * makes the window and then keeps handling events and drawing the loading
 * screen (file name, progress bar, MB read). q, Esc or closing the window
 * cancels: the decoder stops at its next progress report and everything is
 * freed as after an error.
 *
 * The first picture does not wait for the channel traffic (a fifth of the
 * load of a big trace): it shows the model as decoded, without arrows
 * (cs_model_before_traffic), while the worker infers the traffic and makes
 * what the renderer draws of it (rnd_traffic_create), which the frame loop
 * then hands to the renderer (cli_view_load_poll), the view kept. The
 * graph, which is the traffic, waits for it. */
#include "view.h"

#include <GLFW/glfw3.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

struct cli_loader {
    cli_trace_opts o;        /* the caller's, with on_progress pointing here and the traffic left to work() */
    cs_file *f;
    cs_model *m;
    bool early;              /* a first picture before the traffic (a big trace, on a thread) */
    cs_model before;         /* then: m before its traffic, what vw->r shows first (has_before) */
    bool has_before;
    _Atomic(rnd_renderer *) r; /* set once the window has one */
    rnd_traffic *traffic;    /* made by the worker of m's traffic, until the frame loop hands it to vw->r */
    cs_err err;              /* written by the worker, read once `shown` (ok) or `complete` (traffic) */
    bool ok, threaded;
    pthread_t th;
    _Atomic uint64_t done, total;
    _Atomic bool placing;    /* decoded; building the renderer's placement */
    _Atomic bool cancel;
    _Atomic bool shown;      /* vw->r can draw the first picture, or the load failed (!ok) */
    _Atomic bool complete;   /* the worker is done: `traffic` is ready, or it failed (NULL) */
};
typedef cli_loader loader;

static const char finding[] = "finding the channel traffic\xE2\x80\xA6"; /* the status until it is shown */

/* Below this size the traffic takes a tenth of a second or less: the
 * first picture waits for it rather than be drawn twice. */
#define EARLY_MIN (32u << 20)

static bool on_progress(void *ud, uint64_t done, uint64_t total)
{
    loader *ld = ud;
    atomic_store(&ld->total, total);
    atomic_store(&ld->done, done);
    return !atomic_load(&ld->cancel);
}

static void wake(_Atomic bool *flag)
{
    atomic_store(flag, true);
    glfwPostEmptyEvent(); /* wake the event wait at once */
}

/* The first picture: m, or m before its traffic, attached to the window's
 * renderer once there is one. */
static bool first(loader *ld)
{
    while (!atomic_load(&ld->r) && !atomic_load(&ld->cancel)) /* the window is still being made */
        nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    atomic_store(&ld->done, atomic_load(&ld->total));
    atomic_store(&ld->placing, true);
    if (atomic_load(&ld->cancel))
        return CS_FAIL(&ld->err, CS_E_CANCELLED, CS_NO_OFFSET, "loading cancelled");
    if (!ld->early)
        return cli_traffic(&ld->o, ld->m, &ld->err) && rnd_model_attach(atomic_load(&ld->r), ld->m, &ld->err);
    ld->has_before = cs_model_before_traffic(ld->m, &ld->before, &ld->err);
    return ld->has_before && rnd_model_attach(atomic_load(&ld->r), &ld->before, &ld->err);
}

static void *work(void *ud)
{
    loader *ld = ud;
    ld->ok = cli_load(&ld->o, ld->f, ld->m, NULL, &ld->err) && first(ld);
    wake(&ld->shown);
    if (ld->ok && ld->early && !atomic_load(&ld->cancel)) /* what it lacks; traffic/ only reads what it borrows */
        if (cli_traffic(&ld->o, ld->m, &ld->err) && !atomic_load(&ld->cancel))
            ld->traffic = rnd_traffic_create(ld->m, &ld->err);
    wake(&ld->complete);
    return NULL;
}

static void on_char(GLFWwindow *w, unsigned int cp)
{
    if (cp == 'q')
        ((cli_viewer *)glfwGetWindowUserPointer(w))->quit = true;
}

static void on_key(GLFWwindow *w, int key, int scancode, int action, int mods)
{
    (void)scancode, (void)mods;
    if (key == GLFW_KEY_ESCAPE && action == GLFW_PRESS)
        ((cli_viewer *)glfwGetWindowUserPointer(w))->quit = true;
}

void cli_view_quit_keys(cli_viewer *vw)
{
    GLFWwindow *win = rnd_surface_window(vw->surf);
    glfwSetWindowUserPointer(win, vw);
    glfwSetCharCallback(win, on_char);
    glfwSetKeyCallback(win, on_key);
}

/* Draws the loading screen until the first picture can be drawn; asks the
 * worker to stop once the user quits (the window is hidden at once, the
 * join waits for the decoder's next progress report). */
static bool wait_drawing(cli_viewer *vw, loader *ld, cs_err *err)
{
    GLFWwindow *win = rnd_surface_window(vw->surf);
    double t0 = cli_clock();
    bool ok = true;
    while (!atomic_load(&ld->shown)) {
        if (!atomic_load(&ld->cancel) && (vw->quit || glfwWindowShouldClose(win))) {
            atomic_store(&ld->cancel, true);
            glfwHideWindow(win);
        }
        if (ok && !atomic_load(&ld->cancel)) {
            int w, h;
            rnd_surface_begin(vw->surf);
            rnd_surface_size(vw->surf, &w, &h);
            bool placing = atomic_load(&ld->placing);
            rnd_loading l = {.theme = vw->view.theme, .name = cli_base_name(ld->o.path),
                             .stage = placing ? "building the picture\xE2\x80\xA6" : "decoding",
                             .done_bytes = atomic_load(&ld->done), .total_bytes = atomic_load(&ld->total),
                             .t_s = cli_clock() - t0};
            if (!(ok = rnd_loading_draw(vw->r, &l, w, h, err)))
                atomic_store(&ld->cancel, true); /* a GL failure: stop the worker, report it */
            rnd_surface_end(vw->surf);
        }
        glfwWaitEventsTimeout(0.05); /* about 20 frames a second: the decoder keeps the CPU */
    }
    return ok;
}

cli_loader *cli_view_load_start(const cli_trace_opts *o, cs_file *f, cs_model *m, bool early, cs_err *err)
{
    loader *ld = cs_calloc(1, sizeof *ld);
    if (!ld) {
        CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory");
        return NULL;
    }
    *ld = (loader){.o = *o, .f = f, .m = m};
    ld->o.on_progress = on_progress, ld->o.progress_ud = ld, ld->o.traffic_later = true;
    struct stat st;
    uint64_t size = stat(o->path, &st) == 0 && st.st_size > 0 ? (uint64_t)st.st_size : 0;
    atomic_store(&ld->total, size);
    ld->early = early && size >= EARLY_MIN;
    ld->threaded = cs_thread_create(&ld->th, work, ld) == 0;
    if (!ld->threaded)
        ld->early = false; /* loaded in one go (cli_view_load) */
    return ld;
}

void cli_view_load_stop(cli_loader *ld)
{
    if (!ld)
        return;
    atomic_store(&ld->cancel, true);
    if (ld->threaded)
        pthread_join(ld->th, NULL); /* the traffic, once begun, is not cut short */
    rnd_traffic_destroy(ld->traffic);
    if (ld->has_before)
        cs_model_before_traffic_free(&ld->before);
    cs_free(ld);
}

bool cli_view_load(cli_viewer *vw, cli_loader *ld, int *rc)
{
    cs_err err = {0};
    atomic_store(&ld->r, vw->r);
    vw->loader = ld; /* freed by the caller, after vw->r, which may show its model */
    cli_view_quit_keys(vw);
    if (!ld->threaded) {
        work(ld); /* no thread: load here, with a still window */
    } else if (!wait_drawing(vw, ld, &err)) {
        *rc = cli_report(&err, "chanscope view");
        return false;
    }
    if (!ld->ok) {
        *rc = ld->err.code == CS_E_CANCELLED ? 0 : cli_report(&ld->err, ld->o.path);
        return false;
    }
    vw->m = ld->has_before ? &ld->before : ld->m;
    return true;
}

void cli_view_load_shown(cli_viewer *vw)
{
    vw->view.traffic_pending = cli_view_load_pending(vw->loader);
    if (vw->view.traffic_pending)
        cli_view_status(vw, "%s", finding);
}

bool cli_view_load_pending(const cli_loader *ld)
{
    return ld && ld->early && !atomic_load(&ld->complete);
}

bool cli_view_load_poll(cli_viewer *vw, cs_err *err)
{
    loader *ld = vw->loader;
    if (!ld)
        return true;
    if (cli_view_load_pending(ld)) {
        if (!vw->view.status) /* it says so while it lasts */
            cli_view_status(vw, "%s", finding);
        return true;
    }
    if (ld->early && !ld->traffic) { /* it failed; the caller frees the load */
        *err = ld->err;
        return false;
    }
    if (ld->traffic) { /* the view is kept: the model's goroutines and times are the same */
        rnd_traffic_take(vw->r, ld->m, ld->traffic);
        ld->traffic = NULL;
        vw->m = ld->m;
        vw->view.traffic_pending = false;
        if (vw->view.status == vw->status && !strcmp(vw->status, finding))
            vw->view.status = NULL, vw->status[0] = 0;
    }
    vw->loader = NULL; /* and the model before the traffic, which nothing shows now */
    cli_view_load_stop(ld);
    return true;
}
