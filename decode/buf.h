/* decode/buf.h — the one bounded cursor over untrusted trace bytes
 * (stb_truetype's stbtt__buf, SQLite's aDataEnd). Every varint, length and
 * string in decode/ is read through it. Reading past the end sets a sticky
 * error flag and returns 0, so hot loops check `bad` once per record or batch
 * instead of once per byte. Nothing here allocates.
 *
 * API (all static inline)
 *   dec_buf dec_buf_make(const uint8_t *p, size_t len, uint64_t base_off)
 *   uint8_t  dec_buf_u8(dec_buf *b)
 *   uint64_t dec_buf_uv(dec_buf *b)            LEB128 uvarint, <= 10 bytes, Go's overflow rule
 *   void dec_buf_uvs(dec_buf *b, uint64_t *out, unsigned n)   n uvarints in a row, same rules;
 *                                              one bounds check when >= 10*n bytes remain
 *   const uint8_t *dec_buf_bytes(dec_buf *b, uint64_t n)   n bytes or NULL (sets bad)
 *   bool dec_buf_skip(dec_buf *b, uint64_t n)
 *   size_t dec_buf_left(const dec_buf *b)
 *   uint64_t dec_buf_off(const dec_buf *b)     absolute file offset of the cursor
 *   size_t dec_fast_end(size_t len, size_t need)
 *       the fast paths' window: positions below it have at least `need`
 *       bytes left of a window of `len` (0: none). The record decoders that
 *       read without a check per byte (v2_hot.h, v2_front.c,
 *       legacy_cursor.c) do so only below it, else they take this cursor.
 */
#ifndef DEC_BUF_H
#define DEC_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct dec_buf {
    const uint8_t *p;   /* start of the window */
    size_t len;         /* bytes in the window */
    size_t pos;         /* cursor, <= len */
    uint64_t base;      /* file offset of p[0], for error messages */
    uint8_t bad;        /* sticky: 1 = ran past the end, 2 = malformed varint */
} dec_buf;

enum { DEC_BUF_SHORT = 1, DEC_BUF_BADVARINT = 2 };

static inline dec_buf dec_buf_make(const uint8_t *p, size_t len, uint64_t base_off)
{
    return (dec_buf){p, len, 0, base_off, 0};
}

static inline size_t dec_buf_left(const dec_buf *b) { return b->len - b->pos; }
static inline size_t dec_fast_end(size_t len, size_t need) { return len >= need ? len - need + 1 : 0; }
static inline uint64_t dec_buf_off(const dec_buf *b) { return b->base + b->pos; }

static inline uint8_t dec_buf_u8(dec_buf *b)
{
    if (b->pos >= b->len) {
        b->bad |= DEC_BUF_SHORT;
        return 0;
    }
    return b->p[b->pos++];
}

/* Unsigned LEB128 as Go's binary.Uvarint reads it: at most 10 bytes, and the
 * 10th byte must be 0 or 1. Non-minimal encodings are legal (the runtime pads
 * batch lengths to 10 bytes). */
static inline uint64_t dec_buf_uv(dec_buf *b)
{
    const uint8_t *p = b->p + b->pos;
    size_t left = b->len - b->pos;
    if (left && p[0] < 0x80) { /* fast path: one byte */
        b->pos++;
        return p[0];
    }
    uint64_t v = 0;
    unsigned shift = 0;
    for (size_t i = 0; i < 10; i++) {
        if (i >= left) {
            b->bad |= DEC_BUF_SHORT;
            b->pos = b->len;
            return 0;
        }
        uint8_t c = p[i];
        if (i == 9 && c > 1) {
            b->bad |= DEC_BUF_BADVARINT;
            b->pos += 10;
            return 0;
        }
        v |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80)) {
            b->pos += i + 1;
            return v;
        }
        shift += 7;
    }
    b->bad |= DEC_BUF_BADVARINT;
    b->pos += 10;
    return 0;
}

/* Unchecked uvarint of at most 9 bytes at p[*pos]; the caller guarantees 9
 * readable bytes. false for a 10-byte one (left to dec_buf_uv's rule). */
static inline __attribute__((always_inline)) bool dec_buf__uv9(const uint8_t *p, size_t *pos, uint64_t *v)
{
    p += *pos;
    uint64_t r = p[0];
    if (r < 0x80) { /* most arguments are one or two bytes */
        *pos += 1;
        *v = r;
        return true;
    }
    r = (r & 0x7f) | (uint64_t)(p[1] & 0x7f) << 7;
    if (p[1] < 0x80) {
        *pos += 2;
        *v = r;
        return true;
    }
    for (unsigned i = 2; i < 9; i++) {
        r |= (uint64_t)(p[i] & 0x7f) << (7 * i);
        if (p[i] < 0x80) {
            *pos += i + 1;
            *v = r;
            return true;
        }
    }
    return false;
}

/* n uvarints in a row (a record's arguments). Far from the end of the window
 * the bounds are checked once for all n; near it, or for a 10-byte varint,
 * each one goes through dec_buf_uv. */
static inline void dec_buf_uvs(dec_buf *b, uint64_t *out, unsigned n)
{
    if (b->len - b->pos >= 10u * n) {
        size_t pos = b->pos;
        unsigned i = 0;
        while (i < n && dec_buf__uv9(b->p, &pos, &out[i]))
            i++;
        if (i == n) {
            b->pos = pos;
            return;
        }
    }
    for (unsigned i = 0; i < n; i++)
        out[i] = dec_buf_uv(b);
}

static inline const uint8_t *dec_buf_bytes(dec_buf *b, uint64_t n)
{
    if (n > b->len - b->pos) {
        b->bad |= DEC_BUF_SHORT;
        b->pos = b->len;
        return NULL;
    }
    const uint8_t *r = b->p + b->pos;
    b->pos += (size_t)n;
    return r;
}

static inline bool dec_buf_skip(dec_buf *b, uint64_t n) { return dec_buf_bytes(b, n) != NULL; }

#endif
