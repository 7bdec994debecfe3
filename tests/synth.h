/* tests/synth.h — small synthetic models built through the real model
 * builder (core/build.h), for layout and export tests that must not depend on
 * a decoder: a ping-pong, a producer feeding workers, and a spawn tree.
 * Messages are added by hand the way the channel inference adds them, in
 * time order.
 *
 * API (static inline; each fills an initialised-by-itself model, free with cs_model_deinit)
 *   void sy_pingpong(cs_model *m, int rounds)
 *   void sy_workers(cs_model *m, int workers, int jobs)
 *   void sy_tree(cs_model *m, int fanout, int depth)   a root and fanout^1..depth descendants
 *   void sy_wall(cs_model *m, int n)   a ticker-driven producer and consumer, n messages over
 *       2.5 s, with three goroutines between their lanes waiting on a mutex throughout
 */
#ifndef TESTS_SYNTH_H
#define TESTS_SYNTH_H

#include "../core/build.h"

#include <assert.h>
#include <string.h>

static inline cs_sid sy_str(cs_model *m, const char *s)
{
    cs_err err = {0};
    return cs_model_intern(m, s, strlen(s), &err);
}

static inline void sy_begin(cs_model *m, cs_mb *mb)
{
    cs_err err = {0};
    cs_model_init(m);
    bool ok = cs_mb_init(mb, m, &err);
    assert(ok);
    (void)ok;
    m->family = CS_FAM_V2;
    m->version = 1025;
}

static inline void sy_go(cs_mb *mb, int64_t t, uint64_t goid, uint64_t parent, const char *fn)
{
    cs_err err = {0};
    bool ok = cs_mb_create(mb, &(cs_mb_create_desc){.t = t, .goid = goid, .parent_goid = parent,
                                                    .name = sy_str(mb->m, fn)}, &err);
    assert(ok);
    (void)ok;
}

static inline void sy_set(cs_mb *mb, int64_t t, uint64_t goid, cs_state st, cs_reason r)
{
    cs_err err = {0};
    bool ok = cs_mb_set(mb, t, goid, st, r, 0, 0, &err);
    assert(ok);
    (void)ok;
}

static inline uint32_t sy_chan(cs_model *m, const char *snd, const char *rcv)
{
    cs_err err = {0};
    bool ok = cs_grow((void **)&m->chans, &m->cap_chans, m->n_chans + 1, sizeof *m->chans, &err);
    assert(ok);
    (void)ok;
    char name[256];
    snprintf(name, sizeof name, "%s \u2192 %s", snd, rcv);
    m->chans[m->n_chans] = (cs_chan){.name = sy_str(m, name), .site_send = sy_str(m, snd),
                                     .site_recv = sy_str(m, rcv)};
    return m->n_chans++;
}

/* Element n of arr (of `size` bytes each, at most 64) to place at, those
 * from at on one place further. */
static inline void sy_move_back(void *arr, size_t size, uint32_t at, uint32_t n)
{
    unsigned char *a = arr, x[64];
    assert(size <= sizeof x);
    memcpy(x, a + (size_t)n * size, size);
    memmove(a + (size_t)(at + 1) * size, a + (size_t)at * size, (size_t)(n - at) * size);
    memcpy(a + (size_t)at * size, x, size);
}

