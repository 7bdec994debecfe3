/* render/overlay.c — the screen-space layer every view shares: the time
 * axis with 1-2-5 ticks in real units, the title and counts (exports), the
 * HUD (viewer), the legend of what the picture contains, the key list and
 * the hover tooltip. Drawn after the view, in pixels. */
#include "rnd.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void rnd__fmt_dur(char *buf, size_t n, double ns)
{
    lay_fmt_dur((int64_t)ns, buf, n);
}

void rnd__axis(rnd_renderer *r, const rnd_view *v, const lay_axis *ax, float x0, float x1, float y)
{
    const rnd__theme *th = rnd__theme_get(v->theme);
    lay_tick ticks[64];
    uint32_t n = lay_axis_ticks(ax, x1 - x0, 90.0, ticks, 64);
    rnd__line(&r->sc, x0, y, x1, y, 1.0f, th->fg_dim);
    for (uint32_t i = 0; i < n; i++) {
        float x = x0 + (float)ticks[i].x * (x1 - x0);
        rnd__line(&r->sc, x, y, x, y + 5.0f, 1.0f, th->fg_dim);
        rnd__line(&r->sc, x, r->plot_y0, x, y, 1.0f, rnd__alpha(th->grid, 0.6f));
        float tw = rnd__text_width(&r->font, RND__F11, ticks[i].label);
        rnd__text(&r->sc, &r->font, RND__F11, floorf(x - tw / 2), y + 17.0f, th->fg_dim, ticks[i].label);
    }
    float right = -1e9f; /* gap labels that would overlap the previous one are left out */
    for (uint32_t i = 0; i < ax->n_gaps; i++) {
        char buf[40] = "\xE2\x8B\xAF ";
        lay_fmt_dur(ax->gaps[i].t1 - ax->gaps[i].t0, buf + 4, sizeof buf - 4);
        float mid = x0 + (float)(0.5 * (ax->gaps[i].x0 + ax->gaps[i].x1)) * (x1 - x0);
        float tw = rnd__text_width(&r->font, RND__F11, buf);
        if (mid - tw / 2 < right + 6)
            continue;
        right = mid + tw / 2;
        rnd__text(&r->sc, &r->font, RND__F11, floorf(mid - tw / 2), y + 31.0f, th->fg_dim, buf);
    }
}

/* Label after a swatch at (x, y); returns the item's width. */
static float swatch_label(rnd_renderer *r, const rnd__theme *th, float x, float y, const char *name)
{
    return 24 + rnd__text(&r->sc, &r->font, RND__F11, x + 24, y, th->fg, name) + 16;
}

/* Wraps the legend to a new row when the next item would pass the edge. */
static void legend_wrap(const rnd_renderer *r, float x0, float *x, float *y, const char *name)
{
    if (*x > x0 && *x + 40 + rnd__text_width(&r->font, RND__F11, name) > (float)r->frame_w - 8)
        *x = x0, *y += 18;
}

/* One row of swatches for what the model contains; returns its width. */
static float legend(rnd_renderer *r, const rnd__theme *th, float x, float y)
{
    float x0 = x;
    for (int k = 1; k < LAY_MARK_COUNT; k++) {
        if (!(r->present & 1u << k))
            continue;
        legend_wrap(r, x0, &x, &y, lay_mark_name((lay_mark)k));
        float w = fmaxf(2.0f, 10.0f * lay_mark_thickness((lay_mark)k));
        rnd__line(&r->sc, x, y - 4, x + 18, y - 4, w, th->mark[k]);
        x += swatch_label(r, th, x, y, lay_mark_name((lay_mark)k));
    }
    static const char *extra[] = {"message", "spawn", "GC"};
    for (int i = 0; i < 3; i++) {
        if (!(r->present & 1u << (LAY_MARK_COUNT + 1 + i)))
            continue;
        legend_wrap(r, x0, &x, &y, extra[i]);
        uint32_t col = i == 0 ? th->hue[r->n_arrows && r->arrows[0].chan < r->m->n_chans ? r->hue[r->arrows[0].chan] : 0]
                       : i == 1 ? th->spawn : th->gc | 0x80;
        if (i == 2) {
            rnd__rect(&r->sc, x, y - 11, x + 18, y + 3, col);
        } else {
            rnd__line(&r->sc, x, y - 4, x + 14, y - 4, 1.6f, col);
            rnd__seg(&r->sc, RND__UI_SEGS, x + 12, y - 8, 0, x + 19, y - 4, 0, 1.6f, col);
            rnd__seg(&r->sc, RND__UI_SEGS, x + 12, y, 0, x + 19, y - 4, 0, 1.6f, col);
        }
        x += swatch_label(r, th, x, y, extra[i]);
    }
    return x - x0;
}

