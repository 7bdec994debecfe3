/* decode/legacy_load.c — entry point of the legacy decoder (Go 1.5–1.21,
 * go-trace-format.md §3) and the per-event sink every ordered event goes
 * through: tick -> ns conversion and fake-P moves (§3.8 step 4), validation
 * (legacy_check.c), statistics (legacy_stats.c; both fused for the common
 * events in legacy_hot.h), the model
 * (legacy_model.c) and the caller's on_event.
 *
 * Two paths: the streaming one (1.7+ traces; on_event callers that set
 * loose_order) never holds more than one event per P; the materialised one
 * (1.5 traces, traces with FutileWakeup, on_event callers that want Go's
 * exact order) keeps the event list and runs Go's post-merge steps on it
 * (legacy_post.c). */
#include "legacy.h"
#include "legacy_hot.h"

#include <math.h>
#include <string.h>

dec__lg_g *dec__lg_g_get(dec__lg_sink *k, uint64_t goid, cs_err *err)
{
    uint32_t i = dec__lg_gtab_get(&k->gt, goid);
    if (i)
        return &k->g[i];
    if (!(i = dec__lg_gtab_add(&k->gt, goid, err)) ||
        !cs_grow((void **)&k->g, &k->cap_g, i + 1, sizeof *k->g, err))
        return NULL;
    memset(&k->g[i], 0, sizeof k->g[i]);
    k->g[i].goid = goid;
    return &k->g[i];
}

static int64_t to_ns(const dec__lg_sink *k, int64_t ticks)
{
    double x = (double)(int64_t)((uint64_t)ticks - (uint64_t)k->min_ticks) * k->ns_per_tick;
    if (!(x > (double)-CS_T_MAX && x < (double)CS_T_MAX)) /* hostile ticks: keep the model's range */
        return x > 0 ? CS_T_MAX : -CS_T_MAX;
    return (int64_t)x;
}

static uint32_t stack_of(dec__lg_sink *k, uint64_t wire)
{
    uint32_t h = (uint32_t)wire & 63;
    if (k->stk_key[h] != wire) /* slot 0 holds wire id 0 -> 0 from the start */
        k->stk_key[h] = wire, k->stk_val[h] = dec__lg_stack(k->s, wire);
    return k->stk_val[h];
}

static bool emit(dec__lg_sink *k, const dec__lg_ev *ev, cs_err *err)
{
    const dec__lg_desc *d = &dec__lg_descs[ev->type];
    dec_event e = {.off = ev->off, .ts = ev->ts, .p = ev->p, .g = ev->g, .nargs = d->nargs,
                   .type = ev->wire, .type_name = d->name, .kind_name = d->name};
    memcpy(e.args, ev->args, sizeof ev->args);
    if (!(ev->from_create && k->s->ver < 1007))
        e.stack = stack_of(k, ev->stk);
    uint64_t sid = ev->type == LG_STARTLABEL || ev->type == LG_TASKCREATE || ev->type == LG_REGION
                       ? ev->args[2] : 0;
    if (sid) {
        cs_sid s = dec__lg_str_sid(k->s, k->m, sid, err);
        e.sarg = cs_model_str(k->m, s);
        e.sarg_len = strlen(e.sarg);
    } else if (ev->type == LG_LOG) {
        e.sarg = (const char *)k->s->data + ev->str_off;
        e.sarg_len = ev->str_len;
    }
    return err->code == CS_OK && k->d->on_event(k->d->event_ud, &e, err);
}

static bool rtmsg(cs_model *m, const dec__lg_ev *ev, cs_err *err)
{
    if (!cs_grow((void **)&m->rtmsgs, &m->cap_rtmsgs, m->n_rtmsgs + 1, sizeof *m->rtmsgs, err))
        return false;
    m->rtmsgs[m->n_rtmsgs++] = (cs_rtmsg){.ts = ev->ts, .eid = ev->args[0], .cid = ev->args[1],
                                          .val = ev->args[2], .goid = ev->g, .is_recv = ev->type == LG_GORECV};
    return true;
}

