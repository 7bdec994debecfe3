/* traffic/classify.c — gives every wake-up edge its cs_edge_kind from the
 * woken goroutine's block reason and the unblocker's stack
 * (docs/trace-format.md §6.2). Runs first in trf_build().
 *
 * Channel-blocked goroutine (chan send / chan receive / select), or one whose
 * reason is unknown because it was already waiting when tracing started:
 *   no unblocking goroutine       -> timer (a timer channel fired from the
 *                                    scheduler; user code always has a G)
 *   time.sendTime in the stack    -> timer
 *   then a send, receive or       -> other: the runtime's own channel (GC
 *   select the runtime makes for     workers starting, os/signal's handshake
 *   itself                           with the runtime, the tracer), no message
 *   chansend*, selectnbsend       -> send (select-send if the woken one selected)
 *   chanrecv*, selectnbrecv       -> recv (select-recv if the woken one selected)
 *   selectgo                      -> direction from the woken one's reason:
 *                                    receiving -> select-send, sending ->
 *                                    select-recv, select -> below
 *   closechan, or other frames    -> close (the caller of close is on top)
 *   no symbolised frames          -> other (nothing to go on)
 * A select woken by a select: the unblocker's selectgo woke it from one of
 * two lines, its call of recv (the unblocker received) or of send (it
 * sent), the same two for every select of the program (Go's
 * runtime/select.go, selectgo). A line tells when hand-offs of known
 * direction came from it (the woken one blocked in a plain send or
 * receive); else, when exactly two lines woke, what the other's tell;
 * else the lines of Go's releases (known_lines) for the trace's version
 * (both, when two woke); else, of exactly two lines in a trace of Go 1.19
 * or later, the first is recv (so in 1.19 to 1.27, and taken to hold
 * after). None of these is flagged as a guess.
 * Otherwise votes: every hand-off whose direction is known counts its
 * unblocker's site and its woken site as a sending or receiving site; the
 * hand-off takes the direction with more votes for its two sites (ties:
 * the unblocker sent) and is flagged (cs_edge.guessed).
 * Other reasons: sync/cond -> sync, sleep -> timer, network -> net, else other. */
#include "internal.h"

typedef struct votes {
    cs_map of_site;       /* site sid -> index in v */
    uint32_t (*v)[2];     /* [0] seen sending, [1] seen receiving */
    uint32_t n, cap;
} votes;

/* The lines of runtime.selectgo that woke a select or a known direction,
 * each with the hand-offs seen from it: [0] the unblocker sent, [1] it
 * received. */
#define SEL_LINES 4
typedef struct sel_lines {
    struct { uint32_t line, n[2]; } l[SEL_LINES];
    uint32_t n;
    bool more;            /* lines beyond SEL_LINES */
} sel_lines;

static bool chan_reason(uint8_t r)
{
    return r == CS_R_CHAN_SEND || r == CS_R_CHAN_RECV || r == CS_R_SELECT;
}

static uint8_t other_kind(uint8_t r)
{
    switch (r) {
    case CS_R_SYNC: case CS_R_COND: return CS_EK_SYNC;
    case CS_R_SLEEP: return CS_EK_TIMER;
    case CS_R_NET: return CS_EK_NET;
    default: return CS_EK_OTHER;
    }
}

static bool symbolised(const cs_model *m, uint32_t stack)
{
    const cs_frame *f = cs_model_stack_frame(m, stack, 0);
    return f && f->func;
}

