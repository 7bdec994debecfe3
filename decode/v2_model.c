/* decode/v2_model.c — turns the public events of a Go 1.22+ trace into the
 * shared model through core/build.h: goroutine creation, state spans with
 * block reasons, one wake-up edge per Waiting->Runnable transition (Go's
 * reason string and both stacks kept), GC/STW/sweep/mark-assist ranges,
 * user tasks, regions and logs. Called by v2_emit.c for every event unless
 * dec_desc.no_model is set. */
#include "v2.h"

#include <string.h>

static cs_reason reason_class(const char *r)
{
    static const struct { const char *s; cs_reason r; } tab[] = {
        {"chan send", CS_R_CHAN_SEND}, {"chan receive", CS_R_CHAN_RECV}, {"select", CS_R_SELECT},
        {"sync", CS_R_SYNC}, {"sync.(*Cond).Wait", CS_R_COND}, {"sleep", CS_R_SLEEP},
        {"network", CS_R_NET}, {"forever", CS_R_FOREVER}, {"preempted", CS_R_PREEMPTED},
        {"runtime.Gosched", CS_R_PREEMPTED}, {"GC mark assist wait for work", CS_R_GC},
        {"GC background sweeper wait", CS_R_GC}, {"wait until GC ends", CS_R_GC},
        {"GC weak to strong wait", CS_R_GC},
    };
    for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
        if (!strcmp(r, tab[i].s))
            return tab[i].r;
    return CS_R_OTHER;
}

/* Class of a reason sid, cached per sid. */
static cs_reason reason_of(v2_sink *s, cs_sid sid, cs_err *err)
{
    if (!sid)
        return CS_R_OTHER;
    if (sid >= s->cap_rclass) {
        uint32_t old = s->cap_rclass;
        if (!cs_grow((void **)&s->rclass, &s->cap_rclass, sid + 1, 1, err))
            return CS_R_OTHER;
        memset(s->rclass + old, 0, s->cap_rclass - old);
    }
    if (!s->rclass[sid])
        s->rclass[sid] = (uint8_t)reason_class(cs_model_str(s->m, sid));
    return (cs_reason)s->rclass[sid];
}

static cs_state state_of(uint8_t pub)
{
    switch (pub) {
    case V2G_RUNNING: return CS_ST_RUNNING;
    case V2G_RUNNABLE: return CS_ST_RUNNABLE;
    case V2G_WAITING: return CS_ST_BLOCKED;
    case V2G_SYSCALL: return CS_ST_SYSCALL;
    }
    return CS_ST_NONE;
}

/* Entry function = outermost frame of the transition stack (as the
 * Summarizer names goroutines), for goroutine gi while it has no name. */
static bool name_from(v2_sink *s, uint32_t gi, uint32_t stack, cs_err *err)
{
    if (s->m->g[gi].name)
        return true;
    uint32_t n = cs_model_stack_len(s->m, stack);
    if (!n)
        return true;
    const cs_frame *fr = cs_model_stack_frame(s->m, stack, n - 1);
    return cs_mb_name(&s->mb, s->m->g[gi].goid, fr->func, err);
}

static bool unk_add(v2_sink *s, uint64_t m, uint32_t edge, cs_err *err)
{
    if (!cs_grow((void **)&s->unk, &s->cap_unk, s->n_unk + 1, sizeof *s->unk, err))
        return false;
    s->unk[s->n_unk++] = (v2_unk){m, edge};
    return true;
}

