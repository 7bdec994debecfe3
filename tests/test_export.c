/* tests/test_export.c — export/: SVG (valid XML per xmllint, the marks and
 * arrows present, bounded size on a dense trace), written atomically, and
 * through the callback into memory. Pictures of the synthetic models land in
 * build/test-out/ for people to look at. */
#include "testlib.h"
#include "synth.h"

#include "../export/dot.h"
#include "../export/perfetto.h"
#include "../export/svg.h"

#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#define OUT_DIR "build/test-out"

typedef struct membuf {
    char *p;
    size_t n, cap;
    size_t limit; /* fail writes beyond this many bytes; 0 = no limit */
} membuf;

static size_t mem_write(void *ctx, const void *data, size_t n)
{
    membuf *b = ctx;
    if (b->limit && b->n + n > b->limit)
        return 0;
    if (b->n + n + 1 > b->cap) {
        b->cap = (b->n + n + 1) * 2;
        b->p = realloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, data, n);
    b->n += n;
    b->p[b->n] = 0;
    return n;
}

static bool xmllint_ok(const char *path)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "xmllint --noout '%s' 2>&1", path);
    return system(cmd) == 0;
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

static void svg_of_pingpong_is_valid_and_has_arrows(void **state)
{
    (void)state;
    cs_model m;
    sy_pingpong(&m, 12);
    mkdir("build", 0755), mkdir(OUT_DIR, 0755);
    cs_err err = {0};
    const char *path = OUT_DIR "/pingpong-synth.svg";
    assert_true(exp_svg_write(path, &m, &(exp_svg_desc){.name = "pingpong (synthetic)"}, &err));
    assert_true(xmllint_ok(path));
    membuf b = {0};
    assert_true(exp_svg_write_to(mem_write, &b, &m, &(exp_svg_desc){.name = "pp"}, &err));
    assert_int_equal(count(b.p, "<title>message on "), 12);
    assert_int_equal(count(b.p, " created G"), 2); /* main spawns both players */
    assert_non_null(strstr(b.p, ">G2 main.player</text>"));
    assert_non_null(strstr(b.p, "blocked on channel"));
    assert_non_null(strstr(b.p, "<title>message on main.player:23"));
    free(b.p);
    cs_model_deinit(&m);
}

static void svg_of_workers_and_tree_in_every_theme_and_axis(void **state)
{
    (void)state;
    cs_model w, t;
    sy_workers(&w, 4, 24);
    sy_tree(&t, 3, 3);
    cs_err err = {0};
    mkdir("build", 0755), mkdir(OUT_DIR, 0755);
    assert_true(exp_svg_write(OUT_DIR "/workers-synth.svg", &w, &(exp_svg_desc){.name = "workers"}, &err));
    assert_true(exp_svg_write(OUT_DIR "/tree-synth.svg", &t,
                              &(exp_svg_desc){.name = "tree", .theme = LAY_THEME_LIGHT}, &err));
    assert_true(xmllint_ok(OUT_DIR "/workers-synth.svg"));
    assert_true(xmllint_ok(OUT_DIR "/tree-synth.svg"));
    for (int th = 0; th < LAY_THEME_COUNT; th++)
        for (int ax = LAY_AXIS_LINEAR; ax <= LAY_AXIS_GAPS; ax++) {
            membuf b = {0};
            exp_svg_desc d = {.theme = (lay_theme)th, .axis = (lay_axis_kind)ax, .compact = ax == 1};
            assert_true(exp_svg_write_to(mem_write, &b, &w, &d, &err));
            assert_non_null(strstr(b.p, "</svg>"));
            free(b.p);
        }
    assert_true(exp_svg_write(OUT_DIR "/workers-graph-synth.svg", &w,
                              &(exp_svg_desc){.name = "workers", .layout = EXP_SVG_GRAPH}, &err));
    assert_true(xmllint_ok(OUT_DIR "/workers-graph-synth.svg"));
    assert_true(exp_svg_write(OUT_DIR "/tree-graph-synth.svg", &t,
                              &(exp_svg_desc){.name = "tree", .layout = EXP_SVG_GRAPH}, &err));
    assert_true(xmllint_ok(OUT_DIR "/tree-graph-synth.svg"));
    cs_model_deinit(&w);
    cs_model_deinit(&t);
}

/* 2000 goroutines and 200k messages: the picture stays bounded. */
static void svg_of_a_dense_trace_stays_bounded(void **state)
{
    (void)state;
    cs_model m;
    sy_workers(&m, 2000, 100000);
    cs_err err = {0};
    membuf b = {0};
    assert_true(exp_svg_write_to(mem_write, &b, &m, &(exp_svg_desc){0}, &err));
    assert_true(b.n < 12u << 20);
    assert_non_null(strstr(b.p, "of 200000 messages"));
    assert_non_null(strstr(b.p, "(one lane per function)"));
    assert_non_null(strstr(b.p, ">work.worker \u00d72000</text>"));
    mkdir("build", 0755), mkdir(OUT_DIR, 0755);
    FILE *f = fopen(OUT_DIR "/dense-synth.svg", "wb");
    assert_non_null(f);
    fwrite(b.p, 1, b.n, f);
    fclose(f);
    free(b.p);
    cs_model_deinit(&m);
}

