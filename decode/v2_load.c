/* decode/v2_load.c — entry point of the Go 1.22+ decoder (wire versions
 * 1.22, 1.23, 1.25, 1.26; docs/trace-format.md §4): walks the generations in file
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

#define MAX_PARTS 64

/* The parts of the file on workers (v2_ahead.c): worker i from the cut at
 * byte pos[i] up to the one at pos[i + 1] (the last to the end); `next` is
 * the next to join. */
typedef struct plan {
    uint64_t pos[MAX_PARTS];
    v2_ahead *w[MAX_PARTS];
    uint32_t n, next;
    v2_front at;           /* Go's frontier at the cut p->next - 1 (or where its part stopped) */
} plan;

/* Parts of about equal size, none smaller than min_part; a worker's a
 * little smaller, as it first walks the batch headers up to its cut. A
 * single worker settles its cut further on (dec__v2_ahead_cut) unless the
 * caller gave one (dec_desc.cut). */
static void plan_start(v2_sink *s, plan *p, int jobs, uint64_t min_part)
{
    uint64_t parts = jobs < MAX_PARTS ? (uint64_t)jobs : MAX_PARTS, size = s->f->size;
    while (parts > 1 && size / parts < min_part)
        parts--;
    p->n = (uint32_t)parts - 1;
    for (uint32_t i = 0; i < p->n; i++)
        p->pos[i] = size / parts * (i + 1) + size / parts / 50;
    bool given = p->n == 1 && s->d->cut;
    if (given)
        p->pos[0] = s->d->cut < size ? s->d->cut : size - 1;
    for (uint32_t i = 0; i < p->n; i++)
        p->w[i] = dec__v2_ahead_start(s, p->pos[i], i + 1 < p->n ? p->pos[i + 1] : 0, p->n == 1 && !given);
}

static void plan_drop(plan *p)
{
    cs_free(p->at.c);
    p->at = (v2_front){0};
    for (uint32_t i = 0; i < p->n; i++)
        if (p->w[i])
            dec__v2_ahead_drop(p->w[i]), p->w[i] = NULL;
}

/* Joins the workers whose parts follow on from the cut p->next, in the
 * generation at file offset `here`, the caller having emitted every event
 * before it; *off and *from_cut say where the caller goes on: in a part it
 * orders itself, or at the end. */
static bool join_parts(v2_sink *s, plan *p, uint64_t here, uint64_t *off, int *from_cut, cs_err *err)
{
    for (;;) {
        uint32_t i = p->next++, gens = 0;
        bool used = false;
        v2_ahead *a = p->w[i];
        p->w[i] = NULL;
        if (a && !dec__v2_ahead_join(s, a, &p->at, &used, &gens, &here, err))
            return false;
        if (!used) {
            *off = here, *from_cut = (int)i;
            return true;
        }
        s->m->n_gens += gens;
        s->m->n_ahead++;
        if (p->next == p->n) {
            *off = s->f->size;
            return true;
        }
    }
}

static bool gens(v2_sink *s, v2_gen *g, plan *p, int jobs, cs_err *err)
{
    const cs_file *f = s->f;
    uint64_t split_min = s->d->split_min;
    if (jobs > 1 && s->fast_emit)
        plan_start(s, p, jobs, split_min);
    uint64_t off = 16;
    int from_cut = -1; /* this generation from its start, or from the cut at p->pos[from_cut] */
    while (off < f->size) {
        uint64_t next, at;
        bool trunc;
        if (!dec__v2_gen_scan(f, off, s->version, g, &next, &trunc, err)) {
            if (!trunc)
                return false;
            uint64_t where = err->offset;
            char why[160];
            snprintf(why, sizeof why, "%s", err->msg);
            *err = (cs_err){0};
            return truncated(s->d, s->m, where, s->m->n_gens, why, err);
        }
        const char *why;
        if (next == f->size && dec__v2_gen_incomplete(g, s->version, &why))
            return truncated(s->d, s->m, g->off, s->m->n_gens, why, err);
        if (!dec__v2_gen_tables(f, s->version, g, err))
            return false;
        /* a worker that gave up already: its part is this thread's, on two threads when big */
        for (; p->next < p->n && p->w[p->next] && dec__v2_ahead_failed(p->w[p->next]); p->next++)
            dec__v2_ahead_drop(p->w[p->next]), p->w[p->next] = NULL;
        v2_span sp = {.from = INT64_MIN, .to = INT64_MAX, .go_on = true};
        if (from_cut >= 0 && !(dec__v2_cut_in(g, p->pos[from_cut], &at) && dec__v2_cut_time(g, at, &sp.from, err)))
            return err->code == CS_OK ? CS_FAIL(err, CS_E_INTERNAL, off, "lost a cut") : false;
        if (p->next < p->n && p->w[p->next] && dec__v2_cut_in(g, p->pos[p->next], &at))
            p->pos[p->next] = dec__v2_ahead_cut(p->w[p->next]); /* in the same generation */
        bool at_cut = p->next < p->n && dec__v2_cut_in(g, p->pos[p->next], &at);
        if (at_cut && !dec__v2_cut_time(g, at, &sp.to, err))
            return false;
        /* with no parts ahead, a big generation on two threads */
        if (from_cut >= 0)
            sp.start = p->at;
        bool split = p->next == p->n && from_cut < 0 && jobs > 1 && g->end - g->off >= split_min;
        if (!(split ? dec__v2_split_gen(s, g, err) : dec__v2_read_gen_here(s, g, &sp, err)))
            return false;
        if (sp.end.c) {
            cs_free(p->at.c);
            p->at = sp.end;
        }
        s->m->n_gens += from_cut < 0;
        from_cut = -1;
        off = next;
        if (at_cut && sp.stuck) { /* it went on to the end of the generation: so do parts cut inside it */
            for (; p->next < p->n && p->pos[p->next] < g->end; p->next++)
                if (p->w[p->next])
                    dec__v2_ahead_drop(p->w[p->next]), p->w[p->next] = NULL;
        } else if (at_cut && !join_parts(s, p, g->off, &off, &from_cut, err))
            return false;
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
    plan p = {0};
    v2_sink s = {.d = d, .f = f, .version = version, .m = out, .o = &o, .sum = stats ? &sum : NULL};
    s.fast_order = !d->no_hot;
    s.fast_emit = !d->no_hot && stats && d->no_model && !d->on_event;
    dec__v2_nargs(version, s.nargs);
    bool ok = cs_mb_init(&s.mb, out, err) && gens(&s, &g, &p, d->jobs, err);
    plan_drop(&p);
    if (ok && s.n_events)
        ok = dec__v2_emit_sync(&s, NULL, s.last_ts, err);
    if (ok) {
        out->n_events = s.n_events;
        out->t_last = s.n_events ? s.last_ts : CS_T_NONE;
        dec__v2_model_close_ranges(&s, s.last_ts);
        if (!d->no_model) {
            cs_file_release(f); /* every byte is read: the model's grouping may take the room */
            ok = cs_mb_finish(&s.mb, s.last_ts, err);
        }
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
