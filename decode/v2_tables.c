/* decode/v2_tables.c — the per-generation tables of a Go 1.22+ trace
 * (docs/trace-format.md §4.3): strings, stacks (and the first frame seen for
 * each PC), CPU samples, the frequency and, from 1.25, the clock snapshot.
 * Called once per generation after v2_gen.c has found its batches; may run
 * on a worker thread, so it never touches the model. Strings and stacks are
 * turned into model sids/stacks lazily, on first use, by the main thread
 * (dec__v2_sid, dec__v2_stack_add). Error texts follow Go's reader. */
#include "v2.h"

#include <stdlib.h>
#include <string.h>

static bool strings_batch(const cs_file *f, v2_gen *g, const v2_batch *bt, cs_err *err)
{
    dec_buf b = dec_buf_make(cs_file_at(f, bt->data_off), bt->size, bt->data_off);
    dec_buf_u8(&b); /* EvStrings */
    while (dec_buf_left(&b)) {
        uint64_t at = dec_buf_off(&b);
        uint8_t ev = dec_buf_u8(&b);
        if (ev != V2_EvString)
            return CS_FAIL(err, CS_E_CORRUPT, at, "expected string event, got %u", ev);
        uint64_t id = dec_buf_uv(&b), len = dec_buf_uv(&b);
        if (!b.bad && len > V2_MAX_STRING)
            return CS_FAIL(err, CS_E_CORRUPT, at, "invalid string size %llu", (unsigned long long)len);
        const uint8_t *p = dec_buf_bytes(&b, len);
        if (b.bad)
            return CS_FAIL(err, CS_E_CORRUPT, at, "malformed string event");
        uint32_t n = g->str_ids.n;
        uint32_t slot = cs_ids_get(&g->str_ids, id, true, err);
        if (slot == UINT32_MAX)
            return false;
        if (slot != n)
            return CS_FAIL(err, CS_E_CORRUPT, at, "multiple strings with the same ID %llu", (unsigned long long)id);
        if (!cs_grow((void **)&g->str, &g->cap_str, g->n_str + 1, sizeof *g->str, err))
            return false;
        g->str[g->n_str++] = (v2_str){p, (uint32_t)len, 0};
    }
    return true;
}

static bool stacks_batch(const cs_file *f, v2_gen *g, const v2_batch *bt, cs_err *err)
{
    dec_buf b = dec_buf_make(cs_file_at(f, bt->data_off), bt->size, bt->data_off);
    dec_buf_u8(&b); /* EvStacks */
    while (dec_buf_left(&b)) {
        uint64_t at = dec_buf_off(&b);
        uint8_t ev = dec_buf_u8(&b);
        if (ev != V2_EvStack)
            return CS_FAIL(err, CS_E_CORRUPT, at, "expected stack event, got %u", ev);
        uint64_t id = dec_buf_uv(&b), n = dec_buf_uv(&b);
        if (!b.bad && n > V2_MAX_FRAMES)
            return CS_FAIL(err, CS_E_CORRUPT, at, "invalid stack size %llu", (unsigned long long)n);
        uint64_t foff = dec_buf_off(&b);
        for (uint64_t i = 0; i < n && !b.bad; i++) {
            v2_frame fr;
            fr.pc = dec_buf_uv(&b), fr.func = dec_buf_uv(&b), fr.file = dec_buf_uv(&b);
            fr.line = dec_buf_uv(&b);
            uint32_t have;
            if (b.bad || cs_map_get(&g->pc_frame, fr.pc, &have))
                continue;
            if (!cs_grow((void **)&g->frames, &g->cap_frames, g->n_frames + 1, sizeof *g->frames, err) ||
                !cs_map_put(&g->pc_frame, fr.pc, g->n_frames, err))
                return false;
            g->frames[g->n_frames++] = fr;
        }
        if (b.bad)
            return CS_FAIL(err, CS_E_CORRUPT, at, "malformed stack event");
        uint32_t cnt = g->stk_ids.n;
        uint32_t slot = cs_ids_get(&g->stk_ids, id, true, err);
        if (slot == UINT32_MAX)
            return false;
        if (slot != cnt)
            return CS_FAIL(err, CS_E_CORRUPT, at, "multiple stacks with the same ID %llu", (unsigned long long)id);
        if (!cs_grow((void **)&g->stk, &g->cap_stk, g->n_stk + 1, sizeof *g->stk, err))
            return false;
        g->stk[g->n_stk++] = (v2_stk){foff, (uint32_t)n, 0};
    }
    return true;
}

