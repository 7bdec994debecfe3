/* render/surface.c — the rnd_surface interface both backends implement
 * (surface_egl.c offscreen, surface_glfw.c window), and what they share:
 * GLEW start-up, turning read-back rows top-down, and keeping Mesa's driver
 * mapped for the leak checker. */
#include "rnd.h"

#include <dlfcn.h>
#include <link.h>
#include <string.h>

void rnd_surface_begin(rnd_surface *s) { s->begin(s); }
void rnd_surface_end(rnd_surface *s) { s->end(s); }
bool rnd_surface_read(rnd_surface *s, uint8_t *rgba, cs_err *err) { return s->read(s, rgba, err); }
void *rnd_surface_window(rnd_surface *s) { return s->window; }

void rnd_surface_size(const rnd_surface *s, int *w, int *h)
{
    *w = s->w;
    *h = s->h;
}

bool rnd_surface_software(const rnd_surface *s)
{
    return s->software;
}

bool rnd__software_gl(void)
{
    const char *r = (const char *)glGetString(GL_RENDERER);
    return r && (strstr(r, "llvmpipe") || strstr(r, "softpipe") || strstr(r, "Software Rasterizer"));
}

void rnd_surface_destroy(rnd_surface *s)
{
    if (s)
        s->destroy(s);
}

/* GL's first row is the bottom one; images start at the top. */
void rnd__read_flip(uint8_t *rgba, int w, int h)
{
    size_t stride = (size_t)w * 4;
    for (int y = 0; y < h / 2; y++) {
        uint8_t *a = rgba + (size_t)y * stride, *b = rgba + (size_t)(h - 1 - y) * stride;
        for (size_t i = 0; i < stride; i++) {
            uint8_t t = a[i];
            a[i] = b[i];
            b[i] = t;
        }
    }
}

static int pin_one(struct dl_phdr_info *info, size_t size, void *ud)
{
    (void)size, (void)ud;
    const char *n = info->dlpi_name;
    size_t len = n ? strlen(n) : 0;
    if (len > 7 && !strcmp(n + len - 7, "_dri.so"))
        dlopen(n, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
    return 0;
}

/* Tearing down EGL or GLFW unloads swrast_dri.so; LeakSanitizer then reports
 * a 112-byte leak in "<unknown module>" it can neither attribute nor
 * suppress. A second, never-closed reference keeps the driver mapped. */
void rnd__pin_dri(void)
{
    dl_iterate_phdr(pin_one, NULL);
}

bool rnd__glew(cs_err *err)
{
    GLenum e = glewInit();
    if (e != GLEW_OK && e != 4 /* GLEW_ERROR_NO_GLX_DISPLAY: expected under pure EGL */)
        return CS_FAIL(err, CS_E_GL, CS_NO_OFFSET, "glewInit: %s", (const char *)glewGetErrorString(e));
    while (glGetError() != GL_NO_ERROR) {
    }
    return true;
}
