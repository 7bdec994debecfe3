/* render/image.c — writing a rendered frame as PNG through stb_image_write's
 * callback into an atomic cs_out, opaque (alpha 255 everywhere, whatever
 * the framebuffer's alpha holds). Animated GIF is gif.c. No GL here. */
#include "render.h"

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
    /* RGB: a picture has no transparent parts, and a viewer must not show
     * the page through anti-aliased edges */
    size_t n = (size_t)w * (size_t)h;
    uint8_t *rgb = cs_alloc(n * 3 + 1);
    if (!rgb) {
        cs_out_abort(&o);
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for a %dx%d image", w, h);
    }
    for (size_t i = 0; i < n; i++)
        memcpy(rgb + 3 * i, rgba + 4 * i, 3);
    stbi_flip_vertically_on_write(0);
    /* Rows unfiltered: a picture of flat fills, lines and text deflates best
     * as it is. stb otherwise tries all five PNG filters on every row and
     * keeps the one with the smallest sum, which breaks the runs deflate
     * finds: on lanes, tree and graph pictures of the corpus, unfiltered
     * rows encode 2-4 times faster, and the files come out 3-15% smaller
     * (a dense picture of 1,000 lanes, 10% bigger). */
    stbi_write_force_png_filter = 0;
    int ok = stbi_write_png_to_func(png_write_fn, &o, w, h, 3, rgb, w * 3);
    cs_free(rgb);
    if (!ok) {
        cs_out_abort(&o);
        return CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "%s: PNG encoding failed", path);
    }
    return cs_out_commit(&o, err);
}
