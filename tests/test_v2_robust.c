/* tests/test_v2_robust.c — the Go 1.22+ decoder on hostile input: every
 * prefix of the repo's traces (a cut-short file keeps its complete
 * generations and warns, or fails under --strict), seeded byte flips
 * (never a crash or an out-of-bounds read under ASan/UBSan; a rejected file
 * names an offset), and absurd sizes written into batch headers. Every
 * input is decoded on one thread and on two, and for statistics only with
 * the inline hot path and without, with the same outcome. Wire 1.26 also
 * gets forged EndOfGeneration bytes: one dropped, one added at every batch
 * boundary. */
#include "testlib.h"

static const char *const names[] = {"pingpong-go1.25", "corpus/go1.23/selectmix", "closebcast-go1.22",
                                    "corpus/go1.27/selectmix"};

typedef struct blob { uint8_t *p; size_t n; } blob;

static blob read_trace(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.trace", tl_data(), name);
    cs_file f;
    cs_err err = {0};
    assert_true(cs_file_map(path, &f, &err));
    blob b = {malloc(f.size), f.size};
    memcpy(b.p, f.data, f.size);
    cs_file_unmap(&f);
    return b;
}

typedef struct result {
    bool ok;
    cs_err err;
    char warning[200];
    cs_model m;
    cs_stats s;
} result;

/* stats_only: no model (the hot path emits inline); general: no hot path */
static void decode_with(const uint8_t *p, size_t n, bool strict, int jobs, bool stats_only, bool general,
                        result *r)
{
    cs_file f = {.data = p, .size = n, .path = "mem"};
    memset(r, 0, sizeof *r);
    cs_model_init(&r->m);
    dec_desc d = {.path = "mem", .jobs = jobs, .split_min = 1, .strict = strict, .no_model = stats_only,
                  .no_hot = general};
    r->ok = dec_trace_load(&d, &f, &r->m, &r->s, &r->err);
    snprintf(r->warning, sizeof r->warning, "%s", r->m.warning);
}

/* One thread and two must give the same statistics, wake-ups and events,
 * or the same error. */
static void same(const result *a, const result *b)
{
    assert_int_equal(a->ok, b->ok);
    assert_int_equal(a->err.code, b->err.code);
    assert_int_equal(a->err.offset, b->err.offset);
    assert_string_equal(a->err.msg, b->err.msg);
    assert_string_equal(a->warning, b->warning);
    assert_int_equal(a->m.n_events, b->m.n_events);
    assert_int_equal(a->m.n_edges, b->m.n_edges);
    for (uint32_t i = 1; i < a->m.n_edges; i++)
        assert_int_equal(cs_edge_ts(&a->m, i), cs_edge_ts(&b->m, i));
    assert_int_equal(a->s.n, b->s.n);
    assert_int_equal(a->s.n_kv, b->s.n_kv);
    for (uint32_t i = 0; i < a->s.n; i++) {
        const cs_gstat *x = &a->s.g[i], *y = &b->s.g[i];
        int64_t vx[] = {(int64_t)x->goid, x->creation, x->start, x->end, x->exec, x->sched_wait, x->syscall,
                        x->syscall_block, x->total};
        int64_t vy[] = {(int64_t)y->goid, y->creation, y->start, y->end, y->exec, y->sched_wait, y->syscall,
                        y->syscall_block, y->total};
        assert_memory_equal(vx, vy, sizeof vx);
    }
    for (uint32_t i = 0; i < a->s.n_kv; i++)
        assert_int_equal(a->s.kv[i].ns, b->s.kv[i].ns);
}

static void result_free(result *r)
{
    cs_model_deinit(&r->m);
    cs_stats_deinit(&r->s);
}

/* Decodes n bytes of p with stats on one thread and on two, and for
 * statistics only with the hot path and without, and on two threads;
 * returns ok, fills err and the warning. */
