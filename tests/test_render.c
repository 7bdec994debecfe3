/* tests/test_render.c — the renderer offscreen through EGL: pictures have
 * the requested size and more than background in them, state colours and
 * arrows are where the model puts them, playback changes the picture, every
 * layout draws, level of detail bounds a huge model's primitives, the GIF
 * writer makes a file giflib reads back, one picture matches a checked-in
 * reference within a tolerance, and the viewer's loading screen (no model)
 * fills its bar in proportion to the bytes read; arrows never hide a lane
 * and grid lines run under the bars; GIF frames keep the state colours;
 * pictures are opaque; edges are antialiased without multisampling; the viewer's
 * time window stays inside the trace; every theme tells its states apart; the message
 * total is the model's and exact values are printed; the tree's lines,
 * axis and labels share one projection at every camera pose, its labels
 * never meet and the wheel zooms at the pointer; a renderer of a model
 * before its traffic that takes the traffic draws as one of the whole
 * model; while zoom, pan or scroll go on the lanes stretch the summaries
 * made before, and a settled view of the viewer gets its own made behind
 * the frames, then drawn as a new renderer draws them. Models are built with
 * core/build.h (a synthetic ping-pong) and, when the decoders read them,
 * corpus traces.
 * Pictures are left in build/test-out/ for looking at. Skips when EGL has
 * no surfaceless display. */
#include "testlib.h"

#include "../core/build.h"
#include "../layout/palette.h"
#include "../render/render.h"
#include "../render/rnd.h" /* the scene a frame built: label boxes */
#include "synth.h"

#include <gif_lib.h>
#include <math.h>
#include <stb/stb_image.h>
#include <sys/stat.h>

#define OUT "build/test-out"

/* Two players hitting a ball back and forth: main (G1) starts G2 and G3;
 * each round the holder runs, sends on the table channel (the other one was
 * blocked receiving) and blocks receiving. `rounds` hand-offs in all. */
static void pingpong(cs_model *m, int rounds)
{
    cs_mb mb;
    cs_err err = {0};
    cs_model_init(m);
    assert_true(cs_mb_init(&mb, m, &err));
    cs_sid fmain = cs_model_intern(m, "main.main", 9, &err);
    cs_sid fplay = cs_model_intern(m, "main.player", 11, &err);
    const char *tname = "table: main.player:23 \xE2\x86\x92 main.player:18";
    cs_sid table = cs_model_intern(m, tname, strlen(tname), &err);
    assert_true(cs_mb_create(&mb, &(cs_mb_create_desc){.t = 0, .goid = 1, .parent_goid = CS_NO_GOID,
                                                       .name = fmain, .state = CS_ST_RUNNING,
                                                       .at_start = true}, &err));
    for (uint64_t g = 2; g <= 3; g++) {
        int64_t t = 1000 + 500 * (int64_t)(g - 2);
        assert_true(cs_mb_create(&mb, &(cs_mb_create_desc){.t = t, .goid = g, .parent_goid = 1, .name = fplay}, &err));
        assert_true(cs_mb_set(&mb, t + 200, g, CS_ST_RUNNING, CS_R_NONE, 0, 0, &err));
        assert_true(cs_mb_set(&mb, t + 300, g, CS_ST_BLOCKED, CS_R_CHAN_RECV, 0, 0, &err));
    }
    assert_true(cs_mb_set(&mb, 2500, 1, CS_ST_BLOCKED, CS_R_SLEEP, 0, 0, &err));
    assert_true(cs_grow((void **)&m->chans, &m->cap_chans, 2, sizeof *m->chans, &err));
    m->chans[1] = (cs_chan){.name = table, .count = (uint32_t)rounds};
    m->n_chans = 2;
    int64_t t = 3000;
    for (int i = 0; i < rounds; i++) {
        uint64_t from = 2 + (uint64_t)(i % 2), to = 5 - from;
        assert_true(cs_mb_set(&mb, t, from, CS_ST_RUNNING, CS_R_NONE, 0, 0, &err));
        assert_true(cs_mb_unblock(&mb, t + 800, from, to, 0, &err));
        assert_true(cs_mb_set(&mb, t + 900, from, CS_ST_BLOCKED, CS_R_CHAN_RECV, 0, 0, &err));
        uint32_t gf, gt;
        assert_true(cs_model_g_find(m, from, &gf) && cs_model_g_find(m, to, &gt));
        assert_true(cs_model_msg_add(m, &(cs_msg_in){.t_send = t + 800, .t_recv = t + 800, .sender = gf,
                                                     .receiver = gt, .chan = 1, .kind = CS_MK_SEND}, 0, &err));
        t += 1200;
    }
    assert_true(cs_mb_finish(&mb, t + 500, &err));
    cs_mb_deinit(&mb);
    m->t_first = 0, m->t_last = t + 500, m->version = 1025, m->family = CS_FAM_V2;
}

typedef struct gl_env {
    rnd_surface *s;
    rnd_renderer *r;
    uint8_t *rgba;
    int w, h;
} gl_env;

/* A w×h offscreen surface and a renderer of m; with no EGL the test is
 * skipped, m freed (and the mapping f, when given, unmapped). */
static void env_open(gl_env *e, cs_model *m, cs_file *f, int w, int h)
{
    cs_err err = {0};
    memset(e, 0, sizeof *e);
    e->w = w, e->h = h;
    if (!rnd_surface_egl_create(w, h, &e->s, &err)) {
        print_message("no EGL: %s\n", err.msg);
        if (m)
            cs_model_deinit(m);
        if (f)
            cs_file_unmap(f);
        skip();
    }
    e->r = rnd_create(m, &err);
    if (!e->r)
        print_message("rnd_create: %s\n", err.msg);
    assert_non_null(e->r);
    e->rgba = cs_alloc((size_t)w * h * 4);
    assert_non_null(e->rgba);
}

static void env_close(gl_env *e)
{
    rnd_destroy(e->r);
    rnd_surface_destroy(e->s);
    cs_free(e->rgba);
}

static void draw(gl_env *e, const rnd_view *v)
{
    cs_err err = {0};
    rnd_surface_begin(e->s);
    bool ok = rnd_frame_draw(e->r, v, e->w, e->h, &err);
    if (!ok)
        print_message("rnd_frame_draw: %s\n", err.msg);
    assert_true(ok);
    rnd_surface_end(e->s);
    assert_true(rnd_surface_read(e->s, e->rgba, &err));
}

/* Pixels within `tol` of colour 0xRRGGBB. */
static size_t count_color(const uint8_t *p, size_t n, uint32_t rgb, int tol)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++, p += 4)
        c += abs(p[0] - (int)(rgb >> 16)) <= tol && abs(p[1] - (int)((rgb >> 8) & 255)) <= tol &&
             abs(p[2] - (int)(rgb & 255)) <= tol;
    return c;
}

static size_t count_diff(const uint8_t *a, const uint8_t *b, size_t n, int tol)
{
    size_t c = 0;
    for (size_t i = 0; i < n * 4; i++)
        c += abs(a[i] - b[i]) > tol;
    return c;
}

static void save(const gl_env *e, const char *name)
{
    char path[256];
    cs_err err = {0};
    mkdir("build", 0755);
    mkdir(OUT, 0755);
    snprintf(path, sizeof path, OUT "/%s", name);
    assert_true(rnd_png_write(path, e->rgba, e->w, e->h, &err));
}

static void png_has_size_state_colours_and_arrows(void **st)
{
    (void)st;
    cs_model m;
    pingpong(&m, 12);
    gl_env e;
    env_open(&e, &m, NULL, 800, 450);
    rnd_view v;
    rnd_view_defaults(&m, &v);
    v.title = "pingpong (synthetic)";
    draw(&e, &v);
    save(&e, "pingpong-lanes.png");
    /* the PNG decodes at the requested size */
    int w, h, ch;
    uint8_t *img = stbi_load(OUT "/pingpong-lanes.png", &w, &h, &ch, 4);
    assert_non_null(img);
    assert_int_equal(w, 800);
    assert_int_equal(h, 450);
    size_t n = (size_t)w * h;
    size_t bg = count_color(img, n, 0x16181d, 2);
    size_t running = count_color(img, n, 0x56b4e9, 40);
    size_t blocked = count_color(img, n, 0xe69f00, 40);
    print_message("background %zu, running %zu, blocked-on-channel %zu of %zu\n", bg, running, blocked, n);
    assert_true(bg < n * 95 / 100);
    assert_true(running > 2000);
    assert_true(blocked > 2000);
    const rnd_stats *s = rnd_last_stats(e.r);
    assert_int_equal(s->msgs_shown, 12);
    assert_int_equal(s->heads >= 12, 1);
    assert_int_equal(s->lanes, 3);
    stbi_image_free(img);
    env_close(&e);
    cs_model_deinit(&m);
}

static void playback_changes_picture_and_draws_pulses(void **st)
{
    (void)st;
    cs_model m;
    pingpong(&m, 12);
    gl_env e;
    env_open(&e, &m, NULL, 640, 360);
    rnd_view v;
    rnd_view_defaults(&m, &v);
    size_t n = (size_t)e.w * e.h;
    uint8_t *all = cs_alloc(n * 4);
    draw(&e, &v);
    memcpy(all, e.rgba, n * 4);
    v.now = cs_msg_t_send(&m, 5) + 10; /* just after the sixth hit: the ball is in flight */
    v.speed = 2000;                /* slow enough that the pulse is on screen */
    v.hud = true;
    draw(&e, &v);
    save(&e, "pingpong-playing.png");
    assert_true(count_diff(all, e.rgba, n, 30) > n / 50);
    assert_true(rnd_last_stats(e.r)->dots >= 1);
    cs_free(all);
    env_close(&e);
    cs_model_deinit(&m);
}

static void every_layout_and_theme_draws(void **st)
{
    (void)st;
    cs_model m;
    pingpong(&m, 8);
    gl_env e;
    env_open(&e, &m, NULL, 640, 360);
    static const char *names[] = {"pingpong-lanes-light.png", "pingpong-tree.png", "pingpong-graph.png"};
    for (int l = 0; l < RND_LAYOUT_COUNT; l++) {
        rnd_view v;
        rnd_view_defaults(&m, &v);
        v.layout = (rnd_layout)l;
        v.theme = l == 0 ? RND_LIGHT : RND_DARK;
        draw(&e, &v);
        save(&e, names[l]);
        size_t n = (size_t)e.w * e.h;
        size_t bg = count_color(e.rgba, n, l == 0 ? 0xffffff : 0x16181d, 2);
        print_message("layout %d: %zu of %zu pixels are background\n", l, bg, n);
        assert_true(bg < n * 98 / 100);
        assert_true(count_color(e.rgba, n, 0x56b4e9, 60) + count_color(e.rgba, n, 0x3a9ad9, 40) > 50);
    }
    env_close(&e);
    cs_model_deinit(&m);
}

/* 2000 goroutines x 500 spans and 200k messages: what is drawn stays
 * bounded by the screen. */
static void level_of_detail_bounds_primitives(void **st)
{
    (void)st;
    cs_model m;
    cs_mb mb;
    cs_err err = {0};
    cs_model_init(&m);
    assert_true(cs_mb_init(&mb, &m, &err));
    const int ng = 2000, ns = 500;
    cs_sid fw = cs_model_intern(&m, "main.worker", 11, &err);
    for (int g = 1; g <= ng; g++)
        assert_true(cs_mb_create(&mb, &(cs_mb_create_desc){.t = g, .goid = (uint64_t)g, .name = fw,
                                                           .parent_goid = g > 1 ? 1 : CS_NO_GOID}, &err));
    for (int k = 0; k < ns; k++)
        for (int g = 1; g <= ng; g++)
            assert_true(cs_mb_set(&mb, 10000 + (int64_t)k * 1000 + g % 7, (uint64_t)g,
                                  k % 2 ? CS_ST_RUNNING : CS_ST_BLOCKED, CS_R_CHAN_RECV, 0, 0, &err));
    assert_true(cs_mb_finish(&mb, 10000 + (int64_t)ns * 1000 + 10, &err));
    cs_mb_deinit(&mb);
    uint32_t nm = 200000;
    for (uint32_t i = 0; i < nm; i++) {
        int64_t t = 10000 + (int64_t)i * 2;
        assert_true(cs_model_msg_add(&m, &(cs_msg_in){.t_send = t, .t_recv = t + 300, .sender = 1 + i % (uint32_t)ng,
                                                      .receiver = 1 + (i * 7919) % (uint32_t)ng}, 0, &err));
    }
    m.t_first = 0, m.t_last = 10000 + (int64_t)ns * 1000 + 10;
    gl_env e;
    env_open(&e, &m, NULL, 1280, 720);
    for (int l = 0; l < RND_LAYOUT_COUNT; l++) {
        rnd_view v;
        rnd_view_defaults(&m, &v);
        v.layout = (rnd_layout)l;
        v.now = l == RND_GRAPH ? m.t_last / 2 : CS_T_NONE;
        draw(&e, &v);
        const rnd_stats *s = rnd_last_stats(e.r);
        print_message("layout %d: %u segments, %u heads, %u dots (model: %u spans, %u messages)\n", l,
                      s->segs, s->heads, s->dots, m.n_span, m.n_msgs);
        assert_true(s->segs + s->heads + s->dots < 150000);
    }
    env_close(&e);
    cs_model_deinit(&m);
}

