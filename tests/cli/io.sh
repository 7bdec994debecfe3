#!/bin/sh
# Inputs and outputs at their edges: "-" (standard input) reads exactly as
# the file does for every command and trace format, and a cut or damaged
# Go 1.22+ stream, decoded as it comes, says what the file says; a FIFO with a slow
# writer is read whole (a Go 1.27 program writing its trace into it when
# go127.sh has built one), a FIFO without one waits and a signal ends the
# wait; -o follows a symlink (the target replaced, the link kept; a
# dangling one made), writes a FIFO, a character device and /dev/stdout on
# a pipe directly, refuses the input trace (exit 2,
# input unchanged); every command writing to /dev/full exits 1; SIGINT
# during `png --frames` leaves no temporary file; the time, size and -j
# options reject edge values with exit 2 and a message, with no sanitizer
# report.
set -u
cs=${CHANSCOPE:-./chanscope}
case $cs in /*) ;; *) cs=$(pwd)/$cs ;; esac
root=$(pwd)
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset DISPLAY WAYLAND_DISPLAY
# san FILE: FILE (a command's stderr) holds no sanitizer report
san() { ! grep -q "runtime error\|AddressSanitizer\|LeakSanitizer" "$1" || fail "sanitizer report: $(head -5 "$1")"; }

# -- "-" equals the file, per command and format. The copy is named "stdin",
# the name chanscope gives standard input, so titles and names agree too.
cd "$tmp"
for t in gotrace-patched/go1.6-pingpong01.trace gotrace-patched/go1.8-pingpong01.trace \
         corpus/go1.19/pingpong.trace corpus/go1.21/pingpong.trace closebcast-go1.22.trace \
         corpus/go1.23/pingpong.trace pingpong-go1.25.trace corpus/go1.27/pingpong.trace \
         gens/gens-go1.27.trace gens/gens-gc-go1.25.trace; do
    [ -f "$root/tests/data/$t" ] || fail "missing tests/data/$t"
    cp "$root/tests/data/$t" stdin
    for c in info "info --json" events "events --summary --json" stats "stats --json" edges "edges --json" \
             pairs "pairs --json"; do
        $cs $c stdin >file.out 2>file.err || fail "$c $t: $(cat file.err)"
        cat stdin | $cs $c - >pipe.out 2>pipe.err || fail "$c - < $t: $(cat pipe.err)"
        san pipe.err
        cmp -s file.out pipe.out || fail "$c: '-' differs from the file for $t"
        [ -s pipe.out ] || fail "$c: no output for $t"
    done
    for c in svg dot perfetto; do
        $cs $c -q stdin -o file.$c || fail "$c $t"
        cat stdin | $cs $c -q - -o pipe.$c 2>pipe.err || fail "$c - < $t: $(cat pipe.err)"
        san pipe.err
        cmp -s file.$c pipe.$c || fail "$c: '-' differs from the file for $t"
    done
    $cs png -q --size 320x180 stdin -o file.png || fail "png $t"
    cat stdin | $cs png -q --size 320x180 - -o pipe.png 2>pipe.err || fail "png - < $t: $(cat pipe.err)"
    san pipe.err
    cmp -s file.png pipe.png || fail "png: '-' differs from the file for $t"
done
# a Go 1.22+ stream is decoded a generation at a time as it comes: cut
# short, or with a byte changed, in a generation past the first, it says
# and shows what the file does, in small writes (dd) as in big ones (cat)
for t in gens/gens-gc-go1.25.trace gens/gens-gc-go1.27.trace; do
    size=$(stat -c %s "$root/tests/data/$t")
    for cut in $((size / 3)) $((size * 2 / 3)) $((size - 1)) flip:$((size / 2)) flip:$((size * 3 / 4)) \
               flip:$((size - 40)); do
        cp "$root/tests/data/$t" stdin
        case $cut in
        flip:*) printf '\377' | dd of=stdin bs=1 seek=${cut#flip:} conv=notrunc status=none ;;
        *) head -c "$cut" "$root/tests/data/$t" >stdin ;;
        esac
        for c in "info" "stats --strict" "events --summary"; do
            $cs $c stdin >file.out 2>file.err
            frc=$?
            for feed in "cat stdin" "dd if=stdin bs=700 status=none"; do
                $feed | $cs $c - >pipe.out 2>pipe.err
                prc=$?
                san pipe.err
                [ $frc -eq $prc ] && cmp -s file.out pipe.out && cmp -s file.err pipe.err ||
                    fail "$c, $t $cut through '$feed': '-' differs from the file ($frc/$prc: $(cat pipe.err))"
            done
        done
    done
done
# a redirected file on standard input is mapped, and reads the same
$cs stats - <stdin >redir.out || fail "stats - < file"
$cs stats stdin | cmp -s - redir.out || fail "stats - < file differs"
# a cut stream warns as a cut file does, naming standard input
head -c 3000 stdin | $cs info - >/dev/null 2>cut.err
grep -q "^stdin: warning:\|^stdin:[0-9]*:" cut.err || fail "a cut stream's message: $(cat cut.err)"

# -- FIFOs
t=$root/tests/data/pingpong-go1.25.trace
mkfifo in.fifo
(sleep 1; cat "$t" >in.fifo) &
$cs stats in.fifo >fifo.out 2>fifo.err || fail "stats on a FIFO: $(cat fifo.err)"
wait
$cs stats "$t" | cmp -s - fifo.out || fail "stats on a FIFO differs from the file"
grep -q "waiting for a writer on in.fifo" fifo.err || fail "no waiting message: $(cat fifo.err)"
gens=$root/build/go/test127/gens
if [ -x "$gens" ]; then
    # a Go 1.27 program writing its trace into the FIFO over two seconds
    "$gens" in.fifo 2 >/dev/null &
    $cs info --json in.fifo >go.json 2>go.err || fail "info on a FIFO fed by Go: $(cat go.err)"
    wait
    grep -q '"generations": [2-9]' go.json || fail "the Go program's trace: $(cat go.json)"
else
    echo "note: build/go/test127/gens not built (go127.sh skipped): the FIFO is fed by cat only"
fi
# no writer: the wait ends with the signal (timeout's 124, not -k's 137)
env --default-signal=INT timeout -k 5 -s INT 1 $cs info in.fifo >/dev/null 2>&1
rc=$?
[ $rc -eq 124 ] || fail "a FIFO without a writer: SIGINT gave $rc"

# -- -o onto a symlink, a FIFO, a character device and the input
cp "$t" in.trace
$cs svg -q in.trace -o ref.svg || fail "svg"
echo old >target.svg
ln -s target.svg link.svg
$cs svg -q in.trace -o link.svg || fail "svg -o link"
[ -L link.svg ] || fail "-o replaced the symlink"
cmp -s target.svg ref.svg || fail "-o link did not write the link's target"
mkdir d
ln -s ../new.svg d/dangling.svg
$cs svg -q in.trace -o d/dangling.svg || fail "svg -o a dangling relative link"
[ -L d/dangling.svg ] && cmp -s new.svg ref.svg || fail "-o a dangling link did not create its target"
$cs svg -q in.trace -o /dev/stdout | cmp -s - ref.svg || fail "svg -o /dev/stdout on a pipe"
mkfifo out.fifo
cat out.fifo >from.fifo &
$cs svg -q in.trace -o out.fifo || fail "svg -o FIFO"
wait
[ -p out.fifo ] || fail "-o replaced the FIFO"
cmp -s from.fifo ref.svg || fail "the FIFO reader did not get the SVG"
if mknod null c 1 3 2>/dev/null; then
    $cs svg -q in.trace -o null || fail "svg -o a character device"
    [ -c null ] || fail "-o replaced the character device"
else
    echo "note: mknod not permitted here: -o onto a character device not tested"
fi
cp in.trace before.trace
ln -s in.trace in-link.trace
ln in.trace in-hard.trace
for o in in.trace in-link.trace in-hard.trace; do
    $cs svg -q in.trace -o $o 2>self.err
    rc=$?
    [ $rc -eq 2 ] || fail "-o $o (the input) exit $rc"
    grep -q "input trace" self.err || fail "-o $o: $(cat self.err)"
    cmp -s in.trace before.trace || fail "-o $o changed the input"
done
$cs png -q in.trace -o in.trace >/dev/null 2>&1
[ $? -eq 2 ] || fail "png -o the input"
cmp -s in.trace before.trace || fail "png -o changed the input"
ls | grep -q "\.tmp\." && fail "temporary files left: $(ls | grep '\.tmp\.')"

# -- every command writing to a full device exits 1
for c in info "info --json" events "events --summary" "events --summary --json" stats "stats --json" \
         "stats --csv" edges "edges --json" pairs "pairs --json" "pairs --csv" "svg -o -" "dot -o -" \
         "perfetto -o -" "png --size 64x64 -o -" "--help" "--version" "info --help"; do
    case $c in --*) $cs $c >/dev/full 2>full.err ;; *) $cs $c in.trace >/dev/full 2>full.err ;; esac
    rc=$?
    [ $rc -eq 1 ] || fail "$c > /dev/full: exit $rc"
    grep -q "standard output" full.err || fail "$c > /dev/full: $(cat full.err)"
done

# -- SIGINT during png --frames: the open GIF and PNG are temporary files
mkdir frames
env --default-signal=INT $cs png -q --frames 2000 --size 800x600 in.trace -o frames/a.png >/dev/null 2>&1 &
pid=$!
i=0
while [ ! -f frames/a-0002.png ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
[ -f frames/a-0002.png ] || fail "png --frames wrote no frame in 60 s"
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || fail "png --frames after SIGINT: exit $rc"
[ -f frames/a.gif ] && fail "a GIF after SIGINT"
ls frames | grep -q "\.tmp\." && fail "SIGINT left $(ls frames | grep '\.tmp\.')"

# -- time, size and -j edge values: exit 2, a message, no sanitizer report
# usage2 ARGS...: png ARGS in.trace exits 2 with a message
usage2() {
    $cs png -q "$@" in.trace -o edge.png >/dev/null 2>edge.err
    rc=$?
    [ $rc -eq 2 ] || fail "png $*: exit $rc"
    [ -s edge.err ] || fail "png $*: no message"
    san edge.err
}
for v in 9223372036854774000 inf nan 1e400 1e300% 150% -1 0x10 "" 1e "2 parsecs" 66491266; do
    usage2 --at "$v"
done
grep -q "spans 0 to 66.49ms (66491265 ns)" edge.err || fail "--at outside: $(cat edge.err)"
for v in 0:9223372036854774000 999s: 5ms:1ms 2ms:2ms 1:2:3 5ms 1e400: :nan; do
    usage2 --range "$v"
    $cs svg -q --range "$v" in.trace -o edge.svg >/dev/null 2>edge.err
    [ $? -eq 2 ] || fail "svg --range $v: exit not 2"
    san edge.err
done
for v in 8x8 15x100 100x16385 200 x100 200x 99999999999x100; do usage2 --size "$v"; done
for v in 0 abc 257 -1 99999999999999999999; do
    usage2 -j "$v"
    grep -q "1 to 256" edge.err || fail "-j $v: $(cat edge.err)"
done
usage2 --frames 0
usage2 --fps 99999999999
# and the values that are in range work
$cs png -q --size 200x100 in.trace -o small.png 2>edge.err || fail "png --size 200x100: $(cat edge.err)"
$cs png -q --size 16x16 --at 100% --range : in.trace -o small.png || fail "png --size 16x16 --at 100%"
$cs png -q --at 66491265 --range 10%:50ms in.trace -o small.png || fail "png --at END --range 10%:50ms"
$cs svg -q --range 999us: in.trace -o small.svg || fail "svg --range 999us:"
$cs svg -q --range 200µs:1.5ms in.trace -o small.svg || fail "svg --range 200µs:1.5ms"
exit 0
