#!/bin/sh
# The viewer under Xvfb, driven by xdotool, on corpus traces of three Go
# versions: it opens a window at the start of the trace, playing (the plot
# changes by itself); End shows the whole trace; hovering a lane brings up a tooltip near the
# pointer, a click selects (partners stay bright), h shows the system
# goroutines, / filters by function name, Home, →, ← and End move the
# playback, and each key (space, l, 1) changes the picture; p saves a
# non-blank screenshot PNG, and p into a folder that cannot be written
# leaves the viewer running; ? shows the key list (the same rows as
# `view --help`, one table); zoomed in, playback runs on past the window
# to the end of the trace, and loops inside a range set with [ and ]; q quits with status 0 (under ASan: no leaks). A
# trace that does not decode exits 1 with FILE:OFFSET; q while a large trace
# loads exits 0; on software GL the window is not multisampled; a big
# trace's first picture comes before its channel traffic, which then takes
# its place. Skips when
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
. tests/cli/xvfb.inc
xvfb_start 1100x700

# without a display the viewer says what to use instead
msg=$(DISPLAY= $cs view "$trace" 2>&1); rc=$?
[ $rc -eq 1 ] || fail "view without DISPLAY should exit 1, got $rc"
echo "$msg" | grep -q "chanscope png" || fail "no-display message does not point at png: $msg"

# --engine is read as png reads it
msg=$($cs view --layout graph --engine nope "$trace" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$msg" | grep -q "circo" || fail "view --engine nope: exit $rc: $msg"
bench=$($cs view -q --layout graph --engine circo --bench-frames 2 "$trace" 2>&1) || fail "view --engine circo: $bench"

# the viewer on software GL (Xvfb's llvmpipe) draws edges unsmoothed, which
# made the tree's frames 1.5 times as long
bench=$($cs view -q --bench-frames 2 "$trace" 2>&1) || fail "view --bench-frames: $bench"
echo "$bench" | grep -q "smoothed no " || fail "the viewer smooths on software GL: $bench"
# a small trace's first picture has its channel traffic
echo "$bench" | grep -Eq "first shown [0-9.]+ s after start \(([1-9][0-9]*) messages\)" ||
    fail "a small trace's first picture lacks its messages: $bench"

# a big trace's first picture comes before its channel traffic (none of its
# messages), then the whole model takes its place for the frames timed;
# the trace (40 MB) is made with Go 1.27's toolchain (tools/go_toolchain.sh)
if sh tools/go_toolchain.sh build/go 1.27 >/dev/null 2>&1; then
    mkdir -p "$tmp/ring" && cp assets/go/ring/main.go "$tmp/ring/main.go"
    root=$(pwd)
    (cd "$tmp/ring" && env GOROOT="$root/build/go/go-1.27" GOTOOLCHAIN=local GOPROXY=off GOFLAGS= GO111MODULE=off \
        GOCACHE="$root/build/go/cache127" GOPATH="$root/build/go/path" "$root/build/go/go-1.27/bin/go" build -o ring main.go) ||
        fail "go build assets/go/ring"
    "$tmp/ring/ring" "$tmp/big.trace" 1000 2400000 >/dev/null || fail "ring did not write its trace"
    bench=$($cs view -q --bench-frames 2 "$tmp/big.trace" 2>&1) || fail "view --bench-frames (big trace): $bench"
    echo "$bench" | awk '/first shown/ { for (i = 1; i < NF; i++) { if ($i == "shown") a = $(i + 1); if ($i == "traffic") b = $(i + 1) }
        ok = a > 0 && a + 0 <= b + 0 } END { exit !ok }' || fail "the first picture does not come first: $bench"
    echo "$bench" | grep -q "after start (0 messages), with its channel traffic" ||
        fail "a big trace's first picture waited for its channel traffic: $bench"
    echo "$bench" | grep -Eq " 2400001/2400001 messages" || fail "the frames timed are not the whole model's: $bench"
    echo "big trace: $(echo "$bench" | grep -o 'first shown.*')"
else
    echo "SKIP: the first picture of a big trace: Debian's golang-1.27-go could not be unpacked"
fi

