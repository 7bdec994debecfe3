/* tests/test_sweep.c — deterministic hostile-input sweep over every trace under
 * tests/data: a dense sample of prefixes and a fixed set of seeded byte
 * flips, each through the whole pipeline (decode, model, channel traffic,
 * every layout: lay_all.h) under ASan/UBSan. A bad file must
 * fail with a message and an offset inside the file, or decode; it must
 * never crash, read out of bounds, or allocate beyond a small multiple of its
 * size. */
#include "testlib.h"
#include "lay_all.h"

#include <ftw.h>

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

static void run_one(const char *name, const uint8_t *p, size_t n)
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
        run_one(path, f.data, len);
    for (int i = 1; i <= PREFIXES && n > 40; i++)
        run_one(path, f.data, 40 + (n - 40) * (size_t)i / PREFIXES);
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
        run_one(path, buf, n);
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
