#!/bin/sh
# Go 1.22+ traces on the command line: events --summary --json counts by
# public kind and stats --json equal Go 1.27's oracle; a cut-short trace
# warns and exits 0 (1 with --strict); a corrupt one exits 1 with an offset;
# wire 1.26: a generation without its end marker is cut short; a version
# from the future gets one line naming the newest version read.
set -u
cs=${CHANSCOPE:-./chanscope}
fail() { echo "FAIL: $*"; exit 1; }
for t in tests/data/pingpong-go1.25 tests/data/corpus/go1.23/selectmix tests/data/closebcast-go1.22 \
         tests/data/corpus/go1.26/fanin tests/data/corpus/go1.27/selectmix tests/data/gens/gens-gc-go1.27; do
    command -v jq >/dev/null || break # the JSON comparisons need jq
    got=$($cs events --summary --json "$t.trace" | jq -cS '[.by_kind, .total]') || fail "events $t"
    want=$(jq -cS '[.event_counts, .events]' "$t.oracle-go127.json")
    [ "$got" = "$want" ] || fail "$t by_kind: $got vs $want"
    got=$($cs stats --json "$t.trace" | jq -cS '[.goroutines[] | [.id, .name, .pc, .creation, .start, .end, .exec,
        .sched_wait, .block_by_reason, .syscall, .syscall_block, .total, .range_time]]') || fail "stats $t"
    want=$(jq -cS '[.goroutines[] | [.ID, .Name, .PC, .Creation, .Start, .End, .Exec, .SchedWait,
        .BlockByReason, .Syscall, .SyscallBlock, .Total, .RangeTime]]' "$t.oracle-go127.json")
    [ "$got" = "$want" ] || fail "$t stats differ from the oracle"
done
$cs stats tests/data/pingpong-go1.25.trace | head -1 | grep -q "BLOCK (chan receive)" || fail "table has no reason column"
tmp=$(mktemp -d)
head -c 3000 tests/data/pingpong-go1.25.trace > "$tmp/cut.trace"
$cs stats "$tmp/cut.trace" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] || fail "cut-short trace should exit 0, got $rc"
grep -q "warning: trace is cut short at byte" "$tmp/err" || fail "no warning: $(cat "$tmp/err")"
$cs stats --strict "$tmp/cut.trace" >/dev/null 2>&1 && fail "--strict should fail on a cut-short trace"
cp tests/data/pingpong-go1.25.trace "$tmp/bad.trace"
printf '\007' | dd of="$tmp/bad.trace" bs=1 seek=16 conv=notrunc 2>/dev/null
msg=$($cs stats "$tmp/bad.trace" 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] || fail "corrupt trace should exit 1, got $rc"
echo "$msg" | grep -q "bad.trace:16: expected batch event, got event 7" || fail "corrupt message: $msg"
# wire 1.26: the file ends before a generation's EndOfGeneration byte
t=tests/data/gens/gens-go1.27.trace
size=$(stat -c %s "$t")
head -c $((size - 1)) "$t" > "$tmp/noend.trace"
$cs info "$tmp/noend.trace" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] || fail "1.26 trace without its last end marker should exit 0, got $rc"
grep -q "incomplete generation found; trace likely truncated" "$tmp/err" || fail "no 1.26 warning: $(cat "$tmp/err")"
grep -q "^generations 2" "$tmp/out" || fail "the two complete generations should be shown: $(cat "$tmp/out")"
$cs stats --strict "$tmp/noend.trace" >/dev/null 2>&1 && fail "--strict should fail on a 1.26 trace cut short"
# a version from the future
printf 'go 1.28 trace\000\000\000' > "$tmp/future.trace"
msg=$($cs info "$tmp/future.trace" 2>&1); rc=$?
[ $rc -eq 1 ] || fail "a future version should exit 1, got $rc"
[ "$(echo "$msg" | wc -l)" -eq 1 ] || fail "one line for a future version: $msg"
echo "$msg" | grep -q "unsupported trace version go 1.28 .*the newest, 1.26" || fail "future version: $msg"
$cs --help 2>&1 | grep -q "1.25, 1.26" || fail "--help does not name 1.26"
rm -rf "$tmp"
exit 0
