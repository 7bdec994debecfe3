/* render/text.c — text with stb_truetype: DejaVu Sans (Debian's
 * fonts-dejavu-core) packed at 11, 12, 14, 16, 18, 20, 22 and 24 px (pixel
 * height, ascent to descent: 0.86 of the em size) into one GL_R8 atlas,
 * and strings laid out as glyph instances in screen pixels. Covers
 * printable ASCII, the few symbols chanscope prints (µ → … × ·), and every
 * character of the model's strings (names, sites, values) that the font
 * has, up to MAX_CP of them; anything else is drawn as '?'. The font file
 * is trusted system data, not trace input. */
#include "rnd.h"
#include "../core/text.h"

#include <stb/stb_rect_pack.h>
#include <stdlib.h>
#include <string.h>

#define FONT_PATH "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
#define MAX_CP 1024          /* characters beyond ASCII packed at most */
#define ATLAS_W 512
#define ATLAS_H_MAX 8192     /* the atlas grows from 1024 rows while the characters do not fit */
#define BMP_BITS (0x10000 / 8)

static const float sizes[RND__NFONT] = {11.0f, 12.0f, 14.0f, 16.0f, 18.0f, 20.0f, 22.0f, 24.0f};
static const int extra_cp[] = {0xB5, 0x2190, 0x2192, 0x2026, 0xD7, 0xB7, 0x25B6, 0x22EF};

/* Marks in bits (a bit per character of the Basic Multilingual Plane) the
 * characters beyond ASCII of m's strings; those past it are drawn as '?'. */
static void model_chars(const cs_model *m, uint8_t *bits)
{
    for (uint32_t sid = 1; m && sid < m->n_str; sid++)
        for (const char *s = cs_model_str(m, sid); *s;) {
            uint32_t c = cs_utf8_next(&s);
            if (c >= 0x80 && c < 0x10000) /* not CS_UTF8_BAD */
                bits[c >> 3] |= (uint8_t)(1u << (c & 7));
        }
}

static bool pack(rnd__font *f, const uint8_t *ttf, const stbtt_fontinfo *info, cs_err *err)
{
    for (f->atlas_h = 1024;; f->atlas_h *= 2) {
        if (!(f->pixels = cs_calloc((size_t)f->atlas_w, (size_t)f->atlas_h)))
            return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for the font atlas");
        stbtt_pack_context pc;
        if (!stbtt_PackBegin(&pc, f->pixels, f->atlas_w, f->atlas_h, 0, 1, NULL))
            return CS_FAIL(err, CS_E_GL, CS_NO_OFFSET, "font atlas: cannot start packing");
        stbtt_PackSetOversampling(&pc, 1, 1);
        stbtt_pack_range ranges[RND__NFONT];
        for (int i = 0; i < RND__NFONT; i++)
            ranges[i] = (stbtt_pack_range){.font_size = sizes[i], .array_of_unicode_codepoints = f->cp,
                                           .num_chars = f->n_cp, .chardata_for_range = f->pc[i]};
        int ok = stbtt_PackFontRanges(&pc, ttf, 0, ranges, RND__NFONT);
        stbtt_PackEnd(&pc);
        if (ok)
            break;
        cs_free(f->pixels);
        f->pixels = NULL;
        if (f->atlas_h >= ATLAS_H_MAX)
            return CS_FAIL(err, CS_E_GL, CS_NO_OFFSET, "font atlas: %d characters do not fit", f->n_cp);
    }
    int asc, desc, gap;
    stbtt_GetFontVMetrics(info, &asc, &desc, &gap);
    for (int i = 0; i < RND__NFONT; i++)
        f->ascent[i] = (float)asc * stbtt_ScaleForPixelHeight(info, sizes[i]);
    return true;
}

static int cp_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The characters to pack: ASCII, then extra_cp and those of m's strings
 * the font has, as many as fit in MAX_CP (extra_cp first: chanscope's own
 * symbols are never crowded out), ascending for glyph_index; f->seen marks
 * every character beyond ASCII looked at, packed or not (rnd__font_covers). */
