/* cli/view_follow.c — `view --follow` (and `view -`): a trace that is still
 * growing, from a pipe, a FIFO, standard input, or a file another program
 * is writing. A worker thread reads what arrives (cs_file_poll) and decodes
 * each Go 1.22+ generation once, when it is complete (dec_stream: only the
 * generation being completed is held); a legacy trace decodes once it is
 * complete. When new generations have come and a second has passed, it
 * takes a finished copy of the model so far with its channel traffic (a
 * snapshot: the decoder's model goes on growing); the newest waits in
 * `ready`; the frame loop (cli_view_follow_poll) builds a renderer for it
 * and swaps it in, keeping the camera, and extending the time window and
 * the playback head when they were at the end. A regular file is followed
 * until the viewer quits; a pipe or FIFO until its writer closes it. */
#include "view.h"

#include <GLFW/glfw3.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

/* How often the worker looks for new bytes, and the least time between
 * two snapshots (Go flushes a generation about once a second). */
#define POLL_MS 200
#define SNAPSHOT_EVERY_S 1.0
/* A file that has not grown for this long is taken to have its last
 * generation whole (Go 1.22-1.25 traces mark no generation's end). */
#define SETTLED_S 3.0

/* A finished copy of the model so far; on the heap, never moved, as a
 * renderer borrows &m. */
typedef struct snapshot {
    cs_model m;
    uint64_t bytes;          /* of the input read when it was taken */
    bool last;               /* of the whole input: it has ended */
} snapshot;

struct cli_follow {
    cli_trace_opts o;        /* the caller's: path, jobs, binary (a cut is the normal case: never strict) */
    cs_file f;               /* the input (worker only) */
    pthread_t th;
    bool started;
    _Atomic bool stop, ended;
    _Atomic uint64_t bytes;  /* read so far */
    pthread_mutex_t mu;      /* guards ready and err */
    snapshot *ready;         /* the newest snapshot, not yet shown, or NULL */
    cs_err err;              /* why the input ended badly */
    snapshot *cur;           /* the one the renderer shows (frame loop only) */
};

/* A decode in progress stops when the viewer quits. */
static bool go_on(void *ud, uint64_t done, uint64_t total)
{
    (void)done, (void)total;
    return !atomic_load(&((cli_follow *)ud)->stop);
}

static void snapshot_free(snapshot *s)
{
    if (s)
        cs_model_deinit(&s->m);
    cs_free(s);
}

/* Offers a finished copy of ds's model, with its channel traffic, as
 * `ready` (replacing one not shown yet). */
static bool offer(cli_follow *fl, const dec_stream *ds, bool last, cs_err *err)
{
    snapshot *s = cs_calloc(1, sizeof *s);
    if (!s)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory");
    s->last = last, s->bytes = fl->f.size;
    if (!dec_stream_model(ds, &s->m, err) || !trf_build_drawn(&s->m, err)) { /* a new model each time */
        snapshot_free(s);
        return false;
    }
    pthread_mutex_lock(&fl->mu);
    snapshot *old = fl->ready;
    fl->ready = s;
    pthread_mutex_unlock(&fl->mu);
    snapshot_free(old);
    glfwPostEmptyEvent(); /* wake the frame loop's event wait */
    return true;
}

/* Reads what comes and decodes each generation once, as it completes
 * (dec_stream); offers a snapshot when new generations have come and a
 * second has passed (or four times what the last snapshot took, so copying
 * a big model stays a small part of the work), and at the end. */
static void *work(void *arg)
{
    cli_follow *fl = arg;
    cs_err err = {0};
    dec_stream *ds = NULL;
    dec_desc d = {.path = fl->o.path, .jobs = fl->o.jobs, .binary = fl->o.binary,
                  .drawn_ranges = fl->o.drawn_only, .on_progress = go_on, .progress_ud = fl};
    double last = 0, cost = 0, grew = cli_clock();
    uint64_t had = 0;
    uint32_t pending = 0; /* generations decoded since the last snapshot */
    bool ok = dec_stream_open(&d, &fl->f, &ds, &err);
    while (ok && !atomic_load(&fl->stop)) {
        uint32_t added = 0;
        ok = cs_file_poll(&fl->f, POLL_MS, &err);
        if (fl->f.size != had)
            had = fl->f.size, grew = cli_clock();
        /* a file whose writer has paused for longer than Go takes between generations */
        bool settled = fl->f.growing && cli_clock() - grew >= SETTLED_S;
        ok = ok && dec_stream_feed(ds, settled, &added, &err);
        atomic_store(&fl->bytes, fl->f.size);
        pending += added;
        bool done = ok && dec_stream_done(ds);
        double t = cli_clock(), every = 4 * cost > SNAPSHOT_EVERY_S ? 4 * cost : SNAPSHOT_EVERY_S;
        if (ok && ((pending && t - last >= every) || done)) {
            ok = offer(fl, ds, done, &err);
            last = cli_clock(), cost = last - t, pending = 0;
        }
        if (done)
            break;
    }
    if (err.code != CS_OK && err.code != CS_E_CANCELLED) {
        pthread_mutex_lock(&fl->mu);
        fl->err = err;
        pthread_mutex_unlock(&fl->mu);
    }
    dec_stream_close(ds);
    atomic_store(&fl->ended, true);
    glfwPostEmptyEvent();
    return NULL;
}

