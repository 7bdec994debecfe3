/* decode/legacy_order.c — pass 2 of the legacy decoder: puts the per-P event
 * streams in Go's order (docs/trace-format.md §3.9). order1007 is a streaming
 * k-way merge over one cursor per P (legacy_cursor.c); the per-goroutine
 * sequence state is the merge's own compact dec__lg_ord table. Only cursors
 * whose head waits on the goroutine that just moved are re-examined, so a
 * step costs O(frontier), not O(P). order1005 (Go 1.5) materialises all
 * events and sorts them by global sequence. */
#include "legacy.h"

#include <stdlib.h>
#include <string.h>

typedef struct merge {
    const dec__lg_scan *s;
    dec__lg_cur *c;
    uint32_t *gi;                   /* per cursor: dense index of its head's key, 0 unknown */
    uint32_t n;
    uint32_t *frontier, n_front;
    uint32_t *blocked, n_blocked;   /* non-selected cursors with a head */
    dec__lg_ord gc;                 /* the GARBAGE pseudo-goroutine */
    cs_ids gt;                /* goroutine id -> index in ord (the merge's own) */
    dec__lg_ord *ord;
    uint32_t cap_ord;
} merge;

/* always_inline: the merge calls these several times per event */
static inline __attribute__((always_inline)) const dec__lg_ord *state_of(const merge *mg, uint32_t i)
{
    static const dec__lg_ord dead = {0, LG_GDEAD, {0}};
    const dec__lg_head *h = &mg->c[i].h;
    if (h->key == LG_GARBAGE)
        return &mg->gc;
    if (!mg->gi[i])
        mg->gi[i] = dec__lg_gtab_get(&mg->gt, h->key);
    return mg->gi[i] ? &mg->ord[mg->gi[i]] : &dead;
}

static inline __attribute__((always_inline)) bool ready(const merge *mg, uint32_t i)
{
    const dec__lg_head *h = &mg->c[i].h;
    if (h->key == LG_UNORDERED)
        return true;
    const dec__lg_ord *o = state_of(mg, i);
    return (h->init_seq == LG_NOSEQ || h->init_seq == o->seq) && h->init_st == o->st;
}

/* Index of a new goroutine in the merge's state table (Dead, seq 0). */
static uint32_t ord_add(merge *mg, uint64_t key, cs_err *err)
{
    uint32_t gi = dec__lg_gtab_add(&mg->gt, key, err);
    if (!gi || !cs_grow((void **)&mg->ord, &mg->cap_ord, gi + 1, sizeof *mg->ord, err))
        return 0;
    memset(&mg->ord[gi], 0, sizeof mg->ord[gi]);
    return gi;
}

static bool apply(merge *mg, uint32_t i, cs_err *err)
{
    const dec__lg_head *h = &mg->c[i].h;
    if (h->key == LG_UNORDERED)
        return true;
    const dec__lg_ord *o = state_of(mg, i);
    if (!((h->init_seq == LG_NOSEQ || h->init_seq == o->seq) && h->init_st == o->st))
        return CS_FAIL(err, CS_E_INVALID, h->ev.off, "event sequences are broken (%s of goroutine %llu)",
                       dec__lg_descs[h->ev.type].name, (unsigned long long)h->key);
    uint64_t next = h->next_seq == LG_NOSEQ ? o->seq : h->next_seq == LG_SEQINC ? o->seq + 1 : h->next_seq;
    dec__lg_ord *w = &mg->gc;
    if (h->key != LG_GARBAGE) {
        if (!mg->gi[i] && !(mg->gi[i] = ord_add(mg, h->key, err)))
            return false;
        w = &mg->ord[mg->gi[i]];
    }
    w->seq = next, w->st = h->next_st;
    return true;
}

/* Cursor i is P index i (dec__lg_cur_open); a put that records only i can
 * replay the order on cursors of its own. */
/* Decodes cursor i's next head and files the cursor under frontier or
 * blocked. */
static bool advance(merge *mg, uint32_t i, cs_err *err)
{
    dec__lg_cur *c = &mg->c[i];
    if (!dec__lg_cur_next(mg->s, c, err))
        return false;
    mg->gi[i] = 0;
    if (!c->has_head)
        return true;
    if (ready(mg, i))
        mg->frontier[mg->n_front++] = i;
    else
        mg->blocked[mg->n_blocked++] = i;
    return true;
}

