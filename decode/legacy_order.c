/* decode/legacy_order.c — pass 2 of the legacy decoder: puts the per-P event
 * streams in Go's order (go-trace-format.md §3.9). order1007 is a streaming
 * k-way merge over one cursor per P that decodes records straight from the
 * mapped file; the per-goroutine sequence state lives in the sink's dense
 * goroutine table. Only cursors whose head waits on the goroutine that just
 * moved are re-examined, so a step costs O(frontier), not O(P). order1005
 * (Go 1.5) materialises all events and sorts them by global sequence. */
#include "legacy.h"

#include <stdlib.h>
#include <string.h>

#define NOSEQ UINT64_MAX
#define SEQINC (UINT64_MAX - 1)
#define UNORDERED UINT64_MAX
#define GARBAGE (UINT64_MAX - 1)

typedef struct cursor {
    uint32_t batch;         /* current batch, UINT32_MAX when done */
    uint32_t cpu_next;      /* ProfileP cursor: next CPU sample */
    uint64_t pos, end;
    int64_t last_ts, last_seq;
    uint64_t last_g;
    int64_t p;
    bool has_head, selected, profile;
    dec__lg_ev head;
    uint64_t key, init_seq, next_seq;
    uint8_t init_st, next_st;
} cursor;

typedef struct merge {
    const dec__lg_scan *s;
    cursor *c;
    uint32_t n;
    uint32_t *frontier, n_front;
    uint32_t *blocked, n_blocked;   /* non-selected cursors with a head */
    uint64_t gc_seq;                /* the GARBAGE pseudo-goroutine */
    uint8_t gc_st;
} merge;

/* Go's parseEvents for one record: ts/seq from deltas, Args, stack id, G. */
static void decode_event(const dec__lg_scan *s, cursor *c, const dec__lg_rec *r, dec__lg_ev *ev)
{
    const dec__lg_desc *d = &dec__lg_descs[r->type];
    unsigned ao, n = r->n < LG_MAXARGS ? r->n : LG_MAXARGS;
    memset(ev, 0, sizeof *ev);
    ev->off = r->off, ev->type = r->type, ev->wire = r->wire, ev->p = c->p, ev->g = c->last_g;
    if (s->ver < 1007) {
        c->last_seq = (int64_t)((uint64_t)c->last_seq + r->a[0]);
        ev->seq = c->last_seq;
        ev->ts = (int64_t)((uint64_t)c->last_ts + r->a[1]);
        ao = 2;
    } else {
        ev->ts = (int64_t)((uint64_t)c->last_ts + r->a[0]);
        ao = 1;
    }
    c->last_ts = ev->ts;
    for (unsigned i = ao; i < n; i++) {
        if (i == n - 1 && d->stack)
            ev->stk = r->a[i];
        else if (i - ao < 3)
            ev->args[i - ao] = r->a[i];
    }
    ev->str_off = r->str_off, ev->str_len = r->str_len;
    switch (r->type) {
    case LG_GOSTART: case LG_STARTLOCAL: case LG_STARTLABEL:
        c->last_g = ev->g = ev->args[0];
        break;
    case LG_STWSTART: case LG_GCSTART: case LG_GCDONE: case LG_STWDONE:
        ev->g = 0;
        break;
    case LG_GOEND: case LG_GOSTOP: case LG_GOSCHED: case LG_GOPREEMPT: case LG_GOSLEEP:
    case LG_GOBLOCK: case LG_BLOCKSEND: case LG_BLOCKRECV: case LG_BLOCKSELECT: case LG_BLOCKSYNC:
    case LG_BLOCKCOND: case LG_BLOCKNET: case LG_SYSBLOCK: case LG_BLOCKGC:
        c->last_g = 0;
        break;
    case LG_SYSEXIT: case LG_GOWAITING: case LG_GOINSYSCALL:
        ev->g = ev->args[0];
        break;
    case LG_CPUSAMPLE:
        ev->ts = (int64_t)ev->args[0];
        ev->p = (int64_t)ev->args[1];
        ev->g = ev->args[2];
        ev->args[0] = 0;
        break;
    }
}