static bool g_event(v2_sink *s, v2_gen *g, const v2_ev *e, const v2_trans *t, cs_err *err)
{
    if (t->from == t->to)
        return true;
    uint32_t tstack = dec__v2_stack(g, s->f, s->m, t->stack_id, err);
    cs_state st = state_of(t->to);
    cs_reason r = st == CS_ST_BLOCKED || st == CS_ST_RUNNABLE ? reason_of(s, t->reason, err) : CS_R_NONE;
    if (t->to == V2G_RUNNABLE && e->type == V2_EvGoSyscallEndBlocked)
        r = CS_R_SYSCALL;
    else if (t->to == V2G_RUNNABLE && e->type != V2_EvGoStop)
        r = CS_R_NONE;
    bool ok;
    if (s->part && (t->id == V2_UNK || (t->from == V2G_NOTEXIST && e->ctx.g == V2_UNK)))
        s->odd = true; /* the goroutine, or its maker, only the part before knows */
    if (t->from == V2G_UNDET || t->from == V2G_NOTEXIST) {
        cs_mb_create_desc cd = {.t = dec__v2_first_since(t, s->sync_ts, e->ts), .goid = t->id, .state = st,
                                .reason = r,
                                .parent_goid = t->from == V2G_NOTEXIST && e->ctx.g != V2_NONE ? e->ctx.g : CS_NO_GOID,
                                .at_start = t->from == V2G_UNDET};
        ok = cs_mb_create(&s->mb, &cd, err);
    } else if (t->from == V2G_WAITING && t->to == V2G_RUNNABLE) {
        const v2_spec *sp = V2_SPEC(e->type);
        uint32_t us = sp->stack ? dec__v2_stack(g, s->f, s->m, e->args[sp->stack - 1], err) : 0;
        bool unk = e->ctx.g == V2_UNK; /* in a part: the join finds it (dec__v2_model_join) */
        ok = cs_mb_unblock(&s->mb, e->ts, e->ctx.g == V2_NONE || unk ? CS_NO_GOID : e->ctx.g, t->id, us, err) &&
             (!unk || unk_add(s, e->ctx.m, s->m->n_edges - 1, err));
    } else {
        ok = cs_mb_set(&s->mb, e->ts, t->id, st, r, t->reason, tstack, err);
    }
    uint32_t gi;
    return ok && (!tstack || ((gi = cs_mb_g(&s->mb, t->id, err)) && name_from(s, gi, tstack, err)));
}

/* The innermost open range of kind/key, or UINT32_MAX. */
static uint32_t open_at(const v2_sink *s, uint8_t kind, uint64_t key)
{
    uint32_t i;
    return cs_map_get(&s->open_of[kind], key, &i) ? i : UINT32_MAX;
}

/* Model range idx of kind/key is open, inside those of kind/key open
 * already. */
static bool open_push(v2_sink *s, uint8_t kind, uint64_t key, uint32_t idx, cs_err *err)
{
    uint32_t n = s->n_open, outer = open_at(s, kind, key);
    if (!cs_grow((void **)&s->open, &s->cap_open, n + 1, sizeof *s->open, err) ||
        !cs_map_put(&s->open_of[kind], key, n, err))
        return false;
    if (outer != UINT32_MAX)
        s->open[outer].inner = n;
    s->open[n] = (v2_open){key, idx, outer, UINT32_MAX, kind};
    s->n_open++;
    return true;
}

/* Open range i, the innermost of its kind/key, is no longer; the last one
 * takes its place. */
static bool open_drop(v2_sink *s, uint32_t i, cs_err *err)
{
    v2_open *o = s->open, x = o[i];
    if (x.outer == UINT32_MAX)
        cs_map_del(&s->open_of[x.kind], x.key);
    else if (!cs_map_put(&s->open_of[x.kind], x.key, x.outer, err))
        return false;
    else
        o[x.outer].inner = UINT32_MAX;
    uint32_t last = --s->n_open;
    if (i == last)
        return true;
    x = o[i] = o[last];
    if (x.outer != UINT32_MAX)
        o[x.outer].inner = i;
    if (x.inner != UINT32_MAX)
        o[x.inner].outer = i;
    return x.inner != UINT32_MAX || cs_map_put(&s->open_of[x.kind], x.key, i, err);
}

static bool range_open(v2_sink *s, uint8_t kind, uint64_t key, cs_range r, cs_err *err)
{
    cs_model *m = s->m;
    if (!cs_grow((void **)&m->ranges, &m->cap_ranges, m->n_ranges + 1, sizeof *m->ranges, err) ||
        !open_push(s, kind, key, m->n_ranges, err))
        return false;
    r.kind = kind;
    r.t1 = CS_T_NONE;
    m->ranges[m->n_ranges++] = r;
    return true;
}

