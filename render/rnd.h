/* render/rnd.h — what the files of render/ share (rnd__ names): the surface
 * vtable, GL programs and buffers, the CPU-side scene of instanced marks that
 * the view builders fill and frame.c uploads, the font, and the theme.
 *
 * A frame is built on the CPU as plain arrays (scene), bounded by the screen
 * (level of detail happens while building), then uploaded and drawn with one
 * instanced call per kind. Builders never call GL.
 */
#ifndef RND_RND_H
#define RND_RND_H

#include "render.h"
#include "../layout/axis.h"
#include "../layout/graph.h"
#include "../layout/lod.h"
#include "../layout/palette.h"

#include <GL/glew.h>
#include <pthread.h>
#include <stb/stb_truetype.h>
#include <stdatomic.h>

struct rnd_surface {
    int w, h;
    bool software;           /* rasterized on the CPU (Mesa's llvmpipe, softpipe, swrast) */
    void (*begin)(rnd_surface *s);
    void (*end)(rnd_surface *s);
    bool (*read)(rnd_surface *s, uint8_t *rgba, cs_err *err);
    void (*destroy)(rnd_surface *s);
    void *window;            /* GLFWwindow * for the window backend */
};

/* Keeps every loaded *_dri.so mapped until exit, so LeakSanitizer can still
 * attribute Mesa's allocations (headless-gl.md, "Sanitizers"). */
void rnd__pin_dri(void);
void rnd__read_flip(uint8_t *rgba, int w, int h); /* bottom-up rows -> top-down */
/* glewInit, accepting GLEW_ERROR_NO_GLX_DISPLAY under pure EGL. */
bool rnd__glew(cs_err *err);

/* One instanced mark: a segment a→b w px wide, an arrowhead at b, or a disc
 * at a of radius w. 32 bytes, uploaded as is. */
typedef struct rnd__mark {
    float a[3], b[3];
    float w;
    uint8_t rgba[4];
} rnd__mark;
_Static_assert(sizeof(rnd__mark) == 32, "rnd__mark layout");

typedef struct rnd__glyph {
    float rect[4];           /* x0 y0 x1 y1 pixels, origin top left */
    float uv[4];
    uint8_t rgba[4];
} rnd__glyph;

typedef struct rnd__marks {
    rnd__mark *v;
    uint32_t n, cap;
} rnd__marks;

enum { RND__SEGS, RND__HEADS, RND__DOTS, RND__UI_SEGS, RND__NKIND };

typedef struct rnd__scene {
    rnd__marks k[RND__NKIND]; /* world kinds use mvp; UI kinds screen pixels */
    rnd__glyph *gl;
    uint32_t n_gl, cap_gl;
    float mvp[16];            /* world → clip */
    float clip[4];            /* world kinds: scissor x0 y0 x1 y1 in pixels, all 0 = none */
    /* an RGBA image under the world kinds (dense lanes), NULL none */
    const uint8_t *img;
    int img_w, img_h;
    bool img_new;             /* pixels changed since the last upload */
    rnd__glyph img_quad;      /* where it goes, pixels, and which part of it */
    bool oom;                 /* an append failed; the frame reports it */
    /* pop-ups (tooltip, key list): UI marks and glyphs from these indices on
     * are drawn after all the others, so no label shows through them */
    uint32_t top_ui, top_gl;
} rnd__scene;

void rnd__scene_reset(rnd__scene *s);
/* What is added from now on is drawn on top of everything added before. */
void rnd__scene_top(rnd__scene *s);
/* Moves the marks of kind from index first on under all the others (they
 * are drawn first, in their order). */
void rnd__scene_back(rnd__scene *s, int kind, uint32_t first);
/* Pixel projection: x right, y down, origin at the top left. */
void rnd__ortho_px(float *mvp, int w, int h);
void rnd__scene_free(rnd__scene *s);
void rnd__seg(rnd__scene *s, int kind, float ax, float ay, float az, float bx, float by,
              float bz, float w, uint32_t rgba);
/* Screen-pixel conveniences for the UI layer. */
void rnd__rect(rnd__scene *s, float x0, float y0, float x1, float y1, uint32_t rgba);
void rnd__line(rnd__scene *s, float x0, float y0, float x1, float y1, float w, uint32_t rgba);

