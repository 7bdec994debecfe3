/* core/build.c — the model builder of build.h. Spans are appended in event
 * order with their goroutine beside them and grouped per goroutine by a
 * counting sort in cs_mb_finish(), so the hot path is an append. A span's
 * end is kept only when its goroutine's next span does not begin there
 * (model.h: far ends); its start in 32 bits over a base per block of spans,
 * in event order while building (the block's first end less 2^31 ns: the
 * spans that close together mostly started within 2 s of each other), over
 * the block's earliest start once grouped (model.h: wide starts). */
#include "build.h"

#include <string.h>

bool cs_mb_init(cs_mb *mb, cs_model *m, cs_err *err)
{
    memset(mb, 0, sizeof *mb);
    mb->m = m;
    /* index 0 of goroutines and edges means "none" */
    if (!cs_grow((void **)&m->g, &m->cap_g, 1, sizeof *m->g, err) ||
        !cs_grow((void **)&m->edges, &m->cap_edges, 1, sizeof *m->edges, err) ||
        !cs_grow((void **)&m->chans, &m->cap_chans, 1, sizeof *m->chans, err) ||
        !cs_grow((void **)&mb->cur, &mb->cap_cur, 1, sizeof *mb->cur, err))
        return false;
    memset(&m->g[0], 0, sizeof m->g[0]);
    memset(&m->edges[0], 0, sizeof m->edges[0]);
    memset(&m->chans[0], 0, sizeof m->chans[0]);
    m->n_g = m->n_edges = m->n_chans = 1;
    return cs_model_intern(m, "", 0, err) == 0 && err->code == CS_OK;
}

void cs_mb_deinit(cs_mb *mb)
{
    cs_free(mb->cur);
    cs_free(mb->span_g);
    cs_free(mb->far);
    cs_free(mb->t0_base);
    cs_free(mb->wide);
    memset(mb, 0, sizeof *mb);
}

bool cs_mb_copy(const cs_mb *mb, cs_model *m, cs_mb *out, cs_err *err)
{
    memset(out, 0, sizeof *out);
    out->m = m;
    uint32_t n_g = mb->m->n_g, n_span = mb->m->n_span;
    uint32_t n_base = (uint32_t)(((uint64_t)n_span + CS_T0_BLOCK - 1) >> CS_T0_BLOCK_BITS); /* t0_put's */
    if (!cs_grow((void **)&out->cur, &out->cap_cur, n_g, sizeof *out->cur, err) ||
        !cs_grow((void **)&out->span_g, &out->cap_span_g, n_span, sizeof *out->span_g, err) ||
        !cs_grow((void **)&out->far, &out->cap_far, mb->n_far, sizeof *out->far, err) ||
        !cs_grow((void **)&out->t0_base, &out->cap_t0_base, n_base, sizeof *out->t0_base, err) ||
        !cs_grow((void **)&out->wide, &out->cap_wide, mb->n_wide, sizeof *out->wide, err)) {
        cs_mb_deinit(out);
        return false;
    }
    memcpy(out->cur, mb->cur, (size_t)n_g * sizeof *out->cur);
    if (n_span)
        memcpy(out->span_g, mb->span_g, (size_t)n_span * sizeof *out->span_g);
    if (mb->n_far)
        memcpy(out->far, mb->far, (size_t)mb->n_far * sizeof *out->far);
    if (n_base)
        memcpy(out->t0_base, mb->t0_base, (size_t)n_base * sizeof *out->t0_base);
    if (mb->n_wide)
        memcpy(out->wide, mb->wide, (size_t)mb->n_wide * sizeof *out->wide);
    out->n_far = mb->n_far, out->n_wide = mb->n_wide;
    return true;
}

