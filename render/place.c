/* render/place.c — what the renderer derives from the model once: the lane
 * order (children under their parents), 3D tree and graph positions, and
 * the list of arrows (channel messages, or channel wake-ups when the model
 * has no inferred messages yet), plus the visibility/highlight rules every
 * view shares. The placement here is deliberately simple; layout/ owns the
 * real algorithms and replaces it view by view. */
#include "rnd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* children of each goroutine as a CSR table, in index (≈ creation) order */
static bool children(const cs_model *m, uint32_t **first, uint32_t **kids, cs_err *err)
{
    *first = cs_calloc((size_t)m->n_g + 1, sizeof **first);
    *kids = cs_calloc((size_t)m->n_g + 1, sizeof **kids);
    uint32_t *fill = cs_calloc((size_t)m->n_g + 1, sizeof *fill);
    if (!*first || !*kids || !fill) {
        cs_free(fill);
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory placing %u goroutines", m->n_g);
    }
    for (uint32_t i = 1; i < m->n_g; i++)
        (*first)[m->g[i].parent < m->n_g ? m->g[i].parent : 0]++;
    uint32_t acc = 0;
    for (uint32_t i = 0; i <= m->n_g; i++) {
        uint32_t c = i < m->n_g ? (*first)[i] : 0;
        (*first)[i] = acc;
        acc += c;
    }
    for (uint32_t i = 1; i < m->n_g; i++) {
        uint32_t p = m->g[i].parent < m->n_g ? m->g[i].parent : 0;
        (*kids)[(*first)[p] + fill[p]++] = i;
    }
    cs_free(fill);
    return true;
}

/* Depth-first from the roots (parent 0): each goroutine, then its subtree.
 * Also places the 3D tree: children on a circle around their parent whose
 * radius grows with the number of siblings and shrinks with depth. */
static void walk(rnd_renderer *r, const uint32_t *first, const uint32_t *kids, uint32_t *stack,
                 uint8_t *depth)
{
    uint32_t sp = 0;
    for (uint32_t k = first[1]; k-- > first[0];)
        stack[sp++] = kids[k];
    uint32_t nroot = first[1] - first[0];
    for (uint32_t k = 0; k < nroot; k++) {
        uint32_t gi = kids[first[0] + k];
        float a = 6.2831853f * (float)k / (float)(nroot ? nroot : 1);
        float rad = nroot > 1 ? 1.0f + 0.15f * (float)nroot : 0.0f;
        r->tree_xz[2 * gi] = rad * cosf(a);
        r->tree_xz[2 * gi + 1] = rad * sinf(a);
    }
    while (sp) {
        uint32_t gi = stack[--sp];
        r->order[r->n_order++] = gi;
        uint32_t n = first[gi + 1] - first[gi];
        float rad = (0.6f + 0.12f * (float)n) / (1.0f + 0.7f * (float)depth[gi]);
        for (uint32_t k = 0; k < n; k++) {
            uint32_t c = kids[first[gi] + k];
            float a = 6.2831853f * (float)k / (float)n + 0.9f * (float)depth[gi];
            depth[c] = (uint8_t)(depth[gi] < 250 ? depth[gi] + 1 : 250);
            r->tree_xz[2 * c] = r->tree_xz[2 * gi] + rad * cosf(a);
            r->tree_xz[2 * c + 1] = r->tree_xz[2 * gi + 1] + rad * sinf(a);
        }
        for (uint32_t k = n; k-- > 0;)
            stack[sp++] = kids[first[gi] + k];
    }
}

bool rnd__place(rnd_renderer *r, cs_err *err)
{
    const cs_model *m = r->m;
    size_t n = m->n_g ? m->n_g : 1;
    uint32_t *first = NULL, *kids = NULL;
    r->order = cs_calloc(n, sizeof *r->order);
    r->row = cs_calloc(n, sizeof *r->row);
    r->tree_xz = cs_calloc(n * 2, sizeof *r->tree_xz);
    r->graph_xy = cs_calloc(n * 2, sizeof *r->graph_xy);
    uint32_t *stack = cs_calloc(n, sizeof *stack);
    uint8_t *depth = cs_calloc(n, 1);
    r->lit = cs_calloc(n, 1);
    bool ok = r->lit && r->order && r->row && r->tree_xz && r->graph_xy && stack && depth &&
              children(m, &first, &kids, err);
    if (ok) {
        r->n_order = 0;
        walk(r, first, kids, stack, depth);
        for (uint32_t k = 0; k < r->n_order; k++) {
            float a = 6.2831853f * (float)k / (float)r->n_order;
            r->graph_xy[2 * r->order[k]] = 0.5f + 0.45f * cosf(a);
            r->graph_xy[2 * r->order[k] + 1] = 0.5f + 0.45f * sinf(a);
        }
    } else {
        CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory placing %u goroutines", m->n_g);
    }
    cs_free(first), cs_free(kids), cs_free(stack), cs_free(depth);
    return ok;
}