/* Fonts: DejaVu Sans packed at a few sizes into one GL_R8 atlas. */
enum { RND__F11, RND__F12, RND__F14, RND__F16, RND__F18, RND__F20, RND__F22, RND__F24, RND__NFONT };
typedef struct rnd__font {
    GLuint tex;              /* 0 until rnd__font_upload */
    uint8_t *pixels;         /* the atlas until then */
    int *cp;                 /* codepoints packed: printable ASCII, then the others ascending */
    int n_cp;
    uint8_t *seen;           /* a bit per character of the BMP looked at beyond ASCII, packed or not */
    stbtt_packedchar *pc[RND__NFONT]; /* n_cp each */
    float ascent[RND__NFONT];
    int atlas_w, atlas_h;
} rnd__font;

/* packs the atlas (no GL): ASCII, the symbols chanscope prints, and the
 * characters of m's strings the font has (m may be NULL) */
bool rnd__font_init(rnd__font *f, const cs_model *m, cs_err *err);
/* whether f draws every character of m's strings that the font has */
bool rnd__font_covers(const rnd__font *f, const cs_model *m);
/* frees what rnd__font_init made, but the texture */
void rnd__font_drop(rnd__font *f);
/* next packed for m when cur lacks characters of m's strings the font has
 * (the renderer's next frame puts it in place); false if packing fails */
bool rnd__font_follow(const rnd__font *cur, rnd__font *next, const cs_model *m, cs_err *err);
/* f becomes next (packed by rnd__font_follow), keeping f's texture, which
 * the next rnd__font_upload fills; next is left empty */
void rnd__font_take(rnd__font *f, rnd__font *next);
bool rnd__font_upload(rnd__font *f, cs_err *err); /* the atlas as a texture (a current context) */
void rnd__font_deinit(rnd__font *f);
float rnd__text_width(const rnd__font *f, int size, const char *utf8);
/* Draws text with its baseline at y; returns the advance. */
float rnd__text(rnd__scene *s, const rnd__font *f, int size, float x, float y, uint32_t rgba,
                const char *utf8);

/* Colours (0xRRGGBBAA) from layout/palette.h. */
typedef struct rnd__theme {
    uint32_t bg, fg, fg_dim, life, grid, panel;
    uint32_t mark[LAY_MARK_COUNT];   /* by lay_mark */
    uint32_t gc, spawn, sync, pulse, select;
    uint32_t hue[LAY_CHAN_HUES];     /* channel arrows */
} rnd__theme;

const rnd__theme *rnd__theme_get(rnd_theme t);
uint32_t rnd__dim(uint32_t rgba, float k, uint32_t bg);
uint32_t rnd__alpha(uint32_t rgba, float a);
/* rgba's colour blended over the opaque bg by its alpha: an opaque colour. */
uint32_t rnd__mix_over(uint32_t rgba, uint32_t bg);

/* Per message of the playback order, the message by which its receiver
 * next sends (the ball hit back), as its distance ahead in 16 bits: 0
 * none, RND__NEXT_FAR one 65,535 messages on or more, whose next send is
 * in `far` (message, next send), by message from the last. Most are a
 * few messages ahead, so 2 bytes a message hold them. */
#define RND__NEXT_FAR UINT16_MAX
typedef struct rnd__next {
    uint16_t *d;             /* NULL while not built */
    uint32_t (*far)[2];
    uint32_t n_far;
} rnd__next;

/* An arrow of the picture: a message of the model, or a sync wake-up
 * (layout/arrow.h decides which). Its end and channel are its message's
 * (rnd__arrow_t1, rnd__arrow_chan). It is known by its reference (message
 * + 1, or RND__REF_SYNC with a sync wake-up's edge; 0 none) and
 * rnd__arrow_get makes it whole. */
typedef struct rnd__arrow {
    int64_t t0;
    int64_t t_next;          /* when the receiver next sends (the ball is hit back) */
    uint32_t from, to;       /* goroutine indices */
    uint32_t msg;            /* message index + 1, 0 for a wake-up */
    uint8_t kind;            /* lay_arrow_kind: CHAN, CLOSE or SYNC (a wake-up) */
    uint8_t pad[3];
} rnd__arrow;