uint32_t cs_mb_g(cs_mb *mb, uint64_t goid, cs_err *err)
{
    cs_model *m = mb->m;
    cs_mb_recent *r = &mb->recent[goid & (CS_MB_RECENT - 1)];
    if (r->idx && r->goid == goid)
        return r->idx;
    uint32_t i;
    if (cs_map_get(&m->g_index, goid, &i)) {
        *r = (cs_mb_recent){.goid = goid, .idx = i};
        return i;
    }
    if (!cs_grow((void **)&m->g, &m->cap_g, m->n_g + 1, sizeof *m->g, err) ||
        !cs_grow((void **)&mb->cur, &mb->cap_cur, m->n_g + 1, sizeof *mb->cur, err))
        return 0;
    i = m->n_g;
    if (!cs_map_put(&m->g_index, goid, i, err))
        return 0;
    m->n_g++;
    *r = (cs_mb_recent){.goid = goid, .idx = i};
    m->g[i] = (cs_goroutine){.goid = goid, .create_ns = CS_T_NONE, .start_ns = CS_T_NONE,
                             .end_ns = CS_T_NONE};
    mb->cur[i] = (cs_mb_cur){.t0 = CS_T_NONE, .block_ts = CS_T_NONE};
    return i;
}

static bool far_add(cs_mb *mb, uint32_t span, int64_t t1, cs_err *err)
{
    if (!cs_grow((void **)&mb->far, &mb->cap_far, mb->n_far + 1, sizeof *mb->far, err))
        return false;
    mb->far[mb->n_far++] = (cs_mb_far){.t1 = t1, .span = span};
    return true;
}

/* A wide block of CS_T0_BLOCK starts in *wide (grown), its base from
 * *base; the first `have` of them copied from col. */
static bool widen(const uint32_t *col, int64_t *base, int64_t **wide, uint32_t *n_wide, uint32_t *cap_wide,
                  uint32_t b, uint32_t have, cs_err *err)
{
    if (!cs_grow((void **)wide, cap_wide, *n_wide + CS_T0_BLOCK, sizeof **wide, err))
        return false;
    for (uint32_t i = 0; i < have; i++)
        (*wide)[*n_wide + i] = cs_t0_at(col, base, *wide, (b << CS_T0_BLOCK_BITS) + i);
    base[b] = CS_T0_WIDE + *n_wide;
    *n_wide += CS_T0_BLOCK;
    return true;
}

/* Span n's start t0, as it closes at t (build.c's top). */
static bool t0_put(cs_mb *mb, uint32_t n, int64_t t0, int64_t t, cs_err *err)
{
    uint32_t b = n >> CS_T0_BLOCK_BITS, i = n & (CS_T0_BLOCK - 1);
    if (!i) {
        if (!cs_grow((void **)&mb->t0_base, &mb->cap_t0_base, b + 1, sizeof *mb->t0_base, err))
            return false;
        mb->t0_base[b] = t - ((int64_t)1 << 31);
    }
    uint64_t o = (uint64_t)(t0 - mb->t0_base[b]); /* times lie within ±CS_T_MAX: no overflow */
    if (mb->t0_base[b] < CS_T0_WIDE && o <= UINT32_MAX) {
        mb->m->span_t0[n] = (uint32_t)o;
        return true;
    }
    if (mb->t0_base[b] < CS_T0_WIDE &&
        !widen(mb->m->span_t0, mb->t0_base, &mb->wide, &mb->n_wide, &mb->cap_wide, b, i, err))
        return false;
    mb->wide[mb->t0_base[b] - CS_T0_WIDE + i] = t0;
    return true;
}

static bool span_close(cs_mb *mb, uint32_t gi, int64_t t, cs_err *err)
{
    cs_model *m = mb->m;
    cs_mb_cur *c = &mb->cur[gi];
    if (c->state == CS_ST_NONE || c->t0 == CS_T_NONE || t <= c->t0)
        return true;
    if (c->last_span && c->last_t1 != c->t0 && !far_add(mb, c->last_span - 1, c->last_t1, err))
        return false;
    uint32_t n = m->n_span, cap = m->cap_span;
    if (n + 1 > cap) {
        uint32_t c0 = cap, c2 = cap, c3 = cap;
        if (!cs_grow((void **)&m->span_t0, &c0, n + 1, sizeof *m->span_t0, err) ||
            !cs_grow((void **)&m->span_state, &c2, n + 1, 1, err) ||
            !cs_grow((void **)&m->span_reason, &c3, n + 1, 1, err) ||
            !cs_grow((void **)&mb->span_g, &mb->cap_span_g, n + 1, sizeof *mb->span_g, err))
            return false;
        m->cap_span = c0;
    }
    if (!t0_put(mb, n, c->t0, t, err))
        return false;
    m->span_state[n] = c->state;
    m->span_reason[n] = c->reason;
    mb->span_g[n] = gi;
    m->n_span = n + 1;
    c->last_t1 = t;
    c->last_span = n + 1;
    return true;
}

