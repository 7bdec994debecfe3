#!/bin/sh
# tools/bench_render.sh — part of `make bench`: `chanscope png` (EGL
# offscreen, 1920x1080) on a small and a large trace, wall time and peak RSS,
# and, when Xvfb is installed, `chanscope view --bench-frames` frame times at
# 1280x720 on both (level of detail: the large one should stay close).
set -u
shared=${CHANSCOPE_SHARED:-../shared/traces}
out=build/bench
mkdir -p "$out"
small=tests/data/corpus/go1.23/pingpong.trace
large=$out/ring-go1.25-mid.trace
if [ -f "$shared/large/ring-go1.25-mid.trace.xz" ] && [ ! -s "$large" ]; then
    xz -dc "$shared/large/ring-go1.25-mid.trace.xz" >"$large"
fi
[ -s "$large" ] || large=
echo "chanscope png (1920x1080, 4x MSAA, offscreen):"
for t in $small $large; do
    /usr/bin/time -f "%e %M" -o "$out/png-time.txt" ./chanscope png -q "$t" -o "$out/bench.png"
    read -r wall rss <"$out/png-time.txt"
    printf "  %-28s %6.2f s wall  peak RSS %6.1f MB\n" "$(basename "$t")" "$wall" "$(echo "$rss" | awk '{print $1/1024}')"
done
command -v Xvfb >/dev/null 2>&1 || { echo "  (no Xvfb: viewer frame times skipped)"; exit 0; }
Xvfb -displayfd 3 -screen 0 1400x900x24 -nolisten tcp 3>"$out/display" >/dev/null 2>&1 &
xpid=$!
for i in $(seq 100); do [ -s "$out/display" ] && break; sleep 0.1; done
echo "chanscope view --bench-frames 30 (1280x720, llvmpipe):"
for t in $small $large; do
    printf "  %-28s " "$(basename "$t")"
    DISPLAY=:$(head -1 "$out/display") ./chanscope view -q --bench-frames 30 --size 1280x720 "$t"
done
kill "$xpid"