#define RND__REF_SYNC 0x80000000u

/* A place in the arrows' playback order (place.c): by time, the messages in
 * the model's order (by cs_msg_t, an arrow's send), the sync wake-ups by
 * (time, waker) after the messages of their time. It is the number of
 * messages and of sync wake-ups before it. */
typedef struct rnd__apos { uint32_t msg, sync; } rnd__apos;

/* When the arrow lands (a wake-up: at once) and its channel (hue key). */
static inline int64_t rnd__arrow_t1(const cs_model *m, const rnd__arrow *a)
{
    return a->msg ? cs_msg_t_recv(m, a->msg - 1) : a->t0;
}
static inline uint32_t rnd__arrow_chan(const cs_model *m, const rnd__arrow *a)
{
    return a->msg ? cs_msg_chan(m, a->msg - 1) : 0;
}

typedef struct rnd__gl {
    GLuint prog[5];          /* seg, head, dot, text, image */
    GLuint img_tex;
    GLint mvp[3], vp[3], fringe[2], text_proj; /* fringe: seg and head programs' */
    GLuint vao_mark, vbo_mark, vao_glyph, vbo_glyph;
} rnd__gl;

bool rnd__gl_init(rnd__gl *g, cs_err *err);
void rnd__gl_deinit(rnd__gl *g);
void rnd__gl_draw(rnd__gl *g, const rnd__scene *s, GLuint font_tex, int w, int h, bool smooth);

/* The lanes view's marks for the whole window, kept while only the
 * playback time changes: a frame then clips them at "now" instead of walking
 * the model again (lanes.c). */
typedef struct rnd__lane_cache {
    bool valid;
    rnd_view key;            /* the view with the per-frame fields zeroed */
    int w, h;
    rnd__marks segs, heads;  /* bands, life lines, span bars, spawn links */
    uint8_t *img;            /* dense lanes painted per pixel (RGBA), or unused */
    size_t img_cap;
    int img_w, img_h;
    bool dense;              /* lanes thinner than a few pixels: painted into img */
    uint8_t *lane_lit;       /* per lane: kept bright by the highlight */
    uint32_t cap_lit;
} rnd__lane_cache;

/* The graph view's layout (layout/graph.h) for the area it was made for,
 * remade when the area changes by more than a little or system goroutines
 * are switched; the label rectangles for the last scale drawn. */
typedef struct rnd__graph {
    lay_graph g;
    bool have, show_system;
    const char *engine;      /* asked for (rnd_view.engine) */
    float w, h;              /* area laid out for, px */
    lay_grect *rect;
    uint32_t n_rect;
    double rect_scale;
} rnd__graph;

/* The layout/ structures the lanes and tree views draw from (lay.c), each
 * rebuilt only when what it depends on changes. */
typedef struct rnd__lay_key {
    bool compact, collapse, show_system, one_per_g;
    uint32_t keep;
    char filter[64];
} rnd__lay_key;

typedef struct rnd__lod_key { uint32_t lane0, lane1, cols; } rnd__lod_key;
typedef struct rnd__bun_key { uint32_t arrow_cols, max_bundles; } rnd__bun_key;

typedef struct rnd__axis_key {
    lay_axis_kind kind;
    int64_t t0, t1;
} rnd__axis_key;

/* The most lanes the lanes view lays out (layout/lanes.h max_lanes): more
 * goroutines reuse lanes, or are collapsed by function. Its summaries are
 * a byte per lane and pixel column, and a picture is 1,000 pixels tall. */
#define RND__MAX_LANES 4096u

/* A view's summaries made on a thread of their own (rnd_view.behind): what
 * they are for, and, once done, them. */
typedef struct rnd__lod_job {
    pthread_t th;
    bool running;            /* th to join */
    atomic_bool done;
    const cs_model *m;
    const lay_lanes *lanes;
    uint32_t gen;            /* of the lanes (rnd__lay.gen) */
    rnd__lod_key lkey;
    rnd__bun_key bkey;
    rnd__axis_key akey;
    bool arrows;             /* bun made too: else the lanes moved only, and the bundles stay */
    rnd_wake_fn *wake;       /* called when done */
    void *wake_ud;
    lay_axis axis;
    lay_lod lod;
    lay_bundles bun;
    bool ok;
    cs_err err;
} rnd__lod_job;

