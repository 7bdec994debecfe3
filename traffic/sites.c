/* traffic/sites.c — reads the runtime's channel frames in a stack and
 * names the code site of a channel operation (docs/trace-format.md §6.1): the
 * frame just below chansend1, chanrecv1/2 or selectgo, or for any other stack the
 * first frame outside the runtime. A site is the string "func:file:line";
 * logical channels are pairs of them (infer.c). Also owns the lookup of
 * cs_chan entries by site pair or by id, and appending messages (each
 * counted for its channel, and its time block made while they come in
 * order, blocks.c). */
#include "internal.h"

#include <stdio.h>
#include <string.h>

/* How deep to look for the channel function: 1.22+ unblock stacks may start
 * with runtime frames such as systemstack_switch or traceLocker.* (§6.1). */
#define SCAN_FRAMES 8

static const struct {
    const char *name;
    trf__role role;
} roles[] = {
    {"runtime.chansend1", TRF_ROLE_SEND},    {"runtime.chansend", TRF_ROLE_SEND},
    {"runtime.selectnbsend", TRF_ROLE_SEND}, {"reflect.chansend", TRF_ROLE_SEND},
    {"reflect.chansend0", TRF_ROLE_SEND},    {"runtime.chanrecv1", TRF_ROLE_RECV},
    {"runtime.chanrecv2", TRF_ROLE_RECV},    {"runtime.chanrecv", TRF_ROLE_RECV},
    {"runtime.selectnbrecv", TRF_ROLE_RECV}, {"runtime.selectnbrecv2", TRF_ROLE_RECV},
    {"reflect.chanrecv", TRF_ROLE_RECV},     {"runtime.selectgo", TRF_ROLE_SELECT},
    {"reflect.rselect", TRF_ROLE_SELECT},    {"runtime.reflect_rselect", TRF_ROLE_SELECT},
    {"runtime.closechan", TRF_ROLE_CLOSE},   {"reflect.chanclose", TRF_ROLE_CLOSE},
    {"time.sendTime", TRF_ROLE_TIMER},
};

trf__role trf__func_role(const char *func)
{
    if (func[0] != 'r' && func[0] != 't') /* runtime., reflect., time. */
        return TRF_ROLE_NONE;
    for (size_t i = 0; i < sizeof roles / sizeof *roles; i++)
        if (!strcmp(func, roles[i].name))
            return roles[i].role;
    return TRF_ROLE_NONE;
}

static trf__role frame_role(const cs_model *m, const cs_frame *f)
{
    return trf__func_role(cs_model_str(m, f->func));
}

/* Whether the first frame after frame `at` that is no channel function
 * (chanrecv -> chanrecv1, reflect_rselect -> selectgo) is the runtime's. */
static bool runtime_caller(const cs_model *m, uint32_t stack, uint32_t at)
{
    uint32_t n = cs_model_stack_len(m, stack), j = at + 1;
    while (j < n && frame_role(m, cs_model_stack_frame(m, stack, j)) != TRF_ROLE_NONE)
        j++;
    return j < n && cs_runtime_func(cs_model_str(m, cs_model_stack_frame(m, stack, j)->func));
}

/* A timer firing anywhere in the scanned frames wins: its send goes through
 * selectnbsend/chansend, which would otherwise look like a user send. A
 * send, receive or select the runtime makes for itself is its own. */
static trf__role stack_role(const cs_model *m, uint32_t stack)
{
    uint32_t n = cs_model_stack_len(m, stack), at = 0;
    trf__role first = TRF_ROLE_NONE;
    for (uint32_t i = 0; i < n && i < SCAN_FRAMES; i++) {
        trf__role r = frame_role(m, cs_model_stack_frame(m, stack, i));
        if (r == TRF_ROLE_TIMER)
            return r;
        if (first == TRF_ROLE_NONE)
            first = r, at = i;
    }
    bool op = first == TRF_ROLE_SEND || first == TRF_ROLE_RECV || first == TRF_ROLE_SELECT;
    return op && runtime_caller(m, stack, at) ? TRF_ROLE_RUNTIME : first;
}