static bool decode(const uint8_t *p, size_t n, bool strict, char *warning, cs_err *err)
{
    result a, b, c;
    decode_with(p, n, strict, 1, true, false, &a);
    decode_with(p, n, strict, 1, true, true, &b);
    decode_with(p, n, strict, 2, true, false, &c); /* a part ahead on a worker */
    same(&a, &b);
    same(&a, &c);
    result_free(&a), result_free(&b), result_free(&c);
    decode_with(p, n, strict, 1, false, false, &a);
    decode_with(p, n, strict, 2, false, false, &b);
    same(&a, &b);
    *err = a.err;
    if (warning)
        snprintf(warning, 200, "%s", a.warning);
    result_free(&a), result_free(&b);
    return a.ok;
}

static void every_prefix_keeps_good_part_and_warns(void **st)
{
    (void)st;
    for (size_t t = 0; t < sizeof names / sizeof *names; t++) {
        blob b = read_trace(names[t]);
        for (size_t n = 17; n < b.n; n++) {
            char warning[200];
            cs_err err = {0};
            uint8_t *cut = malloc(n); /* exact size, so ASan sees any read past the cut */
            memcpy(cut, b.p, n);
            bool ok = decode(cut, n, false, warning, &err);
            if (!ok || !warning[0])
                fail_msg("%s cut at %zu: ok=%d warning='%s' err='%s'", names[t], n, ok, warning, err.msg);
            err = (cs_err){0};
            assert_false(decode(cut, n, true, NULL, &err));
            assert_int_equal(err.code, CS_E_TRUNCATED);
            assert_true(err.offset != CS_NO_OFFSET);
            free(cut);
        }
        free(b.p);
    }
}

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

static void random_byte_flips_never_crash(void **st)
{
    (void)st;
    uint64_t seed = 0x9e3779b97f4a7c15u;
    int rejected = 0, total = 0;
    for (size_t t = 0; t < sizeof names / sizeof *names; t++) {
        blob b = read_trace(names[t]);
        uint8_t *x = malloc(b.n);
        for (int i = 0; i < 3400; i++) {
            memcpy(x, b.p, b.n);
            int flips = 1 + (int)(rng(&seed) % 3);
            for (int k = 0; k < flips; k++)
                x[16 + rng(&seed) % (b.n - 16)] ^= (uint8_t)(1u << (rng(&seed) % 8));
            cs_err err = {0};
            if (!decode(x, b.n, false, NULL, &err)) {
                rejected++;
                assert_true(err.msg[0]);
                assert_true(err.offset != CS_NO_OFFSET || err.code == CS_E_NOMEM);
            }
            total++;
        }
        free(x);
        free(b.p);
    }
    assert_true(rejected > total / 10); /* the flips do reach the validation */
}

/* Traces of three generations (a part ordered ahead on a worker when two
 * threads summarize): cut every stride bytes and flipped, the same
 * outcome on one thread and two, and every cut keeps whole generations
 * with a warning. */
static void cut_and_flipped(const char *name, size_t stride, int flips)
{
    blob b = read_trace(name);
    for (size_t n = 17; n < b.n; n += stride) {
        char warning[200];
        cs_err err = {0};
        uint8_t *cut = malloc(n);
        memcpy(cut, b.p, n);
        if (!decode(cut, n, false, warning, &err) || !warning[0])
            fail_msg("%s cut at %zu: warning='%s' err='%s'", name, n, warning, err.msg);
        free(cut);
    }
    uint64_t seed = 0x2545f4914f6cdd1du;
    uint8_t *x = malloc(b.n);
    for (int i = 0; i < flips; i++) {
        memcpy(x, b.p, b.n);
        x[16 + rng(&seed) % (b.n - 16)] ^= (uint8_t)(1u << (rng(&seed) % 8));
        cs_err err = {0};
        decode(x, b.n, false, NULL, &err);
    }
    free(x);
    free(b.p);
}

