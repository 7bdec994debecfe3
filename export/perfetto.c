/* export/perfetto.c — Chrome trace-event JSON of perfetto.h, streamed event
 * by event through the exporters' buffered writer (no DOM, so a million
 * messages cost no memory). */
#include "perfetto.h"
#include "internal.h"
#include "../layout/arrow.h"
#include "../layout/lanes.h"
#include "../layout/palette.h"

#include <string.h>

typedef struct pf {
    exp__w *w;
    const cs_model *m;
    const lay_lanes *l;
    bool first;           /* no comma before the first event */
} pf;

/* µs with three decimals: exact to the ns. */
static void ts(pf *p, int64_t t)
{
    exp__puts(p->w, ",\"ts\":");
    exp__milli(p->w, t - p->m->t_first);
}

static void dur(pf *p, int64_t d)
{
    exp__puts(p->w, ",\"dur\":");
    exp__milli(p->w, d);
}

static void begin(pf *p, const char *ph, uint64_t tid)
{
    exp__puts(p->w, p->first ? "\n{\"ph\":\"" : ",\n{\"ph\":\"");
    exp__puts(p->w, ph);
    exp__puts(p->w, "\",\"pid\":1,\"tid\":");
    exp__u64(p->w, tid);
    p->first = false;
}

static bool shown(const pf *p, uint32_t g)
{
    return g && g < p->m->n_g && p->l->lane_of_g[g] != LAY_NO_LANE;
}

static void threads(pf *p, const char *name)
{
    begin(p, "M", 0);
    exp__puts(p->w, ",\"name\":\"process_name\",\"args\":{\"name\":");
    exp__json_str(p->w, name);
    exp__puts(p->w, "}}");
    begin(p, "M", 0);
    exp__puts(p->w, ",\"name\":\"thread_name\",\"args\":{\"name\":\"GC / stop-the-world\"}}");
    for (uint32_t g = 1; g < p->m->n_g; g++) {
        if (!shown(p, g))
            continue;
        uint64_t tid = p->m->g[g].goid;
        begin(p, "M", tid);
        exp__puts(p->w, ",\"name\":\"thread_name\",\"args\":{\"name\":");
        exp__json_str(p->w, lay_lanes_label(p->l, p->l->lane_of_g[g]));
        exp__puts(p->w, "}}");
        begin(p, "M", tid);
        exp__printf(p->w, ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":%u}}",
                    p->l->lane_of_g[g] + 1);
    }
}

static void slices(pf *p)
{
    const cs_model *m = p->m;
    for (uint32_t g = 1; g < m->n_g; g++) {
        if (!shown(p, g))
            continue;
        const cs_goroutine *gr = &m->g[g];
        for (uint32_t s = gr->span_first; s < gr->span_first + gr->span_count; s++) {
            lay_mark mk = lay_mark_of(cs_span_state(m, s), cs_span_reason(m, s));
            if (mk == LAY_MARK_NONE)
                continue;
            begin(p, "X", gr->goid);
            ts(p, cs_span_t0(m, s));
            dur(p, cs_span_t1(m, s) - cs_span_t0(m, s));
            exp__puts(p->w, ",\"cat\":\"state\",\"name\":\"");
            exp__puts(p->w, cs_state_name(cs_span_state(m, s)));
            if (cs_span_reason(m, s))
                exp__puts(p->w, ": "), exp__puts(p->w, cs_reason_name(cs_span_reason(m, s)));
            exp__puts(p->w, "\"}");
        }
    }
    for (uint32_t i = 0; i < m->n_ranges; i++) {
        const cs_range *r = &m->ranges[i];
        if (!cs_range_drawn(r->kind))
            continue;
        begin(p, "X", 0);
        ts(p, r->t0);
        dur(p, r->t1 - r->t0);
        exp__puts(p->w, ",\"cat\":\"gc\",\"name\":");
        exp__json_str(p->w, r->kind == CS_RK_GC ? "GC" : cs_model_str(m, r->name)[0] ? cs_model_str(m, r->name) : "stop-the-world");
        exp__puts(p->w, "}");
    }
}

