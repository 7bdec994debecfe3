/* layout/graph_gv.c — the Graphviz side of graph.h: builds the cgraph graph
 * with chanscope's DOT attributes, runs the layout engine through gvc and
 * reads node positions (ND_coord, ND_width/ND_height) and edge splines
 * (ED_spl) back, flipping y so it grows downwards. Graphviz's own messages
 * are captured (agseterrf) and returned in the cs_err instead of printed. */
#include "internal.h"
#include "lod.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* One Graphviz context for the whole process, never freed: Graphviz 2.42's
 * pango plugin caches a pointer to a font name owned by the context, so a
 * second context after gvFreeContext reads freed memory. */
static GVC_t *gv_ctx;

static char gv_msg[160]; /* Graphviz's last message (its error hook has no user pointer) */

static int gv_err(char *msg)
{
    if (!gv_msg[0]) {
        snprintf(gv_msg, sizeof gv_msg, "%s", msg);
        gv_msg[strcspn(gv_msg, "\n")] = 0;
    }
    return 0;
}

static void set(void *obj, const char *k, const char *v)
{
    agsafeset(obj, (char *)k, (char *)v, "");
}

/* Spline routing around nodes is quadratic and takes minutes beyond a few
 * hundred nodes: big graphs get straight edges. */
#define SPLINE_MAX_NODES 250

static void graph_attrs(Agraph_t *ag, const lay_palette *p, uint32_t n_nodes)
{
    char bg[8], fg[8], run[8], dim[8];
    lay_rgba_hex(p->bg, bg), lay_rgba_hex(p->fg, fg);
    lay_rgba_hex(p->mark[LAY_MARK_RUNNING], run), lay_rgba_hex(p->dim, dim);
    set(ag, "bgcolor", bg);
    set(ag, "fontname", "DejaVu Sans");
    set(ag, "fontcolor", fg);
    set(ag, "rankdir", "LR");
    set(ag, "overlap", "false");
    set(ag, "splines", n_nodes <= SPLINE_MAX_NODES ? "true" : "line");
    set(ag, "outputorder", "edgesfirst");
    agattr(ag, AGNODE, "shape", "box");
    agattr(ag, AGNODE, "style", "rounded,filled");
    agattr(ag, AGNODE, "fillcolor", bg);
    agattr(ag, AGNODE, "color", run);
    agattr(ag, AGNODE, "fontcolor", fg);
    agattr(ag, AGNODE, "fontname", "DejaVu Sans");
    agattr(ag, AGNODE, "fontsize", "12");
    agattr(ag, AGEDGE, "fontname", "DejaVu Sans");
    agattr(ag, AGEDGE, "fontsize", "10");
    agattr(ag, AGEDGE, "fontcolor", dim);
}

/* Labels on every single-message edge bury a big graph; they stay in tooltips. */
static void edge_attrs(Agedge_t *e, const cs_model *m, const lay_gedge *ge, const lay_palette *p,
                       const uint8_t *hue, bool label_all)
{
    char buf[400], col[8];
    const char *chan = ge->chan && ge->chan < m->n_chans ? cs_model_str(m, m->chans[ge->chan].name) : "";
    switch (ge->kind) {
    case LAY_ARROW_SPAWN:
        lay_rgba_hex(p->spawn, col);
        set(e, "style", "dashed");
        snprintf(buf, sizeof buf, "%u spawn%s", ge->count, ge->count == 1 ? "" : "s");
        break;
    case LAY_ARROW_SYNC:
        lay_rgba_hex(p->sync, col);
        set(e, "style", "dotted");
        snprintf(buf, sizeof buf, "%u sync wake-up%s", ge->count, ge->count == 1 ? "" : "s");
        break;
    default:
        lay_rgba_hex(p->chan[hue[ge->chan]], col);
        if (ge->kind == LAY_ARROW_CLOSE)
            set(e, "style", "bold,dashed");
        snprintf(buf, sizeof buf, "%u\u00d7 %s%s", ge->count, ge->kind == LAY_ARROW_CLOSE ? "close " : "",
                 chan[0] ? chan : "channel");
        if (label_all || ge->count > 1)
            set(e, "label", buf);
    }
    set(e, "color", col);
    set(e, "tooltip", buf);
    snprintf(buf, sizeof buf, "%u", ge->count);
    set(e, "weight", buf);
    snprintf(buf, sizeof buf, "%.2f", ge->kind >= LAY_ARROW_SYNC ? 1.0 : 1.0 + log2((double)ge->count));
    set(e, "penwidth", buf);
}