bool cli_view_follow_start(const cli_trace_opts *o, cli_follow **out, cs_err *err)
{
    *out = NULL;
    cli_follow *fl = cs_calloc(1, sizeof *fl);
    if (!fl)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory");
    if (!cs_file_follow(o->path, &fl->f, err)) {
        cs_free(fl);
        return false;
    }
    fl->o = *o;
    pthread_mutex_init(&fl->mu, NULL);
    fl->started = cs_thread_create(&fl->th, work, fl) == 0;
    *out = fl;
    if (!fl->started) {
        cli_view_follow_stop(fl);
        *out = NULL;
        return CS_FAIL(err, CS_E_INTERNAL, CS_NO_OFFSET, "cannot start a thread");
    }
    return true;
}

/* The ready snapshot, now the caller's, or NULL. */
static snapshot *take(cli_follow *fl)
{
    pthread_mutex_lock(&fl->mu);
    snapshot *s = fl->ready;
    fl->ready = NULL;
    pthread_mutex_unlock(&fl->mu);
    return s;
}

static void status(cli_viewer *vw, cli_follow *fl)
{
    const cs_model *m = &fl->cur->m;
    char dur[CLI_NS_MAX];
    cli__fmt_ns(dur, m->t_last - m->t_first);
    cli_view_status(vw, "%s: %u generation%s, %u goroutine%s, %s (%llu bytes)%s",
                    fl->cur->last ? "ended" : "following", m->n_gens, m->n_gens == 1 ? "" : "s", m->n_g - 1,
                    m->n_g - 1 == 1 ? "" : "s", dur, (unsigned long long)fl->cur->bytes,
                    fl->cur->last ? "; input closed" : "");
    printf("%s\n", vw->status);
    fflush(stdout);
}

bool cli_view_follow_first(cli_viewer *vw, cli_follow *fl, int *rc)
{
    GLFWwindow *win = rnd_surface_window(vw->surf);
    double t0 = cli_clock();
    cs_err err = {0};
    snapshot *s;
    cli_view_quit_keys(vw);
    while (!(s = take(fl))) {
        if (vw->quit || glfwWindowShouldClose(win)) {
            *rc = 0;
            return false;
        }
        if (atomic_load(&fl->ended) && !(s = take(fl))) { /* the last decode comes before `ended` */
            pthread_mutex_lock(&fl->mu);
            err = fl->err;
            pthread_mutex_unlock(&fl->mu);
            if (err.code == CS_OK)
                CS_FAIL(&err, CS_E_TRUNCATED, CS_NO_OFFSET, "the input ended before a whole trace arrived");
            *rc = cli_report(&err, fl->o.path);
            return false;
        }
        if (s)
            break;
        int w, h;
        rnd_surface_begin(vw->surf);
        rnd_surface_size(vw->surf, &w, &h);
        rnd_loading l = {.theme = vw->view.theme, .name = cli_base_name(fl->o.path),
                         .stage = "waiting for the first generation", .done_bytes = atomic_load(&fl->bytes),
                         .t_s = cli_clock() - t0};
        bool ok = rnd_loading_draw(vw->r, &l, w, h, &err);
        rnd_surface_end(vw->surf);
        if (!ok) {
            *rc = cli_report(&err, "chanscope view");
            return false;
        }
        glfwWaitEventsTimeout(0.1);
    }
    fl->cur = s;
    if (!rnd_model_attach(vw->r, &fl->cur->m, &err)) {
        *rc = cli_report(&err, "chanscope view");
        return false;
    }
    return true;
}

const cs_model *cli_view_follow_model(const cli_follow *fl)
{
    return &fl->cur->m;
}

void cli_view_follow_shown(cli_viewer *vw, cli_follow *fl)
{
    status(vw, fl);
}

bool cli_view_follow_poll(cli_viewer *vw, cli_follow *fl, cs_err *err)
{
    snapshot *s = take(fl);
    if (!s)
        return true;
    rnd_renderer *r = rnd_create(&s->m, err);
    if (!r) {
        snapshot_free(s);
        return false;
    }
    rnd_view *v = &vw->view;
    const cs_model *old = &fl->cur->m, *m = &s->m;
    bool at_end = v->t1 >= old->t_last, now_at_end = v->now != CS_T_NONE && v->now >= old->t_last;
    if (at_end)
        v->t1 = m->t_last;
    if (now_at_end && !v->playing)
        v->now = m->t_last;
    if (v->t0 < m->t_first)
        v->t0 = m->t_first;
    if (v->selected >= m->n_g)
        v->selected = 0;
    if (v->hover >= m->n_g)
        v->hover = 0;
    rnd_destroy(vw->r);
    vw->r = r;
    snapshot_free(fl->cur);
    fl->cur = s;
    vw->m = &s->m;
    status(vw, fl);
    return true;
}

void cli_view_follow_stop(cli_follow *fl)
{
    if (!fl)
        return;
    atomic_store(&fl->stop, true);
    if (fl->started)
        pthread_join(fl->th, NULL); /* the worker sees stop within POLL_MS */
    cs_file_unmap(&fl->f);
    snapshot_free(fl->ready);
    snapshot_free(fl->cur);
    pthread_mutex_destroy(&fl->mu);
    cs_free(fl);
}
