/* core/out.c — writing outputs (see file.h): regular files replaced
 * atomically through a temporary file that a signal handler removes if the
 * program is interrupted (on the main thread: every other thread starts
 * with the signals blocked, cs_thread_create); symlinks followed; devices,
 * FIFOs and standard output written directly; the input trace never
 * overwritten. */
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary files that exist right now. A slot's name is complete
 * before `used` is set, so the handler reads only finished names. An export
 * has at most a PNG frame and the GIF open at once. */
#define TMP_SLOTS 8
static struct {
    volatile sig_atomic_t used;
    char name[4096];
} tmps[TMP_SLOTS];

static const int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

/* unlink() and raise() are async-signal-safe. SA_RESETHAND has put the
 * default action back, and the raised signal is delivered when the handler
 * returns, ending the program as the signal would have. */
static void on_signal(int sig)
{
    int saved = errno;
    for (int i = 0; i < TMP_SLOTS; i++)
        if (tmps[i].used)
            unlink(tmps[i].name);
    raise(sig);
    errno = saved;
}

/* Installed once, for the signals whose action is still the default (a
 * signal the caller ignores stays ignored). */
static void install_handler(void)
{
    static bool done;
    if (done)
        return;
    done = true;
    for (size_t i = 0; i < sizeof cleanup_signals / sizeof *cleanup_signals; i++) {
        struct sigaction old, sa = {.sa_handler = on_signal, .sa_flags = SA_RESETHAND};
        sigemptyset(&sa.sa_mask);
        if (sigaction(cleanup_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
            sigaction(cleanup_signals[i], &sa, NULL);
    }
}

/* Blocks the cleanup signals (returns the previous mask) while a slot and
 * the file it names change together. */
static sigset_t block_signals(void)
{
    sigset_t set, old;
    sigemptyset(&set);
    for (size_t i = 0; i < sizeof cleanup_signals / sizeof *cleanup_signals; i++)
        sigaddset(&set, cleanup_signals[i]);
    pthread_sigmask(SIG_BLOCK, &set, &old);
    return old;
}

int cs_thread_create(pthread_t *th, void *(*fn)(void *), void *arg)
{
    sigset_t old = block_signals(); /* the new thread starts with this thread's mask */
    int r = pthread_create(th, NULL, fn, arg);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return r;
}

static void release_slot(cs_out *o)
{
    if (o->slot >= 0)
        tmps[o->slot].used = 0;
    o->slot = -1;
}

static bool in_set;
static dev_t in_dev;
static ino_t in_ino;

void cs_out_protect(const cs_file *in)
{
    in_set = in->dev || in->ino;
    in_dev = in->dev, in_ino = in->ino;
}

/* path with its symlinks followed (the last component's, as often as it is
 * one) into out; a link to a name that does not exist yet gives that name. */
static bool follow_links(const char *path, char *out, size_t n, cs_err *err)
{
    if (strlen(path) >= n)
        return CS_FAIL(err, CS_E_USAGE, CS_NO_OFFSET, "output path too long");
    strcpy(out, path);
    for (int hops = 0;; hops++) {
        struct stat st;
        if (lstat(out, &st) != 0 || !S_ISLNK(st.st_mode))
            return true;
        if (hops == 40)
            return CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "cannot write %s: too many symbolic links", path);
        char link[PATH_MAX];
        ssize_t len = readlink(out, link, sizeof link - 1);
        if (len < 0)
            return CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "cannot read link %s: %s", out, strerror(errno));
        link[len] = 0;
        const char *slash = strrchr(out, '/');
        size_t dir = link[0] != '/' && slash ? (size_t)(slash - out) + 1 : 0; /* keeps the '/' */
        if (dir + (size_t)len >= n)
            return CS_FAIL(err, CS_E_USAGE, CS_NO_OFFSET, "output path too long");
        memcpy(out + dir, link, (size_t)len + 1);
    }
}

static bool open_direct(cs_out *o, cs_err *err)
{
    int fd = open(o->path, O_WRONLY | O_CLOEXEC);
    o->fp = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!o->fp) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "cannot open %s: %s", o->path, strerror(e));
    }
    o->direct = true;
    return true;
}

