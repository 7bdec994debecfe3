/* export/svg_graph.c — the communication graph (layout/graph.h) as SVG:
 * rounded boxes for goroutines or function groups, Graphviz's edge splines
 * as paths with arrowheads, thickness growing with log(message count), a
 * count at each channel edge's middle and a tooltip with the channel site. */
#include "svg_int.h"
#include "../layout/graph.h"

#include <math.h>
#include <stdio.h>

typedef struct gpic {
    exp__svg *s;
    lay_graph g;
    double scale, ox, oy;
} gpic;

static double X(const gpic *p, double x) { return p->ox + x * p->scale; }
static double Y(const gpic *p, double y) { return p->oy + y * p->scale; }

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
    char dim[8];
    lay_rgba_hex(p->s->pal->dim, dim);
    for (uint32_t i = 0; i < p->g.n_edges; i++) {
        const lay_gedge *e = &p->g.edges[i];
        if (e->n_pts < 4)
            continue;
        p->s->arrow_used[e->kind] = true;
        edge_path(p, e);
        double wd = e->kind >= LAY_ARROW_SYNC ? 1 : fmin(5, 1.2 + 0.8 * log2((double)e->count));
        exp__svg_arrow_style(p->s, e->kind, e->chan, wd);
        if (e->kind == LAY_ARROW_SPAWN)
            exp__puts(p->s->w, " stroke-dasharray=\"4 3\"");
        exp__printf(p->s->w, "><title>%s \u2192 %s: %u ", lay_graph_label(&p->g, e->from),
                    lay_graph_label(&p->g, e->to), e->count);
        exp__puts(p->s->w, e->kind == LAY_ARROW_SPAWN ? "spawns" : e->kind == LAY_ARROW_SYNC
                                ? "sync wake-ups" : e->kind == LAY_ARROW_CLOSE ? "close wake-ups on "
                                                                               : "messages on ");
        if (e->kind <= LAY_ARROW_CLOSE && e->chan < m->n_chans)
            exp__xml(p->s->w, cs_model_str(m, m->chans[e->chan].name));
        exp__puts(p->s->w, "</title></path>\n");
        if (e->kind <= LAY_ARROW_CLOSE) {
            const double *mid = p->g.pts + 2 * ((size_t)e->pt_first + e->n_pts / 2);
            exp__printf(p->s->w, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"%s\" "
                        "text-anchor=\"middle\">%u\u00d7</text>\n", X(p, mid[0]), Y(p, mid[1]) - 4,
                        dim, e->count);
        }
    }
}

static void draw_nodes(gpic *p)
{
    char bg[8], fg[8], run[8];
    lay_rgba_hex(p->s->pal->bg, bg), lay_rgba_hex(p->s->pal->fg, fg);
    lay_rgba_hex(p->s->pal->mark[LAY_MARK_RUNNING], run);
    double fs = 12 * fmin(1, p->scale);
    for (uint32_t i = 0; i < p->g.n_nodes; i++) {
        const lay_gnode *n = &p->g.nodes[i];
        exp__puts(p->s->w, "<g><title>");
        exp__xml(p->s->w, lay_graph_label(&p->g, i));
        exp__printf(p->s->w, "</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                    "rx=\"6\" fill=\"%s\" stroke=\"%s\" stroke-width=\"1.5\"/>",
                    X(p, n->x - n->w / 2), Y(p, n->y - n->h / 2), n->w * p->scale, n->h * p->scale, bg, run);
        if (fs >= 9) {
            exp__printf(p->s->w, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" fill=\"%s\" "
                        "text-anchor=\"middle\">", X(p, n->x), Y(p, n->y) + fs / 3, fs, fg);
            exp__xml(p->s->w, lay_graph_label(&p->g, i));
            exp__puts(p->s->w, "</text>");
        }
        exp__puts(p->s->w, "</g>\n");
    }
}

bool exp__svg_graph(exp__svg *s, cs_err *err)
{
    gpic p = {.s = s};
    lay_graph_desc gd = {.show_system = s->d->show_system, .theme = s->d->theme};
    bool ok = lay_graph_build(s->m, &gd, &p.g, err);
    if (ok) {
        double avail = s->width - 48;
        p.scale = p.g.width > 0 ? fmin(1.5, avail / p.g.width) : 1;
        p.ox = 24 + (avail - p.g.width * p.scale) / 2;
        p.oy = EXP__SVG_TOP;
        char counts[320];
        snprintf(counts, sizeof counts, "%u %s \u00b7 %u messages on %u edges \u00b7 layout: Graphviz %s",
                 p.g.n_nodes, p.g.by_function ? "entry functions" : "goroutines", p.g.n_msgs,
                 p.g.n_edges, p.g.engine);
        for (uint32_t i = 0; i < p.g.n_edges; i++)
            s->arrow_used[p.g.edges[i].kind] = true;
        exp__svg_open(s, s->width, EXP__SVG_TOP + p.g.height * p.scale + 32);
        exp__svg_title(s, counts);
        exp__svg_legend(s);
        draw_edges(&p);
        draw_nodes(&p);
        exp__puts(s->w, "</svg>\n");
    }
    lay_graph_deinit(&p.g);
    return ok;
}