static void gif_has_every_frame(void **st)
{
    (void)st;
    cs_model m;
    pingpong(&m, 6);
    gl_env e;
    env_open(&e, &m, NULL, 320, 180);
    rnd_gif g;
    cs_err err = {0};
    mkdir("build", 0755);
    mkdir(OUT, 0755);
    assert_true(rnd_gif_open(&g, &(rnd_gif_desc){.path = OUT "/pingpong.gif", .w = e.w, .h = e.h, .delay_cs = 10},
                             &err));
    rnd_view v;
    rnd_view_defaults(&m, &v);
    for (int i = 1; i <= 4; i++) {
        v.now = m.t_first + (m.t_last - m.t_first) * i / 4;
        draw(&e, &v);
        assert_true(rnd_gif_frame(&g, e.rgba, &err));
    }
    assert_true(rnd_gif_close(&g, &err));
    int code = 0;
    GifFileType *gf = DGifOpenFileName(OUT "/pingpong.gif", &code);
    assert_non_null(gf);
    assert_int_equal(DGifSlurp(gf), GIF_OK);
    assert_int_equal(gf->ImageCount, 4);
    assert_int_equal(gf->SWidth, 320);
    DGifCloseFile(gf, &code);
    env_close(&e);
    cs_model_deinit(&m);
}

/* tests/data/render-pingpong.png was rendered by this test (set
 * CHANSCOPE_UPDATE_REF=1 to rewrite it after an intended change). */
static void picture_matches_reference(void **st)
{
    (void)st;
    cs_model m;
    pingpong(&m, 10);
    gl_env e;
    env_open(&e, &m, NULL, 480, 270);
    rnd_view v;
    rnd_view_defaults(&m, &v);
    v.title = "reference";
    draw(&e, &v);
    const char *ref = "tests/data/render-pingpong.png";
    cs_err err = {0};
    if (getenv("CHANSCOPE_UPDATE_REF"))
        assert_true(rnd_png_write(ref, e.rgba, e.w, e.h, &err));
    int w, h, ch;
    uint8_t *img = stbi_load(ref, &w, &h, &ch, 4);
    assert_non_null(img);
    assert_int_equal(w, e.w);
    assert_int_equal(h, e.h);
    size_t n = (size_t)w * h, off = count_diff(img, e.rgba, n, 48);
    print_message("%zu of %zu channel values differ by more than 48\n", off, n * 4);
    assert_true(off < n * 4 / 100);
    stbi_image_free(img);
    env_close(&e);
    cs_model_deinit(&m);
}

/* Loads a trace of the test data, or fails the test saying why. */
static void load(const char *path, cs_file *f, cs_model *m)
{
    cs_err err = {0};
    if (!tl_load(path, f, m, NULL, &err)) {
        print_message("%s: %s\n", path, err.msg);
        fail();
    }
}

/* Real traces from two trace formats: the ping-pong players' lanes show
 * channel waits and sleeps, and every message between them is an arrow. */
static void corpus_pingpong_draws_players_and_every_message(void **st)
{
    (void)st;
    static const char *traces[] = {"tests/data/corpus/go1.19/pingpong.trace",
                                   "tests/data/corpus/go1.23/pingpong.trace"};
    for (size_t t = 0; t < sizeof traces / sizeof *traces; t++) {
        cs_file f;
        cs_model m;
        load(traces[t], &f, &m);
        gl_env e;
        env_open(&e, &m, &f, 960, 540);
        rnd_view v;
        rnd_view_defaults(&m, &v);
        draw(&e, &v);
        save(&e, t ? "corpus-go123-pingpong.png" : "corpus-go119-pingpong.png");
        const rnd_stats *s = rnd_last_stats(e.r);
        uint32_t players = 0;
        for (uint32_t i = 1; i < m.n_g; i++)
            players += !strcmp(cs_model_str(&m, m.g[i].name), "main.player");
        print_message("%s: %u lanes, %u/%u messages, %u players\n", traces[t], s->lanes, s->msgs_shown,
                      s->msgs_total, players);
        assert_int_equal(players, 2);
        assert_true(m.n_msgs >= 20);
        assert_int_equal(s->msgs_shown, s->msgs_total);
        assert_true(s->heads >= m.n_msgs);
        size_t n = (size_t)e.w * e.h;
        const lay_palette *p = lay_palette_get(LAY_THEME_DARK);
        lay_rgba chan = p->mark[LAY_MARK_BLOCK_CHAN], sleep = p->mark[LAY_MARK_SLEEP];
        assert_true(count_color(e.rgba, n, (uint32_t)chan.r << 16 | chan.g << 8 | chan.b, 30) > 1000);
        assert_true(count_color(e.rgba, n, (uint32_t)sleep.r << 16 | sleep.g << 8 | sleep.b, 30) > 1000);
        env_close(&e);
        cs_model_deinit(&m);
        cs_file_unmap(&f);
    }
}

/* The legend counts each channel's messages in the picture (the SVG's
 * does too): over 2 ms of the ping-pong they add up to the messages the
 * frame shows, fewer than the trace's; over the whole trace, to all of
 * them. Frames are built on the CPU alone, as png builds its. */
static void legend_counts_the_messages_in_the_picture(void **st)
{
    (void)st;
    cs_file f;
    cs_model m;
    cs_err err = {0};
    load("tests/data/corpus/go1.23/pingpong.trace", &f, &m);
    rnd_renderer *r = rnd_create_still(&m, &err);
    assert_non_null(r);
    for (int k = 0; k < 2; k++) {
        rnd_view v;
        rnd_view_defaults(&m, &v);
        if (!k)
            v.t1 = v.t0 + 2000000;
        assert_true(rnd_frame_build(r, &v, 1280, 720, &err));
        assert_non_null(r->legend_shown);
        uint32_t sum = 0;
        for (uint32_t c = 1; c < m.n_chans; c++)
            sum += r->legend_shown[c];
        print_message("%s: the legend counts %u messages, the frame shows %u of %u\n", k ? "whole" : "2 ms",
                      sum, rnd_last_stats(r)->msgs_shown, m.n_msgs);
        assert_int_equal(sum, rnd_last_stats(r)->msgs_shown);
        assert_true(k ? sum == m.n_msgs : sum > 0 && sum < m.n_msgs);
    }
    rnd_destroy(r);
    cs_model_deinit(&m);
    cs_file_unmap(&f);
}

/* A still renderer (rnd_create_still: no playback table until a frame
 * plays) draws what the full one does, pixel for pixel: lanes and tree,
 * paused and at a playback time (where it builds the table), on traces
 * with closes, selects, sync wake-ups and exact valued messages; and so
 * does a frame built, then shown once its model's spans are gone (png's
 * way), in the layouts that read spans (the graph reads none), and the
 * viewer's, whose model keeps only the wake-ups drawn (trf_build_drawn). */
static void still_picture_matches_the_full_renderer(void **st)
{
    (void)st;
    static const char *traces[] = {"tests/data/corpus/go1.23/closebcast.trace",
                                   "tests/data/corpus/go1.23/selectmix.trace",
                                   "tests/data/corpus/go1.23/annotated.trace",
                                   "tests/data/corpus/go1.27/netserver.trace"};
    for (size_t t = 0; t < sizeof traces / sizeof *traces; t++) {
        cs_file f;
        cs_model m;
        cs_err err = {0};
        load(traces[t], &f, &m);
        gl_env e;
        env_open(&e, &m, &f, 800, 450);
        rnd_renderer *full = e.r, *still = rnd_create_still(&m, &err);
        assert_non_null(still);
        size_t n = (size_t)e.w * e.h;
        uint8_t *want = cs_alloc(n * 4);
        assert_non_null(want);
        for (int k = 0; k < 4; k++) {
            rnd_view v;
            rnd_view_defaults(&m, &v);
            v.layout = k & 1 ? RND_TREE : RND_LANES;
            if (k & 2)
                v.now = m.t_first + (m.t_last - m.t_first) / 2;
            e.r = full;
            draw(&e, &v);
            memcpy(want, e.rgba, n * 4);
            e.r = still;
            draw(&e, &v);
            print_message("%s, %s, %s: %zu pixels differ\n", traces[t], k & 1 ? "tree" : "lanes",
                          k & 2 ? "playing" : "paused", count_diff(want, e.rgba, n, 0));
            assert_int_equal(count_diff(want, e.rgba, n, 0), 0);
            assert_true(rnd_last_stats(still)->segs > 0);
        }
        for (int k = 0; k < 2; k++) { /* as png makes it: built, the model freed, then shown */
            rnd_view v;
            rnd_view_defaults(&m, &v);
            v.layout = k ? RND_TREE : RND_LANES;
            e.r = full;
            draw(&e, &v);
            memcpy(want, e.rgba, n * 4);
            cs_model c;
            assert_true(cs_model_copy(&m, &c, &err));
            rnd_renderer *r = rnd_create_still(&c, &err);
            assert_non_null(r);
            assert_true(rnd_frame_build(r, &v, e.w, e.h, &err));
            cs_model_deinit(&c);
            assert_true(c.n_span == 0 && c.n_msgs == 0 && c.n_g == 0);
            rnd_surface_begin(e.s);
            assert_true(rnd_frame_show(r, &v, e.w, e.h, &err));
            rnd_surface_end(e.s);
            assert_true(rnd_surface_read(e.s, e.rgba, &err));
            print_message("%s, %s, built then shown without the model: %zu pixels differ\n", traces[t],
                          k ? "tree" : "lanes", count_diff(want, e.rgba, n, 0));
            assert_int_equal(count_diff(want, e.rgba, n, 0), 0);
            rnd_destroy(r);
        }
        cs_model c; /* the viewer's model keeps only the wake-ups drawn: the same, playing */
        assert_true(cs_model_copy(&m, &c, &err));
        assert_true(trf_build_drawn(&c, &err));
        rnd_renderer *viewer = rnd_create(&c, &err);
        assert_non_null(viewer);
        for (int k = 0; k < 2; k++) {
            rnd_view v;
            rnd_view_defaults(&m, &v);
            v.layout = k ? RND_TREE : RND_LANES;
            v.now = m.t_first + (m.t_last - m.t_first) * 2 / 3;
            e.r = full;
            draw(&e, &v);
            memcpy(want, e.rgba, n * 4);
            e.r = viewer;
            draw(&e, &v);
            print_message("%s, %s, drawn wake-ups only: %zu pixels differ\n", traces[t], k ? "tree" : "lanes",
                          count_diff(want, e.rgba, n, 0));
            assert_int_equal(count_diff(want, e.rgba, n, 0), 0);
        }
        rnd_destroy(viewer);
        cs_model_deinit(&c);
        rnd_destroy(still);
        e.r = full;
        cs_free(want);
        env_close(&e);
        cs_model_deinit(&m);
        cs_file_unmap(&f);
    }
}

/* View k of traffic_taken_draws_as_the_whole_model: lanes, tree and graph,
 * paused, playing, a goroutine selected with its partners lit, a filter
 * (on goroutine `pick`'s function), the gaps axis (whose idle stretches
 * take in the messages) and the log axis. */
