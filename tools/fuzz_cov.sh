#!/bin/sh
# tools/fuzz_cov.sh — line coverage of the pipeline reached by each libFuzzer
# harness: runs the coverage build of `make fuzz-cov` once over the harness's
# kept corpus (tests/fuzz/corpus/<harness>/, plus any extra DIRs given) and
# the seeds, then prints llvm-cov's line coverage per folder of the program.
# Usage: tools/fuzz_cov.sh BIN_DIR [FUZZ_DIR]
#   FUZZ_DIR/new-<harness>/ is added when it exists: the inputs a `make fuzz`
#   run found (FUZZ_DIR = build/fuzz), merged or not.
set -u
bin=$1; extra=${2:-}
sh tools/fuzz_seeds.sh "$bin/seeds"
for h in ${FUZZ_HARNESSES:-any legacy v2 layout}; do
    dirs="$bin/seeds/$h"
    [ -d "tests/fuzz/corpus/$h" ] && dirs="$dirs tests/fuzz/corpus/$h"
    [ -n "$extra" ] && [ -d "$extra/new-$h" ] && dirs="$dirs $extra/new-$h"
    n=$(find $dirs -type f | wc -l)
    rm -f "$bin/$h.profraw"
    LLVM_PROFILE_FILE="$bin/$h.profraw" "$bin/fuzz_$h" -runs=0 -rss_limit_mb=4096 -timeout=60 $dirs >"$bin/cov_$h.log" 2>&1 ||
        { echo "fuzz_$h: failed on its corpus, see $bin/cov_$h.log"; exit 1; }
    llvm-profdata merge -sparse "$bin/$h.profraw" -o "$bin/$h.profdata"
    echo "fuzz_$h: $n inputs; lines covered:"
    llvm-cov report "$bin/fuzz_$h" -instr-profile="$bin/$h.profdata" -ignore-filename-regex='tests/|build/' |
        awk 'NR > 2 && $1 ~ /\// && $1 !~ /^-/ {
                 split($1, p, "/"); d = p[1]; tot[d] += $8; miss[d] += $9 }
             END { for (d in tot) if (tot[d] > miss[d]) printf "  %-8s %6d of %6d lines (%.1f%%)\n", d "/", tot[d] - miss[d], tot[d], 100 * (tot[d] - miss[d]) / tot[d] }' | sort
done
