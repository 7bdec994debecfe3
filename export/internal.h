/* export/internal.h — what the exporters share: a buffered text writer over
 * a cs_write_fn (so every format writes through the caller's callback and a
 * short write surfaces once, as a cs_err, at the end), its XML and JSON strings,
 * and the path wrapper that writes atomically through core/file.h.
 *
 * API
 *   void exp__w_init(exp__w *w, cs_write_fn *fn, void *ctx)
 *   void exp__printf(exp__w *w, const char *fmt, ...)
 *   void exp__puts(exp__w *w, const char *s)
 *   void exp__u64(exp__w *w, uint64_t v)         decimal, without printf (hot paths)
 *   void exp__milli(exp__w *w, int64_t v)        v / 1000 with three decimals, e.g. 1234 -> "1.234"
 *   void exp__xml(exp__w *w, const char *s)      for text and attribute values (cs_xml_text)
 *   void exp__json_str(exp__w *w, const char *s) a JSON string literal (cs_json_str)
 *   bool exp__w_finish(exp__w *w, cs_err *err)   flushes; false + CS_E_IO after a short write
 *   bool exp__to_path(const char *path, exp__body_fn *body, const void *arg, cs_err *err)
 *       opens path.tmp, calls body(fn, ctx, arg, err), commits (rename) or removes it
 */
#ifndef EXP_INTERNAL_H
#define EXP_INTERNAL_H

#include "../core/cs.h"

typedef struct exp__w {
    cs_write_fn *fn;
    void *ctx;
    bool failed;
    size_t n;
    uint64_t total;       /* bytes written so far */
    char buf[1 << 16];
} exp__w;

typedef bool exp__body_fn(cs_write_fn *fn, void *ctx, const void *arg, cs_err *err);

void exp__w_init(exp__w *w, cs_write_fn *fn, void *ctx);
void exp__printf(exp__w *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void exp__puts(exp__w *w, const char *s);
void exp__u64(exp__w *w, uint64_t v);
void exp__milli(exp__w *w, int64_t v);
void exp__xml(exp__w *w, const char *s);
void exp__json_str(exp__w *w, const char *s);
bool exp__w_finish(exp__w *w, cs_err *err);
bool exp__to_path(const char *path, exp__body_fn *body, const void *arg, cs_err *err);

#endif