static bool pend(v2_sink *s, v2_pend p, cs_err *err)
{
    if (!cs_grow((void **)&s->pend, &s->cap_pend, s->n_pend + 1, sizeof *s->pend, err))
        return false;
    s->pend[s->n_pend++] = p;
    return true;
}

/* Closes the innermost open range of kind/key; absent ones (begun before
 * the trace) are ignored, or in a part left to the join (begun before the
 * cut, perhaps). */
static bool range_close(v2_sink *s, uint8_t kind, uint64_t key, int64_t t, cs_err *err)
{
    uint32_t i = open_at(s, kind, key);
    if (i == UINT32_MAX)
        return !s->part || pend(s, (v2_pend){key, t, UINT32_MAX, kind, false}, err);
    s->m->ranges[s->open[i].idx].t1 = t;
    return open_drop(s, i, err);
}

static uint32_t gidx(v2_sink *s, uint64_t goid, cs_err *err)
{
    return goid == V2_NONE ? 0 : cs_mb_g(&s->mb, goid, err);
}

static bool range_event(v2_sink *s, v2_gen *g, const v2_ev *e, uint8_t kind, cs_err *err)
{
    uint8_t rk;
    uint64_t key = e->ctx.g;
    cs_range r = {.t0 = kind == V2K_RANGE_ACTIVE ? s->sync_ts : e->ts}; /* in progress since the Sync */
    switch (e->type) {
    case V2_EvGCActive: case V2_EvGCBegin: case V2_EvGCEnd: rk = CS_RK_GC, key = 0; break;
    case V2_EvSTWBegin: case V2_EvSTWEnd:
        rk = CS_RK_STW;
        r.name = cs_model_intern(s->m, (const char *)e->str, e->str_len, err);
        break;
    case V2_EvGCSweepActive: case V2_EvGCSweepBegin: case V2_EvGCSweepEnd:
        rk = CS_RK_SWEEP, key = e->type == V2_EvGCSweepActive ? e->args[0] : e->ctx.p;
        r.id = key;
        break;
    default:
        rk = CS_RK_MARK_ASSIST;
        if (e->type == V2_EvGCMarkAssistActive)
            key = e->args[0];
        break;
    }
    if (s->d->drawn_ranges && !cs_range_drawn(rk))
        return err->code == CS_OK;
    if (kind == V2K_RANGE_END)
        return range_close(s, rk, key, e->ts, err);
    if (kind == V2K_RANGE_ACTIVE && open_at(s, rk, key) != UINT32_MAX)
        return true;
    bool before = kind == V2K_RANGE_ACTIVE && s->part; /* it may be open before the cut */
    if (rk == CS_RK_STW || rk == CS_RK_MARK_ASSIST)
        r.g = gidx(s, key, err);
    (void)g;
    return err->code == CS_OK && (!before || pend(s, (v2_pend){key, 0, s->m->n_ranges, rk, !s->syncs}, err)) &&
           range_open(s, rk, key, r, err);
}

static bool user_event(v2_sink *s, v2_gen *g, const v2_ev *e, uint8_t kind, cs_err *err)
{
    cs_model *m = s->m;
    const v2_spec *sp = V2_SPEC(e->type);
    if (kind != V2K_LOG && s->d->drawn_ranges) /* tasks and regions: not drawn */
        return true;
    switch (kind) {
    case V2K_TASK_BEGIN:
        return range_open(s, CS_RK_TASK, e->args[0],
                          (cs_range){.t0 = e->ts, .id = e->args[0], .g = gidx(s, e->ctx.g, err),
                                     .name = dec__v2_sid(g, m, e->args[2], err)}, err);
    case V2K_TASK_END:
        return range_close(s, CS_RK_TASK, e->args[0], e->ts, err);
    case V2K_REGION_BEGIN:
        return range_open(s, CS_RK_REGION, e->ctx.g,
                          (cs_range){.t0 = e->ts, .id = e->args[0], .g = gidx(s, e->ctx.g, err),
                                     .name = dec__v2_sid(g, m, e->args[1], err)}, err);
    case V2K_REGION_END:
        return range_close(s, CS_RK_REGION, e->ctx.g, e->ts, err);
    }
    /* V2K_LOG */
    if (!cs_grow((void **)&m->logs, &m->cap_logs, m->n_logs + 1, sizeof *m->logs, err))
        return false;
    m->logs[m->n_logs] = (cs_log){.ts = e->ts, .task = e->args[0], .g = gidx(s, e->ctx.g, err),
                                  .category = dec__v2_sid(g, m, e->args[1], err),
                                  .message = dec__v2_sid(g, m, e->args[2], err),
                                  .stack = dec__v2_stack(g, s->f, m, e->args[sp->stack - 1], err)};
    m->n_logs++;
    return err->code == CS_OK;
}

