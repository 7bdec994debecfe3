#!/bin/sh
# Go 1.22+ traces on the command line: events --summary --json counts by
# public kind and stats --json equal Go 1.25's oracle; a cut-short trace
# warns and exits 0 (1 with --strict); a corrupt one exits 1 with an offset.
set -u
cs=${CHANSCOPE:-./chanscope}
fail() { echo "FAIL: $*"; exit 1; }
for t in tests/data/pingpong-go1.25 tests/data/corpus/go1.23/selectmix tests/data/closebcast-go1.22; do
    command -v jq >/dev/null || break # the JSON comparisons need jq
    got=$($cs events --summary --json "$t.trace" | jq -cS '[.by_kind, .total]') || fail "events $t"
    want=$(jq -cS '[.event_counts, .events]' "$t.oracle.json")
    [ "$got" = "$want" ] || fail "$t by_kind: $got vs $want"
    got=$($cs stats --json "$t.trace" | jq -cS '[.goroutines[] | [.id, .name, .pc, .creation, .start, .end, .exec,
        .sched_wait, .block_by_reason, .syscall, .syscall_block, .total, .range_time]]') || fail "stats $t"
    want=$(jq -cS '[.goroutines[] | [.ID, .Name, .PC, .Creation, .Start, .End, .Exec, .SchedWait,
        .BlockByReason, .Syscall, .SyscallBlock, .Total, .RangeTime]]' "$t.oracle.json")
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
rm -rf "$tmp"
exit 0
