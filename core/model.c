/* core/model.c — storage of the model: strings, stacks, goroutine lookup,
 * the wake-ups' times and the messages in their compact forms, and the
 * names of its enums. Filling spans and edges is build.c's job. */
#include "model.h"

#include <assert.h>
#include <string.h>
#include <xxhash.h>

_Static_assert(sizeof(cs_goroutine) == 48, "a goroutine is kept for every one the trace had (model.h Sizes)");

void cs_model_init(cs_model *m)
{
    memset(m, 0, sizeof *m);
    m->t_first = m->t_last = CS_T_NONE;
}

/* Every table the model allocates: X(field, elements filled, elements
 * allocated), for m; SPAN_TABLES are the spans'. The span ends and the starts' bases exist once the
 * model is finished (cs_mb_finish): n_span / 64 + 1 words of bits and
 * ranks, a base per CS_T0_BLOCK spans. */
#define FAR_WORDS(m) ((m)->span_far ? (m)->n_span / 64 + 1 : 0)
#define T0_BLOCKS(m) ((m)->span_t0_base ? ((m)->n_span >> CS_T0_BLOCK_BITS) + 1 : 0)
#define EDGE_BLOCKS(m) ((m)->n_edges > 1 ? (((m)->n_edges - 1) >> CS_T0_BLOCK_BITS) + 1 : 0)
#define MSG_BLOCKS(m) ((m)->n_msgs ? (((m)->n_msgs - 1) >> CS_T0_BLOCK_BITS) + 1 : 0)
#define SPAN_TABLES(X, m)                                                                  \
    X(span_t0, (m)->n_span, (m)->cap_span)                                                 \
    X(span_t0_base, T0_BLOCKS(m), T0_BLOCKS(m))                                            \
    X(span_wide_t0, (m)->n_wide, (m)->n_wide)                                              \
    X(span_state_reason, (m)->n_span, (m)->cap_span)                                       \
    X(span_far, FAR_WORDS(m), FAR_WORDS(m))                                                \
    X(span_far_rank, FAR_WORDS(m), FAR_WORDS(m))                                           \
    X(span_far_t1, (m)->span_far ? (m)->n_far : 0, (m)->span_far ? (m)->n_far : 0)
#define MODEL_TABLES(X, m)                                                                 \
    X(str_bytes, (m)->len_bytes, (m)->cap_bytes)                                           \
    X(str_off, (m)->n_str ? (m)->n_str + 1 : 0, (m)->cap_str)                              \
    X(frames, (m)->n_frames, (m)->cap_frames)                                              \
    X(stack_first, (m)->n_stack ? (m)->n_stack + 1 : 0, (m)->cap_stack)                    \
    X(g, (m)->n_g, (m)->cap_g)                                                             \
    SPAN_TABLES(X, m)                                                                      \
    X(edges, (m)->n_edges, (m)->cap_edges)                                                 \
    X(edge_t.base, EDGE_BLOCKS(m), (m)->edge_t.cap_base)                                   \
    X(edge_t.wide, (m)->edge_t.n_wide, (m)->edge_t.cap_wide)                               \
    X(wsites, (m)->n_wsites, (m)->cap_wsites)                                              \
    X(msgs, (m)->n_msgs, (m)->cap_msgs)                                                    \
    X(msg_t.base, MSG_BLOCKS(m), (m)->msg_t.cap_base)                                      \
    X(msg_t.wide, (m)->msg_t.n_wide, (m)->msg_t.cap_wide)                                  \
    X(msg_value, (m)->msg_value ? (m)->n_msgs : 0, (m)->msg_value ? (m)->cap_msg_value : 0) \
    X(msg_wide, (m)->n_msg_wide, (m)->cap_msg_wide)                                       \
    X(chans, (m)->n_chans, (m)->cap_chans)                                                 \
    X(ranges, (m)->n_ranges, (m)->cap_ranges)                                              \
    X(logs, (m)->n_logs, (m)->cap_logs)                                                    \
    X(rtmsgs, (m)->n_rtmsgs, (m)->cap_rtmsgs)                                              \
    X(msg_block, (m)->n_msg_block, (m)->n_msg_block)                                       \
    X(sync_block, (m)->n_sync_block, (m)->n_sync_block)

void cs_model_deinit(cs_model *m)
{
    if (!m)
        return;
#define FREE_TABLE(field, n, cap) cs_free(m->field);
    MODEL_TABLES(FREE_TABLE, m)
#undef FREE_TABLE
    cs_map_deinit(&m->str_index);
    cs_ids_deinit(&m->g_index);
    memset(m, 0, sizeof *m);
}

