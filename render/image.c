/* render/image.c — writing a rendered frame as PNG through libpng into an
 * atomic cs_out, opaque (RGB: alpha 255 everywhere, whatever the
 * framebuffer's alpha holds). Animated GIF is gif.c. No GL here. */
#include "render.h"

#include <png.h>
#include <stdio.h>
#include <string.h>

static void png_write_fn(png_structp png, png_bytep data, size_t n)
{
    cs_out_write(png_get_io_ptr(png), data, n);
}

static void png_flush_fn(png_structp png)
{
    (void)png;
}

/* libpng's errors: the message kept for the caller's cs_err, then back to
 * encode's setjmp; its warnings are not printed (nothing below main is). */
typedef struct png_why {
    char text[160];
} png_why;

static void png_error_fn(png_structp png, png_const_charp msg)
{
    png_why *why = png_get_error_ptr(png);
    snprintf(why->text, sizeof why->text, "%s", msg);
    png_longjmp(png, 1);
}

static void png_warning_fn(png_structp png, png_const_charp msg)
{
    (void)png, (void)msg;
}

/* The rows through libpng; false on its error (it long-jumps back here). */
static bool encode(png_structp png, png_infop info, cs_out *o, const uint8_t *rgba, uint8_t *row, int w, int h)
{
    if (setjmp(png_jmpbuf(png)))
        return false;
    png_set_write_fn(png, o, png_write_fn, png_flush_fn);
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    /* Rows unfiltered: a picture of flat fills, lines and text deflates best
     * as it is; a filter chosen per row breaks the runs deflate finds. With
     * zlib's default level, the corpus's lanes, tree and graph pictures
     * come out 10-60% smaller than stb_image_write's, in half its time. */
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    png_write_info(png, info);
    for (int y = 0; y < h; y++) {
        const uint8_t *in = rgba + (size_t)y * (size_t)w * 4;
        for (int x = 0; x < w; x++)
            memcpy(row + 3 * x, in + 4 * x, 3);
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    return true;
}

bool rnd_png_write(const char *path, const uint8_t *rgba, int w, int h, cs_err *err)
{
    cs_out o;
    if (!cs_out_open(&o, path, err))
        return false;
    png_why why = {""};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &why, png_error_fn, png_warning_fn);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    uint8_t *row = cs_alloc((size_t)w * 3 + 1);
    bool ok = png && info && row;
    if (!ok)
        CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "%s", !row ? "out of memory for a row of the image"
                                                  : "libpng could not start (out of memory, or another version)");
    else if (!(ok = encode(png, info, &o, rgba, row, w, h)))
        CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "%s: PNG encoding failed: %s", path, why.text);
    png_destroy_write_struct(&png, &info);
    cs_free(row);
    if (!ok) {
        cs_out_abort(&o);
        return false;
    }
    return cs_out_commit(&o, err);
}