typedef struct rnd__lay {
    bool have, have_lod, have_bun;
    bool moved;              /* the window moved since lod and bun were made: they were made with
                              * lod_axis, and only a quick frame draws them (stretched) */
    bool axis_rough;         /* axis folds lod_axis' idle stretches (a quick frame on the gaps
                              * axis): made again from the model once the view settles */
    uint32_t gen;            /* lanes made so far: which lanes what is derived from them is of */
    rnd__lay_key key;        /* what lanes were made for, */
    rnd__axis_key akey;      /* and axis */
    rnd__lod_key lkey;       /* what lod was made for, */
    rnd__bun_key bkey;       /* and bun, with the same axis and lanes */
    lay_axis axis;
    lay_axis lod_axis;       /* when moved */
    lay_lanes lanes;
    lay_lod lod;             /* dominant mark per (lane, column) */
    lay_bundles bun;         /* arrows bundled per (kind, lanes, column), by t0 */
    uint64_t *rep;           /* per message, a bit: it is a bundle's first arrow */
    cs_err err;              /* the last failure, reported by the frame */
    rnd__lod_job job;        /* lod and bun in the making (rnd_view.behind) */
} rnd__lay;

/* The tree view's last frame (tree.c): its one projection, and what it put
 * on screen from it (axis ticks, label boxes), for tests and the zoom. */
enum { RND__TREE_TICKS = 32, RND__TREE_LABELS = 512 };

typedef struct rnd__tree_tick {
    int64_t t;
    float x, y;              /* where the axis line meets the tick, pixels */
    float box[4];            /* its label's box: goroutine labels keep off it */
} rnd__tree_tick;

typedef struct rnd__tree_label {
    uint32_t g;
    float box[4];            /* x0 y0 x1 y1 pixels */
} rnd__tree_label;

typedef struct rnd__tree_frame {
    bool have;
    float mvp[16];           /* world → clip */
    int w, h;
    float scale;             /* placement units → world */
    float s;                 /* pixels per world unit */
    float cx, cy;            /* the area's centre, pixels (before the pan) */
    float ox, oz;            /* the orbit's centre on the ground, world */
    float right[2], fwd[2];  /* the camera's horizontal right and towards-the-camera (x, z) */
    rnd__tree_tick ticks[RND__TREE_TICKS];
    uint32_t n_ticks;
    rnd__tree_label labels[RND__TREE_LABELS];
    uint32_t n_labels;
} rnd__tree_frame;

/* What a picture has, for its legend (rnd_renderer.present, the arrows'
 * in rnd_traffic.present): a bit per lay_mark, then these. */
#define RND__PRESENT_MSGS (1u << (LAY_MARK_COUNT + 1))   /* channel messages */
#define RND__PRESENT_SPAWNS (1u << (LAY_MARK_COUNT + 2)) /* goroutines made while tracing */
#define RND__PRESENT_GC (1u << (LAY_MARK_COUNT + 3))     /* GC or stop-the-world ranges */
#define RND__PRESENT_SYNC (1u << (LAY_MARK_COUNT + 4))   /* sync wake-ups */
#define RND__PRESENT_ARROWS (RND__PRESENT_MSGS | RND__PRESENT_SYNC)

/* What a renderer draws of its model's channel traffic (traffic.c), made
 * from the model alone: the playback table (what walks the arrows in time
 * order for pulses and picking needs besides the model), the channels'
 * hues, and which kinds of arrow there are. */
struct rnd_traffic {
    /* the playback table, NULL while not built (a still picture's, until it
     * plays): per message, the message by which its receiver next sends in
     * the playback order (the ball hit back); the sync wake-ups' edges in
     * that order */
    rnd__next next;
    uint32_t *sync;
    uint32_t n_sync;
    uint8_t *hue;            /* per channel: index into the palette's channel hues */
    uint32_t present;        /* the arrows' legend bits (RND__PRESENT_ARROWS) */
    uint32_t first_chan;     /* channel of the earliest arrow (the legend's one swatch) */
};

