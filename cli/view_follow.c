/* cli/view_follow.c — `view --follow` (and `view -`): a trace that is still
 * growing, from a pipe, a FIFO, standard input, or a file another program
 * is writing. A worker thread appends what arrives to a buffer and, when
 * new bytes have come and a second has passed (or the input has ended),
 * decodes a copy of everything so far: a Go 1.22+ trace cut inside a
 * generation shows its complete generations (decode/ drops the incomplete
 * last one), so each copy adds the generations that arrived; a legacy trace
 * decodes once it is complete. The newest model waits in `ready`; the frame
 * loop (cli_view_follow_poll) builds a renderer for it and swaps it in,
 * keeping the camera, and extending the time window and the playback head
 * when they were at the end. A regular file is followed until the viewer
 * quits; a pipe or FIFO until its writer closes it. */
#include "view.h"

#include <GLFW/glfw3.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* How often the worker looks for new bytes, and the least time between
 * two decodes (Go flushes a generation about once a second). */
#define POLL_MS 200
#define DECODE_EVERY_S 1.0

/* A decoded model with its own copy of the bytes (the model may point into
 * them); on the heap, never moved, as a renderer borrows &m. */
typedef struct snapshot {
    cs_file f;
    cs_model m;
    bool last;               /* of the whole input: it has ended */
} snapshot;

struct cli_follow {
    cli_trace_opts o;        /* quiet, not strict: a cut is the normal case */
    int fd;
    bool regular;            /* a file: no end, read again after a pause */
    pthread_t th;
    bool started;
    _Atomic bool stop, ended;
    _Atomic uint64_t bytes;  /* read so far */
    pthread_mutex_t mu;      /* guards ready and err */
    snapshot *ready;         /* the newest decoded model, not yet shown, or NULL */
    cs_err err;              /* why the input ended badly, or the last decode's error */
    snapshot *cur;           /* the one the renderer shows (frame loop only) */
    uint64_t offered_events; /* events of the last snapshot offered (worker only) */
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
        cli_unload(&s->f, &s->m, NULL);
    cs_free(s);
}

