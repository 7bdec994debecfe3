/* core/file.c — reading an input: a regular file whole through a read-only
 * memory map, anything else (standard input, a pipe, a FIFO, a character
 * device) as a stream, into a heap window that its reader moves along and
 * grows only when it needs more bytes at once (see file.h). */
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* How long a FIFO may stay silent before on_wait is called. */
#define WAIT_NOTICE_MS 250
#define STREAM_FIRST_CHUNK ((size_t)1 << 20)

static bool map_fd(int fd, const struct stat *st, cs_file *out, cs_err *err)
{
    out->size = (size_t)st->st_size;
    out->dev = st->st_dev, out->ino = st->st_ino;
    if (!out->size)
        return true;
    void *p = mmap(NULL, out->size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED)
        return CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "cannot map: %s", strerror(errno));
    madvise(p, out->size, MADV_SEQUENTIAL);
    out->data = p;
    out->mapped = true;
    return true;
}

/* Room for more bytes after the window: its dropped start given back
 * first (cs_file_drop), else the buffer doubled, up to CS_FILE_STREAM_MAX. */
static bool room(cs_file *f, cs_err *err)
{
    size_t held = f->size - f->base;
    if (held < f->cap)
        return true;
    if (f->cap >= CS_FILE_STREAM_MAX)
        return CS_FAIL(err, CS_E_NOMEM, f->size, "more than %zu GB of a stream needed at once, the most held",
                       CS_FILE_STREAM_MAX >> 30);
    size_t want = f->cap ? f->cap * 2 : STREAM_FIRST_CHUNK;
    if (want > CS_FILE_STREAM_MAX)
        want = CS_FILE_STREAM_MAX;
    uint8_t *p = cs_realloc((void *)f->data, want);
    if (!p)
        return CS_FAIL(err, CS_E_NOMEM, f->size, "out of memory reading the input");
    f->data = p, f->cap = want, f->owned = true;
    return true;
}

static void end_stream(cs_file *f)
{
    f->ended = true;
    if (f->fd > 0)
        close(f->fd);
    f->fd = -1;
}

/* One read into the window after its bytes (r: what read() gave). */
static bool read_once(cs_file *f, ssize_t *r, cs_err *err)
{
    if (!room(f, err))
        return false;
    size_t held = f->size - f->base;
    while ((*r = read(f->fd, (uint8_t *)f->data + held, f->cap - held)) < 0 && errno == EINTR)
        ;
    if (*r < 0 && errno == EAGAIN)
        return true;
    if (*r < 0)
        return CS_FAIL(err, CS_E_IO, f->size, "read failed: %s", strerror(errno));
    if (*r == 0)
        return true;
    f->size += (size_t)*r;
    if (held + (size_t)*r > f->held_max)
        f->held_max = held + (size_t)*r;
    if (f->hooks.on_read && f->size - f->told >= ((size_t)1 << 20)) {
        f->told = f->size;
        if (!f->hooks.on_read(f->hooks.ud, f->size))
            return CS_FAIL(err, CS_E_CANCELLED, f->size, "reading cancelled");
    }
    return true;
}

bool cs_file_more(cs_file *f, cs_err *err)
{
    if (!f->stream || f->ended)
        return true;
    ssize_t r;
    if (!read_once(f, &r, err))
        return false;
    if (r == 0)
        end_stream(f);
    return true;
}

bool cs_file_poll(cs_file *f, int wait_ms, cs_err *err)
{
    if (!f->stream || f->ended)
        return true;
    struct pollfd pf = {.fd = f->fd, .events = POLLIN};
    if (!f->growing && poll(&pf, 1, wait_ms) <= 0)
        return true; /* nothing yet (or a signal) */
    ssize_t r;
    if (!read_once(f, &r, err))
        return false;
    if (r == 0 && f->growing)
        poll(NULL, 0, wait_ms); /* at the end of a file for now: wait for its writer */
    else if (r == 0)
        end_stream(f);
    return true;
}

bool cs_file_follow(const char *path, cs_file *out, cs_err *err)
{
    memset(out, 0, sizeof *out);
    out->path = path;
    bool is_stdin = !strcmp(path, "-");
    /* O_NONBLOCK: a FIFO opens without a writer; cs_file_poll waits in poll */
    int fd = is_stdin ? 0 : open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    int e = fd < 0 || fstat(fd, &st) != 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : 0;
    if (e) {
        if (fd > 0)
            close(fd);
        return CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "cannot open: %s", strerror(e));
    }
    out->stream = true, out->fd = fd;
    out->growing = S_ISREG(st.st_mode);
    return true;
}

