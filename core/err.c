/* core/err.c — filling and naming cs_err values. Never prints. */
#include "cs.h"

#include <stdarg.h>
#include <stdio.h>

bool cs_err_set(cs_err *err, cs_code code, uint64_t offset, int line,
                const char *fmt, ...)
{
    if (!err || err->code != CS_OK)
        return false;
    err->code = code;
    err->offset = offset;
    err->src_line = line;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return false;
}

const char *cs_code_name(cs_code code)
{
    switch (code) {
    case CS_OK: return "ok";
    case CS_E_USAGE: return "usage error";
    case CS_E_IO: return "I/O error";
    case CS_E_NOMEM: return "out of memory";
    case CS_E_FORMAT: return "not a Go execution trace";
    case CS_E_VERSION: return "unsupported trace version";
    case CS_E_CORRUPT: return "corrupt trace";
    case CS_E_TRUNCATED: return "truncated trace";
    case CS_E_INVALID: return "invalid trace";
    case CS_E_GL: return "graphics error";
    case CS_E_CANCELLED: return "cancelled";
    case CS_E_INTERNAL: return "internal error";
    }
    return "unknown error";
}