static void svg_failed_write_leaves_no_file(void **state)
{
    (void)state;
    cs_model m;
    sy_pingpong(&m, 4);
    cs_err err = {0};
    membuf b = {.limit = 1000};
    assert_false(exp_svg_write_to(mem_write, &b, &m, &(exp_svg_desc){0}, &err));
    assert_int_equal(err.code, CS_E_IO);
    free(b.p);
    err = (cs_err){0};
    assert_false(exp_svg_write("/nonexistent-dir/x.svg", &m, &(exp_svg_desc){0}, &err));
    assert_int_equal(access("/nonexistent-dir/x.svg", F_OK), -1);
    cs_model_deinit(&m);
}

/* Parses with jansson; one "s" and one "f" per message, on the sender's and
 * receiver's threads at the send and receive times; threads are named. */
static void perfetto_json_parses_and_has_flow_events(void **state)
{
    (void)state;
    cs_model m;
    sy_workers(&m, 4, 10);
    cs_err err = {0};
    membuf b = {0};
    assert_true(exp_perfetto_write_to(mem_write, &b, &m, &(exp_perfetto_desc){.name = "w"}, &err));
    json_error_t je;
    json_t *root = json_loads(b.p, 0, &je);
    assert_non_null(root);
    json_t *ev = json_object_get(root, "traceEvents");
    assert_true(json_is_array(ev));
    size_t i, s_n = 0, f_n = 0, names = 0, slices = 0;
    json_t *e;
    json_array_foreach(ev, i, e) {
        const char *ph = json_string_value(json_object_get(e, "ph"));
        const char *cat = json_string_value(json_object_get(e, "cat"));
        if (!strcmp(ph, "M") && !strcmp(json_string_value(json_object_get(e, "name")), "thread_name"))
            names++;
        if (!strcmp(ph, "X"))
            slices++;
        if (cat && !strcmp(cat, "chan")) {
            json_int_t id = json_integer_value(json_object_get(e, "id"));
            double t = json_real_value(json_object_get(e, "ts"));
            json_int_t tid = json_integer_value(json_object_get(e, "tid"));
            if (!strcmp(ph, "s")) {
                s_n++;
                assert_int_equal(tid, m.g[cs_msg_sender(&m, (uint32_t)id - 1)].goid);
                assert_true(fabs(t - (double)(cs_msg_t_send(&m, (uint32_t)id - 1) - m.t_first) / 1000) < 1e-6);
            } else {
                f_n++;
                assert_string_equal(ph, "f");
                assert_string_equal(json_string_value(json_object_get(e, "bp")), "e");
                assert_int_equal(tid, m.g[cs_msg_receiver(&m, (uint32_t)id - 1)].goid);
                assert_true(fabs(t - (double)(cs_msg_t_recv(&m, (uint32_t)id - 1) - m.t_first) / 1000) < 1e-6);
            }
        }
    }
    assert_int_equal(s_n, m.n_msgs);
    assert_int_equal(f_n, m.n_msgs);
    assert_int_equal(names, 5 + 1); /* 5 goroutines and the GC track */
    assert_true(slices >= 5);
    json_decref(root);
    free(b.p);
    mkdir("build", 0755), mkdir(OUT_DIR, 0755);
    assert_true(exp_perfetto_write(OUT_DIR "/workers-synth.json", &m, &(exp_perfetto_desc){0}, &err));
    cs_model_deinit(&m);
}

/* DOT text that `dot -Tsvg` accepts, with counts (as xlabels), channel sites (tooltips) and the
 * dashed spawn / weighted message edges; and a PNG rendered through gvc. */
