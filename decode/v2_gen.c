/* decode/v2_gen.c — splits a Go 1.22+ trace into generations: walks the batch
 * headers (docs/trace-format.md §4.1–4.2) from a file offset until the next
 * generation starts (wire 1.26+: up to the generation's EndOfGeneration
 * byte, as internal/trace/generation.go's readGeneration), and files each
 * batch as a table batch or as an event batch of its M (kept in file order
 * per M). A scan that runs out of bytes can go on where it stopped once
 * more of a stream is in hand (dec__v2_gen_scan_more). Only framing is
 * checked here; v2_tables.c parses the tables and v2_reader.c the events. Reads through dec_buf only; allocation is
 * bounded by the number of batch headers in the file. */
#include "v2.h"

#include <string.h>

/* Is a batch whose first data byte is `kind` a table batch in `version`? */
static bool is_table_kind(int kind, int version)
{
    switch (kind) {
    case V2_EvStrings: case V2_EvStacks: case V2_EvCPUSamples:
        return true;
    case V2_EvFrequency:
        return version < 1025;
    case V2_EvSync:
        return version >= 1025;
    }
    return false;
}

static bool add_event_batch(v2_gen *g, uint64_t m, const v2_batch *b, cs_err *err)
{
    uint32_t mi = cs_ids_get(&g->m_ids, m, true, err);
    if (mi == UINT32_MAX)
        return false;
    if (mi == g->n_ms) {
        if (!cs_grow((void **)&g->ms, &g->cap_ms, g->n_ms + 1, sizeof *g->ms, err))
            return false;
        g->ms[g->n_ms++] = (v2_mrun){.m = m, .first = UINT32_MAX, .last = UINT32_MAX};
    }
    if (!cs_grow((void **)&g->b, &g->cap_b, g->n_b + 1, sizeof *g->b, err))
        return false;
    uint32_t bi = g->n_b++;
    g->b[bi] = *b;
    g->b[bi].next = UINT32_MAX;
    v2_mrun *r = &g->ms[mi];
    if (r->last == UINT32_MAX)
        r->first = bi;
    else
        g->b[r->last].next = bi;
    r->last = bi;
    return true;
}

static void gen_reset(v2_gen *g)
{
    g->gen = 0;
    g->min_ts = UINT64_MAX;
    g->freq = 0;
    g->has_freq = g->has_snapshot = g->ended = false;
    g->n_b = g->n_tb = g->n_ms = g->n_str = g->n_stk = g->n_frames = g->n_samples = 0;
    g->n_experimental = 0;
    cs_ids_deinit(&g->m_ids);
    cs_ids_deinit(&g->str_ids);
    cs_ids_deinit(&g->stk_ids);
    cs_map_clear(&g->pc_frame);
}

/* The scan touches every batch's header, and the kernel maps the pages
 * around a page touched too (fault-around, 64 KB by default): a scanned
 * generation of a mapped file would be in memory whole, for each
 * generation being scanned (the caller's and a worker's). The pages the
 * scan has gone past go back every GIVE_BACK bytes, a GIVE_BACK behind it,
 * and all of them at its end (the tables too, which their parse maps
 * again); a reader faults in the batches it reads and gives each back as
 * it leaves it (dec__v2_cur_next). */
#define GIVE_BACK ((uint64_t)1 << 20)

bool dec__v2_gen_scan(const cs_file *f, uint64_t off, int version, v2_gen *g,
                      uint64_t *next_off, bool *trunc, cs_err *err)
{
    gen_reset(g);
    g->off = g->end = off;
    return dec__v2_gen_scan_more(f, version, g, next_off, trunc, err);
}

