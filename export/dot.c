/* export/dot.c — DOT text through cgraph's agwrite (into a memory stream,
 * then through the caller's callback) or a rendered picture through gvc's
 * gvRenderData; see dot.h. */
#include "dot.h"
#include "internal.h"
#include "../layout/axis.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#include <stdio.h>
#include <stdlib.h>

static bool write_dot(cs_write_fn *fn, void *ctx, lay_graph *g, cs_err *err)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for the DOT text");
    int rc = agwrite(g->ag, mem);
    bool ok = fclose(mem) == 0 && rc == 0;
    ok = ok ? fn(ctx, buf, len) == len || CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "write failed")
            : CS_FAIL(err, CS_E_INTERNAL, CS_NO_OFFSET, "Graphviz could not write the graph");
    free(buf); /* open_memstream's buffer comes from libc */
    return ok;
}

static bool write_render(cs_write_fn *fn, void *ctx, lay_graph *g, const char *fmt, cs_err *err)
{
    char *buf = NULL;
    unsigned int len = 0;
    if (gvRenderData(g->gvc, g->ag, fmt, &buf, &len) != 0) {
        if (buf)
            gvFreeRenderData(buf);
        return CS_FAIL(err, CS_E_USAGE, CS_NO_OFFSET,
                       "Graphviz cannot render '%s' here (its plugin is missing)", fmt);
    }
    bool ok = fn(ctx, buf, len) == len || CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "write failed");
    gvFreeRenderData(buf);
    return ok;
}

bool exp_dot_write_to(cs_write_fn *fn, void *ctx, const cs_model *m, const exp_dot_desc *d,
                      cs_err *err)
{
    lay_graph g;
    char title[400], dur[32];
    lay_fmt_dur(m->t_last - m->t_first, dur, sizeof dur);
    snprintf(title, sizeof title, "%s \u00b7 Go 1.%d \u00b7 %s", d->name, m->version % 1000, dur);
    lay_graph_desc gd = {.group = d->group, .show_system = d->show_system, .theme = d->theme,
                         .engine = d->engine, .no_layout = !d->render,
                         .title = d->name ? title : NULL};
    bool ok = lay_graph_build(m, &gd, &g, err);
    if (ok)
        ok = d->render ? write_render(fn, ctx, &g, d->render, err) : write_dot(fn, ctx, &g, err);
    lay_graph_deinit(&g);
    return ok;
}

typedef struct dot_job {
    const cs_model *m;
    const exp_dot_desc *d;
} dot_job;

static bool body(cs_write_fn *fn, void *ctx, const void *arg, cs_err *err)
{
    const dot_job *j = arg;
    return exp_dot_write_to(fn, ctx, j->m, j->d, err);
}

bool exp_dot_write(const char *path, const cs_model *m, const exp_dot_desc *d, cs_err *err)
{
    dot_job j = {m, d};
    return exp__to_path(path, body, &j, err);
}
