#!/bin/sh
# `chanscope png` on corpus traces of two formats with DISPLAY unset: PNGs
# at the requested size with more than the background in them, every layout,
# the --frames sequence plus a GIF with that many frames, each --axis,
# --compact and --collapse a different picture, a trace without events
# drawn with its warning, usage errors exit 2.
set -u
cs=${CHANSCOPE:-./chanscope}
fail() { echo "FAIL: $*"; exit 1; }
command -v identify >/dev/null 2>&1 || { echo "SKIP: ImageMagick missing"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset DISPLAY WAYLAND_DISPLAY
for t in tests/data/corpus/go1.19/pingpong.trace tests/data/corpus/go1.23/selectmix.trace; do
    $cs info -q "$t" >/dev/null 2>&1 || { echo "SKIP: $t does not decode"; continue; }
    for l in lanes tree graph; do
        out="$tmp/$l.png"
        $cs png -q --layout $l --size 640x360 "$t" -o "$out" || fail "png --layout $l $t"
        [ "$(identify -format '%wx%h' "$out")" = 640x360 ] || fail "$l: size $(identify -format '%wx%h' "$out")"
        n=$(convert "$out" -format '%k' info:)
        [ "$n" -gt 20 ] || fail "$l: only $n colours in $out"
    done
done
# a Go 1.22+ trace cut inside its first generation: no event, a warning, and
# still a picture in every layout (no arithmetic on the missing times)
head -c 2000 tests/data/corpus/go1.23/pingpong.trace > "$tmp/cut.trace"
for l in lanes tree graph; do
    $cs png --layout $l --size 320x180 "$tmp/cut.trace" -o "$tmp/cut.png" 2>"$tmp/cut.err" || fail "png --layout $l of a trace without events"
    grep -q "warning: trace is cut short" "$tmp/cut.err" || fail "$l: no warning for a trace without events"
done
t=tests/data/corpus/go1.23/pingpong.trace
$cs png -q --frames 4 --fps 5 --size 320x180 --theme light "$t" -o "$tmp/anim.png" >/dev/null || fail "--frames"
for i in 1 2 3 4; do [ -f "$tmp/anim-000$i.png" ] || fail "frame $i missing"; done
[ "$(identify "$tmp/anim.gif" | wc -l)" -eq 4 ] || fail "GIF does not have 4 frames"
cmp -s "$tmp/anim-0001.png" "$tmp/anim-0004.png" && fail "first and last frames are equal"
$cs png -q --at 50% --range 10ms:40ms "$t" -o "$tmp/at.png" || fail "--at/--range"
# every time axis, --compact and --collapse change the lanes picture; the
# tree view follows --axis too
t19=tests/data/corpus/go1.19/selectmix.trace
$cs png -q --size 640x360 "$t19" -o "$tmp/linear.png" || fail "png linear"
differs() { # differs BASE.png TRACE OPTION...: the option changes over 1000 pixels
    base=$1 trace=$2; shift 2
    $cs png -q --size 640x360 "$@" "$trace" -o "$tmp/opt.png" || fail "png $*"
    d=$(compare -metric AE "$base" "$tmp/opt.png" null: 2>&1 | cut -d' ' -f1)
    [ "${d%.*}" -gt 1000 ] || fail "$* changes only $d pixels of $trace"
}
differs "$tmp/linear.png" "$t19" --axis log
differs "$tmp/linear.png" "$t19" --axis gaps
bc=tests/data/corpus/go1.19/closebcast.trace   # receivers of one function: one lane
$cs png -q --size 640x360 "$bc" -o "$tmp/bc.png" || fail "png $bc"
differs "$tmp/bc.png" "$bc" --collapse
storm=../shared/traces/corpus/go1.25/spawnstorm.trace   # goroutines that end: lanes to reuse
if [ -f "$storm" ]; then
    $cs png -q --size 640x360 "$storm" -o "$tmp/storm.png" || fail "png $storm"
    differs "$tmp/storm.png" "$storm" --compact
else
    echo "SKIP: $storm absent: --compact not checked"
fi
$cs png -q --size 640x360 --layout tree "$t19" -o "$tmp/tree.png" || fail "png tree"
$cs png -q --size 640x360 --layout tree --axis log "$t19" -o "$tmp/tree-log.png" || fail "png tree --axis log"
cmp -s "$tmp/tree.png" "$tmp/tree-log.png" && fail "--axis log does not change the tree"
$cs png --axis nope "$t" -o "$tmp/x.png" >/dev/null 2>&1; [ $? -eq 2 ] || fail "bad --axis should exit 2"
$cs png --help | grep -q -- "--collapse" || fail "--help does not list --collapse"
$cs png "$t" >/dev/null 2>&1; [ $? -eq 2 ] || fail "missing -o should exit 2"
$cs png --size 10x10 "$t" -o "$tmp/x.png" >/dev/null 2>&1; [ $? -eq 2 ] || fail "bad --size should exit 2"
$cs png --layout nope "$t" -o "$tmp/x.png" >/dev/null 2>&1; [ $? -eq 2 ] || fail "bad --layout should exit 2"
$cs png --help | grep -q "animated GIF" || fail "--help does not mention the GIF"
$cs png -q "$t" -o /nonexistent/dir/x.png >/dev/null 2>&1; [ $? -eq 1 ] || fail "unwritable output should exit 1"
exit 0