static bool cursor_open_batch(const dec__lg_scan *s, cursor *c, uint32_t bi)
{
    c->batch = bi;
    if (bi == UINT32_MAX)
        return false;
    const dec__lg_batch *b = &s->batches[bi];
    c->pos = b->start, c->end = b->end;
    c->last_ts = (int64_t)b->ticks, c->last_seq = b->seq;
    return true;
}

/* Decodes the cursor's next event into head (has_head false at the end). */
static bool cursor_next(const dec__lg_scan *s, cursor *c, cs_err *err)
{
    dec__lg_rec r;
    c->has_head = false;
    if (c->profile) {
        if (c->cpu_next >= s->n_cpu)
            return true;
        dec_buf b = dec_buf_make(s->data, s->size, 0);
        b.pos = (size_t)s->cpu[c->cpu_next++].off;
        if (!dec__lg_rec_read(&b, s->ver, false, &r, err))
            return false;
        decode_event(s, c, &r, &c->head);
        c->has_head = true;
        return true;
    }
    while (c->batch != UINT32_MAX) {
        if (c->pos >= c->end) {
            cursor_open_batch(s, c, s->batches[c->batch].next);
            continue;
        }
        dec_buf b = dec_buf_make(s->data + c->pos, (size_t)(c->end - c->pos), c->pos);
        if (!dec__lg_rec_read(&b, s->ver, false, &r, err))
            return false;
        c->pos = dec_buf_off(&b);
        switch (r.type) {
        case LG_BATCH: case LG_FREQUENCY: case LG_TIMERG: case LG_STRING: case LG_STACK:
            continue;
        case LG_CPUSAMPLE: /* advances the batch clock, ordered from ProfileP */
            c->last_ts = (int64_t)((uint64_t)c->last_ts + r.a[0]);
            continue;
        }
        decode_event(s, c, &r, &c->head);
        c->has_head = true;
        return true;
    }
    return true;
}

/* stateTransition of Go's order1007. */
static void transition_of(cursor *c)
{
    const dec__lg_ev *ev = &c->head;
    c->key = ev->g;
    switch (ev->type) {
    case LG_GOCREATE:
        c->key = ev->args[0], c->init_seq = 0, c->init_st = LG_GDEAD, c->next_seq = 1, c->next_st = LG_GRUNNABLE;
        break;
    case LG_GOWAITING: case LG_GOINSYSCALL:
        c->init_seq = 1, c->init_st = LG_GRUNNABLE, c->next_seq = 2, c->next_st = LG_GWAITING;
        break;
    case LG_GOSTART: case LG_STARTLABEL:
        c->init_seq = ev->args[1], c->init_st = LG_GRUNNABLE;
        c->next_seq = ev->args[1] + 1, c->next_st = LG_GRUNNING;
        break;
    case LG_STARTLOCAL:
        c->init_seq = NOSEQ, c->init_st = LG_GRUNNABLE, c->next_seq = SEQINC, c->next_st = LG_GRUNNING;
        break;
    case LG_GOBLOCK: case LG_BLOCKSEND: case LG_BLOCKRECV: case LG_BLOCKSELECT: case LG_BLOCKSYNC:
    case LG_BLOCKCOND: case LG_BLOCKNET: case LG_GOSLEEP: case LG_SYSBLOCK: case LG_BLOCKGC:
        c->init_seq = NOSEQ, c->init_st = LG_GRUNNING, c->next_seq = NOSEQ, c->next_st = LG_GWAITING;
        break;
    case LG_GOSCHED: case LG_GOPREEMPT:
        c->init_seq = NOSEQ, c->init_st = LG_GRUNNING, c->next_seq = NOSEQ, c->next_st = LG_GRUNNABLE;
        break;
    case LG_GOUNBLOCK: case LG_SYSEXIT:
        c->key = ev->args[0], c->init_seq = ev->args[1], c->init_st = LG_GWAITING;
        c->next_seq = ev->args[1] + 1, c->next_st = LG_GRUNNABLE;
        break;
    case LG_UNBLOCKLOCAL: case LG_SYSEXITLOCAL:
        c->key = ev->args[0], c->init_seq = NOSEQ, c->init_st = LG_GWAITING;
        c->next_seq = SEQINC, c->next_st = LG_GRUNNABLE;
        break;
    case LG_GCSTART:
        c->key = GARBAGE, c->init_seq = ev->args[0], c->init_st = LG_GDEAD;
        c->next_seq = ev->args[0] + 1, c->next_st = LG_GDEAD;
        break;
    default:
        c->key = UNORDERED;
    }
}

