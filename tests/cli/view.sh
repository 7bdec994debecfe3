#!/bin/sh
# The viewer under Xvfb, driven by xdotool, on corpus traces of three Go
# versions: it opens a window, each key (space, l, 1) changes the picture, p
# saves a non-blank screenshot PNG, q quits with status 0 (under ASan: no
# leaks). Skips when
# Xvfb, xdotool or ImageMagick are missing, or when the trace doesn't decode.
set -u
cs=${CHANSCOPE:-./chanscope}
fail() { echo "FAIL: $*"; [ -n "${vpid:-}" ] && kill "$vpid" 2>/dev/null; [ -n "${xpid:-}" ] && kill "$xpid" 2>/dev/null; exit 1; }
for tool in Xvfb xdotool xdpyinfo import compare convert; do
    command -v $tool >/dev/null 2>&1 || { echo "SKIP: $tool missing"; exit 0; }
done
trace=tests/data/corpus/go1.23/pingpong.trace
$cs info -q "$trace" >/dev/null 2>&1 || { echo "SKIP: $trace does not decode yet"; exit 0; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Xvfb picks a free display itself and writes its number to fd 3; another
# X server starting at the same moment can take that display, so try again
start_x() {
    : > "$tmp/display"
    Xvfb -displayfd 3 -screen 0 1100x700x24 -nolisten tcp 3>"$tmp/display" >/dev/null 2>&1 &
    xpid=$!
    for i in $(seq 300); do [ -s "$tmp/display" ] && break; sleep 0.1; done
    disp=:$(head -1 "$tmp/display")
    export DISPLAY=$disp
    for i in $(seq 100); do xdpyinfo >/dev/null 2>&1 && return 0; kill -0 "$xpid" 2>/dev/null || return 1; sleep 0.1; done
    return 1
}
for attempt in 1 2 3; do
    start_x && break
    kill "$xpid" 2>/dev/null; sleep 1
done
xdpyinfo >/dev/null 2>&1 || fail "Xvfb did not start on $disp"

# without a display the viewer says what to use instead
msg=$(DISPLAY= $cs view "$trace" 2>&1); rc=$?
[ $rc -eq 1 ] || fail "view without DISPLAY should exit 1, got $rc"
echo "$msg" | grep -q "chanscope png" || fail "no-display message does not point at png: $msg"

$cs view --size 1000x600 --shots "$tmp" "$trace" >"$tmp/out.txt" 2>"$tmp/err.txt" &
vpid=$!
wid=$(timeout 30 xdotool search --sync --name chanscope | head -1)
[ -n "$wid" ] || fail "no window: $(cat "$tmp/err.txt")"
xdotool mousemove --window "$wid" 500 300
sleep 2
shot() { import -window root "$tmp/$1.png" || fail "import $1"; }
colours() { convert "$1" -format "%k" info:; }
differ() { compare -metric AE "$tmp/$1.png" "$tmp/$2.png" null: 2>&1 | sed 's/ .*//'; }

shot s0
[ "$(colours "$tmp/s0.png")" -gt 10 ] || fail "first screenshot is blank"
prev=s0
for k in space l 1; do
    xdotool key $k
    sleep 1.5
    shot "after-$k"
    d=$(differ "$prev" "after-$k")
    echo "key $k: $d pixels changed"
    [ "${d%.*}" -gt 100 ] 2>/dev/null || fail "picture did not change after '$k' ($d)"
    prev="after-$k"
done
xdotool key p
sleep 1.5
[ -f "$tmp/chanscope-001.png" ] || fail "p saved no screenshot: $(cat "$tmp/out.txt" "$tmp/err.txt")"
[ "$(colours "$tmp/chanscope-001.png")" -gt 10 ] || fail "saved screenshot is blank"
if [ -n "${CHANSCOPE_KEEP:-}" ]; then cp "$tmp"/*.png "$CHANSCOPE_KEEP"/; fi
xdotool key q
for i in $(seq 100); do kill -0 "$vpid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$vpid" 2>/dev/null && fail "viewer still running after q"
wait "$vpid"; rc=$?
[ $rc -eq 0 ] || fail "viewer exited with $rc: $(tail -20 "$tmp/err.txt")"
vpid=

# traces of other Go versions (legacy 1.19, 1.22+ 1.25): the window opens on
# a non-blank picture, playback changes it, the tree layout draws, q quits
for trace in tests/data/corpus/go1.19/selectmix.trace tests/data/pingpong-go1.25.trace; do
    $cs view --size 800x500 "$trace" >/dev/null 2>"$tmp/err.txt" &
    vpid=$!
    wid=$(timeout 30 xdotool search --sync --name chanscope | head -1)
    [ -n "$wid" ] || fail "no window for $trace: $(cat "$tmp/err.txt")"
    xdotool mousemove --window "$wid" 400 250
    sleep 1.5
    shot v0
    [ "$(colours "$tmp/v0.png")" -gt 10 ] || fail "$trace: first screenshot is blank"
    xdotool key space l
    sleep 1.5
    shot v1
    d=$(differ v0 v1)
    [ "${d%.*}" -gt 100 ] 2>/dev/null || fail "$trace: picture did not change after space, l ($d)"
    xdotool key q
    wait "$vpid"; rc=$?
    [ $rc -eq 0 ] || fail "$trace: viewer exited with $rc: $(tail -20 "$tmp/err.txt")"
    vpid=
    echo "$trace: $d pixels changed after space, l; clean exit"
done
kill "$xpid" 2>/dev/null; wait "$xpid" 2>/dev/null
exit 0