# --bench-zoom: wheel notches and drags through the viewer's own input code,
# after the frames or alone, in lanes and the tree; each median and worst,
# as shown and settled, a positive, finite number of ms, the worst no less
# than the median; then a line for each of the layout's other drags (lanes:
# vertical and diagonal; tree: orbit), alike
steps_ok() {
    echo "$1" | awk -v n="$2" '$1 == "steps" && $2 == n && $3 == "zoom" && $10 == "pan" && $17 == "settled:" {
        split("5 8 12 15 20 23 27 30", f, " ")
        for (k in f) if ($f[k] !~ /^[0-9]+\.[0-9]+$/ || $f[k] + 0 <= 0) exit 1
        if ($8 + 0 < $5 + 0 || $15 + 0 < $12 + 0 || $23 + 0 < $20 + 0 || $30 + 0 < $27 + 0) exit 1
        found = 1 } END { exit !found }'
}
# drag_ok OUTPUT N KIND
drag_ok() {
    echo "$1" | awk -v n="$2" -v kind="$3" '$1 == "drag" && $2 == kind && $3 == n && $10 == "settled:" {
        split("5 8 12 15", f, " ")
        for (k in f) if ($f[k] !~ /^[0-9]+\.[0-9]+$/ || $f[k] + 0 <= 0) exit 1
        if ($8 + 0 < $5 + 0 || $15 + 0 < $12 + 0) exit 1
        found = 1 } END { exit !found }'
}
for layout in lanes tree; do
    bench=$($cs view -q --layout $layout --bench-frames 2 --bench-zoom 4 "$trace" 2>&1) || fail "view --bench-zoom ($layout): $bench"
    echo "$bench" | grep -q "^frames 2 " || fail "view --bench-frames --bench-zoom ($layout) lost the frames line: $bench"
    steps_ok "$bench" 4 || fail "view --bench-zoom 4 ($layout) does not print its step times: $bench"
    kinds="vertical diagonal"
    [ $layout = tree ] && kinds=orbit
    for kind in $kinds; do
        drag_ok "$bench" 4 $kind || fail "view --bench-zoom 4 ($layout) does not print its $kind drag times: $bench"
    done
done
bench=$($cs view -q --bench-zoom 3 "$trace" 2>&1) || fail "view --bench-zoom alone: $bench"
[ "$(echo "$bench" | wc -l)" -eq 3 ] && steps_ok "$bench" 3 && drag_ok "$bench" 3 vertical && drag_ok "$bench" 3 diagonal ||
    fail "view --bench-zoom 3 alone: $bench"
