/* core/file.h — reading inputs through a read-only memory map and writing
 * outputs atomically (temporary file in the same folder, then rename()), so
 * a failure never leaves a half-written picture behind.
 *
 * API
 *   bool cs_file_map(const char *path, cs_file *out, cs_err *err)   map a whole file
 *   void cs_file_unmap(cs_file *f)                                  accepts a zeroed cs_file
 *   bool cs_out_open(cs_out *o, const char *path, cs_err *err)      start writing path
 *   cs_write_fn cs_out_write                                        ctx = cs_out *
 *   bool cs_out_commit(cs_out *o, cs_err *err)                      flush, fsync, rename
 *   void cs_out_abort(cs_out *o)                                    remove the temporary file
 *   bool cs_write_file(const char *path, const void *p, size_t n, cs_err *err)
 * A path of "-" writes to standard output (no rename).
 */
#ifndef CS_FILE_H
#define CS_FILE_H

#include "cs.h"

#include <stdio.h>

typedef struct cs_file {
    const uint8_t *data; /* read-only; NULL for an empty file */
    size_t size;
    const char *path;    /* borrowed from the caller */
} cs_file;

typedef struct cs_out {
    FILE *fp;
    char path[4096];
    char tmp[4096];
    bool failed;   /* a write came up short */
    bool is_stdout;
} cs_out;

bool cs_file_map(const char *path, cs_file *out, cs_err *err);
void cs_file_unmap(cs_file *f);
bool cs_out_open(cs_out *o, const char *path, cs_err *err);
size_t cs_out_write(void *ctx, const void *data, size_t n);
bool cs_out_commit(cs_out *o, cs_err *err);
void cs_out_abort(cs_out *o);
bool cs_write_file(const char *path, const void *p, size_t n, cs_err *err);

#endif