bool dec__v2_model_event(v2_sink *s, v2_gen *g, const v2_ev *e, uint8_t kind, const v2_trans *t,
                         cs_err *err)
{
    if (s->part && kind != V2K_STATE && kind != V2K_METRIC && (e->ctx.g == V2_UNK || e->ctx.p == V2_UNK))
        s->odd = true; /* a range's or a log's goroutine or P only the part before knows */
    switch (kind) {
    case V2K_STATE:
        return !t->is_g || g_event(s, g, e, t, err);
    case V2K_METRIC:
        if (e->type == V2_EvProcsChange && (int64_t)e->args[0] > s->m->nprocs && e->args[0] < 1u << 20)
            s->m->nprocs = (int)e->args[0];
        return true;
    case V2K_RANGE_BEGIN: case V2K_RANGE_ACTIVE: case V2K_RANGE_END:
        return range_event(s, g, e, kind, err);
    case V2K_TASK_BEGIN: case V2K_TASK_END: case V2K_REGION_BEGIN: case V2K_REGION_END: case V2K_LOG:
        return user_event(s, g, e, kind, err);
    }
    return true;
}

void dec__v2_model_close_ranges(v2_sink *s, int64_t t_end)
{
    for (uint32_t i = 0; i < s->n_open; i++)
        s->m->ranges[s->open[i].idx].t1 = t_end;
    s->n_open = 0;
    for (uint32_t k = 0; k < CS_RK_COUNT; k++)
        cs_map_clear(&s->open_of[k]);
}

void dec__v2_model_sink_free(v2_sink *s)
{
    cs_free(s->rclass);
    cs_free(s->open);
    for (uint32_t k = 0; k < CS_RK_COUNT; k++)
        cs_map_deinit(&s->open_of[k]);
    cs_free(s->pend);
    cs_free(s->unk);
}

/* w's pending ranges settled on s's open ones, as one thread would have:
 * a range w did not open is closed, and one in progress since a Sync that
 * s has open is s's (closed when w closed it, else left open), w's own
 * dropped (at[idx] = UINT32_MAX). at[i]: w's range i's index among those
 * w adds. */
static bool settle_pend(v2_sink *s, const v2_sink *w, uint32_t *at, cs_err *err)
{
    for (uint32_t i = 0; i < w->n_pend; i++) {
        const v2_pend *p = &w->pend[i];
        if (p->idx == UINT32_MAX) {
            if (!range_close(s, p->kind, p->key, p->t, err))
                return false;
            continue;
        }
        uint32_t o = open_at(s, p->kind, p->key);
        if (p->cut_sync)
            w->m->ranges[p->idx].t0 = s->sync_ts;
        if (o == UINT32_MAX)
            continue;
        at[p->idx] = UINT32_MAX;
        int64_t t1 = w->m->ranges[p->idx].t1;
        if (t1 != CS_T_NONE) {
            s->m->ranges[s->open[o].idx].t1 = t1;
            if (!open_drop(s, o, err))
                return false;
        }
    }
    for (uint32_t i = 0, n = 0; i < w->m->n_ranges; i++)
        at[i] = at[i] == UINT32_MAX ? UINT32_MAX : n++;
    return true;
}

