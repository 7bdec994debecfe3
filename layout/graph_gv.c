/* layout/graph_gv.c — the Graphviz side of graph.h: builds the cgraph graph
 * with chanscope's DOT attributes (nodes of fixed size from their measured
 * labels, gaps and canvas from the label size), runs the layout engine
 * through gvc and reads node positions (ND_coord, ND_width/ND_height), edge
 * splines (ED_spl) and count-label places (ED_xlabel) back, flipping y so
 * it grows downwards. Graphviz's own messages
 * are captured (agseterrf) and returned in the cs_err instead of printed. */
#include "internal.h"
#include "lod.h"
#include "../core/text.h"

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

/* cs_write_fn into the bytes at *ctx, moved past them. */
static size_t put_at(void *ctx, const void *data, size_t n)
{
    char **at = ctx;
    memcpy(*at, data, n);
    *at += n;
    return n;
}

/* Graphviz reads text as UTF-8 (its charset; Pango says so of any other):
 * a byte of a name that begins no valid sequence goes as U+FFFD. */
static void set(void *obj, const char *k, const char *v)
{
    char *fixed = cs_utf8_valid(v) ? NULL : cs_alloc(strlen(v) * 3 + 1), *at = fixed;
    if (fixed) {
        cs_utf8_text(put_at, &at, v);
        *at = 0;
    }
    agsafeset(obj, (char *)k, fixed ? fixed : (char *)v, ""); /* out of memory: as it is */
    cs_free(fixed);
}

/* Spline routing around nodes is quadratic and takes minutes beyond a few
 * hundred nodes: big graphs get straight edges. */
#define SPLINE_MAX_NODES 250
/* dot tries both directions (left to right, top to bottom) up to this size. */
#define DOT_TRY_NODES 150

static void setf(void *obj, const char *k, double v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%.3f", v);
    set(obj, k, buf);
}

/* Gaps in inches (Graphviz's unit; 1 px of ours is 1 pt, 1/72 in) follow
 * the label size, so a bigger font spreads the graph the same way. */
static void graph_attrs(Agraph_t *ag, const lay_graph_desc *d, const lay_graph *g)
{
    const lay_palette *p = lay_palette_get(d->theme);
    char bg[8], fg[8], run[8], dim[8], buf[64];
    double f = g->font_px;
    lay_rgba_hex(p->bg, bg), lay_rgba_hex(p->fg, fg);
    lay_rgba_hex(p->mark[LAY_MARK_RUNNING], run), lay_rgba_hex(p->dim, dim);
    set(ag, "bgcolor", bg);
    set(ag, "fontname", "DejaVu Sans");
    set(ag, "fontcolor", fg);
    set(ag, "rankdir", "LR");
    set(ag, "overlap", "false");
    set(ag, "splines", g->n_nodes <= SPLINE_MAX_NODES ? "true" : "line");
    set(ag, "outputorder", "edgesfirst");
    set(ag, "forcelabels", "false"); /* a count label with no room is left out */
    setf(ag, "nodesep", 0.9 * f / 72);
    setf(ag, "ranksep", 2.2 * f / 72);
    snprintf(buf, sizeof buf, "+%.1f", 0.5 * f);
    set(ag, "sep", buf);
    snprintf(buf, sizeof buf, "+%.1f", 0.3 * f);
    set(ag, "esep", buf);
    if (d->width_px > 0 && d->height_px > 0) {
        snprintf(buf, sizeof buf, "%.3f,%.3f", d->width_px / 72, d->height_px / 72);
        set(ag, "size", buf);
        set(ag, "ratio", "fill");
    }
    agattr(ag, AGNODE, "shape", "box");
    agattr(ag, AGNODE, "style", "rounded,filled");
    agattr(ag, AGNODE, "fixedsize", "true");
    agattr(ag, AGNODE, "fillcolor", bg);
    agattr(ag, AGNODE, "color", run);
    agattr(ag, AGNODE, "fontcolor", fg);
    agattr(ag, AGNODE, "fontname", "DejaVu Sans");
    snprintf(buf, sizeof buf, "%.1f", f);
    agattr(ag, AGNODE, "fontsize", buf);
    agattr(ag, AGEDGE, "fontname", "DejaVu Sans");
    snprintf(buf, sizeof buf, "%.1f", f * LAY_GRAPH_EDGE_FONT);
    agattr(ag, AGEDGE, "fontsize", buf);
    agattr(ag, AGEDGE, "fontcolor", dim);
}

/* The count of a channel edge is its xlabel, placed by Graphviz where it
 * has room (single messages go without: the thinnest line says it); the
 * channel is in the tooltip. */
static void edge_attrs(Agedge_t *e, const cs_model *m, const lay_gedge *ge, const lay_palette *p,
                       const uint8_t *hue)
{
    char buf[400], col[8], count[32];
    const char *chan = ge->chan && ge->chan < m->n_chans ? cs_model_str(m, m->chans[ge->chan].name) : "";
    switch (ge->kind) {
    case LAY_ARROW_SPAWN:
        lay_rgba_hex(p->spawn, col);
        set(e, "style", "dashed");
        set(e, "constraint", "false"); /* dot ranks by the messages: a pipeline reads in its order */
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
        lay_graph_edge_text(ge, count, sizeof count);
        if (lay_graph_edge_counted(ge))
            set(e, "xlabel", count);
        /* channel names of closes already read "close …" (traffic/sites.c) */
        snprintf(buf, sizeof buf, "%u\u00d7 %s", ge->count,
                 chan[0] ? chan : ge->kind == LAY_ARROW_CLOSE ? "close" : "channel");
    }
    set(e, "color", col);
    set(e, "tooltip", buf);
    /* heavier edges pull their ends closer; the logarithm keeps dot's
     * network simplex fast (weights in the thousands take it minutes) */
    snprintf(buf, sizeof buf, "%d", 1 + (int)log2((double)ge->count));
    set(e, "weight", buf);
    snprintf(buf, sizeof buf, "%.2f", lay_graph_edge_width(ge));
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
        graph_attrs(ag, d, g);
    if (ok && d->title) {
        set(ag, "label", d->title);
        set(ag, "labelloc", "t");
        setf(ag, "fontsize", g->font_px + 2);
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
            setf(nv[i], "width", g->nodes[i].w / 72);
            setf(nv[i], "height", g->nodes[i].h / 72);
        }
    }
    for (uint32_t i = 0; ok && i < g->n_edges; i++) {
        ev[i] = agedge(ag, nv[g->edges[i].from], nv[g->edges[i].to], NULL, 1);
        ok = ev[i] != NULL;
        if (ok)
            edge_attrs(ev[i], m, &g->edges[i], p, hue);
    }
    cs_free(nv);
    cs_free(hue);
    return ok || CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "cannot build the Graphviz graph");
}

