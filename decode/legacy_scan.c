/* decode/legacy_scan.c — pass 1 of the legacy decoder: one walk over every
 * record of the file (docs/trace-format.md §3.1–3.3, §3.7). Validates each
 * record as Go's readTrace/argNum do, indexes batches per P (byte ranges,
 * no events kept), collects String, Stack, Frequency and TimerGoroutine
 * records and the CPU samples, and counts events. Builds the model's stack
 * table. Allocation is bounded by the number of records. */
#include "legacy.h"

#include <pthread.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t p_index(dec__lg_scan *s, int64_t p, cs_err *err)
{
    uint32_t i;
    if (cs_map_get(&s->p_map, (uint64_t)p, &i))
        return i;
    if (!cs_grow((void **)&s->pid, &s->cap_p, s->n_p + 1, sizeof *s->pid, err) ||
        !cs_grow((void **)&s->p_first, &s->cap_p1, s->n_p + 1, sizeof *s->p_first, err) ||
        !cs_grow((void **)&s->p_last, &s->cap_p2, s->n_p + 1, sizeof *s->p_last, err))
        return UINT32_MAX;
    s->pid[s->n_p] = p;
    s->p_first[s->n_p] = s->p_last[s->n_p] = UINT32_MAX;
    if (!cs_map_put(&s->p_map, (uint64_t)p, s->n_p, err))
        return UINT32_MAX;
    return s->n_p++;
}

static bool batch_open(dec__lg_scan *s, int64_t p, uint64_t start, uint64_t ticks, int64_t seq, cs_err *err)
{
    uint32_t pi = p_index(s, p, err);
    if (pi == UINT32_MAX ||
        !cs_grow((void **)&s->batches, &s->cap_batches, s->n_batches + 1, sizeof *s->batches, err))
        return false;
    uint32_t bi = s->n_batches++;
    s->batches[bi] = (dec__lg_batch){.start = start, .end = start, .ticks = ticks, .seq = seq,
                                     .next = UINT32_MAX};
    if (s->p_last[pi] == UINT32_MAX)
        s->p_first[pi] = bi;
    else
        s->batches[s->p_last[pi]].next = bi;
    s->p_last[pi] = bi;
    return true;
}

static bool add_string(dec__lg_scan *s, dec__lg_str str, cs_err *err)
{
    uint32_t dummy;
    if (cs_map_get(&s->str_index, str.id, &dummy))
        return CS_FAIL(err, CS_E_CORRUPT, str.rec, "string has duplicate id %llu", (unsigned long long)str.id);
    if (!cs_grow((void **)&s->strs, &s->cap_strs, s->n_strs + 1, sizeof *s->strs, err) ||
        !cs_map_put(&s->str_index, str.id, s->n_strs, err))
        return false;
    s->strs[s->n_strs++] = str;
    return true;
}

static bool on_record(dec__lg_scan *s, const dec__lg_rec *r, uint64_t next_off, cs_err *err)
{
    bool v15 = s->ver < 1007;
    switch (r->type) {
    case LG_BATCH:
        if (s->n_batches)
            s->batches[s->n_batches - 1].end = r->off;
        return batch_open(s, (int64_t)r->a[0], next_off, v15 ? r->a[2] : r->a[1], v15 ? (int64_t)r->a[1] : 0, err);
    case LG_FREQUENCY:
        s->freq = (int64_t)r->a[0];
        if (s->freq <= 0)
            return CS_FAIL(err, CS_E_INVALID, r->off, "time stamps out of order (frequency %lld)", (long long)s->freq);
        return true;
    case LG_TIMERG:
        return cs_map_put(&s->timer_g, r->a[0], 1, err);
    case LG_STRING:
        return add_string(s, (dec__lg_str){.off = r->str_off, .id = r->a[0], .rec = r->off, .len = r->str_len}, err);
    case LG_STACK:
        if (!cs_grow((void **)&s->stack_recs, &s->cap_stack_recs, s->n_stack_recs + 2, sizeof *s->stack_recs, err))
            return false;
        s->stack_recs[s->n_stack_recs++] = r->body;
        s->stack_recs[s->n_stack_recs++] = r->body_end;
        return true;
    }
    if (!s->n_batches && !batch_open(s, 0, r->off, 0, 0, err))
        return false;
    s->n_events++;
    s->has_futile |= r->type == LG_FUTILE;
    if (r->type == LG_CPUSAMPLE) {
        if (!cs_grow((void **)&s->cpu, &s->cap_cpu, s->n_cpu + 1, sizeof *s->cpu, err))
            return false;
        s->cpu[s->n_cpu++] = (dec__lg_cpu){.ts = (int64_t)r->a[1], .off = r->off};
    }
    return true;
}

