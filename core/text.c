/* core/text.c — UTF-8 and the string writers of text.h. The writers pass
 * runs of bytes that need nothing through at once: a name is mostly one
 * call of fn between its quotes. */
#include "text.h"

#include <string.h>

uint32_t cs_utf8_next(const char **s)
{
    static const uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000}; /* below it: an overlong form */
    const unsigned char *p = (const unsigned char *)*s;
    size_t n = *p < 0x80 ? 1 : *p < 0xc2 ? 0 : *p < 0xe0 ? 2 : *p < 0xf0 ? 3 : *p < 0xf5 ? 4 : 0;
    uint32_t v = n == 1 ? *p : *p & (0x7fu >> n);
    for (size_t i = 1; i < n; i++) { /* a NUL is no continuation byte: never read past it */
        if ((p[i] & 0xc0) != 0x80) {
            n = 0;
            break;
        }
        v = v << 6 | (p[i] & 0x3f);
    }
    if (!n || (n > 1 && (v < least[n] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)))) {
        *s += 1;
        return CS_UTF8_BAD;
    }
    *s += n;
    return v;
}

bool cs_utf8_valid(const char *s)
{
    while (*s)
        if (cs_utf8_next(&s) == CS_UTF8_BAD)
            return false;
    return true;
}

void cs_utf8_text(cs_write_fn *fn, void *ctx, const char *s)
{
    for (const char *run = s;;) {
        const char *at = s;
        if (*s && cs_utf8_next(&s) != CS_UTF8_BAD)
            continue;
        fn(ctx, run, (size_t)(at - run));
        if (!*at)
            break;
        fn(ctx, "\xEF\xBF\xBD", 3);
        run = s;
    }
}

void cs_json_str(cs_write_fn *fn, void *ctx, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    fn(ctx, "\"", 1);
    for (const char *run = s;;) {
        unsigned char c = (unsigned char)*s;
        const char *at = s;
        if (c >= 0x20 && c != '"' && c != '\\' && (c < 0x80 || cs_utf8_next(&s) != CS_UTF8_BAD)) {
            s += c < 0x80;
            continue;
        }
        fn(ctx, run, (size_t)(at - run));
        if (!c)
            break;
        const char *esc = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\b' ? "\\b" : c == '\f' ? "\\f"
                        : c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : NULL;
        char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
        if (c >= 0x80) /* a bad byte: cs_utf8_next went past it */
            fn(ctx, "\\ufffd", 6);
        else if (esc)
            fn(ctx, esc, 2), s++;
        else
            fn(ctx, u, sizeof u), s++;
        run = s;
    }
    fn(ctx, "\"", 1);
}

void cs_csv_str(cs_write_fn *fn, void *ctx, const char *s)
{
    fn(ctx, "\"", 1);
    for (const char *q; (q = strchr(s, '"')); s = q + 1)
        fn(ctx, s, (size_t)(q - s + 1)), fn(ctx, "\"", 1);
    fn(ctx, s, strlen(s));
    fn(ctx, "\"", 1);
}

void cs_xml_text(cs_write_fn *fn, void *ctx, const char *s)
{
    for (const char *run = s;;) {
        unsigned char c = (unsigned char)*s;
        const char *at = s, *ent = NULL;
        uint32_t cp = c;
        if (c >= 0x80)
            cp = cs_utf8_next(&s);
        else
            s += c != 0;
        switch (cp) {
        case '&': ent = "&amp;"; break;
        case '<': ent = "&lt;"; break;
        case '>': ent = "&gt;"; break;
        case '"': ent = "&quot;"; break;
        case '\'': ent = "&apos;"; break;
        case 0xfffe: case 0xffff: case CS_UTF8_BAD: ent = "&#xFFFD;"; break; /* not XML 1.0 Chars */
        default:
            if (cp < 0x20 && cp != '\t' && cp != '\n')
                ent = "&#xFFFD;";
        }
        if (!ent && c)
            continue;
        fn(ctx, run, (size_t)(at - run));
        if (!c)
            break;
        fn(ctx, ent, strlen(ent));
        run = s;
    }
}
