/* decode/legacy_load.c — entry point of the legacy decoder (being written). */
#include "decode.h"

bool dec__legacy_load(const dec_desc *d, const cs_file *f, int version, cs_model *out,
                      cs_stats *stats, cs_err *err)
{
    (void)d, (void)f, (void)out, (void)stats;
    return CS_FAIL(err, CS_E_VERSION, 0, "Go %s traces are not readable yet", dec_version_name(version));
}
