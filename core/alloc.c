/* core/alloc.c — the counting allocator behind cs_alloc(). Each block carries
 * a 16-byte header with its size so frees can be subtracted (and big blocks,
 * mapped on their own, told apart); counters are atomic because decoders
 * run on worker threads. */
#include "cs.h"

#include <malloc.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#define HDR 16 /* keeps 16-byte alignment of the user pointer; a big block's
                 header holds its mapping's length after its size */

/* A block of BIG bytes or more is mapped on its own, starting on a 2 MB
 * boundary, with transparent huge pages advised (MADV_HUGEPAGE): the
 * model's columns and the pictures' tables are filled from one end, and a
 * huge page is one fault for 512 pages. Where a fault is dear (a virtual
 * machine that traps each one, 12 to 16 us a page: README, "the blocks of
 * 2 MB or more"), the faults of the 117 MB ring's `png` were most of its
 * time. A touched huge page is resident whole: a block being filled holds
 * less than 2 MB past its end. Freed, the block goes back to the system at
 * once, not to malloc's heap, where it would be kept. */
#define BIG ((size_t)2 << 20)

static _Atomic size_t cur_bytes, peak_bytes;

/* malloc's heap keeps the blocks under BIG, ours and the libraries' (Mesa's
 * buffers of a frame among them). Left to itself, glibc maps a block of
 * 128 KB or more on its own and raises that threshold as such blocks are
 * freed (man mallopt): the frees of our big blocks raised it once, and with
 * them no longer its own, every frame of the viewer mapped, faulted in and
 * unmapped its buffers (300 faults a frame on the server trace, its median
 * frame 22 ms instead of 13). The threshold is set to BIG, and the free top
 * of the heap kept up to 32 MB, as glibc's own rule (twice the threshold,
 * at most 64 MB) had it. */
void cs_alloc_init(void)
{
    mallopt(M_MMAP_THRESHOLD, (int)BIG);
    mallopt(M_TRIM_THRESHOLD, 32 << 20);
}

static void account(size_t add, size_t sub)
{
    size_t now = atomic_fetch_add(&cur_bytes, add) + add;
    if (sub)
        now = atomic_fetch_sub(&cur_bytes, sub) - sub;
    size_t peak = atomic_load(&peak_bytes);
    while (now > peak && !atomic_compare_exchange_weak(&peak_bytes, &peak, now)) {
    }
}

/* The length of a big block's mapping: the block and its header in whole
 * pages of unit bytes (SIZE_MAX, which no mapping has, when that is more
 * than a size). A block made at its size takes whole pages; one that grows
 * (cs_realloc), whole huge pages: a huge page lies wholly inside its
 * mapping, and in whole pages a growing block's last part under 2 MB took
 * pages as they came, left so as it grew on, 6,800 faults of the 117 MB
 * ring's `png` (the wake-ups' table among them), where a block filled to
 * its size holds less with them (a huge page past its end is resident). */
static size_t big_len(size_t n, size_t unit)
{
    return n > SIZE_MAX - HDR - unit ? SIZE_MAX : (n + HDR + unit - 1) & ~(unit - 1);
}

static size_t big_len_of(const unsigned char *base)
{
    size_t len;
    memcpy(&len, base + sizeof len, sizeof len);
    return len;
}

static void big_len_set(unsigned char *base, size_t len) { memcpy(base + sizeof len, &len, sizeof len); }

/* len bytes of zeroed pages on a 2 MB boundary, huge pages advised, len
 * in their header. */