/* *p: a copy of the first n of the cap elements of size `elem` at from
 * (NULL when cap is 0). */
static bool dup(void *p, const void *from, uint32_t n, uint32_t cap, size_t elem, cs_err *err)
{
    void *d = NULL;
    if (cap && !(d = cs_alloc((size_t)cap * elem)))
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory copying the model");
    if (n)
        memcpy(d, from, (size_t)n * elem);
    memcpy(p, &d, sizeof d);
    return true;
}

bool cs_model_copy(const cs_model *m, cs_model *out, cs_err *err)
{
    *out = *m;
#define NO_TABLE(field, n, cap) out->field = NULL;
    MODEL_TABLES(NO_TABLE, m)
#undef NO_TABLE
    cs_map_init(&out->str_index), cs_ids_init(&out->g_index, 0);
    bool ok = cs_map_copy(&m->str_index, &out->str_index, err) && cs_ids_copy(&m->g_index, &out->g_index, err);
#define DUP_TABLE(field, n, cap) ok = ok && dup(&out->field, m->field, n, cap, sizeof *m->field, err);
    MODEL_TABLES(DUP_TABLE, m)
#undef DUP_TABLE
    if (!ok)
        cs_model_deinit(out);
    return ok;
}

/* The empty string is sid 0; it is created on first use of the table. */
static bool strings_ready(cs_model *m, cs_err *err)
{
    if (m->n_str)
        return true;
    if (!cs_grow((void **)&m->str_off, &m->cap_str, 2, sizeof *m->str_off, err) ||
        !cs_grow((void **)&m->str_bytes, &m->cap_bytes, 1, 1, err))
        return false;
    m->str_bytes[0] = 0;
    m->len_bytes = 1;
    m->str_off[0] = 0;
    m->str_off[1] = 1;
    m->n_str = 1;
    return true;
}

cs_sid cs_model_intern(cs_model *m, const char *s, size_t len, cs_err *err)
{
    if (!strings_ready(m, err))
        return 0;
    if (len == 0)
        return 0;
    if (len > UINT32_MAX / 2 || m->len_bytes > UINT32_MAX - len - 1 || m->n_str >= CS_SID_MAX) {
        CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "string table too large");
        return 0;
    }
    uint64_t h = XXH3_64bits(s, len);
    uint32_t sid;
    if (cs_map_get(&m->str_index, h, &sid)) {
        const char *have = m->str_bytes + m->str_off[sid];
        if (m->str_off[sid + 1] - m->str_off[sid] - 1 == len && memcmp(have, s, len) == 0)
            return sid;
        /* hash collision: store a second copy without indexing it */
    }
    if (!cs_grow((void **)&m->str_off, &m->cap_str, m->n_str + 2, sizeof *m->str_off, err) ||
        !cs_grow((void **)&m->str_bytes, &m->cap_bytes, m->len_bytes + (uint32_t)len + 1, 1, err))
        return 0;
    sid = m->n_str++;
    memcpy(m->str_bytes + m->len_bytes, s, len);
    m->str_bytes[m->len_bytes + len] = 0;
    m->len_bytes += (uint32_t)len + 1;
    m->str_off[m->n_str] = m->len_bytes;
    if (!cs_map_get(&m->str_index, h, NULL) && !cs_map_put(&m->str_index, h, sid, err))
        return 0;
    return sid;
}

const char *cs_model_str(const cs_model *m, cs_sid id)
{
    if (id == 0 || id >= m->n_str)
        return "";
    return m->str_bytes + m->str_off[id];
}

uint32_t cs_model_str_len(const cs_model *m, cs_sid id)
{
    return id == 0 || id >= m->n_str ? 0 : m->str_off[id + 1] - m->str_off[id] - 1;
}

uint32_t cs_model_stack_add(cs_model *m, const cs_frame *f, uint32_t n, cs_err *err)
{
    if (m->n_stack == 0) { /* stack 0 = "no stack", with no frames */
        if (!cs_grow((void **)&m->stack_first, &m->cap_stack, 2, sizeof *m->stack_first, err))
            return 0;
        m->stack_first[0] = m->stack_first[1] = 0;
        m->n_stack = 1;
    }
    if (n > UINT32_MAX - m->n_frames || m->n_stack >= CS_STACK_MAX) {
        CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "too many stacks or stack frames");
        return 0;
    }
    if (!cs_grow((void **)&m->stack_first, &m->cap_stack, m->n_stack + 2, sizeof *m->stack_first, err) ||
        !cs_grow((void **)&m->frames, &m->cap_frames, m->n_frames + n, sizeof *m->frames, err))
        return 0;
    if (n)
        memcpy(m->frames + m->n_frames, f, (size_t)n * sizeof *f);
    m->n_frames += n;
    uint32_t id = m->n_stack++;
    m->stack_first[m->n_stack] = m->n_frames;
    return id;
}

