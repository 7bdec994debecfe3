/* render/text.c — text with stb_truetype: DejaVu Sans (Debian's
 * fonts-dejavu-core) packed at 11, 12, 14, 16, 18, 20, 22 and 24 px (pixel
 * height, ascent to descent: 0.86 of the em size) into one GL_R8 atlas,
 * and strings laid out as glyph instances in screen pixels. Covers printable
 * ASCII plus the few symbols chanscope prints (µ → … × ·); anything else is
 * drawn as '?'. The font file is trusted system data, not trace input. */
#include "rnd.h"

#include <stb/stb_rect_pack.h>
#include <string.h>

#define FONT_PATH "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

static const float sizes[RND__NFONT] = {11.0f, 12.0f, 14.0f, 16.0f, 18.0f, 20.0f, 22.0f, 24.0f};
static const int extra_cp[] = {0xB5, 0x2190, 0x2192, 0x2026, 0xD7, 0xB7, 0x25B6, 0x22EF};
_Static_assert(95 + sizeof extra_cp / sizeof *extra_cp == RND__NCP, "RND__NCP counts ASCII plus extra_cp");

static bool pack(rnd__font *f, const uint8_t *ttf, uint8_t *pixels, cs_err *err)
{
    stbtt_pack_context pc;
    if (!stbtt_PackBegin(&pc, pixels, f->atlas_w, f->atlas_h, 0, 1, NULL))
        return CS_FAIL(err, CS_E_GL, CS_NO_OFFSET, "font atlas: cannot start packing");
    stbtt_PackSetOversampling(&pc, 1, 1);
    stbtt_pack_range ranges[RND__NFONT];
    for (int i = 0; i < RND__NFONT; i++)
        ranges[i] = (stbtt_pack_range){.font_size = sizes[i], .array_of_unicode_codepoints = f->cp,
                                       .num_chars = RND__NCP, .chardata_for_range = f->pc[i]};
    int ok = stbtt_PackFontRanges(&pc, ttf, 0, ranges, RND__NFONT);
    stbtt_PackEnd(&pc);
    if (!ok)
        return CS_FAIL(err, CS_E_GL, CS_NO_OFFSET, "font atlas: %s does not fit", FONT_PATH);
    stbtt_fontinfo info;
    if (!stbtt_InitFont(&info, ttf, stbtt_GetFontOffsetForIndex(ttf, 0)))
        return CS_FAIL(err, CS_E_GL, CS_NO_OFFSET, "%s: not a TrueType font", FONT_PATH);
    int asc, desc, gap;
    stbtt_GetFontVMetrics(&info, &asc, &desc, &gap);
    for (int i = 0; i < RND__NFONT; i++)
        f->ascent[i] = (float)asc * stbtt_ScaleForPixelHeight(&info, sizes[i]);
    return true;
}

bool rnd__font_init(rnd__font *f, cs_err *err)
{
    memset(f, 0, sizeof *f);
    int n = 0;
    for (int c = 32; c < 127; c++)
        f->cp[n++] = c;
    for (size_t i = 0; i < sizeof extra_cp / sizeof *extra_cp; i++)
        f->cp[n++] = extra_cp[i];
    f->atlas_w = 512, f->atlas_h = 1024;
    cs_file ttf;
    if (!cs_file_map(FONT_PATH, &ttf, err))
        return CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "font %s missing (install fonts-dejavu-core)", FONT_PATH);
    uint8_t *pixels = cs_calloc((size_t)f->atlas_w, (size_t)f->atlas_h);
    bool ok = pixels && ttf.data && pack(f, ttf.data, pixels, err);
    cs_file_unmap(&ttf);
    if (!ok) {
        cs_free(pixels);
        return pixels ? false : CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory");
    }
    f->pixels = pixels;
    return true;
}

bool rnd__font_upload(rnd__font *f, cs_err *err)
{
    if (!f->pixels)
        return CS_FAIL(err, CS_E_GL, CS_NO_OFFSET, "no font atlas to upload");
    glGenTextures(1, &f->tex);
    glBindTexture(GL_TEXTURE_2D, f->tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, f->atlas_w, f->atlas_h, 0, GL_RED, GL_UNSIGNED_BYTE, f->pixels);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    cs_free(f->pixels);
    f->pixels = NULL;
    return true;
}

void rnd__font_deinit(rnd__font *f)
{
    if (f->tex)
        glDeleteTextures(1, &f->tex);
    f->tex = 0;
    cs_free(f->pixels);
    f->pixels = NULL;
}

/* The atlas' glyph of a code point (lay_utf8_next); '?' for what it lacks,
 * malformed bytes too. */
static int glyph_index(const rnd__font *f, uint32_t c)
{
    if (c >= 32 && c < 127)
        return c - 32;
    for (int i = 95; i < RND__NCP; i++)
        if ((uint32_t)f->cp[i] == c)
            return i;
    return '?' - 32;
}

float rnd__text_width(const rnd__font *f, int size, const char *s)
{
    float w = 0;
    while (*s)
        w += f->pc[size][glyph_index(f, lay_utf8_next(&s))].xadvance;
    return w;
}

float rnd__text(rnd__scene *sc, const rnd__font *f, int size, float x, float y, uint32_t rgba,
                const char *s)
{
    float x0 = x;
    uint8_t c[4] = {rgba >> 24, rgba >> 16, rgba >> 8, rgba};
    while (*s) {
        stbtt_aligned_quad q;
        int gi = glyph_index(f, lay_utf8_next(&s));
        stbtt_GetPackedQuad(f->pc[size], f->atlas_w, f->atlas_h, gi, &x, &y, &q, 1);
        if (q.x1 <= q.x0)
            continue;
        if (sc->n_gl >= sc->cap_gl) {
            cs_err e = {0};
            if (!cs_grow((void **)&sc->gl, &sc->cap_gl, sc->n_gl + 1, sizeof *sc->gl, &e)) {
                sc->oom = true;
                return x - x0;
            }
        }
        sc->gl[sc->n_gl++] = (rnd__glyph){{q.x0, q.y0, q.x1, q.y1}, {q.s0, q.t0, q.s1, q.t1},
                                          {c[0], c[1], c[2], c[3]}};
    }
    return x - x0;
}
