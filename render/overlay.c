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

/* The legend's pen: items left to right, wrapped at the frame's width;
 * with draw false it only measures. */
typedef struct legend_pen {
    rnd_renderer *r;
    const rnd__theme *th;
    bool draw;
    float x0, x, y;
} legend_pen;

/* Moves the pen to the next item, wrapping when it would pass the edge. */
static void legend_item(legend_pen *p, const char *name)
{
    if (p->x > p->x0 && p->x + 40 + rnd__text_width(&p->r->font, RND__F11, name) > (float)p->r->frame_w - 8)
        p->x = p->x0, p->y += 18;
}

/* An item's text, taking the room of `room` (the same, or longer). */
static void legend_text(legend_pen *p, const char *text, const char *room)
{
    float w = rnd__text_width(&p->r->font, RND__F11, room);
    if (p->draw)
        rnd__text(&p->r->sc, &p->r->font, RND__F11, p->x + 24, p->y, p->th->fg, text);
    p->x += 24 + w + 16;
}

static void legend_label(legend_pen *p, const char *name)
{
    legend_text(p, name, name);
}

static void arrow_swatch(legend_pen *p, uint32_t col, bool dashed)
{
    if (!p->draw)
        return;
    float x = p->x, y = p->y;
    if (dashed) {
        rnd__line(&p->r->sc, x, y - 4, x + 5, y - 4, 1.6f, col);
        rnd__line(&p->r->sc, x + 8, y - 4, x + 13, y - 4, 1.6f, col);
    } else {
        rnd__line(&p->r->sc, x, y - 4, x + 14, y - 4, 1.6f, col);
    }
    rnd__seg(&p->r->sc, RND__UI_SEGS, x + 12, y - 8, 0, x + 19, y - 4, 0, 1.6f, col);
    rnd__seg(&p->r->sc, RND__UI_SEGS, x + 12, y, 0, x + 19, y - 4, 0, 1.6f, col);
}

/* One swatch per channel the legend names (lay_legend_chans_of: the SVG's
 * too), in its hue, counting its messages in the frame (r->legend_shown),
 * laid out by its room: the rows measured before the frame are those
 * drawn after it. */
static void legend_chans(legend_pen *p)
{
    rnd_renderer *r = p->r;
    lay_legend_chans lc;
    lay_legend_chans_of(r->m, r->legend_shown, &lc);
    for (uint32_t i = 0; i < lc.n; i++) {
        legend_item(p, lc.wide[i]);
        arrow_swatch(p, p->th->hue[r->tr.hue[lc.chan[i]] % LAY_CHAN_HUES], false);
        legend_text(p, lc.name[i], lc.wide[i]);
    }
    if (lc.more) {
        char name[40];
        snprintf(name, sizeof name, "+%u more channels", lc.more);
        legend_item(p, name);
        legend_label(p, name);
    }
}

/* The legend: a swatch and a name per state, arrow kind and channel the
 * trace holds (the channels only when r->legend_chans), from (x, *y).
 * Returns where the last item ended; *y becomes the last row's baseline. */
