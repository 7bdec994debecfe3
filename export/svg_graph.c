/* export/svg_graph.c — the communication graph (layout/graph.h) as SVG:
 * rounded boxes for goroutines or folded groups (<g class="node">, with the
 * name as <text class="label"> inside), Graphviz's edge splines as paths
 * with arrowheads, thickness growing with log(message count), a tooltip
 * with the channel site, and the counts lay_graph_rects found room for
 * (<text class="count">). */
#include "svg_int.h"
#include "../layout/graph.h"

#include <math.h>
#include <stdio.h>

#define SVG_FONT 14.0   /* node labels, px */
#define SVG_MARGIN 24.0

typedef struct gpic {
    exp__svg *s;
    lay_graph g;
    lay_grect *rect;     /* lay_graph_rects at scale */
    uint32_t n_rect;
    double scale, ox, oy;
} gpic;

static double X(const gpic *p, double x) { return p->ox + x * p->scale; }
static double Y(const gpic *p, double y) { return p->oy + y * p->scale; }

/* A label centred in its rectangle: x is the middle, y the baseline
 * (about 0.35 em under the middle for DejaVu Sans). */
static void text(gpic *p, const lay_grect *r, const char *txt, const char *cls, lay_rgba c)
{
    char col[8];
    lay_rgba_hex(c, col);
    exp__printf(p->s->w, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" fill=\"%s\" "
                "text-anchor=\"middle\">", cls, p->ox + (r->x0 + r->x1) / 2,
                p->oy + (r->y0 + r->y1) / 2 + 0.35 * r->font_px, r->font_px, col);
    exp__xml(p->s->w, txt);
    exp__puts(p->s->w, "</text>");
}

static void edge_path(gpic *p, const lay_gedge *e)
{
    const double *v = p->g.pts + 2 * (size_t)e->pt_first;
    uint32_t n = e->n_pts, nb = (n - 1) / 3 * 3 + 1; /* Bézier points; a tip may follow */
    exp__printf(p->s->w, "<path d=\"M%.1f,%.1f", X(p, v[0]), Y(p, v[1]));
    for (uint32_t k = 1; k + 2 < nb; k += 3)
        exp__printf(p->s->w, " C%.1f,%.1f %.1f,%.1f %.1f,%.1f", X(p, v[2 * k]), Y(p, v[2 * k + 1]),
                    X(p, v[2 * k + 2]), Y(p, v[2 * k + 3]), X(p, v[2 * k + 4]), Y(p, v[2 * k + 5]));
    if (n > nb)
        exp__printf(p->s->w, " L%.1f,%.1f", X(p, v[2 * (n - 1)]), Y(p, v[2 * (n - 1) + 1]));
    exp__puts(p->s->w, "\"");
}

static void draw_edges(gpic *p)
{
    const cs_model *m = p->s->m;
    for (uint32_t i = 0; i < p->g.n_edges; i++) {
        const lay_gedge *e = &p->g.edges[i];
        if (e->n_pts < 4)
            continue;
        p->s->arrow_used[e->kind] = true;
        edge_path(p, e);
        exp__svg_arrow_style(p->s, e->kind, e->chan, lay_graph_edge_width(e));
        if (e->kind == LAY_ARROW_SPAWN)
            exp__puts(p->s->w, " stroke-dasharray=\"4 3\"");
        exp__puts(p->s->w, "><title>");
        exp__xml(p->s->w, lay_graph_label(&p->g, e->from));
        exp__puts(p->s->w, " \u2192 ");
        exp__xml(p->s->w, lay_graph_label(&p->g, e->to));
        exp__printf(p->s->w, ": %u ", e->count);
        exp__puts(p->s->w, e->kind == LAY_ARROW_SPAWN ? "spawns" : e->kind == LAY_ARROW_SYNC
                                ? "sync wake-ups" : e->kind == LAY_ARROW_CLOSE ? "close wake-ups on "
                                                                               : "messages on ");
        if (e->kind <= LAY_ARROW_CLOSE && e->chan < m->n_chans)
            exp__xml(p->s->w, cs_model_str(m, m->chans[e->chan].name));
        exp__puts(p->s->w, "</title></path>\n");
    }
}

