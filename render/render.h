/* render/render.h — chanscope's OpenGL 3.3 renderer: goroutine lanes, the 3D
 * spawn tree and the communication graph, with arrows, pulses, labels, axis,
 * legend and HUD. Used by `chanscope view` (GLFW window) and `chanscope png`
 * (EGL offscreen). Context creation lives in the two surface backends; the
 * renderer only draws into whatever framebuffer is bound.
 *
 * API — surfaces (one per GL context)
 *   bool rnd_surface_egl_create(int w, int h, rnd_surface **out, cs_err *err)   offscreen
 *   bool rnd_surface_glfw_create(const char *title, int w, int h, rnd_surface **out, cs_err *err)
 *   void rnd_surface_begin(rnd_surface *s)             bind its framebuffer, set the viewport
 *   void rnd_surface_end(rnd_surface *s)               the frame done: swap buffers (GLFW)
 *   bool rnd_surface_read(rnd_surface *s, uint8_t *rgba, cs_err *err)   w*h*4 bytes, top row first
 *   void rnd_surface_size(const rnd_surface *s, int *w, int *h)          framebuffer pixels
 *   bool rnd_surface_software(const rnd_surface *s)   whether its GL rasterizes on the CPU (llvmpipe)
 *   void *rnd_surface_window(rnd_surface *s)          the GLFWwindow, NULL for EGL
 *   void rnd_surface_destroy(rnd_surface *s)          accepts NULL
 * API — drawing (what shows a frame needs a current context, the first one
 * the same as later ones: it sets up shaders and the font's texture)
 *   rnd_renderer *rnd_create(const cs_model *m, cs_err *err)   borrows m, which must outlive it;
 *       m NULL: the font only (rnd_loading_draw), rnd_model_attach later
 *   rnd_renderer *rnd_create_still(const cs_model *m, cs_err *err)
 *       for pictures that are not picked in: the playback table (each
 *       message's next send by its receiver, the sync wake-ups in time order)
 *       waits for the first frame with a playback time (rnd_view.now), so a
 *       still picture never builds it
 *   bool rnd_model_attach(rnd_renderer *r, const cs_model *m, cs_err *err)
 *       placement and arrows from m (borrowed); no GL, so it may run on another
 *       thread while this one calls rnd_loading_draw — nothing else meanwhile
 *   rnd_traffic *rnd_traffic_create(const cs_model *m, cs_err *err)
 *       what a renderer draws of m's channel traffic (arrows, the playback
 *       table, channel hues), made from m alone (no GL, no renderer): on a
 *       thread while a renderer shows m before its traffic
 *       (cs_model_before_traffic); NULL with *err filled when out of memory
 *   void rnd_traffic_take(rnd_renderer *r, const cs_model *m, rnd_traffic *t)
 *       r shows m (borrowed) from now on, with t (which goes): m has the
 *       goroutines and spans of the model r showed, so r keeps its
 *       placement, its GL state and, mostly, its lanes and the summaries of
 *       their spans, and makes again what the traffic changes (bundles, the
 *       graph, the selection's partners; a filter's matches and the gaps
 *       axis, with the lanes and summaries made of them)
 *   void rnd_traffic_destroy(rnd_traffic *t)                      accepts NULL
 *   bool rnd_loading_draw(rnd_renderer *r, const rnd_loading *l, int w, int h, cs_err *err)
 *       the loading screen: file name, progress bar, MB read of the total
 *   void rnd_destroy(rnd_renderer *r)                          accepts NULL
 *   void rnd_view_defaults(const cs_model *m, rnd_view *out)   the whole trace, dark theme
 *   void rnd_view_inside(const cs_model *m, rnd_view *v)
 *       v's time window moved (its width kept) to lie inside m's trace, or
 *       the whole trace when it is wider: zoom, pan and playback paging
 *       never show time beyond the trace's ends
 *   bool rnd_frame_draw(rnd_renderer *r, const rnd_view *v, int w, int h, cs_err *err)
 *       rnd_frame_build, then rnd_frame_show
 *   bool rnd_frame_build(rnd_renderer *r, const rnd_view *v, int w, int h, cs_err *err)
 *       the frame laid out and its scene built, on the CPU (no GL): what it
 *       read of the model is not read again to show it
 *   bool rnd_frame_show(rnd_renderer *r, const rnd_view *v, int w, int h, cs_err *err)
 *       the frame built last, drawn into the bound framebuffer (v and w × h
 *       as given to rnd_frame_build)
 *   bool rnd_pick(rnd_renderer *r, const rnd_view *v, float x, float y, rnd_hit *out)
 *   const rnd_stats *rnd_last_stats(const rnd_renderer *r)     what the last frame drew
 *   bool rnd_pending(const rnd_renderer *r)   summaries made behind the frames (rnd_view.behind)
 *       and not shown yet: the frame after their wake-up shows them
 *   void rnd_zoom_at(const rnd_renderer *r, rnd_view *v, int w, int h, float x, float y, float k)
 *       tree and graph: the camera k times closer (k > 1) or farther, the
 *       point under pixel (x, y) of a w × h frame staying where it is
 * API — the tree view's last frame (one projection for all it draws)
 *   bool rnd_tree_point(const rnd_renderer *r, uint32_t g, int64_t t, float *x, float *y)
 *       where goroutine g's line is at time t, pixels; false when not drawn
 *   uint32_t rnd_tree_ticks(const rnd_renderer *r, int64_t *t, float *xy, uint32_t cap)
 *       the time axis's ticks: time and where each meets the axis line
 *   uint32_t rnd_tree_labels(const rnd_renderer *r, uint32_t *g, float *box, uint32_t cap)
 *       the goroutine labels drawn: goroutine and box (x0 y0 x1 y1 pixels)
 * API — images (no GL)
 *   bool rnd_png_write(const char *path, const uint8_t *rgba, int w, int h, cs_err *err)
 *       (opaque RGB)
 *   bool rnd_gif_open(rnd_gif *g, const rnd_gif_desc *d, cs_err *err)
 *       one palette for all frames: d->theme's colours exactly, then d->sample's commonest
 *   bool rnd_gif_frame(rnd_gif *g, const uint8_t *rgba, cs_err *err)
 *   bool rnd_gif_close(rnd_gif *g, cs_err *err)        commits the file; rnd_gif_abort on failure
 *   void rnd_gif_abort(rnd_gif *g)
 */
