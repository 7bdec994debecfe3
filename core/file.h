/* core/file.h — reading inputs and writing outputs.
 *
 * Input (core/file.c): a regular file is mapped read-only; standard input
 * ("-"), a pipe, a FIFO or a character device is read into a growing buffer
 * of at most CS_FILE_STREAM_MAX bytes, reporting the bytes read to
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
 * SIGHUP and SIGQUIT remove it before the signal ends the program.
 *
 * API
 *   bool cs_file_open(const char *path, const cs_file_hooks *hooks, cs_file *out, cs_err *err)
 *       any input, as above; hooks and each of its functions may be NULL
 *   bool cs_file_map(const char *path, cs_file *out, cs_err *err)   a regular file only
 *   void cs_file_unmap(cs_file *f)                                  releases either; accepts a zeroed cs_file
 *   void cs_file_release(const cs_file *f)
 *       a mapped file's pages leave the process's memory (they stay readable:
 *       touched again they are read back from the file); other bytes stay
 *   void cs_out_protect(const cs_file *in)                          outputs may not replace `in`
 *   bool cs_out_open(cs_out *o, const char *path, cs_err *err)      start writing path
 *   cs_write_fn cs_out_write                                        ctx = cs_out *
 *   bool cs_out_commit(cs_out *o, cs_err *err)                      flush, fsync, rename
 *   void cs_out_abort(cs_out *o)                                    remove the temporary file
 *   bool cs_write_file(const char *path, const void *p, size_t n, cs_err *err)
 */
#ifndef CS_FILE_H
#define CS_FILE_H

#include "cs.h"

#include <stdio.h>
#include <sys/types.h>

/* The most a stream (pipe, FIFO, standard input) may hold: it is read
 * whole into memory before decoding. */
#define CS_FILE_STREAM_MAX ((size_t)64 << 30)

typedef struct cs_file {
    const uint8_t *data; /* read-only; NULL for an empty file */
    size_t size;
    const char *path;    /* borrowed from the caller */
    bool owned;          /* data is a heap buffer read from a stream, not a mapping */
    bool mapped;         /* data is a read-only mapping of the file (cs_file_map) */
    dev_t dev;           /* identity of a regular file (0/0 for a stream) */
    ino_t ino;
} cs_file;

/* What cs_file_open tells its caller while it reads a stream. */
typedef struct cs_file_hooks {
    /* a FIFO has had no data for a moment: the reader waits for a writer */
    void (*on_wait)(void *ud, const char *path);
    /* the bytes read so far, about every MiB; false stops (CS_E_CANCELLED) */
    bool (*on_read)(void *ud, uint64_t bytes);
    void *ud;
} cs_file_hooks;

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
void cs_file_unmap(cs_file *f);
void cs_file_release(const cs_file *f);
void cs_out_protect(const cs_file *in);
bool cs_out_open(cs_out *o, const char *path, cs_err *err);
size_t cs_out_write(void *ctx, const void *data, size_t n);
bool cs_out_commit(cs_out *o, cs_err *err);
void cs_out_abort(cs_out *o);
bool cs_write_file(const char *path, const void *p, size_t n, cs_err *err);

#endif
