#!/bin/sh
# tools/bench_render.sh — part of `make bench`: what drawing a large trace
# costs. For the 25 MB Go 1.25 ring and, when tools/bench.sh made them, the
# 117 MB Go 1.25 and Go 1.27 rings, the 85 MB Go 1.19 ring (legacy), the
# GC-heavy and the mixed Go 1.27 traces: wall time and peak RSS of `info` (decode + full model), `svg` and `png`
# (1920x1080, EGL offscreen) in the lanes and tree layouts (svg has no
# tree), and, when Xvfb is installed, `view --bench-frames 30` at 1280x720:
# time to exit, when the first picture was shown (a big trace's, before
# its channel traffic), first frame, median and worst of the others; then, in a run
# of its own, `view --bench-zoom 10`: median and worst of 10 wheel notches
# in at the window's centre and of 10 drags of a tenth of its width, each
# from the view change to the frame shown (in lanes, drawn from the
# summaries made before, stretched), "settled": till the frame that shows
# the summaries made afresh for the new window (in lanes made behind the
# frames), and "longest": the longest frame meanwhile; then the layout's
# other drags timed alike (lanes: vertical and diagonal, up and back by
# turns; tree: orbit), each as shown/settled/longest (a build without
# --bench-zoom shows "-", one without those drags or the longest frame
# leaves them out). With BASE=PATH (another chanscope build, e.g. main's) every
# row is measured with it too, run for run interleaved, side by side.
# Usage: sh tools/bench_render.sh [TRACE...]   (default: the traces above)
set -u
shared=${CHANSCOPE_SHARED:-../shared/traces}
out=build/bench
base=${BASE:-}
mkdir -p "$out"
if [ $# -eq 0 ]; then
    mid=$out/ring-go1.25-mid.trace
    if [ -f "$shared/large/ring-go1.25-mid.trace.xz" ] && [ ! -s "$mid" ]; then
        xz -dc "$shared/large/ring-go1.25-mid.trace.xz" >"$mid"
    fi
    [ -s "$mid" ] || mid=tests/data/corpus/go1.23/pingpong.trace
    set -- "$mid"
    for big in ring-go1.25-7M ring-go1.27-7M ring-1000-7M gcheavy-go1.27 mixed-go1.27 server-go1.27; do
        [ -s "$out/$big.trace" ] && set -- "$@" "$out/$big.trace"
    done
fi
[ -n "$base" ] && [ ! -x "$base" ] && { echo "BASE=$base is not an executable" >&2; exit 2; }

xdisp=
if command -v Xvfb >/dev/null 2>&1; then
    rm -f "$out/display"
    Xvfb -displayfd 3 -screen 0 1400x900x24 -nolisten tcp 3>"$out/display" >/dev/null 2>&1 &
    xpid=$!
    for i in $(seq 100); do [ -s "$out/display" ] && break; sleep 0.1; done
    xdisp=:$(head -1 "$out/display")
fi

# run BIN TRACE ARGS...: "WALL RSS_MB" of `BIN ARGS -q TRACE`, or "failed"
run() {
    bin=$1 t=$2
    shift 2
    if /usr/bin/time -f "%e %M" -o "$out/draw-time.txt" "$bin" "$@" -q "$t" >"$out/draw-out.txt" 2>&1; then
        awk '{ printf "%6.2f s %6.0f MB", $1, $2 / 1024 }' "$out/draw-time.txt"
    else
        printf "%17s" failed
    fi
}
# frames BIN TRACE LAYOUT: `view --bench-frames 30` wall, first, median,
# worst; then `view --bench-zoom 10`: zoom, pan and the other drags, median/worst
frames() {
    if DISPLAY=$xdisp /usr/bin/time -f "%e %M" -o "$out/draw-time.txt" "$1" view -q --bench-frames 30 \
        --size 1280x720 --layout "$3" "$2" >"$out/draw-out.txt" 2>&1; then
        read -r wall rss <"$out/draw-time.txt"
        shown=$(sed -n 's/.*first shown \([0-9.]*\) s after start.*/\1/p' "$out/draw-out.txt")
        sed -n 's/.* first \([0-9.]*\) ms  then median \([0-9.]*\) ms .* worst \([0-9.]*\) ms.*/\1 \2 \3/p' \
            "$out/draw-out.txt" | awk -v w="$wall" -v r="$rss" -v sh="${shown:-0}" '{
            printf "%6.2f s %6.0f MB  shown %5.2f s  first %6.0f ms  median %5.0f ms  worst %5.0f ms", w, r / 1024, sh, $1, $2, $3 }'
    else
        printf "%17s" failed
    fi
    if ! "$1" view --help 2>/dev/null | grep -q -- --bench-zoom; then
        printf "  zoom %14s  pan %14s" - -
    elif DISPLAY=$xdisp "$1" view -q --bench-zoom 10 --size 1280x720 --layout "$3" "$2" >"$out/draw-out.txt" 2>&1; then
        awk '$1 == "steps" { printf "  zoom %5.0f/%5.0f ms  pan %5.0f/%5.0f ms", $5, $8, $12, $15
            if (NF >= 30) printf "  settled: zoom %5.0f/%5.0f ms  pan %5.0f/%5.0f ms", $20, $23, $27, $30
            if (NF >= 39) printf "  longest: zoom %4.0f ms  pan %4.0f ms", $36, $39 }
            $1 == "drag" { printf "  %s %5.0f/%5.0f ms settled %5.0f/%5.0f ms", $2, $5, $8, $12, $15
            if (NF >= 20) printf " longest %4.0f ms", $20 }' \
            "$out/draw-out.txt"
    else
        printf "  zoom, pan: failed"
    fi
}
# row LABEL KIND ARGS...: one line, this build and BASE side by side
row() {
    label=$1 kind=$2
    shift 2
    if [ "$kind" = view ]; then mine=$(frames ./chanscope "$t" "$1"); else mine=$(run ./chanscope "$t" "$@"); fi
    theirs=
    if [ -n "$base" ]; then
        if [ "$kind" = view ]; then theirs=$(frames "$base" "$t" "$1"); else theirs=$(run "$base" "$t" "$@"); fi
    fi
    printf "  %-14s %s%s\n" "$label" "$mine" "${theirs:+   |  $theirs}"
}

echo "drawing large traces (png/svg 1920x1080, view 1280x720 under Xvfb; time, peak RSS; zoom and pan steps: median/worst)${base:+: this build  |  $base}"
for t in "$@"; do
    printf " %s (%.1f MB):\n" "$(basename "$t")" "$(stat -L -c %s "$t" | awk '{print $1 / 1e6}')"
    row info info info
    row "svg lanes" cmd svg -o "$out/bench.svg"
    row "png lanes" cmd png -o "$out/bench.png"
    row "png tree" cmd png --layout tree -o "$out/bench.png"
    if [ -n "$xdisp" ]; then
        row "view lanes" view lanes
        row "view tree" view tree
    fi
done
[ -z "$xdisp" ] && echo "  (no Xvfb: viewer frame times skipped)"
[ -n "$xdisp" ] && kill "$xpid"
exit 0