msg=$($cs view --bench-zoom 0 "$trace" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$msg" | grep -q "1 to 1000" || fail "view --bench-zoom 0: exit $rc: $msg"

$cs view --size 1000x600 --shots "$tmp" "$trace" >"$tmp/out.txt" 2>"$tmp/err.txt" &
vpid=$!
wid=$(timeout 30 xdotool search --sync --onlyvisible --name chanscope | head -1)
[ -n "$wid" ] || fail "no window: $(cat "$tmp/err.txt")"
xdotool mousemove --window "$wid" 500 300
sleep 2
shot() { import -window root "$tmp/$1.png" || fail "import $1"; }
colours() { convert "$1" -format "%k" info:; }
differ() { compare -metric AE "$tmp/$1.png" "$tmp/$2.png" null: 2>&1 | sed 's/ .*//'; }
# differ_in A B GEOMETRY: changed pixels inside GEOMETRY (WxH+X+Y) only
differ_in() {
    convert "$tmp/$1.png" -crop "$3" +repage "$tmp/crop-a.png" && convert "$tmp/$2.png" -crop "$3" +repage "$tmp/crop-b.png"
    compare -metric AE "$tmp/crop-a.png" "$tmp/crop-b.png" null: 2>&1 | sed 's/ .*//'
}
# act NAME GEOMETRY XDOTOOL-ARGS...: do it, and the picture must change inside
# GEOMETRY (the plot below the HUD line, or the HUD's clock; the frame rate
# printed in the HUD changes by itself)
plot=1000x540+0+30 clock=230x26+0+0
act() {
    name=$1 geo=$2; shift 2
    xdotool "$@"
    sleep 1
    shot "$name"
    d=$(differ_in "$prev" "$name" "$geo")
    echo "$name: $d pixels changed in $geo"
    [ "${d%.*}" -gt 100 ] 2>/dev/null || fail "picture did not change after $name ($d)"
    prev=$name
}

# it opens playing from the start: the plot grows by itself
shot p0; sleep 1; shot p1
d=$(differ_in p0 p1 "$plot")
echo "playing at start: $d pixels changed in the plot within a second"
[ "${d%.*}" -gt 100 ] 2>/dev/null || fail "the viewer does not play from the start ($d)"
xdotool key End; sleep 1
shot s0
[ "$(colours "$tmp/s0.png")" -gt 10 ] || fail "first screenshot is blank"
# the state colours are there in the plot itself (HUD and legend cut away):
# blocked on channel (#E69F00) and sleeping (#009E73) of the dark theme
in_plot() { convert "$tmp/$1.png" -crop 820x520+160+32 +repage -fuzz 4% -fill white -opaque "$2" \
                -fill black +opaque white -format '%[fx:round(mean*w*h)]' info:; }
for c in '#E69F00:blocked-on-channel:2000' '#009E73:sleeping:2000'; do
    hex=${c%%:*}; rest=${c#*:}; name=${rest%%:*}; least=${rest#*:}
    n=$(in_plot s0 "$hex")
    echo "$name ($hex): $n pixels in the plot"
    [ "${n:-0}" -ge "$least" ] || fail "$name colour $hex: $n pixels in the plot, want >= $least"
done
# hover: the first lane row (from the top) whose hover draws a tooltip below
# and right of the pointer; the pointer rests on the legend line in between
tip=
for y in 64 124 184 244; do
    xdotool mousemove --window "$wid" 450 590; sleep 0.5; shot rest
    xdotool mousemove --window "$wid" 450 $y; sleep 1; shot hover
    d=$(differ_in rest hover "340x130+450+$y")
    echo "hover at y=$y: $d pixels changed near the pointer"
    [ "${d%.*}" -gt 500 ] 2>/dev/null && { tip=$y; break; }
done
[ -n "$tip" ] || fail "no tooltip near the pointer over any lane"
prev=hover
act click "$plot" click 1            # selects the lane: the rest dims
act h "$plot" key h                  # system goroutines appear
xdotool key slash; sleep 0.3
act filter "$plot" type player       # only main.player lanes stay
xdotool key Return
act home "$plot" key Home
act right "$clock" key Right
act left "$clock" key Left
act end "$plot" key End
act unfilter "$plot" key slash Return  # '/' then Enter clears the filter
for k in space l 1; do
    xdotool key $k
    sleep 1.5
    shot "after-$k"
    d=$(differ "$prev" "after-$k")
    echo "key $k: $d pixels changed"
    [ "${d%.*}" -gt 100 ] 2>/dev/null || fail "picture did not change after '$k' ($d)"
    prev="after-$k"
done
xdotool key question; sleep 1; shot keys
d=$(differ "$prev" keys)
echo "key list: $d pixels changed"
[ "${d%.*}" -gt 2000 ] 2>/dev/null || fail "? drew no key list ($d)"
xdotool key question; sleep 0.5
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

# p into a folder that cannot be written (a path through a regular file:
# even root cannot create it): a status line says so, the viewer keeps running
: > "$tmp/file"
$cs view --size 800x500 --shots "$tmp/file/dir" "$trace" >/dev/null 2>"$tmp/err.txt" &
vpid=$!
wid=$(timeout 30 xdotool search --sync --onlyvisible --name chanscope | head -1)
[ -n "$wid" ] || fail "no window for the unwritable-shots run: $(cat "$tmp/err.txt")"
xdotool mousemove --window "$wid" 400 250
sleep 1; xdotool key End; sleep 1; shot u0
xdotool key p; sleep 1.5
kill -0 "$vpid" 2>/dev/null || fail "p into an unwritable folder ended the viewer: $(cat "$tmp/err.txt")"
shot u1
d=$(differ_in u0 u1 "800x80+0+420")
echo "p into an unwritable folder: viewer running, $d pixels of status near the bottom"
[ "${d%.*}" -gt 100 ] 2>/dev/null || fail "no status message after a failed screenshot ($d)"
# zoomed in to a third of the trace, Home and play: playback runs on past
# the window (which pages along) to the trace's end, 10 s in all, so 4.5 s
# later the clock still moves: a stopped clock changes no pixel, a running
# one at least a digit (44 pixels when a loaded machine draws the ASan
# build a few frames a second)
for i in 1 2 3 4 5; do xdotool click 4; sleep 0.1; done
xdotool key Home space; sleep 4.5; shot z0; sleep 1; shot z1
d=$(differ_in z0 z1 "230x26+0+0")
echo "zoomed playback after 4.5 s: $d pixels of the clock changed in a second"
[ "${d%.*}" -gt 20 ] 2>/dev/null || fail "playback of a zoomed window stopped at the window's end ($d)"
# a loop range ([ then ] 0.7 s later: a second is not a whole number of
# loops): past the trace's end the playback still runs, round the loop. A
# stopped clock changes no pixel; a running one at least a digit, about 40
# pixels when a loaded machine draws the ASan build a few frames a second
xdotool key bracketleft; sleep 0.7; xdotool key bracketright; sleep 6; shot l0; sleep 1; shot l1
d=$(differ_in l0 l1 "230x26+0+0")
echo "looping past the trace's end: $d pixels of the clock changed in a second"
[ "${d%.*}" -gt 20 ] 2>/dev/null || fail "playback did not loop inside the range set with [ and ] ($d)"
xdotool key q
wait "$vpid"; rc=$?
[ $rc -eq 0 ] || fail "viewer exited with $rc after a failed screenshot: $(tail -20 "$tmp/err.txt")"
vpid=

# the key list of --help is the bindings table: every key the viewer has
keys=$($cs view --help | sed -n '/^Keys and mouse/,/^$/p')
for k in space Home End '\[ / \]' '/' p '?' drag right-drag wheel; do
    echo "$keys" | grep -q "^  $k " || fail "view --help lists no '$k' binding"
done
echo "$keys" | grep -q "^  drag .*tree: orbits" || fail "view --help: left-drag must orbit the tree"

# traces of other Go versions (legacy 1.19, 1.22+ 1.25, wire 1.26 of Go 1.27): the window opens on
# a non-blank picture, playback changes it, the tree layout draws, q quits
for trace in tests/data/corpus/go1.19/selectmix.trace tests/data/pingpong-go1.25.trace tests/data/corpus/go1.27/selectmix.trace; do
    $cs view --size 800x500 "$trace" >/dev/null 2>"$tmp/err.txt" &
    vpid=$!
    wid=$(timeout 30 xdotool search --sync --onlyvisible --name chanscope | head -1)
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

# a trace that does not decode: the window closes, FILE:OFFSET on stderr, exit 1
printf 'go 1.19 trace\0\0\0\377\377\377' > "$tmp/bad.trace"
$cs view "$tmp/bad.trace" >/dev/null 2>"$tmp/err.txt" &
vpid=$!
for i in $(seq 300); do kill -0 "$vpid" 2>/dev/null || break; sleep 0.1; done
wait "$vpid"; rc=$?
vpid=
[ $rc -eq 1 ] || fail "undecodable trace: exit $rc, not 1"
grep -q "bad.trace:16: " "$tmp/err.txt" || fail "undecodable trace: no FILE:OFFSET message: $(cat "$tmp/err.txt")"

# q as soon as the window of a large trace is up (usually while it decodes
# behind the progress bar): exit 0, and under ASan nothing leaks
big=../shared/traces/large/ring-go1.19-mid.trace.xz
if [ -f "$big" ] && command -v xz >/dev/null; then
    xz -dc "$big" > "$tmp/big.trace"
    $cs view --size 800x500 "$tmp/big.trace" >/dev/null 2>"$tmp/err.txt" &
    vpid=$!
    # wait until the window is mapped: a key sent before that reaches the root window
    wid=$(timeout 30 xdotool search --sync --onlyvisible --name chanscope | head -1)
    [ -n "$wid" ] || fail "no window for the large trace: $(cat "$tmp/err.txt")"
    xdotool mousemove --window "$wid" 400 250 key q
    for i in $(seq 300); do kill -0 "$vpid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$vpid" 2>/dev/null && fail "viewer still running 30 s after q on the large trace"
    wait "$vpid"; rc=$?
    vpid=
    [ $rc -eq 0 ] || fail "q while loading: exit $rc: $(tail -20 "$tmp/err.txt")"
    echo "large trace: q while loading exits 0"
else
    echo "SKIP: $big absent (or no xz): q while a large trace loads not checked"
fi
kill "$xpid" 2>/dev/null; wait "$xpid" 2>/dev/null
exit 0
