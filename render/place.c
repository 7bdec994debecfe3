/* render/place.c — what the renderer derives from the model once: the lane
 * order (children under their parents), 3D tree and graph positions, and
 * the arrows (channel messages and sync wake-ups) in time order, plus the
 * visibility/highlight rules every view shares. Placement itself is
 * layout/'s: lanes.h, tree.h and graph.h. */
#include "rnd.h"
#include "../layout/graph.h"
#include "../layout/lanes.h"
#include "../layout/tree.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* What every view marks goroutines in: rows (the lanes view's, lay.c) and
 * the selection's partners. */
bool rnd__place(rnd_renderer *r, cs_err *err)
{
    const cs_model *m = r->m;
    size_t n = m->n_g ? m->n_g : 1;
    r->row = cs_calloc(n, sizeof *r->row);
    r->lit = cs_calloc(n, 1);
    if (!r->row || !r->lit)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory placing %u goroutines", m->n_g);
    return true;
}

bool rnd__marks_place(rnd_renderer *r, cs_err *err)
{
    size_t n = r->m->n_g ? r->m->n_g : 1;
    if (r->scr)
        return true;
    if (!(r->scr = cs_alloc(n * 4 * sizeof *r->scr)))
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory placing %u goroutines", r->m->n_g);
    for (size_t i = 0; i < n; i++) /* none on screen yet */
        r->scr[4 * i] = -1;
    return true;
}

/* The tree view's placement, made on its first frame: every goroutine in
 * the spawn tree's order (children under their parents; the lanes' build
 * writes it when the view is the tree's, render/lay.c) and the labels'
 * order, biggest subtree first, once (layout/tree.h lay_tree_orders); the
 * 3D positions from layout/tree.h over the lines of the lanes it draws
 * (r->lay.lanes, r->row), made again when those lanes share lines (more
 * goroutines than RND__MAX_LANES) and are made anew. */
bool rnd__tree_place(rnd_renderer *r, cs_err *err)
{
    const cs_model *m = r->m;
    const lay_lanes *l = &r->lay.lanes;
    size_t n = m->n_g ? m->n_g : 1;
    bool shared = l->compacted || l->collapsed;
    if (r->tree_xz && (shared ? r->tree_gen == r->lay.gen : !r->lines))
        return true;
    if (!r->label_order) {
        if (!r->order) /* else the lanes' build may have written the spawn tree's order (render/lay.c) */
            r->order = cs_alloc(n * sizeof *r->order), r->n_order = 0;
        r->label_order = cs_alloc(n * sizeof *r->label_order);
        bool ok = r->order && r->label_order;
        if (!ok)
            CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory placing %u goroutines", m->n_g);
        if (!ok || !lay_tree_orders(m, r->order, r->label_order, &r->n_order, err)) {
            cs_free(r->order), cs_free(r->label_order);
            r->order = r->label_order = NULL;
            r->n_order = 0;
            return false;
        }
    }
    uint32_t *line = shared ? cs_alloc(n * sizeof *line) : NULL;
    if (!r->tree_xz)
        r->tree_xz = cs_calloc(n * 2, sizeof *r->tree_xz);
    cs_free(r->lines), cs_free(r->line_t0);
    r->lines = shared ? cs_alloc(((size_t)l->n_lanes + 1) * 2 * sizeof *r->lines) : NULL;
    r->line_t0 = shared ? cs_alloc(((size_t)l->n_lanes + 1) * sizeof *r->line_t0) : NULL;
    r->n_lines = 0;
    if (!r->tree_xz || (shared && (!line || !r->lines || !r->line_t0))) {
        cs_free(line);
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory placing %u goroutines", m->n_g);
    }
    for (uint32_t k = 0; line && k < l->n_lanes; k++)
        r->line_t0[k] = INT64_MAX;
    for (uint32_t i = 0; line && i < m->n_g; i++) {
        line[i] = i && r->row[i] >= 0 ? l->lane_g[r->row[i]] : 0;
        int64_t t = lay_made_at(m, &m->g[i]);
        if (line[i] && t < r->line_t0[r->row[i]])
            r->line_t0[r->row[i]] = t;
    }
    for (uint32_t k = 0; line && k < r->n_order; k++) /* the lines in lane order, then label order */
        if (line[r->order[k]] == r->order[k])
            r->lines[r->n_lines++] = r->order[k];
    for (uint32_t k = 0, j = r->n_lines; line && k < r->n_order; k++)
        if (line[r->label_order[k]] == r->label_order[k])
            r->lines[j++] = r->label_order[k];
    lay_tree tree;
    bool ok = lay_tree_build(m, &(lay_tree_desc){.line_of = line}, &tree, err);
    for (uint32_t i = 1; ok && i < m->n_g && i < tree.n_g; i++)
        r->tree_xz[2 * i] = tree.x[i], r->tree_xz[2 * i + 1] = tree.z[i];
    lay_tree_deinit(&tree);
    cs_free(line);
    r->tree_gen = r->lay.gen;
    if (!ok) { /* made again by the next frame */
        cs_free(r->tree_xz);
        r->tree_xz = NULL;
    }
    return ok;
}