struct rnd_renderer {
    const cs_model *m;
    rnd__gl gl;              /* set up on the first frame shown (gl_ready) */
    bool gl_ready;
    rnd__font font;
    rnd__font font_next;     /* packed for a model with characters font lacks (rnd_model_attach, any
                                thread), put in place by the next rnd_frame_build, uploaded when shown */
    rnd__scene sc;
    rnd_stats stats;
    rnd_hit hit;             /* last rnd_pick result, for the tooltip */
    rnd__lane_cache lc;
    rnd__lay lay;
    uint32_t *order;         /* goroutines in lane order (parents above children) */
    uint32_t n_order;
    uint32_t *label_order;   /* the same goroutines, biggest subtree first (tree labels) */
    int32_t *row;            /* per goroutine: its row in the current frame, -1 hidden */
    bool row_lanes;          /* row holds lay.lanes' lanes (not the graph's nodes) */
    float *tree_xz;          /* per goroutine: 3D tree position (x, z), its line's (place.c) */
    uint32_t tree_gen;       /* over shared lines (lines): those of the lanes lay.gen was then */
    uint32_t *lines;         /* shared lines: their goroutines in lane order, then n_lines more in
                                label order (a frame walks these, not every goroutine); else NULL:
                                tree_xz is every goroutine's own */
    uint32_t n_lines;
    int64_t *line_t0;        /* shared lines: per lane, its first goroutine's creation */
    rnd__tree_frame tree;    /* the last tree frame */
    rnd__graph graph;        /* the graph view's layout, made on its first frame */
    rnd_traffic tr;          /* what it draws of its model's traffic; tr.next.d NULL while the
                                playback table is not built */
    float *scr;              /* per goroutine: its mark on screen in the last tree/graph
                              * frame as x0 y0 x1 y1 pixels; x0 < 0 when hidden; NULL
                              * before the first such frame (rnd__marks_place) */
    uint8_t *lit;            /* per goroutine: partner of the selection */
    uint32_t lit_for;        /* selection lit[] was computed for */
    uint8_t *filt;           /* per goroutine: lay_filter_build for filt_for, NULL no filter */
    char filt_for[64];
    uint32_t present;        /* a bit per lay_mark, RND__PRESENT_SPAWNS and _GC (the arrows' are
                                tr.present) */
    /* geometry of the last lanes frame, for picking */
    float plot_x0, plot_x1, plot_y0, lane_h;
    float legend_y;          /* export legend baseline chosen by the view, 0 = bottom */
    int legend_rows;         /* rows the legend wraps into at this frame's width */
    bool legend_chans;       /* the legend names the channels (room for them) */
    const uint32_t *legend_shown; /* per channel, its messages in this frame's window between the
                                     goroutines shown (its bundles'), NULL: all (no bundles) */
    int64_t vt0, vt1;
    int frame_w;             /* width of the frame being built (legend wrapping) */
    float arrow_fade;        /* 1, or lay_arrow_fade: arrows behind the bars, headless, this faint */
};

/* Placement from layout/ (place.c): what every view needs, made with the
 * model; the tree's, made on its first frame for the lanes it draws (r->tree_xz
 * NULL till then), and again when they share lines and are made anew. */
bool rnd__place(rnd_renderer *r, cs_err *err);
bool rnd__tree_place(rnd_renderer *r, cs_err *err);
/* r->scr, made on the first tree or graph frame (the lanes view has none). */
bool rnd__marks_place(rnd_renderer *r, cs_err *err);
/* Lays the graph out for view v in a w × h window, unless the layout at
 * hand was made for about that size (graph.c says which area). */
bool rnd__graph_place(rnd_renderer *r, const rnd_view *v, int w, int h, cs_err *err);
void rnd__graph_deinit(rnd__graph *g);
/* The graph's area in a w × h window: x0 y0 x1 y1 pixels. */
void rnd__graph_area(const rnd_renderer *r, const rnd_view *v, int w, int h, float *area);
/* The traffic of m into *t (zeroed first), with its playback table when
 * `table`; on failure what *t holds is for rnd__traffic_deinit. */