enum { TAKEN_VIEWS = 18 };
static void taken_view(const cs_model *m, uint32_t pick, int k, rnd_view *v)
{
    rnd_view_defaults(m, v);
    static const rnd_layout layouts[] = {RND_LANES, RND_TREE, RND_GRAPH};
    v->layout = layouts[k % 3];
    if (k / 3 == 1)
        v->now = m->t_first + (m->t_last - m->t_first) * 2 / 3;
    if (k / 3 == 2)
        v->selected = pick, v->highlight = RND_HL_PARTNERS;
    if (k / 3 == 3)
        snprintf(v->filter, sizeof v->filter, "%s", cs_model_str(m, m->g[pick].name));
    if (k / 3 == 4)
        v->axis = LAY_AXIS_GAPS;
    if (k / 3 == 5)
        v->axis = LAY_AXIS_LOG;
}

/* The viewer's big trace: a renderer of the model before its channel
 * traffic (cs_model_before_traffic) draws a frame, then takes the traffic
 * made apart (rnd_traffic_create, rnd_traffic_take), the copy it showed
 * freed at once, and from then on draws what a renderer made of the whole
 * model does, pixel for pixel, in every view: what the frame before made
 * of the traffic (bundles, graph, lit partners, a filter's matches, the
 * gaps axis) made again, the summaries of its spans kept otherwise. */
static void traffic_taken_draws_as_the_whole_model(void **st)
{
    (void)st;
    static const char *traces[] = {"tests/data/corpus/go1.23/closebcast.trace",
                                   "tests/data/corpus/go1.19/pingpong.trace",
                                   "tests/data/corpus/go1.23/annotated.trace",
                                   "tests/data/corpus/go1.27/netserver.trace"};
    for (size_t t = 0; t < sizeof traces / sizeof *traces; t++) {
        cs_file f;
        cs_model m;
        cs_err err = {0};
        cs_model_init(&m);
        assert_true(cs_file_map(traces[t], &f, &err));
        assert_true(dec_trace_load(&(dec_desc){.path = traces[t], .jobs = 2}, &f, &m, NULL, &err));
        gl_env e;
        env_open(&e, &m, &f, 800, 450);
        rnd_destroy(e.r); /* of the model before its traffic: the taker's are made of copies */
        cs_model b[TAKEN_VIEWS]; /* made before the traffic, as the viewer makes it */
        for (int k = 0; k < TAKEN_VIEWS; k++)
            assert_true(cs_model_before_traffic(&m, &b[k], &err));
        assert_true(trf_build(&m, &err));
        rnd_renderer *whole = rnd_create(&m, &err);
        assert_non_null(whole);
        uint32_t pick = 0; /* the last goroutine of the program's own */
        for (uint32_t i = m.n_g; i-- > 1 && !pick;)
            if (!strncmp(cs_model_str(&m, m.g[i].name), "main.", 5) && strcmp(cs_model_str(&m, m.g[i].name), "main.main"))
                pick = i;
        assert_true(pick > 0 && m.n_msgs > 0);
        size_t n = (size_t)e.w * e.h;
        uint8_t *want = cs_alloc(n * 4);
        assert_non_null(want);
        for (int k = 0; k < TAKEN_VIEWS; k++) {
            rnd_view v;
            taken_view(&m, pick, k, &v);
            e.r = whole;
            draw(&e, &v);
            memcpy(want, e.rgba, n * 4);
            rnd_stats ws = *rnd_last_stats(whole);
            rnd_renderer *taker = e.r = rnd_create(&b[k], &err);
            assert_non_null(taker);
            draw(&e, &v); /* before the traffic */
            assert_int_equal(rnd_last_stats(taker)->msgs_shown, 0);
            rnd_traffic *tr = rnd_traffic_create(&m, &err);
            assert_non_null(tr);
            rnd_traffic_take(taker, &m, tr);
            cs_model_before_traffic_free(&b[k]); /* nothing of it is read again */
            draw(&e, &v);
            const rnd_stats *ts = rnd_last_stats(taker);
            print_message("%s, view %d: %u/%u messages, %zu pixels differ\n", traces[t], k, ts->msgs_shown,
                          ts->msgs_total, count_diff(want, e.rgba, n, 0));
            assert_int_equal(ts->msgs_total, m.n_msgs);
            assert_int_equal(ts->msgs_shown, ws.msgs_shown);
            assert_int_equal(ts->segs, ws.segs);
            assert_int_equal(count_diff(want, e.rgba, n, 0), 0);
            rnd_destroy(taker);
        }
        cs_free(want);
        e.r = whole;
        env_close(&e);
        cs_model_deinit(&m);
        cs_file_unmap(&f);
    }
}

/* Ping-pong with a long pause in the middle (both players blocked, nothing
 * happens) and one slow message that is in flight across the pause, from
 * G2 at `*send` to G3 at `*recv`. */
static void paused_pingpong(cs_model *m, int64_t *send, int64_t *recv)
{
    cs_mb mb;
    sy_begin(m, &mb);
    sy_go(&mb, 0, 1, CS_NO_GOID, "main.main");
    sy_set(&mb, 100, 1, CS_ST_RUNNING, 0);
    sy_go(&mb, 1000, 2, 1, "main.player");
    sy_go(&mb, 1500, 3, 1, "main.player");
    sy_set(&mb, 2000, 1, CS_ST_BLOCKED, CS_R_SLEEP);
    uint32_t ch = sy_chan(m, "main.player:23", "main.player:18");
    int64_t t = 3000;
    for (int i = 0; i < 12; i++) {
        uint64_t a = 2 + (i & 1), b = 3 - (i & 1);
        if (i == 6)
            *send = t - 2000, t += 800000, *recv = t - 1000;
        sy_set(&mb, t, a, CS_ST_RUNNING, 0);
        sy_set(&mb, t + 4000, a, CS_ST_BLOCKED, CS_R_CHAN_RECV);
        sy_msg(m, t + 4000, t + 4000, a, b, ch);
        t += 10000;
    }
    sy_msg(m, *send, *recv, 2, 3, ch);
    sy_set(&mb, t + 1000, 1, CS_ST_RUNNING, 0);
    sy_end(m, &mb, t + 3000);
}

/* paused_pingpong drawn offscreen at 960x540; skips the test without EGL. */
static void open_paused(cs_model *m, int64_t *send, int64_t *recv, gl_env *e)
{
    paused_pingpong(m, send, recv);
    env_open(e, m, NULL, 960, 540);
}

/* The first column of the picture whose picked time is t or later (along the
 * middle row), -1 when none. */
static float x_at(gl_env *e, const rnd_view *v, int64_t t)
{
    for (float x = 0; x < (float)e->w; x += 1.0f) {
        rnd_hit hit;
        rnd_pick(e->r, v, x, (float)e->h / 2, &hit);
        if (hit.t != CS_T_NONE && hit.t >= t)
            return x;
    }
    return -1;
}

/* Linear, log and gap-folding axes give different pictures; only the
 * gap-folding one marks a gap, and there the players' lanes are covered
 * (no full-strength channel-wait colour in the gap's columns). */
static void axes_differ_and_gaps_are_marked(void **st)
{
    (void)st;
    cs_model m;
    int64_t send, recv;
    gl_env e;
    open_paused(&m, &send, &recv, &e);
    size_t n = (size_t)e.w * e.h;
    uint8_t *pic[3];
    static const char *names[] = {"paused-linear.png", "paused-log.png", "paused-gaps.png"};
    for (int k = 0; k < 3; k++) {
        rnd_view v;
        rnd_view_defaults(&m, &v);
        v.axis = (lay_axis_kind)k;
        draw(&e, &v);
        save(&e, names[k]);
        pic[k] = cs_alloc(n * 4);
        memcpy(pic[k], e.rgba, n * 4);
        print_message("%s: %u gaps\n", names[k], rnd_last_stats(e.r)->gaps);
        assert_int_equal(rnd_last_stats(e.r)->gaps > 0, k == LAY_AXIS_GAPS);
    }
    assert_true(count_diff(pic[0], pic[1], n, 30) > n / 50);
    assert_true(count_diff(pic[0], pic[2], n, 30) > n / 50);
    /* a column in the middle of the pause, found by picking along G2's lane */
    rnd_view v;
    rnd_view_defaults(&m, &v);
    v.axis = LAY_AXIS_GAPS;
    draw(&e, &v);
    int64_t mid = (send + recv) / 2;
    float gx = x_at(&e, &v, mid);
    assert_true(gx > 0);
    const lay_palette *p = lay_palette_get(LAY_THEME_DARK);
    lay_rgba chan = p->mark[LAY_MARK_BLOCK_CHAN];
    uint32_t orange = (uint32_t)chan.r << 16 | chan.g << 8 | chan.b;
    size_t in_gap = 0, in_lin = 0;
    for (int y = 0; y < e.h; y++) {
        in_gap += count_color(pic[2] + ((size_t)y * e.w + (size_t)gx) * 4, 1, orange, 30);
        in_lin += count_color(pic[0] + ((size_t)y * e.w + (size_t)gx) * 4, 1, orange, 30);
    }
    print_message("channel-wait pixels in the gap column: %zu folded, %zu linear\n", in_gap, in_lin);
    assert_int_equal(in_gap, 0);
    for (int k = 0; k < 3; k++)
        cs_free(pic[k]);
    env_close(&e);
    cs_model_deinit(&m);
}

/* During playback the pulse of a message in flight sits where the axis
 * puts "now", in every mapping: picking at the pulse gives back now. */
static void pulses_follow_the_axis(void **st)
{
    (void)st;
    cs_model m;
    int64_t send, recv;
    gl_env e;
    open_paused(&m, &send, &recv, &e);
    size_t n = (size_t)e.w * e.h;
    for (int k = 0; k < 3; k++) {
        rnd_view v;
        rnd_view_defaults(&m, &v);
        v.axis = (lay_axis_kind)k;
        v.now = send + (recv - send) * 3 / 10;
        v.speed = 1; /* the pulse moves with time, not a minimum flight */
        v.playing = true;
        draw(&e, &v);
        double sx = 0, sy = 0, cnt = 0; /* the white pulse (labels are #e6e6e6) */
        for (size_t i = 0; i < n; i++)
            if (count_color(e.rgba + i * 4, 1, 0xffffff, 8))
                sx += (double)(i % (size_t)e.w), sy += (double)(i / (size_t)e.w), cnt++;
        assert_true(cnt > 4);
        rnd_hit at, lo, hi;
        float px = (float)(sx / cnt), py = (float)(sy / cnt);
        rnd_pick(e.r, &v, px, py, &at);
        rnd_pick(e.r, &v, px - 3, py, &lo);
        rnd_pick(e.r, &v, px + 3, py, &hi);
        print_message("axis %d: pulse at x %.1f, picked %lld, now %lld (3 px = %lld ns)\n", k, px,
                      (long long)at.t, (long long)v.now, (long long)(hi.t - lo.t));
        assert_true(llabs(at.t - v.now) <= hi.t - lo.t);
    }
    env_close(&e);
    cs_model_deinit(&m);
}

/* Draws v; the points of column x that pick an arrow (none picks a span
 * that begins after v->now). */
static uint32_t column_arrows(gl_env *e, const cs_model *m, const rnd_view *v, float x)
{
    draw(e, v);
    uint32_t found = 0;
    for (float y = 0; y < (float)e->h; y += 1.0f) {
        rnd_hit hit;
        rnd_pick(e->r, v, x, y, &hit);
        found += hit.arrow != 0;
        assert_true(v->now == CS_T_NONE || hit.span == UINT32_MAX || cs_span_t0(m, hit.span) <= v->now);
    }
    return found;
}

/* An arrow drawn on a slant (a send that waited 0.8 ms for its receiver)
 * is picked anywhere along it, not only at its send: somewhere in the
 * column halfway between send and receive, the pointer finds an arrow.
 * In playback it finds only what is drawn: none before the send, the
 * arrow again once it is received. */