static bool open_temp(cs_out *o, mode_t mode, cs_err *err)
{
    snprintf(o->tmp, sizeof o->tmp, "%.4080s.tmp.XXXXXX", o->path); /* follow_links left room */
    install_handler();
    sigset_t old = block_signals();
    int slot = 0;
    while (slot < TMP_SLOTS && tmps[slot].used)
        slot++;
    int fd = slot < TMP_SLOTS ? mkstemp(o->tmp) : -1;
    int e = slot < TMP_SLOTS ? errno : EMFILE;
    if (fd >= 0) {
        strcpy(tmps[slot].name, o->tmp);
        tmps[slot].used = 1;
        o->slot = slot;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (fd < 0)
        return CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "cannot create %s: %s", o->tmp, strerror(e));
    o->fp = fchmod(fd, mode) == 0 ? fdopen(fd, "wb") : NULL;
    if (!o->fp) {
        e = errno;
        close(fd);
        cs_out_abort(o);
        return CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "cannot open %s: %s", o->tmp, strerror(e));
    }
    return true;
}

bool cs_out_open(cs_out *o, const char *path, cs_err *err)
{
    memset(o, 0, sizeof *o);
    o->slot = -1;
    if (strcmp(path, "-") == 0) {
        o->fp = stdout;
        o->direct = true;
        return true;
    }
    if (strlen(path) >= sizeof o->path - 16)
        return CS_FAIL(err, CS_E_USAGE, CS_NO_OFFSET, "output path too long");
    struct stat st;
    if (stat(path, &st) == 0) { /* what the path names, its links followed */
        if (in_set && st.st_dev == in_dev && st.st_ino == in_ino)
            return CS_FAIL(err, CS_E_USAGE, CS_NO_OFFSET, "%s is the input trace: not overwriting it", path);
        if (S_ISDIR(st.st_mode))
            return CS_FAIL(err, CS_E_USAGE, CS_NO_OFFSET, "%s is a directory", path);
        if (!S_ISREG(st.st_mode)) { /* a device, a FIFO, a socket; /dev/stdout on a pipe */
            strcpy(o->path, path);
            return open_direct(o, err);
        }
    } else if (errno != ENOENT) {
        return CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "cannot write %s: %s", path, strerror(errno));
    }
    /* a regular file, or none yet: the temporary file goes beside the
       file the links lead to, and replaces that one */
    if (!follow_links(path, o->path, sizeof o->path - 16, err))
        return false;
    return open_temp(o, stat(o->path, &st) == 0 ? st.st_mode & 07777 : 0644, err);
}

size_t cs_out_write(void *ctx, const void *data, size_t n)
{
    cs_out *o = ctx;
    size_t w = o->fp ? fwrite(data, 1, n, o->fp) : 0;
    if (w != n)
        o->failed = true;
    return w;
}

bool cs_out_commit(cs_out *o, cs_err *err)
{
    const char *name = o->fp == stdout ? "standard output" : o->path;
    bool ok = !o->failed && fflush(o->fp) == 0;
    int e = errno;
    if (o->fp == stdout) {
        o->fp = NULL;
        return ok ? true : CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "cannot write %s: %s", name, strerror(e));
    }
    ok = ok && (o->direct || fsync(fileno(o->fp)) == 0);
    e = ok ? e : errno;
    if (fclose(o->fp) != 0 && ok)
        ok = false, e = errno;
    o->fp = NULL;
    if (ok && !o->direct && rename(o->tmp, o->path) != 0)
        ok = false, e = errno;
    if (!ok) {
        cs_out_abort(o);
        return CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "cannot write %s: %s", name, e ? strerror(e) : "write failed");
    }
    sigset_t old = block_signals();
    release_slot(o);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return true;
}

void cs_out_abort(cs_out *o)
{
    if (o->fp && o->fp != stdout)
        fclose(o->fp);
    o->fp = NULL;
    if (o->slot >= 0) {
        sigset_t old = block_signals();
        unlink(o->tmp);
        release_slot(o);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    }
}

bool cs_write_file(const char *path, const void *p, size_t n, cs_err *err)
{
    cs_out o;
    if (!cs_out_open(&o, path, err))
        return false;
    cs_out_write(&o, p, n);
    return cs_out_commit(&o, err);
}