cs_sid dec__lg_str_sid(dec__lg_scan *s, cs_model *m, uint64_t id, cs_err *err)
{
    uint32_t i;
    if (!id || !cs_map_get(&s->str_index, id, &i))
        return 0;
    if (!s->strs[i].sid)
        s->strs[i].sid = cs_model_intern(m, (const char *)s->data + s->strs[i].off, s->strs[i].len, err);
    return s->strs[i].sid;
}

cs_sid dec__lg_pc_sid(const dec__lg_scan *s, cs_model *m, uint64_t pc, cs_err *err)
{
    const char *name = s->sym ? dec_symtab_lookup(s->sym, pc) : NULL;
    return name ? cs_model_intern(m, name, strlen(name), err) : 0;
}

uint32_t dec__lg_stack(const dec__lg_scan *s, uint64_t wire_id)
{
    uint32_t v;
    return wire_id && cs_map_get(&s->stack_index, wire_id, &v) ? v : 0;
}

/* One Stack record [id, n, frames...] (§3.7): 4 varints per frame from 1.7,
 * bare PCs in 1.5. */
static bool build_stack(dec__lg_scan *s, cs_model *m, uint64_t body, uint64_t end, cs_frame *fr, cs_err *err)
{
    dec_buf b = dec_buf_make(s->data + body, (size_t)(end - body), body);
    uint64_t id = dec_buf_uv(&b), n = dec_buf_uv(&b);
    if (b.bad)
        return CS_FAIL(err, CS_E_CORRUPT, body, "Stack has wrong number of arguments");
    if (n > 1000)
        return CS_FAIL(err, CS_E_CORRUPT, body, "Stack has too many frames: %llu", (unsigned long long)n);
    unsigned per = s->ver < 1007 ? 1 : 4;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t v[4] = {0};
        for (unsigned k = 0; k < per; k++)
            v[k] = dec_buf_uv(&b);
        if (b.bad)
            return CS_FAIL(err, CS_E_CORRUPT, body, "Stack has wrong number of arguments: want %llu",
                           (unsigned long long)(2 + per * n));
        fr[i] = (cs_frame){.pc = v[0], .line = (uint32_t)v[3]};
        if (per == 1) { /* 1.5: return PCs; the call is at pc - 1 */
            fr[i].func = dec__lg_pc_sid(s, m, v[0] - 1, err);
        } else {
            fr[i].func = dec__lg_str_sid(s, m, v[1], err);
            fr[i].file = dec__lg_str_sid(s, m, v[2], err);
        }
    }
    if (dec_buf_left(&b))
        return CS_FAIL(err, CS_E_CORRUPT, body, "Stack has wrong number of arguments: want %llu",
                       (unsigned long long)(2 + per * n));
    if (err->code != CS_OK)
        return false;
    if (!id || !n)
        return true;
    uint32_t si = cs_model_stack_add(m, fr, (uint32_t)n, err);
    return si && cs_map_put(&s->stack_index, id, si, err);
}

