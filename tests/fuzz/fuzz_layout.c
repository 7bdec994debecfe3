/* tests/fuzz/fuzz_layout.c — libFuzzer harness: whole files through decode,
 * channel traffic and every layout on the decoded model (tests/lay_all.h). */
#include "fuzz_common.h"

#include "../lay_all.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_run_with(data, size, tl_lay_all);
    return 0;
}
