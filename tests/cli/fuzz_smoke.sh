#!/bin/sh
# A few seconds of each libFuzzer harness (built by `make fuzz-build`) over
# the whole pipeline: no crash, leak, UB report or timeout.
set -u
[ -x build/fuzz/fuzz_any ] || { echo "fuzz harnesses not built"; exit 1; }
sh tools/fuzz.sh build/fuzz "${FUZZ_SMOKE_SECONDS:-4}"