static bool set_idx(cs_mb *mb, int64_t t, uint32_t gi, cs_state st, cs_reason r,
                    cs_sid reason_name, uint32_t stack, cs_err *err)
{
    cs_model *m = mb->m;
    cs_mb_cur *c = &mb->cur[gi];
    if (!span_close(mb, gi, t, err))
        return false;
    c->state = (uint8_t)st;
    c->reason = (uint8_t)r;
    c->t0 = t;
    if (st == CS_ST_BLOCKED) {
        c->block_ts = t;
        c->block_stack = stack;
        c->reason_name = reason_name;
    }
    cs_goroutine *g = &m->g[gi];
    if (st == CS_ST_RUNNING && g->start_ns == CS_T_NONE)
        g->start_ns = t;
    if (st == CS_ST_NONE) {
        g->end_ns = t;
        g->flags |= CS_G_ENDED;
    }
    if (g->create_ns == CS_T_NONE) { /* first seen without a creation event */
        g->create_ns = t;
        g->flags |= CS_G_AT_START;
    }
    return true;
}

bool cs_mb_create(cs_mb *mb, const cs_mb_create_desc *d, cs_err *err)
{
    uint32_t gi = cs_mb_g(mb, d->goid, err);
    if (!gi)
        return false;
    uint32_t parent = 0;
    if (d->parent_goid != CS_NO_GOID && !cs_map_get(&mb->m->g_index, d->parent_goid, &parent))
        parent = 0;
    cs_goroutine *g = &mb->m->g[gi];
    g->create_ns = d->t;
    g->parent = parent;
    if (d->pc)
        g->pc = d->pc;
    if (d->name)
        g->name = d->name;
    if (d->at_start)
        g->flags |= CS_G_AT_START;
    cs_state st = d->state ? d->state : CS_ST_RUNNABLE;
    mb->cur[gi].block_ts = st == CS_ST_BLOCKED ? CS_T_NONE : mb->cur[gi].block_ts;
    if (!set_idx(mb, d->t, gi, st, d->reason, 0, 0, err))
        return false;
    if (st == CS_ST_BLOCKED && d->at_start)
        mb->cur[gi].block_ts = CS_T_NONE; /* it was waiting before the trace began */
    return true;
}

bool cs_mb_set(cs_mb *mb, int64_t t, uint64_t goid, cs_state st, cs_reason r,
               cs_sid reason_name, uint32_t stack, cs_err *err)
{
    uint32_t gi = cs_mb_g(mb, goid, err);
    return gi && set_idx(mb, t, gi, st, r, reason_name, stack, err);
}

bool cs_mb_unblock(cs_mb *mb, int64_t t, uint64_t from_goid, uint64_t to_goid,
                   uint32_t stack, cs_err *err)
{
    cs_model *m = mb->m;
    uint32_t to = cs_mb_g(mb, to_goid, err);
    if (!to)
        return false;
    uint32_t from = 0;
    if (from_goid != CS_NO_GOID && !(from = cs_mb_g(mb, from_goid, err)))
        return false;
    if (!cs_grow((void **)&m->edges, &m->cap_edges, m->n_edges + 1, sizeof *m->edges, err))
        return false;
    const cs_mb_cur *c = &mb->cur[to];
    m->edges[m->n_edges++] = (cs_edge){
        .ts = t, .from = from, .to = to, .stack = stack, .block_stack = c->block_stack,
        .reason_name = c->reason_name, .reason = c->reason,
        .flags = c->block_ts == CS_T_NONE ? CS_EF_WAIT_BEFORE : 0};
    if (!set_idx(mb, t, to, CS_ST_RUNNABLE, CS_R_NONE, 0, 0, err))
        return false;
    mb->cur[to].block_ts = CS_T_NONE;
    mb->cur[to].block_stack = 0;
    mb->cur[to].reason_name = 0;
    return true;
}