#ifndef RND_RENDER_H
#define RND_RENDER_H

#include "../core/file.h"
#include "../core/model.h"
#include "../layout/axis.h"

typedef struct rnd_surface rnd_surface;
typedef struct rnd_renderer rnd_renderer;
typedef struct rnd_traffic rnd_traffic;

typedef enum rnd_layout { RND_LANES = 0, RND_TREE, RND_GRAPH, RND_LAYOUT_COUNT } rnd_layout;
typedef enum rnd_theme { RND_DARK = 0, RND_LIGHT, RND_GOTRACE, RND_THEME_COUNT } rnd_theme;

/* What to emphasise; everything else is dimmed. */
typedef enum rnd_highlight {
    RND_HL_NONE = 0,
    RND_HL_CHAN,      /* channel traffic only */
    RND_HL_BLOCKED,   /* blocked spans */
    RND_HL_PARTNERS,  /* the selected goroutine and whom it talks to */
    RND_HL_SPAWNS,    /* spawn links */
    RND_HL_COUNT
} rnd_highlight;

/* One row of the key list overlay: the keys (or mouse gesture) and what they do. */
typedef struct rnd_key_row {
    const char *keys, *what;
} rnd_key_row;

/* Called from another thread when there is something new to draw. */
typedef void rnd_wake_fn(void *ud);

