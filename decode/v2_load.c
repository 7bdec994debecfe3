/* decode/v2_load.c — entry point of the v2 decoder (being written). */
#include "decode.h"

bool dec__v2_load(const dec_desc *d, const cs_file *f, int version, cs_model *out,
                      cs_stats *stats, cs_err *err)
{
    (void)d, (void)f, (void)out, (void)stats;
    return CS_FAIL(err, CS_E_VERSION, 0, "Go %s traces are not readable yet", dec_version_name(version));
}