bool cs_mb_name(cs_mb *mb, uint64_t goid, uint64_t pc, cs_sid name, cs_err *err)
{
    uint32_t gi = cs_mb_g(mb, goid, err);
    if (!gi)
        return false;
    cs_goroutine *g = &mb->m->g[gi];
    if (!g->name && name) {
        g->name = name;
        g->pc = pc;
    }
    return true;
}

/* A runtime goroutine: runtime.* but runtime.main, or one without a name
 * in a trace that names goroutines (a Go 1.5 trace carries PCs only and
 * names none: then nothing tells them apart, and all are the user's). */
static bool is_system(const char *name, bool named)
{
    return (name[0] == 0 && named) ||
           (strncmp(name, "runtime.", 8) == 0 && strcmp(name, "runtime.main") != 0);
}

/* Spans moved between two gives of the source's pages back (regroup). */
#define REGROUP_STEP 65536u

/* Moves byte column `col` to its grouped order, d[s] being where span s
 * goes: one column copied at a time, and the source's pages given back as
 * it is read, while the destination's fill at the same pace (each
 * goroutine's spans are written in order), so grouping needs room for
 * little more than one column. */
static bool regroup(uint8_t **col, const uint32_t *d, uint32_t n, cs_err *err)
{
    uint8_t *src = *col, *dst = cs_alloc((size_t)n + 1);
    if (!dst)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory grouping %u spans", n);
    for (uint32_t s0 = 0; s0 < n; s0 += REGROUP_STEP) {
        uint32_t s1 = n - s0 > REGROUP_STEP ? s0 + REGROUP_STEP : n;
        for (uint32_t s = s0; s < s1; s++)
            dst[d[s]] = src[s];
        cs_release(src, s1);
    }
    cs_free(src);
    *col = dst;
    return true;
}

/* The starts in grouped order, d[s] being where span s goes: each block's
 * base the earliest of its starts, or wide when they lie 2^32 ns apart or
 * more (model.h). Like regroup, the source's pages go back as it is read. */
static bool group_t0(cs_mb *mb, const uint32_t *d, uint32_t n, cs_err *err)
{
    cs_model *m = mb->m;
    uint32_t nb = (n >> CS_T0_BLOCK_BITS) + 1, n_wide = 0;
    int64_t *base = cs_alloc((size_t)nb * sizeof *base), *top = cs_alloc((size_t)nb * sizeof *top), *wide = NULL;
    uint32_t *dst = cs_alloc((size_t)n * sizeof *dst + 1);
    bool ok = base && top && dst;
    for (uint32_t b = 0; ok && b < nb; b++)
        base[b] = INT64_MAX, top[b] = INT64_MIN;
    for (uint32_t s = 0; ok && s < n; s++) {
        int64_t t = cs_t0_at(m->span_t0, mb->t0_base, mb->wide, s);
        uint32_t b = d[s] >> CS_T0_BLOCK_BITS;
        base[b] = t < base[b] ? t : base[b], top[b] = t > top[b] ? t : top[b];
    }
    for (uint32_t b = 0; ok && b < nb; b++)
        if (top[b] == INT64_MIN) /* the block after the last span */
            base[b] = 0;
        else if ((uint64_t)(top[b] - base[b]) > UINT32_MAX)
            base[b] = CS_T0_WIDE + n_wide, n_wide += CS_T0_BLOCK;
    wide = ok ? cs_alloc((size_t)n_wide * sizeof *wide + 1) : NULL;
    if (!(ok = ok && wide)) {
        cs_free(base), cs_free(top), cs_free(dst), cs_free(wide);
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory grouping %u spans", n);
    }
    for (uint32_t s0 = 0; s0 < n; s0 += REGROUP_STEP) {
        uint32_t s1 = n - s0 > REGROUP_STEP ? s0 + REGROUP_STEP : n;
        for (uint32_t s = s0; s < s1; s++) {
            int64_t t = cs_t0_at(m->span_t0, mb->t0_base, mb->wide, s), b = base[d[s] >> CS_T0_BLOCK_BITS];
            if (b < CS_T0_WIDE)
                dst[d[s]] = (uint32_t)(t - b);
            else
                wide[b - CS_T0_WIDE + (d[s] & (CS_T0_BLOCK - 1))] = t;
        }
        cs_release(m->span_t0, (size_t)s1 * sizeof *m->span_t0);
    }
    cs_free(top), cs_free(m->span_t0), cs_free(mb->t0_base), cs_free(mb->wide);
    mb->t0_base = mb->wide = NULL, mb->cap_t0_base = mb->cap_wide = mb->n_wide = 0;
    m->span_t0 = dst, m->span_t0_base = base, m->span_wide_t0 = wide, m->n_wide = n_wide;
    return true;
}

