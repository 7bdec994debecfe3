/* decode/v2_emit.c — what happens to each event of a Go 1.22+ trace once
 * Go's ordering has released it: the table-id check and the strictly
 * increasing timestamp fix-up of Go's reader (docs/trace-format.md §4.8), the
 * public event kind and state transition (§4.10), then the model builder
 * (spans, wake-up edges, ranges, logs), the Summarizer (v2_stats.c) and
 * dec_desc.on_event, in that order. Called by v2_reader.c only. */
#include "v2.h"

#include <string.h>

#define NO_STACK 0


/* Go's validateTableIDs: every stack and string argument must exist. */
static bool check_ids(const v2_gen *g, const v2_ev *e, const v2_spec *sp, cs_err *err)
{
    if (e->synth)
        return true;
    if (sp->stack && !dec__v2_stack_ok(g, e->args[sp->stack - 1]))
        return CS_FAIL(err, CS_E_CORRUPT, e->off, "found invalid stack ID %llu for event %s",
                       (unsigned long long)e->args[sp->stack - 1], sp->name);
    if (sp->stack2 && !dec__v2_stack_ok(g, e->args[sp->stack2 - 1]))
        return CS_FAIL(err, CS_E_CORRUPT, e->off, "found invalid stack ID %llu for event %s",
                       (unsigned long long)e->args[sp->stack2 - 1], sp->name);
    for (unsigned mask = sp->strmask; mask; mask &= mask - 1) { /* set bits, lowest first */
        unsigned i = (unsigned)__builtin_ctz(mask);
        if (e->args[i] && !dec__v2_str(g, e->args[i], NULL, NULL))
            return CS_FAIL(err, CS_E_CORRUPT, e->off, "found invalid string ID %llu for event %s",
                           (unsigned long long)e->args[i], sp->name);
    }
    return true;
}

/* Model sid of GoBlock's reason string: a trace uses a few reasons over and
 * over, so the last one is remembered (per generation: ids are per generation). */
static cs_sid block_reason(v2_sink *s, v2_gen *g, uint64_t id, cs_err *err)
{
    if (id != s->rs_id || g->gen != s->rs_gen) {
        s->rs_sid = dec__v2_sid(g, s->m, id, err);
        s->rs_id = id;
        s->rs_gen = g->gen;
    }
    return s->rs_sid;
}

/* The StateTransition of a scheduler event (Go's Event.StateTransition). */
static bool transition(v2_sink *s, v2_gen *g, const v2_ev *e, v2_trans *t, cs_err *err)
{
    /* almost every event is one of these three: plain branches before the jump table */
    if (e->type == V2_EvGoStart) {
        *t = (v2_trans){true, e->args[0], V2G_RUNNABLE, V2G_RUNNING, 0, 0};
        return true;
    }
    if (e->type == V2_EvGoUnblock) {
        *t = (v2_trans){true, e->args[0], V2G_WAITING, V2G_RUNNABLE, 0, 0};
        return true;
    }
    if (e->type == V2_EvGoBlock) {
        *t = (v2_trans){true, e->ctx.g, V2G_RUNNING, V2G_WAITING, block_reason(s, g, e->args[0], err), e->args[1]};
        return err->code == CS_OK;
    }
    memset(t, 0, sizeof *t);
    t->is_g = true;
    switch (e->type) {
    case V2_EvProcStart: *t = (v2_trans){false, e->args[0], V2P_IDLE, V2P_RUNNING, 0, 0}; break;
    case V2_EvProcStop: *t = (v2_trans){false, e->ctx.p, V2P_RUNNING, V2P_IDLE, 0, 0}; break;
    case V2_EvProcSteal:
        *t = (v2_trans){false, e->args[0], e->extra[0] == 4 ? V2P_IDLE : V2P_RUNNING, V2P_IDLE, 0, 0};
        break;
    case V2_EvProcStatus:
        *t = (v2_trans){false, e->args[0], (uint8_t)e->extra[0], dec__v2_p_public[e->args[1] % 5], 0, 0};
        break;
    case V2_EvGoCreate: *t = (v2_trans){true, e->args[0], V2G_NOTEXIST, V2G_RUNNABLE, 0, e->args[1]}; break;
    case V2_EvGoCreateBlocked: *t = (v2_trans){true, e->args[0], V2G_NOTEXIST, V2G_WAITING, 0, e->args[1]}; break;
    case V2_EvGoCreateSyscall: *t = (v2_trans){true, e->args[0], V2G_NOTEXIST, V2G_SYSCALL, 0, 0}; break;
    case V2_EvGoDestroy: *t = (v2_trans){true, e->ctx.g, V2G_RUNNING, V2G_NOTEXIST, 0, 0}; break;
    case V2_EvGoDestroySyscall: *t = (v2_trans){true, e->ctx.g, V2G_SYSCALL, V2G_NOTEXIST, 0, 0}; break;
    case V2_EvGoStop:
        *t = (v2_trans){true, e->ctx.g, V2G_RUNNING, V2G_RUNNABLE, dec__v2_sid(g, s->m, e->args[0], err), e->args[1]};
        break;
    case V2_EvGoSwitch: case V2_EvGoSwitchDestroy:
        *t = (v2_trans){true, e->args[0], V2G_WAITING, V2G_RUNNABLE, 0, 0};
        break;
    case V2_EvGoSyscallBegin: *t = (v2_trans){true, e->ctx.g, V2G_RUNNING, V2G_SYSCALL, 0, e->args[1]}; break;
    case V2_EvGoSyscallEnd: *t = (v2_trans){true, e->ctx.g, V2G_SYSCALL, V2G_RUNNING, 0, 0}; break;
    case V2_EvGoSyscallEndBlocked: *t = (v2_trans){true, e->ctx.g, V2G_SYSCALL, V2G_RUNNABLE, 0, 0}; break;
    case V2_EvGoStatus: case V2_EvGoStatusStack: /* Go 1.26+: the status's stack is the transition's */
        *t = (v2_trans){true, e->args[0], (uint8_t)e->extra[0], dec__v2_g_public[e->args[2] % 5], 0,
                        e->type == V2_EvGoStatusStack ? e->args[3] : 0};
        break;
    }
    return err->code == CS_OK;
}

