/* render/gif.c — animated GIF of rendered frames through giflib. One
 * global palette for every frame, built so the picture's colours survive:
 * first the theme's own colours exactly (background, text, grid, every
 * state, every channel hue, their dimmed shades), then the commonest
 * colours of a sample frame (anti-aliased edges, text), then a colour cube
 * for the rest. Pixels map to their nearest palette entry without
 * dithering, so a state bar keeps its exact colour in every frame. No GL. */
#include "rnd.h"

#include <gif_lib.h>
#include <stdlib.h>
#include <string.h>

#define CACHE_BITS 16   /* exact RGB -> palette index, open addressing */
#define NEAR_D 48       /* sample colours nearer than this to an entry add nothing */

static int dist(const uint8_t *p, int r, int g, int b)
{
    int dr = p[0] - r, dg = p[1] - g, db = p[2] - b;
    return 3 * dr * dr + 4 * dg * dg + 2 * db * db;
}

/* Adds 0xRRGGBB unless an entry is within min_d; false when full. */
static bool pal_add(rnd_gif *g, uint32_t rgb, int min_d)
{
    int r = (int)(rgb >> 16) & 255, gr = (int)(rgb >> 8) & 255, b = (int)rgb & 255;
    for (int i = 0; i < g->n_pal; i++)
        if (dist(g->pal[i], r, gr, b) <= min_d)
            return true;
    if (g->n_pal >= 256)
        return false;
    g->pal[g->n_pal][0] = (uint8_t)r, g->pal[g->n_pal][1] = (uint8_t)gr, g->pal[g->n_pal][2] = (uint8_t)b;
    g->n_pal++;
    return true;
}

/* The colours a frame of this theme is made of, blended over the
 * background where the renderer blends them. */
static void theme_colours(rnd_gif *g, rnd_theme t)
{
    const rnd__theme *th = rnd__theme_get(t);
    uint32_t base[] = {th->bg, th->fg, th->fg_dim, th->life, th->grid, th->spawn, th->sync, th->pulse,
                       rnd__dim(th->life, 0.6f, th->bg), rnd__dim(th->spawn, 0.6f, th->bg),
                       rnd__dim(th->fg_dim, 0.88f, th->bg) /* panel */,
                       rnd__dim(th->gc, 1.0f - (float)(th->gc & 255) / 255.0f, th->bg) /* GC band */};
    for (size_t i = 0; i < sizeof base / sizeof *base; i++)
        pal_add(g, base[i] >> 8, 0);
    for (int k = 1; k < LAY_MARK_COUNT; k++) {
        pal_add(g, th->mark[k] >> 8, 0);
        pal_add(g, rnd__dim(th->mark[k], 0.7f, th->bg) >> 8, 0);
    }
    for (int k = 0; k < LAY_CHAN_HUES; k++) {
        pal_add(g, th->hue[k] >> 8, 0);
        pal_add(g, rnd__dim(th->hue[k], 0.75f, th->bg) >> 8, 0);
    }
}

typedef struct bin {
    uint32_t n;
    uint32_t sum[3];
} bin;