static float legend(rnd_renderer *r, const rnd__theme *th, float x, float *y, bool draw)
{
    legend_pen p = {r, th, draw, x, x, *y};
    uint32_t present = r->present | r->tr.present;
    for (int k = 1; k < LAY_MARK_COUNT; k++) {
        if (!(present & 1u << k))
            continue;
        legend_item(&p, lay_mark_name((lay_mark)k));
        float w = fmaxf(2.0f, 10.0f * lay_mark_thickness((lay_mark)k));
        if (draw)
            rnd__line(&r->sc, p.x, p.y - 4, p.x + 18, p.y - 4, w, th->mark[k]);
        legend_label(&p, lay_mark_name((lay_mark)k));
    }
    if ((present & RND__PRESENT_MSGS) && r->legend_chans) {
        legend_chans(&p);
    } else if (present & RND__PRESENT_MSGS) { /* no room for the channels: one swatch */
        legend_item(&p, "message");
        arrow_swatch(&p, th->hue[r->tr.first_chan < r->m->n_chans ? r->tr.hue[r->tr.first_chan] : 0], false);
        legend_label(&p, "message");
    }
    if (present & RND__PRESENT_SYNC) {
        legend_item(&p, lay_arrow_name(LAY_ARROW_SYNC));
        arrow_swatch(&p, th->sync, true);
        legend_label(&p, lay_arrow_name(LAY_ARROW_SYNC));
    }
    if (present & RND__PRESENT_SPAWNS) {
        legend_item(&p, lay_arrow_name(LAY_ARROW_SPAWN));
        arrow_swatch(&p, th->spawn, false);
        legend_label(&p, lay_arrow_name(LAY_ARROW_SPAWN));
    }
    if (present & RND__PRESENT_GC) {
        legend_item(&p, "GC");
        if (draw)
            rnd__rect(&r->sc, p.x, p.y - 11, p.x + 18, p.y + 3, th->gc | 0x80);
        legend_label(&p, "GC");
    }
    *y = p.y;
    return p.x;
}

/* Counts, and how the lanes view lays them out when not the default. */
static void counts(char *buf, size_t n, const rnd_renderer *r, const rnd_view *v)
{
    static const char *axes[] = {"", "   \xC2\xB7   log time axis", "   \xC2\xB7   gap-folded time axis"};
    bool lanes = v->layout == RND_LANES, tree = v->layout == RND_TREE;
    char msgs[64];
    if (v->traffic_pending)
        snprintf(msgs, sizeof msgs, "messages: being found\xE2\x80\xA6");
    else
        snprintf(msgs, sizeof msgs, "messages shown %u / %u", r->stats.msgs_shown, r->stats.msgs_total);
    snprintf(buf, n, "goroutines shown %u / %u%s%s   \xC2\xB7   %s%s", r->stats.lanes, r->stats.g_total,
             !lanes && !tree ? "" : !r->lay.lanes.collapsed ? "" : lanes ? " (one lane per function)"
                                                                : " (one line per function)",
             !lanes && !tree ? "" : !r->lay.lanes.compacted ? "" : lanes ? " (lanes reused)" : " (lines reused)", msgs,
             lanes || tree ? axes[v->axis % 3] : "");
}

