#!/bin/sh
# tools/fuzz_seeds.sh — seed inputs for the libFuzzer harnesses from the traces
# under tests/data: whole files for fuzz_any, fuzz_layout and fuzz_stream; for fuzz_legacy
# and fuzz_v2 the trace body after one version-selector byte (the index in
# the harness's version list, tests/fuzz/*.c) instead of the 16-byte header.
# Usage: tools/fuzz_seeds.sh DIR   (makes DIR/any DIR/legacy DIR/v2 DIR/layout DIR/stream)
set -u
seeds=$1
rm -rf "$seeds"; mkdir -p "$seeds/any" "$seeds/legacy" "$seeds/v2" "$seeds/layout" "$seeds/stream"
legacy_idx() { case $1 in 1.5) echo 0;; 1.7) echo 1;; 1.8) echo 2;; 1.9) echo 3;; 1.10) echo 4;; 1.11) echo 5;; 1.19) echo 6;; 1.21) echo 7;; *) echo;; esac; }
v2_idx() { case $1 in 1.22) echo 0;; 1.23) echo 1;; 1.25) echo 2;; 1.26) echo 3;; *) echo;; esac; }
for t in $(find tests/data -name '*.trace' | sort); do
    n=$(echo "$t" | tr / _)
    ver=$(head -c 16 "$t" | tr -d '\000' | sed -n 's/^go \([0-9.]*\) trace$/\1/p')
    cp "$t" "$seeds/any/$n"; cp "$t" "$seeds/layout/$n"; cp "$t" "$seeds/stream/$n"
    i=$(legacy_idx "$ver")
    [ -n "$i" ] && { printf "\\$(printf %03o "$i")"; tail -c +17 "$t"; } > "$seeds/legacy/$n"
    i=$(v2_idx "$ver")
    [ -n "$i" ] && { printf "\\$(printf %03o "$i")"; tail -c +17 "$t"; } > "$seeds/v2/$n"
done
exit 0