static void slanted_arrows_are_picked_along_their_length(void **st)
{
    (void)st;
    cs_model m;
    int64_t send, recv;
    gl_env e;
    open_paused(&m, &send, &recv, &e);
    rnd_view v;
    rnd_view_defaults(&m, &v);
    draw(&e, &v);
    float gx = x_at(&e, &v, (send + recv) / 2);
    assert_true(gx > 0);
    uint32_t found = column_arrows(&e, &m, &v, gx);
    v.now = send - 1;
    uint32_t before = column_arrows(&e, &m, &v, gx);
    v.now = recv + 1;
    uint32_t after = column_arrows(&e, &m, &v, gx);
    print_message("points of the mid-flight column that pick the arrow: %u; in playback %u before its send, %u after\n",
                  found, before, after);
    assert_true(found >= 2);
    assert_int_equal(before, 0);
    assert_true(after >= 2);
    env_close(&e);
    cs_model_deinit(&m);
}

/* The arrows of r's model as the playback walks them, by brute force:
 * the messages in the model's order, the sync wake-ups by (time, waker,
 * index), merged by time, messages first of one time. */
typedef struct want_arrow { int64_t t; uint32_t from, ref; } want_arrow;

static int want_sync_cmp(const void *a, const void *b)
{
    const want_arrow *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->from != y->from ? (x->from < y->from ? -1 : 1) : (x->ref > y->ref) - (x->ref < y->ref);
}

static uint32_t want_arrows(const cs_model *m, want_arrow *w)
{
    uint32_t n_msg = 0, n = 0;
    rnd__arrow a;
    want_arrow *sync = cs_alloc(((size_t)m->n_edges + 1) * sizeof *sync);
    assert_non_null(sync);
    for (uint32_t i = 1; i < m->n_edges; i++)
        if (rnd__edge_arrow(m, i, &a))
            sync[n++] = (want_arrow){a.t0, a.from, i | RND__REF_SYNC};
    qsort(sync, n, sizeof *sync, want_sync_cmp);
    uint32_t k = 0, j = 0;
    for (uint32_t i = 0; i < m->n_msgs; i++) {
        if (!rnd__msg_arrow(m, i, &a))
            continue;
        for (; j < n && sync[j].t < a.t0; j++)
            w[k++] = sync[j];
        w[k++] = (want_arrow){a.t0, a.from, i + 1}, n_msg++;
    }
    while (j < n)
        w[k++] = sync[j++];
    cs_free(sync);
    return k;
}

/* Walks r's arrows back from the end and from places found by time: the
 * order above, every arrow once; each message's t_next the send of the
 * first later message by its receiver. */
static void check_walk(const cs_model *m, const char *name)
{
    cs_err err = {0};
    rnd_renderer *r = rnd_create(m, &err);
    assert_non_null(r);
    want_arrow *w = cs_alloc(((size_t)m->n_msgs + m->n_edges + 1) * sizeof *w);
    assert_non_null(w);
    uint32_t n = want_arrows(m, w), k = n, ref, steps = 0, no_send = 0;
    rnd__apos p = rnd__arrow_end(r);
    rnd__arrow a;
    while ((ref = rnd__arrow_prev(r, &p))) {
        steps++;
        if (!rnd__arrow_get(r, ref, &a))
            continue;
        assert_true(k > 0);
        assert_int_equal(ref, w[--k].ref);
        assert_int_equal(a.t0, w[k].t);
    }
    assert_int_equal(k, 0);
    for (uint32_t i = 0; i < m->n_msgs; i++)
        no_send += m->msgs[i].dt == CS_MSG_NO_SEND;
    assert_int_equal(steps, m->n_msgs + r->tr.n_sync); /* each message or wake-up one step */
    for (uint32_t i = 0; i < n; i++) {
        if (w[i].ref & RND__REF_SYNC)
            continue;
        assert_true(rnd__arrow_get(r, w[i].ref, &a));
        int64_t next = INT64_MAX;
        for (uint32_t j = i + 1; j < n && next == INT64_MAX; j++)
            if (!(w[j].ref & RND__REF_SYNC) && w[j].from == a.to)
                next = w[j].t;
        assert_int_equal(a.t_next, next);
    }
    for (uint32_t q = 0; q < 3 * n; q++) { /* at, just before and just after each arrow's time */
        int64_t t = w[q / 3].t + (int64_t)(q % 3) - 1;
        uint32_t before = 0;
        while (before < n && w[before].t < t)
            before++;
        rnd__apos at = rnd__arrow_lower(r, t);
        while ((ref = rnd__arrow_prev(r, &at)) && !rnd__arrow_get(r, ref, &a))
            ;
        assert_int_equal(ref, before ? w[before - 1].ref : 0);
    }
    print_message("%s: %u arrows (%u sync), %u messages without a send\n", name, n, r->tr.n_sync, no_send);
    cs_free(w);
    rnd_destroy(r);
}

/* A made-up model begun: main (G1) makes main.a (G2) and main.b (G3),
 * which talk over the channel it returns. */
static uint32_t players_begin(cs_model *m, cs_mb *mb)
{
    sy_begin(m, mb);
    sy_go(mb, 0, 1, CS_NO_GOID, "main.main");
    sy_go(mb, 10, 2, 1, "main.a");
    sy_go(mb, 20, 3, 1, "main.b");
    return sy_chan(m, "main.a:3", "main.b:7");
}

/* The playback walks the arrows in time order straight from the model:
 * real traces with sync wake-ups, exact and inferred messages, and a
 * made-up one with messages that have no send, ties, and times seconds
 * apart (wide blocks of message times). */
static void arrows_are_walked_in_time_order(void **st)
{
    (void)st;
    static const char *traces[] = {"tests/data/corpus/go1.19/selectmix.trace", "tests/data/corpus/go1.23/closebcast.trace",
                                   "tests/data/regions/regions-go1.27.trace", "tests/data/gotrace-patched/go1.8-primesieve.trace",
                                   "tests/data/corpus/go1.26/fanin.trace", "tests/data/gcheavy/gcheavy-go1.27.trace",
                                   "tests/data/corpus/go1.27/netserver.trace"};
    for (size_t t = 0; t < sizeof traces / sizeof *traces; t++) {
        cs_file f;
        cs_model m;
        load(traces[t], &f, &m);
        check_walk(&m, traces[t]);
        cs_model_deinit(&m);
        cs_file_unmap(&f);
    }
    cs_model m;
    cs_mb mb;
    uint32_t ch = players_begin(&m, &mb);
    for (int64_t k = 0; k < 100; k++) {
        uint64_t a = 2 + (uint64_t)(k & 1), b = 5 - a;
        int64_t t = k < 60 ? 1000 + k / 2 * 500 : 5000000000 + k * 3000000000; /* pairs at one time, then wide */
        sy_msg(&m, t, t + 40, a, b, ch);
        if (k % 7 == 0)
            sy_msg(&m, CS_T_NONE, t + 20, b, a, ch); /* the sender waited since before the trace */
    }
    sy_end(&m, &mb, 5000000000 + 101 * 3000000000);
    check_walk(&m, "made up");
    cs_model_deinit(&m);
}

/* A receiver's next send 65,535 messages on or more is kept apart
 * (rnd__next.far): two goroutines play 70,000 messages while a third,
 * sent one first, answers only at the end. */
static void far_next_sends_are_found(void **st)
{
    (void)st;
    cs_model m;
    cs_mb mb;
    uint32_t ch = players_begin(&m, &mb);
    sy_go(&mb, 30, 4, 1, "main.c");
    sy_msg(&m, 100, 140, 2, 4, ch); /* a -> c */
    int64_t t = 200;
    for (uint32_t k = 0; k < 70000; k++, t += 100)
        sy_msg(&m, t, t + 40, 2 + (k & 1), 3 - (k & 1), ch);
    sy_msg(&m, t, t + 40, 4, 2, ch); /* c -> a, at last */
    sy_msg(&m, t + 100, t + 140, 3, 4, ch); /* b -> c: c sends no more */
    sy_end(&m, &mb, t + 1000);
    cs_err err = {0};
    rnd_renderer *r = rnd_create(&m, &err);
    assert_non_null(r);
    rnd__arrow a;
    assert_true(rnd__arrow_get(r, 1, &a)); /* message 0: c's answer, 70,001 on */
    assert_int_equal(a.t_next, t);
    assert_true(r->tr.next.n_far >= 1);
    for (uint32_t i = 1; i < 70000; i += 6997) { /* the players': the next message */
        assert_true(rnd__arrow_get(r, i + 1, &a));
        assert_int_equal(a.t_next, cs_msg_t(&m, i + 1));
    }
    assert_true(rnd__arrow_get(r, m.n_msgs, &a));
    assert_int_equal(a.t_next, INT64_MAX);
    rnd_destroy(r);
    cs_model_deinit(&m);
}

/* Compact lanes reuse the lanes of ended goroutines and collapsed lanes
 * hold one entry function each: fewer rows, a different picture. */
static void compact_and_collapse_use_fewer_rows(void **st)
{
    (void)st;
    cs_model m;
    sy_tree(&m, 4, 3); /* 85 short-lived goroutines in 3 functions */
    gl_env e;
    env_open(&e, &m, NULL, 960, 540);
    size_t n = (size_t)e.w * e.h;
    uint32_t rows[3];
    uint8_t *pic[3];
    static const char *names[] = {"tree-lanes.png", "tree-compact.png", "tree-collapse.png"};
    for (int k = 0; k < 3; k++) {
        rnd_view v;
        rnd_view_defaults(&m, &v);
        v.compact = k == 1, v.collapse = k == 2;
        draw(&e, &v);
        save(&e, names[k]);
        rows[k] = rnd_last_stats(e.r)->rows;
        assert_int_equal(rnd_last_stats(e.r)->lanes, m.n_g - 1);
        pic[k] = cs_alloc(n * 4);
        memcpy(pic[k], e.rgba, n * 4);
    }
    print_message("rows: %u lanes, %u compact, %u collapsed\n", rows[0], rows[1], rows[2]);
    assert_int_equal(rows[0], m.n_g - 1);
    assert_true(rows[1] < rows[0] / 2);
    assert_int_equal(rows[2], 3);
    assert_true(count_diff(pic[0], pic[1], n, 30) > n / 100);
    /* bands of pixel rows holding running bars: one per lane drawn */
    uint32_t bands[3] = {0};
    for (int k = 0; k < 3; k++) {
        bool prev = false;
        for (int y = 0; y < e.h; y++) {
            bool on = count_color(pic[k] + (size_t)y * e.w * 4, (size_t)e.w, 0x56b4e9, 40) > 20;
            bands[k] += on && !prev;
            prev = on;
        }
        cs_free(pic[k]);
    }
    print_message("bands of running rows: %u, %u compact, %u collapsed\n", bands[0], bands[1], bands[2]);
    assert_true(bands[1] < bands[0]);
    assert_int_equal(bands[2], 3);
    env_close(&e);
    cs_model_deinit(&m);
}

/* The tree view draws a goroutine's label only where it meets no label
 * drawn before: with 144 grandchildren close together the label boxes
 * (their backdrops in the scene) never intersect, yet many are drawn. */
static void tree_labels_never_overlap(void **st)
{
    (void)st;
    cs_model m;
    sy_tree(&m, 12, 2); /* 157 goroutines */
    gl_env e;
    env_open(&e, &m, NULL, 960, 540);
    rnd_view v;
    rnd_view_defaults(&m, &v);
    v.layout = RND_TREE;
    draw(&e, &v);
    save(&e, "tree-labels.png");
    const rnd__marks *ui = &e.r->sc.k[RND__UI_SEGS];
    uint32_t backdrop = rnd__alpha(rnd__theme_get(RND_DARK)->bg, 0.7f), n = 0;
    float box[400][4];
    for (uint32_t i = 0; i < ui->n && n < 400; i++) {
        const rnd__mark *k = &ui->v[i];
        uint32_t c = (uint32_t)k->rgba[0] << 24 | k->rgba[1] << 16 | k->rgba[2] << 8 | k->rgba[3];
        if (c == backdrop)
            box[n][0] = k->a[0], box[n][1] = k->a[1] - k->w / 2, box[n][2] = k->b[0], box[n][3] = k->a[1] + k->w / 2, n++;
    }
    print_message("%u labels drawn for %u goroutines\n", n, m.n_g - 1);
    assert_true(n >= 8);
    assert_true(n < m.n_g - 1);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++)
            assert_false(box[i][0] < box[j][2] && box[j][0] < box[i][2] && box[i][1] < box[j][3] &&
                         box[j][1] < box[i][3]);
    env_close(&e);
    cs_model_deinit(&m);
}