/* Positions, splines and count-label places back from Graphviz, y flipped
 * to grow downwards. */
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
    g->n_pts = 0;
    for (i = 0; i < g->n_edges; i++) {
        splines *sp = ED_spl(ev[i]);
        textlabel_t *xl = ED_xlabel(ev[i]);
        g->edges[i].pt_first = g->n_pts;
        g->edges[i].n_pts = 0;
        g->edges[i].lx = -1;
        if (xl && xl->set) {
            g->edges[i].lx = xl->pos.x - bb.LL.x;
            g->edges[i].ly = bb.UR.y - xl->pos.y;
        }
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

static bool run(lay_graph *g, const char *rankdir)
{
    set(g->ag, "rankdir", rankdir);
    return gvLayout(g->gvc, g->ag, g->engine) == 0;
}

/* The force-directed engines do not always honour ratio=fill (neato packs
 * disconnected parts at their own shape): the layout is stretched along
 * its short side to the canvas's shape, and the nodes, pinned there, get
 * their edges routed again by "nop" (neato -n). Stretching only moves
 * boxes apart, so none comes to overlap another. */
static bool fill(const lay_graph_desc *d, lay_graph *g)
{
    boxf bb = GD_bb(g->ag);
    double w = fmax(1, bb.UR.x - bb.LL.x), h = fmax(1, bb.UR.y - bb.LL.y);
    double want = d->width_px / d->height_px, have = w / h;
    if (fabs(have / want - 1) < 0.05)
        return true;
    double kx = have < want ? want / have : 1, ky = have > want ? have / want : 1;
    char buf[64];
    for (Agnode_t *n = agfstnode(g->ag); n; n = agnxtnode(g->ag, n)) {
        snprintf(buf, sizeof buf, "%.2f,%.2f!", (ND_coord(n).x - bb.LL.x) * kx, (ND_coord(n).y - bb.LL.y) * ky);
        set(n, "pos", buf);
    }
    gvFreeLayout(g->gvc, g->ag);
    set(g->ag, "overlap", "true"); /* already apart: nothing to remove */
    return gvLayout(g->gvc, g->ag, "nop") == 0;
}

static double fit_scale(const lay_graph_desc *d, const lay_graph *g)
{
    boxf bb = GD_bb(g->ag);
    return fmin(d->width_px / fmax(1, bb.UR.x - bb.LL.x), d->height_px / fmax(1, bb.UR.y - bb.LL.y));
}

/* A mesh picked by shape is laid out by neato and by sfdp (up to
 * DOT_TRY_NODES nodes); the one that needs the smaller reduction wins. */
static bool mesh(const lay_graph_desc *d, lay_graph *g)
{
    if (d->engine || g->n_nodes > DOT_TRY_NODES || strcmp(g->engine, "neato"))
        return run(g, "LR") && fill(d, g);
    if (!run(g, "LR") || !fill(d, g))
        return false;
    double s_neato = fit_scale(d, g);
    gvFreeLayout(g->gvc, g->ag);
    set(g->ag, "overlap", "false");
    g->engine = "sfdp";
    if (!run(g, "LR") || !fill(d, g))
        return false;
    if (fit_scale(d, g) >= s_neato)
        return true;
    gvFreeLayout(g->gvc, g->ag);
    set(g->ag, "overlap", "false");
    g->engine = "neato";
    return run(g, "LR") && fill(d, g);
}

/* dot on a canvas: left to right and top to bottom are both laid out at
 * their natural size (no size, no ratio); the one that fits the canvas at
 * the larger scale, that is, the one whose shape is nearer the canvas's,
 * is laid out again for the canvas. Other engines on a canvas: mesh. */
static bool layout(const lay_graph_desc *d, lay_graph *g)
{
    bool canvas = d->width_px > 0 && d->height_px > 0;
    if (strcmp(g->engine, "dot") && canvas)
        return mesh(d, g);
    if (!canvas || g->n_nodes > DOT_TRY_NODES)
        return run(g, "LR");
    char size[64];
    snprintf(size, sizeof size, "%s", agget(g->ag, "size"));
    set(g->ag, "size", "");
    set(g->ag, "ratio", "");
    if (!run(g, "LR"))
        return false;
    double s_lr = fit_scale(d, g);
    gvFreeLayout(g->gvc, g->ag);
    if (!run(g, "TB"))
        return false;
    double s_tb = fit_scale(d, g);
    gvFreeLayout(g->gvc, g->ag);
    set(g->ag, "size", size);
    set(g->ag, "ratio", "fill");
    return run(g, s_tb >= s_lr ? "TB" : "LR");
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
        ok = g->gvc && layout(d, g);
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
