/* render/surface_glfw.c — the window surface: a GLFW 3.3 window with an
 * OpenGL 3.3 core context, not multisampled: the shaders antialias what
 * they draw (shaders/seg.frag, head.frag, dot.frag), and Mesa's llvmpipe,
 * which shades every sample, took 3 to 5 times as long a frame of the tree
 * of a thousand goroutines multisampled. Whether it is software GL is the
 * surface's to say (the viewer then draws edges unsmoothed). Only creates the context and
 * swaps buffers; input handling belongs to the viewer (cli/cmd_view.c), which
 * gets the GLFWwindow through rnd_surface_window(). GLFW 3.3 needs an X
 * display: without one we say so and point at the export commands. */
#include "rnd.h"

#include <GLFW/glfw3.h>
#include <stdio.h>

typedef struct glfw_surface {
    rnd_surface base;        /* first: the vtable the renderer sees */
    GLFWwindow *win;
} glfw_surface;

static char glfw_msg[120];

static void on_glfw_error(int code, const char *desc)
{
    (void)code;
    snprintf(glfw_msg, sizeof glfw_msg, "%s", desc);
}

static void glfw_begin(rnd_surface *s)
{
    glfw_surface *g = (glfw_surface *)s;
    glfwGetFramebufferSize(g->win, &s->w, &s->h);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, s->w, s->h);
}

static void glfw_end(rnd_surface *s)
{
    glfwSwapBuffers(((glfw_surface *)s)->win);
}

/* Reads the back buffer of the frame just drawn (call before end). */
static bool glfw_read(rnd_surface *s, uint8_t *rgba, cs_err *err)
{
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, s->w, s->h, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    if (glGetError() != GL_NO_ERROR)
        return CS_FAIL(err, CS_E_GL, CS_NO_OFFSET, "glReadPixels failed");
    rnd__read_flip(rgba, s->w, s->h);
    return true;
}

static void glfw_destroy(rnd_surface *s)
{
    glfw_surface *g = (glfw_surface *)s;
    if (g->win)
        glfwDestroyWindow(g->win);
    glfwTerminate();
    cs_free(g);
}

/* A hidden window, its context current. */
static GLFWwindow *open_window(const char *title, int w, int h)
{
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_SAMPLES, 0);
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    GLFWwindow *win = glfwCreateWindow(w, h, title, NULL, NULL);
    if (win)
        glfwMakeContextCurrent(win);
    return win;
}

bool rnd_surface_glfw_create(const char *title, int w, int h, rnd_surface **out, cs_err *err)
{
    *out = NULL;
    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit())
        return CS_FAIL(err, CS_E_GL, CS_NO_OFFSET,
                       "cannot open a window (%s); without a display use 'chanscope png' "
                       "(or svg, dot, perfetto) instead",
                       glfw_msg[0] ? glfw_msg : "no display");
    glfw_surface *g = cs_calloc(1, sizeof *g);
    if (!g) {
        glfwTerminate();
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory");
    }
    g->base = (rnd_surface){.w = w, .h = h, .begin = glfw_begin, .end = glfw_end,
                            .read = glfw_read, .destroy = glfw_destroy};
    g->win = open_window(title, w, h);
    if (!g->win) {
        glfw_destroy(&g->base);
        return CS_FAIL(err, CS_E_GL, CS_NO_OFFSET, "cannot create an OpenGL 3.3 window: %s", glfw_msg);
    }
    rnd__pin_dri();
    glfwShowWindow(g->win);
    g->base.software = rnd__software_gl();
    glfwSwapInterval(0);
    g->base.window = g->win;
    if (!rnd__glew(err)) {
        glfw_destroy(&g->base);
        return false;
    }
    glfwGetFramebufferSize(g->win, &g->base.w, &g->base.h);
    *out = &g->base;
    return true;
}
