/* cli/view_load.c — opening a trace in the viewer without freezing the
 * window: decoding (cli_load) and the renderer's placement
 * (rnd_model_attach) run on a worker thread, started before the window is
 * made (which takes a few tenths of a second of its own), while this thread
 * makes the window and then keeps handling events and drawing the loading
 * screen (file name, progress bar, MB read). q, Esc or closing the window cancels: the decoder stops at its
 * next progress report and everything is freed as after an error. */
#include "view.h"

#include <GLFW/glfw3.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <time.h>

struct cli_loader {
    cli_trace_opts o;        /* the caller's, with on_progress pointing here */
    cs_file *f;
    cs_model *m;
    _Atomic(rnd_renderer *) r; /* set once the window has one */
    cs_err err;              /* written by the worker, read after the join */
    bool ok, threaded;
    pthread_t th;
    _Atomic uint64_t done, total;
    _Atomic bool placing;    /* decoded; building the renderer's placement */
    _Atomic bool cancel, finished;
};
typedef cli_loader loader;

static bool on_progress(void *ud, uint64_t done, uint64_t total)
{
    loader *ld = ud;
    atomic_store(&ld->total, total);
    atomic_store(&ld->done, done);
    return !atomic_load(&ld->cancel);
}

static void *work(void *ud)
{
    loader *ld = ud;
    ld->ok = cli_load(&ld->o, ld->f, ld->m, NULL, &ld->err);
    while (ld->ok && !atomic_load(&ld->r) && !atomic_load(&ld->cancel)) /* the window is still being made */
        nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    if (ld->ok) {
        atomic_store(&ld->done, atomic_load(&ld->total));
        atomic_store(&ld->placing, true);
        ld->ok = atomic_load(&ld->cancel)
                     ? CS_FAIL(&ld->err, CS_E_CANCELLED, CS_NO_OFFSET, "loading cancelled")
                     : rnd_model_attach(atomic_load(&ld->r), ld->m, &ld->err);
    }
    atomic_store(&ld->finished, true);
    glfwPostEmptyEvent(); /* wake the event wait at once */
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

/* Draws the loading screen until the worker is done; asks it to stop once
 * the user quits (the window is hidden at once, the join waits for the
 * decoder's next progress report). */
static bool wait_drawing(cli_viewer *vw, loader *ld, cs_err *err)
{
    GLFWwindow *win = rnd_surface_window(vw->surf);
    double t0 = cli_clock();
    bool ok = true;
    while (!atomic_load(&ld->finished)) {
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

cli_loader *cli_view_load_start(const cli_trace_opts *o, cs_file *f, cs_model *m, cs_err *err)
{
    loader *ld = cs_calloc(1, sizeof *ld);
    if (!ld) {
        CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory");
        return NULL;
    }
    *ld = (loader){.o = *o, .f = f, .m = m};
    ld->o.on_progress = on_progress, ld->o.progress_ud = ld;
    struct stat st;
    atomic_store(&ld->total, stat(o->path, &st) == 0 && st.st_size > 0 ? (uint64_t)st.st_size : 0);
    ld->threaded = cs_thread_create(&ld->th, work, ld) == 0;
    return ld;
}

void cli_view_load_cancel(cli_loader *ld)
{
    if (!ld)
        return;
    atomic_store(&ld->cancel, true);
    if (ld->threaded)
        pthread_join(ld->th, NULL);
    cs_free(ld);
}

bool cli_view_load(cli_viewer *vw, cli_loader *ld, int *rc)
{
    cs_err err = {0};
    atomic_store(&ld->r, vw->r);
    cli_view_quit_keys(vw);
    if (!ld->threaded) {
        work(ld); /* no thread: load here, with a still window */
    } else {
        bool drawn = wait_drawing(vw, ld, &err);
        pthread_join(ld->th, NULL);
        if (!drawn) {
            *rc = cli_report(&err, "chanscope view");
            cs_free(ld);
            return false;
        }
    }
    bool ok = ld->ok;
    if (!ok)
        *rc = ld->err.code == CS_E_CANCELLED ? 0 : cli_report(&ld->err, ld->o.path);
    cs_free(ld);
    return ok;
}
