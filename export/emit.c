/* export/emit.c — the buffered writer, strings and atomic path wrapper of
 * internal.h. Writers never print: a failed write is remembered and reported
 * by exp__w_finish as a cs_err. */
#include "internal.h"
#include "../core/file.h"
#include "../core/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void exp__w_init(exp__w *w, cs_write_fn *fn, void *ctx)
{
    w->fn = fn, w->ctx = ctx, w->failed = false, w->n = 0, w->total = 0;
}

static void flush(exp__w *w)
{
    if (w->n && !w->failed && w->fn(w->ctx, w->buf, w->n) != w->n)
        w->failed = true;
    w->total += w->n;
    w->n = 0;
}

static void put(exp__w *w, const void *data, size_t len)
{
    const char *s = data;
    while (len) {
        if (w->n == sizeof w->buf)
            flush(w);
        size_t k = sizeof w->buf - w->n < len ? sizeof w->buf - w->n : len;
        memcpy(w->buf + w->n, s, k);
        w->n += k, s += k, len -= k;
    }
}

void exp__printf(exp__w *w, const char *fmt, ...)
{
    char tmp[1024];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (k < 0)
        return;
    if ((size_t)k < sizeof tmp) {
        put(w, tmp, (size_t)k);
        return;
    }
    /* rare long line: format again into a heap buffer */
    char *big = cs_alloc((size_t)k + 1);
    if (!big) {
        w->failed = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)k + 1, fmt, ap);
    va_end(ap);
    put(w, big, (size_t)k);
    cs_free(big);
}

void exp__puts(exp__w *w, const char *s)
{
    put(w, s, strlen(s));
}

void exp__u64(exp__w *w, uint64_t v)
{
    char tmp[24];
    int i = sizeof tmp;
    do {
        tmp[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    put(w, tmp + i, sizeof tmp - (size_t)i);
}

void exp__milli(exp__w *w, int64_t v)
{
    /* magnitude without overflowing on INT64_MIN */
    uint64_t a = v < 0 ? (uint64_t)(-(v + 1)) + 1 : (uint64_t)v;
    if (v < 0)
        put(w, "-", 1);
    exp__u64(w, a / 1000);
    char frac[4] = {'.', (char)('0' + a % 1000 / 100), (char)('0' + a % 100 / 10), (char)('0' + a % 10)};
    put(w, frac, 4);
}

/* cs_write_fn into w (which remembers a failed write). */
static size_t w_write(void *ctx, const void *data, size_t n)
{
    put(ctx, data, n);
    return n;
}

void exp__xml(exp__w *w, const char *s) { cs_xml_text(w_write, w, s); }
void exp__json_str(exp__w *w, const char *s) { cs_json_str(w_write, w, s); }

bool exp__w_finish(exp__w *w, cs_err *err)
{
    flush(w);
    return !w->failed || CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "write failed after %llu bytes",
                                 (unsigned long long)w->total);
}

bool exp__to_path(const char *path, exp__body_fn *body, const void *arg, cs_err *err)
{
    cs_out o;
    if (!cs_out_open(&o, path, err))
        return false;
    if (!body(cs_out_write, &o, arg, err)) {
        cs_out_abort(&o);
        return false;
    }
    return cs_out_commit(&o, err);
}
