#!/bin/sh
# tools/fuzz.sh — runs the libFuzzer harnesses built by `make fuzz-build` for
# SECONDS each, seeded from the traces under tests/data; with "keep", merges new,
# minimised corpus entries into tests/fuzz/corpus/<harness>/.
# Usage: tools/fuzz.sh BIN_DIR SECONDS [keep]
set -u
bin=$1; secs=$2; keep=${3:-}
seeds=$bin/seeds
rm -rf "$seeds"; mkdir -p "$seeds/any" "$seeds/legacy" "$seeds/v2" "$seeds/layout"
# version-selector byte = index in the harness's version list (tests/fuzz/*.c)
legacy_idx() { case $1 in 1.5) echo 0;; 1.7) echo 1;; 1.8) echo 2;; 1.9) echo 3;; 1.10) echo 4;; 1.11) echo 5;; 1.19) echo 6;; 1.21) echo 7;; *) echo;; esac; }
v2_idx() { case $1 in 1.22) echo 0;; 1.23) echo 1;; 1.25) echo 2;; *) echo;; esac; }
for t in $(find tests/data -name '*.trace' | sort); do
    n=$(echo "$t" | tr / _)
    ver=$(head -c 16 "$t" | tr -d '\000' | sed -n 's/^go \([0-9.]*\) trace$/\1/p')
    cp "$t" "$seeds/any/$n"; cp "$t" "$seeds/layout/$n"
    i=$(legacy_idx "$ver")
    [ -n "$i" ] && { printf "\\$(printf %03o "$i")"; tail -c +17 "$t"; } > "$seeds/legacy/$n"
    i=$(v2_idx "$ver")
    [ -n "$i" ] && { printf "\\$(printf %03o "$i")"; tail -c +17 "$t"; } > "$seeds/v2/$n"
done
status=0
for h in ${FUZZ_HARNESSES:-any legacy v2 layout}; do
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
