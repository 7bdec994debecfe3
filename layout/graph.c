/* layout/graph.c — nodes, aggregated edges and folding of the communication
 * graph (graph.h), the engine chosen by the graph's shape, and the label
 * rectangles every picture draws; the Graphviz part is graph_gv.c. Node
 * order follows the spawn tree's depth-first walk and edges are aggregated
 * with one sort, so the graph handed to Graphviz is the same in every run. */
#include "graph.h"
#include "internal.h"
#include "lanes.h"
#include "lod.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AUTO_GROUP_NODES 300 /* without a canvas: fold beyond this many nodes */
#define MESH_SFDP_NODES 200  /* meshes bigger than this go to sfdp */
#define DOT_MAX_NODES 60     /* dot's ranking takes seconds on bigger graphs whose
                              * spawn edges span many ranks: neato then */
#define ROOM_FACTOR 4.0      /* a layout needs about this many times its boxes' area */

/* How goroutines become nodes: one each, folded by function and traffic,
 * or one per function. */
typedef enum node_mode { MODE_GOROUTINE, MODE_FOLD, MODE_FUNCTION } node_mode;

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

static bool shown(const cs_model *m, const lay_graph_desc *d, uint32_t g)
{
    return g && g < m->n_g && (d->show_system || !(m->g[g].flags & CS_G_SYSTEM));
}

/* Calls fn for every arrow between shown goroutines, in model order. */
typedef bool arrow_fn(void *ud, uint8_t kind, uint32_t from, uint32_t to, uint32_t chan, cs_err *err);