static void state_of(const merge *mg, const dec__lg_sink *k, uint64_t key, uint64_t *seq, uint8_t *st)
{
    if (key == GARBAGE) {
        *seq = mg->gc_seq, *st = mg->gc_st;
        return;
    }
    uint32_t i = dec__lg_gtab_get(&k->gt, key);
    *seq = i ? k->g[i].oseq : 0;
    *st = i ? k->g[i].ostatus : LG_GDEAD;
}

static bool ready(const merge *mg, const dec__lg_sink *k, const cursor *c)
{
    if (c->key == UNORDERED)
        return true;
    uint64_t seq;
    uint8_t st;
    state_of(mg, k, c->key, &seq, &st);
    return (c->init_seq == NOSEQ || c->init_seq == seq) && c->init_st == st;
}

static bool apply(merge *mg, dec__lg_sink *k, const cursor *c, cs_err *err)
{
    if (c->key == UNORDERED)
        return true;
    if (!ready(mg, k, c))
        return CS_FAIL(err, CS_E_INVALID, c->head.off, "event sequences are broken (%s of goroutine %llu)",
                       dec__lg_descs[c->head.type].name, (unsigned long long)c->key);
    uint64_t cur, next = c->next_seq;
    uint8_t st;
    state_of(mg, k, c->key, &cur, &st);
    if (next == NOSEQ)
        next = cur;
    else if (next == SEQINC)
        next = cur + 1;
    if (c->key == GARBAGE) {
        mg->gc_seq = next, mg->gc_st = c->next_st;
        return true;
    }
    dec__lg_g *g = dec__lg_g_get(k, c->key, err);
    if (!g)
        return false;
    g->oseq = next, g->ostatus = c->next_st;
    return true;
}

/* Moves cursor i into the frontier if its head is ready, else to blocked. */
static void examine(merge *mg, const dec__lg_sink *k, uint32_t i)
{
    cursor *c = &mg->c[i];
    if (!c->has_head)
        return;
    if (ready(mg, k, c)) {
        c->selected = true;
        mg->frontier[mg->n_front++] = i;
    } else {
        mg->blocked[mg->n_blocked++] = i;
    }
}

static void unblock_waiters(merge *mg, const dec__lg_sink *k, uint64_t key)
{
    for (uint32_t j = 0; j < mg->n_blocked;) {
        uint32_t i = mg->blocked[j];
        if (mg->c[i].key == key && ready(mg, k, &mg->c[i])) {
            mg->blocked[j] = mg->blocked[--mg->n_blocked];
            mg->c[i].selected = true;
            mg->frontier[mg->n_front++] = i;
        } else {
            j++;
        }
    }
}

static uint8_t plain_type(uint8_t t)
{
    return t == LG_STARTLOCAL ? LG_GOSTART : t == LG_UNBLOCKLOCAL ? LG_GOUNBLOCK
         : t == LG_SYSEXITLOCAL ? LG_SYSEXIT : t;
}

static int cmp_cpu(const void *a, const void *b)
{
    const dec__lg_cpu *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->off < y->off ? -1 : x->off > y->off; /* file order = stable */
}

static bool merge_init(merge *mg, const dec__lg_scan *s, dec__lg_sink *k, cs_err *err)
{
    memset(mg, 0, sizeof *mg);
    mg->s = s;
    mg->n = s->n_p + (s->n_cpu ? 1 : 0);
    mg->c = cs_calloc(mg->n + 1, sizeof *mg->c);
    mg->frontier = cs_calloc(mg->n + 1, sizeof *mg->frontier);
    mg->blocked = cs_calloc(mg->n + 1, sizeof *mg->blocked);
    if (!mg->c || !mg->frontier || !mg->blocked)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u P cursors", mg->n);
    if (s->n_cpu) /* Go sorts the ProfileP batch stably by ts */
        qsort((dec__lg_cpu *)s->cpu, s->n_cpu, sizeof *s->cpu, cmp_cpu);
    for (uint32_t i = 0; i < mg->n; i++) {
        cursor *c = &mg->c[i];
        if (i < s->n_p) {
            c->p = s->pid[i];
            cursor_open_batch(s, c, s->p_first[i]);
        } else {
            c->profile = true, c->p = LG_PROFILEP;
        }
        if (!cursor_next(s, c, err))
            return false;
        if (c->has_head)
            transition_of(c);
        examine(mg, k, i);
    }
    return true;
}