static uint32_t select_line(const cs_model *m, uint32_t stack)
{
    uint32_t n = cs_model_stack_len(m, stack);
    for (uint32_t i = 0; i < n && i < SCAN_FRAMES; i++) {
        const cs_frame *f = cs_model_stack_frame(m, stack, i);
        if (!strcmp(cs_model_str(m, f->func), "runtime.selectgo"))
            return f->line;
    }
    return 0;
}

uint32_t trf__select_line(trf__ctx *c, uint32_t stack)
{
    if (stack >= c->n_stack)
        return select_line(c->m, stack);
    if (c->stack_sel_line[stack] == UINT32_MAX)
        c->stack_sel_line[stack] = select_line(c->m, stack);
    return c->stack_sel_line[stack];
}

trf__role trf__stack_role(trf__ctx *c, uint32_t stack)
{
    if (stack >= c->n_stack)
        return stack_role(c->m, stack);
    if (c->stack_role[stack] == 0xff)
        c->stack_role[stack] = (uint8_t)stack_role(c->m, stack);
    return (trf__role)c->stack_role[stack];
}

const cs_frame *trf__site_frame(const cs_model *m, uint32_t stack)
{
    uint32_t n = cs_model_stack_len(m, stack), j = 0;
    for (uint32_t i = 0; i < n && i < SCAN_FRAMES; i++) {
        trf__role r = frame_role(m, cs_model_stack_frame(m, stack, i));
        if (r != TRF_ROLE_NONE && r != TRF_ROLE_TIMER) {
            j = i + 1;
            break;
        }
    }
    /* skip chains like chanrecv -> chanrecv1 and runtime plumbing */
    while (j < n) {
        const char *f = cs_model_str(m, cs_model_stack_frame(m, stack, j)->func);
        if (trf__func_role(f) == TRF_ROLE_NONE && !cs_runtime_func(f))
            break;
        j++;
    }
    if (j >= n)
        return NULL;
    const cs_frame *f = cs_model_stack_frame(m, stack, j);
    return f->func ? f : NULL; /* unsymbolised (Go 1.5 without a binary): no site */
}

cs_sid trf__frame_site(trf__ctx *c, const cs_frame *f, cs_err *err)
{
    if (!f || !f->func)
        return 0;
    uint64_t key = (uint64_t)f->line << 32 | f->func;
    uint32_t sid;
    if (cs_map_get(&c->site_of, key, &sid))
        return sid;
    char buf[512];
    int n = snprintf(buf, sizeof buf, "%s:%s:%u", cs_model_str(c->m, f->func),
                     cs_model_str(c->m, f->file), f->line);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1;
    sid = cs_model_intern(c->m, buf, len, err);
    if (!sid || !cs_map_put(&c->site_of, key, sid, err))
        return 0;
    return sid;
}

cs_sid trf__site(trf__ctx *c, uint32_t stack, cs_err *err)
{
    if (stack >= c->n_stack)
        return trf__frame_site(c, trf__site_frame(c->m, stack), err);
    if (c->stack_site[stack] == UINT32_MAX) {
        cs_sid s = trf__frame_site(c, trf__site_frame(c->m, stack), err);
        if (err->code != CS_OK)
            return 0;
        c->stack_site[stack] = s;
    }
    return c->stack_site[stack];
}