bool cs_model_map_make(cs_model *m, const cs_model *from, const uint32_t *stack_to, cs_model_map *map,
                       cs_err *err)
{
    uint32_t most = 0;
    for (uint32_t k = 1; k < from->n_stack; k++)
        most = cs_model_stack_len(from, k) > most ? cs_model_stack_len(from, k) : most;
    *map = (cs_model_map){.sid = cs_alloc(((size_t)from->n_str + 1) * sizeof *map->sid),
                          .stack = cs_alloc(((size_t)from->n_stack + 1) * sizeof *map->stack)};
    cs_frame *fr = cs_alloc(((size_t)most + 1) * sizeof *fr);
    bool ok = map->sid && map->stack && fr ? true : CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory");
    for (uint32_t i = 0; ok && i < from->n_str; i++) { /* in from's order: new ones as they came */
        map->sid[i] = i ? cs_model_intern(m, cs_model_str(from, i), cs_model_str_len(from, i), err) : 0;
        ok = err->code == CS_OK;
    }
    if (ok)
        map->stack[0] = 0;
    for (uint32_t k = 1; ok && k < from->n_stack; k++) {
        if (stack_to && stack_to[k]) {
            map->stack[k] = stack_to[k];
            continue;
        }
        uint32_t n = cs_model_stack_len(from, k);
        for (uint32_t i = 0; i < n; i++) {
            fr[i] = *cs_model_stack_frame(from, k, i);
            fr[i].func = map->sid[fr[i].func], fr[i].file = map->sid[fr[i].file];
        }
        map->stack[k] = cs_model_stack_add(m, fr, n, err);
        ok = err->code == CS_OK;
    }
    cs_free(fr);
    if (!ok)
        cs_model_map_free(map);
    return ok;
}

void cs_model_map_free(cs_model_map *map)
{
    cs_free(map->sid);
    cs_free(map->stack);
    cs_free(map->g);
    *map = (cs_model_map){0};
}

/* A block's base lies this far before its first time (cs_tcol). */
#define TCOL_HALF ((int64_t)1 << 31)

bool cs_tcol_put(cs_tcol *c, uint32_t i, bool first, int64_t t, uint32_t *lo, size_t stride, cs_err *err)
{
    uint32_t k = i >> CS_T0_BLOCK_BITS, at = i & (CS_T0_BLOCK - 1);
    if (first) {
        if (!cs_grow((void **)&c->base, &c->cap_base, k + 1, sizeof *c->base, err))
            return false;
        c->base[k] = t - TCOL_HALF;
    }
    int64_t b = c->base[k];
    if (cs__t_narrow(lo, b, t))
        return true;
    if (b < CS_T0_WIDE) { /* the block goes wide: the times before i in full */
        uint32_t w = c->n_wide;
        if (!cs_grow((void **)&c->wide, &c->cap_wide, w + CS_T0_BLOCK, sizeof *c->wide, err))
            return false;
        for (uint32_t j = 0; j < at; j++)
            c->wide[w + j] = b + *(const uint32_t *)((const char *)lo - (size_t)(at - j) * stride);
        b = c->base[k] = CS_T0_WIDE + w;
        c->n_wide = w + CS_T0_BLOCK;
    }
    c->wide[b - CS_T0_WIDE + at] = t;
    return true;
}

/* The value table, to hold message n's: made zeroed when `need` is the
 * first value it holds, then grown with the messages. */
static inline bool msg_value_room(cs_model *m, uint32_t n, bool need, cs_err *err)
{
    if (need && !m->msg_value) { /* the first: those before have none */
        if (!(m->msg_value = cs_calloc((size_t)n + 1, sizeof *m->msg_value)))
            return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for a table of %u messages", n + 1);
        m->cap_msg_value = n + 1;
    }
    return !m->msg_value || cs_grow((void **)&m->msg_value, &m->cap_msg_value, n + 1, sizeof *m->msg_value, err);
}

/* Room in m->msgs for n more messages. */
static bool msg_room(cs_model *m, uint32_t n, cs_err *err)
{
    if (n > UINT32_MAX - m->n_msgs)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "more than %u messages", UINT32_MAX);
    return cs_grow((void **)&m->msgs, &m->cap_msgs, m->n_msgs + n, sizeof *m->msgs, err);
}

