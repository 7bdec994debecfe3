/* tests/fuzz/fuzz_v2.c — libFuzzer harness: generation-based decoding (Go
 * wire 1.22, 1.23, 1.25, 1.26) and everything built on it. Input: one version-selector
 * byte, then the trace body after the 16-byte header. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const int versions[] = {1022, 1023, 1025, 1026};
    fz_run_family(data, size, versions, 4);
    return 0;
}
