/* export/svg.c — the SVG document frame shared by both views: header with
 * one arrowhead <marker> per colour (SVG 1.1 has no context-stroke), title
 * (file name, Go version, duration), counts and legend; and the entry points
 * of svg.h. */
#include "svg_int.h"
#include "../layout/graph.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void marker(exp__svg *s, const char *id, lay_rgba c)
{
    char hex[8];
    lay_rgba_hex(c, hex);
    exp__printf(s->w, "<marker id=\"%s\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" "
                "markerUnits=\"strokeWidth\" markerWidth=\"5\" markerHeight=\"5\" orient=\"auto\">"
                "<path d=\"M0,1 L10,5 L0,9 z\" fill=\"%s\"/></marker>\n", id, hex);
}

void exp__svg_open(exp__svg *s, double w, double h)
{
    char bg[8], id[16];
    lay_rgba_hex(s->pal->bg, bg);
    exp__printf(s->w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
                "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                "font-family=\"DejaVu Sans, Verdana, sans-serif\">\n<defs>\n", w, h, w, h);
    for (int i = 0; i < LAY_CHAN_HUES; i++) {
        snprintf(id, sizeof id, "h%d", i);
        marker(s, id, s->pal->chan[i]);
    }
    marker(s, "hs", s->pal->spawn);
    marker(s, "hy", s->pal->sync);
    marker(s, "hd", s->pal->dim);
    exp__printf(s->w, "</defs>\n<rect width=\"100%%\" height=\"100%%\" fill=\"%s\"/>\n", bg);
}

void exp__svg_title(exp__svg *s, const char *counts)
{
    char fg[8], dim[8], dur[32];
    lay_rgba_hex(s->pal->fg, fg);
    lay_rgba_hex(s->pal->dim, dim);
    lay_fmt_dur(s->m->t_last - s->m->t_first, dur, sizeof dur);
    exp__printf(s->w, "<text x=\"16\" y=\"24\" font-size=\"14\" font-weight=\"bold\" fill=\"%s\">", fg);
    exp__xml(s->w, s->d->name ? s->d->name : "trace");
    exp__printf(s->w, " \u00b7 Go 1.%d \u00b7 %s</text>\n", s->m->version % 1000, dur);
    exp__printf(s->w, "<text x=\"16\" y=\"44\" font-size=\"12\" fill=\"%s\">", dim);
    exp__xml(s->w, counts);
    exp__puts(s->w, "</text>\n");
}

/* Where the legend entry at x that takes the room of text `room` ends. */
static double item_end(double x, const char *room)
{
    return x + 28 + lay_text_width(room, 12) + 18;
}

/* One legend entry: an arrow (head: its marker), or a bar th px thick. */
static double legend_item(exp__svg *s, double x, double y, const char *name, lay_rgba c,
                          double th, const char *dash, const char *head)
{
    char hex[8], fg[8];
    lay_rgba_hex(c, hex);
    lay_rgba_hex(s->pal->fg, fg);
    if (head)
        exp__printf(s->w, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                    "stroke-width=\"1.5\"%s%s%s marker-end=\"url(#%s)\"/>\n",
                    x, y, x + 22, y, hex, dash ? " stroke-dasharray=\"" : "", dash ? dash : "",
                    dash ? "\"" : "", head);
    else if (c.a == 255)
        exp__printf(s->w, "<rect x=\"%.1f\" y=\"%.1f\" width=\"22\" height=\"%.1f\" fill=\"%s\"/>\n",
                    x, y - th / 2, th, hex);
    else /* as translucent as what it names */
        exp__printf(s->w, "<rect x=\"%.1f\" y=\"%.1f\" width=\"22\" height=\"%.1f\" fill=\"%s\" "
                    "fill-opacity=\"%.2f\"/>\n", x, y - th / 2, th, hex, c.a / 255.0);
    exp__printf(s->w, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" fill=\"%s\">", x + 28, y + 4, fg);
    exp__xml(s->w, name);
    exp__printf(s->w, "</text>\n");
    return item_end(x, name);
}

/* Second legend row: the channels the legend names (lay_legend_chans_of:
 * the PNG's and the viewer's too) in their hue, each counting its messages
 * in the picture, laid out by its room, as far as the width goes. */