/* The far ends in grouped order: their bits, the ranks, the ends. */
static bool far_ends(cs_mb *mb, cs_err *err)
{
    cs_model *m = mb->m;
    uint32_t words = m->n_span / 64 + 1;
    m->span_far = cs_calloc(words, sizeof *m->span_far);
    m->span_far_rank = cs_alloc((size_t)words * sizeof *m->span_far_rank);
    m->span_far_t1 = cs_alloc((size_t)mb->n_far * sizeof *m->span_far_t1 + 1);
    if (!m->span_far || !m->span_far_rank || !m->span_far_t1)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u span ends", mb->n_far);
    for (uint32_t i = 0; i < mb->n_far; i++) {
        uint32_t s = mb->span_g[mb->far[i].span];
        m->span_far[s >> 6] |= UINT64_C(1) << (s & 63);
    }
    uint32_t acc = 0;
    for (uint32_t w = 0; w < words; w++) {
        m->span_far_rank[w] = acc;
        acc += (uint32_t)__builtin_popcountll(m->span_far[w]);
    }
    for (uint32_t i = 0; i < mb->n_far; i++)
        m->span_far_t1[cs_span_far_at(m, mb->span_g[mb->far[i].span])] = mb->far[i].t1;
    m->n_far = mb->n_far;
    return true;
}

/* Counting sort of spans by goroutine, stable, so each goroutine's spans stay
 * in time order. span_g becomes each span's place. */
static bool group_spans(cs_mb *mb, cs_err *err)
{
    cs_model *m = mb->m;
    uint32_t n = m->n_span;
    for (uint32_t i = 0; i < m->n_g; i++)
        m->g[i].span_count = 0;
    for (uint32_t s = 0; s < n; s++)
        m->g[mb->span_g[s]].span_count++;
    uint32_t acc = 0;
    for (uint32_t i = 0; i < m->n_g; i++) {
        m->g[i].span_first = acc;
        acc += m->g[i].span_count;
    }
    uint32_t *fill = cs_calloc(m->n_g, sizeof *fill);
    if (!fill)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory grouping %u spans", n);
    for (uint32_t s = 0; s < n; s++) {
        uint32_t gi = mb->span_g[s];
        mb->span_g[s] = m->g[gi].span_first + fill[gi]++;
    }
    cs_free(fill);
    if (!group_t0(mb, mb->span_g, n, err) ||
        !regroup(&m->span_state, mb->span_g, n, err) || !regroup(&m->span_reason, mb->span_g, n, err))
        return false;
    m->cap_span = n;
    return far_ends(mb, err);
}

bool cs_mb_finish(cs_mb *mb, int64_t t_end, cs_err *err)
{
    cs_model *m = mb->m;
    for (uint32_t i = 1; i < m->n_g; i++)
        if (!span_close(mb, i, t_end, err))
            return false;
    for (uint32_t i = 1; i < m->n_g; i++) /* a goroutine's last span is far */
        if (mb->cur[i].last_span && !far_add(mb, mb->cur[i].last_span - 1, mb->cur[i].last_t1, err))
            return false;
    if (!group_spans(mb, err))
        return false;
    bool named = false;
    for (uint32_t i = 1; i < m->n_g && !named; i++)
        named = cs_model_str(m, m->g[i].name)[0] != 0;
    for (uint32_t i = 1; i < m->n_g; i++)
        if (is_system(cs_model_str(m, m->g[i].name), named))
            m->g[i].flags |= CS_G_SYSTEM;
    return true;
}