void cs_file_drop(cs_file *f, uint64_t off)
{
    if (f->mapped && f->data && off <= f->size) {
        size_t from = f->dropped & ~(cs_page_bytes() - 1); /* the page it stopped in */
        if (off > f->dropped) /* file pages: read back from the file if touched */
            cs_release((void *)(f->data + from), (size_t)off - from), f->dropped = (size_t)off;
        return;
    }
    if (!f->stream || off <= f->base || off > f->size)
        return;
    memmove((uint8_t *)f->data, f->data + (off - f->base), f->size - off);
    f->base = off;
}

bool cs_file_whole(cs_file *f, cs_err *err)
{
    while (f->stream && !f->ended)
        if (!cs_file_more(f, err))
            return false;
    f->stream = false;
    return true;
}

/* A FIFO opened with O_NONBLOCK: waits (in poll, which a signal ends) until
 * a writer has written or closed, then makes reads blocking again. */
static bool await_writer(int fd, const char *path, const cs_file_hooks *h, cs_err *err)
{
    struct pollfd pf = {.fd = fd, .events = POLLIN};
    int timeout = WAIT_NOTICE_MS, r;
    while ((r = poll(&pf, 1, timeout)) <= 0) {
        if (r < 0 && errno != EINTR)
            return CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "cannot wait for a writer: %s", strerror(errno));
        if (r == 0 && h && h->on_wait)
            h->on_wait(h->ud, path);
        timeout = -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0)
        return CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "cannot read: %s", strerror(errno));
    return true;
}

bool cs_file_open(const char *path, const cs_file_hooks *hooks, cs_file *out, cs_err *err)
{
    memset(out, 0, sizeof *out);
    out->path = path;
    bool is_stdin = !strcmp(path, "-");
    /* O_NONBLOCK: opening a FIFO without a writer returns at once */
    int fd = is_stdin ? 0 : open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "cannot open: %s", strerror(errno));
    struct stat st;
    bool ok;
    if (fstat(fd, &st) != 0)
        ok = CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "cannot read: %s", strerror(errno));
    else if (S_ISDIR(st.st_mode))
        ok = CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "is a directory");
    else if (S_ISREG(st.st_mode))
        ok = map_fd(fd, &st, out, err);
    else if ((ok = is_stdin || !S_ISFIFO(st.st_mode) || await_writer(fd, path, hooks, err))) {
        out->stream = true, out->fd = fd;
        if (hooks)
            out->hooks = *hooks;
        return true; /* read as the caller asks: cs_file_more */
    }
    if (!is_stdin)
        close(fd);
    return ok;
}

bool cs_file_map(const char *path, cs_file *out, cs_err *err)
{
    memset(out, 0, sizeof *out);
    out->path = path;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "cannot open: %s", strerror(errno));
    struct stat st;
    bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? map_fd(fd, &st, out, err)
                                                         : CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "not a regular file");
    close(fd);
    return ok;
}

/* Dropping the pages of a mapping costs about 50 us a MB, and munmap does
 * it under a lock that allows no other; madvise(MADV_DONTNEED) can run on
 * two threads at once, so a big file's pages are dropped in two halves
 * first. */
#define UNMAP_SPLIT_MIN (32u << 20)

typedef struct half { void *p; size_t n; } half;

static void *drop(void *arg)
{
    half *h = arg;
    madvise(h->p, h->n, MADV_DONTNEED);
    return NULL;
}

void cs_file_release(const cs_file *f)
{
    if (f && f->data && f->mapped) /* never memory of the caller's: it would read back as zeros */
        cs_release((void *)f->data, f->size);
}

void cs_file_release_add(const cs_file *f, cs_releases *r, uint64_t from, uint64_t to)
{
    if (f && f->data && f->mapped && from < to && to <= f->size)
        cs_release_add(r, (void *)(f->data + from), (size_t)(to - from));
}

void cs_file_release_range(const cs_file *f, uint64_t from, uint64_t to)
{
    cs_releases r = {0};
    cs_file_release_add(f, &r, from, to);
    cs_release_flush(&r);
}

void cs_file_unmap(cs_file *f)
{
    if (f && f->stream && !f->ended)
        end_stream(f);
    if (f && f->owned)
        cs_free((void *)f->data), f->data = NULL;
    if (f && f->data && f->size >= UNMAP_SPLIT_MIN) {
        size_t n = f->size / 2 & ~(size_t)0xfff;
        half first = {(void *)f->data, n};
        pthread_t th;
        bool two = cs_thread_create(&th, drop, &first) == 0;
        madvise((char *)f->data + n, f->size - n, MADV_DONTNEED);
        if (two)
            pthread_join(th, NULL);
    }
    if (f && f->data)
        munmap((void *)f->data, f->size);
    if (f)
        memset(f, 0, sizeof *f);
}
