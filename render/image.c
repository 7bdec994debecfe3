/* render/image.c — writing rendered frames: PNG through stb_image_write's
 * callback into an atomic cs_out, and animated GIF through giflib with a
 * fixed 256-colour palette (a 6x7x6 colour cube plus greys) so every frame
 * shares one colour table and the file stays small. No GL here. */
#include "render.h"

#include <gif_lib.h>
#include <stb/stb_image_write.h>
#include <string.h>

static void png_write_fn(void *ctx, void *data, int size)
{
    cs_out_write(ctx, data, (size_t)size);
}

bool rnd_png_write(const char *path, const uint8_t *rgba, int w, int h, cs_err *err)
{
    cs_out o;
    if (!cs_out_open(&o, path, err))
        return false;
    stbi_flip_vertically_on_write(0);
    if (!stbi_write_png_to_func(png_write_fn, &o, w, h, 4, rgba, w * 4)) {
        cs_out_abort(&o);
        return CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "%s: PNG encoding failed", path);
    }
    return cs_out_commit(&o, err);
}

/* palette: 6 red x 7 green x 6 blue levels (252) + 4 greys */
static void palette(GifColorType *c)
{
    int n = 0;
    for (int r = 0; r < 6; r++)
        for (int g = 0; g < 7; g++)
            for (int b = 0; b < 6; b++)
                c[n++] = (GifColorType){(GifByteType)(r * 51), (GifByteType)(g * 255 / 6),
                                        (GifByteType)(b * 51)};
    for (int i = 0; i < 4; i++, n++)
        c[n] = (GifColorType){(GifByteType)(34 + 51 * i), (GifByteType)(34 + 51 * i), (GifByteType)(34 + 51 * i)};
}

static int nearest(const GifColorType *pal, int r, int g, int b)
{
    int best = 0, bd = 1 << 30;
    for (int i = 0; i < 256; i++) {
        int dr = pal[i].Red - r, dg = pal[i].Green - g, db = pal[i].Blue - b;
        int d = 3 * dr * dr + 4 * dg * dg + 2 * db * db;
        if (d < bd)
            bd = d, best = i;
    }
    return best;
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

bool rnd_gif_open(rnd_gif *g, const char *path, int w, int h, int delay_cs, cs_err *err)
{
    memset(g, 0, sizeof *g);
    g->w = w, g->h = h, g->delay_cs = delay_cs;
    g->line = cs_alloc((size_t)w);
    g->lut = cs_alloc(32 * 32 * 32);
    if (!g->line || !g->lut) {
        cs_free(g->line), cs_free(g->lut);
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory");
    }
    if (!cs_out_open(&g->out, path, err)) {
        cs_free(g->line), cs_free(g->lut);
        return false;
    }
    g->open = true;
    GifColorType colors[256];
    palette(colors);
    for (int i = 0; i < 32 * 32 * 32; i++)
        g->lut[i] = (uint8_t)nearest(colors, ((i >> 10) << 3) + 4, (((i >> 5) & 31) << 3) + 4, ((i & 31) << 3) + 4);
    int code = 0;
    GifFileType *gf = EGifOpen(&g->out, gif_out, &code);
    if (!gf)
        return gif_fail(g, err, "open", code);
    g->gif = gf;
    ColorMapObject *map = GifMakeMapObject(256, colors);
    int ok = map && EGifPutScreenDesc(gf, w, h, 8, 0, map) == GIF_OK;
    GifFreeMapObject(map);
    static const GifByteType loop[3] = {1, 0, 0}; /* NETSCAPE2.0: loop forever */
    EGifSetGifVersion(gf, true);
    ok = ok && EGifPutExtensionLeader(gf, APPLICATION_EXT_FUNC_CODE) == GIF_OK &&
         EGifPutExtensionBlock(gf, 11, "NETSCAPE2.0") == GIF_OK &&
         EGifPutExtensionBlock(gf, 3, loop) == GIF_OK && EGifPutExtensionTrailer(gf) == GIF_OK;
    return ok ? true : gif_fail(g, err, "header", gf->Error);
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
            g->line[x] = g->lut[((p[0] >> 3) << 10) | ((p[1] >> 3) << 5) | (p[2] >> 3)];
        if (EGifPutLine(gf, g->line, g->w) != GIF_OK)
            return gif_fail(g, err, "frame", gf->Error);
    }
    return true;
}

bool rnd_gif_close(rnd_gif *g, cs_err *err)
{
    int code = 0;
    if (EGifCloseFile(g->gif, &code) != GIF_OK) {
        g->gif = NULL;
        return gif_fail(g, err, "close", code);
    }
    g->gif = NULL;
    cs_free(g->line), cs_free(g->lut);
    g->line = g->lut = NULL;
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
    cs_free(g->line), cs_free(g->lut);
    g->line = g->lut = NULL;
}
