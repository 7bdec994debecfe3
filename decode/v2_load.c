/* decode/v2_load.c — entry point of the Go 1.22+ decoder (wire versions
 * 1.22, 1.23, 1.25, 1.26; docs/trace-format.md §4): walks the generations in file
 * order, parses each one's tables, orders and emits its events, then closes
 * the model and the Summarizer. A trace cut short (the file ends inside a
 * generation, or its last generation lacks the tables written at its end)
 * keeps its complete generations and gets a warning with the byte offset,
 * or fails with CS_E_TRUNCATED under dec_desc.strict. A stream is read a
 * generation at a time: only the bytes of the generation being decoded and
 * what was read after it are held (cs_file_more, cs_file_drop), and the
 * ordering keeps copies of the strings it holds on to from one generation
 * to the next (dec__v2_keep). */
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

/* Parts of about equal size, none smaller than min_part, and two at most
 * for the model (its join needs the caller's tables of the generation the
 * part starts in); a worker's a little smaller, as it first walks the
 * batch headers up to its cut. A single worker may move its cut
 * (v2_ahead.c settled_cut) unless the caller gave one (dec_desc.cut). */
static void plan_start(v2_sink *s, plan *p, int jobs, uint64_t min_part)
{
    uint64_t most = s->d->no_model ? MAX_PARTS : 2,
             parts = (uint64_t)jobs < most ? (uint64_t)jobs : most, size = s->f->size;
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

/* Joins the workers whose parts follow on from the cut p->next, in
 * generation g, the caller having emitted every event before it; *off and
 * *from_cut say where the caller goes on: in a part it orders itself, or
 * at the end. */
static bool join_parts(v2_sink *s, plan *p, const v2_gen *g, uint64_t *off, int *from_cut, cs_err *err)
{
    for (uint64_t here = g->off;;) {
        uint32_t i = p->next++, gens = 0;
        bool used = false;
        v2_ahead *a = p->w[i];
        p->w[i] = NULL;
        if (a && !dec__v2_ahead_join(s, a, g, &p->at, &used, &gens, &here, err))
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

/* A decode that can stop between two generations of a stream and go on
 * when more of it is in hand (dec__v2_run_gens without `wait`). */
struct v2_run {
    void *raw;             /* the allocation r lies in (cs_alloc_lines) */
    v2_sink s;
    v2_order o;
    v2_sum sum;
    v2_gen g;
    plan p;
    cs_file *f;
    cs_stats *stats;
    int jobs;
    uint64_t off;          /* where the next generation starts */
    int from_cut;          /* this generation from its start (-1), or from the cut at p.pos[from_cut] */
    bool scanning;         /* g holds the scan of the generation at off, stopped for want of bytes */
    bool done;             /* the input's last generation was decoded */
    uint64_t settled_gen;  /* the generation last taken as complete at the end of the bytes (0 none) */
};

/* The generation at r->off scanned to its end: *next is where the next one
 * starts. On a stream that has more to come, the scan needs the
 * generation's end (the next one's first batch header, or from wire 1.26
 * its EndOfGeneration byte): with `wait` it reads until it has it, else it
 * stops and says so (*short; r->scanning: it goes on there next time) —
 * unless `settled` (a file whose writer has paused) and the generation is
 * before wire 1.26 with the tables Go writes at its end: then it is taken
 * as complete, and a later batch of it is an error. */
static bool scan(v2_run *r, bool wait, bool settled, uint64_t *next, bool *trunc, bool *short_, cs_err *err)
{
    cs_file *f = r->f;
    v2_gen *g = &r->g;
    int version = r->s.version;
    const char *why;
    *short_ = false;
    bool ok = r->scanning ? dec__v2_gen_scan_more(f, version, g, next, trunc, err)
                          : dec__v2_gen_scan(f, r->off, version, g, next, trunc, err);
    r->scanning = false;
    if (ok && g->gen && g->gen <= r->settled_gen)
        return CS_FAIL(err, CS_E_CORRUPT, g->off, "generation %llu goes on after it was taken as complete",
                       (unsigned long long)g->gen);
    while (f->stream && !f->ended && (ok ? *next == f->size && !g->ended : *trunc)) {
        if (ok && settled && version < 1026 && !dec__v2_gen_incomplete(g, version, &why)) {
            r->settled_gen = g->gen; /* its writer has paused: its tables, written at its end, are in */
            return true;
        }
        *err = (cs_err){0};
        if (!wait)
            return r->scanning = *short_ = true;
        if (!cs_file_more(f, err))
            return *trunc = false;
        ok = dec__v2_gen_scan_more(f, r->s.version, g, next, trunc, err);
    }
    return ok;
}

/* The generation at r->off scanned (*next: where the next one starts) and
 * its tables read; false on an error. Sets r->done when the input ends
 * inside it (a warning, or an error under dec_desc.strict), *short_ as
 * scan does. */
static bool gen_tables(v2_run *r, bool wait, bool settled, uint64_t *next, bool *short_, cs_err *err)
{
    v2_sink *s = &r->s;
    cs_file *f = r->f;
    v2_gen *g = &r->g;
    bool trunc;
    if (!scan(r, wait, settled, next, &trunc, short_, err)) {
        r->done = true;
        if (!trunc)
            return false;
        uint64_t where = err->offset;
        char why[160];
        snprintf(why, sizeof why, "%s", err->msg);
        *err = (cs_err){0};
        return truncated(s->d, s->m, where, s->m->n_gens, why, err);
    }
    if (*short_)
        return true;
    const char *why;
    if (*next == f->size && dec__v2_gen_incomplete(g, s->version, &why)) {
        r->done = true;
        return truncated(s->d, s->m, g->off, s->m->n_gens, why, err);
    }
    return dec__v2_gen_tables(f, s->version, g, err);
}

/* One generation, the one at r->off (with parts ahead, maybe more); false
 * on an error. Sets r->done at the end of the input, or *short_ when a
 * stream's bytes stop before the generation's end (without `wait`; see
 * scan for `settled`). */
static bool gen_one(v2_run *r, bool wait, bool settled, bool *short_, cs_err *err)
{
    v2_sink *s = &r->s;
    cs_file *f = r->f;
    v2_gen *g = &r->g;
    plan *p = &r->p;
    *short_ = false;
    if (!r->scanning) {
        cs_file_drop(f, r->off); /* the generations before are done with */
        while (wait && f->stream && !f->ended && r->off == f->size)
            if (!cs_file_more(f, err))
                return false;
        if (r->off >= f->size) {
            *short_ = f->stream && !f->ended;
            r->done = !*short_;
            return true;
        }
    }
    uint64_t next, at;
    /* g read up to a cut already, the part after it refused (join_parts): it is not scanned,
     * nor its tables read, again, so its stacks keep their model stacks, as on one thread */
    if (r->from_cut >= 0 && r->off == g->off) {
        next = g->end;
    } else if (!gen_tables(r, wait, settled, &next, short_, err) || *short_ || r->done) {
        return err->code == CS_OK;
    }
    /* a worker that gave up already: its part is this thread's, on two threads when big */
    for (; p->next < p->n && p->w[p->next] && dec__v2_ahead_failed(p->w[p->next]); p->next++)
        dec__v2_ahead_drop(p->w[p->next]), p->w[p->next] = NULL;
    v2_span sp = {.from = INT64_MIN, .to = INT64_MAX, .go_on = true};
    if (r->from_cut >= 0 &&
        !(dec__v2_cut_in(g, p->pos[r->from_cut], &at) && dec__v2_cut_time(g, at, &sp.from, err)))
        return err->code == CS_OK ? CS_FAIL(err, CS_E_INTERNAL, r->off, "lost a cut") : false;
    if (p->next < p->n && p->w[p->next] && dec__v2_cut_in(g, p->pos[p->next], &at))
        p->pos[p->next] = dec__v2_ahead_cut(p->w[p->next]); /* in g, at its start, or at the next one's */
    bool at_cut = p->next < p->n && dec__v2_cut_in(g, p->pos[p->next], &at);
    if (at_cut && !dec__v2_cut_time(g, at, &sp.to, err))
        return false;
    /* with no parts ahead, a big generation on two threads */
    if (r->from_cut >= 0)
        sp.start = p->at;
    bool split = p->next == p->n && r->from_cut < 0 && r->jobs > 1 && g->end - g->off >= s->d->split_min;
    if (!(split ? dec__v2_split_gen(s, g, err) : dec__v2_read_gen_here(s, g, &sp, err)))
        return false;
    if (sp.end.c) {
        cs_free(p->at.c);
        p->at = sp.end;
    }
    s->m->n_gens += r->from_cut < 0;
    r->from_cut = -1;
    r->off = next;
    if (at_cut && sp.stuck) { /* it went on to the end of the generation: so do parts cut inside it */
        for (; p->next < p->n && p->pos[p->next] < g->end; p->next++)
            if (p->w[p->next])
                dec__v2_ahead_drop(p->w[p->next]), p->w[p->next] = NULL;
    } else if (at_cut) {
        /* read up to the cut: the rest is the part's. The caller's batches after a cut lie
         * all through the generation, and the worker read it long ago, or now and then
         * still reads it (a page given back is read again from the file) */
        cs_file_release_range(f, g->off, g->end);
        if (!join_parts(s, p, g, &r->off, &r->from_cut, err))
            return false;
    }
    return dec__progress(s->d, r->off, cs_file_total(f), err);
}

v2_run *dec__v2_run_create(const dec_desc *d, cs_file *f, int version, cs_model *out, cs_stats *stats,
                           cs_err *err)
{
    void *raw;
    v2_run *r = cs_alloc_lines(sizeof *r, &raw); /* the hot state on cache lines of its own */
    if (!r) {
        CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory");
        return NULL;
    }
    r->raw = raw, r->f = f, r->stats = stats, r->jobs = d->jobs, r->off = 16, r->from_cut = -1;
    r->s = (v2_sink){.d = d, .f = f, .version = version, .m = out, .o = &r->o, .sum = stats ? &r->sum : NULL};
    r->o.keep.on = f->stream;
    r->s.fast_order = !d->no_hot;
    r->s.fast_emit = !d->no_hot && stats && d->no_model && !d->on_event;
    dec__v2_nargs(version, r->s.nargs);
    if (!cs_mb_init(&r->s.mb, out, err)) {
        dec__v2_run_destroy(r);
        return NULL;
    }
    r->s.mb.one_thread = r->jobs <= 1;
    if (r->jobs > 1 && !d->on_event && !f->stream) /* parts ahead need the whole file */
        plan_start(&r->s, &r->p, r->jobs, d->split_min);
    return r;
}

bool dec__v2_run_gens(v2_run *r, bool wait, bool settled, uint32_t *added, cs_err *err)
{
    uint32_t before = r->s.m->n_gens;
    bool short_ = false;
    while (!r->done && !short_)
        if (!gen_one(r, wait, settled, &short_, err)) {
            r->done = true;
            return false;
        }
    if (added)
        *added = r->s.m->n_gens - before;
    return true;
}

bool dec__v2_run_is_done(const v2_run *r)
{
    return r->done;
}

/* The end of the input for sink s: the last Sync, then the model closed at
 * its time. */
static bool finish(v2_sink *s, cs_err *err)
{
    if (s->n_events && !dec__v2_emit_sync(s, NULL, s->last_ts, err))
        return false;
    s->m->n_events = s->n_events;
    s->m->t_last = s->n_events ? s->last_ts : CS_T_NONE;
    dec__v2_model_close_ranges(s, s->last_ts);
    if (s->d->no_model)
        return true;
    cs_file_release(s->f); /* every byte is read: laying the spans out may take the room */
    return cs_mb_finish(&s->mb, s->last_ts, err);
}

bool dec__v2_run_finish(v2_run *r, cs_err *err)
{
    plan_drop(&r->p);
    dec__v2_order_end_gs(&r->o); /* no event is ordered after */
    return finish(&r->s, err) && (!r->stats || dec__v2_sum_finish(&r->sum, r->stats, err));
}

bool dec__v2_run_model(const v2_run *r, cs_model *out, cs_err *err)
{
    dec_desc d = *r->s.d;
    d.on_event = NULL, d.on_progress = NULL;
    v2_sink t = r->s; /* what finish changes of it is its own: not the index of open ranges */
    t.d = &d, t.m = out, t.sum = NULL;
    memset(t.open_of, 0, sizeof t.open_of);
    if (!cs_model_copy(r->s.m, out, err))
        return false;
    if (!cs_mb_copy(&r->s.mb, out, &t.mb, err)) {
        cs_model_deinit(out);
        return false;
    }
    bool ok = finish(&t, err);
    cs_mb_deinit(&t.mb);
    if (!ok)
        cs_model_deinit(out);
    return ok;
}

void dec__v2_run_destroy(v2_run *r)
{
    if (!r)
        return;
    plan_drop(&r->p);
    cs_mb_deinit(&r->s.mb);
    dec__v2_model_sink_free(&r->s);
    dec__v2_gen_deinit(&r->g);
    dec__v2_order_deinit(&r->o);
    dec__v2_sum_deinit(&r->sum);
    cs_free(r->raw);
}

bool dec__v2_load(const dec_desc *d, cs_file *f, int version, cs_model *out,
                  cs_stats *stats, cs_err *err)
{
    v2_run *r = dec__v2_run_create(d, f, version, out, stats, err);
    bool ok = r && dec__v2_run_gens(r, true, false, NULL, err);
    if (ok && !out->n_gens && !out->warning[0]) /* the header alone (a generation cut short warns) */
        ok = CS_FAIL(err, CS_E_INVALID, f->size, "trace is empty");
    ok = ok && dec__v2_run_finish(r, err);
    dec__v2_run_destroy(r);
    return ok;
}