static unsigned char *big_map(size_t len)
{
    if (len > SIZE_MAX - BIG)
        return NULL;
    unsigned char *p = mmap(NULL, len + BIG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    unsigned char *a = (unsigned char *)(((uintptr_t)p + BIG - 1) & ~(uintptr_t)(BIG - 1));
    if (a > p)
        munmap(p, (size_t)(a - p));
    munmap(a + len, (size_t)(p + BIG - a)); /* what is left past the block */
    madvise(a, len, MADV_HUGEPAGE); /* advice: without it, pages as they come */
    big_len_set(a, len);
    return a;
}

/* A block of n bytes from its header on, given back. */
static void block_free(unsigned char *base, size_t n)
{
    if (n >= BIG)
        munmap(base, big_len_of(base));
    else
        free(base);
}

/* A big block made m bytes (big): in place when it shrinks or there is
 * room after it, else its pages are moved, not copied (mremap), into a new
 * mapping on a 2 MB boundary. */
static unsigned char *big_remap(unsigned char *base, size_t m)
{
    size_t old = big_len_of(base), len = big_len(m, BIG);
    len = m + HDR <= old && len > old ? old : len; /* one made at its size never grows to shrink */
    if (len <= old || mremap(base, old, len, 0) != MAP_FAILED) { /* in place: shrunk, or room after it */
        if (len < old)
            munmap(base + len, old - len);
        big_len_set(base, len);
        return base;
    }
    unsigned char *q = big_map(len);
    if (q && mremap(base, old, old, MREMAP_MAYMOVE | MREMAP_FIXED, q) == MAP_FAILED) {
        memcpy(q, base, old);
        munmap(base, old);
    }
    if (q)
        big_len_set(q, len); /* the header moved over q's */
    return q;
}

/* A new block of n bytes from its header on, of its kind, a big one in
 * whole pages of unit bytes; zeroed if zero (a big one always is). */
static unsigned char *block_new(size_t n, bool zero, size_t unit)
{
    return n >= BIG ? big_map(big_len(n, unit)) : zero ? calloc(1, n + HDR) : malloc(n + HDR);
}

void *cs_alloc(size_t n)
{
    if (n > SIZE_MAX - HDR)
        return NULL;
    unsigned char *p = block_new(n, false, cs_page_bytes());
    if (!p)
        return NULL;
    memcpy(p, &n, sizeof n);
    account(n, 0);
    return p + HDR;
}

/* calloc underneath: a large block comes zeroed from the system, so its
 * pages cost memory only once they are written */
void *cs_calloc(size_t n, size_t size)
{
    if (size && n > (SIZE_MAX - HDR) / size)
        return NULL;
    size_t bytes = n * size;
    unsigned char *p = block_new(bytes, true, cs_page_bytes());
    if (!p)
        return NULL;
    memcpy(p, &bytes, sizeof bytes);
    account(bytes, 0);
    return p + HDR;
}

void *cs_realloc(void *p, size_t n)
{
    if (!p)
        return cs_alloc(n);
    if (n > SIZE_MAX - HDR)
        return NULL;
    unsigned char *base = (unsigned char *)p - HDR;
    size_t old;
    memcpy(&old, base, sizeof old);
    unsigned char *q;
    if (old >= BIG && n >= BIG)
        q = big_remap(base, n);
    else if (old < BIG && n < BIG)
        q = realloc(base, n + HDR);
    else { /* from one kind of block to the other */
        q = block_new(n, false, BIG);
        if (!q)
            return NULL;
        memcpy(q + HDR, base + HDR, old < n ? old : n);
        block_free(base, old);
    }
    if (!q)
        return NULL;
    memcpy(q, &n, sizeof n);
    account(n, old);
    return q + HDR;
}

void *cs_alloc_lines(size_t n, void **raw)
{
    *raw = n <= SIZE_MAX - 192 ? cs_calloc(1, n + 192) : NULL; /* at least 64 free bytes before and after */
    return *raw ? (void *)(((uintptr_t)*raw + 64 + 63) & ~(uintptr_t)63) : NULL;
}

void cs_free(void *p)
{
    if (!p)
        return;
    unsigned char *base = (unsigned char *)p - HDR;
    size_t old;
    memcpy(&old, base, sizeof old);
    atomic_fetch_sub(&cur_bytes, old);
    block_free(base, old);
}

/* madvise(MADV_DONTNEED) frees the pages at once and the range keeps its
 * addresses: anonymous memory reads back as zeros after, the pages of a
 * file mapping never written are read back from the file. */
size_t cs_page_bytes(void)
{
    static _Atomic size_t known; /* asked once: the builder asks per chunk */
    size_t page = atomic_load_explicit(&known, memory_order_relaxed);
    if (!page) {
        long p = sysconf(_SC_PAGESIZE);
        page = p > 0 ? (size_t)p : 4096;
        atomic_store_explicit(&known, page, memory_order_relaxed);
    }
    return page;
}

/* The whole pages inside [p, p + n): [*a, *b), empty when *b <= *a. */
static void inner_pages(const void *p, size_t n, uintptr_t *a, uintptr_t *b)
{
    size_t page = cs_page_bytes();
    *a = ((uintptr_t)p + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
    *b = ((uintptr_t)p + n) & ~((uintptr_t)page - 1);
}

void cs_release(void *p, size_t n)
{
    uintptr_t a, b;
    inner_pages(p, n, &a, &b);
    if (b > a)
        madvise((void *)a, b - a, MADV_DONTNEED); /* advice: on failure the pages just stay */
}

/* MADV_POPULATE_WRITE (Linux 5.14) faults pages in as writes would and
 * changes no byte; an older kernel refuses it (EINVAL), and the pages are
 * faulted in when first written, as without it. */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
bool cs_prefault(void *p, size_t n)
{
    uintptr_t a, b;
    inner_pages(p, n, &a, &b);
    return b > a && madvise((void *)a, b - a, MADV_POPULATE_WRITE) == 0;
}

/* A batch goes by one system call, process_madvise on the calling
 * process (its pidfd PIDFD_SELF), which kernels that batch its TLB flushes
 * flush once for all the ranges: a madvise per range interrupts every
 * other CPU that runs one of our threads, once per range. A kernel that
 * refuses (one that knows no PIDFD_SELF, or takes no MADV_DONTNEED there)
 * is not asked again, and each range goes by madvise. */
#define PIDFD_SELF_ (-10000)
static atomic_bool no_batches;

void cs_release_add(cs_releases *r, void *p, size_t n)
{
    uintptr_t a, b;
    inner_pages(p, n, &a, &b);
    if (b <= a)
        return;
    r->at[r->n] = (void *)a, r->len[r->n] = b - a, r->bytes += b - a;
    if (++r->n == CS_RELEASES || r->bytes >= CS_RELEASE_BYTES)
        cs_release_flush(r);
}

void cs_release_flush(cs_releases *r)
{
    struct iovec v[CS_RELEASES];
    size_t total = 0;
    for (unsigned i = 0; i < r->n; i++)
        v[i] = (struct iovec){r->at[i], r->len[i]}, total += r->len[i];
    if (r->n && (atomic_load_explicit(&no_batches, memory_order_relaxed) ||
                 syscall(SYS_process_madvise, PIDFD_SELF_, v, (size_t)r->n, MADV_DONTNEED, 0u) != (long)total)) {
        atomic_store_explicit(&no_batches, true, memory_order_relaxed);
        for (unsigned i = 0; i < r->n; i++)
            madvise(r->at[i], r->len[i], MADV_DONTNEED);
    }
    r->n = 0, r->bytes = 0;
}

void *cs_pages(size_t n)
{
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    account(n, 0);
    return p;
}

void cs_pages_free(void *p, size_t n)
{
    if (p && !munmap(p, n))
        account(0, n);
}

size_t cs_alloc_current(void) { return atomic_load(&cur_bytes); }
size_t cs_alloc_peak(void) { return atomic_load(&peak_bytes); }
void cs_alloc_peak_reset(void) { atomic_store(&peak_bytes, atomic_load(&cur_bytes)); }

bool cs_grow_room(void **arr, uint32_t *cap, uint32_t need, size_t elem, cs_err *err)
{
    uint64_t ncap = *cap ? *cap : 16;
    while (ncap < need)
        ncap *= 2;
    if (ncap > UINT32_MAX)
        ncap = UINT32_MAX;
    if (ncap < need || ncap > SIZE_MAX / elem)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "array of %u elements is too large", need);
    void *p = cs_realloc(*arr, (size_t)ncap * elem);
    if (!p)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory growing an array to %llu elements",
                       (unsigned long long)ncap);
    *arr = p;
    *cap = (uint32_t)ncap;
    return true;
}