static void unblock_waiters(merge *mg, uint64_t key)
{
    for (uint32_t j = 0; j < mg->n_blocked;) {
        uint32_t i = mg->blocked[j];
        if (mg->c[i].h.key == key && ready(mg, i)) {
            mg->blocked[j] = mg->blocked[--mg->n_blocked];
            mg->frontier[mg->n_front++] = i;
        } else {
            j++;
        }
    }
}

static bool merge_init(merge *mg, const dec__lg_scan *s, cs_err *err)
{
    memset(mg, 0, sizeof *mg);
    mg->s = s;
    cs_ids_init(&mg->gt, DEC__LG_GTAB_LIMIT(s->size));
    mg->n = s->n_p + (s->n_cpu ? 1 : 0);
    mg->c = cs_calloc(mg->n + 1, sizeof *mg->c);
    mg->gi = cs_calloc(mg->n + 1, sizeof *mg->gi);
    mg->frontier = cs_calloc(mg->n + 1, sizeof *mg->frontier);
    mg->blocked = cs_calloc(mg->n + 1, sizeof *mg->blocked);
    if (!mg->c || !mg->gi || !mg->frontier || !mg->blocked)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u P cursors", mg->n);
    for (uint32_t i = 0; i < mg->n; i++)
        dec__lg_cur_open(s, &mg->c[i], i);
    for (uint32_t i = 0; i < mg->n; i++)
        if (!advance(mg, i, err))
            return false;
    return true;
}

static void merge_deinit(merge *mg)
{
    cs_ids_deinit(&mg->gt);
    cs_free(mg->ord);
    cs_free(mg->c);
    cs_free(mg->gi);
    cs_free(mg->frontier);
    cs_free(mg->blocked);
}

static bool merge_step(merge *mg, dec__lg_put_fn *put, void *ud, cs_err *err)
{
    uint32_t best = 0;
    for (uint32_t j = 1; j < mg->n_front; j++)
        if (mg->c[mg->frontier[j]].h.ev.ts < mg->c[mg->frontier[best]].h.ev.ts)
            best = j;
    uint32_t i = mg->frontier[best];
    mg->frontier[best] = mg->frontier[--mg->n_front];
    dec__lg_head *h = &mg->c[i].h;
    if (!apply(mg, i, err))
        return false;
    h->ev.type = dec__lg_plain_type(h->ev.type);
    uint64_t key = h->key;
    if (!put(ud, i, &h->ev, err) || !advance(mg, i, err))
        return false;
    if (key != LG_UNORDERED)
        unblock_waiters(mg, key);
    return true;
}

bool dec__lg_order1007(const dec__lg_scan *s, dec__lg_put_fn *put, void *ud, cs_err *err)
{
    merge mg;
    bool ok = merge_init(&mg, s, err);
    while (ok && mg.n_front)
        ok = merge_step(&mg, put, ud, err);
    if (ok && mg.n_blocked) {
        const dec__lg_head *h = &mg.c[mg.blocked[0]].h;
        ok = CS_FAIL(err, CS_E_INVALID, h->ev.off, "no consistent ordering of events possible (%s of goroutine %llu)",
                     dec__lg_descs[h->ev.type].name, (unsigned long long)h->key);
    }
    merge_deinit(&mg);
    return ok;
}

bool dec__lg_decode_all(const dec__lg_scan *s, dec__lg_list *out, cs_err *err)
{
    for (uint32_t i = 0; i < s->n_p; i++) {
        dec__lg_cur c;
        dec__lg_cur_open(s, &c, i);
        for (;;) {
            if (!dec__lg_cur_next(s, &c, err))
                return false;
            if (!c.has_head)
                break;
            if (!dec__lg_list_push(out, &c.h.ev, err))
                return false;
        }
    }
    return true;
}

static int cmp_seq(const void *a, const void *b)
{
    const dec__lg_ev *x = a, *y = b;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

bool dec__lg_order1005(const dec__lg_scan *s, dec__lg_list *out, cs_err *err)
{
    if (!dec__lg_decode_all(s, out, err))
        return false;
    for (uint32_t i = 0; i < out->n; i++) {
        dec__lg_ev *ev = &out->ev[i];
        if (ev->type == LG_SYSEXIT) {
            ev->seq = (int64_t)ev->args[1];
            if (ev->args[2])
                ev->ts = (int64_t)ev->args[2];
        }
    }
    qsort(out->ev, out->n, sizeof *out->ev, cmp_seq);
    for (uint32_t i = 1; i < out->n; i++)
        if (out->ev[i].ts < out->ev[i - 1].ts)
            return CS_FAIL(err, CS_E_INVALID, out->ev[i].off, "time stamps out of order");
    return true;
}
