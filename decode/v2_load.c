/* decode/v2_load.c — entry point of the Go 1.22+ decoder (wire versions
 * 1.22, 1.23, 1.25; go-trace-format.md §4): walks the generations in file
 * order, parses each one's tables, orders and emits its events, then closes
 * the model and the Summarizer. A trace cut short (the file ends inside a
 * generation, or its last generation lacks the tables written at its end)
 * keeps its complete generations and gets a warning with the byte offset,
 * or fails with CS_E_TRUNCATED under dec_desc.strict. */
#include "v2.h"

#include <stdio.h>
#include <string.h>

static bool truncated(const dec_desc *d, cs_model *m, uint64_t off, uint32_t complete, const char *why,
                      cs_err *err)
{
    if (d->strict)
        return CS_FAIL(err, CS_E_TRUNCATED, off, "trace is cut short (%s)", why);
    snprintf(m->warning, sizeof m->warning,
             "trace is cut short at byte %llu (%.100s); showing the %u complete generation%s before it",
             (unsigned long long)off, why, complete, complete == 1 ? "" : "s");
    return true;
}

#define SPLIT_GEN_MIN (1u << 20) /* default dec_desc.split_min: smaller generations take one thread */

static bool gens(v2_sink *s, v2_gen *g, bool threads, cs_err *err)
{
    const cs_file *f = s->f;
    uint64_t split_min = s->d->split_min ? s->d->split_min : SPLIT_GEN_MIN;
    uint64_t off = 16;
    uint32_t done = 0;
    while (off < f->size) {
        uint64_t next;
        bool trunc;
        if (!dec__v2_gen_scan(f, off, s->version, g, &next, &trunc, err)) {
            if (!trunc)
                return false;
            uint64_t at = err->offset;
            char why[160];
            snprintf(why, sizeof why, "%s", err->msg);
            *err = (cs_err){0};
            return truncated(s->d, s->m, at, done, why, err);
        }
        const char *why;
        if (next == f->size && dec__v2_gen_incomplete(g, s->version, &why))
            return truncated(s->d, s->m, g->off, done, why, err);
        if (!dec__v2_gen_tables(f, s->version, g, err))
            return false;
        /* the next generation on a worker while this thread does this one, or
         * this one on two threads, or on one */
        uint64_t initial = s->o->initial_gen ? s->o->initial_gen : g->gen;
        int64_t last_ts;
        v2_ahead *a = threads && s->fast_emit && next < f->size && f->size - next >= split_min && g->n_b &&
                              dec__v2_gen_last_ts(g, f, s->nargs, s->version, &last_ts)
                          ? dec__v2_ahead_start(s, initial, last_ts, next)
                          : NULL;
        if (!(!a && threads && g->end - g->off >= split_min ? dec__v2_split_gen(s, g, err)
                                                             : dec__v2_read_gen_here(s, g, err))) {
            if (a)
                dec__v2_ahead_drop(a);
            return false;
        }
        done++;
        off = next;
        bool used = false;
        if (a && !dec__v2_ahead_join(s, a, &used, &off, err))
            return false;
        done += used;
        s->m->n_gens = done, s->m->n_gens_ahead += used;
        if (!dec__progress(s->d, off, f->size, err))
            return false;
    }
    return true;
}

bool dec__v2_load(const dec_desc *d, const cs_file *f, int version, cs_model *out,
                  cs_stats *stats, cs_err *err)
{
    v2_order o = {0};
    v2_sum sum = {0};
    v2_gen g = {0};
    v2_sink s = {.d = d, .f = f, .version = version, .m = out, .o = &o, .sum = stats ? &sum : NULL};
    s.fast_order = !d->no_hot;
    s.fast_emit = !d->no_hot && stats && d->no_model && !d->on_event;
    dec__v2_nargs(version, s.nargs);
    bool ok = cs_mb_init(&s.mb, out, err) && gens(&s, &g, d->jobs > 1, err);
    if (ok && s.n_events)
        ok = dec__v2_emit_sync(&s, NULL, s.last_ts, err);
    if (ok) {
        out->n_events = s.n_events;
        out->t_last = s.n_events ? s.last_ts : CS_T_NONE;
        dec__v2_model_close_ranges(&s, s.last_ts);
        if (!d->no_model)
            ok = cs_mb_finish(&s.mb, s.last_ts, err);
    }
    if (ok && stats)
        ok = dec__v2_sum_finish(&sum, stats, err);
    cs_mb_deinit(&s.mb);
    cs_free(s.rclass);
    cs_free(s.open);
    dec__v2_gen_deinit(&g);
    dec__v2_order_deinit(&o);
    dec__v2_sum_deinit(&sum);
    return ok;
}