/* More goroutines than RND__MAX_LANES, a few dozen alive at a time (4,970
 * made over 0.25 ms, each for 1 µs): the lanes view reuses lanes and counts
 * every goroutine shown; the tree draws a line per lane at its first
 * goroutine's place, where every goroutine of the lane is found. */
static void many_goroutines_share_lanes_and_tree_lines(void **st)
{
    (void)st;
    cs_model m;
    sy_tree(&m, 70, 2);
    assert_true(m.n_g - 1 > RND__MAX_LANES);
    gl_env e;
    env_open(&e, &m, NULL, 960, 540);
    rnd_view v;
    rnd_view_defaults(&m, &v);
    draw(&e, &v);
    const lay_lanes *l = &e.r->lay.lanes;
    assert_true(l->compacted && !l->collapsed);
    assert_true(l->n_lanes < 100);
    assert_int_equal(rnd_last_stats(e.r)->lanes, m.n_g - 1);
    /* in playback, the pointer beyond the playback position on a reused
     * lane names the goroutine it holds at that position */
    v.now = m.t_first + (m.t_last - m.t_first) / 3;
    draw(&e, &v);
    uint32_t lanes_named = 0;
    for (uint32_t lane = 0; lane < l->n_lanes; lane++) {
        rnd_hit hit;
        float y = e.r->plot_y0 + ((float)lane + 0.5f) * e.r->lane_h - v.scroll_px;
        if (l->lane_n[lane] < 2 || !rnd_pick(e.r, &v, e.r->plot_x1 - 2, y, &hit) || !hit.g)
            continue;
        assert_int_equal(hit.g, lay_lanes_g_at(&m, l, lane, v.now));
        lanes_named++;
    }
    assert_true(lanes_named > 10);
    v.now = CS_T_NONE;
    v.layout = RND_TREE;
    draw(&e, &v);
    save(&e, "tree-shared-lines.png");
    assert_true(l->compacted);
    assert_int_equal(rnd_last_stats(e.r)->lanes, m.n_g - 1);
    uint32_t shared = 0;
    for (uint32_t g = 1; g < m.n_g; g++) {
        uint32_t head = l->lane_g[l->lane_of_g[g]];
        if (head == g)
            continue;
        float x, y, hx, hy;
        assert_true(rnd_tree_point(e.r, g, m.g[g].create_ns, &x, &y));
        assert_true(rnd_tree_point(e.r, head, m.g[g].create_ns, &hx, &hy));
        assert_true(x == hx && y == hy);
        shared++;
    }
    assert_true(shared > m.n_g / 2);
    /* laid out over the lines, not at their goroutines' places in a tree of
     * them all: a ring of n lines a spacing apart is n / 2π across, the
     * tree of its 4,971 goroutines hundreds */
    float far = 0;
    for (uint32_t g = 1; g < m.n_g; g++)
        far = fmaxf(far, hypotf(e.r->tree_xz[2 * g], e.r->tree_xz[2 * g + 1]));
    assert_true(far > 0 && far < (float)l->n_lanes);
    /* the pointer on a shared line names the goroutine of it alive there
     * (within a pixel's time), not the line's first */
    uint32_t named = 0;
    int64_t px_t = (m.t_last - m.t_first) / 400 + 1;
    for (uint32_t g = 1; g < m.n_g; g += 37) {
        uint32_t lane = l->lane_of_g[g];
        if (l->lane_g[lane] == g || m.g[g].end_ns == CS_T_NONE)
            continue;
        int64_t mid = m.g[g].create_ns + (m.g[g].end_ns - m.g[g].create_ns) / 2;
        float x, y;
        rnd_hit hit;
        if (!rnd_tree_point(e.r, g, mid, &x, &y) || !rnd_pick(e.r, &v, x, y, &hit) || l->lane_of_g[hit.g] != lane)
            continue; /* another line nearer on screen */
        const cs_goroutine *h = &m.g[hit.g];
        assert_true(h->create_ns <= mid + px_t && (h->end_ns == CS_T_NONE || h->end_ns >= mid - px_t));
        named += hit.g != l->lane_g[lane];
    }
    assert_true(named > 10);
    env_close(&e);
    cs_model_deinit(&m);
}

/* Any pixel within r of (x, y) away from the background by more than 40. */
static bool drawn_near(const gl_env *e, float x, float y, int r, uint32_t bg_rgb)
{
    for (int dy = -r; dy <= r; dy++)
        for (int dx = -r; dx <= r; dx++) {
            int px = (int)lroundf(x) + dx, py = (int)lroundf(y) + dy;
            if (px < 0 || py < 0 || px >= e->w || py >= e->h)
                continue;
            const uint8_t *p = e->rgba + ((size_t)py * e->w + px) * 4;
            int d = abs(p[0] - (int)(bg_rgb >> 16)) + abs(p[1] - (int)((bg_rgb >> 8) & 255)) +
                    abs(p[2] - (int)(bg_rgb & 255));
            if (d > 40)
                return true;
        }
    return false;
}

/* No two boxes (x0 y0 x1 y1) of n intersect. */
static void assert_apart(const float *box, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++) {
            const float *a = box + 4 * i, *b = box + 4 * j;
            assert_false(a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]);
        }
}

/* The tree draws its lines, its axis and its labels through one
 * projection at every camera pose: after orbits, a zoom at a pointer and a
 * pan, the selected player's line at each tick's time is at the tick's
 * height on screen (the axis stands at the selection's depth) and a line
 * is drawn there; every goroutine is labelled, no two labels meet, and the
 * framed tree keeps clear of the header and the legend. */
static void tree_lines_axis_and_labels_share_one_projection(void **st)
{
    (void)st;
    cs_model m;
    pingpong(&m, 10);
    gl_env e;
    env_open(&e, &m, NULL, 960, 540);
    rnd_view v;
    rnd_view_defaults(&m, &v);
    v.layout = RND_TREE;
    uint32_t g;
    assert_true(cs_model_g_find(&m, 2, &g));
    v.selected = g;
    uint32_t bg = rnd__theme_get(v.theme)->bg >> 8;
    static const struct { float yaw, pitch, zoom, pan; } poses[] = {
        {0.6f, 0.35f, 1, 0}, {2.2f, 0.9f, 1, 0}, {-1.0f, -0.4f, 1.8f, 30}, {3.5f, 1.0f, 0.8f, -40}};
    for (size_t k = 0; k < sizeof poses / sizeof *poses; k++) {
        v.yaw = poses[k].yaw, v.pitch = poses[k].pitch, v.dist = 1, v.pan_x = v.pan_y = 0;
        draw(&e, &v);
        if (k == 0) { /* framed: between the header and the legend, most of the height */
            float lo = 1e9f, hi = -1e9f, legend = (float)e.h - 24 - 18.0f * (float)(e.r->legend_rows - 1);
            for (uint32_t i = 1; i < m.n_g; i++)
                if (e.r->scr[4 * i] >= 0)
                    lo = fminf(lo, fminf(e.r->scr[4 * i + 1], e.r->scr[4 * i + 3])),
                    hi = fmaxf(hi, fmaxf(e.r->scr[4 * i + 1], e.r->scr[4 * i + 3]));
            print_message("lines from y %.0f to %.0f of %d (legend at %.0f)\n", lo, hi, e.h, legend);
            assert_true(lo >= 30 && hi <= legend && hi - lo >= 0.7f * (float)e.h);
        }
        rnd_zoom_at(e.r, &v, e.w, e.h, 0.3f * (float)e.w, 0.6f * (float)e.h, poses[k].zoom);
        v.pan_x += poses[k].pan, v.pan_y -= poses[k].pan;
        draw(&e, &v);
        int64_t t[32];
        float xy[64], box[4 * 64];
        uint32_t n = rnd_tree_ticks(e.r, t, xy, 32), checked = 0, lg[64];
        for (uint32_t i = 0; i < n; i++) {
            float x, y;
            if (t[i] <= m.g[g].create_ns || (m.g[g].end_ns != CS_T_NONE && t[i] >= m.g[g].end_ns))
                continue;
            assert_true(rnd_tree_point(e.r, g, t[i], &x, &y));
            if (x < 0 || y < 0 || x >= (float)e.w || y >= (float)e.h)
                continue;
            assert_true(fabsf(y - xy[2 * i + 1]) <= 1.5f);
            assert_true(drawn_near(&e, x, y, 2, bg));
            checked++;
        }
        uint32_t nl = rnd_tree_labels(e.r, lg, box, 64);
        print_message("pose %zu: %u ticks, %u on the selected line, %u labels\n", k, n, checked, nl);
        assert_true(checked >= 2);
        assert_int_equal(nl, m.n_g - 1);
        assert_apart(box, nl);
    }
    save(&e, "tree-pose.png");
    env_close(&e);
    cs_model_deinit(&m);
}

/* The wheel zooms at the pointer: the point under it stays, others move
 * away from it by the zoom's factor; in the graph too. */
static void tree_zoom_keeps_the_point_under_the_pointer(void **st)
{
    (void)st;
    cs_model m;
    pingpong(&m, 10);
    gl_env e;
    env_open(&e, &m, NULL, 960, 540);
    rnd_view v;
    rnd_view_defaults(&m, &v);
    v.layout = RND_TREE;
    uint32_t g2, g3;
    assert_true(cs_model_g_find(&m, 2, &g2) && cs_model_g_find(&m, 3, &g3));
    int64_t tm = (m.t_first + m.t_last) / 2;
    float ax, ay, bx, by, cx, cy, dx, dy;
    draw(&e, &v);
    assert_true(rnd_tree_point(e.r, g2, tm, &ax, &ay) && rnd_tree_point(e.r, g3, m.t_last, &bx, &by));
    rnd_zoom_at(e.r, &v, e.w, e.h, ax, ay, 2.0f);
    draw(&e, &v);
    assert_true(rnd_tree_point(e.r, g2, tm, &cx, &cy) && rnd_tree_point(e.r, g3, m.t_last, &dx, &dy));
    print_message("under the pointer: (%.1f, %.1f) -> (%.1f, %.1f)\n", ax, ay, cx, cy);
    assert_true(fabsf(cx - ax) <= 1 && fabsf(cy - ay) <= 1);
    assert_true(fabsf(hypotf(dx - cx, dy - cy) - 2 * hypotf(bx - ax, by - ay)) <= 2);
    v.layout = RND_GRAPH, v.dist = 1, v.pan_x = v.pan_y = 0; /* the graph: a node's box stays under the pointer */
    draw(&e, &v);
    const float *s = &e.r->scr[4 * g2];
    ax = 0.5f * (s[0] + s[2]), ay = s[1], bx = s[2] - s[0];
    rnd_zoom_at(e.r, &v, e.w, e.h, ax, ay, 1.5f);
    draw(&e, &v);
    print_message("graph node under the pointer: (%.1f, %.1f) -> (%.1f, %.1f)\n", ax, ay, 0.5f * (s[0] + s[2]), s[1]);
    assert_true(fabsf(0.5f * (s[0] + s[2]) - ax) <= 1 && fabsf(s[1] - ay) <= 1);
    assert_true(s[2] - s[0] > 1.3f * bx);
    env_close(&e);
    cs_model_deinit(&m);
}

/* Labels of a crowded tree at several camera poses: many, never meeting. */
static void tree_labels_apart_at_every_pose(void **st)
{
    (void)st;
    cs_model m;
    sy_tree(&m, 12, 2); /* 157 goroutines */
    gl_env e;
    env_open(&e, &m, NULL, 960, 540);
    rnd_view v;
    rnd_view_defaults(&m, &v);
    v.layout = RND_TREE;
    static const float poses[][3] = {{0.6f, 0.35f, 1}, {1.7f, 1.0f, 1}, {-2.5f, 0.1f, 0.5f}, {4.0f, -0.8f, 1.3f}};
    static float box[4 * RND__TREE_LABELS];
    static uint32_t lg[RND__TREE_LABELS];
    for (size_t k = 0; k < sizeof poses / sizeof *poses; k++) {
        v.yaw = poses[k][0], v.pitch = poses[k][1], v.dist = poses[k][2];
        draw(&e, &v);
        uint32_t n = rnd_tree_labels(e.r, lg, box, RND__TREE_LABELS);
        print_message("pose %zu: %u labels\n", k, n);
        assert_true(n >= 8);
        assert_apart(box, n);
        for (uint32_t i = 0; i < n; i++)
            assert_true(box[4 * i] >= 0 && box[4 * i + 2] <= (float)e.w && box[4 * i + 3] <= (float)e.h - 24);
    }
    env_close(&e);
    cs_model_deinit(&m);
}

