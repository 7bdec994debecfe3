/* traffic/annot.c — exact messages from the annotation convention on
 * runtime/trace.Log (docs/trace-format.md §6.3): category "chan.send" logged
 * just before `ch <- v` and "chan.recv" just after `v := <-ch`, each with the
 * message "ch=<id> seq=<n> val=<text>" (val optional, to the end of the
 * message). A send and a receive with the same ch text and seq are one
 * message from the sender's log to the receiver's log, exact = 1, value =
 * the sender's val. Works for buffered channels, where nothing else in a
 * stock trace shows the traffic. assets/go/chanlog writes this convention.
 *
 * Pairing is in event order: a receive pairs with the latest unpaired send
 * of its (ch, seq); a receive logged before any matching send, and sends
 * never received, stay unpaired. The ch text is the channel's id: "0x..."
 * (a %p address) or a decimal number becomes cs_chan.rt_id, anything else
 * its hash. The channel is named "<ch>: send site → receive site" from the
 * first pair's log stacks (frames of runtime/trace and chanlog.Send/Recv
 * skipped). */
#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

typedef struct annot {
    const char *ch;      /* points into the parsed text */
    size_t ch_len;
    uint64_t seq;
    const char *val;     /* NULL when absent */
    size_t val_len;
} annot;

/* Reads "ch=<id> seq=<n> [val=<text>]"; false if it is not one. */
static bool parse(const char *s, annot *a)
{
    memset(a, 0, sizeof *a);
    if (strncmp(s, "ch=", 3) != 0)
        return false;
    a->ch = s + 3;
    a->ch_len = strcspn(a->ch, " ");
    const char *p = a->ch + a->ch_len;
    if (a->ch_len == 0 || strncmp(p, " seq=", 5) != 0)
        return false;
    p += 5;
    char *end;
    if (*p < '0' || *p > '9')
        return false;
    a->seq = strtoull(p, &end, 10);
    if (*end == 0)
        return true;
    if (strncmp(end, " val=", 5) != 0)
        return false;
    a->val = end + 5;
    a->val_len = strlen(a->val);
    return true;
}

static uint64_t chan_id(const annot *a)
{
    char buf[24], *end;
    if (a->ch_len < sizeof buf) {
        memcpy(buf, a->ch, a->ch_len);
        buf[a->ch_len] = 0;
        bool hex = a->ch_len > 2 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X');
        uint64_t v = strtoull(hex ? buf + 2 : buf, &end, hex ? 16 : 10);
        if (*end == 0 && end != (hex ? buf + 2 : buf) && v)
            return v;
    }
    return XXH3_64bits(a->ch, a->ch_len) | 1;
}

static uint64_t pair_key(uint64_t id, uint64_t seq)
{
    uint64_t k[2] = {id, seq};
    return XXH3_64bits(k, sizeof k);
}

/* runtime/trace itself, and chanlog's Send/Recv wrappers (generic
 * instantiations are named like "chanscope/chanlog.Send[...]"). */
static bool helper_frame(const char *func)
{
    if (!strncmp(func, "runtime/trace.", 14))
        return true;
    const char *p = strstr(func, "chanlog.");
    if (!p || (p != func && p[-1] != '/'))
        return false;
    p += 8;
    return (!strncmp(p, "Send", 4) || !strncmp(p, "Recv", 4)) && (p[4] == 0 || p[4] == '[');
}

static cs_sid log_site(trf__ctx *c, uint32_t stack, cs_err *err)
{
    uint32_t n = cs_model_stack_len(c->m, stack);
    for (uint32_t i = 0; i < n; i++) {
        const cs_frame *f = cs_model_stack_frame(c->m, stack, i);
        if (!helper_frame(cs_model_str(c->m, f->func)))
            return trf__frame_site(c, f, err);
    }
    return 0;
}

static uint32_t annot_chan(trf__ctx *c, const annot *a, const cs_log *s, const cs_log *r,
                           cs_err *err)
{
    uint64_t id = chan_id(a);
    uint32_t ci;
    if (cs_map_get(&c->by_id, id, &ci))
        return ci;
    char prefix[80];
    size_t n = a->ch_len < 60 ? a->ch_len : 60;
    memcpy(prefix, a->ch, n);
    memcpy(prefix + n, ": ", 3);
    cs_sid ss = log_site(c, s->stack, err), rs = log_site(c, r->stack, err);
    cs_sid name = err->code == CS_OK ? trf__chan_name(c, prefix, ss, rs, err) : 0;
    return name ? trf__chan_by_id(c, id, name, ss, rs, err) : 0;
}

/* A copy of a model string: interning may move the string table. */
static char *dup_str(const cs_model *m, cs_sid id, cs_err *err)
{
    const char *s = cs_model_str(m, id);
    size_t n = strlen(s);
    char *d = cs_alloc(n + 1);
    if (!d) {
        CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory");
        return NULL;
    }
    memcpy(d, s, n + 1);
    return d;
}

static bool pair(trf__ctx *c, const cs_log *s, const cs_log *r, cs_err *err)
{
    cs_model *m = c->m;
    char *ms = dup_str(m, s->message, err), *mr = ms ? dup_str(m, r->message, err) : NULL;
    annot as = {0}, ar = {0};
    bool ok = mr != NULL;
    if (ok) /* both parsed before, when they were picked */
        parse(ms, &as), parse(mr, &ar);
    const annot *v = as.val ? &as : &ar;
    cs_msg_in x = {.t_send = s->ts, .t_recv = r->ts, .sender = s->g, .receiver = r->g,
                   .kind = CS_MK_SEND, .exact = 1};
    cs_sid value = 0;
    if (ok && v->val && v->val_len)
        ok = (value = cs_model_intern(m, v->val, v->val_len, err)) != 0;
    ok = ok && (x.chan = annot_chan(c, &as, s, r, err)) && trf__msg_add(c, &x, value, err);
    cs_free(ms), cs_free(mr);
    return ok;
}

bool trf__annot(trf__ctx *c, cs_err *err)
{
    cs_model *m = c->m;
    cs_sid cat_send = 0, cat_recv = 0;
    for (uint32_t i = 0; i < m->n_logs && !(cat_send && cat_recv); i++) {
        const char *cat = cs_model_str(m, m->logs[i].category);
        if (!strcmp(cat, "chan.send"))
            cat_send = m->logs[i].category;
        else if (!strcmp(cat, "chan.recv"))
            cat_recv = m->logs[i].category;
    }
    if (!cat_send || !cat_recv)
        return true;
    cs_map pending = {0}; /* pair_key -> log index + 1 of the unpaired send */
    bool ok = true;
    for (uint32_t i = 0; ok && i < m->n_logs; i++) {
        const cs_log *l = &m->logs[i];
        annot a;
        if ((l->category != cat_send && l->category != cat_recv) ||
            !parse(cs_model_str(m, l->message), &a))
            continue;
        uint64_t key = pair_key(chan_id(&a), a.seq);
        uint32_t si;
        if (l->category == cat_send)
            ok = cs_map_put(&pending, key, i + 1, err);
        else if (cs_map_get(&pending, key, &si) && si) {
            ok = pair(c, &m->logs[si - 1], l, err);
            cs_map_del(&pending, key);
        }
    }
    cs_map_deinit(&pending);
    c->n_exact = m->n_msgs;
    return ok;
}