static bool build_stacks(dec__lg_scan *s, cs_model *m, cs_err *err)
{
    if (!s->n_stack_recs)
        return true;
    cs_frame *fr = cs_alloc(1000 * sizeof *fr);
    if (!fr)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for stack frames");
    bool ok = true;
    for (uint32_t i = 0; ok && i < s->n_stack_recs; i += 2)
        ok = build_stack(s, m, s->stack_recs[i], s->stack_recs[i + 1], fr, err);
    cs_free(fr);
    return ok;
}

/* Fast path for ordinary event records, most of the file: checks the
 * argument count and varint lengths without decoding values. Anything else
 * (special records, anything odd) returns NULL and goes through
 * dec__lg_rec_read, which reports the exact problem. */
static const uint8_t *skim_event(const dec__lg_vtab *v, const uint8_t *p, const uint8_t *end, uint8_t *type)
{
    uint8_t h = *p++;
    unsigned t = v->type[h & 63], narg = (h >> 6) + 1u, inl = 4;
    *type = (uint8_t)t;
    if (!v->plain[t])
        return NULL;
    if (v->ver < 1007)
        narg++, inl++;
    if (narg < inl) {
        if (narg != v->argn[t])
            return NULL;
        for (unsigned i = 0; i < narg; i++) {
            unsigned k = 0;
            while (p + k < end && (p[k] & 0x80))
                if (++k == 10)
                    return NULL;
            if (p + k >= end)
                return NULL;
            p += k + 1;
        }
        return p;
    }
    uint64_t len = 0;
    for (unsigned k = 0, sh = 0;; k++, sh += 7) {
        if (p >= end || k == 10)
            return NULL;
        uint8_t b = *p++;
        len |= (uint64_t)(b & 0x7f) << sh;
        if (!(b & 0x80))
            break;
    }
    if (len == 0 || len > (uint64_t)(end - p) || (p[len - 1] & 0x80))
        return NULL;
    unsigned n = 0, run = 0;
    for (uint64_t i = 0; i < len; i++) {
        if (!(p[i] & 0x80))
            n++, run = 0;
        else if (++run == 10)
            return NULL;
    }
    return n == v->argn[t] ? p + len : NULL;
}

/* A record cut off by the end of the file, after the Frequency record (so in
 * the stack table at the end): keep what came before, with a warning. */
#define WARN_CAP sizeof(((cs_model *)0)->warning)

static bool salvage(dec__lg_scan *s, char *warn, bool strict, cs_err *err)
{
    if (strict || err->code != CS_E_TRUNCATED || !s->freq || !s->n_events)
        return false;
    snprintf(warn, WARN_CAP, "trace cut short at offset %llu: showing the good prefix",
             (unsigned long long)err->offset);
    *err = (cs_err){0};
    return true;
}

/* Reads records from p until p reaches stop (NULL: the end). Returns where
 * it stopped, *end moved back to it when a cut-off tail was salvaged, or
 * NULL on an error. */
static const uint8_t *walk(dec__lg_scan *s, const uint8_t *p, const uint8_t *stop, const uint8_t **end,
                           bool strict, char *warn, cs_err *err)
{
    const uint8_t *e = *end, *data = s->data;
    if (!stop)
        stop = e;
    dec__lg_rec r;
    while (p < stop) {
        uint8_t t;
        const uint8_t *q = skim_event(&s->vt, p, e, &t);
        if (q) {
            if (!s->n_batches && !batch_open(s, 0, (uint64_t)(p - data), 0, 0, err))
                return NULL;
            s->n_events++;
            s->has_futile |= t == LG_FUTILE;
            p = q;
            continue;
        }
        dec_buf b = dec_buf_make(p, (size_t)(e - p), (uint64_t)(p - data));
        if (!dec__lg_rec_read(&b, &s->vt, true, &r, err)) {
            if (!salvage(s, warn, strict, err))
                return NULL;
            return *end = p;
        }
        if (!on_record(s, &r, dec_buf_off(&b), err))
            return NULL;
        p += b.pos;
    }
    return p;
}

