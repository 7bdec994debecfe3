/* core/cs.h — the few things every stage of chanscope shares: the error value,
 * the counting allocator, growable arrays and the write callback.
 *
 * API
 *   CS_FAIL(err, code, off, fmt, ...)   fill *err (records __LINE__), evaluate to false
 *   void *cs_alloc(size_t n) / cs_calloc(n, sz) / cs_realloc(p, n) / cs_free(p)
 *       (a block of 2 MB or more is mapped on its own, on huge pages: alloc.c)
 *   void cs_alloc_init(void)   main's first call: malloc's heap keeps the blocks under 2 MB
 *   size_t cs_alloc_peak(void) / cs_alloc_current(void) / void cs_alloc_peak_reset(void)
 *   bool cs_grow(void **arr, uint32_t *cap, uint32_t need, size_t elem, cs_err *err)
 *   void *cs_alloc_lines(size_t n, void **raw)   zeroed, on cache lines of its own; cs_free(*raw)
 *   void cs_release(void *p, size_t n)   the whole pages inside [p, p + n), part of a block
 *       whose bytes there are done with, go back to the system (a block's read as zeros after,
 *       a file mapping's as the file)
 *   void cs_release_add(cs_releases *r, void *p, size_t n) / cs_release_flush(cs_releases *r)
 *       cs_release, a batch at a time (`cs_releases r = {0}`): the pages go when
 *       CS_RELEASES ranges or CS_RELEASE_BYTES are in, or at the flush; one system call
 *       for the batch (and one TLB flush, where the kernel batches them), which matters
 *       while other threads run
 *   bool cs_prefault(void *p, size_t n)   the whole pages inside [p, p + n), part of a
 *       block, made the process's now, as a write would, their bytes left alone: another
 *       thread takes the faults of memory a busy one is about to fill (advice: false,
 *       and nothing done, where the kernel refuses or there is no whole page)
 *   size_t cs_page_bytes(void)   the system's page size
 *   void cs_permute(uint32_t *to, uint32_t n, const cs_permuted *arr, unsigned n_arr)
 *       permute.c: in each of up to CS_PERMUTE_ARRAYS arrays (those not NULL), element j
 *       becomes element to[j] for every place j of n, in place; elements of at most
 *       CS_PERMUTE_MAX bytes; to[] is used up
 *   void *cs_pages(size_t n) / void cs_pages_free(void *p, size_t n)   n bytes of zeroed whole
 *       pages straight from the system, apart from malloc's heap, counted as cs_alloc's;
 *       NULL when there are none
 *   typedef size_t cs_write_fn(void *ctx, const void *data, size_t n)
 *
 * Errors are values: the function that finds a problem fills a cs_err and
 * returns false (or NULL); callers pass it up untouched; only cli/main.c
 * prints it, as "file:offset: message". Nothing below main prints or exits.
 */
#ifndef CS_H
#define CS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum cs_code {
    CS_OK = 0,
    CS_E_USAGE,       /* bad command line (exit 2) */
    CS_E_IO,          /* open/read/write/rename failed */
    CS_E_NOMEM,       /* allocation failed or would exceed a limit */
    CS_E_FORMAT,      /* not a Go trace at all */
    CS_E_VERSION,     /* a Go trace, but of a version we do not read */
    CS_E_CORRUPT,     /* bytes that no runtime writes */
    CS_E_TRUNCATED,   /* the file ends in the middle of something */
    CS_E_INVALID,     /* well-formed, but Go's validation rejects it */
    CS_E_GL,          /* OpenGL / EGL / GLFW failure */
    CS_E_CANCELLED,   /* the caller asked to stop (a progress callback returned false) */
    CS_E_INTERNAL     /* a bug in chanscope */
} cs_code;

#define CS_NO_OFFSET UINT64_MAX

typedef struct cs_err {
    cs_code code;
    uint64_t offset;   /* byte offset in the input, CS_NO_OFFSET when none */
    int src_line;      /* line of chanscope's source that raised it */
    char msg[160];     /* fixed, so reporting out-of-memory needs no memory */
} cs_err;

/* Fills *err unless it already holds an error (the first error wins).
 * Always returns false, so `return CS_FAIL(...)` reads naturally. */
bool cs_err_set(cs_err *err, cs_code code, uint64_t offset, int line,
                const char *fmt, ...) __attribute__((format(printf, 5, 6)));
#define CS_FAIL(err, code, off, ...) cs_err_set((err), (code), (off), __LINE__, __VA_ARGS__)

/* Human name of a code, e.g. "corrupt trace". */
const char *cs_code_name(cs_code code);

/* Counting allocator: every allocation in chanscope goes through these so
 * tests and benchmarks can read the peak (like Redis's zmalloc). Sizes of
 * zero are allowed; cs_free(NULL) is a no-op. */
void cs_alloc_init(void);
void *cs_alloc(size_t n);
void *cs_calloc(size_t n, size_t size);
void *cs_realloc(void *p, size_t n);
void cs_release(void *p, size_t n);
bool cs_prefault(void *p, size_t n);
#define CS_RELEASES 64
#define CS_RELEASE_BYTES ((size_t)1 << 20) /* held back at most, before a batch goes */
typedef struct cs_releases { void *at[CS_RELEASES]; size_t len[CS_RELEASES], bytes; unsigned n; } cs_releases;
void cs_release_add(cs_releases *r, void *p, size_t n);
void cs_release_flush(cs_releases *r);
size_t cs_page_bytes(void);
#define CS_PERMUTE_MAX 128
#define CS_PERMUTE_ARRAYS 4
typedef struct cs_permuted { void *p; size_t size; } cs_permuted; /* an array cs_permute moves */
void cs_permute(uint32_t *to, uint32_t n, const cs_permuted *arr, unsigned n_arr);
void *cs_pages(size_t n);
void cs_pages_free(void *p, size_t n);
/* n zeroed bytes on 64-byte cache lines that hold nothing else, for data
 * one thread writes while another works beside it; free with cs_free(*raw)
 * (*raw is set, NULL on failure, also when NULL is returned). */
void *cs_alloc_lines(size_t n, void **raw);
void cs_free(void *p);
size_t cs_alloc_current(void);
size_t cs_alloc_peak(void);
void cs_alloc_peak_reset(void); /* peak := current, to measure one operation */

/* cs_grow makes room for `need` elements of `elem` bytes in *arr
 * (capacity *cap), doubling. May reallocate *arr: pointers into it are
 * invalid afterwards. Returns false with CS_E_NOMEM on overflow or
 * allocation failure. Its check is inline, as most calls append to an
 * array with room left; cs_grow_room (alloc.c, not for callers) makes the
 * room. */
bool cs_grow_room(void **arr, uint32_t *cap, uint32_t need, size_t elem, cs_err *err);
static inline bool cs_grow(void **arr, uint32_t *cap, uint32_t need, size_t elem, cs_err *err)
{
    return need <= *cap || cs_grow_room(arr, cap, need, elem, err);
}

/* Writers write through a callback into the caller's sink.
 * Returns the number of bytes written; anything less than n is an error. */
typedef size_t cs_write_fn(void *ctx, const void *data, size_t n);

#endif
