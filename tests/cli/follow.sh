#!/bin/sh
# `view --follow` under Xvfb on a trace that arrives in two parts through a
# FIFO (the first part cut inside a later generation, the rest four seconds
# later), and on standard input: the viewer opens while it waits, shows the
# complete generations of the first part, then the whole trace — its status
# line (also printed) reports more generations, goroutines and time, and a
# second screenshot differs from the first; q quits with status 0. With a Go
# 1.27 toolchain built by go127.sh, the same with a running Go program
# writing its trace into the FIFO. Skips when Xvfb, xdotool or ImageMagick
# are missing.
set -u
cs=${CHANSCOPE:-./chanscope}
case $cs in /*) ;; *) cs=$(pwd)/$cs ;; esac
root=$(pwd)
fail() { echo "FAIL: $*"; [ -n "${vpid:-}" ] && kill "$vpid" 2>/dev/null; [ -n "${xpid:-}" ] && kill "$xpid" 2>/dev/null; exit 1; }
for tool in Xvfb xdotool xdpyinfo import compare; do
    command -v $tool >/dev/null 2>&1 || { echo "SKIP: $tool missing"; exit 0; }
done
tmp=$(mktemp -d)
trap 'kill ${xpid:-} 2>/dev/null; rm -rf "$tmp"' EXIT
. tests/cli/xvfb.inc
xvfb_start 900x600

t=$root/tests/data/gens/gens-go1.27.trace
size=$(wc -c <"$t")
gens() { $cs info --json -q - | sed -n 's/.*"generations": *\([0-9]*\).*/\1/p'; }
full=$(gens <"$t")
cut=
for pct in 40 50 60 70; do
    n=$(head -c $((size * pct / 100)) "$t" | gens)
    [ -n "$n" ] && [ "$n" -ge 1 ] && [ "$n" -lt "$full" ] && { cut=$((size * pct / 100)); break; }
done
[ -n "$cut" ] || fail "no cut of $t keeps some but not all of its $full generations"

# status N: the Nth status line the viewer printed, waiting up to 60 s for it
status() {
    for i in $(seq 600); do
        [ "$(grep -c '^following\|^ended' "$tmp/out.txt")" -ge "$1" ] && break
        kill -0 "$vpid" 2>/dev/null || fail "the viewer ended: $(cat "$tmp/err.txt")"
        sleep 0.1
    done
    grep '^following\|^ended' "$tmp/out.txt" | sed -n "${1}p"
}
field() { echo "$1" | sed -n "s/.* \([0-9]*\) $2s*,.*/\1/p"; } # "1 generation," or "2 generations,"
# follow_two NAME: the viewer ($vpid) shows a first and then a last state
follow_two() {
    first=$(status 1)
    [ -n "$first" ] || fail "$1: no status line: $(cat "$tmp/err.txt")"
    sleep 1
    import -window root "$tmp/$1-1.png" || fail "import"
    for i in $(seq 600); do grep -q '^ended' "$tmp/out.txt" && break; sleep 0.1; done
    last=$(grep '^ended' "$tmp/out.txt" | tail -1)
    [ -n "$last" ] || fail "$1: the input never ended: $(cat "$tmp/out.txt")"
    sleep 1
    import -window root "$tmp/$1-2.png" || fail "import"
    [ "$(field "$first" generation)" -lt "$(field "$last" generation)" ] || fail "$1: generations: '$first' then '$last'"
    [ "$(field "$first" goroutine)" -le "$(field "$last" goroutine)" ] || fail "$1: goroutines: '$first' then '$last'"
    d=$(compare -metric AE "$tmp/$1-1.png" "$tmp/$1-2.png" null: 2>&1 | sed 's/ .*//')
    [ "${d:-0}" -gt 1000 ] || fail "$1: the picture did not change ($d pixels)"
    wid=$(xdotool search --onlyvisible --name chanscope | head -1)
    xdotool key --window "$wid" q
    wait "$vpid"
    rc=$?
    vpid=
    [ $rc -eq 0 ] || fail "$1: q gave exit $rc: $(tail -5 "$tmp/err.txt")"
    echo "$1: '$first' then '$last'"
}

mkfifo "$tmp/in"
$cs view --follow --size 800x500 "$tmp/in" >"$tmp/out.txt" 2>"$tmp/err.txt" &
vpid=$!
wid=$(timeout 30 xdotool search --sync --onlyvisible --name chanscope | head -1)
[ -n "$wid" ] || fail "no window while waiting for a writer: $(cat "$tmp/err.txt")"
{ head -c "$cut" "$t"; sleep 4; tail -c +$((cut + 1)) "$t"; } >"$tmp/in" &
wpid=$!
follow_two fifo
wait "$wpid"

: >"$tmp/out.txt"
{ head -c "$cut" "$t"; sleep 4; tail -c +$((cut + 1)) "$t"; } | $cs view --size 800x500 - >"$tmp/out.txt" 2>"$tmp/err.txt" &
vpid=$!
follow_two stdin

prog=$root/build/go/test127/gens
if [ -x "$prog" ]; then
    : >"$tmp/out.txt"
    $cs view --follow --size 800x500 "$tmp/in" >"$tmp/out.txt" 2>"$tmp/err.txt" &
    vpid=$!
    "$prog" "$tmp/in" 3.5 >/dev/null &
    wpid=$!
    follow_two go
    wait "$wpid"
else
    echo "note: build/go/test127/gens not built (go127.sh skipped): no running Go program followed"
fi
exit 0
