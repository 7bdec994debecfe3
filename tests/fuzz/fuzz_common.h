/* tests/fuzz/fuzz_common.h — what the libFuzzer harnesses share: running the
 * whole pipeline (decode -> model -> channel traffic -> layout) on a buffer,
 * with the header chosen from the first input byte so the fuzzer spends its
 * time inside a decoder instead of on the 16-byte header; and the same
 * input decoded on one thread and on two, which must agree exactly.
 *
 * API (static)
 *   void fz_run(const uint8_t *data, size_t size)       whole file as given
 *   void fz_run_with(const uint8_t *data, size_t size, void (*then)(const cs_model *))
 *       the same, then `then` on the model when the trace decoded
 *   void fz_run_family(const uint8_t *data, size_t size, const int *versions, int n)
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stdlib.h>
#include <string.h>

#include "../../core/cs.h"
#include "../../core/file.h"
#include "../../core/model.h"
#include "../../core/stats.h"
#include "../../decode/decode.h"
#include "../../traffic/traffic.h"

static inline bool fz_on_event(void *ud, const dec_event *ev, cs_err *err)
{
    (void)err;
    *(uint64_t *)ud += ev->ts ^ ev->g ^ ev->nargs; /* touch every field we hand out */
    if (ev->sarg && ev->sarg_len)
        *(uint64_t *)ud += (uint8_t)ev->sarg[ev->sarg_len - 1];
    return true;
}

static inline void fz_run_with(const uint8_t *data, size_t size, void (*then)(const cs_model *))
{
    cs_file f = {.data = size ? data : NULL, .size = size, .path = "fuzz"};
    cs_model m;
    cs_stats s;
    cs_err err = {0};
    uint64_t sink = 0;
    cs_model_init(&m);
    memset(&s, 0, sizeof s);
    dec_desc d = {.path = "fuzz", .jobs = 1, .on_event = fz_on_event, .event_ud = &sink};
    bool ok = dec_trace_load(&d, &f, &m, &s, &err) && trf_build(&m, &err);
    if (!ok && (err.code == CS_OK || !err.msg[0]))
        abort(); /* a failure must always say what is wrong */
    else if (then && err.code == CS_OK)
        then(&m);
    cs_model_deinit(&m);
    cs_stats_deinit(&s);
}

typedef struct fz_out { bool ok; cs_err err; cs_model m; cs_stats s; } fz_out;

/* stats_only: no model (the 1.22+ hot path emits inline); general: no hot path;
 * cut: dec_desc.cut */
static inline void fz_decode(cs_file *f, int jobs, bool stats_only, bool general, uint64_t cut, fz_out *o)
{
    memset(o, 0, sizeof *o);
    cs_model_init(&o->m);
    dec_desc d = {.path = "fuzz", .jobs = jobs, .split_min = 1, .cut = cut, .no_model = stats_only, .no_hot = general};
    o->ok = dec_trace_load(&d, f, &o->m, &o->s, &o->err);
}

/* The same events, wake-ups and statistics, or the same error; frees both. */
static inline void fz_same(fz_out *a, fz_out *b)
{
    bool same = a->ok == b->ok && a->err.code == b->err.code && a->err.offset == b->err.offset &&
                !strcmp(a->err.msg, b->err.msg) && a->m.n_events == b->m.n_events &&
                a->m.n_edges == b->m.n_edges && a->s.n == b->s.n && a->s.n_kv == b->s.n_kv;
    for (uint32_t i = 1; same && i < a->m.n_edges; i++)
        same = cs_edge_ts(&a->m, i) == cs_edge_ts(&b->m, i) && a->m.edges[i].to == b->m.edges[i].to;
    for (uint32_t i = 0; same && i < a->s.n; i++) {
        const cs_gstat *x = &a->s.g[i], *y = &b->s.g[i];
        same = x->goid == y->goid && x->start == y->start && x->end == y->end && x->exec == y->exec &&
               x->sched_wait == y->sched_wait && x->block == y->block && x->syscall == y->syscall &&
               x->syscall_block == y->syscall_block && x->total == y->total;
    }
    for (uint32_t i = 0; same && i < a->s.n_kv; i++)
        same = a->s.kv[i].ns == b->s.kv[i].ns;
    if (!same)
        abort();
    cs_model_deinit(&a->m), cs_stats_deinit(&a->s);
    cs_model_deinit(&b->m), cs_stats_deinit(&b->s);
}

/* One thread and two (legacy pass 1 split whatever the size) agree, and so
 * do statistics alone with the hot path and without, and on one thread
 * and two or three, the second part also cut where the input says. */
static inline void fz_threads_agree(const uint8_t *data, size_t size)
{
    cs_file f = {.data = size ? data : NULL, .size = size, .path = "fuzz"};
    fz_out a, b;
    fz_decode(&f, 1, false, false, 0, &a);
    fz_decode(&f, 2, false, false, 0, &b);
    fz_same(&a, &b);
    fz_decode(&f, 1, true, false, 0, &a);
    fz_decode(&f, 1, true, true, 0, &b);
    fz_same(&a, &b);
    fz_decode(&f, 1, true, false, 0, &a);
    fz_decode(&f, 2, true, false, 0, &b); /* 1.22+: a part ahead on a worker */
    fz_same(&a, &b);
    fz_decode(&f, 1, true, false, 0, &a);
    fz_decode(&f, 3, true, false, 0, &b); /* ... two, cut elsewhere */
    fz_same(&a, &b);
    uint64_t h = 0; /* a part ahead from a cut the input picks */
    for (size_t i = 0; i < size && i < 64; i++)
        h = h * 31 + data[i];
    fz_decode(&f, 1, true, false, 0, &a);
    fz_decode(&f, 2, true, false, size ? 1 + h % size : 0, &b);
    fz_same(&a, &b);
}

static inline void fz_run(const uint8_t *data, size_t size)
{
    fz_run_with(data, size, NULL);
    fz_threads_agree(data, size);
}

static inline void fz_run_family(const uint8_t *data, size_t size, const int *versions, int n)
{
    if (size < 1)
        return;
    int v = versions[data[0] % n];
    uint8_t *buf = malloc(size - 1 + 16);
    if (!buf)
        return;
    memset(buf, 0, 16);
    int len = v % 1000 >= 10 ? 13 : 12;
    memcpy(buf, "go 1.", 5);
    if (v % 1000 >= 10) {
        buf[5] = (uint8_t)('0' + v % 1000 / 10);
        buf[6] = (uint8_t)('0' + v % 10);
    } else {
        buf[5] = (uint8_t)('0' + v % 10);
    }
    memcpy(buf + len - 6, " trace", 6);
    memcpy(buf + 16, data + 1, size - 1);
    fz_run(buf, size - 1 + 16);
    free(buf);
}

#endif