static void export_frame(rnd_renderer *r, const rnd_view *v, const rnd__theme *th, int w, int h)
{
    char buf[200];
    if (v->title)
        rnd__text(&r->sc, &r->font, RND__F14, 12, 22, th->fg, v->title);
    counts(buf, sizeof buf, r, v);
    rnd__text(&r->sc, &r->font, RND__F11, 12, 40, th->fg_dim, buf);
    if (v->now != CS_T_NONE) { /* a moment of the playback (--at, animation frames): its time */
        char now[32], end[32];
        rnd__fmt_dur(now, sizeof now, (double)(v->now - r->m->t_first));
        rnd__fmt_dur(end, sizeof end, (double)(r->m->t_last - r->m->t_first));
        snprintf(buf, sizeof buf, "t = %s / %s", now, end);
        float tw = rnd__text_width(&r->font, RND__F14, buf);
        float title_r = v->title ? 12 + rnd__text_width(&r->font, RND__F14, v->title) : 0;
        float y = title_r + 24 + tw <= (float)w ? 22 : 56; /* beside the title, else under the counts */
        rnd__text(&r->sc, &r->font, RND__F14, floorf((float)w - 12 - tw), y, th->fg, buf);
    }
    float y = r->legend_y > 0 && r->legend_y < (float)h - 12 ? r->legend_y : (float)h - 12, y_end = y;
    legend(r, th, 12, &y_end, false); /* rows that would run off the bottom start higher */
    if (y_end > (float)h - 8)
        y -= y_end - ((float)h - 8);
    legend(r, th, 12, &y, true);
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
    char loop[80] = "";
    if (v->loop) {
        char a[32], b[32];
        rnd__fmt_dur(a, sizeof a, (double)(v->loop0 - r->m->t_first));
        rnd__fmt_dur(b, sizeof b, (double)(v->loop1 - r->m->t_first));
        snprintf(loop, sizeof loop, "   loop %s \xE2\x86\x92 %s", a, b);
    }
    snprintf(buf, sizeof buf, "%s  t = %s / %s%s   speed %s/s   %s   %s   %.0f fps   [%s]   ? keys",
             v->playing ? "\xE2\x96\xB6" : "||", now, end, loop, spd, cnt,
             v->filter[0] ? v->filter : "", v->fps, lay[v->layout % RND_LAYOUT_COUNT]);
    rnd__text(&r->sc, &r->font, RND__F12, 10, 18, th->fg, buf);
    /* the legend at the bottom, as many rows as it needs; the status on its
     * last row when there is room after it, else on a strip of its own above */
    float y = (float)h - 8 - rnd__legend_extra(r), last = y;
    rnd__rect(&r->sc, 0, y - 16, (float)w, (float)h, th->panel);
    float right = legend(r, th, 10, &last, true);
    if (!v->status || v->status_fade >= 1.0f)
        return;
    float sw = rnd__text_width(&r->font, RND__F11, v->status), sx = (float)w - 10 - sw, sy = last;
    if (sx < right + 14) { /* no room beside the legend */
        sy = y - 24;
        rnd__rect(&r->sc, sx - 8, sy - 14, (float)w, sy + 6, rnd__alpha(th->panel, 1.0f - v->status_fade));
    }
    uint32_t col = rnd__alpha(th->fg | 0xff, 1.0f - v->status_fade);
    rnd__text(&r->sc, &r->font, RND__F11, sx > 10 ? sx : 10, sy, col, v->status);
}

/* The key list: the rows the viewer hands over (its bindings table), in
 * two columns, centred. */
static void help(rnd_renderer *r, const rnd_view *v, const rnd__theme *th, int w, int h)
{
    float kw = 0, ww = 0;
    for (uint32_t i = 0; i < v->n_keys; i++) {
        kw = fmaxf(kw, rnd__text_width(&r->font, RND__F12, v->keys[i].keys));
        ww = fmaxf(ww, rnd__text_width(&r->font, RND__F12, v->keys[i].what));
    }
    float bw = 18 + kw + 20 + ww + 18, bh = 30 + 18 * (float)v->n_keys;
    float x = fmaxf(0, ((float)w - bw) / 2), y = fmaxf(0, ((float)h - bh) / 2);
    rnd__rect(&r->sc, x, y, x + bw, y + bh, th->panel | 0xff);
    for (uint32_t i = 0; i < v->n_keys; i++) { /* two columns: keys, then what they do */
        float ty = y + 26 + 18 * (float)i;
        rnd__text(&r->sc, &r->font, RND__F12, x + 18, ty, th->fg, v->keys[i].keys);
        rnd__text(&r->sc, &r->font, RND__F12, x + 18 + kw + 20, ty, th->fg_dim, v->keys[i].what);
    }
}

int rnd__legend_rows(rnd_renderer *r, const rnd_view *v, int h)
{
    const rnd__theme *th = rnd__theme_get(v->theme);
    float y = 0;
    r->legend_chans = true;
    legend(r, th, v->hud ? 10 : 12, &y, false);
    if (y + 18 > 0.2f * (float)h) { /* more than a fifth of the picture: the channels go */
        r->legend_chans = false, y = 0;
        legend(r, th, v->hud ? 10 : 12, &y, false);
    }
    return 1 + (int)(y / 18.0f + 0.5f);
}

float rnd__legend_extra(const rnd_renderer *r)
{
    return 18.0f * (float)(r->legend_rows > 1 ? r->legend_rows - 1 : 0);
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
    if (v->help && v->n_keys)
        help(r, v, th, w, h);
}