/* "main.player:/src/main.go:23" -> "main.player:23"; "" -> "?" */
static size_t short_site(const char *site, char *out, size_t cap)
{
    const char *colon = strchr(site, ':'), *last = strrchr(site, ':');
    int n = colon ? snprintf(out, cap, "%.*s%s", (int)(colon - site), site, last)
                  : snprintf(out, cap, "%s", site[0] ? site : "?");
    return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

static uint32_t chan_new(cs_model *m, cs_sid name, cs_sid send, cs_sid recv, uint64_t id,
                         cs_err *err)
{
    if (!cs_grow((void **)&m->chans, &m->cap_chans, m->n_chans + 1, sizeof *m->chans, err))
        return 0;
    m->chans[m->n_chans] = (cs_chan){.name = name, .site_send = send, .site_recv = recv, .rt_id = id};
    return m->n_chans++;
}

cs_sid trf__chan_name(trf__ctx *c, const char *prefix, cs_sid send, cs_sid recv, cs_err *err)
{
    char a[256], b[256], name[700];
    short_site(cs_model_str(c->m, send), a, sizeof a);
    short_site(cs_model_str(c->m, recv), b, sizeof b);
    int n = snprintf(name, sizeof name, "%s%s \xe2\x86\x92 %s", prefix, a, b);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof name ? (size_t)n : sizeof name - 1;
    return cs_model_intern(c->m, name, len, err);
}

uint32_t trf__chan_by_sites(trf__ctx *c, cs_sid send, cs_sid recv, bool close, cs_err *err)
{
    cs_map *by = close ? &c->by_close : &c->by_sites;
    uint64_t key = (uint64_t)send << 32 | recv;
    uint32_t ci;
    if (c->last_chan && c->last_key == key && c->last_close == close)
        return c->last_chan; /* runs of messages on one channel are common */
    if (!cs_map_get(by, key, &ci)) {
        cs_sid nm = trf__chan_name(c, close ? "close " : "", send, recv, err);
        if (!nm || !(ci = chan_new(c->m, nm, send, recv, 0, err)) || !cs_map_put(by, key, ci, err))
            return 0;
    }
    c->last_key = key, c->last_close = close, c->last_chan = ci;
    return ci;
}

uint32_t trf__chan_by_id(trf__ctx *c, uint64_t rt_id, cs_sid name, cs_sid send, cs_sid recv,
                         cs_err *err)
{
    uint32_t ci;
    if (cs_map_get(&c->by_id, rt_id, &ci))
        return ci;
    if (!(ci = chan_new(c->m, name, send, recv, rt_id, err)))
        return 0;
    return cs_map_put(&c->by_id, rt_id, ci, err) ? ci : 0;
}

/* Messages from `from` on, just added: each counted for its channel and,
 * while they come in order, taken in by its time block. */
static bool added(trf__ctx *c, uint32_t from, cs_err *err)
{
    cs_model *m = c->m;
    for (uint32_t i = from; i < m->n_msgs; i++) {
        uint32_t ch = cs_msg_chan(m, i);
        if (ch)
            m->chans[ch].count++;
        if (!c->msgs_unsorted && i && trf__msg_order(m, i - 1, i) > 0)
            c->msgs_unsorted = true;
        if (!c->msgs_unsorted && !trf__msg_block_add(c, i, err))
            return false;
    }
    return true;
}

bool trf__msg_add(trf__ctx *c, const cs_msg_in *msg, cs_sid value, cs_err *err)
{
    uint32_t from = c->m->n_msgs;
    return cs_model_msg_add(c->m, msg, value, err) && added(c, from, err);
}

bool trf__msgs_add(trf__ctx *c, const cs_msg_in *x, uint32_t n, cs_err *err)
{
    uint32_t from = c->m->n_msgs;
    return cs_model_msgs_add(c->m, x, n, err) && added(c, from, err);
}

size_t trf_site(const cs_model *m, uint32_t stack, char *out, size_t cap)
{
    const cs_frame *f = trf__site_frame(m, stack);
    if (cap == 0)
        return 0;
    out[0] = 0;
    if (!f)
        return 0;
    int n = snprintf(out, cap, "%s:%s:%u", cs_model_str(m, f->func), cs_model_str(m, f->file), f->line);
    return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}