static void generations_cut_and_flipped(void **st)
{
    (void)st;
    cut_and_flipped("gens/gens-go1.25", 37, 400);
    cut_and_flipped("gens/gens-gc-go1.25", 499, 150); /* ranges going on across generations */
    cut_and_flipped("gens/gens-go1.27", 149, 200);
    cut_and_flipped("gens/gens-gc-go1.27", 1499, 60);
}

/* Offsets of the batch headers and EndOfGeneration bytes of a wire 1.26
 * trace, in file order, up to cap. */
static size_t batch_starts(const blob *b, size_t *at, size_t cap)
{
    size_t n = 0, off = 16;
    while (off < b->n && n < cap) {
        at[n++] = off;
        if (b->p[off] == 52) { /* EvEndOfGeneration */
            off++;
            continue;
        }
        size_t p = off + 1 + (b->p[off] == 49); /* EvExperimentalBatch has an experiment byte */
        uint64_t v = 0;
        for (int field = 0; field < 4; field++) { /* gen, m, ts, size */
            v = 0;
            for (int sh = 0; p < b->n; sh += 7) {
                v |= (uint64_t)(b->p[p] & 0x7f) << sh;
                if (!(b->p[p++] & 0x80))
                    break;
            }
        }
        off = p + v;
    }
    return n;
}

/* Wire 1.26 with forged end markers: dropping the first one runs two
 * generations together (Go: "generations are interleaved"); one more at
 * any batch boundary splits a generation in two, or ends the trace with
 * an empty one: never a crash, the same outcome on every path, and a
 * rejected file names an offset. */
static void forged_end_markers(void **st)
{
    (void)st;
    blob b = read_trace("gens/gens-go1.27");
    static size_t at[4096];
    size_t n = batch_starts(&b, at, 4096), first = 0;
    while (first < n && b.p[at[first]] != 52)
        first++;
    assert_true(first > 0 && first + 1 < n);
    uint8_t *x = malloc(b.n + 1);
    memcpy(x, b.p, at[first]);
    memcpy(x + at[first], b.p + at[first] + 1, b.n - at[first] - 1);
    cs_err err = {0};
    assert_false(decode(x, b.n - 1, false, NULL, &err));
    assert_int_equal(err.code, CS_E_CORRUPT);
    assert_string_equal(err.msg, "broken trace: missing end-of-generation event, or generations are interleaved");
    int rejected = 0;
    for (size_t i = 0; i <= n; i++) {
        size_t pos = i < n ? at[i] : b.n;
        memcpy(x, b.p, pos);
        x[pos] = 52;
        memcpy(x + pos + 1, b.p + pos, b.n - pos);
        err = (cs_err){0};
        if (!decode(x, b.n + 1, false, NULL, &err)) {
            rejected++;
            assert_true(err.offset != CS_NO_OFFSET || err.code == CS_E_NOMEM);
        }
    }
    assert_true(rejected > 0);
    free(x);
    free(b.p);
}

/* A batch header claiming 2^63 bytes, or a string claiming 2^40, is refused
 * without allocating from the claim. */
static void absurd_sizes_are_rejected(void **st)
{
    (void)st;
    blob b = read_trace(names[0]);
    /* first batch header: type, gen, m, ts, then the 10-byte padded size */
    size_t p = 17;
    for (int field = 0; field < 3; field++)
        while (b.p[p++] & 0x80)
            ;
    static const uint8_t huge[10] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0x00};
    memcpy(b.p + p, huge, sizeof huge);
    cs_err err = {0};
    size_t before = cs_alloc_peak();
    assert_false(decode(b.p, b.n, false, NULL, &err));
    assert_int_equal(err.code, CS_E_CORRUPT);
    assert_true(strstr(err.msg, "invalid batch size") != NULL);
    assert_true(cs_alloc_peak() - before < 64 * b.n + (1u << 20));
    free(b.p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_prefix_keeps_good_part_and_warns),
        cmocka_unit_test(random_byte_flips_never_crash),
        cmocka_unit_test(generations_cut_and_flipped),
        cmocka_unit_test(forged_end_markers),
        cmocka_unit_test(absurd_sizes_are_rejected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
