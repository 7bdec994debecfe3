/* core/file.h — reading inputs and writing outputs.
 *
 * Input (core/file.c): a regular file is mapped read-only, whole; standard
 * input ("-"), a pipe, a FIFO or a character device is a stream, read as its
 * reader asks: cs_file_open reads nothing of it, cs_file_more appends what
 * comes next to a window of at most CS_FILE_STREAM_MAX bytes, cs_file_drop
 * lets go of the bytes before an offset (the window keeps the rest), and
 * cs_file_whole reads it to its end. The bytes read so far go to
 * hooks->on_read. Opening a FIFO never blocks: it is opened without waiting
 * for a writer, and when no data comes within a moment hooks->on_wait is
 * called once before the reader waits (a signal such as Ctrl-C still ends
 * the program).
 *
 * Output (core/out.c): a regular file is replaced atomically (a temporary
 * file in the same folder, then rename()), so a failure never leaves a
 * half-written picture behind; a symlink is followed and its target
 * replaced; a character device or a FIFO is written directly; "-" is
 * standard output. Writing over the input registered with cs_out_protect()
 * is refused (CS_E_USAGE). While a temporary file exists, SIGINT, SIGTERM,
 * SIGHUP and SIGQUIT remove it before the signal ends the program; the
 * handler runs on the main thread, as every thread is started with them
 * blocked (cs_thread_create), so it never runs while the main thread has
 * them blocked for a moment to change the table of temporary files.
 *
 * API
 *   bool cs_file_open(const char *path, const cs_file_hooks *hooks, cs_file *out, cs_err *err)
 *       any input, as above; hooks and each of its functions may be NULL
 *   const uint8_t *cs_file_at(const cs_file *f, uint64_t off)   the byte at input offset off,
 *       which must be in hand: f->base <= off <= f->size
 *   uint64_t cs_file_total(const cs_file *f)        its size once known, else 0
 *   bool cs_file_more(cs_file *f, cs_err *err)      a stream: at least one more byte, or its
 *       end (f->ended); moves the window (pointers into it go stale); a whole input: nothing
 *   void cs_file_drop(cs_file *f, uint64_t off)     the bytes before off are not needed again: a
 *       stream's window moves; a mapped file's whole pages before off leave the process's
 *       memory, as with cs_file_release (they stay readable); other whole inputs: nothing
 *   bool cs_file_whole(cs_file *f, cs_err *err)     a stream read to its end, whole (base 0);
 *       only before any cs_file_drop
 *   bool cs_file_follow(const char *path, cs_file *out, cs_err *err)
 *       any input as a stream, never blocking: a regular file too, from its start, that
 *       another program may still be writing (it never ends), a FIFO without a writer yet
 *   bool cs_file_poll(cs_file *f, int wait_ms, cs_err *err)
 *       cs_file_more that waits at most about wait_ms for bytes (f->size tells what came)
 *   bool cs_file_map(const char *path, cs_file *out, cs_err *err)   a regular file only
 *   void cs_file_unmap(cs_file *f)                                  releases either; accepts a zeroed cs_file
 *   void cs_file_release(const cs_file *f)
 *       a mapped file's pages leave the process's memory (they stay readable:
 *       touched again they are read back from the file); other bytes stay
 *   void cs_file_release_range(const cs_file *f, uint64_t from, uint64_t to)
 *       the same for its whole pages in [from, to) (any thread: it keeps no state)
 *   void cs_file_release_add(const cs_file *f, cs_releases *r, uint64_t from, uint64_t to)
 *       the same, the pages going with r's batch (cs_release_add; the caller flushes r)
 *   void cs_out_protect(const cs_file *in)                          outputs may not replace `in`
 *   bool cs_out_open(cs_out *o, const char *path, cs_err *err)      start writing path
 *   cs_write_fn cs_out_write                                        ctx = cs_out *
 *   bool cs_out_commit(cs_out *o, cs_err *err)                      flush, fsync, rename
 *   void cs_out_abort(cs_out *o)                                    remove the temporary file
 *   bool cs_write_file(const char *path, const void *p, size_t n, cs_err *err)
 *   int cs_thread_create(pthread_t *th, void *(*fn)(void *), void *arg)
 *       pthread_create (default attributes), the new thread never taking the signals above
 */