/* w's ranges, the open ones among them, and logs after s's, mapped. */
static bool join_ranges(v2_sink *s, const v2_sink *w, const cs_model_map *map, cs_err *err)
{
    cs_model *m = s->m;
    const cs_model *wm = w->m;
    if ((uint64_t)m->n_ranges + wm->n_ranges > UINT32_MAX || (uint64_t)m->n_logs + wm->n_logs > UINT32_MAX ||
        (uint64_t)s->n_open + w->n_open > UINT32_MAX)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "too many ranges or logs");
    uint32_t *at = cs_calloc((size_t)wm->n_ranges + 1, sizeof *at);
    if (!at)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u ranges", wm->n_ranges);
    bool ok = cs_grow((void **)&m->ranges, &m->cap_ranges, m->n_ranges + wm->n_ranges, sizeof *m->ranges, err) &&
              cs_grow((void **)&m->logs, &m->cap_logs, m->n_logs + wm->n_logs, sizeof *m->logs, err) &&
              settle_pend(s, w, at, err);
    /* still open: w's ranges go after s's, each kind/key's inside s's, outermost first */
    for (uint32_t i = 0; ok && i < w->n_open; i++)
        for (uint32_t j = w->open[i].outer == UINT32_MAX ? i : UINT32_MAX; ok && j != UINT32_MAX;
             j = w->open[j].inner)
            ok = at[w->open[j].idx] == UINT32_MAX ||
                 open_push(s, w->open[j].kind, w->open[j].key, m->n_ranges + at[w->open[j].idx], err);
    if (!ok) {
        cs_free(at);
        return false;
    }
    for (uint32_t i = 0; i < wm->n_ranges; i++) {
        cs_range r = wm->ranges[i];
        r.g = map->g[r.g], r.name = map->sid[r.name];
        if (at[i] != UINT32_MAX)
            m->ranges[m->n_ranges++] = r;
    }
    cs_free(at);
    for (uint32_t i = 0; i < wm->n_logs; i++) {
        cs_log l = wm->logs[i];
        l.g = map->g[l.g], l.category = map->sid[l.category], l.message = map->sid[l.message];
        l.stack = map->stack[l.stack];
        m->logs[m->n_logs++] = l;
    }
    return true;
}

/* The goroutine of M m at the cut, where s's ordering stands: its index in
 * s's model (0 none), or false when s's model does not have it yet. */
static bool waker(const v2_sink *s, uint64_t m, uint32_t *idx)
{
    const v2_mst *x = dec__v2_mget(s->o, m);
    *idx = 0;
    return !x || x->g == V2_NONE || cs_model_g_find(s->m, x->g, idx);
}

bool dec__v2_model_fits(const v2_sink *s, const v2_sink *w)
{
    uint32_t idx;
    for (uint32_t i = 0; i < w->n_unk; i++)
        if (!waker(s, w->unk[i].m, &idx)) /* one thread would have added it then */
            return false;
    return !w->odd && cs_mb_join_fits(&s->mb, &w->mb);
}

bool dec__v2_model_join(v2_sink *s, v2_sink *w, const v2_gen *g, const uint32_t *cut_stk, uint32_t n_cut_stk,
                        cs_err *err)
{
    cs_model *m = s->m;
    const cs_model *wm = w->m;
    uint32_t *to = cs_calloc((size_t)wm->n_stack + 1, sizeof *to);
    if (!to)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u stacks", wm->n_stack);
    for (uint32_t k = 1; k < n_cut_stk && k < wm->n_stack; k++) /* s's already, if s used them before the cut */
        if (cut_stk[k] < g->n_stk && g->stk[cut_stk[k]].mstack1)
            to[k] = g->stk[cut_stk[k]].mstack1 - 1;
    cs_model_map map;
    uint32_t e0 = m->n_edges - 1; /* w's wake-up i is e0 + i */
    bool ok = cs_model_map_make(m, wm, to, &map, err) && cs_mb_join(&s->mb, &w->mb, &map, err) &&
              join_ranges(s, w, &map, err);
    for (uint32_t i = 0, idx; ok && i < w->n_unk; i++)
        if (waker(s, w->unk[i].m, &idx))
            m->edges[e0 + w->unk[i].edge].from = idx;
    cs_free(to);
    cs_model_map_free(&map);
    if (ok)
        m->nprocs = wm->nprocs > m->nprocs ? wm->nprocs : m->nprocs;
    return ok;
}
