/* cli/json_out.c — streaming JSON and CSV text for commands whose output
 * grows with the trace (pairs, edges, stats), where building a jansson tree of
 * a million messages first would cost more memory than the model itself; and
 * cli_out, the buffer stats writes its lines through, a call to stdio per
 * buffer rather than per field. */
#include "cli.h"
#include "../core/text.h"

#include <stdio.h>

/* cs_write_fn over a stdio stream (its error indicator remembers a failure)
 * and over a cli_out. */
static size_t file_write(void *ctx, const void *data, size_t n)
{
    return fwrite(data, 1, n, ctx);
}

static size_t out_write(void *ctx, const void *data, size_t n)
{
    cli_out_mem(ctx, data, n);
    return n;
}

void cli_json_str(FILE *f, const char *s) { cs_json_str(file_write, f, s); }
void cli_csv_str(FILE *f, const char *s) { cs_csv_str(file_write, f, s); }
void cli_out_json_str(cli_out *o, const char *s) { cs_json_str(out_write, o, s); }
void cli_out_csv_str(cli_out *o, const char *s) { cs_csv_str(out_write, o, s); }

void cli_json_time(FILE *f, int64_t t)
{
    if (t == CS_T_NONE)
        fputs("null", f);
    else
        fprintf(f, "%lld", (long long)t);
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