/* The camera, the clock and the emphasis: everything a frame depends on
 * besides the model. Zero means default where it can (rnd_view_defaults). */
typedef struct rnd_view {
    rnd_layout layout;
    rnd_theme theme;
    int64_t t0, t1;          /* visible time window (model times) */
    int64_t now;             /* playback position; CS_T_NONE shows everything */
    lay_axis_kind axis;      /* lanes and tree: time mapping (linear, log, gap-folding) */
    bool compact;            /* lanes: reuse a lane after its goroutine ends */
    bool collapse;           /* lanes: one lane per entry function */
    float scroll_px;         /* lanes: vertical pan, pixels */
    float lane_px;           /* lanes: lane height, 0 = fit the window (min 14) */
    float yaw, pitch, dist;  /* tree/graph: orbit camera (radians, distance factor) */
    float pan_x, pan_y;      /* tree/graph: pan in pixels */
    const char *engine;      /* graph: Graphviz layout (layout/graph.h), NULL = by the graph's shape */
    uint32_t selected;       /* goroutine index, 0 none */
    uint32_t hover;          /* goroutine index under the mouse, 0 none */
    rnd_highlight highlight;
    bool show_system;        /* draw runtime.* goroutines */
    bool hud;                /* viewer HUD (time, speed, fps) instead of export framing */
    bool rough;              /* segments' and arrowheads' edges not smoothed: a live view on
                              * software GL, where smoothing made the tree's frames 1.5x as long */
    bool help;               /* key list overlay */
    bool playing;
    bool quick;              /* lanes, while zoom or pan goes on: a moved window may stretch the
                              * summaries made for the one before instead of making them again */
    rnd_wake_fn *behind;     /* lanes, viewer: when set, a frame whose summaries are stale (quick
                              * or settled) draws those made before, as a quick one does, while a
                              * thread of their own makes them for its view (rnd_pending), then
                              * calls behind(behind_ud) from that thread; the next frame shows
                              * them if its view is the same, else starts another */
    void *behind_ud;
    bool loop;               /* playback loops inside [loop0, loop1] (viewer: '[' and ']') */
    int64_t loop0, loop1;
    double speed;            /* playback, trace ns per wall second (HUD) */
    double fps;              /* measured by the caller (HUD): frames drawn a second while
                                playing, what a frame's time allows while paused */
    char filter[64];         /* only goroutines whose function contains this */
    const char *title;       /* first line of the picture, NULL none */
    const char *status;      /* one line at the bottom of the HUD, NULL none */
    bool traffic_pending;    /* viewer: the model shown is the one before its channel traffic, which
                                is being found (the counts say so instead of "0 / 0" messages) */
    float status_fade;       /* 0 the status shows fully ... 1 it has faded out */
    const rnd_key_row *keys; /* the key list overlay ('help'): the viewer's bindings */
    uint32_t n_keys;
    float tip_x, tip_y;      /* mouse position for the tooltip, pixels */
} rnd_view;

/* What the loading screen shows while a trace decodes. */
typedef struct rnd_loading {
    rnd_theme theme;
    const char *name;        /* the file */
    const char *stage;       /* what is being done, e.g. "decoding" */
    uint64_t done_bytes, total_bytes;
    double t_s;              /* seconds since loading began: a full bar shimmers with it */
} rnd_loading;

/* What the mouse is over. */
typedef struct rnd_hit {
    uint32_t g;              /* goroutine index, 0 none */
    uint32_t span;           /* span index in the model, UINT32_MAX none */
    uint32_t arrow;          /* the arrow: its message + 1, or a sync wake-up's edge with the top
                                bit set; 0 none */
    int64_t t;               /* time under the mouse (lanes) */
} rnd_hit;