static bool each_arrow(const cs_model *m, const lay_graph_desc *d, arrow_fn *fn, void *ud, cs_err *err)
{
    for (uint32_t i = 0; i < m->n_msgs; i++) {
        uint32_t s = cs_msg_sender(m, i), r = cs_msg_receiver(m, i);
        if (shown(m, d, s) && shown(m, d, r) && !fn(ud, lay_msg_arrow(&m->msgs[i]), s, r, cs_msg_chan(m, i), err))
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

/* A function name of at most LABEL_FN_MAX bytes: longer ones keep their
 * head and tail around an ellipsis (cut between UTF-8 characters). */
#define LABEL_FN_MAX 36

static void shorten(const char *fn, char *out)
{
    size_t n = strlen(fn);
    if (n <= LABEL_FN_MAX) {
        memcpy(out, fn, n + 1);
        return;
    }
    size_t head = LABEL_FN_MAX / 2 - 2, tail = n - (LABEL_FN_MAX - head - 3);
    head = lay_utf8_floor(fn, head);
    while (tail < n && (fn[tail] & 0xC0) == 0x80)
        tail++;
    memcpy(out, fn, head);
    memcpy(out + head, "\u2026", 3);
    memcpy(out + head + 3, fn + tail, n - tail + 1);
}

static bool make_labels(const cs_model *m, lay_graph *g, cs_err *err)
{
    g->label_off = cs_calloc((size_t)g->n_nodes + 1, sizeof *g->label_off);
    if (!g->label_off)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for graph labels");
    uint32_t cap = 0;
    for (uint32_t i = 0; i < g->n_nodes; i++) {
        const cs_goroutine *gr = &m->g[g->nodes[i].g];
        char fn[LABEL_FN_MAX + 8], buf[320];
        shorten(lay_short_name(cs_model_str(m, gr->name)), fn);
        if (g->nodes[i].n_g > 1 || g->by_function)
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

/* Nodes in depth-first order of the spawn tree: one per goroutine, or one
 * per distinct key[g] (the first goroutine with a key names the node). */
static bool make_nodes(const cs_model *m, lay_graph *g, const uint8_t *touched, const uint32_t *order,
                       uint32_t n, const uint64_t *key, cs_err *err)
{
    cs_map by_key;
    cs_map_init(&by_key);
    uint32_t cap = 0;
    bool ok = true;
    for (uint32_t i = 0; i < n && ok; i++) {
        uint32_t gi = order[i], node;
        if (!touched[gi])
            continue;
        if (key && cs_map_get(&by_key, key[gi], &node)) {
            g->nodes[node].n_g++;
            g->node_of_g[gi] = node;
            continue;
        }
        node = g->n_nodes;
        ok = cs_grow((void **)&g->nodes, &cap, node + 1, sizeof *g->nodes, err) &&
             (!key || cs_map_put(&by_key, key[gi], node, err));
        if (ok) {
            g->nodes[node] = (lay_gnode){.g = gi, .n_g = 1};
            g->node_of_g[gi] = node;
            g->n_nodes++;
        }
    }
    cs_map_deinit(&by_key);
    return ok && make_labels(m, g, err);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 29);
}

/* Folding: one (goroutine, what it does) record per end of every arrow,
 * "what" being direction, kind, channel and the other end's function. */
typedef struct trait {
    uint32_t g, pad;
    uint64_t h;
} trait;

typedef struct traits {
    const cs_model *m;
    trait *v;
    uint32_t n, cap;
} traits;

static bool add_traits(void *ud, uint8_t kind, uint32_t from, uint32_t to, uint32_t chan, cs_err *err)
{
    traits *t = ud;
    if (!cs_grow((void **)&t->v, &t->cap, t->n + 2, sizeof *t->v, err))
        return false;
    uint64_t base = mix(kind, chan);
    t->v[t->n++] = (trait){.g = from, .h = mix(mix(base, 0), t->m->g[to].name)};
    t->v[t->n++] = (trait){.g = to, .h = mix(mix(base, 1), t->m->g[from].name)};
    return true;
}

static int trait_cmp(const void *a, const void *b)
{
    const trait *x = a, *y = b;
    if (x->g != y->g)
        return x->g < y->g ? -1 : 1;
    return (x->h > y->h) - (x->h < y->h);
}

/* key[g]: the goroutine's function mixed with the set of its traits. */
static bool fold_keys(const cs_model *m, const lay_graph_desc *d, uint64_t *key, cs_err *err)
{
    traits t = {.m = m};
    bool ok = each_arrow(m, d, add_traits, &t, err);
    if (ok && t.n)
        qsort(t.v, t.n, sizeof *t.v, trait_cmp);
    for (uint32_t g = 0; g < m->n_g; g++)
        key[g] = mix(0, m->g[g].name);
    for (uint32_t i = 0; ok && i < t.n; i++)
        if (!i || trait_cmp(&t.v[i - 1], &t.v[i]))
            key[t.v[i].g] = mix(key[t.v[i].g], t.v[i].h);
    cs_free(t.v);
    return ok;
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
                g->edges[g->n_edges++] = (lay_gedge){.from = c.v[i].from, .to = c.v[i].to, .count = 1,
                                                     .chan = c.v[i].chan, .lx = -1, .kind = c.v[i].kind};
        }
        g->n_msgs += c.v[i].kind <= LAY_ARROW_CLOSE;
    }
    cs_free(c.v);
    return ok;
}

/* Does the traffic mostly run one way? Back edges of a depth-first walk
 * over the message edges (spawns and wake-ups left out: they always point
 * away from main) against all message edges: *out when at most a fifth
 * of them run back. False only when out of memory. */
static bool mostly_forward(const lay_graph *g, bool *out, cs_err *err)
{
    uint32_t n = g->n_nodes, *first = cs_calloc((size_t)n + 2, sizeof *first);
    uint32_t *adj = cs_alloc((size_t)g->n_edges * sizeof *adj + 1);
    uint32_t *stack = cs_alloc(((size_t)n + 1) * 2 * sizeof *stack);
    uint8_t *state = cs_calloc((size_t)n + 1, 1);
    uint32_t msg_edges = 0, back = 0;
    if (!first || !adj || !stack || !state) {
        cs_free(first), cs_free(adj), cs_free(stack), cs_free(state);
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for a graph of %u nodes", n);
    }
    for (uint32_t i = 0; i < g->n_edges; i++) /* edges are sorted by kind, then from */
        if (g->edges[i].kind <= LAY_ARROW_CLOSE && g->edges[i].from != g->edges[i].to)
            first[g->edges[i].from + 2]++;
    for (uint32_t v = 0; v < n; v++)
        first[v + 2] += first[v + 1];
    for (uint32_t i = 0; i < g->n_edges; i++)
        if (g->edges[i].kind <= LAY_ARROW_CLOSE && g->edges[i].from != g->edges[i].to)
            adj[first[g->edges[i].from + 1]++] = g->edges[i].to, msg_edges++;
    for (uint32_t root = 0; root < n; root++) { /* first[v] .. first[v + 1]: v's targets */
        if (state[root])
            continue;
        uint32_t top = 0;
        stack[top++] = root, stack[top++] = first[root], state[root] = 1;
        while (top) {
            uint32_t v = stack[top - 2], k = stack[top - 1];
            if (k == first[v + 1]) {
                state[v] = 2, top -= 2;
                continue;
            }
            stack[top - 1]++;
            uint32_t w = adj[k];
            if (state[w] == 1)
                back++;
            else if (!state[w])
                stack[top++] = w, stack[top++] = first[w], state[w] = 1;
        }
    }
    cs_free(first), cs_free(adj), cs_free(stack), cs_free(state);
    *out = back * 5 <= msg_edges;
    return true;
}

static bool pick_engine(const lay_graph_desc *d, lay_graph *g, cs_err *err)
{
    if (d->engine) {
        g->engine = d->engine;
        return true;
    }
    bool fwd = g->n_nodes <= 4;
    if (!fwd && g->n_nodes <= DOT_MAX_NODES && !mostly_forward(g, &fwd, err))
        return false;
    g->engine = fwd && g->n_nodes <= DOT_MAX_NODES ? "dot" : g->n_nodes <= MESH_SFDP_NODES ? "neato" : "sfdp";
    return true;
}

/* Room the nodes need with Graphviz's gaps, against the canvas with text
 * shrunk to the smallest size allowed. */
static bool fits(const lay_graph *g, double w, double h)
{
    double f = g->font_px, need = 0;
    for (uint32_t i = 0; i < g->n_nodes; i++)
        need += (g->nodes[i].w + 2 * f) * (g->nodes[i].h + 3 * f);
    double k = f / LAY_GRAPH_FONT_MIN;
    return ROOM_FACTOR * need <= w * h * k * k;
}

static void size_nodes(lay_graph *g)
{
    double f = g->font_px;
    for (uint32_t i = 0; i < g->n_nodes; i++) {
        g->nodes[i].w = lay_text_width(lay_graph_label(g, i), f) + 1.2 * f;
        g->nodes[i].h = 2.0 * f;
    }
}

/* One try at nodes, edges and layout for a node mode. */
static bool attempt(const cs_model *m, const lay_graph_desc *d, const lay__spawn *sp, const uint8_t *touched,
                    node_mode mode, double font_px, lay_graph *out, cs_err *err)
{
    lay_graph_deinit(out);
    out->node_of_g = cs_alloc((size_t)m->n_g * sizeof *out->node_of_g + 1);
    uint64_t *key = mode == MODE_GOROUTINE ? NULL : cs_alloc((size_t)m->n_g * sizeof *key + 1);
    bool ok = out->node_of_g && (mode == MODE_GOROUTINE || key);
    if (!ok)
        CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for a graph of %u goroutines", sp->n);
    for (uint32_t i = 0; ok && i < m->n_g; i++) {
        out->node_of_g[i] = UINT32_MAX;
        if (mode == MODE_FUNCTION)
            key[i] = m->g[i].name;
    }
    if (ok && mode == MODE_FOLD)
        ok = fold_keys(m, d, key, err);
    out->by_function = mode == MODE_FUNCTION;
    out->font_px = font_px;
    ok = ok && make_nodes(m, out, touched, sp->order, sp->n, key, err) && make_edges(m, d, out, err);
    cs_free(key);
    for (uint32_t i = 0; ok && i < out->n_nodes; i++)
        out->folded |= mode == MODE_FOLD && out->nodes[i].n_g > 1;
    if (ok)
        size_nodes(out);
    return ok && pick_engine(d, out, err);
}

double lay_graph_font_for(double width_px, double height_px)
{
    double side = fmin(height_px, width_px * 9 / 16), f = side / 64;
    return f < LAY_GRAPH_FONT_MIN + 1 ? LAY_GRAPH_FONT_MIN + 1 : f > LAY_GRAPH_FONT_MAX ? LAY_GRAPH_FONT_MAX : f;
}

double lay_graph_scale(const lay_graph *g, double width_px, double height_px)
{
    if (g->width <= 0 || g->height <= 0)
        return 1;
    return fmin(width_px / g->width, height_px / g->height);
}

bool lay_graph_build(const cs_model *m, const lay_graph_desc *d, lay_graph *out, cs_err *err)
{
    memset(out, 0, sizeof *out);
    lay__spawn sp;
    if (!lay__spawn_build(m, NULL, &sp, err))
        return false;
    uint8_t *touched = cs_calloc((size_t)m->n_g + 1, 1);
    bool ok = touched || CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u goroutines", sp.n);
    ok = ok && each_arrow(m, d, touch, touched, err);
    bool canvas = d->width_px > 0 && d->height_px > 0, auto_fold = d->group == LAY_GROUP_AUTO;
    double font = d->font_px > 0 ? d->font_px : canvas ? lay_graph_font_for(d->width_px, d->height_px) : 14;
    node_mode mode = d->group == LAY_GROUP_FUNCTION ? MODE_FUNCTION : MODE_GOROUTINE;
    uint32_t unfolded = 0;
    bool laid = false; /* lay__graph_gv ran on the last attempt */
    while (ok) {
        laid = false;
        ok = attempt(m, d, &sp, touched, mode, font, out, err);
        if (!ok || !auto_fold || mode == MODE_FUNCTION)
            break;
        if (mode == MODE_GOROUTINE)
            unfolded = out->n_nodes;
        bool too_big = canvas ? !fits(out, d->width_px, d->height_px) : out->n_nodes > AUTO_GROUP_NODES;
        if (too_big || (mode == MODE_FOLD && out->n_nodes == unfolded)) {
            mode++;
            continue;
        }
        if (d->no_layout || !canvas)
            break;
        ok = laid = lay__graph_gv(m, d, out, err);
        if (!ok || font * lay_graph_scale(out, d->width_px, d->height_px) >= LAY_GRAPH_FONT_MIN)
            break;
        mode++;
    }
    ok = ok && (laid || lay__graph_gv(m, d, out, err));
    cs_free(touched);
    lay__spawn_deinit(&sp);
    return ok;
}

const char *lay_graph_label(const lay_graph *g, uint32_t node)
{
    return node < g->n_nodes && g->label_bytes ? g->label_bytes + g->label_off[node] : "";
}

void lay_graph_edge_text(const lay_gedge *e, char *buf, size_t n)
{
    snprintf(buf, n, e->kind == LAY_ARROW_CLOSE ? "%u\u00d7 close" : "%u\u00d7", e->count);
}

uint32_t lay_graph_edge_find(const lay_graph *g, uint8_t kind, uint32_t from, uint32_t to, uint32_t chan)
{
    const erec key = {.from = from, .to = to, .chan = chan, .kind = kind};
    uint32_t lo = 0, hi = g->n_edges;
    while (lo < hi) { /* edges are in erec_cmp's order (make_edges) */
        uint32_t mid = lo + (hi - lo) / 2;
        const lay_gedge *e = &g->edges[mid];
        int c = erec_cmp(&(erec){.from = e->from, .to = e->to, .chan = e->chan, .kind = e->kind}, &key);
        if (!c)
            return mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return UINT32_MAX;
}

/* Messages and closes show their count; a thin line says 1 message. */
bool lay_graph_edge_counted(const lay_gedge *e)
{
    return e->kind < LAY_ARROW_SYNC && (e->count > 1 || e->kind == LAY_ARROW_CLOSE);
}

/* Heavier with the logarithm of the count, so a hot pair stands out
 * without a million messages drowning the picture. */
double lay_graph_edge_width(const lay_gedge *e)
{
    return e->kind >= LAY_ARROW_SYNC ? 1.0 : fmin(5.0, 1.2 + 0.8 * log2((double)e->count));
}

uint32_t lay_graph_rects_max(const lay_graph *g)
{
    return 2 * g->n_nodes + g->n_edges;
}

static bool overlap(const lay_grect *a, const lay_grect *b)
{
    return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

/* Is r clear of every node but its own and of every label kept so far? */
static bool clear(const lay_grect *out, uint32_t n_nodes, uint32_t n, const lay_grect *r)
{
    for (uint32_t i = 0; i < n; i++)
        if (!(i < n_nodes && r->kind == LAY_RECT_LABEL && i == r->idx) && overlap(&out[i], r))
            return false;
    return true;
}

static lay_grect text_rect(double cx, double cy, const char *text, double font_px, uint32_t idx, uint8_t kind)
{
    double w = lay_text_width(text, font_px), h = 1.2 * font_px;
    return (lay_grect){cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2, font_px, idx, kind, {0}};
}

/* A count Graphviz placed nowhere, or over another label (two edges of
 * one pair, one each way, share a route): beside a point of the edge's
 * curve, the middle first, on either side of it. */
static bool beside_curve(const lay_graph *g, uint32_t i, double scale, const char *text, double font_px,
                         const lay_grect *out, uint32_t n, lay_grect *r)
{
    const lay_gedge *e = &g->edges[i];
    if (e->n_pts < 2)
        return false;
    double w = lay_text_width(text, font_px), h = 1.2 * font_px, gap = 0.3 * font_px;
    static const double at[] = {0.5, 0.35, 0.65, 0.2, 0.8};
    static const double side[][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    for (size_t a = 0; a < sizeof at / sizeof *at; a++) {
        uint32_t k = e->pt_first + (uint32_t)(at[a] * (e->n_pts - 1));
        double x = g->pts[2 * k] * scale, y = g->pts[2 * k + 1] * scale;
        for (size_t s = 0; s < sizeof side / sizeof *side; s++) {
            *r = text_rect(x + side[s][0] * (w / 2 + gap), y + side[s][1] * (h / 2 + gap), text, font_px, i,
                           LAY_RECT_EDGE_LABEL);
            if (clear(out, g->n_nodes, n, r))
                return true;
        }
    }
    return false;
}

uint32_t lay_graph_rects(const lay_graph *g, double scale, lay_grect *out)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < g->n_nodes; i++) {
        const lay_gnode *v = &g->nodes[i];
        out[n++] = (lay_grect){(v->x - v->w / 2) * scale, (v->y - v->h / 2) * scale, (v->x + v->w / 2) * scale,
                               (v->y + v->h / 2) * scale, 0, i, LAY_RECT_NODE, {0}};
    }
    double fn = fmax(g->font_px * scale, LAY_GRAPH_FONT_MIN);
    double fe = fmax(g->font_px * LAY_GRAPH_EDGE_FONT * scale, LAY_GRAPH_FONT_MIN);
    for (uint32_t i = 0; i < g->n_nodes; i++) {
        lay_grect r = text_rect(g->nodes[i].x * scale, g->nodes[i].y * scale, lay_graph_label(g, i), fn, i,
                                LAY_RECT_LABEL);
        if (clear(out, g->n_nodes, n, &r))
            out[n++] = r;
    }
    for (uint32_t i = 0; i < g->n_edges; i++) {
        const lay_gedge *e = &g->edges[i];
        if (!lay_graph_edge_counted(e))
            continue;
        char buf[32];
        lay_graph_edge_text(e, buf, sizeof buf);
        lay_grect r;
        if (e->lx >= 0) { /* where Graphviz put it */
            r = text_rect(e->lx * scale, e->ly * scale, buf, fe, i, LAY_RECT_EDGE_LABEL);
            if (clear(out, g->n_nodes, n, &r)) {
                out[n++] = r;
                continue;
            }
        }
        if (beside_curve(g, i, scale, buf, fe, out, n, &r))
            out[n++] = r;
    }
    return n;
}

const char *lay_graph_engine_parse(const char *name)
{
    static const char *const names[] = {"dot", "neato", "sfdp", "fdp", "circo"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(name, names[i]))
            return names[i];
    return NULL;
}