static void dot_is_accepted_by_graphviz(void **state)
{
    (void)state;
    cs_model m;
    sy_workers(&m, 3, 9);
    cs_err err = {0};
    mkdir("build", 0755), mkdir(OUT_DIR, 0755);
    const char *path = OUT_DIR "/workers-synth.dot";
    assert_true(exp_dot_write(path, &m, &(exp_dot_desc){.name = "workers"}, &err));
    char cmd[512];
    snprintf(cmd, sizeof cmd, "dot -Tsvg '%s' -o " OUT_DIR "/workers-synth.dot.svg 2>&1", path);
    assert_int_equal(system(cmd), 0);
    membuf b = {0};
    assert_true(exp_dot_write_to(mem_write, &b, &m, &(exp_dot_desc){0}, &err));
    assert_non_null(strstr(b.p, "digraph"));
    assert_int_equal(count(b.p, "main.main:30 → work.worker:12"), 3); /* tooltips */
    assert_non_null(strstr(b.p, "tooltip=\"3× main.main:30"));
    assert_int_equal(count(b.p, "xlabel=\"3×\""), 6); /* the count, placed by Graphviz where it fits */
    assert_int_equal(count(b.p, "style=dashed"), 3);
    free(b.p);
    b = (membuf){0};
    assert_true(exp_dot_write_to(mem_write, &b, &m, &(exp_dot_desc){.group = LAY_GROUP_FUNCTION}, &err));
    assert_non_null(strstr(b.p, "work.worker ×3"));
    free(b.p);
    b = (membuf){0};
    assert_true(exp_dot_write_to(mem_write, &b, &m, &(exp_dot_desc){.render = "png"}, &err));
    assert_true(b.n > 1000 && !memcmp(b.p, "\x89PNG", 4));
    free(b.p);
    cs_model_deinit(&m);
}

/* A model with no goroutines and no time at all still gives valid outputs. */
static void empty_model_gives_valid_outputs(void **state)
{
    (void)state;
    cs_model m;
    cs_mb mb;
    sy_begin(&m, &mb);
    sy_end(&m, &mb, 0);
    cs_err err = {0};
    mkdir("build", 0755), mkdir(OUT_DIR, 0755);
    for (int ax = LAY_AXIS_LINEAR; ax <= LAY_AXIS_GAPS; ax++) {
        assert_true(exp_svg_write(OUT_DIR "/empty.svg", &m, &(exp_svg_desc){.axis = (lay_axis_kind)ax}, &err));
        assert_true(xmllint_ok(OUT_DIR "/empty.svg"));
    }
    assert_true(exp_svg_write(OUT_DIR "/empty.svg", &m, &(exp_svg_desc){.layout = EXP_SVG_GRAPH}, &err));
    assert_true(xmllint_ok(OUT_DIR "/empty.svg"));
    membuf b = {0};
    assert_true(exp_perfetto_write_to(mem_write, &b, &m, &(exp_perfetto_desc){0}, &err));
    json_error_t je;
    json_t *j = json_loads(b.p, 0, &je);
    assert_non_null(j);
    json_decref(j);
    free(b.p);
    b = (membuf){0};
    assert_true(exp_dot_write_to(mem_write, &b, &m, &(exp_dot_desc){0}, &err));
    assert_non_null(strstr(b.p, "digraph"));
    free(b.p);
    cs_model_deinit(&m);
}

/* A wall of messages (sy_wall) goes under the lanes, faint, so no lane is
 * hidden; a ping-pong's few arrows stay on top; grid lines always come
 * before the lanes (under their bars). */
static void svg_crowded_arrows_and_grid_go_under_the_lanes(void **state)
{
    (void)state;
    cs_model w, p;
    sy_wall(&w, 1500);
    sy_pingpong(&p, 12);
    cs_err err = {0};
    mkdir("build", 0755), mkdir(OUT_DIR, 0755);
    assert_true(exp_svg_write(OUT_DIR "/wall-synth.svg", &w, &(exp_svg_desc){.name = "wall"}, &err));
    assert_true(xmllint_ok(OUT_DIR "/wall-synth.svg"));
    for (int i = 0; i < 2; i++) {
        membuf b = {0};
        assert_true(exp_svg_write_to(mem_write, &b, i ? &p : &w, &(exp_svg_desc){.name = "x"}, &err));
        const char *faint = strstr(b.p, "<g opacity=\""), *lane = strstr(b.p, "<g><title>G"),
                   *grid = strstr(b.p, "stroke-opacity=\"0.18\""), *msg = strstr(b.p, "message on ");
        assert_non_null(lane);
        assert_non_null(grid);
        assert_non_null(msg);
        assert_true(grid < lane);
        if (i) { /* ping-pong: arrows after the lanes, no faint group */
            assert_null(faint);
            assert_true(msg > lane);
        } else {
            assert_non_null(faint);
            assert_true(faint < lane && msg < lane);
        }
        free(b.p);
    }
    cs_model_deinit(&w);
    cs_model_deinit(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(svg_of_pingpong_is_valid_and_has_arrows),
        cmocka_unit_test(svg_of_workers_and_tree_in_every_theme_and_axis),
        cmocka_unit_test(svg_of_a_dense_trace_stays_bounded),
        cmocka_unit_test(svg_failed_write_leaves_no_file),
        cmocka_unit_test(perfetto_json_parses_and_has_flow_events),
        cmocka_unit_test(dot_is_accepted_by_graphviz),
        cmocka_unit_test(empty_model_gives_valid_outputs),
        cmocka_unit_test(svg_crowded_arrows_and_grid_go_under_the_lanes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
