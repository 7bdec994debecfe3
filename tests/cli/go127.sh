#!/bin/sh
# Fresh traces of a real Go 1.27 runtime (wire 1.26) against Go 1.27's own
# reader and Summarizer. Unpacks Debian's golang-1.27-go and golang-1.27-src
# into build/go (tools/go_toolchain.sh, kept between runs; skipped, saying
# so, when the packages cannot be fetched), builds csoracle with it
# (tools/oracle.sh), and makes traces chanscope's other tests never saw:
# our programs (assets/go: pingpong, workers, a small ring, a worker pool
# beside a pipeline, gens over three generations with a GC each second,
# flight-recorder windows that start at a late generation, `go test -trace`
# of chanlog) and Go's own trace test
# programs (src/internal/trace/testdata/testprog). For each: event counts by
# kind, every goroutine's statistics (-j1 and -j2) and every unblock edge
# equal the oracle's; then every command reads the gens trace, and cuts of
# it warn or fail cleanly.
set -u
cs=${CHANSCOPE:-./chanscope}
root=$(pwd)
out=$root/build/go/test127
fail() { echo "FAIL: $*"; exit 1; }
command -v jq >/dev/null || fail "jq not found (make deps)"
if ! sh tools/go_toolchain.sh build/go 1.27 >/dev/null 2>"$root/build/go-1.27.log"; then
    echo "SKIP: Debian's golang-1.27-go could not be unpacked (no network?): $(tail -1 "$root/build/go-1.27.log")"
    exit 0
fi
goroot=$root/build/go/go-1.27
oracle=$root/build/go/csoracle127
if [ ! -x "$oracle" ] || [ tools/oracle/main.go -nt "$oracle" ]; then
    sh tools/oracle.sh "$goroot" "$oracle" || fail "building csoracle"
fi
go127() { env GOROOT="$goroot" GOTOOLCHAIN=local GOPROXY=off GOFLAGS= GOCACHE="$root/build/go/cache127" \
    GOPATH="$root/build/go/path" "$goroot/bin/go" "$@"; }
rm -rf "$out"
mkdir -p "$out"
# build NAME FILE.go: a single-file main package built outside any module
build() {
    mkdir -p "$out/src/$1"
    cp "$2" "$out/src/$1/main.go"
    (cd "$out/src/$1" && GO111MODULE=off go127 build -o "$out/$1" main.go) || fail "go build $1"
}

for p in pingpong workers ring mixed gens flight; do build "$p" "assets/go/$p/main.go"; done
"$out/pingpong" "$out/pingpong.trace" >/dev/null || fail "pingpong"
"$out/workers" "$out/workers.trace" >/dev/null || fail "workers"
"$out/ring" "$out/ring.trace" 50 3000 >/dev/null || fail "ring"
"$out/mixed" "$out/mixed.trace" 3000 >/dev/null || fail "mixed"
"$out/gens" "$out/gens.trace" 2.5 -gc-every >/dev/null || fail "gens"
"$out/flight" "$out/flight" 3 3 >/dev/null || fail "flight"
(cd assets/go/chanlog && go127 test -count=1 -trace="$out/gotest.trace" -o "$out/chanlog.test" ./... >/dev/null) ||
    fail "go test -trace"
progs=0
for f in "$goroot"/src/internal/trace/testdata/testprog/*.go; do
    p=$(basename "$f" .go)
    grep -q '"internal/\|import "C"' "$f" && continue # cgo, or Go's internal packages
    build "$p" "$f"
    "$out/$p" >"$out/testprog-$p.trace" 2>/dev/null || fail "testprog $p"
    progs=$((progs + 1))
done
[ "$progs" -ge 8 ] || fail "only $progs of Go's test programs built"

# same TRACE: chanscope agrees with Go 1.27's reader and Summarizer
same() {
    t=$1 o=${1%.trace}.oracle.json
    head -c 16 "$t" | grep -q "go 1.26 trace" || fail "$t: not a wire 1.26 trace"
    "$oracle" "$t" >"$o" || fail "$t: Go's reader fails"
    got=$($cs events --summary --json "$t" | jq -cS '[.by_kind, .total]') || fail "$t: events"
    want=$(jq -cS '[.event_counts, .events]' "$o")
    [ "$got" = "$want" ] || fail "$t: event counts $got, Go's $want"
    want=$(jq -cS '[.goroutines[] | [.ID, .Name, .PC, .Creation, .Start, .End, .Exec, .SchedWait,
        .BlockByReason, .Syscall, .SyscallBlock, .Total, .RangeTime]]' "$o")
    for j in 1 2; do
        got=$($cs stats -j$j --json "$t" | jq -cS '[.goroutines[] | [.id, .name, .pc, .creation, .start,
            .end, .exec, .sched_wait, .block_by_reason, .syscall, .syscall_block, .total, .range_time]]') ||
            fail "$t: stats -j$j"
        [ "$got" = "$want" ] || fail "$t: stats -j$j differ from Go's: $(echo "$got" | head -c 300) vs $(echo "$want" | head -c 300)"
    done
    got=$($cs edges --json "$t" | jq -c '[.[] | [.time, (if .from == 0 then -1 else .from end), .to, .reason]]')
    want=$(jq -c '[.unblocks[] | [.Ts, .From, .To, .Blocked]]' "$o")
    [ "$got" = "$want" ] || fail "$t: unblock edges differ ($(echo "$got" | jq length) vs Go's $(echo "$want" | jq length))"
}
n=0
for t in "$out"/*.trace; do
    same "$t"
    n=$((n + 1))
done
[ "$n" -ge 16 ] || fail "only $n traces compared"
# every command reads the gens trace; cuts of it warn (exit 0) or fail cleanly
t=$out/gens.trace
gens=$($cs info "$t" | sed -n 's/^generations *//p')
[ "${gens:-0}" -ge 3 ] || fail "gens trace has ${gens:-0} generations"
$cs info "$t" | grep -q "format *Go 1.26" || fail "info format"
for c in events stats edges pairs; do $cs $c "$t" >/dev/null || fail "$c exited $?"; done
for c in svg png dot perfetto; do
    $cs $c -o "$out/gens.$c" "$t" >/dev/null || fail "$c exited $?"
    [ -s "$out/gens.$c" ] || fail "$c wrote nothing"
done
size=$(stat -c %s "$t")
for cut in $((size / 3)) $((size / 2)) $((size - 1)); do
    head -c $cut "$t" >"$out/cut.trace"
    $cs stats "$out/cut.trace" >/dev/null 2>"$out/cut.err"
    rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "cut at $cut: exit $rc"
    grep -q "^$out/cut.trace:\([0-9]*:\| warning: .* at byte [0-9]\)" "$out/cut.err" ||
        fail "cut at $cut: no offset named: $(cat "$out/cut.err")"
done
exit 0