bool dec__v2_gen_scan_more(const cs_file *f, int version, v2_gen *g, uint64_t *next_off, bool *trunc,
                           cs_err *err)
{
    uint64_t off = g->end, given = off;
    *trunc = false;
    bool first = g->gen == 0; /* no batch yet (a batch's generation is never 0) */
    while (off < f->size) {
        g->end = off; /* where a scan that runs out of bytes goes on */
        if (off - given >= 2 * GIVE_BACK) {
            uint64_t to = (off - GIVE_BACK) & ~(GIVE_BACK - 1);
            cs_file_release_range(f, given, to);
            given = to;
        }
        dec_buf b = dec_buf_make(cs_file_at(f, off), f->size - off, off);
        uint8_t type = dec_buf_u8(&b), exp = 0;
        if (type == V2_EvEndOfGeneration && version >= 1026) { /* Go's readBatch: a lone byte */
            g->ended = true;
            off++;
            break;
        }
        if (type != V2_EvEventBatch && !(type == V2_EvExperimentalBatch && version >= 1023))
            return CS_FAIL(err, CS_E_CORRUPT, off, "expected batch event, got event %u", type);
        if (type == V2_EvExperimentalBatch)
            exp = dec_buf_u8(&b);
        uint64_t gen = dec_buf_uv(&b), m = dec_buf_uv(&b), ts = dec_buf_uv(&b);
        uint64_t size = dec_buf_uv(&b);
        if (b.bad & DEC_BUF_BADVARINT)
            return CS_FAIL(err, CS_E_CORRUPT, off, "invalid uvarint in batch header");
        if (b.bad) {
            *trunc = true;
            return CS_FAIL(err, CS_E_TRUNCATED, off, "error reading batch header: unexpected EOF");
        }
        if (gen == 0)
            return CS_FAIL(err, CS_E_CORRUPT, off, "invalid generation number 0");
        if (size > V2_MAX_BATCH)
            return CS_FAIL(err, CS_E_CORRUPT, off, "invalid batch size %llu", (unsigned long long)size);
        if (first) {
            g->gen = gen;
            first = false;
        } else if (gen != g->gen && version >= 1026) { /* readGeneration: no spilled batch to take */
            return CS_FAIL(err, CS_E_CORRUPT, off,
                           "broken trace: missing end-of-generation event, or generations are interleaved");
        } else if (gen == g->gen + 1) {
            break;
        } else if (gen != g->gen) {
            return CS_FAIL(err, CS_E_CORRUPT, off, "generations out of order: %llu after %llu",
                           (unsigned long long)gen, (unsigned long long)g->gen);
        }
        if (size > dec_buf_left(&b)) {
            *trunc = true;
            return CS_FAIL(err, CS_E_TRUNCATED, off, "failed to read full batch: read %zu but wanted %llu",
                           dec_buf_left(&b), (unsigned long long)size);
        }
        v2_batch nb = {.data_off = dec_buf_off(&b), .size = (uint32_t)size, .ts = ts};
        if (ts < g->min_ts)
            g->min_ts = ts;
        off = nb.data_off + size;
        if (exp) {
            g->n_experimental++;
            continue;
        }
        int kind = size ? *cs_file_at(f, nb.data_off) : -1;
        if (is_table_kind(kind, version)) {
            if (!cs_grow((void **)&g->tb, &g->cap_tb, g->n_tb + 1, sizeof *g->tb, err))
                return false;
            nb.next = (uint32_t)kind;
            g->tb[g->n_tb++] = nb;
        } else if (!add_event_batch(g, m, &nb, err)) {
            return false;
        }
    }
    g->end = off;
    *next_off = off;
    cs_file_release_range(f, given, off);
    return true;
}

void dec__v2_gen_deinit(v2_gen *g)
{
    cs_free(g->b);
    cs_free(g->tb);
    cs_free(g->ms);
    cs_free(g->str);
    cs_free(g->stk);
    cs_free(g->frames);
    cs_free(g->samples);
    cs_ids_deinit(&g->m_ids);
    cs_ids_deinit(&g->str_ids);
    cs_ids_deinit(&g->stk_ids);
    cs_map_deinit(&g->pc_frame);
    memset(g, 0, sizeof *g);
}

/* The last generation of a file may have been cut off at a batch boundary.
 * From wire 1.26 on, a generation ends with its EndOfGeneration byte, and
 * one without it is cut short (Go's readGeneration: "incomplete generation
 * found"); before, the tables written at its end are missing. */
bool dec__v2_gen_incomplete(const v2_gen *g, int version, const char **why)
{
    if (version >= 1026) {
        *why = g->ended ? NULL : "incomplete generation found; trace likely truncated";
        return *why != NULL;
    }
    bool str = false, stk = false, freq = false;
    for (uint32_t i = 0; i < g->n_tb; i++) {
        str |= g->tb[i].next == V2_EvStrings;
        stk |= g->tb[i].next == V2_EvStacks;
        freq |= g->tb[i].next == V2_EvFrequency || g->tb[i].next == V2_EvSync;
    }
    *why = !freq ? (version >= 1025 ? "no sync batch" : "no frequency batch")
           : !str ? "no string table" : !stk ? "no stack table" : NULL;
    return *why != NULL;
}