bool rnd__traffic_build(const cs_model *m, bool table, rnd_traffic *t, cs_err *err);
void rnd__traffic_deinit(rnd_traffic *t);
/* r shows m with traffic *t, which then holds r's traffic before. */
void rnd__traffic_install(rnd_renderer *r, const cs_model *m, rnd_traffic *t);
/* The playback table of m into t->next, sync, n_sync (place.c): 2
 * bytes a message (and 8 a far one), 4 a sync wake-up. A still picture goes without
 * (rnd_create_still): its first frame with a playback time builds it
 * (rnd__traffic_table). */
bool rnd__arrows_build(const cs_model *m, rnd_traffic *t, cs_err *err);
bool rnd__traffic_table(rnd_renderer *r, cs_err *err);
/* The arrow of reference ref, whole (t_next from the playback table, else
 * unknown); false: ref is none of r's model's arrows. */
bool rnd__arrow_get(const rnd_renderer *r, uint32_t ref, rnd__arrow *out);
/* The place of the first arrow sent at t or later; the place after them all. */
rnd__apos rnd__arrow_lower(const rnd_renderer *r, int64_t t);
rnd__apos rnd__arrow_end(const rnd_renderer *r);
/* The reference of the message or sync wake-up just before *p, which moves
 * back over it; 0 at the start. A message may draw no arrow (rnd__arrow_get
 * says): a walk that bounds its steps counts it too. */
uint32_t rnd__arrow_prev(const rnd_renderer *r, rnd__apos *p);
/* Is message i the first arrow of one of the frame's bundles? */
static inline bool rnd__arrow_rep(const rnd_renderer *r, uint32_t i)
{
    return (r->lay.rep[i >> 6] >> (i & 63)) & 1;
}
/* Message i / wake-up edge i as an arrow (t_next unknown: INT64_MAX);
 * false: it is none. */
bool rnd__msg_arrow(const cs_model *m, uint32_t i, rnd__arrow *out);
bool rnd__edge_arrow(const cs_model *m, uint32_t i, rnd__arrow *out);
/* Draws arrow a from A to B (world coordinates of the current mvp): shaft
 * and head, or while in flight at v->now the shaft up to a moving pulse.
 * With an axis (A at a->t0, B at a->t1 along it) the pulse sits where the
 * axis puts its time; NULL = time proportional to the distance. */
void rnd__arrow_draw(rnd_renderer *r, const rnd_view *v, const rnd__arrow *a, const float *A,
                     const float *B, float head_px, const lay_axis *ax);
/* Is a's pulse on its way at v->now? */
bool rnd__arrow_flying(const cs_model *m, const rnd_view *v, const rnd__arrow *a);
/* How far along its way a's pulse is at v->now, 0..1 (when flying). */
float rnd__arrow_progress(const cs_model *m, const rnd_view *v, const rnd__arrow *a);
/* Where a view draws arrow a (A at the send, B at the receive); false = not shown. */
typedef bool rnd__ends_fn(const void *ctx, const rnd__arrow *a, float *A, float *B);
/* The pulses of messages in flight at v->now that are not the first arrow
 * of a bundle (r->lay.rep), newest first, at most a few hundred. */
void rnd__arrows_flying(rnd_renderer *r, const rnd_view *v, rnd__ends_fn *ends, const void *ctx,
                        float head_px, const lay_axis *ax);
/* Pick in the tree and graph views: the goroutine whose mark is nearest. */
void rnd__point_pick(const rnd_renderer *r, const rnd_view *v, float x, float y, rnd_hit *out);

/* Recomputes filt[] when the filter changed; false on out of memory. */
bool rnd__filter_update(rnd_renderer *r, const rnd_view *v, cs_err *err);
/* Is goroutine gi drawn under v (system, filter and its partners)? */
bool rnd__g_visible(const rnd_renderer *r, const rnd_view *v, uint32_t gi);
/* Recomputes lit[] when the selection changed. */
void rnd__lit_update(rnd_renderer *r, const rnd_view *v);
/* Does the highlight mode keep goroutine gi bright? Partners kept by the
 * filter never are, nor (rnd__arrow_lit) their messages. */