/* Kind of a channel wake-up; CS_EK_COUNT = select woken by select (pending). */
static uint8_t chan_kind(trf__ctx *c, const cs_edge *e)
{
    const cs_wsite *w = cs_edge_site(c->m, e);
    bool sel = w->reason == CS_R_SELECT;
    if (!e->from)
        return CS_EK_TIMER;
    switch (trf__stack_role(c, w->stack)) {
    case TRF_ROLE_TIMER: return CS_EK_TIMER;
    case TRF_ROLE_SEND: return sel ? CS_EK_SELECT_SEND : CS_EK_SEND;
    case TRF_ROLE_RECV: return sel ? CS_EK_SELECT_RECV : CS_EK_RECV;
    case TRF_ROLE_SELECT:
        if (w->reason == CS_R_CHAN_RECV)
            return CS_EK_SELECT_SEND;
        if (w->reason == CS_R_CHAN_SEND)
            return CS_EK_SELECT_RECV;
        return CS_EK_COUNT;
    case TRF_ROLE_CLOSE: return CS_EK_CLOSE;
    case TRF_ROLE_RUNTIME: return CS_EK_OTHER;
    case TRF_ROLE_NONE: break;
    }
    return symbolised(c->m, w->stack) && chan_reason(w->reason) ? CS_EK_CLOSE : CS_EK_OTHER;
}

static uint32_t *vote_slot(votes *v, cs_sid site, cs_err *err)
{
    uint32_t i;
    if (cs_map_get(&v->of_site, site, &i))
        return v->v[i];
    if (!cs_grow((void **)&v->v, &v->cap, v->n + 1, sizeof *v->v, err) ||
        !cs_map_put(&v->of_site, site, v->n, err))
        return NULL;
    v->v[v->n][0] = v->v[v->n][1] = 0;
    return v->v[v->n++];
}

static bool vote(trf__ctx *c, votes *v, const cs_edge *e, bool from_sent, cs_err *err)
{
    const cs_wsite *w = cs_edge_site(c->m, e);
    cs_sid su = trf__site(c, w->stack, err), sw = trf__site(c, w->block_stack, err);
    if (err->code != CS_OK)
        return false;
    uint32_t *a = su ? vote_slot(v, su, err) : NULL, *b = sw ? vote_slot(v, sw, err) : NULL;
    if (err->code != CS_OK)
        return false;
    if (a)
        a[from_sent ? 0 : 1]++;
    if (b)
        b[from_sent ? 1 : 0]++;
    return true;
}

static uint32_t tally(votes *v, cs_sid site, int side)
{
    uint32_t i;
    return site && cs_map_get(&v->of_site, site, &i) ? v->v[i][side] : 0;
}

static bool resolve(trf__ctx *c, votes *v, cs_edge *e, cs_err *err)
{
    const cs_wsite *w = cs_edge_site(c->m, e);
    cs_sid su = trf__site(c, w->stack, err), sw = trf__site(c, w->block_stack, err);
    if (err->code != CS_OK)
        return false;
    uint32_t sent = tally(v, su, 0) + tally(v, sw, 1);
    uint32_t recv = tally(v, su, 1) + tally(v, sw, 0);
    e->kind = recv > sent ? CS_EK_SELECT_RECV : CS_EK_SELECT_SEND;
    e->guessed = 1;
    return true;
}

/* The lines of selectgo's calls of recv and of send in Go's
 * runtime/select.go, by the version of the traces the release writes. */
static const struct {
    int version;
    uint32_t recv, send;
} known_lines[] = {
    {1019, 471, 501},                   /* Go 1.19 */
    {1021, 470, 500}, {1022, 470, 500}, /* Go 1.21, 1.22 */
    {1023, 481, 511}, {1023, 497, 527}, /* Go 1.23, 1.24 */
    {1025, 497, 527}, {1026, 497, 527}, /* Go 1.25; 1.26 and 1.27 */
};

static int known_sends(int version, uint32_t line)
{
    for (size_t i = 0; i < sizeof known_lines / sizeof *known_lines; i++)
        if (known_lines[i].version == version && (line == known_lines[i].recv || line == known_lines[i].send))
            return line == known_lines[i].send;
    return -1;
}

/* Where line is among s's lines, s->n when it is not. */
static uint32_t line_at(const sel_lines *s, uint32_t line)
{
    uint32_t i = 0;
    while (i < s->n && s->l[i].line != line)
        i++;
    return i;
}

/* Counts a hand-off (or, sent NULL, a select it woke) under the line of
 * selectgo that woke it; line 0 (none, or unknown) counts nowhere. */