/* The bar is 560 px wide in a 640x360 frame, centred; its row is the middle
 * one. The filled part has the first channel hue. */
static void loading_bar_fills_with_bytes_read(void **st)
{
    (void)st;
    gl_env e;
    env_open(&e, NULL, NULL, 640, 360);
    lay_rgba c = lay_palette_get(LAY_THEME_DARK)->chan[0];
    uint32_t hue = (uint32_t)c.r << 16 | (uint32_t)c.g << 8 | c.b;
    static const uint64_t done[] = {0, 25, 75, 100};
    for (int i = 0; i < 4; i++) {
        cs_err err = {0};
        rnd_surface_begin(e.s);
        assert_true(rnd_loading_draw(e.r, &(rnd_loading){.name = "ring.trace", .stage = "decoding",
                                                          .done_bytes = done[i] * 1000000, .total_bytes = 100000000},
                                     e.w, e.h, &err));
        rnd_surface_end(e.s);
        assert_true(rnd_surface_read(e.s, e.rgba, &err));
        size_t filled = count_color(e.rgba + (size_t)e.w * (e.h / 2) * 4, (size_t)e.w, hue, 8);
        print_message("%llu%% read: %zu px of the bar filled\n", (unsigned long long)done[i], filled);
        assert_true(filled + 3 >= 560 * done[i] / 100 && filled <= 560 * done[i] / 100 + 3);
        if (i == 2)
            save(&e, "loading.png");
    }
    env_close(&e);
}

static uint32_t rgb_of(lay_rgba c)
{
    return (uint32_t)c.r << 16 | (uint32_t)c.g << 8 | c.b;
}

/* Hundreds of messages across three lanes at overview zoom (sy_wall): the lanes they
 * cross keep at least 90 % of the bar pixels they have without any message
 * (the arrows go faint and under the bars), and where a grid line crosses
 * a bar the bar is on top. In both the dark and the gotrace theme. */
static void arrows_never_hide_a_lane_and_grid_runs_under_bars(void **st)
{
    (void)st;
    for (int theme = RND_DARK; theme <= RND_GOTRACE; theme += RND_GOTRACE - RND_DARK) {
        size_t bars[2];
        for (int with = 1; with >= 0; with--) {
            cs_model m;
            sy_wall(&m, 1500);
            if (!with)
                m.n_msgs = 0;
            gl_env e;
            env_open(&e, &m, NULL, 1280, 720);
            rnd_view v;
            rnd_view_defaults(&m, &v);
            v.theme = (rnd_theme)theme;
            draw(&e, &v);
            char name[64];
            snprintf(name, sizeof name, "wall-%s-%s.png", theme == RND_DARK ? "dark" : "gotrace", with ? "msgs" : "none");
            save(&e, name);
            uint32_t sync = rgb_of(lay_palette_get((lay_theme)theme)->mark[LAY_MARK_BLOCK_SYNC]);
            bars[with] = count_color(e.rgba, (size_t)e.w * e.h, sync, 12);
            if (!with) { /* each tick's grid line, at the middle of an idle lane: the bar's colour */
                rnd_renderer *r = e.r;
                lay_tick ticks[64];
                uint32_t nt = lay_axis_ticks(&r->lay.axis, r->plot_x1 - r->plot_x0, 90.0, ticks, 64), gi;
                assert_true(cs_model_g_find(&m, 4, &gi) && r->row[gi] >= 0);
                int y = (int)(r->plot_y0 + ((float)r->row[gi] + 0.5f) * r->lane_h);
                for (uint32_t i = 1; i + 1 < nt; i++) {
                    int x = (int)(r->plot_x0 + (float)ticks[i].x * (r->plot_x1 - r->plot_x0));
                    assert_true(count_color(e.rgba + ((size_t)y * e.w + x) * 4, 1, sync, 12) == 1);
                }
                print_message("%u grid lines, each under the idle lane's bar\n", nt);
            }
            env_close(&e);
            cs_model_deinit(&m);
        }
        print_message("theme %d: %zu mutex-wait bar pixels with 1500 messages, %zu without\n", theme, bars[1], bars[0]);
        assert_true(bars[0] > 20000);
        assert_true(bars[1] * 10 >= bars[0] * 9);
    }
}

/* Animation frames through the GIF writer: pixels that are a state colour
 * of the theme in the frame come back from the GIF within 2 per channel
 * (the palette holds them exactly), and the whole frame within a small mean
 * error; corpus ping-pong, dark and gotrace themes. */
static void gif_frames_keep_state_colours(void **st)
{
    (void)st;
    const char *trace = "tests/data/corpus/go1.23/pingpong.trace";
    cs_file f;
    cs_model m;
    cs_err err = {0};
    load(trace, &f, &m);
    for (int theme = RND_DARK; theme < RND_THEME_COUNT; theme++) {
        gl_env e;
        env_open(&e, &m, &f, 480, 270);
        rnd_view v;
        rnd_view_defaults(&m, &v);
        v.theme = (rnd_theme)theme;
        v.now = m.t_last;
        draw(&e, &v);
        uint8_t *frames[3];
        rnd_gif g;
        mkdir("build", 0755);
        mkdir(OUT, 0755);
        assert_true(rnd_gif_open(&g, &(rnd_gif_desc){.path = OUT "/colours.gif", .w = e.w, .h = e.h, .delay_cs = 10,
                                                     .theme = v.theme, .sample = e.rgba}, &err));
        for (int i = 0; i < 3; i++) {
            v.now = m.t_first + (m.t_last - m.t_first) * (i + 1) / 3;
            draw(&e, &v);
            frames[i] = cs_alloc((size_t)e.w * e.h * 4);
            memcpy(frames[i], e.rgba, (size_t)e.w * e.h * 4);
            assert_true(rnd_gif_frame(&g, e.rgba, &err));
        }
        assert_true(rnd_gif_close(&g, &err));
        int code = 0;
        GifFileType *gf = DGifOpenFileName(OUT "/colours.gif", &code);
        assert_non_null(gf);
        assert_int_equal(DGifSlurp(gf), GIF_OK);
        assert_int_equal(gf->ImageCount, 3);
        const lay_palette *pal = lay_palette_get((lay_theme)theme);
        for (int i = 0; i < 3; i++) {
            const SavedImage *im = &gf->SavedImages[i];
            const ColorMapObject *cm = im->ImageDesc.ColorMap ? im->ImageDesc.ColorMap : gf->SColorMap;
            size_t state_px = 0, off = 0, n = (size_t)e.w * e.h;
            double err_sum = 0;
            for (size_t p = 0; p < n; p++) {
                const uint8_t *a = frames[i] + 4 * p;
                const GifColorType *c = &cm->Colors[im->RasterBits[p]];
                int d = abs(a[0] - c->Red) + abs(a[1] - c->Green) + abs(a[2] - c->Blue);
                err_sum += d;
                for (int k = 1; k < LAY_MARK_COUNT; k++) {
                    lay_rgba s = pal->mark[k];
                    if (a[0] == s.r && a[1] == s.g && a[2] == s.b) {
                        state_px++;
                        off += abs(a[0] - c->Red) > 2 || abs(a[1] - c->Green) > 2 || abs(a[2] - c->Blue) > 2;
                    }
                }
            }
            print_message("theme %d frame %d: %zu state-coloured pixels, %zu off in the GIF, mean error %.2f\n",
                          theme, i + 1, state_px, off, err_sum / (double)n);
            assert_true(state_px > 1000);
            assert_int_equal(off, 0);
            assert_true(err_sum / (double)n < 4.0);
            cs_free(frames[i]);
        }
        DGifCloseFile(gf, &code);
        env_close(&e);
    }
    cs_model_deinit(&m);
    cs_file_unmap(&f);
}

/* What the renderer reads back and what rnd_png_write writes are opaque. */
static void pictures_are_opaque(void **st)
{
    (void)st;
    cs_model m;
    pingpong(&m, 8);
    gl_env e;
    env_open(&e, &m, NULL, 320, 180);
    for (int layout = RND_LANES; layout < RND_LAYOUT_COUNT; layout++) {
        rnd_view v;
        rnd_view_defaults(&m, &v);
        v.layout = (rnd_layout)layout;
        v.now = m.t_last / 2;
        draw(&e, &v);
        size_t translucent = 0;
        for (size_t i = 0; i < (size_t)e.w * e.h; i++)
            translucent += e.rgba[4 * i + 3] != 255;
        assert_int_equal(translucent, 0);
    }
    save(&e, "opaque.png");
    int w, h, ch;
    uint8_t *img = stbi_load(OUT "/opaque.png", &w, &h, &ch, 4);
    assert_non_null(img);
    size_t translucent = 0;
    for (size_t i = 0; i < (size_t)w * h; i++)
        translucent += img[4 * i + 3] != 255;
    assert_int_equal(translucent, 0);
    stbi_image_free(img);
    env_close(&e);
    cs_model_deinit(&m);
}

/* Edges are antialiased by the shaders, on a surface with one sample a
 * pixel: a one-pixel line on the border of two rows covers each by half, a
 * half-pixel hairline on a row's centre covers it by half, and the sides
 * of a slanted line and of an arrowhead have pixels between their colour
 * and the background's (white on black, drawn straight through gl.c).
 * Unsmoothed, every pixel is whole or empty. */
static void edges_are_antialiased_by_coverage(void **st)
{
    (void)st;
    gl_env e;
    env_open(&e, NULL, NULL, 64, 64);
    rnd__gl g;
    cs_err err = {0};
    assert_true(rnd__gl_init(&g, &err));
    rnd__scene sc = {0};
    rnd__ortho_px(sc.mvp, e.w, e.h);
    rnd__seg(&sc, RND__SEGS, 4, 10, 0, 60, 10, 0, 1.0f, 0xffffffffu);   /* rows 9 and 10 */
    rnd__seg(&sc, RND__SEGS, 4, 20.5f, 0, 60, 20.5f, 0, 0.5f, 0xffffffffu); /* row 20 */
    rnd__seg(&sc, RND__SEGS, 4, 26, 0, 30, 60, 0, 2.0f, 0xffffffffu);   /* slanted */
    rnd__seg(&sc, RND__HEADS, 48, 60, 0, 48, 30, 0, 16.0f, 0xffffffffu); /* tip at (48, 30) */
    assert_false(sc.oom);
    rnd_surface_begin(e.s);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    rnd__gl_draw(&g, &sc, 0, e.w, e.h, true);
    rnd_surface_end(e.s);
    assert_true(rnd_surface_read(e.s, e.rgba, &err));
    const uint8_t *px = e.rgba;
#define RED(x, y) px[4 * ((size_t)(y) * (size_t)e.w + (size_t)(x))]
    for (int x = 8; x < 56; x++) {
        assert_in_range(RED(x, 9), 120, 136);
        assert_in_range(RED(x, 10), 120, 136);
        assert_int_equal(RED(x, 8), 0);
        assert_int_equal(RED(x, 11), 0);
        assert_in_range(RED(x, 20), 120, 136);
        assert_int_equal(RED(x, 19), 0);
        assert_int_equal(RED(x, 21), 0);
    }
    int slant_full = 0, slant_part = 0, head_full = 0, head_part = 0;
    for (int y = 28; y < 58; y++)
        for (int x = 0; x < 64; x++) {
            uint8_t v = RED(x, y);
            int *full = x < 36 ? &slant_full : &head_full, *part = x < 36 ? &slant_part : &head_part;
            *full += v >= 250;
            *part += v > 5 && v < 250;
        }
    print_message("slanted line: %d full, %d partial; arrowhead: %d full, %d partial\n", slant_full, slant_part,
                  head_full, head_part);
    assert_true(slant_full > 20 && slant_part > 40);
    assert_true(head_full > 60 && head_part > 20);
    /* unsmoothed (the viewer on software GL): every pixel whole or empty */
    rnd_surface_begin(e.s);
    glClear(GL_COLOR_BUFFER_BIT);
    rnd__gl_draw(&g, &sc, 0, e.w, e.h, false);
    rnd_surface_end(e.s);
    assert_true(rnd_surface_read(e.s, e.rgba, &err));
    size_t partial = 0;
    for (size_t i = 0; i < (size_t)e.w * e.h; i++)
        partial += px[4 * i] != 0 && px[4 * i] != 255;
    assert_int_equal(partial, 0);
    assert_true((RED(30, 9) == 255) != (RED(30, 10) == 255));
#undef RED
    rnd__scene_free(&sc);
    rnd__gl_deinit(&g);
    env_close(&e);
}

