#!/bin/sh
# tools/fuzz.sh — runs the libFuzzer harnesses built by `make fuzz-build` for
# SECONDS each, seeded from the traces under tests/data (tools/fuzz_seeds.sh);
# with "keep", merges new, minimised corpus entries into
# tests/fuzz/corpus/<harness>/.
# Usage: tools/fuzz.sh BIN_DIR SECONDS [keep]
set -u
bin=$1; secs=$2; keep=${3:-}
seeds=$bin/seeds
sh tools/fuzz_seeds.sh "$seeds"
status=0
for h in ${FUZZ_HARNESSES:-any legacy v2 layout stream}; do
    corpus=tests/fuzz/corpus/$h
    mkdir -p "$corpus" "$bin/new-$h"
    echo "fuzz_$h: ${secs}s"
    "$bin/fuzz_$h" -max_total_time="$secs" -timeout=10 -artifact_prefix="$bin/" -rss_limit_mb=2048 -print_final_stats=1 \
        -dict=tests/fuzz/trace.dict "$bin/new-$h" "$corpus" "$seeds/$h" 2>"$bin/fuzz_$h.log" || status=1
    grep -E '^stat::(number_of_executed_units|peak_rss_mb)|ERROR|SUMMARY' "$bin/fuzz_$h.log" | head -5
    grep -o 'cov: [0-9]* ft: [0-9]*' "$bin/fuzz_$h.log" | tail -1 | sed 's/^/  /'
    if [ -n "$keep" ]; then
        "$bin/fuzz_$h" -merge=1 "$corpus" "$bin/new-$h" >/dev/null 2>&1
    fi
done
[ $status -eq 0 ] || echo "fuzz: a harness failed; see $bin/fuzz_*.log"
exit $status