static bool choose(rnd__font *f, const stbtt_fontinfo *info, const cs_model *m, cs_err *err)
{
    f->seen = cs_calloc(BMP_BITS, 1);
    f->cp = cs_alloc((95 + MAX_CP) * sizeof *f->cp);
    if (!f->seen || !f->cp)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for the font");
    for (int c = 32; c < 127; c++)
        f->cp[f->n_cp++] = c;
    for (size_t i = 0; i < sizeof extra_cp / sizeof *extra_cp; i++) {
        f->seen[extra_cp[i] >> 3] |= (uint8_t)(1u << (extra_cp[i] & 7));
        f->cp[f->n_cp++] = extra_cp[i];
    }
    uint8_t *mine = cs_calloc(BMP_BITS, 1);
    if (!mine)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for the font");
    model_chars(m, mine);
    for (int c = 0x80; c < 0x10000; c++)
        if ((mine[c >> 3] >> (c & 7) & 1) && !(f->seen[c >> 3] >> (c & 7) & 1)) {
            f->seen[c >> 3] |= (uint8_t)(1u << (c & 7));
            if (f->n_cp < 95 + MAX_CP && stbtt_FindGlyphIndex(info, c))
                f->cp[f->n_cp++] = c;
        }
    cs_free(mine);
    qsort(f->cp + 95, (size_t)f->n_cp - 95, sizeof *f->cp, cp_cmp);
    for (int i = 0; i < RND__NFONT; i++)
        if (!(f->pc[i] = cs_alloc((size_t)f->n_cp * sizeof *f->pc[i])))
            return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for the font");
    return true;
}

bool rnd__font_init(rnd__font *f, const cs_model *m, cs_err *err)
{
    memset(f, 0, sizeof *f);
    f->atlas_w = ATLAS_W;
    cs_file ttf;
    if (!cs_file_map(FONT_PATH, &ttf, err))
        return CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "font %s missing (install fonts-dejavu-core)", FONT_PATH);
    stbtt_fontinfo info;
    bool ok = ttf.data && stbtt_InitFont(&info, ttf.data, stbtt_GetFontOffsetForIndex(ttf.data, 0));
    if (!ok)
        CS_FAIL(err, CS_E_GL, CS_NO_OFFSET, "%s: not a TrueType font", FONT_PATH);
    ok = ok && choose(f, &info, m, err) && pack(f, ttf.data, &info, err);
    cs_file_unmap(&ttf);
    if (!ok)
        rnd__font_deinit(f);
    return ok;
}

bool rnd__font_covers(const rnd__font *f, const cs_model *m)
{
    uint8_t *bits = cs_calloc(BMP_BITS, 1);
    if (!bits || !f->seen) { /* out of memory: the characters it lacks are drawn as '?' */
        cs_free(bits);
        return true;
    }
    model_chars(m, bits);
    bool all = true;
    for (int i = 0; all && i < BMP_BITS; i++)
        all = !(bits[i] & ~f->seen[i]);
    cs_free(bits);
    return all;
}

bool rnd__font_follow(const rnd__font *cur, rnd__font *next, const cs_model *m, cs_err *err)
{
    if (rnd__font_covers(cur, m))
        return true;
    rnd__font_drop(next);
    return rnd__font_init(next, m, err);
}

void rnd__font_take(rnd__font *f, rnd__font *next)
{
    GLuint tex = f->tex; /* the new atlas goes into the texture there is */
    rnd__font_drop(f);
    *f = *next, f->tex = tex;
    memset(next, 0, sizeof *next);
}

bool rnd__font_upload(rnd__font *f, cs_err *err)
{
    if (!f->pixels)
        return CS_FAIL(err, CS_E_GL, CS_NO_OFFSET, "no font atlas to upload");
    if (!f->tex)
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

void rnd__font_drop(rnd__font *f)
{
    cs_free(f->pixels), cs_free(f->cp), cs_free(f->seen);
    for (int i = 0; i < RND__NFONT; i++)
        cs_free(f->pc[i]);
    GLuint tex = f->tex;
    memset(f, 0, sizeof *f);
    f->tex = tex;
}

void rnd__font_deinit(rnd__font *f)
{
    if (f->tex)
        glDeleteTextures(1, &f->tex);
    f->tex = 0;
    rnd__font_drop(f);
}

/* The atlas' glyph of a code point (cs_utf8_next); '?' for what it lacks,
 * malformed bytes too. */
static int glyph_index(const rnd__font *f, uint32_t c)
{
    if (c >= 32 && c < 127)
        return c - 32;
    int lo = 95, hi = f->n_cp;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if ((uint32_t)f->cp[mid] < c)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < f->n_cp && (uint32_t)f->cp[lo] == c ? lo : '?' - 32;
}

float rnd__text_width(const rnd__font *f, int size, const char *s)
{
    float w = 0;
    while (*s)
        w += f->pc[size][glyph_index(f, cs_utf8_next(&s))].xadvance;
    return w;
}

float rnd__text(rnd__scene *sc, const rnd__font *f, int size, float x, float y, uint32_t rgba,
                const char *s)
{
    float x0 = x;
    uint8_t c[4] = {rgba >> 24, rgba >> 16, rgba >> 8, rgba};
    while (*s) {
        stbtt_aligned_quad q;
        int gi = glyph_index(f, cs_utf8_next(&s));
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