/* Counts, and how the lanes view lays them out when not the default. */
static void counts(char *buf, size_t n, const rnd_renderer *r, const rnd_view *v)
{
    static const char *axes[] = {"", "   \xC2\xB7   log time axis", "   \xC2\xB7   gap-folded time axis"};
    bool lanes = v->layout == RND_LANES, tree = v->layout == RND_TREE;
    snprintf(buf, n, "goroutines shown %u / %u%s%s   \xC2\xB7   messages shown %u / %u%s",
             r->stats.lanes, r->stats.g_total,
             lanes && v->collapse ? " (one lane per function)" : "",
             lanes && v->compact && !v->collapse ? " (lanes reused)" : "",
             r->stats.msgs_shown, r->stats.msgs_total, lanes || tree ? axes[v->axis % 3] : "");
}

static void export_frame(rnd_renderer *r, const rnd_view *v, const rnd__theme *th, int w, int h)
{
    char buf[200];
    if (v->title)
        rnd__text(&r->sc, &r->font, RND__F14, 12, 22, th->fg, v->title);
    counts(buf, sizeof buf, r, v);
    rnd__text(&r->sc, &r->font, RND__F11, 12, 40, th->fg_dim, buf);
    legend(r, th, 12, r->legend_y > 0 && r->legend_y < (float)h - 12 ? r->legend_y : (float)h - 12);
    (void)w;
}

static void hud(rnd_renderer *r, const rnd_view *v, const rnd__theme *th, int w, int h)
{
    char now[32], end[32], spd[32], buf[512], cnt[160];
    rnd__rect(&r->sc, 0, 0, (float)w, 26, th->panel);
    int64_t t = v->now == CS_T_NONE ? r->m->t_last : v->now;
    rnd__fmt_dur(now, sizeof now, (double)(t - r->m->t_first));
    rnd__fmt_dur(end, sizeof end, (double)(r->m->t_last - r->m->t_first));
    rnd__fmt_dur(spd, sizeof spd, v->speed);
    counts(cnt, sizeof cnt, r, v);
    static const char *lay[] = {"lanes", "tree", "graph"};
    snprintf(buf, sizeof buf, "%s  t = %s / %s   speed %s/s   %s   %s   %.0f fps   [%s]   ? keys",
             v->playing ? "\xE2\x96\xB6" : "||", now, end, spd, cnt,
             v->filter[0] ? v->filter : "", v->fps, lay[v->layout % RND_LAYOUT_COUNT]);
    rnd__text(&r->sc, &r->font, RND__F12, 10, 18, th->fg, buf);
    rnd__rect(&r->sc, 0, (float)h - 24, (float)w, (float)h, th->panel);
    float lw = legend(r, th, 10, (float)h - 8);
    if (v->status)
        rnd__text(&r->sc, &r->font, RND__F11, 30 + lw, (float)h - 8, th->fg_dim, v->status);
}

static void help(rnd_renderer *r, const rnd__theme *th, int w, int h)
{
    static const char *keys[][2] = {
        {"space", "play / pause"}, {"+ / -", "faster / slower"}, {"\xE2\x86\x90 / \xE2\x86\x92", "step"},
        {"Home / End", "start / end"}, {"r", "restart"}, {"l", "next layout (lanes, tree, graph)"},
        {"a", "next time axis (linear, log, gaps folded)"},
        {"1 - 4", "highlight: channels, blocked, partners, spawns"}, {"h", "system goroutines"},
        {"/", "filter by function (Enter ends)"}, {"p", "screenshot PNG"},
        {"mouse", "drag pans (right/3D: orbits), wheel zooms, click selects"},
        {"q / Esc", "quit"}, {"?", "this list"}};
    size_t n = sizeof keys / sizeof *keys;
    float bw = 500, bh = 30 + 18 * (float)n, x = ((float)w - bw) / 2, y = ((float)h - bh) / 2;
    rnd__rect(&r->sc, x, y, x + bw, y + bh, th->panel | 0xff);
    for (size_t i = 0; i < n; i++) { /* two columns: keys, then what they do */
        float ty = y + 26 + 18 * (float)i;
        rnd__text(&r->sc, &r->font, RND__F12, x + 18, ty, th->fg, keys[i][0]);
        rnd__text(&r->sc, &r->font, RND__F12, x + 110, ty, th->fg_dim, keys[i][1]);
    }
}

void rnd__overlay_build(rnd_renderer *r, const rnd_view *v, int w, int h)
{
    const rnd__theme *th = rnd__theme_get(v->theme);
    if (v->hud)
        hud(r, v, th, w, h);
    else
        export_frame(r, v, th, w, h);
    rnd__scene_top(&r->sc);
    if (v->hud && v->hover)
        rnd__tooltip(r, v, th, w, h);
    if (v->help)
        help(r, th, w, h);
}
