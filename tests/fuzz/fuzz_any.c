/* tests/fuzz/fuzz_any.c — libFuzzer harness: whole files, header included,
 * through format detection and the whole pipeline. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_run(data, size);
    return 0;
}
