/* core/file.c — reading an input whole: a regular file through a read-only
 * memory map, anything else (standard input, a pipe, a FIFO, a character
 * device) into a growing heap buffer (see file.h). */
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

/* Reads fd to its end into out->data, doubling the buffer up to
 * CS_FILE_STREAM_MAX. */
static bool read_stream(int fd, const cs_file_hooks *h, cs_file *out, cs_err *err)
{
    size_t told = 0;
    uint8_t *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n == cap) {
            size_t want = cap ? cap * 2 : STREAM_FIRST_CHUNK;
            if (cap >= CS_FILE_STREAM_MAX) {
                cs_free(buf);
                return CS_FAIL(err, CS_E_NOMEM, n, "input larger than %zu GB, the most read from a stream",
                               CS_FILE_STREAM_MAX >> 30);
            }
            if (want > CS_FILE_STREAM_MAX)
                want = CS_FILE_STREAM_MAX;
            uint8_t *p = cs_realloc(buf, want);
            if (!p) {
                cs_free(buf);
                return CS_FAIL(err, CS_E_NOMEM, n, "out of memory reading the input");
            }
            buf = p, cap = want;
        }
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int e = errno;
            cs_free(buf);
            return CS_FAIL(err, CS_E_IO, n, "read failed: %s", strerror(e));
        }
        if (r == 0)
            break;
        n += (size_t)r;
        if (h && h->on_read && n - told >= ((size_t)1 << 20)) {
            told = n;
            if (!h->on_read(h->ud, n)) {
                cs_free(buf);
                return CS_FAIL(err, CS_E_CANCELLED, n, "reading cancelled");
            }
        }
    }
    if (!n)
        cs_free(buf), buf = NULL;
    out->data = buf, out->size = n, out->owned = buf != NULL;
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
    else
        ok = (is_stdin || !S_ISFIFO(st.st_mode) || await_writer(fd, path, hooks, err)) &&
             read_stream(fd, hooks, out, err);
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
        madvise((void *)f->data, f->size, MADV_DONTNEED);
}

void cs_file_unmap(cs_file *f)
{
    if (f && f->owned)
        cs_free((void *)f->data), f->data = NULL;
    if (f && f->data && f->size >= UNMAP_SPLIT_MIN) {
        size_t n = f->size / 2 & ~(size_t)0xfff;
        half first = {(void *)f->data, n};
        pthread_t th;
        bool two = pthread_create(&th, NULL, drop, &first) == 0;
        madvise((char *)f->data + n, f->size - n, MADV_DONTNEED);
        if (two)
            pthread_join(th, NULL);
    }
    if (f && f->data)
        munmap((void *)f->data, f->size);
    if (f)
        memset(f, 0, sizeof *f);
}