/* The graph from layout/graph.h (Graphviz) for the view's area: made on
 * the first graph frame and again when system goroutines are switched or
 * the area changes by more than a fifth (in between, the drawing scales). */
#define GRAPH_RELAYOUT 1.2f

void rnd__graph_deinit(rnd__graph *g)
{
    lay_graph_deinit(&g->g);
    cs_free(g->rect);
    memset(g, 0, sizeof *g);
}

bool rnd__graph_place(rnd_renderer *r, const rnd_view *v, int w, int h, cs_err *err)
{
    rnd__graph *gr = &r->graph;
    float a[4];
    rnd__graph_area(r, v, w, h, a);
    float aw = fmaxf(a[2] - a[0], 1.0f), ah = fmaxf(a[3] - a[1], 1.0f);
    if (gr->have && gr->show_system == v->show_system && gr->engine == v->engine && aw <= gr->w * GRAPH_RELAYOUT &&
        gr->w <= aw * GRAPH_RELAYOUT && ah <= gr->h * GRAPH_RELAYOUT && gr->h <= ah * GRAPH_RELAYOUT)
        return true;
    rnd__graph_deinit(gr);
    lay_graph_desc d = {.group = LAY_GROUP_AUTO, .show_system = v->show_system, .width_px = aw, .height_px = ah,
                        .engine = v->engine};
    if (!lay_graph_build(r->m, &d, &gr->g, err)) {
        rnd__graph_deinit(gr);
        return false;
    }
    gr->rect = cs_alloc((size_t)lay_graph_rects_max(&gr->g) * sizeof *gr->rect + 1);
    if (!gr->rect) {
        rnd__graph_deinit(gr);
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for a graph of %u edges", gr->g.n_edges);
    }
    gr->have = true, gr->show_system = v->show_system, gr->engine = v->engine, gr->w = aw, gr->h = ah, gr->rect_scale = -1;
    return true;
}

/* Arrows are walked in time order (pulses, picking) without a table of
 * them: the messages are in time order already (cs_msg_t, core/model.h: an
 * arrow's is its send), so only the sync wake-ups are ordered, by (time,
 * waker), stably. They come in event
 * order, so the part is nearly one run: a merge sort that skips halves
 * already in order costs O(n) on it, and a merge copies only its shorter
 * side aside. */
static bool sync_before(const cs_model *m, uint32_t x, uint32_t y)
{
    int64_t a = cs_edge_ts(m, x), b = cs_edge_ts(m, y);
    return a < b || (a == b && m->edges[x].from < m->edges[y].from);
}

/* Merges the sorted a[0, h) and a[h, n), equal ones left first; tmp holds
 * the shorter side. */
static void sync_merge(const cs_model *m, uint32_t *a, uint32_t h, uint32_t n, uint32_t *tmp)
{
    if (h == 0 || h == n || !sync_before(m, a[h], a[h - 1]))
        return;
    if (h <= n - h) {
        memcpy(tmp, a, (size_t)h * sizeof *a);
        uint32_t i = 0, j = h, k = 0;
        while (i < h && j < n)
            a[k++] = sync_before(m, a[j], tmp[i]) ? a[j++] : tmp[i++];
        while (i < h)
            a[k++] = tmp[i++];
    } else {
        uint32_t i = h, j = n - h, k = n;
        memcpy(tmp, a + h, (size_t)j * sizeof *a);
        while (i > 0 && j > 0)
            a[--k] = sync_before(m, tmp[j - 1], a[i - 1]) ? a[--i] : tmp[--j];
        while (j > 0)
            a[--k] = tmp[--j];
    }
}

static void sync_sort(const cs_model *m, uint32_t *a, uint32_t n, uint32_t *tmp)
{
    if (n <= 16) { /* insertion */
        for (uint32_t i = 1; i < n; i++) {
            uint32_t x = a[i], j = i;
            for (; j > 0 && sync_before(m, x, a[j - 1]); j--)
                a[j] = a[j - 1];
            a[j] = x;
        }
        return;
    }
    sync_sort(m, a, n / 2, tmp);
    sync_sort(m, a + n / 2, n - n / 2, tmp);
    sync_merge(m, a, n / 2, n, tmp);
}

/* Does message i draw an arrow? Not without a send time: the sender was
 * already waiting when tracing began. */