static inline void sy_msg(cs_model *m, int64_t ts, int64_t tr, uint64_t from, uint64_t to,
                          uint32_t chan)
{
    cs_err err = {0};
    uint32_t s = 0, r = 0;
    cs_model_g_find(m, from, &s);
    cs_model_g_find(m, to, &r);
    bool ok = cs_model_msg_add(m, &(cs_msg_in){.t_send = ts, .t_recv = tr, .sender = s, .receiver = r, .chan = chan},
                               0, &err);
    assert(ok);
    (void)ok;
    m->chans[chan].count++;
    /* in its place by time, after its equals, as traffic/ sorts them
     * (core/model.h: messages are sorted by time); the times of those it
     * passes are given again, in index order */
    uint32_t n = m->n_msgs - 1, at = n;
    int64_t t = cs_msg_t(m, n), t_recv = cs_msg_t_recv(m, n);
    while (at > 0 && (cs_msg_t(m, at - 1) > t || (cs_msg_t(m, at - 1) == t && cs_msg_t_recv(m, at - 1) > t_recv)))
        at--;
    if (at == n)
        return;
    int64_t *was = cs_alloc((size_t)(n - at) * sizeof *was);
    assert(was);
    for (uint32_t k = at; k < n; k++)
        was[k - at] = cs_msg_t(m, k);
    sy_move_back(m->msgs, sizeof *m->msgs, at, n);
    uint32_t w = m->n_msg_wide, below = 0; /* entries of those it passes one place on, its own before them */
    bool wide = w && m->msg_wide[w - 1].msg == n;
    for (uint32_t j = 0; j < w - wide; j++)
        below += m->msg_wide[j].msg < at, m->msg_wide[j].msg += m->msg_wide[j].msg >= at;
    if (wide)
        m->msg_wide[w - 1].msg = at, sy_move_back(m->msg_wide, sizeof *m->msg_wide, below, w - 1);
    if (m->msg_value)
        sy_move_back(m->msg_value, sizeof *m->msg_value, at, n);
    ok = cs_msg_t_set(m, at, t, &err);
    for (uint32_t k = at; ok && k < n; k++)
        ok = cs_msg_t_set(m, k + 1, was[k - at], &err);
    cs_free(was);
    assert(ok);
}

static inline void sy_end(cs_model *m, cs_mb *mb, int64_t t_end)
{
    cs_err err = {0};
    bool ok = cs_mb_finish(mb, t_end, &err);
    assert(ok);
    (void)ok;
    cs_mb_deinit(mb);
    m->t_first = 0;
    m->t_last = t_end;
}

/* main (G1) starts G2 "main.player" and G3 "main.player"; a ball goes back
 * and forth `rounds` times, 10 µs per hit; each waits blocked on receive. */
static inline void sy_pingpong(cs_model *m, int rounds)
{
    cs_mb mb;
    sy_begin(m, &mb);
    sy_go(&mb, 0, 1, CS_NO_GOID, "main.main");
    sy_set(&mb, 100, 1, CS_ST_RUNNING, 0);
    sy_go(&mb, 1000, 2, 1, "main.player");
    sy_go(&mb, 1500, 3, 1, "main.player");
    sy_set(&mb, 2000, 1, CS_ST_BLOCKED, CS_R_SLEEP);
    uint32_t ch = sy_chan(m, "main.player:23", "main.player:18");
    int64_t t = 3000;
    for (int i = 0; i < rounds; i++) {
        uint64_t a = 2 + (i & 1), b = 3 - (i & 1);
        sy_set(&mb, t, a, CS_ST_RUNNING, 0);
        sy_set(&mb, t + 4000, a, CS_ST_BLOCKED, CS_R_CHAN_RECV);
        sy_msg(m, t + 4000, t + 4000, a, b, ch);
        t += 10000;
    }
    sy_set(&mb, t + 1000, 1, CS_ST_RUNNING, 0);
    sy_set(&mb, t + 2000, 2, CS_ST_NONE, 0);
    sy_set(&mb, t + 2000, 3, CS_ST_NONE, 0);
    sy_end(m, &mb, t + 3000);
}

/* main (G1) produces `jobs` jobs for `workers` workers (G2..); a second
 * channel carries the results back. */