typedef struct rnd_stats {
    uint32_t segs, heads, dots, glyphs;  /* instances drawn */
    uint32_t lanes;                      /* goroutines shown */
    uint32_t rows;                       /* lanes view: lanes (rows) shown */
    uint32_t gaps;                       /* folded idle stretches marked */
    uint32_t msgs_shown, msgs_total;
    uint32_t g_total;
} rnd_stats;

bool rnd_surface_egl_create(int w, int h, rnd_surface **out, cs_err *err);
bool rnd_surface_glfw_create(const char *title, int w, int h, rnd_surface **out, cs_err *err);
void rnd_surface_begin(rnd_surface *s);
void rnd_surface_end(rnd_surface *s);
bool rnd_surface_read(rnd_surface *s, uint8_t *rgba, cs_err *err);
void rnd_surface_size(const rnd_surface *s, int *w, int *h);
bool rnd_surface_software(const rnd_surface *s);
void *rnd_surface_window(rnd_surface *s);
void rnd_surface_destroy(rnd_surface *s);

rnd_renderer *rnd_create(const cs_model *m, cs_err *err);
rnd_renderer *rnd_create_still(const cs_model *m, cs_err *err);
void rnd_destroy(rnd_renderer *r);
bool rnd_model_attach(rnd_renderer *r, const cs_model *m, cs_err *err);
rnd_traffic *rnd_traffic_create(const cs_model *m, cs_err *err);
void rnd_traffic_take(rnd_renderer *r, const cs_model *m, rnd_traffic *t);
void rnd_traffic_destroy(rnd_traffic *t);
bool rnd_loading_draw(rnd_renderer *r, const rnd_loading *l, int w, int h, cs_err *err);
void rnd_view_defaults(const cs_model *m, rnd_view *out);
void rnd_view_inside(const cs_model *m, rnd_view *v);
bool rnd_frame_draw(rnd_renderer *r, const rnd_view *v, int w, int h, cs_err *err);
bool rnd_frame_build(rnd_renderer *r, const rnd_view *v, int w, int h, cs_err *err);
bool rnd_frame_show(rnd_renderer *r, const rnd_view *v, int w, int h, cs_err *err);
bool rnd_pick(rnd_renderer *r, const rnd_view *v, float x, float y, rnd_hit *out);
const rnd_stats *rnd_last_stats(const rnd_renderer *r);
bool rnd_pending(const rnd_renderer *r);
void rnd_zoom_at(const rnd_renderer *r, rnd_view *v, int w, int h, float x, float y, float k);
bool rnd_tree_point(const rnd_renderer *r, uint32_t g, int64_t t, float *x, float *y);
uint32_t rnd_tree_ticks(const rnd_renderer *r, int64_t *t, float *xy, uint32_t cap);
uint32_t rnd_tree_labels(const rnd_renderer *r, uint32_t *g, float *box, uint32_t cap);

bool rnd_png_write(const char *path, const uint8_t *rgba, int w, int h, cs_err *err);

typedef struct rnd_gif_desc {
    const char *path;
    int w, h, delay_cs;
    rnd_theme theme;         /* its colours enter the palette exactly */
    const uint8_t *sample;   /* a w*h RGBA frame (e.g. the last) to take the other colours from; NULL none */
} rnd_gif_desc;

typedef struct rnd_gif {
    cs_out out;
    void *gif;               /* GifFileType * */
    int w, h, delay_cs;
    uint8_t *line;           /* one row of palette indices */
    uint8_t pal[256][3];
    int n_pal;
    uint32_t *cache_key;     /* exact colour (| 1 << 24) -> palette index, 0 empty */
    uint8_t *cache_idx;
    bool open;
} rnd_gif;

bool rnd_gif_open(rnd_gif *g, const rnd_gif_desc *d, cs_err *err);
bool rnd_gif_frame(rnd_gif *g, const uint8_t *rgba, cs_err *err);
bool rnd_gif_close(rnd_gif *g, cs_err *err);
void rnd_gif_abort(rnd_gif *g);

#endif
