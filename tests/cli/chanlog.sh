#!/bin/sh
# The annotation helper assets/go/chanlog: its own Go test passes under
# Debian's Go 1.19 (offline), writes a trace of ten annotated sends through
# a buffered channel, and `chanscope pairs` finds all ten as exact pairs
# with their values.
. tests/cli/go119.inc
mkdir -p build/go
tr=$root/build/go/chanlog.trace
rm -f "$tr"
(cd assets/go/chanlog && export GOFLAGS=-mod=mod CHANLOG_TRACE="$tr" && go119 test -count=1 ./...) || fail "go test"
[ -s "$tr" ] || fail "no trace written"
out=$($cs pairs --json "$tr") || fail "pairs exited $?"
exact=$(echo "$out" | grep -c '"exact":true')
[ "$exact" -eq 10 ] || fail "$exact exact messages, want 10"
for c in a b c d e f g h i j; do
    echo "$out" | grep '"exact":true' | grep -q "\"value\":\"$c-value\"" || fail "value $c-value not paired"
done
echo "$out" | grep -q '"channel":"0xc[0-9a-f]*: chanscope/chanlog.TestWriteTrace' || fail "channel name: $out"
csv=$($cs pairs --csv "$tr" | grep -c ',1$')
[ "$csv" -eq 10 ] || fail "csv has $csv exact rows"
exit 0