bool dec__lg_sink_put(dec__lg_sink *k, dec__lg_ev *ev, cs_err *err)
{
    cs_model *m = k->m;
    if (!k->started)
        k->started = true, k->min_ticks = ev->ts;
    ev->ts = to_ns(k, ev->ts);
    if (ev->type == LG_GOUNBLOCK && k->s->timer_g.count && cs_map_get(&k->s->timer_g, ev->g, &(uint32_t){0}))
        ev->p = LG_TIMERP;
    if (ev->type == LG_SYSEXIT)
        ev->p = LG_SYSCALLP;
    /* Go's validation keeps a record for every event's G (it writes gs[ev.G] back) */
    if (!(k->cur_gi = dec__lg_gtab_get(&k->gt, ev->g))) {
        if (!dec__lg_g_get(k, ev->g, err))
            return false;
        k->cur_gi = dec__lg_gtab_get(&k->gt, ev->g);
    }
    k->g[k->cur_gi].flags |= LG_GF_KNOWN;
    if (!hot_event(k, ev) && (!dec__lg_check(k, ev, err) || !dec__lg_stats_event(k, ev, err)))
        return false;
    if (ev->type == LG_CPUSAMPLE)
        m->n_cpu_samples++;
    if ((ev->type == LG_GOSEND || ev->type == LG_GORECV) && !rtmsg(m, ev, err))
        return false;
    if (k->model && !dec__lg_model_event(k, ev, err))
        return false;
    if (k->d->on_event && !emit(k, ev, err))
        return false;
    m->n_events++;
    m->t_last = ev->ts;
    /* every 256k events (about 1 MB of a legacy trace): bytes in proportion to events */
    if (!(m->n_events & 0x3ffff) && k->d->on_progress && k->s->n_events)
        return dec__progress(k->d, (uint64_t)((double)m->n_events / (double)k->s->n_events * (double)k->s->size),
                             k->s->size, err);
    return true;
}

static bool run_materialised(dec__lg_sink *k, dec__lg_scan *s, cs_err *err)
{
    dec__lg_list l = {0};
    /* sized once from pass 1's count: no doubling, memory stays ~32x the file at worst */
    if (s->n_events >= UINT32_MAX)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "too many events (%llu)", (unsigned long long)s->n_events);
    l.ev = cs_alloc((size_t)s->n_events * sizeof *l.ev + 1);
    l.cap = (uint32_t)s->n_events;
    bool ok = l.ev ? true : CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %llu events",
                                    (unsigned long long)s->n_events);
    ok = ok && (s->ver < 1007 ? dec__lg_order1005(s, &l, err)
                            : dec__lg_order1007(s, k, &l, err) && dec__lg_post1007(&l, err));
    ok = ok && dec__lg_remove_futile(&l, err);
    for (uint32_t i = 0; ok && i < l.n; i++)
        if (!l.ev[i].dead)
            ok = dec__lg_sink_put(k, &l.ev[i], err);
    dec__lg_list_free(&l);
    return ok;
}

static void sink_deinit(dec__lg_sink *k)
{
    cs_mb_deinit(&k->mb);
    dec__lg_gtab_deinit(&k->gt);
    cs_free(k->g);
    cs_free(k->ps);
    cs_map_deinit(&k->p_map);
    cs_map_deinit(&k->tasks);
    cs_map_deinit(&k->task_ranges);
    cs_free(k->regions);
}

bool dec__legacy_load(const dec_desc *d, const cs_file *f, int version, cs_model *out,
                      cs_stats *stats, cs_err *err)
{
    dec__lg_scan s = {0};
    dec_symtab sym = {0};
    if (d->binary && version < 1007) {
        if (!dec_symtab_open(d->binary, &sym, err))
            return false;
        s.sym = &sym;
    }
    dec__lg_sink k = {.d = d, .s = &s, .m = out, .stats = stats, .model = !d->no_model};
    dec__lg_gtab_init(&k.gt, f->size);
    dec__lg_g *g0 = dec__lg_g_get(&k, 0, err); /* goroutine 0 starts running (§3.10) */
    if (g0)
        g0->state = LG_GRUNNING, g0->flags = LG_GF_KNOWN;
    bool ok = g0 && cs_mb_init(&k.mb, out, err) && dec__lg_model_init(&k, err) &&
              dec__lg_scan_run(&s, f, version, d->strict, out, err);
    if (ok) {
        k.ns_per_tick = 1e9 / (double)s.freq;
        out->t_first = 0;
        if (version < 1007 || s.has_futile || (d->on_event && !d->loose_order))
            ok = run_materialised(&k, &s, err);
        else
            ok = dec__lg_order1007(&s, &k, NULL, err);
    }
    ok = ok && dec__lg_stats_finish(&k, err);
    if (ok && k.model)
        ok = dec__lg_model_finish(&k, err);
    ok = dec__progress(d, f->size, f->size, err) && ok; /* also on failure: the bar ends */
    sink_deinit(&k);
    dec__lg_scan_deinit(&s);
    dec_symtab_close(&sym);
    return ok;
}
