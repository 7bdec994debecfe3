/* tests/test_sweep.c — deterministic hostile-input sweep over every trace under
 * tests/data: a dense sample of prefixes and a fixed set of seeded byte
 * flips, each through the whole pipeline (decode, model, channel traffic,
 * every layout: lay_all.h) under ASan/UBSan. A bad file must
 * fail with a message and an offset inside the file, or decode; it must
 * never crash, read out of bounds, or allocate beyond a small multiple of its
 * size. Every flip and every fourth prefix is also written into a pipe in
 * pieces of seeded sizes and decoded as it comes (a Go 1.22+ trace a
 * generation at a time): the same result, or the same error at the same
 * offset. */
#include "testlib.h"
#include "lay_all.h"

#include <ftw.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#define PREFIXES 160    /* sampled prefix lengths per file (plus the first 40) */
#define FLIPS 160       /* seeded mutations per file */
#define MEM_FACTOR 64   /* documented bound: peak <= 64 x size + 16 MiB */

static uint64_t rng_state;
static uint32_t rng(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

static int runs, failures;

typedef struct feed { int fd; const uint8_t *p; size_t n; uint32_t seed; } feed;

static void *feeder(void *arg)
{
    feed *f = arg;
    for (size_t off = 0; off < f->n;) {
        f->seed = f->seed * 1103515245u + 12345u;
        size_t c = 1 + (f->seed >> 8) % 4096;
        ssize_t w = write(f->fd, f->p + off, c < f->n - off ? c : f->n - off);
        if (w <= 0)
            break; /* the reader stopped early: an error it reports */
        off += (size_t)w;
    }
    close(f->fd);
    return NULL;
}

/* p[0..n) through a pipe, decoded as it comes: what the mapped decode gave
 * (ok, m and err). */
static void stream_same(const char *name, const uint8_t *p, size_t n, bool ok, const cs_model *m, const cs_err *err)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    feed fd = {.fd = fds[1], .p = p, .n = n, .seed = (uint32_t)(n * 2654435761u) ^ (n ? p[n / 2] : 0)};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, feeder, &fd), 0);
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fds[0]);
    cs_file f;
    cs_model sm;
    cs_stats ss;
    cs_err serr = {0};
    cs_model_init(&sm);
    memset(&ss, 0, sizeof ss);
    assert_true(cs_file_open(path, NULL, &f, &serr));
    f.path = name;
    dec_desc d = {.path = name, .jobs = 1};
    bool sok = dec_trace_load(&d, &f, &sm, &ss, &serr) && trf_build(&sm, &serr);
    cs_file_unmap(&f); /* closes the pipe: a writer still writing stops */
    close(fds[0]);
    pthread_join(th, NULL);
    if (sok != ok || serr.code != err->code || serr.offset != err->offset || strcmp(serr.msg, err->msg) ||
        (ok && (sm.n_events != m->n_events || sm.n_edges != m->n_edges || sm.n_msgs != m->n_msgs ||
                sm.n_span != m->n_span || strcmp(sm.warning, m->warning)))) {
        print_error("%s (%zu bytes): from a pipe '%s' at %llu, from the file '%s' at %llu\n", name, n, serr.msg,
                    (unsigned long long)serr.offset, err->msg, (unsigned long long)err->offset);
        failures++;
    }
    cs_model_deinit(&sm);
    cs_stats_deinit(&ss);
}

static void run_one(const char *name, const uint8_t *p, size_t n, bool stream)
{
    cs_file f = {.data = n ? p : NULL, .size = n, .path = name};
    cs_model m;
    cs_stats s;
    cs_err err = {0};
    cs_model_init(&m);
    memset(&s, 0, sizeof s);
    cs_alloc_peak_reset();
    size_t base = cs_alloc_current();
    dec_desc d = {.path = name, .jobs = 1};
    bool ok = dec_trace_load(&d, &f, &m, &s, &err) && trf_build(&m, &err);
    if (ok)
        tl_lay_all(&m);
    size_t used = cs_alloc_peak() - base;
    runs++;
    if (!ok) {
        assert_int_not_equal(err.code, CS_OK);
        assert_true(err.msg[0] != 0);
        if (err.offset != CS_NO_OFFSET && err.offset > n) {
            print_error("%s (%zu bytes): error offset %llu beyond the end: %s\n", name, n,
                        (unsigned long long)err.offset, err.msg);
            failures++;
        }
    }
    if (used > MEM_FACTOR * n + (16u << 20)) {
        print_error("%s (%zu bytes): used %zu bytes\n", name, n, used);
        failures++;
    }
    if (stream)
        stream_same(name, p, n, ok, &m, &err);
    cs_model_deinit(&m);
    cs_stats_deinit(&s);
}

static void sweep_file(const char *path)
{
    cs_file f;
    cs_err err = {0};
    assert_true(cs_file_map(path, &f, &err));
    size_t n = f.size;
    uint8_t *buf = malloc(n + 1);
    assert_non_null(buf);
    for (size_t len = 0; len <= n && len < 40; len++)
        run_one(path, f.data, len, len % 4 == 0);
    for (int i = 1; i <= PREFIXES && n > 40; i++)
        run_one(path, f.data, 40 + (n - 40) * (size_t)i / PREFIXES, i % 4 == 0);
    rng_state = 0x5eed0000 + n;
    for (int i = 0; i < FLIPS && n > 16; i++) {
        memcpy(buf, f.data, n);
        int k = 1 + (int)(rng() % 4);
        for (int j = 0; j < k; j++) {
            size_t at = 16 + rng() % (n - 16);
            switch (rng() % 3) {
            case 0: buf[at] ^= (uint8_t)(1u << (rng() % 8)); break;
            case 1: buf[at] = (uint8_t)rng(); break;
            default: buf[at] = 0xff; break; /* long varint continuation */
            }
        }
        run_one(path, buf, n, true);
    }
    free(buf);
    cs_file_unmap(&f);
}

static int files;

static int visit(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
    (void)sb, (void)ftw;
    size_t l = strlen(path);
    if (type == FTW_F && l > 6 && strcmp(path + l - 6, ".trace") == 0) {
        sweep_file(path);
        files++;
    }
    return 0;
}

static void prefixes_and_flips_never_crash_or_balloon(void **st)
{
    (void)st;
    signal(SIGPIPE, SIG_IGN);
    if (nftw(tl_data(), visit, 16, FTW_PHYS) != 0 || !files)
        skip();
    print_message("swept %d files, %d runs\n", files, runs);
    assert_int_equal(failures, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(prefixes_and_flips_never_crash_or_balloon),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