static void merge_deinit(merge *mg)
{
    cs_free(mg->c);
    cs_free(mg->frontier);
    cs_free(mg->blocked);
}

/* Streaming post-merge (§3.9 steps 1–2): the order check on merged times,
 * then the GoSysExit real time. The stable re-sort is not done: a GoSysExit
 * is consumed at its merge position with its corrected time. Nothing else
 * about its goroutine can happen in between (it is waiting in a syscall), so
 * statistics, validation and the model come out the same. */
static bool stream_out(dec__lg_sink *k, dec__lg_ev *ev, cs_err *err)
{
    if (k->started && ev->ts < k->last_ticks)
        return CS_FAIL(err, CS_E_INVALID, ev->off, "time stamps out of order");
    k->last_ticks = ev->ts;
    if (ev->type == LG_SYSBLOCK || ev->type == LG_GOINSYSCALL || ev->type == LG_SYSEXIT) {
        dec__lg_g *g = dec__lg_g_get(k, ev->g, err);
        if (!g)
            return false;
        if (ev->type != LG_SYSEXIT) {
            g->last_sys_block = ev->ts;
        } else if (ev->args[2]) {
            int64_t t = (int64_t)ev->args[2];
            if (!g->last_sys_block)
                return CS_FAIL(err, CS_E_INVALID, ev->off, "stray syscall exit");
            if (t < g->last_sys_block)
                return CS_FAIL(err, CS_E_INVALID, ev->off, "time stamps out of order");
            ev->ts = t;
        }
    }
    return dec__lg_sink_put(k, ev, err);
}

static bool merge_step(merge *mg, dec__lg_sink *k, dec__lg_list *out, cs_err *err)
{
    uint32_t best = 0;
    for (uint32_t j = 1; j < mg->n_front; j++)
        if (mg->c[mg->frontier[j]].head.ts < mg->c[mg->frontier[best]].head.ts)
            best = j;
    uint32_t i = mg->frontier[best];
    mg->frontier[best] = mg->frontier[--mg->n_front];
    cursor *c = &mg->c[i];
    if (!apply(mg, k, c, err))
        return false;
    c->head.type = plain_type(c->head.type);
    dec__lg_ev ev = c->head;
    uint64_t key = c->key;
    c->selected = false;
    if (!cursor_next(mg->s, c, err))
        return false;
    if (c->has_head)
        transition_of(c);
    examine(mg, k, i);
    if (key != UNORDERED)
        unblock_waiters(mg, k, key);
    return out ? dec__lg_list_push(out, &ev, err) : stream_out(k, &ev, err);
}

bool dec__lg_order1007(const dec__lg_scan *s, dec__lg_sink *k, dec__lg_list *out, cs_err *err)
{
    merge mg;
    bool ok = merge_init(&mg, s, k, err);
    while (ok && mg.n_front)
        ok = merge_step(&mg, k, out, err);
    if (ok && mg.n_blocked)
        ok = CS_FAIL(err, CS_E_INVALID, mg.c[mg.blocked[0]].head.off,
                     "no consistent ordering of events possible (%s of goroutine %llu)",
                     dec__lg_descs[mg.c[mg.blocked[0]].head.type].name,
                     (unsigned long long)mg.c[mg.blocked[0]].key);
    merge_deinit(&mg);
    return ok;
}

bool dec__lg_decode_all(const dec__lg_scan *s, dec__lg_list *out, cs_err *err)
{
    for (uint32_t i = 0; i < s->n_p; i++) {
        cursor c = {.p = s->pid[i]};
        cursor_open_batch(s, &c, s->p_first[i]);
        for (;;) {
            if (!cursor_next(s, &c, err))
                return false;
            if (!c.has_head)
                break;
            if (!dec__lg_list_push(out, &c.head, err))
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