static int by_t0(const void *a, const void *b)
{
    const rnd__arrow *x = a, *y = b;
    if (x->t0 != y->t0)
        return x->t0 < y->t0 ? -1 : 1;
    return x->from < y->from ? -1 : x->from > y->from;
}

bool rnd__arrows_build(rnd_renderer *r, cs_err *err)
{
    const cs_model *m = r->m;
    uint64_t cap = (uint64_t)m->n_msgs + m->n_edges;
    r->arrows = cs_calloc(cap ? cap : 1, sizeof *r->arrows);
    if (!r->arrows || cap > UINT32_MAX)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %llu arrows", (unsigned long long)cap);
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->n_msgs; i++) {
        const cs_msg *g = &m->msgs[i];
        /* no send time: the sender was already waiting when tracing began */
        if (!g->sender || !g->receiver || g->sender >= m->n_g || g->receiver >= m->n_g ||
            g->t_send == CS_T_NONE)
            continue;
        r->arrows[n++] = (rnd__arrow){.t0 = g->t_send, .t1 = g->t_recv, .from = g->sender,
                                      .to = g->receiver, .chan = g->chan, .msg = i + 1,
                                      .kind = g->kind == CS_MK_CLOSE};
    }
    for (uint32_t i = 1; i < m->n_edges; i++) { /* sync wake-ups: quieter arrows */
        const cs_edge *e = &m->edges[i];
        if (e->kind == CS_EK_SYNC && e->from && e->to && e->from < m->n_g && e->to < m->n_g)
            r->arrows[n++] = (rnd__arrow){.t0 = e->ts, .t1 = e->ts, .from = e->from, .to = e->to, .kind = 2};
    }
    r->n_arrows = n;
    qsort(r->arrows, n, sizeof *r->arrows, by_t0);
    /* t_next: a backwards scan remembering each goroutine's next send */
    int64_t *next = cs_alloc(((size_t)m->n_g + 1) * sizeof *next);
    if (!next)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u goroutines", m->n_g);
    for (uint32_t i = 0; i <= m->n_g; i++)
        next[i] = INT64_MAX;
    for (uint32_t i = n; i-- > 0;) {
        r->arrows[i].t_next = next[r->arrows[i].to];
        if (r->arrows[i].kind != 2)
            next[r->arrows[i].from] = r->arrows[i].t0;
    }
    cs_free(next);
    return true;
}

bool rnd__g_visible(const rnd_renderer *r, const rnd_view *v, uint32_t gi)
{
    const cs_goroutine *g = &r->m->g[gi];
    if (!v->show_system && (g->flags & CS_G_SYSTEM) && gi != v->selected)
        return false;
    return !v->filter[0] || strstr(cs_model_str(r->m, g->name), v->filter);
}

bool rnd__arrow_lit(const rnd_renderer *r, const rnd_view *v, const rnd__arrow *a)
{
    (void)r;
    if (v->selected && (v->highlight == RND_HL_PARTNERS || v->highlight == RND_HL_NONE))
        return a->from == v->selected || a->to == v->selected;
    return v->highlight != RND_HL_BLOCKED && v->highlight != RND_HL_SPAWNS;
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
    for (uint32_t i = 0; i < r->n_arrows; i++) {
        const rnd__arrow *a = &r->arrows[i];
        if (a->from == v->selected)
            r->lit[a->to] = 1;
        if (a->to == v->selected)
            r->lit[a->from] = 1;
    }
}

bool rnd__g_lit(const rnd_renderer *r, const rnd_view *v, uint32_t gi)
{
    if (!v->selected || (v->highlight != RND_HL_PARTNERS && v->highlight != RND_HL_NONE))
        return true;
    return r->lit[gi] != 0;
}

const char *rnd__g_label(const rnd_renderer *r, uint32_t gi, char *buf, size_t n)
{
    const cs_goroutine *g = &r->m->g[gi];
    const char *name = cs_model_str(r->m, g->name);
    const char *slash = strrchr(name, '/');
    snprintf(buf, n, "G%llu %s", (unsigned long long)g->goid, name[0] ? (slash ? slash + 1 : name) : "?");
    return buf;
}