static int by_count(const void *a, const void *b)
{
    uint32_t x = ((const bin *)a)->n, y = ((const bin *)b)->n;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* The commonest colours of the sample (averaged per 5-bit bin), most
 * frequent first, each only if no entry is near it already. */
static bool sample_colours(rnd_gif *g, const uint8_t *rgba, cs_err *err)
{
    bin *h = cs_calloc(1u << 15, sizeof *h);
    if (!h)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for a GIF palette");
    size_t n = (size_t)g->w * (size_t)g->h;
    for (size_t i = 0; i < n; i++, rgba += 4) {
        bin *b = &h[(rgba[0] >> 3) << 10 | (rgba[1] >> 3) << 5 | rgba[2] >> 3];
        b->n++, b->sum[0] += rgba[0], b->sum[1] += rgba[1], b->sum[2] += rgba[2];
    }
    qsort(h, 1u << 15, sizeof *h, by_count);
    for (uint32_t i = 0; i < 1u << 15 && h[i].n && g->n_pal < 256; i++)
        pal_add(g, (h[i].sum[0] / h[i].n) << 16 | (h[i].sum[1] / h[i].n) << 8 | h[i].sum[2] / h[i].n, NEAR_D);
    cs_free(h);
    return true;
}

static void cube_colours(rnd_gif *g)
{
    for (int r = 0; r < 6; r++)
        for (int gr = 0; gr < 6; gr++)
            for (int b = 0; b < 6; b++)
                if (!pal_add(g, (uint32_t)(r * 51) << 16 | (uint32_t)(gr * 51) << 8 | (uint32_t)(b * 51), NEAR_D))
                    return;
}

static uint8_t nearest(const rnd_gif *g, int r, int gr, int b)
{
    int best = 0, bd = 1 << 30;
    for (int i = 0; i < g->n_pal; i++) {
        int d = dist(g->pal[i], r, gr, b);
        if (d < bd)
            bd = d, best = i;
    }
    return (uint8_t)best;
}

/* Palette index of a pixel, through the exact-colour cache. */
static uint8_t index_of(rnd_gif *g, const uint8_t *p)
{
    uint32_t key = 1u << 24 | (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
    uint32_t mask = (1u << CACHE_BITS) - 1, slot = (key * 2654435761u) >> (32 - CACHE_BITS);
    for (int probe = 0; probe < 8; probe++, slot = (slot + 1) & mask) {
        if (g->cache_key[slot] == key)
            return g->cache_idx[slot];
        if (!g->cache_key[slot]) {
            g->cache_key[slot] = key;
            return g->cache_idx[slot] = nearest(g, p[0], p[1], p[2]);
        }
    }
    return nearest(g, p[0], p[1], p[2]);
}

static int gif_out(GifFileType *gf, const GifByteType *data, int n)
{
    return (int)cs_out_write(gf->UserData, data, (size_t)n);
}

static bool gif_fail(rnd_gif *g, cs_err *err, const char *what, int code)
{
    CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "%s: GIF %s failed: %s", g->out.path, what, GifErrorString(code));
    rnd_gif_abort(g);
    return false;
}

static bool header(rnd_gif *g, cs_err *err)
{
    int code = 0;
    GifFileType *gf = EGifOpen(&g->out, gif_out, &code);
    if (!gf)
        return gif_fail(g, err, "open", code);
    g->gif = gf;
    GifColorType colors[256] = {{0, 0, 0}};
    for (int i = 0; i < g->n_pal; i++)
        colors[i] = (GifColorType){g->pal[i][0], g->pal[i][1], g->pal[i][2]};
    ColorMapObject *map = GifMakeMapObject(256, colors);
    int ok = map && EGifPutScreenDesc(gf, g->w, g->h, 8, 0, map) == GIF_OK;
    GifFreeMapObject(map);
    static const GifByteType loop[3] = {1, 0, 0}; /* NETSCAPE2.0: loop forever */
    EGifSetGifVersion(gf, true);
    ok = ok && EGifPutExtensionLeader(gf, APPLICATION_EXT_FUNC_CODE) == GIF_OK &&
         EGifPutExtensionBlock(gf, 11, "NETSCAPE2.0") == GIF_OK &&
         EGifPutExtensionBlock(gf, 3, loop) == GIF_OK && EGifPutExtensionTrailer(gf) == GIF_OK;
    return ok ? true : gif_fail(g, err, "header", gf->Error);
}

bool rnd_gif_open(rnd_gif *g, const rnd_gif_desc *d, cs_err *err)
{
    memset(g, 0, sizeof *g);
    g->w = d->w, g->h = d->h, g->delay_cs = d->delay_cs;
    g->line = cs_alloc((size_t)d->w);
    g->cache_key = cs_calloc(1u << CACHE_BITS, sizeof *g->cache_key);
    g->cache_idx = cs_alloc(1u << CACHE_BITS);
    if (!g->line || !g->cache_key || !g->cache_idx) {
        rnd_gif_abort(g);
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory");
    }
    theme_colours(g, d->theme);
    if (d->sample && !sample_colours(g, d->sample, err)) {
        rnd_gif_abort(g);
        return false;
    }
    cube_colours(g);
    if (!cs_out_open(&g->out, d->path, err)) {
        rnd_gif_abort(g);
        return false;
    }
    g->open = true;
    return header(g, err);
}

bool rnd_gif_frame(rnd_gif *g, const uint8_t *rgba, cs_err *err)
{
    GifFileType *gf = g->gif;
    GraphicsControlBlock gcb = {.DisposalMode = DISPOSE_DO_NOT, .DelayTime = g->delay_cs,
                                .TransparentColor = NO_TRANSPARENT_COLOR};
    GifByteType ext[4];
    EGifGCBToExtension(&gcb, ext);
    if (EGifPutExtension(gf, GRAPHICS_EXT_FUNC_CODE, 4, ext) != GIF_OK ||
        EGifPutImageDesc(gf, 0, 0, g->w, g->h, false, NULL) != GIF_OK)
        return gif_fail(g, err, "frame", gf->Error);
    for (int y = 0; y < g->h; y++) {
        const uint8_t *p = rgba + (size_t)y * (size_t)g->w * 4;
        for (int x = 0; x < g->w; x++, p += 4)
            g->line[x] = index_of(g, p);
        if (EGifPutLine(gf, g->line, g->w) != GIF_OK)
            return gif_fail(g, err, "frame", gf->Error);
    }
    return true;
}

static void release(rnd_gif *g)
{
    cs_free(g->line), cs_free(g->cache_key), cs_free(g->cache_idx);
    g->line = g->cache_idx = NULL;
    g->cache_key = NULL;
}

bool rnd_gif_close(rnd_gif *g, cs_err *err)
{
    int code = 0;
    if (EGifCloseFile(g->gif, &code) != GIF_OK) {
        g->gif = NULL;
        return gif_fail(g, err, "close", code);
    }
    g->gif = NULL;
    release(g);
    g->open = false;
    return cs_out_commit(&g->out, err);
}

void rnd_gif_abort(rnd_gif *g)
{
    int code;
    if (g->gif)
        EGifCloseFile(g->gif, &code);
    g->gif = NULL;
    if (g->open)
        cs_out_abort(&g->out);
    g->open = false;
    release(g);
}
