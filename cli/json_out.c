/* cli/json_out.c — streaming JSON and CSV text for commands whose output
 * grows with the trace (pairs, edges), where building a jansson tree of a
 * million messages first would cost more memory than the model itself. */
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
