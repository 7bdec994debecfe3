/* tests/fuzz/fuzz_legacy.c — libFuzzer harness: legacy decoding (Go 1.5–1.21)
 * and everything built on it. Input: one version-selector byte, then the
 * trace body after the 16-byte header. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const int versions[] = {1005, 1007, 1008, 1009, 1010, 1011, 1019, 1021};
    fz_run_family(data, size, versions, 8);
    return 0;
}
