/* core/text.h — UTF-8, and how a string of the trace is written into the
 * structured outputs. A trace's strings are bytes (function names, user
 * regions, tasks, logs, values: runtime/trace takes any Go string), while
 * JSON (RFC 8259) and XML must be UTF-8: a byte that begins no valid
 * sequence is written as U+FFFD, one per byte, as Go's own encoding/json
 * and utf8.DecodeRune take it.
 *
 * API
 *   uint32_t cs_utf8_next(const char **s)   the code point at *s (not at its NUL), *s moved
 *       past it; CS_UTF8_BAD, and *s moved one byte, for a byte that begins no valid sequence
 *       (cut short, an overlong form, a surrogate, past U+10FFFF)
 *   bool cs_utf8_valid(const char *s)       whether all of s is valid UTF-8
 *   void cs_utf8_text(cs_write_fn *fn, void *ctx, const char *s)   s, each byte that
 *       begins no valid sequence as U+FFFD (3 bytes): at most 3 * strlen(s) bytes
 *   void cs_json_str(cs_write_fn *fn, void *ctx, const char *s)   s as a JSON string
 *       literal, quotes included, escaped as jansson writes it (\" \\ \b \f \n \r \t, \u00XX
 *       for the other controls), a bad byte as \ufffd
 *   void cs_csv_str(cs_write_fn *fn, void *ctx, const char *s)    s as a quoted CSV field
 *       (RFC 4180: its quotes doubled), its bytes as they are
 *   void cs_xml_text(cs_write_fn *fn, void *ctx, const char *s)   s for XML text and
 *       attribute values: & < > " ' as entities, a bad byte and the controls XML 1.0 does not
 *       allow (all but tab and newline) as &#xFFFD;
 * The writers pass fn's failures on to the sink's own error state: fn's
 * result is not looked at here (the callers' sinks remember a failed write).
 */
#ifndef CS_TEXT_H
#define CS_TEXT_H

#include "cs.h"

#define CS_UTF8_BAD UINT32_MAX /* not a code point: a valid U+FFFD stays one */

uint32_t cs_utf8_next(const char **s);
bool cs_utf8_valid(const char *s);
void cs_utf8_text(cs_write_fn *fn, void *ctx, const char *s);
void cs_json_str(cs_write_fn *fn, void *ctx, const char *s);
void cs_csv_str(cs_write_fn *fn, void *ctx, const char *s);
void cs_xml_text(cs_write_fn *fn, void *ctx, const char *s);

#endif
