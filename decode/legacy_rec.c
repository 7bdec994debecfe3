/* decode/legacy_rec.c — reads one legacy record through dec_buf
 * (docs/trace-format.md §3.2): type byte, inline or length-prefixed varints,
 * the String and UserLog exceptions. Never allocates. */
#include "legacy.h"

static bool buf_fail(const dec_buf *b, const dec__lg_rec *r, cs_err *err)
{
    if (b->bad & DEC_BUF_BADVARINT)
        return CS_FAIL(err, CS_E_CORRUPT, dec_buf_off(b), "malformed varint in %s record at offset %llu",
                       dec__lg_descs[r->type].name, (unsigned long long)r->off);
    return CS_FAIL(err, CS_E_TRUNCATED, dec_buf_off(b), "file ends inside a %s record that starts at offset %llu",
                   dec__lg_descs[r->type].name, (unsigned long long)r->off);
}

static bool read_string(dec_buf *b, dec__lg_rec *r, cs_err *err)
{
    r->a[0] = dec_buf_uv(b);
    uint64_t len = dec_buf_uv(b);
    r->n = 1;
    if (b->bad)
        return buf_fail(b, r, err);
    if (r->a[0] == 0)
        return CS_FAIL(err, CS_E_CORRUPT, r->off, "string record with invalid id 0");
    if (len == 0 || len > LG_MAX_STRLEN)
        return CS_FAIL(err, CS_E_CORRUPT, r->off, "string record with invalid length %llu",
                       (unsigned long long)len);
    r->str_off = dec_buf_off(b);
    r->str_len = (uint32_t)len;
    if (!dec_buf_skip(b, len))
        return buf_fail(b, r, err);
    return true;
}

/* Varints of a length-prefixed record; Stack bodies are only delimited. */
static bool read_prefixed(dec_buf *b, dec__lg_rec *r, cs_err *err)
{
    uint64_t len = dec_buf_uv(b);
    if (b->bad)
        return buf_fail(b, r, err);
    if (len > dec_buf_left(b))
        return CS_FAIL(err, CS_E_TRUNCATED, r->off, "%s record claims %llu bytes, %zu remain in the file",
                       dec__lg_descs[r->type].name, (unsigned long long)len, dec_buf_left(b));
    size_t start = b->pos, end = b->pos + (size_t)len;
    r->body = dec_buf_off(b);
    r->body_end = r->body + len;
    if (r->type == LG_STACK) {
        b->pos = end;
        return true;
    }
    dec_buf sub = dec_buf_make(b->p + start, (size_t)len, r->body);
    while (sub.pos < sub.len) {
        uint64_t v = dec_buf_uv(&sub);
        if (r->n < LG_MAXARGS)
            r->a[r->n] = v;
        r->n++;
    }
    if (sub.bad & DEC_BUF_BADVARINT)
        return buf_fail(&sub, r, err);
    if (sub.bad)
        return CS_FAIL(err, CS_E_CORRUPT, r->off, "event has wrong length at offset %llu",
                       (unsigned long long)r->off);
    b->pos = end;
    return true;
}

bool dec__lg_rec_read(dec_buf *b, const dec__lg_vtab *v, bool check, dec__lg_rec *r, cs_err *err)
{
    int ver = v->ver;
    r->off = dec_buf_off(b);
    uint8_t h = dec_buf_u8(b);
    r->wire = h & 0x3f;
    r->n = 0;
    int t = v->type[r->wire];
    if (t == LG_NONE)
        return CS_FAIL(err, CS_E_CORRUPT, r->off, "unknown event type %u for a go %d.%d trace", r->wire,
                       ver / 1000, ver % 1000);
    r->type = (uint8_t)t;
    if (t == LG_STRING)
        return read_string(b, r, err);
    unsigned narg = (h >> 6) + 1u, inline_max = 4;
    if (ver < 1007)
        narg++, inline_max++;
    if (narg < inline_max) {
        r->body = dec_buf_off(b);
        for (unsigned i = 0; i < narg; i++)
            r->a[i] = dec_buf_uv(b);
        r->n = narg;
        r->body_end = dec_buf_off(b);
        if (b->bad)
            return buf_fail(b, r, err);
    } else if (!read_prefixed(b, r, err)) {
        return false;
    }
    if (t == LG_LOG) {
        uint64_t len = dec_buf_uv(b);
        if (b->bad)
            return buf_fail(b, r, err);
        if (len > LG_MAX_STRLEN)
            return CS_FAIL(err, CS_E_CORRUPT, r->off, "UserLog message of %llu bytes", (unsigned long long)len);
        r->str_off = dec_buf_off(b);
        r->str_len = (uint32_t)len;
        if (!dec_buf_skip(b, len))
            return buf_fail(b, r, err);
    }
    if (check && t != LG_STACK && r->n != v->argn[t])
        return CS_FAIL(err, CS_E_CORRUPT, r->off, "%s has wrong number of arguments: want %u, got %u",
                       dec__lg_descs[t].name, v->argn[t], r->n);
    return true;
}