static void line_count(sel_lines *s, uint32_t line, const bool *sent)
{
    uint32_t i = line_at(s, line);
    if (!line || (i == s->n && i == SEL_LINES)) {
        s->more |= line != 0;
        return;
    }
    if (i == s->n)
        s->l[s->n++].line = line, s->l[i].n[0] = s->l[i].n[1] = 0;
    if (sent)
        s->l[i].n[*sent ? 0 : 1]++;
}

/* 1: the unblocker sent from line i, 0: it received, -1: its counts do not tell */
static int line_told(const sel_lines *s, uint32_t i)
{
    return s->l[i].n[0] == s->l[i].n[1] ? -1 : s->l[i].n[0] > s->l[i].n[1];
}

/* Whether selectgo's line `line` is its send: 1, its recv: 0, unknown: -1,
 * in a trace of `version`. */
static int line_sends(const sel_lines *s, uint32_t line, int version)
{
    uint32_t i = line_at(s, line);
    if (!line || i == s->n)
        return -1;
    bool two = s->n == 2 && !s->more;
    int told = line_told(s, i), other = two ? line_told(s, 1 - i) : -1, known = known_sends(version, line);
    if (told >= 0)
        return told;
    if (other >= 0)
        return !other;
    /* of two lines, the table must place the other on the other side */
    if (known >= 0 && (!two || known_sends(version, s->l[1 - i].line) == !known))
        return known;
    return two && version >= 1019 ? line > s->l[1 - i].line : -1;
}

static bool is_handoff(uint8_t k)
{
    return k == CS_EK_SEND || k == CS_EK_SELECT_SEND || k == CS_EK_RECV || k == CS_EK_SELECT_RECV;
}

/* Second pass, only when some select was woken by a select: count the
 * lines of selectgo and the votes over the hand-offs with a known
 * direction, then decide the others. */
static bool settle_selects(trf__ctx *c, cs_err *err)
{
    cs_model *m = c->m;
    votes v = {0};
    sel_lines lines = {0};
    bool ok = true;
    for (uint32_t i = 1; ok && i < m->n_edges; i++) {
        const cs_edge *e = &m->edges[i];
        uint32_t stack = cs_edge_site(m, e)->stack;
        bool sent = e->kind == CS_EK_SEND || e->kind == CS_EK_SELECT_SEND;
        if ((is_handoff(e->kind) || e->kind == CS_EK_COUNT) && trf__stack_role(c, stack) == TRF_ROLE_SELECT)
            line_count(&lines, trf__select_line(c, stack), e->kind == CS_EK_COUNT ? NULL : &sent);
        if (is_handoff(e->kind))
            ok = vote(c, &v, e, sent, err);
    }
    for (uint32_t i = 1; ok && i < m->n_edges; i++) {
        cs_edge *e = &m->edges[i];
        if (e->kind != CS_EK_COUNT)
            continue;
        int sends = line_sends(&lines, trf__select_line(c, cs_edge_site(m, e)->stack), m->version);
        if (sends >= 0)
            e->kind = sends ? CS_EK_SELECT_SEND : CS_EK_SELECT_RECV;
        else
            ok = resolve(c, &v, e, err);
    }
    cs_map_deinit(&v.of_site);
    cs_free(v.v);
    return ok;
}

bool trf__classify(trf__ctx *c, cs_err *err)
{
    cs_model *m = c->m;
    bool pending = false;
    for (uint32_t i = 1; i < m->n_edges; i++) {
        cs_edge *e = &m->edges[i];
        const cs_wsite *w = cs_edge_site(m, e);
        e->guessed = 0;
        /* waiting since before the trace: decoders know no reason (none/other) */
        bool unknown = w->reason == CS_R_NONE || (w->reason == CS_R_OTHER && w->wait_before);
        if (!chan_reason(w->reason) && !unknown) {
            e->kind = other_kind(w->reason);
            continue;
        }
        uint8_t k = chan_kind(c, e);
        if (unknown && (k == CS_EK_CLOSE || !e->from))
            k = CS_EK_OTHER; /* unknown reason: only a channel frame tells */
        e->kind = k;
        pending |= k == CS_EK_COUNT;
    }
    return !pending || settle_selects(c, err);
}