static bool build_ag(const cs_model *m, const lay_graph_desc *d, lay_graph *g, Agedge_t **ev,
                     cs_err *err)
{
    const lay_palette *p = lay_palette_get(d->theme);
    uint8_t *hue = lay_chan_hue_table(m, err);
    if (!hue)
        return false;
    Agraph_t *ag = agopen("chanscope", Agdirected, NULL);
    g->ag = ag;
    bool ok = ag != NULL;
    if (ok)
        graph_attrs(ag, p, g->n_nodes);
    if (ok && d->title) {
        set(ag, "label", d->title);
        set(ag, "labelloc", "t");
        set(ag, "fontsize", "14");
    }
    Agnode_t **nv = cs_alloc((size_t)g->n_nodes * sizeof *nv + 1);
    ok = ok && nv;
    char name[32];
    for (uint32_t i = 0; ok && i < g->n_nodes; i++) {
        snprintf(name, sizeof name, "n%u", i);
        ok = (nv[i] = agnode(ag, name, 1)) != NULL;
        if (ok) {
            set(nv[i], "label", lay_graph_label(g, i));
            set(nv[i], "tooltip", lay_graph_label(g, i));
        }
    }
    for (uint32_t i = 0; ok && i < g->n_edges; i++) {
        ev[i] = agedge(ag, nv[g->edges[i].from], nv[g->edges[i].to], NULL, 1);
        ok = ev[i] != NULL;
        if (ok)
            edge_attrs(ev[i], m, &g->edges[i], p, hue, g->n_nodes <= 60);
    }
    cs_free(nv);
    cs_free(hue);
    return ok || CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "cannot build the Graphviz graph");
}

/* Positions and splines back from Graphviz, y flipped to grow downwards. */
static bool read_back(lay_graph *g, Agedge_t **ev, cs_err *err)
{
    Agraph_t *ag = g->ag;
    boxf bb = GD_bb(ag);
    g->width = bb.UR.x - bb.LL.x;
    g->height = bb.UR.y - bb.LL.y;
    uint32_t i = 0;
    for (Agnode_t *n = agfstnode(ag); n; n = agnxtnode(ag, n), i++) {
        lay_gnode *gn = &g->nodes[i]; /* agfstnode walks in creation order */
        gn->x = ND_coord(n).x - bb.LL.x;
        gn->y = bb.UR.y - ND_coord(n).y;
        gn->w = ND_width(n) * 72, gn->h = ND_height(n) * 72;
    }
    uint32_t cap = 0;
    for (i = 0; i < g->n_edges; i++) {
        splines *sp = ED_spl(ev[i]);
        g->edges[i].pt_first = g->n_pts;
        if (!sp || sp->size < 1)
            continue;
        const bezier *bz = &sp->list[0];
        uint32_t need = g->n_pts + (uint32_t)bz->size + 1;
        if (!cs_grow((void **)&g->pts, &cap, 2 * need, sizeof *g->pts, err))
            return false;
        for (int k = 0; k < bz->size; k++) {
            g->pts[2 * g->n_pts] = bz->list[k].x - bb.LL.x;
            g->pts[2 * g->n_pts++ + 1] = bb.UR.y - bz->list[k].y;
        }
        if (bz->eflag) {
            g->pts[2 * g->n_pts] = bz->ep.x - bb.LL.x;
            g->pts[2 * g->n_pts++ + 1] = bb.UR.y - bz->ep.y;
        }
        g->edges[i].n_pts = g->n_pts - g->edges[i].pt_first;
    }
    return true;
}

bool lay__graph_gv(const cs_model *m, const lay_graph_desc *d, lay_graph *g, cs_err *err)
{
    gv_msg[0] = 0;
    agseterrf(gv_err);
    agseterr(AGERR);
    Agedge_t **ev = cs_alloc((size_t)g->n_edges * sizeof *ev + 1);
    if (!ev)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u graph edges", g->n_edges);
    bool ok = build_ag(m, d, g, ev, err);
    if (ok && !d->no_layout) {
        if (!gv_ctx)
            gv_ctx = gvContext();
        g->gvc = gv_ctx;
        ok = g->gvc && gvLayout(g->gvc, g->ag, g->engine) == 0;
        if (!ok)
            CS_FAIL(err, CS_E_INTERNAL, CS_NO_OFFSET, "Graphviz layout '%s' failed: %s", g->engine,
                    gv_msg[0] ? gv_msg : "no message");
        ok = ok && read_back(g, ev, err);
    }
    cs_free(ev);
    return ok;
}

void lay_graph_deinit(lay_graph *g)
{
    if (g->gvc && g->ag)
        gvFreeLayout(g->gvc, g->ag);
    if (g->ag)
        agclose(g->ag);
    cs_free(g->nodes), cs_free(g->edges), cs_free(g->pts), cs_free(g->node_of_g);
    cs_free(g->label_bytes), cs_free(g->label_off);
    memset(g, 0, sizeof *g);
}
