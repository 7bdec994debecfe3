/* decode/detect.c — recognises the 16-byte trace header and hands the file to
 * the decoder of its family (docs/trace-format.md §2): a Go 1.22+ stream as
 * it comes, generation by generation; a legacy one read whole first. Header
 * parsing follows Go 1.19's parseHeader: "go 1.N trace" padded with NUL
 * bytes. */
#include "decode.h"

#include <string.h>

bool dec_detect(const uint8_t *p, size_t n, int *version, cs_family *fam, cs_err *err)
{
    if (n < 16)
        return CS_FAIL(err, CS_E_FORMAT, n, "not a Go execution trace (file has %zu bytes, header needs 16)", n);
    if (p[0] != 'g' || p[1] != 'o' || p[2] != ' ' || p[3] < '1' || p[3] > '9' || p[4] != '.' ||
        p[5] < '1' || p[5] > '9')
        return CS_FAIL(err, CS_E_FORMAT, 0, "not a Go execution trace (no \"go 1.N trace\" header)");
    int minor = p[5] - '0', extra = 0;
    while (extra < 2 && p[6 + extra] >= '0' && p[6 + extra] <= '9')
        minor = minor * 10 + (p[6 + extra++] - '0');
    static const char tail[] = " trace\0\0\0\0";
    if (memcmp(p + 6 + extra, tail, (size_t)(10 - extra)) != 0)
        return CS_FAIL(err, CS_E_FORMAT, 6 + (uint64_t)extra, "not a Go execution trace (bad header)");
    int v = (p[3] - '0') * 1000 + minor;
    switch (v) {
    case 1005: case 1007: case 1008: case 1009: case 1010: case 1011: case 1019: case 1021:
        *fam = CS_FAM_LEGACY;
        break;
    case 1022: case 1023: case 1025: case 1026:
        *fam = CS_FAM_V2;
        break;
    default:
        return CS_FAIL(err, CS_E_VERSION, 0,
                       "unsupported trace version go %d.%d (chanscope reads " DEC_VERSIONS "; the newest, 1.26, "
                       "is what Go 1.26 and 1.27 write)",
                       v / 1000, v % 1000);
    }
    *version = v;
    return true;
}

const char *dec_version_name(int version)
{
    switch (version) {
    case 1005: return "1.5";
    case 1007: return "1.7";
    case 1008: return "1.8";
    case 1009: return "1.9";
    case 1010: return "1.10";
    case 1011: return "1.11";
    case 1019: return "1.19";
    case 1021: return "1.21";
    case 1022: return "1.22";
    case 1023: return "1.23";
    case 1025: return "1.25";
    case 1026: return "1.26";
    }
    return "?";
}

bool dec_trace_load(const dec_desc *d, cs_file *f, cs_model *out, cs_stats *stats,
                    cs_err *err)
{
    int version;
    cs_family fam;
    while (f->stream && !f->ended && f->size < 16)
        if (!cs_file_more(f, err))
            return false;
    if (!dec_detect(f->data, f->size, &version, &fam, err))
        return false;
    out->family = fam;
    out->version = version;
    if (stats)
        stats->family = fam;
    /* a legacy trace is read whole (its events are not in time order) */
    if (fam == CS_FAM_LEGACY && !cs_file_whole(f, err))
        return false;
    dec_desc dd = dec__desc_defaults(d, fam, f->stream ? SIZE_MAX : f->size);
    return fam == CS_FAM_LEGACY ? dec__legacy_load(&dd, f, version, out, stats, err)
                                : dec__v2_load(&dd, f, version, out, stats, err);
}
