/* render/surface_egl.c — the offscreen surface: EGL on Mesa's surfaceless
 * platform (works with DISPLAY unset, llvmpipe where there is no GPU), an
 * OpenGL 3.3 core context and one framebuffer that glReadPixels reads, not
 * multisampled: the shaders antialias what they draw (shaders/seg.frag,
 * head.frag, dot.frag), which on software GL costs a fraction of a
 * multisampled fill. Only creates the context; drawing is the renderer's
 * job. */
#include "rnd.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>

typedef struct egl_surface {
    rnd_surface base;        /* first: the vtable the renderer sees */
    EGLDisplay dpy;
    EGLContext ctx;
    GLuint fbo, rb;
} egl_surface;

static void egl_begin(rnd_surface *s)
{
    egl_surface *e = (egl_surface *)s;
    glBindFramebuffer(GL_FRAMEBUFFER, e->fbo);
    glViewport(0, 0, s->w, s->h);
}

/* nothing to finish: egl_read reads the framebuffer drawn into */
static void egl_end(rnd_surface *s)
{
    (void)s;
}

static bool egl_read(rnd_surface *s, uint8_t *rgba, cs_err *err)
{
    egl_surface *e = (egl_surface *)s;
    glBindFramebuffer(GL_READ_FRAMEBUFFER, e->fbo);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, s->w, s->h, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    if (glGetError() != GL_NO_ERROR)
        return CS_FAIL(err, CS_E_GL, CS_NO_OFFSET, "glReadPixels failed");
    rnd__read_flip(rgba, s->w, s->h);
    return true;
}

static void egl_destroy(rnd_surface *s)
{
    egl_surface *e = (egl_surface *)s;
    if (e->ctx != EGL_NO_CONTEXT) {
        glDeleteFramebuffers(1, &e->fbo);
        glDeleteRenderbuffers(1, &e->rb);
        eglMakeCurrent(e->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(e->dpy, e->ctx);
    }
    if (e->dpy != EGL_NO_DISPLAY)
        eglTerminate(e->dpy);
    eglReleaseThread();
    cs_free(e);
}

static bool make_fbo(GLuint *fbo, GLuint *rb, int w, int h)
{
    glGenFramebuffers(1, fbo);
    glGenRenderbuffers(1, rb);
    glBindRenderbuffer(GL_RENDERBUFFER, *rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
    glBindFramebuffer(GL_FRAMEBUFFER, *fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, *rb);
    return glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
}

static bool egl_context(egl_surface *e, cs_err *err)
{
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (!get_display)
        return CS_FAIL(err, CS_E_GL, CS_NO_OFFSET, "EGL: eglGetPlatformDisplayEXT is missing (need Mesa's libEGL)");
    e->dpy = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    EGLint major, minor;
    if (e->dpy == EGL_NO_DISPLAY || !eglInitialize(e->dpy, &major, &minor))
        return CS_FAIL(err, CS_E_GL, CS_NO_OFFSET,
                       "EGL: no surfaceless display (install libegl-mesa0 and libgl1-mesa-dri)");
    rnd__pin_dri();
    static const EGLint cfg_attr[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                      EGL_OPENGL_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8,
                                      EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE};
    EGLConfig cfg;
    EGLint n = 0;
    if (!eglChooseConfig(e->dpy, cfg_attr, &cfg, 1, &n) || n < 1)
        return CS_FAIL(err, CS_E_GL, CS_NO_OFFSET, "EGL: no RGBA8 OpenGL config");
    if (!eglBindAPI(EGL_OPENGL_API))
        return CS_FAIL(err, CS_E_GL, CS_NO_OFFSET, "EGL: OpenGL API unavailable");
    static const EGLint ctx_attr[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                      EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                      EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    e->ctx = eglCreateContext(e->dpy, cfg, EGL_NO_CONTEXT, ctx_attr);
    if (e->ctx == EGL_NO_CONTEXT)
        return CS_FAIL(err, CS_E_GL, CS_NO_OFFSET, "EGL: cannot create an OpenGL 3.3 core context (0x%x)",
                       eglGetError());
    if (!eglMakeCurrent(e->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, e->ctx))
        return CS_FAIL(err, CS_E_GL, CS_NO_OFFSET, "EGL: eglMakeCurrent failed (0x%x)", eglGetError());
    return rnd__glew(err);
}

bool rnd_surface_egl_create(int w, int h, rnd_surface **out, cs_err *err)
{
    *out = NULL;
    if (w < 16 || h < 16 || w > 16384 || h > 16384)
        return CS_FAIL(err, CS_E_USAGE, CS_NO_OFFSET, "image size %dx%d out of range (16..16384)", w, h);
    egl_surface *e = cs_calloc(1, sizeof *e);
    if (!e)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory");
    e->dpy = EGL_NO_DISPLAY;
    e->ctx = EGL_NO_CONTEXT;
    e->base = (rnd_surface){.w = w, .h = h, .begin = egl_begin, .end = egl_end,
                            .read = egl_read, .destroy = egl_destroy};
    if (!egl_context(e, err)) {
        egl_destroy(&e->base);
        return false;
    }
    e->base.software = rnd__software_gl();
    GLint max_side = 0;
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_side);
    /* within the maximum side, a framebuffer can still be too big in all
       (llvmpipe: about 2 GB); either way the size is what to change */
    if (w > max_side || h > max_side || !make_fbo(&e->fbo, &e->rb, w, h)) {
        egl_destroy(&e->base);
        return CS_FAIL(err, CS_E_USAGE, CS_NO_OFFSET,
                       "image size %dx%d is more than this OpenGL draws offscreen (each side 16 to %d, "
                       "and fewer pixels in all)", w, h, max_side < 16384 ? max_side : 16384);
    }
    *out = &e->base;
    return true;
}