/* One flow arrow: "s" on the source thread, "f" binding to the enclosing
 * slice on the destination thread. */
static void flow(pf *p, uint64_t id, const char *cat, const char *name, uint32_t from, int64_t t0,
                 uint32_t to, int64_t t1)
{
    for (int k = 0; k < 2; k++) {
        begin(p, k ? "f" : "s", p->m->g[k ? to : from].goid);
        ts(p, k ? t1 : t0);
        exp__puts(p->w, ",\"id\":");
        exp__u64(p->w, id);
        exp__puts(p->w, ",\"cat\":\"");
        exp__puts(p->w, cat);
        exp__puts(p->w, "\",\"name\":");
        exp__json_str(p->w, name);
        exp__puts(p->w, k ? ",\"bp\":\"e\"}" : "}");
    }
}

static void flows(pf *p)
{
    const cs_model *m = p->m;
    uint64_t id = 1;
    for (uint32_t i = 0; i < m->n_msgs; i++, id++) {
        int64_t ts = cs_msg_t_send(m, i), tr = cs_msg_t_recv(m, i);
        uint32_t s = cs_msg_sender(m, i), r = cs_msg_receiver(m, i), ch = cs_msg_chan(m, i);
        if (!shown(p, s) || !shown(p, r) || ts == CS_T_NONE)
            continue;
        const char *name = ch && ch < m->n_chans ? cs_model_str(m, m->chans[ch].name) : "";
        flow(p, id, lay_msg_arrow(&m->msgs[i]) == LAY_ARROW_CLOSE ? "close" : "chan", name[0] ? name : "channel",
             s, ts, r, tr < ts ? ts : tr);
    }
    for (uint32_t g = 1; g < m->n_g; g++, id++)
        if (shown(p, m->g[g].parent) && shown(p, g) && m->g[g].create_ns != CS_T_NONE)
            flow(p, id, "spawn", "go", m->g[g].parent, m->g[g].create_ns, g, m->g[g].create_ns);
    for (uint32_t i = 1; i < m->n_edges; i++, id++) {
        const cs_edge *e = &m->edges[i];
        if (lay_edge_arrow(e) != LAY_ARROW_SYNC || !shown(p, e->from) || !shown(p, e->to))
            continue;
        int64_t t = cs_edge_ts(m, i);
        flow(p, id, "sync", cs_model_str(m, cs_edge_site(m, e)->reason_name), e->from, t, e->to, t);
    }
}

typedef struct pf_job {
    const cs_model *m;
    const exp_perfetto_desc *d;
} pf_job;

static bool body(cs_write_fn *fn, void *ctx, const void *arg, cs_err *err)
{
    const pf_job *j = arg;
    return exp_perfetto_write_to(fn, ctx, j->m, j->d, err);
}

bool exp_perfetto_write_to(cs_write_fn *fn, void *ctx, const cs_model *m,
                           const exp_perfetto_desc *d, cs_err *err)
{
    lay_lanes l;
    if (!lay_lanes_build(m, &(lay_lanes_desc){.show_system = !d->hide_system}, &l, err)) {
        lay_lanes_deinit(&l);
        return false;
    }
    exp__w *w = cs_alloc(sizeof *w);
    if (!w) {
        lay_lanes_deinit(&l);
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for the JSON writer");
    }
    exp__w_init(w, fn, ctx);
    pf p = {.w = w, .m = m, .l = &l, .first = true};
    exp__puts(w, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"chanscope\"},\"traceEvents\":[");
    threads(&p, d->name ? d->name : "go trace");
    slices(&p);
    flows(&p);
    exp__puts(w, "\n]}\n");
    bool ok = exp__w_finish(w, err);
    cs_free(w);
    lay_lanes_deinit(&l);
    return ok;
}

bool exp_perfetto_write(const char *path, const cs_model *m, const exp_perfetto_desc *d,
                        cs_err *err)
{
    pf_job j = {m, d};
    return exp__to_path(path, body, &j, err);
}
