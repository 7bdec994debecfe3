/* core/file.c — memory-mapped input and atomic output (see file.h). */
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

bool cs_file_map(const char *path, cs_file *out, cs_err *err)
{
    memset(out, 0, sizeof *out);
    out->path = path;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "not a regular file");
    }
    out->size = (size_t)st.st_size;
    if (out->size) {
        void *p = mmap(NULL, out->size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            close(fd);
            return CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "cannot map: %s", strerror(errno));
        }
        madvise(p, out->size, MADV_SEQUENTIAL);
        out->data = p;
    }
    close(fd);
    return true;
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

void cs_file_unmap(cs_file *f)
{
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

bool cs_out_open(cs_out *o, const char *path, cs_err *err)
{
    memset(o, 0, sizeof *o);
    if (strcmp(path, "-") == 0) {
        o->fp = stdout;
        o->is_stdout = true;
        return true;
    }
    if (strlen(path) + 16 > sizeof o->path)
        return CS_FAIL(err, CS_E_USAGE, CS_NO_OFFSET, "output path too long");
    strcpy(o->path, path);
    snprintf(o->tmp, sizeof o->tmp, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(o->tmp);
    if (fd < 0)
        return CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "cannot create %s: %s", o->tmp, strerror(errno));
    fchmod(fd, 0644);
    o->fp = fdopen(fd, "wb");
    if (!o->fp) {
        close(fd);
        unlink(o->tmp);
        return CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "cannot open %s: %s", o->tmp, strerror(errno));
    }
    return true;
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
    if (o->is_stdout) {
        bool ok = fflush(stdout) == 0 && !o->failed;
        o->fp = NULL;
        return ok ? true : CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "write to standard output failed");
    }
    bool ok = !o->failed && fflush(o->fp) == 0 && fsync(fileno(o->fp)) == 0;
    ok = (fclose(o->fp) == 0) && ok;
    o->fp = NULL;
    if (!ok || rename(o->tmp, o->path) != 0) {
        int e = errno;
        unlink(o->tmp);
        return CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "cannot write %s: %s", o->path, strerror(e));
    }
    return true;
}

void cs_out_abort(cs_out *o)
{
    if (o->fp && !o->is_stdout) {
        fclose(o->fp);
        unlink(o->tmp);
    }
    o->fp = NULL;
}

bool cs_write_file(const char *path, const void *p, size_t n, cs_err *err)
{
    cs_out o;
    if (!cs_out_open(&o, path, err))
        return false;
    cs_out_write(&o, p, n);
    return cs_out_commit(&o, err);
}
