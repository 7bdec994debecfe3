/* layout/graph.c — nodes and aggregated edges of the communication graph
 * (graph.h); the Graphviz part is graph_gv.c. Node order follows the spawn
 * tree's depth-first walk and edges are aggregated with one sort, so the
 * graph handed to Graphviz is the same in every run. */
#include "graph.h"
#include "internal.h"
#include "lanes.h"
#include "lod.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AUTO_GROUP_NODES 300

typedef struct erec {
    uint32_t from, to, chan;
    uint8_t kind;
    uint8_t pad[3];
} erec;

static int erec_cmp(const void *a, const void *b)
{
    const erec *x = a, *y = b;
    if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
    if (x->from != y->from) return x->from < y->from ? -1 : 1;
    if (x->to != y->to) return x->to < y->to ? -1 : 1;
    return (x->chan > y->chan) - (x->chan < y->chan);
}

const char *lay_graph_engine_for(uint32_t n_nodes)
{
    return n_nodes <= 60 ? "dot" : n_nodes <= 250 ? "neato" : "sfdp";
}

static bool shown(const cs_model *m, const lay_graph_desc *d, uint32_t g)
{
    return g && g < m->n_g && (d->show_system || !(m->g[g].flags & CS_G_SYSTEM));
}

/* Calls fn for every arrow between shown goroutines, in model order. */
typedef bool arrow_fn(void *ud, uint8_t kind, uint32_t from, uint32_t to, uint32_t chan, cs_err *err);

static bool each_arrow(const cs_model *m, const lay_graph_desc *d, arrow_fn *fn, void *ud, cs_err *err)
{
    for (uint32_t i = 0; i < m->n_msgs; i++) {
        const cs_msg *msg = &m->msgs[i];
        if (shown(m, d, msg->sender) && shown(m, d, msg->receiver) &&
            !fn(ud, lay_msg_arrow(msg), msg->sender, msg->receiver, msg->chan, err))
            return false;
    }
    for (uint32_t g = 1; g < m->n_g; g++)
        if (shown(m, d, m->g[g].parent) && shown(m, d, g) &&
            !fn(ud, LAY_ARROW_SPAWN, m->g[g].parent, g, 0, err))
            return false;
    for (uint32_t i = 1; i < m->n_edges; i++) {
        const cs_edge *e = &m->edges[i];
        if (lay_edge_arrow(e) == LAY_ARROW_SYNC && shown(m, d, e->from) && shown(m, d, e->to) &&
            !fn(ud, LAY_ARROW_SYNC, e->from, e->to, 0, err))
            return false;
    }
    return true;
}

static bool touch(void *ud, uint8_t kind, uint32_t from, uint32_t to, uint32_t chan, cs_err *err)
{
    uint8_t *t = ud;
    t[from] = t[to] = 1;
    return true;
}

typedef struct ecollect {
    lay_graph *g;
    erec *v;
    uint32_t n, cap;
} ecollect;

static bool collect(void *ud, uint8_t kind, uint32_t from, uint32_t to, uint32_t chan, cs_err *err)
{
    ecollect *c = ud;
    if (!cs_grow((void **)&c->v, &c->cap, c->n + 1, sizeof *c->v, err))
        return false;
    c->v[c->n++] = (erec){.from = c->g->node_of_g[from], .to = c->g->node_of_g[to],
                          .chan = chan, .kind = kind};
    return true;
}

static bool make_labels(const cs_model *m, lay_graph *g, cs_err *err)
{
    g->label_off = cs_calloc((size_t)g->n_nodes + 1, sizeof *g->label_off);
    if (!g->label_off)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for graph labels");
    uint32_t cap = 0;
    for (uint32_t i = 0; i < g->n_nodes; i++) {
        const cs_goroutine *gr = &m->g[g->nodes[i].g];
        const char *fn = lay_short_name(cs_model_str(m, gr->name));
        char buf[320];
        if (g->by_function)
            snprintf(buf, sizeof buf, g->nodes[i].n_g > 1 ? "%s \u00d7%u" : "%s",
                     fn[0] ? fn : "(unknown)", g->nodes[i].n_g);
        else
            snprintf(buf, sizeof buf, "G%llu%s%s", (unsigned long long)gr->goid, fn[0] ? " " : "", fn);
        uint32_t at = g->label_off[i], len = (uint32_t)strlen(buf) + 1;
        if (!cs_grow((void **)&g->label_bytes, &cap, at + len, 1, err))
            return false;
        memcpy(g->label_bytes + at, buf, len);
        g->label_off[i + 1] = at + len;
    }
    return true;
}

