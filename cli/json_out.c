/* cli/json_out.c — streaming JSON and CSV text for commands whose output
 * grows with the trace (pairs, edges, stats), where building a jansson tree of
 * a million messages first would cost more memory than the model itself; and
 * cli_out, the buffer stats writes its lines through, a call to stdio per
 * buffer rather than per field. */
#include "cli.h"

#include <stdio.h>

void cli_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p == '\t')
            fputs("\\t", f);
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

void cli_json_time(FILE *f, int64_t t)
{
    if (t == CS_T_NONE)
        fputs("null", f);
    else
        fprintf(f, "%lld", (long long)t);
}

void cli_csv_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void cli_out_flush(cli_out *o)
{
    if (o->n && !o->bad && fwrite(o->b, 1, o->n, o->f) != o->n)
        o->bad = true;
    o->n = 0;
}

void cli_out_end(cli_out *o)
{
    if (!o->n)
        return;
    char last = o->b[--o->n];
    cli_out_flush(o);
    if (fputc(last, o->f) == EOF)
        o->bad = true;
}

/* cli_out_mem of more than there is room for. */
void cli__out_spill(cli_out *o, const char *s, size_t n)
{
    cli_out_flush(o);
    if (n <= sizeof o->b) {
        memcpy(o->b, s, n);
        o->n = n;
    } else if (!o->bad && fwrite(s, 1, n, o->f) != n) {
        o->bad = true;
    }
}

void cli_out_pad(cli_out *o, int n)
{
    enum { SPAN = 64 };
    if (n > 0 && n <= SPAN && sizeof o->b - o->n >= SPAN) { /* a store of fixed size, n of it kept */
        memset(o->b + o->n, ' ', SPAN);
        o->n += (size_t)n;
        return;
    }
    for (; n > 0; n--)
        cli_out_ch(o, ' ');
}

void cli_out_right(cli_out *o, const char *s, size_t n, int w)
{
    cli_out_pad(o, w - (int)n);
    cli_out_mem(o, s, n);
}

char *cli_dec(char *end, uint64_t v)
{
    do
        *--end = (char)('0' + v % 10);
    while (v /= 10);
    return end;
}

void cli_out_u64(cli_out *o, uint64_t v)
{
    char t[20], *p = cli_dec(t + sizeof t, v);
    cli_out_mem(o, p, (size_t)(t + sizeof t - p));
}

void cli_out_i64(cli_out *o, int64_t v)
{
    if (v < 0)
        cli_out_ch(o, '-');
    cli_out_u64(o, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
}

/* The length of the UTF-8 sequence at p: 0 when it is none, an overlong
 * form, a surrogate or past U+10FFFF. */
static size_t utf8_seq(const unsigned char *p)
{
    static const uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
    size_t n = *p < 0x80 ? 1 : *p < 0xc2 ? 0 : *p < 0xe0 ? 2 : *p < 0xf0 ? 3 : *p < 0xf5 ? 4 : 0;
    if (n < 2)
        return n;
    uint32_t v = *p & (0x7fu >> n);
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        v = v << 6 | (p[i] & 0x3f);
    }
    return v < least[n] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff) ? 0 : n;
}

bool cli_json_utf8(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t n = utf8_seq(p);
        if (!n)
            return false;
        p += n;
    }
    return true;
}

/* The escape of byte c: a control character, a quote or a backslash. */
static void json_escape(cli_out *o, unsigned char c)
{
    static const char hex[] = "0123456789ABCDEF";
    const char *short_form = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\b' ? "\\b" : c == '\f' ? "\\f"
                           : c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : NULL;
    char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
    if (short_form)
        cli_out_mem(o, short_form, 2);
    else
        cli_out_mem(o, u, sizeof u);
}

void cli_out_json_str(cli_out *o, const char *s)
{
    cli_out_ch(o, '"');
    for (const char *run = s;; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        cli_out_mem(o, run, (size_t)(s - run));
        if (!c)
            break;
        json_escape(o, c);
        run = s + 1;
    }
    cli_out_ch(o, '"');
}

void cli_out_csv_str(cli_out *o, const char *s)
{
    cli_out_ch(o, '"');
    for (const char *q; (q = strchr(s, '"')); s = q + 1) {
        cli_out_mem(o, s, (size_t)(q - s + 1));
        cli_out_ch(o, '"');
    }
    cli_out_str(o, s);
    cli_out_ch(o, '"');
}