bool rnd__g_lit(const rnd_renderer *r, const rnd_view *v, uint32_t gi);
bool rnd__arrow_lit(const rnd_renderer *r, const rnd_view *v, const rnd__arrow *a);
const char *rnd__g_label(const rnd_renderer *r, uint32_t gi, char *buf, size_t n);

/* lay.c: the axis and lanes for v (one lane per goroutine when one_per_g,
 * else v's compact/collapse; either way at most RND__MAX_LANES, more
 * goroutines sharing them), then r->row[g] = its lane or -1. False on
 * failure (r->lay.err says why; the structures are gone). */
bool rnd__lay_lanes(rnd_renderer *r, const rnd_view *v, bool one_per_g);
/* Span summaries for lanes [lane0, lane1) in cols columns and the arrows
 * bundled in arrow_cols columns (at most max_bundles), whose messages the
 * legend then counts (r->legend_shown). With quick, those made for the
 * window before stay when only the window moved (r->lay.moved then stays
 * true: the caller draws them through r->lay.lod_axis). With v->behind
 * set, stale ones are drawn so too, quick or not, while a thread makes the
 * new ones (rnd_view.behind). */
bool rnd__lay_lod(rnd_renderer *r, uint32_t lane0, uint32_t lane1, uint32_t cols, uint32_t arrow_cols,
                  uint32_t max_bundles, bool quick, const rnd_view *v);
void rnd__lay_deinit(rnd__lay *l);
/* The bundles of arrows go (the arrows changed): the next frame makes them again. */
void rnd__lay_arrows_drop(rnd__lay *l);
/* The arrow a bundle stands for (its first one): false for spawns. */
bool rnd__bundle_arrow(const rnd_renderer *r, const lay_bundle *b, rnd__arrow *out);

/* View builders: fill r->sc for one frame. */
void rnd__lanes_build(rnd_renderer *r, const rnd_view *v, int w, int h);
void rnd__tree_build(rnd_renderer *r, const rnd_view *v, int w, int h);
void rnd__graph_build(rnd_renderer *r, const rnd_view *v, int w, int h);
/* The tree's area in a w × h frame (between the header and the legend):
 * x0 y0 x1 y1 pixels; the scene is fitted into it. */
void rnd__tree_area(const rnd_renderer *r, const rnd_view *v, int w, int h, float *area);
void rnd__lanes_pick(const rnd_renderer *r, const rnd_view *v, float x, float y, rnd_hit *out);
uint32_t rnd__arrow_color(const rnd_renderer *r, const rnd__theme *th, const rnd__arrow *a);
/* Clears to the theme's background and draws r->sc (frame.c); fails on an
 * append that ran out of memory or a GL error. */
bool rnd__frame_submit(rnd_renderer *r, const rnd__theme *th, int w, int h, bool smooth, cs_err *err);
/* Whether the current context's renderer rasterizes on the CPU. */
bool rnd__software_gl(void);
/* Title, legend, HUD, help, tooltip: screen-space, after the view. */
void rnd__overlay_build(rnd_renderer *r, const rnd_view *v, int w, int h);
/* Rows the legend takes at r->frame_w (measured before the view is built,
 * so the view leaves room for it); the channels are named only when the
 * legend then stays within a fifth of the height h (r->legend_chans). */
int rnd__legend_rows(rnd_renderer *r, const rnd_view *v, int h);
/* Pixels the legend's rows past its first take: every view's plot ends
 * that much higher. */
float rnd__legend_extra(const rnd_renderer *r);
void rnd__tooltip(rnd_renderer *r, const rnd_view *v, const rnd__theme *th, int w, int h);
/* Time axis ax in [x0, x1] at baseline y: layout/axis.h ticks labelled
 * from the trace start, and under each folded gap its real length. The
 * grid lines across the plot are the view's (under its marks). */
void rnd__axis(rnd_renderer *r, const rnd_view *v, const lay_axis *ax, float x0, float x1, float y);
/* "1.5 ms", "20 µs": a duration in the unit that fits. */
void rnd__fmt_dur(char *buf, size_t n, double ns);

#endif
