/* tests/fuzz/fuzz_stream.c — libFuzzer harness for reading a trace from a
 * pipe (cs_file_open on a stream, core/file.c): a thread writes the input
 * into a pipe in chunks of random sizes (1 byte to 8 KB, from a generator
 * seeded by the input), the reader opens the pipe by name as it would a
 * FIFO and decodes it as it comes (a Go 1.22+ trace a generation at a
 * time, on one or two threads as the input says), which must give what
 * decoding the input in place gives (the mapped reader's view); what is
 * left of the stream after the decoder stopped must then make up the
 * input's size exactly. */
#include "fuzz_common.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

typedef struct feed {
    int fd;
    const uint8_t *p;
    size_t n;
    uint64_t rng;
} feed;

static size_t next_chunk(feed *f)
{
    f->rng ^= f->rng << 13, f->rng ^= f->rng >> 7, f->rng ^= f->rng << 17; /* xorshift64 */
    return f->rng % 4 == 0 ? 1 + f->rng % 16 : 1 + (f->rng >> 8) % 8192;
}

static void *writer(void *arg)
{
    feed *f = arg;
    for (size_t off = 0; off < f->n;) {
        size_t c = next_chunk(f);
        ssize_t w = write(f->fd, f->p + off, c < f->n - off ? c : f->n - off);
        if (w < 0)
            break; /* the reader gave up: it reports why */
        off += (size_t)w;
    }
    close(f->fd);
    return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    signal(SIGPIPE, SIG_IGN);
    int fds[2];
    if (pipe(fds) != 0)
        return 0;
    feed fd = {.fd = fds[1], .p = data, .n = size, .rng = 0x9e3779b97f4a7c15ull ^ size};
    for (size_t i = 0; i < size && i < 32; i++)
        fd.rng = fd.rng * 31 + data[i];
    fd.rng |= 1;
    int jobs = 1 + (int)(fd.rng >> 60 & 1);
    pthread_t th;
    if (pthread_create(&th, NULL, writer, &fd) != 0) {
        close(fds[0]), close(fds[1]);
        return 0;
    }
    char name[64];
    snprintf(name, sizeof name, "/proc/self/fd/%d", fds[0]);
    cs_file f;
    cs_err err = {0};
    if (!cs_file_open(name, NULL, &f, &err))
        abort();
    f.path = "fuzz";
    cs_file mapped = {.data = size ? data : NULL, .size = size, .path = "fuzz"};
    fz_out a, b;
    fz_decode(&mapped, 1, false, false, 0, &a);
    fz_decode(&f, jobs, false, false, 0, &b);
    fz_same(&a, &b);
    for (;;) { /* what is in hand is the input's; a decoder that stopped early leaves the rest */
        if (f.size > size || (f.size > f.base && memcmp(cs_file_at(&f, f.base), data + f.base, f.size - f.base)))
            abort();
        if (f.ended || !cs_file_more(&f, &err))
            break;
        cs_file_drop(&f, f.size - (f.size - f.base) / 2);
    }
    close(fds[0]);
    pthread_join(th, NULL);
    if (!f.ended || f.size != size || f.held_max > size)
        abort(); /* the stream read back as the input's bytes, no more */
    cs_file_unmap(&f);
    return 0;
}