/* The viewer's time window is kept inside the trace, its width kept: moved
 * back from past either end, the whole trace when wider, left alone inside
 * or when the trace is one instant. */
static void view_window_stays_inside_the_trace(void **st)
{
    (void)st;
    cs_model m;
    pingpong(&m, 4);
    int64_t lo = m.t_first, hi = m.t_last, w = (hi - lo) / 10;
    assert_true(hi - lo >= 100);
    rnd_view v;
    rnd_view_defaults(&m, &v);
    v.t0 = hi - w / 2, v.t1 = v.t0 + w; /* the last page of playback */
    rnd_view_inside(&m, &v);
    assert_true(v.t1 == hi && v.t0 == hi - w);
    v.t0 = lo - 3 * w, v.t1 = lo - 2 * w; /* dragged past the start */
    rnd_view_inside(&m, &v);
    assert_true(v.t0 == lo && v.t1 == lo + w);
    v.t0 = lo - w, v.t1 = hi + w; /* zoomed out beyond the whole */
    rnd_view_inside(&m, &v);
    assert_true(v.t0 == lo && v.t1 == hi);
    v.t0 = lo + w, v.t1 = lo + 2 * w;
    rnd_view_inside(&m, &v);
    assert_true(v.t0 == lo + w && v.t1 == lo + 2 * w);
    m.t_last = m.t_first; /* one instant: the window stays */
    v.t0 = lo - 5, v.t1 = lo + 5;
    rnd_view_inside(&m, &v);
    assert_true(v.t0 == lo - 5 && v.t1 == lo + 5);
    cs_model_deinit(&m);
}

/* A PNG libpng refuses (no width: "Invalid IHDR data") is an error with
 * libpng's reason, and leaves no file behind. */
static void a_png_libpng_refuses_is_an_error_and_no_file(void **st)
{
    (void)st;
    const uint8_t rgba[4] = {0};
    cs_err err = {0};
    mkdir(OUT, 0755);
    unlink(OUT "/refused.png");
    assert_false(rnd_png_write(OUT "/refused.png", rgba, 0, 1, &err));
    assert_int_equal(err.code, CS_E_IO);
    assert_non_null(strstr(err.msg, "PNG encoding failed: "));
    assert_non_null(strstr(err.msg, "IHDR"));
    assert_int_equal(access(OUT "/refused.png", F_OK), -1);
}

/* Every theme tells its states apart: no two state colours closer than 60
 * (RGB distance). */
/* The atlas' glyph of one character (its texture box), as a label draws it. */
static float glyph_u(const rnd_renderer *r, const char *utf8)
{
    rnd__scene sc;
    memset(&sc, 0, sizeof sc);
    rnd__text(&sc, &r->font, RND__F12, 0, 20, 0xffffffffu, utf8);
    float u = sc.n_gl == 1 ? sc.gl[0].uv[0] + 7 * sc.gl[0].uv[1] : -1;
    rnd__scene_free(&sc);
    return u;
}

/* Names beyond ASCII (Go allows them, and values and regions carry any
 * text) are drawn with their own glyphs, not '?': a renderer made with the
 * model packs its characters; one made before it (the viewer's, drawing the
 * loading screen) packs them when the model is attached and draws them from
 * its next frame on. A character the font lacks (CJK in DejaVu Sans) stays '?';
 * a trace with more characters than the atlas takes keeps chanscope's own
 * symbols (→ …) drawn. */
static void names_beyond_ascii_get_their_glyphs(void **st)
{
    (void)st;
    cs_model m;
    sy_pingpong(&m, 3);
    cs_err err = {0};
    m.g[1].name = cs_model_intern(&m, "main.Empf\xC3\xA4nger\xE4\xB8\xAD", 18, &err);
    rnd_renderer *still = rnd_create_still(&m, &err), *viewer = rnd_create(NULL, &err);
    assert_true(still && viewer);
    float q = glyph_u(still, "?");
    assert_true(q >= 0 && glyph_u(still, "\xC3\xA4") >= 0 && glyph_u(still, "\xC3\xA4") != q);
    assert_true(glyph_u(still, "\xE4\xB8\xAD") == q); /* 中: not in the font */
    assert_true(rnd__font_covers(&still->font, &m));
    assert_false(rnd__font_covers(&viewer->font, &m));
    assert_true(glyph_u(viewer, "\xC3\xA4") == glyph_u(viewer, "?"));
    assert_true(rnd_model_attach(viewer, &m, &err));
    rnd_view v;
    rnd_view_defaults(&m, &v);
    assert_true(rnd_frame_build(viewer, &v, 640, 360, &err));
    assert_true(rnd__font_covers(&viewer->font, &m));
    assert_true(glyph_u(viewer, "\xC3\xA4") != glyph_u(viewer, "?"));
    rnd_destroy(still);
    rnd_destroy(viewer);
    char many[2 * 0x600 + 1], *p = many; /* U+0100 to U+06FF: more than the atlas takes */
    for (unsigned c = 0x100; c < 0x700; c++)
        *p++ = (char)(0xC0 | c >> 6), *p++ = (char)(0x80 | (c & 63));
    m.g[2].name = cs_model_intern(&m, many, (size_t)(p - many), &err);
    still = rnd_create_still(&m, &err);
    assert_non_null(still);
    q = glyph_u(still, "?");
    assert_true(glyph_u(still, "\xE2\x86\x92") != q && glyph_u(still, "\xE2\x80\xA6") != q); /* → … */
    assert_true(glyph_u(still, "\xC4\x80") != q); /* U+0100, the first of them */
    rnd_destroy(still);
    cs_model_deinit(&m);
}

static void themes_keep_states_apart(void **st)
{
    (void)st;
    for (int t = 0; t < LAY_THEME_COUNT; t++) {
        const lay_palette *p = lay_palette_get((lay_theme)t);
        for (int a = 1; a < LAY_MARK_COUNT; a++)
            for (int b = a + 1; b < LAY_MARK_COUNT; b++) {
                double dr = p->mark[a].r - p->mark[b].r, dg = p->mark[a].g - p->mark[b].g, db = p->mark[a].b - p->mark[b].b;
                double d = sqrt(dr * dr + dg * dg + db * db);
                if (d < 60)
                    print_message("theme %d: %s and %s are %.0f apart\n", t, lay_mark_name((lay_mark)a),
                                  lay_mark_name((lay_mark)b), d);
                assert_true(d >= 60);
            }
    }
}

/* The picture's message total is the model's (what info and the SVG
 * say), even with sync wake-ups drawn as arrows; and a patched runtime's
 * values are printed beside their arrows (more glyphs than without). */
static void counts_agree_and_values_are_printed(void **st)
{
    (void)st;
    static const char *traces[] = {"tests/data/corpus/go1.23/annotated.trace",
                                   "tests/data/gotrace-patched/go1.8-primesieve.trace"};
    for (size_t t = 0; t < 2; t++) {
        cs_file f;
        cs_model m;
        load(traces[t], &f, &m);
        uint32_t glyphs[2] = {0, 0};
        for (int with = 1; with >= 0; with--) {
            gl_env e;
            env_open(&e, &m, &f, 1280, 720);
            rnd_view v;
            rnd_view_defaults(&m, &v);
            draw(&e, &v);
            const rnd_stats *s = rnd_last_stats(e.r);
            assert_int_equal(s->msgs_total, m.n_msgs);
            assert_true(s->msgs_shown <= s->msgs_total);
            glyphs[with] = s->glyphs;
            if (with && t)
                save(&e, "values-primesieve.png");
            env_close(&e);
            cs_free(m.msg_value); /* the next round: no values */
            m.msg_value = NULL, m.cap_msg_value = 0;
        }
        print_message("%s: %u messages; %u glyphs with values, %u without\n", traces[t], m.n_msgs, glyphs[1], glyphs[0]);
        if (t) /* the patched primesieve's numbers: dozens of them fit */
            assert_true(glyphs[1] >= glyphs[0] + 20);
        cs_model_deinit(&m);
        cs_file_unmap(&f);
    }
}

/* Pixels of running and channel-wait bars in columns [xa, xb) and rows
 * [ya, yb) of the last picture. */
static size_t bars_at(const gl_env *e, int xa, int xb, int ya, int yb)
{
    const lay_palette *p = lay_palette_get(LAY_THEME_DARK);
    size_t n = 0;
    for (int y = ya; y < yb && y < e->h; y++)
        for (int x = xa; x < xb; x++)
            for (int k = LAY_MARK_RUNNING; k <= LAY_MARK_BLOCK_CHAN; k += LAY_MARK_BLOCK_CHAN - LAY_MARK_RUNNING)
                n += count_color(e->rgba + ((size_t)y * e->w + (size_t)x) * 4, 1, rgb_of(p->mark[k]), 12);
    return n;
}

/* Those of the lanes (above the axis, not the legend). */
static size_t bars_in(const gl_env *e, int xa, int xb)
{
    return bars_at(e, xa, xb, (int)e->r->plot_y0, (int)e->r->sc.clip[3]);
}

/* The quick-frame tests' trace, with a renderer that stretches summaries
 * (e) and one that makes each frame afresh (fresh), 960x540. */
static void open_quick(cs_file *f, cs_model *m, gl_env *e, gl_env *fresh)
{
    load("tests/data/corpus/go1.27/primesieve.trace", f, m);
    env_open(e, m, f, 960, 540);
    env_open(fresh, m, NULL, 960, 540);
}

/* What open_quick opened, closed. */
static void close_quick(cs_file *f, cs_model *m, gl_env *e, gl_env *fresh)
{
    env_close(fresh);
    env_close(e);
    cs_model_deinit(m);
    cs_file_unmap(f);
}

/* While zoom or pan goes on (rnd_view.quick) the lanes are drawn from the
 * summaries made for the window before, stretched to the new one: zoomed
 * out from the second half of a trace, its first half has no bars yet,
 * zoomed in the picture is near the one made afresh; once it settles the
 * frame equals a new renderer's, pixel for pixel, on the gaps axis too. */
static void quick_frames_stretch_the_summaries_made_before(void **st)
{
    (void)st;
    cs_file f;
    cs_model m;
    gl_env e, fresh;
    open_quick(&f, &m, &e, &fresh);
    size_t n = (size_t)e.w * e.h;
    rnd_view whole, half, second;
    rnd_view_defaults(&m, &whole);
    half = second = whole;
    int64_t q = (whole.t1 - whole.t0) / 4;
    half.t0 = whole.t0 + q, half.t1 = whole.t1 - q;
    second.t0 = whole.t0 + 2 * q;
    draw(&fresh, &whole);
    int xa = (int)fresh.r->plot_x0, xb = (int)(fresh.r->plot_x0 + 0.5f * (fresh.r->plot_x1 - fresh.r->plot_x0)) - 10;
    size_t fresh_left = bars_in(&fresh, xa, xb);
    uint8_t *want = cs_alloc(n * 4), *before = cs_alloc(n * 4);
    memcpy(want, fresh.rgba, n * 4);
    /* out: the second half's summaries cover none of the first */
    draw(&e, &second);
    whole.quick = true;
    draw(&e, &whole);
    save(&e, "quick-out.png");
    size_t quick_left = bars_in(&e, xa, xb);
    print_message("bar pixels in the first half: %zu quick, %zu afresh\n", quick_left, fresh_left);
    assert_true(fresh_left > 1000);
    assert_int_equal(quick_left, 0);
    whole.quick = false;
    draw(&e, &whole);
    assert_int_equal(count_diff(e.rgba, want, n, 0), 0);
    /* in: the whole trace's summaries stretched twice are near the half's afresh */
    memcpy(before, e.rgba, n * 4);
    draw(&fresh, &half);
    memcpy(want, fresh.rgba, n * 4);
    half.quick = true;
    draw(&e, &half);
    save(&e, "quick-in.png");
    size_t d_quick = count_diff(e.rgba, want, n, 30), d_before = count_diff(before, want, n, 30);
    print_message("pixels off the zoomed picture: %zu stretched, %zu unmoved\n", d_quick, d_before);
    assert_true(count_diff(e.rgba, before, n, 30) > n / 50);
    assert_true(d_quick * 2 < d_before);
    half.quick = false;
    draw(&e, &half);
    assert_int_equal(count_diff(e.rgba, want, n, 0), 0);
    /* on the gaps axis a stretched frame folds the stretches of the axis
     * the summaries were made with; settled, the model's again */
    second.axis = whole.axis = LAY_AXIS_GAPS;
    draw(&fresh, &whole);
    memcpy(want, fresh.rgba, n * 4);
    draw(&e, &second);
    whole.quick = true;
    draw(&e, &whole);
    save(&e, "quick-gaps.png");
    assert_true(rnd_last_stats(e.r)->gaps > 0);
    whole.quick = false;
    draw(&e, &whole);
    assert_int_equal(count_diff(e.rgba, want, n, 0), 0);
    cs_free(want), cs_free(before);
    close_quick(&f, &m, &e, &fresh);
}