/* Message x as the next, with room for it in m->msgs. always_inline, as
 * cs__tcol_set is (core/model.h says why). */
static inline __attribute__((always_inline)) bool msg_put(cs_model *m, const cs_msg_in *x, cs_sid value,
                                                          cs_err *err)
{
    uint32_t n = m->n_msgs;
    bool send = x->t_send != CS_T_NONE;
    int64_t dt = !send ? 0 : x->t_recv != CS_T_NONE ? x->t_recv - x->t_send : INT64_MIN;
    bool far = dt <= CS_MSG_FAR || dt > INT32_MAX;
    if (x->chan >= CS_CHAN_MAX)
        return CS_FAIL(err, CS_E_INVALID, CS_NO_OFFSET, "more than %u channels", CS_CHAN_MAX - 1);
    bool wide = far || x->sender >= CS_MSG_G_WIDE || x->receiver >= CS_MSG_G_WIDE || x->chan >= CS_MSG_CHAN_WIDE;
    if (!msg_value_room(m, n, value != 0, err) ||
        (wide && !cs_grow((void **)&m->msg_wide, &m->cap_msg_wide, m->n_msg_wide + 1, sizeof *m->msg_wide, err)))
        return false;
    m->msgs[n] = (cs_msg){.dt = !send ? CS_MSG_NO_SEND : far ? CS_MSG_FAR : (int32_t)dt,
                          .who = cs__msg_who(x->sender < CS_MSG_G_WIDE ? x->sender : CS_MSG_G_WIDE,
                                             x->receiver < CS_MSG_G_WIDE ? x->receiver : CS_MSG_G_WIDE,
                                             x->chan < CS_MSG_CHAN_WIDE ? x->chan : CS_MSG_CHAN_WIDE, x->kind,
                                             x->exact)};
    if (!cs_msg_t_set(m, n, send ? x->t_send : x->t_recv, err))
        return false;
    if (m->msg_value)
        m->msg_value[n] = value;
    if (wide)
        m->msg_wide[m->n_msg_wide++] = (cs_msg_wide){.msg = n, .sender = x->sender, .receiver = x->receiver,
                                                     .chan = x->chan, .t_recv = far ? x->t_recv : 0};
    m->n_msgs = n + 1;
    return true;
}

bool cs_model_msg_add(cs_model *m, const cs_msg_in *x, cs_sid value, cs_err *err)
{
    return msg_room(m, 1, err) && msg_put(m, x, value, err);
}

bool cs_model_msgs_reserve(cs_model *m, uint32_t n)
{
    if (n > UINT32_MAX - m->n_msgs)
        return false;
    if (m->n_msgs + n <= m->cap_msgs)
        return true;
    cs_msg *p = cs_realloc(m->msgs, (size_t)(m->n_msgs + n) * sizeof *m->msgs);
    if (!p)
        return false; /* a failed realloc leaves the block as it was */
    m->msgs = p, m->cap_msgs = m->n_msgs + n;
    return true;
}

bool cs_model_msgs_add(cs_model *m, const cs_msg_in *x, uint32_t n, cs_err *err)
{
    if (!msg_room(m, n, err))
        return false;
    for (uint32_t i = 0; i < n; i++)
        if (!msg_put(m, &x[i], 0, err))
            return false;
    return true;
}