/* Nodes in depth-first order of the spawn tree; one per function when grouping. */
static bool make_nodes(const cs_model *m, lay_graph *g, const uint8_t *touched,
                       const uint32_t *order, uint32_t n, cs_err *err)
{
    cs_map by_name;
    cs_map_init(&by_name);
    uint32_t cap = 0;
    bool ok = true;
    for (uint32_t i = 0; i < n && ok; i++) {
        uint32_t gi = order[i], node;
        if (!touched[gi])
            continue;
        if (g->by_function && cs_map_get(&by_name, m->g[gi].name, &node)) {
            g->nodes[node].n_g++;
            g->node_of_g[gi] = node;
            continue;
        }
        node = g->n_nodes;
        ok = cs_grow((void **)&g->nodes, &cap, node + 1, sizeof *g->nodes, err) &&
             (!g->by_function || cs_map_put(&by_name, m->g[gi].name, node, err));
        if (ok) {
            g->nodes[node] = (lay_gnode){.g = gi, .n_g = 1};
            g->node_of_g[gi] = node;
            g->n_nodes++;
        }
    }
    cs_map_deinit(&by_name);
    return ok && make_labels(m, g, err);
}

static bool make_edges(const cs_model *m, const lay_graph_desc *d, lay_graph *g, cs_err *err)
{
    ecollect c = {.g = g};
    bool ok = each_arrow(m, d, collect, &c, err);
    uint32_t cap = 0;
    if (ok && c.n)
        qsort(c.v, c.n, sizeof *c.v, erec_cmp);
    for (uint32_t i = 0; ok && i < c.n; i++) {
        if (i && !erec_cmp(&c.v[i - 1], &c.v[i])) {
            g->edges[g->n_edges - 1].count++;
        } else {
            ok = cs_grow((void **)&g->edges, &cap, g->n_edges + 1, sizeof *g->edges, err);
            if (ok)
                g->edges[g->n_edges++] = (lay_gedge){.from = c.v[i].from, .to = c.v[i].to,
                                                     .count = 1, .chan = c.v[i].chan, .kind = c.v[i].kind};
        }
        g->n_msgs += c.v[i].kind <= LAY_ARROW_CLOSE;
    }
    cs_free(c.v);
    return ok;
}

bool lay_graph_build(const cs_model *m, const lay_graph_desc *d, lay_graph *out, cs_err *err)
{
    memset(out, 0, sizeof *out);
    lay__spawn sp;
    if (!lay__spawn_build(m, &sp, err))
        return false;
    uint8_t *touched = cs_calloc((size_t)m->n_g + 1, 1);
    out->node_of_g = cs_alloc((size_t)m->n_g * sizeof *out->node_of_g + 1);
    bool ok = touched && out->node_of_g;
    if (!ok)
        CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for a graph of %u goroutines", sp.n);
    for (uint32_t i = 0; ok && i < m->n_g; i++)
        out->node_of_g[i] = UINT32_MAX;
    ok = ok && each_arrow(m, d, touch, touched, err);
    uint32_t n_touched = 0;
    for (uint32_t i = 1; ok && i < m->n_g; i++)
        n_touched += touched[i];
    out->by_function = d->group == LAY_GROUP_FUNCTION ||
                       (d->group == LAY_GROUP_AUTO && n_touched > AUTO_GROUP_NODES);
    ok = ok && make_nodes(m, out, touched, sp.order, sp.n, err) && make_edges(m, d, out, err);
    cs_free(touched);
    lay__spawn_deinit(&sp);
    out->engine = d->engine ? d->engine : lay_graph_engine_for(out->n_nodes);
    return ok && lay__graph_gv(m, d, out, err);
}

const char *lay_graph_label(const lay_graph *g, uint32_t node)
{
    return node < g->n_nodes && g->label_bytes ? g->label_bytes + g->label_off[node] : "";
}