static bool msg_is_arrow(const cs_model *m, uint32_t i)
{
    uint32_t s = cs_msg_sender(m, i), r = cs_msg_receiver(m, i);
    return s && r && s < m->n_g && r < m->n_g && m->msgs[i].dt != CS_MSG_NO_SEND;
}

bool rnd__msg_arrow(const cs_model *m, uint32_t i, rnd__arrow *out)
{
    if (!msg_is_arrow(m, i))
        return false;
    *out = (rnd__arrow){.t0 = cs_msg_t(m, i), .t_next = INT64_MAX, .from = cs_msg_sender(m, i),
                        .to = cs_msg_receiver(m, i), .msg = i + 1, .kind = (uint8_t)lay_msg_arrow(&m->msgs[i])};
    return true;
}

bool rnd__edge_arrow(const cs_model *m, uint32_t i, rnd__arrow *out)
{
    const cs_edge *e = &m->edges[i]; /* sync wake-ups (as layout/lod.h counts them): quieter */
    if (lay_edge_arrow(e) != LAY_ARROW_SYNC || !e->from || !e->to || e->from >= m->n_g || e->to >= m->n_g)
        return false;
    *out = (rnd__arrow){.t0 = cs_edge_ts(m, i), .t_next = INT64_MAX, .from = e->from, .to = e->to,
                        .kind = LAY_ARROW_SYNC};
    return true;
}

/* Message i's next send (rnd__next), UINT32_MAX none. */
static uint32_t next_send(const rnd__next *n, uint32_t i)
{
    uint16_t d = n->d[i];
    if (d != RND__NEXT_FAR)
        return d ? i + d : UINT32_MAX;
    uint32_t lo = 0, hi = n->n_far; /* its entry: far is by message, the last first */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (n->far[mid][0] > i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n->n_far && n->far[lo][0] == i ? n->far[lo][1] : UINT32_MAX;
}

/* Each message's receiver's next send into t->next: a backwards scan
 * remembering each goroutine's next one. */
static bool next_build(const cs_model *m, rnd__next *t, cs_err *err)
{
    uint32_t *next = cs_alloc(((size_t)m->n_g + 1) * sizeof *next);
    uint32_t cap = 0;
    t->d = cs_alloc(((size_t)m->n_msgs + 1) * sizeof *t->d);
    if (!next || !t->d) {
        cs_free(next);
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u messages", m->n_msgs);
    }
    for (uint32_t i = 0; i <= m->n_g; i++)
        next[i] = UINT32_MAX;
    bool ok = true;
    for (uint32_t i = m->n_msgs; ok && i-- > 0;) {
        uint32_t n = UINT32_MAX;
        if (msg_is_arrow(m, i))
            n = next[cs_msg_receiver(m, i)], next[cs_msg_sender(m, i)] = i;
        t->d[i] = n == UINT32_MAX ? 0 : n - i < RND__NEXT_FAR ? (uint16_t)(n - i) : RND__NEXT_FAR;
        if (t->d[i] == RND__NEXT_FAR && (ok = cs_grow((void **)&t->far, &cap, t->n_far + 1, sizeof *t->far, err)))
            t->far[t->n_far][0] = i, t->far[t->n_far++][1] = n;
    }
    cs_free(next);
    return ok;
}

bool rnd__arrows_build(const cs_model *m, rnd_traffic *t, cs_err *err)
{
    t->sync = cs_alloc(((size_t)m->n_edges + 1) * sizeof *t->sync);
    if (!t->sync || m->n_msgs >= RND__REF_SYNC || m->n_edges >= RND__REF_SYNC)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u messages and %u wake-ups", m->n_msgs,
                       m->n_edges);
    if (!next_build(m, &t->next, err))
        return false;
    rnd__arrow a;
    uint32_t n = 0;
    for (uint32_t i = 1; i < m->n_edges; i++)
        if (rnd__edge_arrow(m, i, &a))
            t->sync[n++] = i;
    t->n_sync = n;
    uint32_t *tmp = cs_alloc(((size_t)n / 2 + 1) * sizeof *tmp);
    if (!tmp)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory ordering %u wake-ups", n);
    sync_sort(m, t->sync, n, tmp);
    cs_free(tmp);
    return true;
}

bool rnd__arrow_get(const rnd_renderer *r, uint32_t ref, rnd__arrow *out)
{
    const cs_model *m = r->m;
    if (ref & RND__REF_SYNC)
        return (ref & ~RND__REF_SYNC) < m->n_edges && rnd__edge_arrow(m, ref & ~RND__REF_SYNC, out);
    if (!ref || ref > m->n_msgs || !rnd__msg_arrow(m, ref - 1, out))
        return false;
    uint32_t next = r->tr.next.d ? next_send(&r->tr.next, ref - 1) : UINT32_MAX;
    out->t_next = next == UINT32_MAX ? INT64_MAX : cs_msg_t(m, next);
    return true;
}