#ifndef CS_FILE_H
#define CS_FILE_H

#include "cs.h"

#include <stdio.h>
#include <sys/types.h>

/* The most bytes of a stream (pipe, FIFO, standard input) held at once: a
 * whole stream when it is read whole, else the window. */
#define CS_FILE_STREAM_MAX ((size_t)64 << 30)

/* What cs_file_open and cs_file_more tell their caller while they read a
 * stream. */
typedef struct cs_file_hooks {
    /* a FIFO has had no data for a moment: the reader waits for a writer */
    void (*on_wait)(void *ud, const char *path);
    /* the bytes read so far, about every MiB; false stops (CS_E_CANCELLED) */
    bool (*on_read)(void *ud, uint64_t bytes);
    void *ud;
} cs_file_hooks;

typedef struct cs_file {
    const uint8_t *data; /* read-only: byte `base` of the input and on; NULL when none is held */
    size_t size;         /* the end of the bytes in hand: the input's size once it is all read */
    uint64_t base;       /* input offset of data[0]: 0 but for a stream whose start was dropped */
    const char *path;    /* borrowed from the caller */
    bool owned;          /* data is a heap buffer read from a stream, not a mapping */
    bool mapped;         /* data is a read-only mapping of the file (cs_file_map) */
    size_t dropped;      /* a mapping: its pages before this offset were let go (cs_file_drop) */
    dev_t dev;           /* identity of a regular file (0/0 for a stream) */
    ino_t ino;
    /* a stream (cs_file_more) */
    bool stream;         /* more may be read: data is a window that moves */
    bool ended;          /* ... and its end was read */
    bool growing;        /* ... a regular file still being written: its end is not the end (cs_file_follow) */
    int fd;
    size_t cap;          /* bytes allocated at data */
    size_t held_max;     /* the most bytes held at once */
    uint64_t told;       /* bytes reported to hooks.on_read */
    cs_file_hooks hooks; /* the caller's; cleared when it no longer wants them */
} cs_file;

static inline const uint8_t *cs_file_at(const cs_file *f, uint64_t off)
{
    return f->data + (off - f->base);
}

/* The input's size when it is known (mapped, or a stream read to its end), else 0. */
static inline uint64_t cs_file_total(const cs_file *f)
{
    return f->stream && !f->ended ? 0 : f->size;
}

typedef struct cs_out {
    FILE *fp;
    char path[4096]; /* the file that is replaced: a symlink's target */
    char tmp[4096];
    int slot;        /* its entry in the table of temporary names, -1 when none */
    bool failed;     /* a write came up short */
    bool direct;     /* standard output, a device or a FIFO: no temporary file */
} cs_out;

bool cs_file_open(const char *path, const cs_file_hooks *hooks, cs_file *out, cs_err *err);
bool cs_file_map(const char *path, cs_file *out, cs_err *err);
bool cs_file_more(cs_file *f, cs_err *err);
void cs_file_drop(cs_file *f, uint64_t off);
bool cs_file_whole(cs_file *f, cs_err *err);
bool cs_file_follow(const char *path, cs_file *out, cs_err *err);
bool cs_file_poll(cs_file *f, int wait_ms, cs_err *err);
void cs_file_unmap(cs_file *f);
void cs_file_release(const cs_file *f);
void cs_file_release_range(const cs_file *f, uint64_t from, uint64_t to);
void cs_file_release_add(const cs_file *f, cs_releases *r, uint64_t from, uint64_t to);
void cs_out_protect(const cs_file *in);
bool cs_out_open(cs_out *o, const char *path, cs_err *err);
size_t cs_out_write(void *ctx, const void *data, size_t n);
bool cs_out_commit(cs_out *o, cs_err *err);
void cs_out_abort(cs_out *o);
bool cs_write_file(const char *path, const void *p, size_t n, cs_err *err);
int cs_thread_create(pthread_t *th, void *(*fn)(void *), void *arg);

#endif
