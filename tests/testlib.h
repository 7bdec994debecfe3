/* tests/testlib.h — what the cmocka tests share: locating test data (the
 * repo's tests/data and, when present, ../shared/traces beside the checkout),
 * loading a trace into a model, and reading oracle JSON with jansson.
 *
 * API (static inline)
 *   const char *tl_shared(void)     path of ../shared/traces, or NULL when absent
 *   const char *tl_data(void)       path of tests/data
 *   bool tl_load(const char *path, cs_file *f, cs_model *m, cs_stats *s, cs_err *err)
 *   json_t *tl_json(const char *path)   parsed file, or NULL
 */
#ifndef TESTLIB_H
#define TESTLIB_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/cs.h"
#include "../core/file.h"
#include "../core/model.h"
#include "../core/stats.h"
#include "../decode/decode.h"

static inline const char *tl_shared(void)
{
    const char *env = getenv("CHANSCOPE_SHARED");
    static const char *cands[] = {"../shared/traces", NULL};
    struct stat st;
    if (env)
        return stat(env, &st) == 0 ? env : NULL;
    for (int i = 0; cands[i]; i++)
        if (stat(cands[i], &st) == 0 && S_ISDIR(st.st_mode))
            return cands[i];
    return NULL;
}

static inline const char *tl_data(void) { return "tests/data"; }

static inline bool tl_load(const char *path, cs_file *f, cs_model *m, cs_stats *s, cs_err *err)
{
    cs_model_init(m);
    if (s)
        memset(s, 0, sizeof *s);
    if (!cs_file_map(path, f, err))
        return false;
    dec_desc d = {.path = path, .jobs = 2};
    return dec_trace_load(&d, f, m, s, err);
}

static inline json_t *tl_json(const char *path)
{
    json_error_t je;
    return json_load_file(path, 0, &je);
}

#endif