static bool emit_user(v2_sink *s, v2_gen *g, v2_ev *e, const v2_spec *sp, uint8_t kind, cs_err *err)
{
    dec_event de = {.off = e->off, .ts = e->ts, .p = e->ctx.p == V2_NONE ? -1 : (int64_t)e->ctx.p,
                    .g = e->ctx.g == V2_NONE ? CS_NO_GOID : e->ctx.g, .nargs = (uint8_t)(sp->nargs - 1),
                    .type = e->type, .type_name = sp->name, .kind_name = dec__v2_kind_names[kind]};
    memcpy(de.args, e->args, sizeof e->args);
    if (sp->stack)
        de.stack = dec__v2_stack(g, s->f, s->m, e->args[sp->stack - 1], err);
    unsigned si = e->type == V2_EvUserLog ? 2 : e->type == V2_EvUserTaskBegin ? 2 : e->type == V2_EvUserRegionBegin || e->type == V2_EvUserRegionEnd ? 1 : 0;
    if (sp->strmask >> si & 1) {
        const uint8_t *p;
        uint32_t len;
        if (dec__v2_str(g, e->args[si], &p, &len))
            de.sarg = (const char *)p, de.sarg_len = len;
    }
    return err->code == CS_OK && s->d->on_event(s->d->event_ud, &de, err);
}

/* One more event emitted, read at ts: the time it gets. */
static int64_t stamp(v2_sink *s, int64_t ts)
{
    if (!s->n_events)
        s->first_ts = ts;
    s->n_events++;
    return s->last_ts = dec__v2_after_last(s, ts);
}

bool dec__v2_emit(v2_sink *s, v2_gen *g, v2_ev *e, cs_err *err)
{
    const v2_spec *sp = V2_SPEC(e->type);
    if (!check_ids(g, e, sp, err))
        return false;
    e->ts = stamp(s, e->ts);
    uint8_t kind = sp->kind;
    v2_trans tr;
    if (kind == V2K_STATE && !transition(s, g, e, &tr, err))
        return false;
    if (!s->d->no_model && !dec__v2_model_event(s, g, e, kind, kind == V2K_STATE ? &tr : NULL, err))
        return false;
    if (s->sum && !dec__v2_sum_event(s->sum, s->m, e, kind, kind == V2K_STATE ? &tr : NULL, g, s->f, err))
        return false;
    return !s->d->on_event || emit_user(s, g, e, sp, kind, err);
}

bool dec__v2_emit_sync(v2_sink *s, v2_gen *g, int64_t ts, cs_err *err)
{
    bool first = !s->n_events;
    s->sync_ts = ts = stamp(s, ts);
    if (first)
        s->m->t_first = ts;
    s->syncs++;
    if (s->sum) {
        v2_ev e = {.ts = ts, .ctx = {V2_NONE, V2_NONE, V2_NONE}, .type = V2_EvSync};
        if (!dec__v2_sum_event(s->sum, s->m, &e, V2K_SYNC, NULL, g, s->f, err))
            return false;
    }
    if (!s->d->on_event)
        return true;
    dec_event de = {.off = g ? g->off : s->f->size, .ts = ts, .p = -1, .g = CS_NO_GOID, .nargs = 1,
                    .args = {s->syncs}, .type = V2_EvSync, .type_name = "Sync", .kind_name = "Sync"};
    return s->d->on_event(s->d->event_ud, &de, err);
}

bool dec__v2_emit_sample(v2_sink *s, v2_gen *g, const v2_sample *smp, cs_err *err)
{
    if (!dec__v2_stack_ok(g, smp->stk))
        return CS_FAIL(err, CS_E_CORRUPT, smp->off, "found invalid stack ID %llu for event CPUSample",
                       (unsigned long long)smp->stk);
    int64_t ts = stamp(s, smp->ts);
    if (!s->d->on_event)
        return true;
    dec_event de = {.off = smp->off, .ts = ts, .p = smp->p == V2_NONE ? -1 : (int64_t)smp->p,
                    .g = smp->g == V2_NONE ? CS_NO_GOID : smp->g, .nargs = 4,
                    .args = {smp->m, smp->p, smp->g, smp->stk}, .type = V2_EvCPUSample,
                    .type_name = "CPUSample", .kind_name = "StackSample"};
    de.stack = dec__v2_stack(g, s->f, s->m, smp->stk, err);
    return err->code == CS_OK && s->d->on_event(s->d->event_ud, &de, err);
}