/* ---- pass 1 on two threads ----
 * A second thread scans from a Batch record near the middle of the file
 * while this one scans up to it. The halves are joined only when this
 * thread lands exactly on that record, so the second one read the very
 * records a single walk would have; otherwise (a false start, or any error
 * in the second half) this thread goes on alone. Either way the result,
 * errors included, is that of one walk. */

#define SYNC_RECORDS 64       /* records that must read cleanly after a candidate */
#define SYNC_WINDOW (256u << 10) /* bytes searched for one (batches come every 64 KB or so) */

typedef struct half {
    dec__lg_scan t;
    const uint8_t *from, *end, *stop;
    bool strict, ok;
    char warn[WARN_CAP];
    cs_err err;
} half;

static void *half_thread(void *arg)
{
    half *h = arg;
    h->stop = walk(&h->t, h->from, NULL, &h->end, h->strict, h->warn, &h->err);
    h->ok = h->stop != NULL;
    return NULL;
}

/* A Batch record in the SYNC_WINDOW bytes from off that starts
 * SYNC_RECORDS well-formed records (or well-formed records up to the end of
 * the file), or NULL. */
static const uint8_t *sync_point(const dec__lg_scan *s, size_t off)
{
    const uint8_t *end = s->data + s->size;
    const uint8_t *last = s->size - off > SYNC_WINDOW ? s->data + off + SYNC_WINDOW : end;
    for (const uint8_t *p = s->data + off; p < last; p++) {
        if (s->vt.type[*p & 63] != LG_BATCH || (*p >> 6) == 3)
            continue;
        dec_buf b = dec_buf_make(p, (size_t)(end - p), (uint64_t)(p - s->data));
        dec__lg_rec r;
        cs_err e = {0};
        int n = 0;
        while (n < SYNC_RECORDS && dec__lg_rec_read(&b, &s->vt, true, &r, &e))
            n++;
        if (n == SYNC_RECORDS || (n && !dec_buf_left(&b)))
            return p;
    }
    return NULL;
}

/* Appends the second half's results to s, as if s had read them itself. */
static bool join(dec__lg_scan *s, const dec__lg_scan *t, cs_err *err)
{
    uint32_t base = s->n_batches;
    for (uint32_t i = 0; i < t->n_batches; i++) {
        if (!cs_grow((void **)&s->batches, &s->cap_batches, s->n_batches + 1, sizeof *s->batches, err))
            return false;
        dec__lg_batch b = t->batches[i];
        b.next = b.next == UINT32_MAX ? UINT32_MAX : b.next + base;
        s->batches[s->n_batches++] = b;
    }
    for (uint32_t j = 0; j < t->n_p; j++) { /* t's Ps in order of first batch: the order one walk finds */
        uint32_t pi = p_index(s, t->pid[j], err);
        if (pi == UINT32_MAX)
            return false;
        uint32_t first = t->p_first[j] + base;
        if (s->p_last[pi] == UINT32_MAX)
            s->p_first[pi] = first;
        else
            s->batches[s->p_last[pi]].next = first;
        s->p_last[pi] = t->p_last[j] + base;
    }
    for (uint32_t i = 0; i < t->n_strs; i++)
        if (!add_string(s, t->strs[i], err))
            return false;
    for (uint32_t i = 0; i < t->n_stack_recs; i++) {
        if (!cs_grow((void **)&s->stack_recs, &s->cap_stack_recs, s->n_stack_recs + 1, sizeof *s->stack_recs, err))
            return false;
        s->stack_recs[s->n_stack_recs++] = t->stack_recs[i];
    }
    for (uint32_t i = 0; i < t->n_cpu; i++) {
        if (!cs_grow((void **)&s->cpu, &s->cap_cpu, s->n_cpu + 1, sizeof *s->cpu, err))
            return false;
        s->cpu[s->n_cpu++] = t->cpu[i];
    }
    for (uint32_t i = 0; i < t->timer_g.cap; i++)
        if (t->timer_g.slots[i].used && !cs_map_put(&s->timer_g, t->timer_g.slots[i].key, 1, err))
            return false;
    if (t->freq)
        s->freq = t->freq;
    s->n_events += t->n_events;
    s->has_futile |= t->has_futile;
    return true;
}
static int cmp_cpu(const void *a, const void *b)
{
    const dec__lg_cpu *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->off < y->off ? -1 : x->off > y->off; /* file order = stable */
}