static bool samples_batch(const cs_file *f, v2_gen *g, const v2_batch *bt, cs_err *err)
{
    dec_buf b = dec_buf_make(cs_file_at(f, bt->data_off), bt->size, bt->data_off);
    dec_buf_u8(&b); /* EvCPUSamples */
    while (dec_buf_left(&b)) {
        uint64_t at = dec_buf_off(&b);
        uint8_t ev = dec_buf_u8(&b);
        if (ev != V2_EvCPUSample)
            return CS_FAIL(err, CS_E_CORRUPT, at, "expected CPU sample event, got %u", ev);
        v2_sample s = {.off = at};
        uint64_t t = dec_buf_uv(&b);
        s.m = dec_buf_uv(&b), s.p = dec_buf_uv(&b), s.g = dec_buf_uv(&b), s.stk = dec_buf_uv(&b);
        if (b.bad)
            return CS_FAIL(err, CS_E_CORRUPT, at, "malformed CPU sample event");
        if (s.g == 0)
            s.g = V2_NONE;
        s.ts = (int64_t)t; /* converted once the frequency is known */
        if (!cs_grow((void **)&g->samples, &g->cap_samples, g->n_samples + 1, sizeof *g->samples, err))
            return false;
        g->samples[g->n_samples++] = s;
    }
    return true;
}

static bool freq_event(v2_gen *g, dec_buf *b, uint64_t at, cs_err *err)
{
    if (g->has_freq)
        return CS_FAIL(err, CS_E_CORRUPT, at, "found multiple frequency events");
    g->freq = dec_buf_uv(b);
    if (b->bad || g->freq == 0)
        return CS_FAIL(err, CS_E_CORRUPT, at, "invalid frequency event");
    g->has_freq = true;
    return true;
}

static bool sync_batch(const cs_file *f, v2_gen *g, const v2_batch *bt, int version, cs_err *err)
{
    dec_buf b = dec_buf_make(cs_file_at(f, bt->data_off), bt->size, bt->data_off);
    if (version >= 1025)
        dec_buf_u8(&b); /* EvSync */
    while (dec_buf_left(&b)) {
        uint64_t at = dec_buf_off(&b);
        uint8_t ev = dec_buf_u8(&b);
        if (ev == V2_EvFrequency) {
            if (!freq_event(g, &b, at, err))
                return false;
        } else if (ev == V2_EvClockSnapshot && version >= 1025) {
            if (g->has_snapshot)
                return CS_FAIL(err, CS_E_CORRUPT, at, "found multiple clock snapshot events");
            uint64_t dt = dec_buf_uv(&b);
            g->snap_mono = dec_buf_uv(&b), g->snap_sec = dec_buf_uv(&b), g->snap_nsec = dec_buf_uv(&b);
            if (b.bad)
                return CS_FAIL(err, CS_E_CORRUPT, at, "malformed clock snapshot event");
            g->snap_units = bt->ts + dt;
            g->has_snapshot = true;
        } else {
            return CS_FAIL(err, CS_E_CORRUPT, at, "expected frequency or clock snapshot event, got %u", ev);
        }
    }
    return true;
}

static int sample_cmp(const void *a, const void *b)
{
    const v2_sample *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->off < y->off ? -1 : x->off > y->off; /* stable: file order */
}

/* Every frame's function and file must name a string of the generation. */
static bool check_frames(v2_gen *g, cs_err *err)
{
    for (uint32_t i = 0; i < g->n_frames; i++) {
        const v2_frame *fr = &g->frames[i];
        if (!dec__v2_str(g, fr->func, NULL, NULL))
            return CS_FAIL(err, CS_E_CORRUPT, g->off, "found invalid func string ID %llu for stack frame",
                           (unsigned long long)fr->func);
        if (!dec__v2_str(g, fr->file, NULL, NULL))
            return CS_FAIL(err, CS_E_CORRUPT, g->off, "found invalid file string ID %llu for stack frame",
                           (unsigned long long)fr->file);
    }
    return true;
}