/* Decodes buf[0..n) into a new snapshot and offers it as `ready`. */
static void decode(cli_follow *fl, const uint8_t *buf, size_t n, bool last)
{
    snapshot *s = cs_calloc(1, sizeof *s);
    cs_err err = {0};
    uint8_t *copy = s ? cs_alloc(n) : NULL;
    if (s)
        cs_model_init(&s->m), s->last = last;
    if (copy) {
        memcpy(copy, buf, n);
        s->f = (cs_file){.data = copy, .size = n, .path = fl->o.path, .owned = true};
    }
    bool ok = copy ? cli_decode(&fl->o, &s->f, &s->m, NULL, &err)
                   : CS_FAIL(&err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for a copy of %zu bytes", n);
    /* nothing decoded yet, or nothing more than the last snapshot offered
     * (no new generation), or the viewer quit: nothing to show */
    if ((ok && !last && s->m.n_events == fl->offered_events) || err.code == CS_E_CANCELLED) {
        snapshot_free(s);
        return;
    }
    if (ok)
        fl->offered_events = s->m.n_events;
    snapshot *old = s;
    pthread_mutex_lock(&fl->mu);
    if (ok) {
        old = fl->ready;
        fl->ready = s;
        memset(&fl->err, 0, sizeof fl->err);
    } else {
        fl->err = err;
    }
    pthread_mutex_unlock(&fl->mu);
    snapshot_free(old);
    glfwPostEmptyEvent(); /* wake the frame loop's event wait */
}

typedef enum { GOT, IDLE, END } got;

/* Appends what fd has now: GOT bytes, IDLE (none right now; a FIFO's first
 * writer may still come, a file's writer may write more), or END (the
 * writer closed the pipe, or an error, kept in err). */
static got read_some(cli_follow *fl, uint8_t **buf, size_t *cap, size_t *n, cs_err *err)
{
    struct pollfd pf = {.fd = fl->fd, .events = POLLIN};
    if (!fl->regular && poll(&pf, 1, POLL_MS) <= 0)
        return IDLE;
    if (*n == *cap) {
        size_t want = *cap ? *cap * 2 : (size_t)1 << 20;
        uint8_t *p = want <= CS_FILE_STREAM_MAX ? cs_realloc(*buf, want) : NULL;
        if (!p)
            return CS_FAIL(err, CS_E_NOMEM, *n, "input larger than memory allows"), END;
        *buf = p, *cap = want;
    }
    ssize_t r = read(fl->fd, *buf + *n, *cap - *n);
    if (r < 0 && (errno == EINTR || errno == EAGAIN))
        return IDLE;
    if (r < 0)
        return CS_FAIL(err, CS_E_IO, *n, "read failed: %s", strerror(errno)), END;
    if (r == 0 && fl->regular) {
        poll(NULL, 0, POLL_MS);
        return IDLE;
    }
    *n += (size_t)r;
    atomic_store(&fl->bytes, *n);
    return r > 0 ? GOT : END;
}

/* Decodes when new bytes have come, a second has passed and either no more
 * are waiting or they have kept coming for three seconds; and at the end. */
static void *work(void *arg)
{
    cli_follow *fl = arg;
    uint8_t *buf = NULL;
    size_t cap = 0, n = 0, decoded = 0;
    double last = 0;
    cs_err err = {0};
    got g = GOT;
    while (g != END && !atomic_load(&fl->stop)) {
        g = read_some(fl, &buf, &cap, &n, &err);
        double since = cli_clock() - last;
        bool due = since >= DECODE_EVERY_S && (g == IDLE || since >= 3 * DECODE_EVERY_S);
        if ((n > decoded && due) || (g == END && n > 0)) { /* the end once more, marked last */
            decode(fl, buf, n, g == END);
            decoded = n, last = cli_clock();
        }
    }
    if (err.code != CS_OK) {
        pthread_mutex_lock(&fl->mu);
        fl->err = err;
        pthread_mutex_unlock(&fl->mu);
    }
    cs_free(buf);
    atomic_store(&fl->ended, true);
    glfwPostEmptyEvent();
    return NULL;
}

bool cli_view_follow_start(const cli_trace_opts *o, cli_follow **out, cs_err *err)
{
    *out = NULL;
    bool is_stdin = !strcmp(o->path, "-");
    /* O_NONBLOCK: a FIFO opens without a writer; the worker polls */
    int fd = is_stdin ? 0 : open(o->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        int e = errno;
        if (fd > 0)
            close(fd);
        return CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "cannot open: %s", strerror(e));
    }
    cli_follow *fl = cs_calloc(1, sizeof *fl);
    if (!fl) {
        if (!is_stdin)
            close(fd);
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory");
    }
    fl->o = *o;
    fl->o.quiet = true, fl->o.strict = false;
    fl->o.on_progress = go_on, fl->o.progress_ud = fl;
    fl->fd = fd;
    fl->regular = S_ISREG(st.st_mode);
    pthread_mutex_init(&fl->mu, NULL);
    fl->started = pthread_create(&fl->th, NULL, work, fl) == 0;
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
    char dur[32];
    cli__fmt_ns(dur, sizeof dur, m->t_last - m->t_first);
    cli_view_status(vw, "%s: %u generation%s, %u goroutine%s, %s (%zu bytes)%s", fl->cur->last ? "ended" : "following",
                    m->n_gens, m->n_gens == 1 ? "" : "s", m->n_g - 1, m->n_g - 1 == 1 ? "" : "s", dur, fl->cur->f.size,
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
    if (fl->fd > 0)
        close(fl->fd);
    snapshot_free(fl->ready);
    snapshot_free(fl->cur);
    pthread_mutex_destroy(&fl->mu);
    cs_free(fl);
}
