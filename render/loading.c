/* render/loading.c — the viewer's loading screen, drawn while a trace
 * decodes on another thread: the file name, a progress bar of the bytes
 * read, "42.1 MB of 85.9 MB" and what is being done. Needs only the
 * renderer's shaders and font (rnd_create without a model). Once the bytes
 * are all read the full bar shimmers, so the window shows it is alive while
 * the model and the placement are built. */
#include "rnd.h"

#include <math.h>
#include <stdio.h>

static void centred(rnd_renderer *r, int size, float cx, float y, uint32_t rgba, const char *s)
{
    rnd__text(&r->sc, &r->font, size, floorf(cx - rnd__text_width(&r->font, size, s) / 2), y, rgba, s);
}

static void bar(rnd_renderer *r, const rnd__theme *th, const rnd_loading *l, float x0, float y0, float x1,
                float y1)
{
    double frac = l->total_bytes ? (double)l->done_bytes / (double)l->total_bytes : 0;
    frac = frac < 0 ? 0 : frac > 1 ? 1 : frac;
    float xf = x0 + (float)frac * (x1 - x0);
    rnd__rect(&r->sc, x0, y0, x1, y1, th->grid);
    rnd__rect(&r->sc, x0, y0, xf, y1, th->hue[0]);
    if (frac >= 1) { /* a lighter band sweeps across, one pass per 1.5 s */
        float band = 0.15f * (x1 - x0), c = x0 - band + (float)fmod(l->t_s / 1.5, 1.0) * (x1 - x0 + band);
        rnd__rect(&r->sc, fmaxf(x0, c), y0, fminf(x1, c + band), y1, rnd__alpha(th->fg, 0.35f));
    }
}

bool rnd_loading_draw(rnd_renderer *r, const rnd_loading *l, int w, int h, cs_err *err)
{
    const rnd__theme *th = rnd__theme_get(l->theme);
    rnd__scene_reset(&r->sc);
    float cx = (float)w / 2, cy = (float)h / 2, bw = fminf((float)w - 80, 560);
    centred(r, RND__F14, cx, cy - 24, th->fg, l->name ? l->name : "");
    bar(r, th, l, cx - bw / 2, cy - 7, cx + bw / 2, cy + 7);
    char buf[160];
    double pct = l->total_bytes ? 100.0 * (double)l->done_bytes / (double)l->total_bytes : 0;
    if (l->total_bytes)
        snprintf(buf, sizeof buf, "%s \xC2\xB7 %.1f MB of %.1f MB \xC2\xB7 %.0f%%", l->stage ? l->stage : "",
                 (double)l->done_bytes / 1e6, (double)l->total_bytes / 1e6, pct);
    else /* a stream: its size is not known */
        snprintf(buf, sizeof buf, "%s \xC2\xB7 %.1f MB read", l->stage ? l->stage : "", (double)l->done_bytes / 1e6);
    centred(r, RND__F12, cx, cy + 30, th->fg_dim, buf);
    centred(r, RND__F11, cx, cy + 52, th->fg_dim, "q or Esc cancels");
    return rnd__frame_submit(r, th, w, h, true, err);
}