bool dec__v2_gen_tables(const cs_file *f, int version, v2_gen *g, cs_err *err)
{
    for (uint32_t i = 0; i < g->n_tb; i++) {
        const v2_batch *bt = &g->tb[i];
        bool ok = true;
        switch (bt->next) {
        case V2_EvStrings: ok = strings_batch(f, g, bt, err); break;
        case V2_EvStacks: ok = stacks_batch(f, g, bt, err); break;
        case V2_EvCPUSamples: ok = samples_batch(f, g, bt, err); break;
        default: ok = sync_batch(f, g, bt, version, err); break;
        }
        if (!ok)
            return false;
    }
    if (!g->has_freq)
        return CS_FAIL(err, CS_E_CORRUPT, g->off, "no frequency event found in generation %llu",
                       (unsigned long long)g->gen);
    if (version >= 1025 && !g->has_snapshot)
        return CS_FAIL(err, CS_E_CORRUPT, g->off, "no clock snapshot event found in generation %llu",
                       (unsigned long long)g->gen);
    g->ns_per_unit = 1.0 / ((double)g->freq / 1e9);
    g->ns_mul = g->ns_per_unit >= 1 && g->ns_per_unit <= 1024 && g->ns_per_unit == (double)(uint64_t)g->ns_per_unit
                    ? (uint64_t)g->ns_per_unit
                    : 0;
    for (uint32_t i = 0; i < g->n_samples; i++)
        g->samples[i].ts = dec__v2_ns(g, (uint64_t)g->samples[i].ts);
    if (g->n_samples)
        qsort(g->samples, g->n_samples, sizeof *g->samples, sample_cmp);
    return check_frames(g, err);
}

bool dec__v2_str(const v2_gen *g, uint64_t id, const uint8_t **p, uint32_t *len)
{
    if (id == 0) {
        if (p)
            *p = (const uint8_t *)"", *len = 0;
        return true;
    }
    uint32_t slot = cs_ids_get((cs_ids *)&g->str_ids, id, false, NULL);
    if (slot == UINT32_MAX)
        return false;
    if (p)
        *p = g->str[slot].p, *len = g->str[slot].len;
    return true;
}

cs_sid dec__v2_sid(v2_gen *g, cs_model *m, uint64_t id, cs_err *err)
{
    uint32_t slot = id ? cs_ids_get(&g->str_ids, id, false, NULL) : UINT32_MAX;
    if (slot == UINT32_MAX)
        return 0;
    v2_str *s = &g->str[slot];
    if (!s->sid1)
        s->sid1 = cs_model_intern(m, (const char *)s->p, s->len, err) + 1;
    return s->sid1 - 1;
}


uint32_t dec__v2_stack_add(v2_gen *g, const cs_file *f, cs_model *m, uint32_t slot, cs_err *err)
{
    v2_stk *s = &g->stk[slot];
    cs_frame fr[V2_MAX_FRAMES];
    dec_buf b = dec_buf_make(cs_file_at(f, s->off), f->size - s->off, s->off);
    for (uint32_t i = 0; i < s->nframes; i++) {
        uint64_t pc = dec_buf_uv(&b);
        dec_buf_uv(&b), dec_buf_uv(&b), dec_buf_uv(&b);
        uint32_t fi = 0;
        cs_map_get(&g->pc_frame, pc, &fi);
        const v2_frame *vf = &g->frames[fi];
        fr[i] = (cs_frame){.pc = pc, .func = dec__v2_sid(g, m, vf->func, err),
                           .file = dec__v2_sid(g, m, vf->file, err), .line = (uint32_t)vf->line};
    }
    uint32_t ms = cs_model_stack_add(m, fr, s->nframes, err);
    if (err->code != CS_OK)
        return 0;
    s->mstack1 = ms + 1;
    return ms;
}
