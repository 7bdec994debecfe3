/* cli/times.c — the one reader of times on the command line (--at TIME,
 * --range FROM:TO of png and svg). A TIME is a finite, non-negative decimal
 * number with a unit (ns — the default —, us, µs, ms, s) or a percentage of
 * the trace's duration. Reading checks only the syntax (before the trace is
 * loaded); resolving checks, in double arithmetic that cannot overflow,
 * that the time lies within the trace, and names the trace's span when not. */
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct { const char *unit; double ns; } units[] = {
    {"", 1}, {"ns", 1}, {"us", 1e3}, {"\xC2\xB5s", 1e3}, {"ms", 1e6}, {"s", 1e9}, {"%", 0}};

/* why a TIME is not one, or NULL */
static const char *time_syntax(const char *s, cli_time *out)
{
    /* digits first: no sign, space, "inf", "nan" or hexadecimal */
    if (!((*s >= '0' && *s <= '9') || (*s == '.' && s[1] >= '0' && s[1] <= '9')))
        return "is not a time: a number with a unit (ns, us, ms, s) or a percentage, e.g. 1.5ms or 40%";
    char *end;
    out->v = strtod(s, &end);
    if (memchr(s, 'x', (size_t)(end - s)) || memchr(s, 'X', (size_t)(end - s)))
        return "is not a time: the number must be decimal";
    if (!isfinite(out->v))
        return "is not a time: the number must be finite";
    for (size_t i = 0; i < sizeof units / sizeof *units; i++)
        if (!strcmp(end, units[i].unit)) {
            out->unit_ns = units[i].ns;
            out->set = true;
            return NULL;
        }
    return "is not a time: the unit must be ns, us, ms, s or %";
}

/* The usage message for opt's argument s (the command line is read on one
 * thread, before anything else). */
static const char *usage_msg(const char *opt, const char *s, const char *why)
{
    static char msg[300];
    if (!why)
        return NULL;
    snprintf(msg, sizeof msg, "%s '%.100s' %s", opt, s, why);
    return msg;
}

const char *cli_time_parse(const char *opt, const char *s, cli_time *out)
{
    memset(out, 0, sizeof *out);
    out->text = s;
    return usage_msg(opt, s, time_syntax(s, out));
}

const char *cli_range_parse(const char *s, cli_range *out)
{
    memset(out, 0, sizeof *out);
    out->text = s;
    const char *colon = strchr(s, ':');
    if (!colon || strchr(colon + 1, ':'))
        return usage_msg("--range", s, "is not FROM:TO (e.g. 1ms:5ms, 10%:50%; either may be left out)");
    char from[64];
    size_t n = (size_t)(colon - s);
    if (n >= sizeof from)
        return usage_msg("--range", s, "has too long a FROM");
    memcpy(from, s, n);
    from[n] = 0;
    const char *why = n ? time_syntax(from, &out->from) : NULL;
    if (!why && colon[1])
        why = time_syntax(colon + 1, &out->to);
    out->set = true;
    return usage_msg("--range", s, why);
}

static void span_text(char *buf, size_t n, int64_t dur)
{
    char d[CLI_NS_MAX];
    cli__fmt_ns(d, dur);
    snprintf(buf, n, "the trace spans 0 to %s (%lld ns)", d, (long long)dur);
}

/* t in ns from the trace start, if 0 <= t <= dur. */
static bool resolve(const cli_time *t, int64_t dur, int64_t *out)
{
    double ns = t->unit_ns ? t->v * t->unit_ns : t->v / 100.0 * (double)dur;
    if (!(ns >= 0 && ns <= (double)dur)) /* also false for a product that overflowed */
        return false;
    *out = ns >= (double)dur ? dur : (int64_t)llround(ns);
    return true;
}

bool cli_time_resolve(const char *opt, const cli_time *t, int64_t dur, int64_t *out_ns, cs_err *err)
{
    char span[96];
    if (resolve(t, dur, out_ns))
        return true;
    span_text(span, sizeof span, dur);
    return CS_FAIL(err, CS_E_USAGE, CS_NO_OFFSET, "%s %s is outside the trace: %s", opt, t->text, span);
}

bool cli_range_resolve(const cli_range *r, int64_t dur, int64_t *from_ns, int64_t *to_ns, cs_err *err)
{
    char span[96];
    *from_ns = 0, *to_ns = dur;
    bool ok = (!r->from.set || resolve(&r->from, dur, from_ns)) && (!r->to.set || resolve(&r->to, dur, to_ns));
    span_text(span, sizeof span, dur);
    if (!ok)
        return CS_FAIL(err, CS_E_USAGE, CS_NO_OFFSET, "--range %s is outside the trace: %s", r->text, span);
    if (*to_ns <= *from_ns)
        return CS_FAIL(err, CS_E_USAGE, CS_NO_OFFSET, "--range %s is empty: FROM must come before TO; %s",
                       r->text, span);
    return true;
}