const cs_msg_wide *cs_msg_wide_at(const cs_model *m, uint32_t i)
{
    uint32_t lo = 0, hi = m->n_msg_wide; /* the first entry of message i or after */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (m->msg_wide[mid].msg < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    assert(lo < m->n_msg_wide && m->msg_wide[lo].msg == i);
    return &m->msg_wide[lo];
}

uint32_t cs_model_stack_len(const cs_model *m, uint32_t stack)
{
    if (stack == 0 || stack >= m->n_stack)
        return 0;
    return m->stack_first[stack + 1] - m->stack_first[stack];
}

/* The messages are in cs_msg_t order (traffic/build.c sorts them). */
uint32_t cs_model_msg_from(const cs_model *m, int64_t t)
{
    uint32_t lo = 0, hi = m->n_msgs;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (cs_msg_t(m, mid) < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* A goroutine's spans are in time order: binary search on their ends. */
uint32_t cs_model_span_after(const cs_model *m, const cs_goroutine *g, int64_t t)
{
    uint32_t lo = g->span_first, hi = g->span_first + g->span_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (cs_span_t1(m, mid) <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

const cs_frame *cs_model_stack_frame(const cs_model *m, uint32_t stack, uint32_t i)
{
    if (i >= cs_model_stack_len(m, stack))
        return NULL;
    return &m->frames[m->stack_first[stack] + i];
}

bool cs_model_g_find(const cs_model *m, uint64_t goid, uint32_t *out)
{
    uint32_t s = cs_ids_find(&m->g_index, goid);
    if (s == UINT32_MAX)
        return false;
    *out = s + 1;
    return true;
}

bool cs_runtime_func(const char *func)
{
    return strncmp(func, "runtime.", 8) == 0 && strcmp(func, "runtime.main") != 0;
}

const char *cs_state_name(cs_state s)
{
    static const char *const names[CS_ST_COUNT] = {"none", "running", "runnable", "blocked", "syscall"};
    return (unsigned)s < CS_ST_COUNT ? names[s] : "?";
}

const char *cs_reason_name(cs_reason r)
{
    static const char *const names[CS_R_COUNT] = {
        "", "chan send", "chan receive", "select", "sync", "sync.Cond", "sleep",
        "network", "syscall", "GC", "forever", "preempted", "other"};
    return (unsigned)r < CS_R_COUNT ? names[r] : "?";
}

const char *cs_edge_kind_name(cs_edge_kind k)
{
    static const char *const names[CS_EK_COUNT] = {
        "other", "send", "recv", "close", "select-send", "select-recv", "sync", "timer", "net"};
    return (unsigned)k < CS_EK_COUNT ? names[k] : "?";
}

const char *cs_msg_kind_name(cs_msg_kind k)
{
    static const char *const names[CS_MK_COUNT] = {"send", "close"};
    return (unsigned)k < CS_MK_COUNT ? names[k] : "?";
}

/* The tables cs_model_before_traffic owns, X(field, its capacity's field,
 * elements): the strings, edge 0, channel 0. */
#define OWN_TABLES(X, m)                                                                   \
    X(str_bytes, cap_bytes, (m)->len_bytes)                                                \
    X(str_off, cap_str, (m)->n_str ? (m)->n_str + 1 : 0)                                   \
    X(edges, cap_edges, (m)->n_edges ? 1u : 0u)                                            \
    X(chans, cap_chans, (m)->n_chans ? 1u : 0u)

bool cs_model_before_traffic(const cs_model *m, cs_model *out, cs_err *err)
{
    *out = *m;
    cs_map_init(&out->str_index), cs_ids_init(&out->g_index, 0); /* nothing looks anything up in it */
    out->msgs = NULL, out->msg_value = NULL, out->msg_wide = NULL, out->msg_block = out->sync_block = NULL;
    out->n_msgs = out->cap_msgs = out->cap_msg_value = out->n_msg_wide = out->cap_msg_wide = 0;
    out->n_msg_block = out->n_sync_block = 0;
    out->edge_t = out->msg_t = (cs_tcol){0}; /* edge 0 has no time */
    out->n_edges = m->n_edges ? 1 : 0, out->n_chans = m->n_chans ? 1 : 0;
#define NO_TABLE(field, cap, n) out->field = NULL, out->cap = n;
    OWN_TABLES(NO_TABLE, m)
#undef NO_TABLE
    bool ok = true;
#define DUP_TABLE(field, cap, n) ok = ok && dup(&out->field, m->field, n, n, sizeof *m->field, err);
    OWN_TABLES(DUP_TABLE, m)
#undef DUP_TABLE
    if (!ok)
        cs_model_before_traffic_free(out);
    return ok;
}

void cs_model_before_traffic_free(cs_model *out)
{
#define FREE_TABLE(field, cap, n) cs_free(out->field);
    OWN_TABLES(FREE_TABLE, out)
#undef FREE_TABLE
    memset(out, 0, sizeof *out);
}

/* A table that grows is mapped in whole huge pages (core/alloc.c), so up
 * to 2 MB past its last element was faulted in when that was written: the
 * span columns, the messages and their times each held a part of a huge
 * page that nothing would write. */
void cs_model_fit(cs_model *m)
{
#define FIT_TABLE(field, used, cap)                                                        \
    if (m->field && (size_t)(cap) > (size_t)(used))                                        \
        cs_release(m->field + (used), ((size_t)(cap) - (size_t)(used)) * sizeof *m->field);
    MODEL_TABLES(FIT_TABLE, m)
#undef FIT_TABLE
}

size_t cs_model_bytes(const cs_model *m)
{
    size_t n = 0;
#define TABLE_BYTES(field, used, cap) n += (size_t)(used) * sizeof *m->field;
    MODEL_TABLES(TABLE_BYTES, m)
#undef TABLE_BYTES
    return n;
}