static void draw_nodes(gpic *p)
{
    char bg[8], run[8];
    lay_rgba_hex(p->s->pal->bg, bg);
    lay_rgba_hex(p->s->pal->mark[LAY_MARK_RUNNING], run);
    for (uint32_t i = 0; i < p->g.n_nodes; i++) {
        const lay_grect *r = &p->rect[i];
        exp__puts(p->s->w, "<g class=\"node\"><title>");
        exp__xml(p->s->w, lay_graph_label(&p->g, i));
        exp__printf(p->s->w, "</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                    "rx=\"6\" fill=\"%s\" stroke=\"%s\" stroke-width=\"1.5\"/>",
                    p->ox + r->x0, p->oy + r->y0, r->x1 - r->x0, r->y1 - r->y0, bg, run);
        for (uint32_t k = p->g.n_nodes; k < p->n_rect; k++)
            if (p->rect[k].kind == LAY_RECT_LABEL && p->rect[k].idx == i)
                text(p, &p->rect[k], lay_graph_label(&p->g, i), "label", p->s->pal->fg);
        exp__puts(p->s->w, "</g>\n");
    }
}

/* Counts on the edges, each on a backing of the background colour. */
static void draw_counts(gpic *p)
{
    char bg[8], buf[32];
    lay_rgba_hex(p->s->pal->bg, bg);
    for (uint32_t k = p->g.n_nodes; k < p->n_rect; k++) {
        const lay_grect *r = &p->rect[k];
        if (r->kind != LAY_RECT_EDGE_LABEL)
            continue;
        lay_graph_edge_text(&p->g.edges[r->idx], buf, sizeof buf);
        exp__printf(p->s->w, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
                    "fill-opacity=\"0.8\"/>", p->ox + r->x0, p->oy + r->y0, r->x1 - r->x0, r->y1 - r->y0, bg);
        text(p, r, buf, "count", p->s->pal->dim);
        exp__puts(p->s->w, "\n");
    }
}

/* The graph is laid out for the picture's width and a 16:9 area under the
 * legend at SVG_FONT px; a graph too big for that keeps its text at
 * LAY_GRAPH_FONT_MIN or more and makes the picture bigger instead. */
bool exp__svg_graph(exp__svg *s, cs_err *err)
{
    gpic p = {.s = s};
    double avail = s->width - 2 * SVG_MARGIN;
    lay_graph_desc gd = {.show_system = s->d->show_system, .theme = s->d->theme, .font_px = SVG_FONT, .engine = s->d->engine,
                         .width_px = avail, .height_px = avail * 9 / 16};
    bool ok = lay_graph_build(s->m, &gd, &p.g, err);
    p.rect = ok ? cs_alloc((size_t)lay_graph_rects_max(&p.g) * sizeof *p.rect + 1) : NULL;
    if (ok && !p.rect)
        ok = CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u graph labels", p.g.n_nodes);
    if (ok) {
        double scale = fmax(lay_graph_scale(&p.g, avail, avail * 9 / 16), LAY_GRAPH_FONT_MIN / SVG_FONT);
        scale = fmin(scale, 1);
        p.n_rect = lay_graph_rects(&p.g, scale, p.rect);
        p.scale = scale;
        double w = fmax(s->width, p.g.width * scale + 2 * SVG_MARGIN);
        p.ox = (w - p.g.width * scale) / 2;
        p.oy = EXP__SVG_TOP;
        char counts[320];
        snprintf(counts, sizeof counts, "%u %s \u00b7 %u messages on %u edges \u00b7 layout: Graphviz %s",
                 p.g.n_nodes, p.g.by_function ? "entry functions" : p.g.folded ? "nodes (goroutines folded)"
                                                                                : "goroutines",
                 p.g.n_msgs, p.g.n_edges, p.g.engine);
        for (uint32_t i = 0; i < p.g.n_edges; i++)
            s->arrow_used[p.g.edges[i].kind] = true;
        s->width = w;
        exp__svg_open(s, w, EXP__SVG_TOP + p.g.height * scale + SVG_MARGIN);
        exp__svg_title(s, counts);
        exp__svg_legend(s, NULL); /* the graph has no time window: every message counts */
        draw_edges(&p);
        draw_nodes(&p);
        draw_counts(&p);
        exp__puts(s->w, "</svg>\n");
    }
    cs_free(p.rect);
    lay_graph_deinit(&p.g);
    return ok;
}