static void scan_init(dec__lg_scan *s, const cs_file *f, int ver)
{
    s->ver = ver;
    s->f = f;
    s->data = f->data;
    s->size = f->size;
    dec__lg_vtab_init(&s->vt, ver);
}

/* Walks the file, on two threads when asked to and the file is large. */
static bool walk_all(dec__lg_scan *s, const cs_file *f, const dec_desc *d, cs_model *m, const uint8_t **end,
                     cs_err *err)
{
    bool strict = d->strict;
    const uint8_t *p = f->data + 16;
    const uint8_t *mid = d->jobs > 1 && f->size >= d->split_min && f->size > 32
                             ? sync_point(s, f->size / 2) : NULL;
    void *raw = NULL;
    half *h = mid ? cs_alloc_lines(sizeof *h, &raw) : NULL; /* the other thread writes it all the time */
    pthread_t th;
    if (h) {
        scan_init(&h->t, f, s->ver);
        h->from = mid, h->end = *end, h->strict = strict;
        if (cs_thread_create(&th, half_thread, h))
            h = NULL;
    }
    if (h) {
        p = walk(s, p, mid, end, strict, m->warning, err);
        pthread_join(th, NULL);
        bool joined = p == mid && h->ok;
        if (joined) {
            if (s->n_batches)
                s->batches[s->n_batches - 1].end = (uint64_t)(mid - f->data);
            joined = join(s, &h->t, err);
            p = h->stop, *end = h->end;
            memcpy(m->warning, h->warn, sizeof h->warn);
        }
        dec__lg_scan_deinit(&h->t);
        if (joined || !p || err->code != CS_OK) {
            cs_free(raw);
            return p && err->code == CS_OK;
        }
    }
    cs_free(raw);
    return walk(s, p, NULL, end, strict, m->warning, err) != NULL;
}

bool dec__lg_scan_run(dec__lg_scan *s, const cs_file *f, int ver, const dec_desc *d, cs_model *m, cs_err *err)
{
    scan_init(s, f, ver);
    const uint8_t *end = f->data + f->size;
    if (!walk_all(s, f, d, m, &end, err))
        return false;
    if (s->n_batches)
        s->batches[s->n_batches - 1].end = (uint64_t)(end - f->data);
    if (!s->n_events)
        return CS_FAIL(err, CS_E_INVALID, f->size, "trace is empty");
    if (!s->freq)
        return CS_FAIL(err, CS_E_TRUNCATED, f->size, "no Frequency record (trace cut short?)");
    if (s->n_cpu) /* Go sorts the ProfileP batch stably by ts */
        qsort(s->cpu, s->n_cpu, sizeof *s->cpu, cmp_cpu);
    return build_stacks(s, m, err);
}

void dec__lg_scan_deinit(dec__lg_scan *s)
{
    cs_free(s->batches);
    cs_free(s->pid);
    cs_free(s->p_first);
    cs_free(s->p_last);
    cs_map_deinit(&s->p_map);
    cs_free(s->strs);
    cs_map_deinit(&s->str_index);
    cs_free(s->stack_recs);
    cs_map_deinit(&s->stack_index);
    cs_free(s->cpu);
    cs_map_deinit(&s->timer_g);
    memset(s, 0, sizeof *s);
}