static void channel_legend(exp__svg *s, const uint32_t *shown, double y)
{
    lay_legend_chans lc;
    lay_legend_chans_of(s->m, shown, &lc);
    double x = 16;
    uint32_t i = 0;
    for (; i < lc.n && x < s->width - 250; i++) {
        char head[16];
        snprintf(head, sizeof head, "h%u", s->hue[lc.chan[i]]);
        legend_item(s, x, y, lc.name[i], s->pal->chan[s->hue[lc.chan[i]]], 0, NULL, head);
        x = item_end(x, lc.wide[i]);
    }
    if (lc.more + (lc.n - i))
        exp__printf(s->w, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" fill=\"#%02x%02x%02x\">"
                    "+%u more channels</text>\n", x, y + 4, s->pal->dim.r, s->pal->dim.g,
                    s->pal->dim.b, lc.more + (lc.n - i));
}

void exp__svg_legend(exp__svg *s, const uint32_t *shown)
{
    double x = 16, y = 70;
    for (int k = 1; k < LAY_MARK_COUNT; k++)
        if (s->mark_used[k])
            x = legend_item(s, x, y, lay_mark_name((lay_mark)k), s->pal->mark[k],
                            14 * lay_mark_thickness((lay_mark)k), NULL, NULL);
    if (s->gc_used) /* a background, as the marks: before the arrows, which may not fit */
        x = legend_item(s, x, y, "GC", s->pal->gc, 14, NULL, NULL);
    for (int k = 0; k < LAY_ARROW_COUNT; k++) {
        if (!s->arrow_used[k] || x > s->width - 160)
            continue;
        lay_rgba c = k == LAY_ARROW_SPAWN ? s->pal->spawn : k == LAY_ARROW_SYNC ? s->pal->sync
                                                                                 : s->pal->dim;
        x = legend_item(s, x, y, lay_arrow_name((lay_arrow_kind)k), c, 0,
                        k == LAY_ARROW_CLOSE ? "5 3" : k == LAY_ARROW_SYNC ? "1.5 2.5" : NULL,
                        k == LAY_ARROW_SPAWN ? "hs" : k == LAY_ARROW_SYNC ? "hy" : "hd");
    }
    if (s->arrow_used[LAY_ARROW_CHAN] || s->arrow_used[LAY_ARROW_CLOSE])
        channel_legend(s, shown, y + 22);
}

void exp__svg_arrow_style(exp__svg *s, uint8_t kind, uint32_t chan, double width)
{
    char hex[8];
    uint32_t hue = chan < s->m->n_chans ? s->hue[chan] : 0;
    lay_rgba c = kind == LAY_ARROW_SPAWN ? s->pal->spawn
               : kind == LAY_ARROW_SYNC  ? s->pal->sync
                                         : s->pal->chan[hue];
    lay_rgba_hex(c, hex);
    exp__printf(s->w, " stroke=\"%s\" stroke-width=\"%.2f\" fill=\"none\"", hex, width);
    if (kind == LAY_ARROW_CLOSE)
        exp__puts(s->w, " stroke-dasharray=\"5 3\"");
    else if (kind == LAY_ARROW_SYNC)
        exp__puts(s->w, " stroke-dasharray=\"1.5 2.5\" stroke-opacity=\"0.8\"");
    if (kind == LAY_ARROW_SPAWN)
        exp__puts(s->w, " marker-end=\"url(#hs)\"");
    else if (kind == LAY_ARROW_SYNC)
        exp__puts(s->w, " marker-end=\"url(#hy)\"");
    else
        exp__printf(s->w, " marker-end=\"url(#h%u)\"", hue);
}

typedef struct svg_job {
    const cs_model *m;
    const exp_svg_desc *d;
} svg_job;

static bool body(cs_write_fn *fn, void *ctx, const void *arg, cs_err *err)
{
    const svg_job *j = arg;
    return exp_svg_write_to(fn, ctx, j->m, j->d, err);
}

bool exp_svg_write_to(cs_write_fn *fn, void *ctx, const cs_model *m, const exp_svg_desc *d,
                      cs_err *err)
{
    exp__w *w = cs_alloc(sizeof *w);
    if (!w)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for the SVG writer");
    exp__w_init(w, fn, ctx);
    exp__svg s = {.w = w, .m = m, .d = d, .pal = lay_palette_get(d->theme),
                  .width = d->width ? d->width : 1600};
    s.hue = lay_chan_hue_table(m, err);
    bool ok = s.hue && (d->layout == EXP_SVG_GRAPH ? exp__svg_graph(&s, err) : exp__svg_lanes(&s, err));
    ok = exp__w_finish(w, err) && ok;
    cs_free(s.hue);
    cs_free(w);
    return ok;
}

bool exp_svg_write(const char *path, const cs_model *m, const exp_svg_desc *d, cs_err *err)
{
    svg_job j = {m, d};
    return exp__to_path(path, body, &j, err);
}