/* While the lanes scroll (a drag up or down, rnd_view.quick) the summaries
 * of the lanes in view before stay, as those of the window before do while
 * it moves: scrolled back to the top, the lanes that come into view have no
 * bars until the view settles, the others keep theirs; settled, the frame
 * equals a new renderer's, pixel for pixel. Alike when the window moves in
 * time at once (a diagonal drag). */
static void quick_frames_keep_the_lanes_summarised_before(void **st)
{
    (void)st;
    cs_file f;
    cs_model m;
    gl_env e, fresh;
    open_quick(&f, &m, &e, &fresh);
    size_t n = (size_t)e.w * e.h;
    uint8_t *want = cs_alloc(n * 4);
    rnd_view top, down;
    rnd_view_defaults(&m, &top);
    int64_t q = (top.t1 - top.t0) / 4;
    for (int diagonal = 0; diagonal < 2; diagonal++) {
        down = top;
        draw(&fresh, &top);
        memcpy(want, fresh.rgba, n * 4);
        float y0 = fresh.r->plot_y0, lane_h = fresh.r->lane_h;
        int xa = (int)fresh.r->plot_x0, xb = (int)fresh.r->plot_x1;
        int ya = (int)y0, yb = (int)(y0 + 4 * lane_h), yc = (int)(y0 + 7 * lane_h), yd = (int)fresh.r->sc.clip[3];
        size_t fresh_top = bars_at(&fresh, xa, xb, ya, yb), fresh_rest = bars_at(&fresh, xa, xb, yc, yd);
        down.scroll_px = 6 * lane_h; /* lanes 0 to 4 out of view, and out of the summaries */
        if (diagonal)
            down.t0 += q, down.t1 += q;
        draw(&e, &down);
        top.quick = true;
        draw(&e, &top);
        save(&e, diagonal ? "quick-diagonal.png" : "quick-vertical.png");
        size_t quick_top = bars_at(&e, xa, xb, ya, yb), quick_rest = bars_at(&e, xa, xb, yc, yd);
        print_message("%s: bar pixels in the lanes come into view %zu quick, %zu afresh; below %zu, %zu\n",
                      diagonal ? "diagonal" : "vertical", quick_top, fresh_top, quick_rest, fresh_rest);
        assert_true(fresh_top > 500 && fresh_rest > 5000);
        assert_int_equal(quick_top, 0);
        assert_true(quick_rest > fresh_rest / 4);
        top.quick = false;
        draw(&e, &top);
        assert_int_equal(count_diff(e.rgba, want, n, 0), 0);
        top.t0 -= q, top.t1 -= q; /* the diagonal's window: a quarter earlier than down's */
    }
    cs_free(want);
    close_quick(&f, &m, &e, &fresh);
}

/* v drawn by a renderer that makes each frame's summaries at once. */
static void draw_at_once(gl_env *e, const rnd_view *v)
{
    rnd_view w = *v;
    w.behind = NULL, w.behind_ud = NULL;
    draw(e, &w);
}

/* The wake-ups of summaries made behind the frames (rnd_view.behind). */
static void count_wake(void *ud)
{
    atomic_fetch_add((atomic_uint *)ud, 1);
}

/* A frame drawn, then, while its summaries are made behind it, the
 * frames after their wake-up until none is pending: how many that took. */
static unsigned draw_until_settled(gl_env *e, const rnd_view *v, atomic_uint *woken)
{
    unsigned frames = 1;
    draw(e, v);
    for (; rnd_pending(e->r); frames++) {
        for (int i = 0; i < 20000 && !atomic_load(woken); i++)
            nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
        assert_true(atomic_exchange(woken, 0) >= 1); /* a job that ended: one wake-up each */
        draw(e, v);
    }
    return frames;
}

/* In the viewer (rnd_view.behind), the first frame of a move starts a
 * thread making the summaries for its view, and draws those made before
 * as a quick frame of a renderer without one does, pixel for pixel; once
 * the view has settled, the frame after the thread's wake-up equals a
 * new renderer's, pixel for pixel: after a move in time, a scroll of the
 * lanes alone (the bundles kept) and both, on the linear and gaps axes. A
 * view that changes while its summaries are made gets them made again,
 * those made meanwhile stretched as a renderer that had settled there
 * stretches them (a long drag), and a renderer let go with a job running
 * waits for it. */
static void settled_frames_make_their_summaries_behind(void **st)
{
    (void)st;
    cs_file f;
    cs_model m;
    gl_env e, fresh, plain;
    open_quick(&f, &m, &e, &fresh);
    env_open(&plain, &m, NULL, e.w, e.h);
    size_t n = (size_t)e.w * e.h;
    uint8_t *want = cs_alloc(n * 4);
    atomic_uint woken = 0;
    rnd_view whole;
    rnd_view_defaults(&m, &whole);
    whole.behind = count_wake, whole.behind_ud = &woken;
    int64_t q = (whole.t1 - whole.t0) / 4;
    for (int axis = 0; axis < 2; axis++) {
        whole.axis = axis ? LAY_AXIS_GAPS : LAY_AXIS_LINEAR;
        rnd_view half = whole, down = whole, further = whole, both = whole;
        half.t0 += q, half.t1 -= q;
        draw_at_once(&fresh, &whole); /* a lane's height, as e draws them */
        down.scroll_px = both.scroll_px = 6 * fresh.r->lane_h;
        further.scroll_px = 3 * fresh.r->lane_h; /* the lanes alone move */
        both.t0 += q, both.t1 += q;
        const rnd_view *steps[] = {&whole, &half, &down, &further, &both, &whole};
        unsigned first = draw_until_settled(&e, &whole, &woken);
        draw_at_once(&plain, &whole);
        if (!axis)
            assert_int_equal(first, 1); /* nothing to stretch: made at once */
        for (size_t i = 1; i < sizeof steps / sizeof *steps; i++) {
            rnd_view v = *steps[i], still = v;
            still.behind = NULL;
            still.quick = v.quick = true;
            draw(&plain, &still); /* as the quick frames of a renderer without jobs */
            draw(&e, &v);
            assert_true(rnd_pending(e.r)); /* the move's first frame starts them */
            assert_int_equal(count_diff(e.rgba, plain.rgba, n, 0), 0);
            v.quick = false;
            draw_until_settled(&e, &v, &woken);
            draw_at_once(&plain, &v); /* settled alike */
            draw_at_once(&fresh, &v);
            print_message("axis %d, step %zu: %zu pixels off a new renderer's\n", axis, i,
                          count_diff(e.rgba, fresh.rgba, n, 0));
            assert_int_equal(count_diff(e.rgba, fresh.rgba, n, 0), 0);
        }
        /* a view changed while its summaries are made: made again for it */
        draw(&e, &half);
        assert_true(rnd_pending(e.r));
        unsigned frames = draw_until_settled(&e, &whole, &woken);
        draw_at_once(&fresh, &whole);
        memcpy(want, fresh.rgba, n * 4);
        assert_true(frames >= 2);
        assert_int_equal(count_diff(e.rgba, want, n, 0), 0);
    }
    /* a long drag: summaries made for a view left are stretched from then on */
    whole.axis = LAY_AXIS_LINEAR;
    draw_until_settled(&e, &whole, &woken);
    rnd_view a = whole, b = whole;
    a.t0 += q, a.t1 -= q;
    b.t0 = a.t0 + q / 2, b.t1 = a.t1 + q / 2;
    a.quick = b.quick = true;
    draw(&e, &a);
    for (int i = 0; i < 20000 && !atomic_load(&woken); i++)
        nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    atomic_store(&woken, 0);
    draw(&e, &b);
    assert_true(rnd_pending(e.r)); /* b's, started as a's were taken */
    a.quick = false;
    draw_at_once(&plain, &a);
    draw_at_once(&plain, &b); /* quick: a's stretched */
    save(&e, "behind-drag.png");
    assert_int_equal(count_diff(e.rgba, plain.rgba, n, 0), 0);
    b.quick = false;
    draw_until_settled(&e, &b, &woken);
    draw_at_once(&fresh, &b);
    assert_int_equal(count_diff(e.rgba, fresh.rgba, n, 0), 0);
    rnd_view last = whole;
    last.t0 += q;
    draw(&e, &last);
    assert_true(rnd_pending(e.r)); /* let go below with its job running */
    cs_free(want);
    env_close(&plain);
    close_quick(&f, &m, &e, &fresh);
}

/* Under ThreadSanitizer (make test): without its lock-order checker, whose
 * table of locks a thread holds at once (64) Mesa's llvmpipe outgrows, and
 * the tool stops the test. */
const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
    return "detect_deadlocks=0";
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(png_has_size_state_colours_and_arrows),
        cmocka_unit_test(edges_are_antialiased_by_coverage),
        cmocka_unit_test(view_window_stays_inside_the_trace),
        cmocka_unit_test(playback_changes_picture_and_draws_pulses),
        cmocka_unit_test(every_layout_and_theme_draws),
        cmocka_unit_test(level_of_detail_bounds_primitives),
        cmocka_unit_test(gif_has_every_frame),
        cmocka_unit_test(picture_matches_reference),
        cmocka_unit_test(corpus_pingpong_draws_players_and_every_message),
        cmocka_unit_test(still_picture_matches_the_full_renderer),
        cmocka_unit_test(legend_counts_the_messages_in_the_picture),
        cmocka_unit_test(traffic_taken_draws_as_the_whole_model),
        cmocka_unit_test(axes_differ_and_gaps_are_marked),
        cmocka_unit_test(pulses_follow_the_axis),
        cmocka_unit_test(slanted_arrows_are_picked_along_their_length),
        cmocka_unit_test(arrows_are_walked_in_time_order),
        cmocka_unit_test(far_next_sends_are_found),
        cmocka_unit_test(compact_and_collapse_use_fewer_rows),
        cmocka_unit_test(tree_labels_never_overlap),
        cmocka_unit_test(many_goroutines_share_lanes_and_tree_lines),
        cmocka_unit_test(tree_lines_axis_and_labels_share_one_projection),
        cmocka_unit_test(tree_zoom_keeps_the_point_under_the_pointer),
        cmocka_unit_test(tree_labels_apart_at_every_pose),
        cmocka_unit_test(loading_bar_fills_with_bytes_read),
        cmocka_unit_test(arrows_never_hide_a_lane_and_grid_runs_under_bars),
        cmocka_unit_test(gif_frames_keep_state_colours),
        cmocka_unit_test(pictures_are_opaque),
        cmocka_unit_test(a_png_libpng_refuses_is_an_error_and_no_file),
        cmocka_unit_test(names_beyond_ascii_get_their_glyphs),
        cmocka_unit_test(themes_keep_states_apart),
        cmocka_unit_test(counts_agree_and_values_are_printed),
        cmocka_unit_test(quick_frames_stretch_the_summaries_made_before),
        cmocka_unit_test(quick_frames_keep_the_lanes_summarised_before),
        cmocka_unit_test(settled_frames_make_their_summaries_behind),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
