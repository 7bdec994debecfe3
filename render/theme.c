/* render/theme.c — the renderer's view of layout/palette.h: the palette's
 * colours as 0xRRGGBBAA words (what instance buffers hold), plus the few
 * renderer-only shades (panel behind HUD text, pulse, selection). The
 * colours themselves are defined once, in layout/palette.c. */
#include "rnd.h"

static uint32_t word(lay_rgba c)
{
    return (uint32_t)c.r << 24 | (uint32_t)c.g << 16 | (uint32_t)c.b << 8 | c.a;
}

const rnd__theme *rnd__theme_get(rnd_theme t)
{
    static rnd__theme cache[RND_THEME_COUNT];
    static bool ready[RND_THEME_COUNT];
    t = (unsigned)t < RND_THEME_COUNT ? t : RND_DARK;
    if (ready[t])
        return &cache[t];
    const lay_palette *p = lay_palette_get((lay_theme)t);
    rnd__theme *th = &cache[t];
    th->bg = word(p->bg), th->fg = word(p->fg), th->fg_dim = word(p->dim), th->life = word(p->life);
    th->grid = rnd__dim(th->fg_dim, 0.75f, th->bg);
    th->panel = (rnd__dim(th->fg_dim, 0.88f, th->bg) & 0xffffff00u) | 0xee;
    for (int k = 0; k < LAY_MARK_COUNT; k++)
        th->mark[k] = word(p->mark[k]);
    for (int k = 0; k < LAY_CHAN_HUES; k++)
        th->hue[k] = word(p->chan[k]);
    th->gc = word(p->gc), th->spawn = word(p->spawn), th->sync = word(p->sync);
    th->pulse = t == RND_LIGHT ? 0x111111ffu : 0xffffffffu;
    th->select = th->pulse;
    ready[t] = true;
    return th;
}

static uint32_t mix(uint32_t a, uint32_t b, float k)
{
    uint32_t out = 0;
    for (int sh = 8; sh < 32; sh += 8) {
        float ca = (float)((a >> sh) & 255), cb = (float)((b >> sh) & 255);
        out |= (uint32_t)(ca + (cb - ca) * k + 0.5f) << sh;
    }
    return out | (a & 255);
}

uint32_t rnd__dim(uint32_t rgba, float k, uint32_t bg)
{
    return mix(rgba, bg, k);
}

uint32_t rnd__mix_over(uint32_t rgba, uint32_t bg)
{
    return mix(bg, rgba, (float)(rgba & 255) / 255.0f) | 0xff;
}

uint32_t rnd__alpha(uint32_t rgba, float a)
{
    return (rgba & 0xffffff00u) | (uint32_t)((float)(rgba & 255) * a);
}
