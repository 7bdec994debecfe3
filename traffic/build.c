/* traffic/build.c — trf_build(): the channel-traffic pass over a
 * finished model (docs/trace-format.md §6–7). Classifies every wake-up edge,
 * then collects messages: exact ones from patched-runtime events and from
 * annotations first, inferred ones from wake-ups after, sorts them by
 * time when they did not come in order, and indexes them by time
 * (blocks.c); for a still picture the edges it does not draw go as their
 * messages are made (trim.c). Called by the CLI and the tests once
 * dec_trace_load() built the model; it may be run again on the same model
 * (it starts from no messages). */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

static int place_cmp(const void *a, const void *b, void *ctx)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    int r = trf__msg_order(ctx, x, y);
    return r ? r : (x > y) - (x < y);
}

static int wide_cmp(const void *a, const void *b)
{
    uint32_t x = ((const cs_msg_wide *)a)->msg, y = ((const cs_msg_wide *)b)->msg;
    return (x > y) - (x < y);
}

/* The entries of msg_wide given the messages' places once sorted (message
 * to[j] goes to place j), and put in their order. */
static bool wide_moved(cs_model *m, const uint32_t *to, uint32_t n, cs_err *err)
{
    if (!m->n_msg_wide)
        return true;
    uint32_t *at = cs_alloc((size_t)m->n_msg_wide * sizeof *at);
    if (!at)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory sorting %u messages", m->n_msg_wide);
    for (uint32_t j = 0; j < n; j++)
        if (cs_msg_is_wide(&m->msgs[to[j]]))
            at[cs_msg_wide_at(m, to[j]) - m->msg_wide] = j;
    for (uint32_t k = 0; k < m->n_msg_wide; k++)
        m->msg_wide[k].msg = at[k];
    cs_free(at);
    qsort(m->msg_wide, m->n_msg_wide, sizeof *m->msg_wide, wide_cmp);
    return true;
}

/* Sorts the messages, ties in the order they were found (exact ones
 * first, then by wake-up): their places are sorted, then the messages,
 * their times in full and their values moved there (cs_permute), their
 * entries in msg_wide renumbered, and the times given to them again in
 * their new order. */
_Static_assert(sizeof(cs_msg) <= CS_PERMUTE_MAX && sizeof(int64_t) <= CS_PERMUTE_MAX, "cs_permute's");

static bool sort_msgs(cs_model *m, cs_err *err)
{
    uint32_t n = m->n_msgs, *to = cs_alloc((size_t)n * sizeof *to + 1);
    int64_t *t = cs_alloc((size_t)n * sizeof *t + 1);
    if (!to || !t) {
        cs_free(to), cs_free(t);
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory sorting %u messages", n);
    }
    for (uint32_t i = 0; i < n; i++)
        to[i] = i, t[i] = cs_msg_t(m, i);
    qsort_r(to, n, sizeof *to, place_cmp, m);
    if (!wide_moved(m, to, n, err)) {
        cs_free(to), cs_free(t);
        return false;
    }
    cs_permute(to, n,
               (cs_permuted[]){{m->msgs, sizeof *m->msgs}, {t, sizeof *t}, {m->msg_value, sizeof *m->msg_value}},
               3);
    cs_free(to);
    cs_free(m->msg_t.wide); /* the wide blocks made again, if any */
    m->msg_t.wide = NULL, m->msg_t.n_wide = m->msg_t.cap_wide = 0;
    bool ok = true;
    for (uint32_t i = 0; ok && i < n; i++)
        ok = cs_msg_t_set(m, i, t[i], err);
    cs_free(t);
    return ok;
}

static bool build(cs_model *m, bool drawn_only, cs_err *err)
{
    if (m->n_edges == 0 || m->n_chans == 0) /* no model was built */
        return true;
    m->n_msgs = 0, m->msg_t.n_wide = 0;
    cs_free(m->msg_value);
    cs_free(m->msg_wide);
    cs_free(m->msg_block);
    m->msg_value = NULL, m->cap_msg_value = 0;
    m->msg_wide = NULL, m->n_msg_wide = m->cap_msg_wide = 0;
    m->msg_block = NULL, m->n_msg_block = 0;
    m->n_chans = 1;
    trf__ctx c = {.m = m, .n_stack = m->n_stack, .drawn_only = drawn_only, .trim_read = 1, .trim_write = 1};
    c.stack_site = cs_alloc((size_t)c.n_stack * sizeof *c.stack_site + 1);
    c.stack_role = cs_alloc((size_t)c.n_stack + 1);
    c.stack_sel_line = cs_alloc((size_t)c.n_stack * sizeof *c.stack_sel_line + 1);
    bool ok = c.stack_site && c.stack_role && c.stack_sel_line;
    if (!ok)
        CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u stacks", c.n_stack);
    else {
        memset(c.stack_site, 0xff, (size_t)c.n_stack * sizeof *c.stack_site);
        memset(c.stack_role, 0xff, c.n_stack);
        memset(c.stack_sel_line, 0xff, (size_t)c.n_stack * sizeof *c.stack_sel_line);
    }
    ok = ok && trf__classify(&c, err) && trf__patched(&c, err) &&
         trf__annot(&c, err) && trf__infer(&c, err);
    cs_free(c.stack_site);
    cs_free(c.stack_role);
    cs_free(c.stack_sel_line);
    cs_map_deinit(&c.site_of);
    cs_map_deinit(&c.by_sites);
    cs_map_deinit(&c.by_close);
    cs_map_deinit(&c.by_id);
    if (ok && c.msgs_unsorted) /* usually sorted already, and their blocks made: edges come in time order */
        ok = sort_msgs(m, err) && trf__msg_blocks(m, err);
    if (ok && drawn_only)
        ok = trf__trim_end(&c, err);
    return ok && trf__sync_blocks(m, err);
}

bool trf_build(cs_model *m, cs_err *err) { return build(m, false, err); }
bool trf_build_drawn(cs_model *m, cs_err *err) { return build(m, true, err); }
