/* tests/test_graph.c — the communication graph's layout (layout/graph.h) on
 * every corpus trace in tests/data and, when present, the shared corpus of
 * Go 1.25 and 1.27: laid out for the PNG's default picture and for the
 * SVG's, no two node boxes overlap, every node keeps its label, no label
 * overlaps another label or a box other than its own node's, no label is
 * smaller than LAY_GRAPH_FONT_MIN, and the drawing fills its canvas in one
 * direction. Synthetic graphs check the engine picked by shape and the
 * folding of goroutines with the same traffic. */
#define _XOPEN_SOURCE 700
#include "testlib.h"
#include "synth.h"

#include "../layout/graph.h"

#include <ftw.h>
#include <math.h>

static int files, failures;

static bool overlap(const lay_grect *a, const lay_grect *b)
{
    return a->x0 < b->x1 - 1e-6 && b->x0 < a->x1 - 1e-6 && a->y0 < b->y1 - 1e-6 && b->y0 < a->y1 - 1e-6;
}

#define CHECK(cond, ...)                                                                 \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            print_message("%s (%.0fx%.0f): ", path, w, h), print_message(__VA_ARGS__); \
            failures++;                                                                  \
            goto done;                                                                   \
        }                                                                                \
    } while (0)

/* One layout of the trace's model for a w × h canvas at font_px (0 = the
 * canvas's own), checked at the scale that fits it (not below the
 * smallest text: the SVG grows its canvas instead). */
static void check_layout(const char *path, const cs_model *m, double w, double h, double font_px)
{
    lay_graph g;
    cs_err err = {0};
    lay_grect *r = NULL;
    bool *labelled = NULL;
    CHECK(lay_graph_build(m, &(lay_graph_desc){.width_px = w, .height_px = h, .font_px = font_px}, &g, &err),
          "%s\n", err.msg);
    double s = lay_graph_scale(&g, w, h);
    if (font_px > 0)
        s = fmin(1, fmax(s, LAY_GRAPH_FONT_MIN / font_px));
    r = calloc(lay_graph_rects_max(&g) + 1, sizeof *r);
    labelled = calloc(g.n_nodes + 1, 1);
    uint32_t n = lay_graph_rects(&g, s, r);
    CHECK(n >= g.n_nodes, "%u rectangles for %u nodes\n", n, g.n_nodes);
    if (g.n_nodes > 1 && font_px == 0) /* ratio=fill: one side of the canvas is used up */
        CHECK(g.width * s >= 0.95 * w || g.height * s >= 0.95 * h, "%.0fx%.0f drawn in %.0fx%.0f\n",
              g.width * s, g.height * s, w, h);
    for (uint32_t i = 0; i < n; i++) {
        CHECK(r[i].kind == LAY_RECT_NODE || r[i].font_px >= LAY_GRAPH_FONT_MIN, "label %u at %.1f px\n", i,
              r[i].font_px);
        if (r[i].kind == LAY_RECT_LABEL)
            labelled[r[i].idx] = true;
        for (uint32_t j = i + 1; j < n; j++) {
            bool own = r[i].kind == LAY_RECT_NODE && r[j].kind == LAY_RECT_LABEL && r[j].idx == r[i].idx;
            CHECK(own || !overlap(&r[i], &r[j]), "rectangles %u (kind %d of %u) and %u (kind %d of %u) overlap\n",
                  i, r[i].kind, r[i].idx, j, r[j].kind, r[j].idx);
        }
    }
    for (uint32_t i = 0; i < g.n_nodes; i++)
        CHECK(labelled[i], "node %u (%s) has no label\n", i, lay_graph_label(&g, i));
done:
    free(r), free(labelled);
    lay_graph_deinit(&g);
}

static void check_file(const char *path)
{
    cs_file f;
    cs_model m;
    cs_err err = {0};
    if (tl_load(path, &f, &m, NULL, &err)) {
        check_layout(path, &m, 1888, 982, 0);     /* the PNG's default 1920×1080, its graph area */
        check_layout(path, &m, 1552, 873, 14);    /* the SVG's */
        check_layout(path, &m, 1248, 620, 0);     /* a viewer window */
        files++;
    }
    cs_model_deinit(&m);
    cs_file_unmap(&f);
}

static int visit(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
    (void)sb, (void)ftw;
    size_t l = strlen(path);
    if (type == FTW_F && l > 6 && strcmp(path + l - 6, ".trace") == 0 && !strstr(path, "/regress/") &&
        !strstr(path, "/gens/"))
        check_file(path);
    return 0;
}

static void corpus_labels_never_overlap(void **state)
{
    (void)state;
    files = failures = 0;
    tl_walk(tl_data(), (const char *const[]){"corpus/go1.25", "corpus/go1.27", NULL}, visit);
    print_message("laid out %d traces\n", files);
    assert_true(files > 5);
    assert_int_equal(failures, 0);
}

/* A pipeline (messages one way) goes to dot, a worker pool (jobs out,
 * results back) to neato; --engine wins over both. */
static void engine_follows_the_shape(void **state)
{
    (void)state;
    cs_model m;
    lay_graph g;
    cs_err err = {0};
    sy_workers(&m, 4, 12);
    assert_true(lay_graph_build(&m, &(lay_graph_desc){.no_layout = true}, &g, &err));
    assert_string_equal(g.engine, "neato");
    lay_graph_deinit(&g);
    assert_true(lay_graph_build(&m, &(lay_graph_desc){.no_layout = true, .engine = "sfdp"}, &g, &err));
    assert_string_equal(g.engine, "sfdp");
    lay_graph_deinit(&g);
    cs_model_deinit(&m);
}

/* A worker pool in a canvas too small for a node per worker: the four
 * workers (same function, same traffic) fold into one node "×4". */
static void identical_workers_fold_when_they_do_not_fit(void **state)
{
    (void)state;
    cs_model m;
    lay_graph g;
    cs_err err = {0};
    sy_workers(&m, 40, 80);
    assert_true(lay_graph_build(&m, &(lay_graph_desc){.width_px = 2400, .height_px = 1400}, &g, &err));
    assert_false(g.folded);
    assert_int_equal(g.n_nodes, 41);
    lay_graph_deinit(&g);
    assert_true(lay_graph_build(&m, &(lay_graph_desc){.width_px = 400, .height_px = 300}, &g, &err));
    assert_true(g.folded);
    assert_int_equal(g.n_nodes, 2);
    assert_string_equal(lay_graph_label(&g, 1), "work.worker \u00d740");
    lay_graph_deinit(&g);
    cs_model_deinit(&m);
}

/* Text is measured in DejaVu Sans's advances, never under 0.6 em a character. */
static void text_width_follows_the_font(void **state)
{
    (void)state;
    assert_true(fabs(lay_text_width("mmmm", 10) - 4 * 1995 / 2048.0 * 10) < 1e-9);
    assert_true(fabs(lay_text_width("iiii", 10) - 4 * 0.6 * 10) < 1e-9);
    assert_true(lay_text_width("G17 main.worker", 20) > 2 * lay_text_width("G17 main.worker", 10) - 1e-9);
    assert_true(lay_text_width("\xff\xfe", 10) > 0); /* malformed bytes count, never crash */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(text_width_follows_the_font),
        cmocka_unit_test(engine_follows_the_shape),
        cmocka_unit_test(identical_workers_fold_when_they_do_not_fit),
        cmocka_unit_test(corpus_labels_never_overlap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
