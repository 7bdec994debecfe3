/* traffic/classify.c — gives every wake-up edge its cs_edge_kind from the
 * woken goroutine's block reason and the unblocker's stack
 * (docs/trace-format.md §6.2). Runs first in trf_build().
 *
 * Channel-blocked goroutine (chan send / chan receive / select), or one whose
 * reason is unknown because it was already waiting when tracing started:
 *   no unblocking goroutine       -> timer (a timer channel fired from the
 *                                    scheduler; user code always has a G)
 *   time.sendTime in the stack    -> timer
 *   chansend*, selectnbsend       -> send (select-send if the woken one selected)
 *   chanrecv*, selectnbrecv       -> recv (select-recv if the woken one selected)
 *   selectgo                      -> direction from the woken one's reason:
 *                                    receiving -> select-send, sending ->
 *                                    select-recv, select -> decided by votes
 *   closechan, or other frames    -> close (the caller of close is on top)
 *   no symbolised frames          -> other (nothing to go on)
 * Votes for select woken by select: every hand-off whose direction is known
 * counts its unblocker's site and its woken site as a sending or receiving
 * site; a select-select hand-off takes the direction with more votes for
 * its two sites (ties: the unblocker sent) and is flagged CS_EF_DIR_GUESSED.
 * Other reasons: sync/cond -> sync, sleep -> timer, network -> net, else other. */
#include "internal.h"

typedef struct votes {
    cs_map of_site;       /* site sid -> index in v */
    uint32_t (*v)[2];     /* [0] seen sending, [1] seen receiving */
    uint32_t n, cap;
} votes;

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
    bool sel = e->reason == CS_R_SELECT;
    if (!e->from)
        return CS_EK_TIMER;
    switch (trf__stack_role(c, e->stack)) {
    case TRF_ROLE_TIMER: return CS_EK_TIMER;
    case TRF_ROLE_SEND: return sel ? CS_EK_SELECT_SEND : CS_EK_SEND;
    case TRF_ROLE_RECV: return sel ? CS_EK_SELECT_RECV : CS_EK_RECV;
    case TRF_ROLE_SELECT:
        if (e->reason == CS_R_CHAN_RECV)
            return CS_EK_SELECT_SEND;
        if (e->reason == CS_R_CHAN_SEND)
            return CS_EK_SELECT_RECV;
        return CS_EK_COUNT;
    case TRF_ROLE_CLOSE: return CS_EK_CLOSE;
    case TRF_ROLE_NONE: break;
    }
    return symbolised(c->m, e->stack) && chan_reason(e->reason) ? CS_EK_CLOSE : CS_EK_OTHER;
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
    cs_sid su = trf__site(c, e->stack, err), sw = trf__site(c, e->block_stack, err);
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
    cs_sid su = trf__site(c, e->stack, err), sw = trf__site(c, e->block_stack, err);
    if (err->code != CS_OK)
        return false;
    uint32_t sent = tally(v, su, 0) + tally(v, sw, 1);
    uint32_t recv = tally(v, su, 1) + tally(v, sw, 0);
    e->kind = recv > sent ? CS_EK_SELECT_RECV : CS_EK_SELECT_SEND;
    e->flags |= CS_EF_DIR_GUESSED;
    return true;
}

static bool is_handoff(uint8_t k)
{
    return k == CS_EK_SEND || k == CS_EK_SELECT_SEND || k == CS_EK_RECV || k == CS_EK_SELECT_RECV;
}

/* Second pass, only when some select was woken by a select: count votes
 * over the hand-offs with a known direction, then decide the others. */
static bool settle_selects(trf__ctx *c, cs_err *err)
{
    cs_model *m = c->m;
    votes v = {0};
    bool ok = true;
    for (uint32_t i = 1; ok && i < m->n_edges; i++) {
        const cs_edge *e = &m->edges[i];
        if (is_handoff(e->kind))
            ok = vote(c, &v, e, e->kind == CS_EK_SEND || e->kind == CS_EK_SELECT_SEND, err);
    }
    for (uint32_t i = 1; ok && i < m->n_edges; i++)
        if (m->edges[i].kind == CS_EK_COUNT)
            ok = resolve(c, &v, &m->edges[i], err);
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
        e->flags &= (uint16_t)~CS_EF_DIR_GUESSED;
        /* waiting since before the trace: decoders know no reason (none/other) */
        bool unknown = e->reason == CS_R_NONE || (e->reason == CS_R_OTHER && (e->flags & CS_EF_WAIT_BEFORE));
        if (!chan_reason(e->reason) && !unknown) {
            e->kind = other_kind(e->reason);
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
