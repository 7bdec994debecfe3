/* render/scene.c — the CPU-side frame: growable arrays of mark instances
 * that the view builders append to and gl.c uploads. An append that cannot
 * grow sets scene->oom and is dropped; the frame then reports it. */
#include "rnd.h"

#include <cglm/cglm.h>
#include <string.h>

void rnd__scene_reset(rnd__scene *s)
{
    for (int k = 0; k < RND__NKIND; k++)
        s->k[k].n = 0;
    s->n_gl = 0;
    s->oom = false;
    memset(s->clip, 0, sizeof s->clip);
    s->img = NULL;
    s->img_new = false;
    s->top_ui = s->top_gl = UINT32_MAX; /* no pop-ups yet */
}

void rnd__scene_top(rnd__scene *s)
{
    s->top_ui = s->k[RND__UI_SEGS].n;
    s->top_gl = s->n_gl;
}

void rnd__ortho_px(float *mvp, int w, int h)
{
    mat4 m;
    glm_ortho(0.0f, (float)w, (float)h, 0.0f, -1.0f, 1.0f, m);
    memcpy(mvp, m, sizeof m);
}

void rnd__scene_free(rnd__scene *s)
{
    for (int k = 0; k < RND__NKIND; k++)
        cs_free(s->k[k].v);
    cs_free(s->gl);
    memset(s, 0, sizeof *s);
}

void rnd__seg(rnd__scene *s, int kind, float ax, float ay, float az, float bx, float by,
              float bz, float w, uint32_t rgba)
{
    rnd__marks *m = &s->k[kind];
    if (m->n >= m->cap) {
        cs_err e = {0};
        if (!cs_grow((void **)&m->v, &m->cap, m->n + 1, sizeof *m->v, &e)) {
            s->oom = true;
            return;
        }
    }
    m->v[m->n++] = (rnd__mark){{ax, ay, az}, {bx, by, bz}, w,
                               {rgba >> 24, (rgba >> 16) & 255, (rgba >> 8) & 255, rgba & 255}};
}

void rnd__rect(rnd__scene *s, float x0, float y0, float x1, float y1, uint32_t rgba)
{
    float ym = 0.5f * (y0 + y1);
    rnd__seg(s, RND__UI_SEGS, x0, ym, 0, x1, ym, 0, y1 - y0, rgba);
}

void rnd__line(rnd__scene *s, float x0, float y0, float x1, float y1, float w, uint32_t rgba)
{
    rnd__seg(s, RND__UI_SEGS, x0, y0, 0, x1, y1, 0, w, rgba);
}

static void reverse(rnd__mark *v, uint32_t a, uint32_t b) /* [a, b) */
{
    while (b > a + 1) {
        rnd__mark t = v[a];
        v[a++] = v[--b];
        v[b] = t;
    }
}

void rnd__scene_back(rnd__scene *s, int kind, uint32_t first)
{
    rnd__marks *m = &s->k[kind];
    if (first >= m->n || !first)
        return;
    reverse(m->v, 0, first); /* rotation by three reversals: in place, O(n) */
    reverse(m->v, first, m->n);
    reverse(m->v, 0, m->n);
}