static inline void sy_workers(cs_model *m, int workers, int jobs)
{
    cs_mb mb;
    sy_begin(m, &mb);
    sy_go(&mb, 0, 1, CS_NO_GOID, "main.main");
    sy_set(&mb, 10, 1, CS_ST_RUNNING, 0);
    for (int w = 0; w < workers; w++) {
        sy_go(&mb, 100 + 100 * w, 2 + (uint64_t)w, 1, "example.com/pool/work.worker");
        sy_set(&mb, 2000 + 100 * w, 2 + (uint64_t)w, CS_ST_BLOCKED, CS_R_CHAN_RECV);
    }
    uint32_t jc = sy_chan(m, "main.main:30", "work.worker:12"), rc = sy_chan(m, "work.worker:15", "main.main:35");
    int64_t t = 5000;
    for (int j = 0; j < jobs; j++) {
        uint64_t w = 2 + (uint64_t)(j % workers);
        sy_msg(m, t, t + 200, 1, w, jc);
        sy_set(&mb, t + 200, w, CS_ST_RUNNING, 0);
        sy_set(&mb, t + 3000, w, CS_ST_BLOCKED, CS_R_CHAN_SEND);
        sy_msg(m, t + 3000, t + 3500, w, 1, rc);
        sy_set(&mb, t + 3500, w, CS_ST_BLOCKED, CS_R_CHAN_RECV);
        t += 1000;
    }
    for (int w = 0; w < workers; w++)
        sy_set(&mb, t + 5000, 2 + (uint64_t)w, CS_ST_NONE, 0);
    sy_end(m, &mb, t + 6000);
}

/* A root spawns `fanout` children, each of which spawns `fanout`, `depth`
 * levels deep; every goroutine runs 1 µs and ends. */
static inline void sy_tree(cs_model *m, int fanout, int depth)
{
    cs_mb mb;
    sy_begin(m, &mb);
    sy_go(&mb, 0, 1, CS_NO_GOID, "main.main");
    sy_set(&mb, 10, 1, CS_ST_RUNNING, 0);
    uint64_t next = 2, level_first = 1, level_n = 1;
    int64_t t = 100;
    for (int d = 0; d < depth; d++) {
        uint64_t first = next;
        for (uint64_t p = level_first; p < level_first + level_n; p++)
            for (int c = 0; c < fanout; c++, t += 50) {
                sy_go(&mb, t, next, p, d ? "main.leaf" : "main.branch");
                sy_set(&mb, t + 20, next, CS_ST_RUNNING, 0);
                sy_set(&mb, t + 1020, next, CS_ST_NONE, 0);
                next++;
            }
        level_first = first;
        level_n *= (uint64_t)fanout;
    }
    sy_end(m, &mb, t + 2000);
}

/* main (G1) starts a producer (G2), three goroutines that wait on a mutex
 * the whole time (G3..G5, "main.idle") and a consumer (G6), in that order,
 * so the lanes view puts the idle ones between producer and consumer; the
 * producer sends `n` messages spread over 2.5 s. At overview zoom every
 * message is a near-vertical arrow across the idle lanes. */
static inline void sy_wall(cs_model *m, int n)
{
    cs_mb mb;
    sy_begin(m, &mb);
    sy_go(&mb, 0, 1, CS_NO_GOID, "main.main");
    sy_set(&mb, 10, 1, CS_ST_RUNNING, 0);
    static const char *const fn[] = {"main.producer", "main.idle", "main.idle", "main.idle", "main.consumer"};
    static const cs_reason wait[] = {CS_R_SLEEP, CS_R_SYNC, CS_R_SYNC, CS_R_SYNC, CS_R_CHAN_RECV};
    for (uint64_t i = 0; i < 5; i++) {
        int64_t t = 1000 * (int64_t)(i + 1);
        sy_go(&mb, t, 2 + i, 1, fn[i]);
        sy_set(&mb, t + 100, 2 + i, CS_ST_RUNNING, 0);
        sy_set(&mb, t + 200, 2 + i, CS_ST_BLOCKED, wait[i]);
    }
    sy_set(&mb, 6000, 1, CS_ST_BLOCKED, CS_R_SLEEP);
    uint32_t ch = sy_chan(m, "main.producer:12", "main.consumer:20");
    int64_t step = 2500000000 / (n > 0 ? n : 1), t = 10000;
    for (int i = 0; i < n; i++, t += step) {
        sy_set(&mb, t, 2, CS_ST_RUNNING, 0);
        sy_set(&mb, t + 600, 2, CS_ST_BLOCKED, CS_R_SLEEP);
        sy_set(&mb, t + 700, 6, CS_ST_RUNNING, 0);
        sy_set(&mb, t + 900, 6, CS_ST_BLOCKED, CS_R_CHAN_RECV);
        sy_msg(m, t + 500, t + 700, 2, 6, ch);
    }
    sy_end(m, &mb, t + 1000);
}

#endif