rnd__apos rnd__arrow_lower(const rnd_renderer *r, int64_t t)
{
    const cs_model *m = r->m;
    rnd__apos p = {cs_model_msg_from(m, t), 0}; /* by cs_msg_t: its send when it has one */
    for (uint32_t hi = r->tr.n_sync; p.sync < hi;) {
        uint32_t mid = p.sync + (hi - p.sync) / 2;
        if (cs_edge_ts(m, r->tr.sync[mid]) < t)
            p.sync = mid + 1;
        else
            hi = mid;
    }
    return p;
}

rnd__apos rnd__arrow_end(const rnd_renderer *r) { return (rnd__apos){r->m->n_msgs, r->tr.n_sync}; }

uint32_t rnd__arrow_prev(const rnd_renderer *r, rnd__apos *p)
{
    const cs_model *m = r->m;
    /* of one time, the messages first */
    if (p->sync && (!p->msg || cs_edge_ts(m, r->tr.sync[p->sync - 1]) >= cs_msg_t(m, p->msg - 1)))
        return r->tr.sync[--p->sync] | RND__REF_SYNC;
    return p->msg ? p->msg-- : 0;
}

bool rnd__filter_update(rnd_renderer *r, const rnd_view *v, cs_err *err)
{
    if ((r->filt || !v->filter[0]) && !strcmp(r->filt_for, v->filter))
        return true;
    cs_free(r->filt);
    r->filt = NULL;
    memcpy(r->filt_for, v->filter, sizeof r->filt_for);
    r->filt_for[sizeof r->filt_for - 1] = 0;
    if (!v->filter[0])
        return true;
    r->filt = lay_filter_build(r->m, r->filt_for, err);
    if (!r->filt)
        r->filt_for[0] = 0;
    return r->filt != NULL;
}

bool rnd__g_visible(const rnd_renderer *r, const rnd_view *v, uint32_t gi)
{
    const cs_goroutine *g = &r->m->g[gi];
    if (!v->show_system && (g->flags & CS_G_SYSTEM) && gi != v->selected)
        return false;
    return !r->filt || r->filt[gi];
}

bool rnd__arrow_lit(const rnd_renderer *r, const rnd_view *v, const rnd__arrow *a)
{
    if (r->filt && (r->filt[a->from] != LAY_FILTER_MATCH || r->filt[a->to] != LAY_FILTER_MATCH))
        return false; /* to or from a partner outside the filter */
    if (v->selected && (v->highlight == RND_HL_PARTNERS || v->highlight == RND_HL_NONE))
        return a->from == v->selected || a->to == v->selected;
    return v->highlight != RND_HL_BLOCKED && v->highlight != RND_HL_SPAWNS;
}

static void lit_ends(rnd_renderer *r, const rnd_view *v, uint32_t from, uint32_t to)
{
    if (from == v->selected)
        r->lit[to] = 1;
    if (to == v->selected)
        r->lit[from] = 1;
}

void rnd__lit_update(rnd_renderer *r, const rnd_view *v)
{
    if (r->lit_for == v->selected)
        return;
    r->lit_for = v->selected;
    memset(r->lit, 0, r->m->n_g ? r->m->n_g : 1);
    if (!v->selected)
        return;
    r->lit[v->selected] = 1;
    r->lit[r->m->g[v->selected].parent] = 1;
    for (uint32_t i = 1; i < r->m->n_g; i++)
        if (r->m->g[i].parent == v->selected)
            r->lit[i] = 1;
    const cs_model *m = r->m; /* the arrows' ends, without the whole arrows */
    for (uint32_t i = 0; i < m->n_msgs; i++)
        if (msg_is_arrow(m, i))
            lit_ends(r, v, cs_msg_sender(m, i), cs_msg_receiver(m, i));
    rnd__arrow a;
    for (uint32_t i = 1; i < m->n_edges; i++)
        if (rnd__edge_arrow(m, i, &a))
            lit_ends(r, v, a.from, a.to);
}

bool rnd__g_lit(const rnd_renderer *r, const rnd_view *v, uint32_t gi)
{
    if (r->filt && r->filt[gi] != LAY_FILTER_MATCH)
        return false;
    if (!v->selected || (v->highlight != RND_HL_PARTNERS && v->highlight != RND_HL_NONE))
        return true;
    return r->lit[gi] != 0;
}

const char *rnd__g_label(const rnd_renderer *r, uint32_t gi, char *buf, size_t n)
{
    const cs_goroutine *g = &r->m->g[gi];
    const char *name = cs_model_str(r->m, g->name);
    snprintf(buf, n, "G%llu %s", (unsigned long long)g->goid, name[0] ? lay_short_name(name) : "?");
    return buf;
}
