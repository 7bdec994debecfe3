/* tests/test_render.c — the renderer offscreen through EGL: pictures have
 * the requested size and more than background in them, state colours and
 * arrows are where the model puts them, playback changes the picture, every
 * layout draws, level of detail bounds a huge model's primitives, the GIF
 * writer makes a file giflib reads back, and one picture matches a checked-in
 * reference within a tolerance. Models are built with core/build.h (a
 * synthetic ping-pong) and, when the decoders read them, corpus traces.
 * Pictures are left in build/test-out/ for looking at. Skips when EGL has
 * no surfaceless display. */
#include "testlib.h"

#include "../core/build.h"
#include "../layout/palette.h"
#include "../render/render.h"

#include <gif_lib.h>
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
        assert_true(cs_grow((void **)&m->msgs, &m->cap_msgs, m->n_msgs + 1, sizeof *m->msgs, &err));
        uint32_t gf, gt;
        assert_true(cs_model_g_find(m, from, &gf) && cs_model_g_find(m, to, &gt));
        m->msgs[m->n_msgs++] = (cs_msg){.t_send = t + 800, .t_recv = t + 800, .sender = gf,
                                        .receiver = gt, .chan = 1, .kind = CS_MK_SEND};
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

static bool env_open(gl_env *e, const cs_model *m, int w, int h)
{
    cs_err err = {0};
    memset(e, 0, sizeof *e);
    e->w = w, e->h = h;
    if (!rnd_surface_egl_create(w, h, &e->s, &err)) {
        print_message("no EGL: %s\n", err.msg);
        return false;
    }
    e->r = rnd_create(m, &err);
    if (!e->r)
        print_message("rnd_create: %s\n", err.msg);
    assert_non_null(e->r);
    e->rgba = cs_alloc((size_t)w * h * 4);
    assert_non_null(e->rgba);
    return true;
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
    if (!env_open(&e, &m, 800, 450)) {
        cs_model_deinit(&m);
        skip();
    }
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
    if (!env_open(&e, &m, 640, 360)) {
        cs_model_deinit(&m);
        skip();
    }
    rnd_view v;
    rnd_view_defaults(&m, &v);
    size_t n = (size_t)e.w * e.h;
    uint8_t *all = cs_alloc(n * 4);
    draw(&e, &v);
    memcpy(all, e.rgba, n * 4);
    v.now = m.msgs[5].t_send + 10; /* just after the sixth hit: the ball is in flight */
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
    if (!env_open(&e, &m, 640, 360)) {
        cs_model_deinit(&m);
        skip();
    }
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
    assert_true(cs_grow((void **)&m.msgs, &m.cap_msgs, nm, sizeof *m.msgs, &err));
    for (uint32_t i = 0; i < nm; i++)
        m.msgs[m.n_msgs++] = (cs_msg){.t_send = 10000 + (int64_t)i * 2, .t_recv = 10000 + (int64_t)i * 2 + 300,
                                      .sender = 1 + i % (uint32_t)ng, .receiver = 1 + (i * 7919) % (uint32_t)ng};
    m.t_first = 0, m.t_last = 10000 + (int64_t)ns * 1000 + 10;
    gl_env e;
    if (!env_open(&e, &m, 1280, 720)) {
        cs_model_deinit(&m);
        skip();
    }
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
    if (!env_open(&e, &m, 320, 180)) {
        cs_model_deinit(&m);
        skip();
    }
    rnd_gif g;
    cs_err err = {0};
    mkdir("build", 0755);
    mkdir(OUT, 0755);
    assert_true(rnd_gif_open(&g, OUT "/pingpong.gif", e.w, e.h, 10, &err));
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
    if (!env_open(&e, &m, 480, 270)) {
        cs_model_deinit(&m);
        skip();
    }
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
        cs_err err = {0};
        if (!tl_load(traces[t], &f, &m, NULL, &err)) {
            print_message("%s: %s\n", traces[t], err.msg);
            fail();
        }
        gl_env e;
        if (!env_open(&e, &m, 960, 540)) {
            cs_model_deinit(&m), cs_file_unmap(&f);
            skip();
        }
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(png_has_size_state_colours_and_arrows),
        cmocka_unit_test(playback_changes_picture_and_draws_pulses),
        cmocka_unit_test(every_layout_and_theme_draws),
        cmocka_unit_test(level_of_detail_bounds_primitives),
        cmocka_unit_test(gif_has_every_frame),
        cmocka_unit_test(picture_matches_reference),
        cmocka_unit_test(corpus_pingpong_draws_players_and_every_message),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
