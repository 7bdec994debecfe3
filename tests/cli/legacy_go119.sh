#!/bin/sh
# A fresh Go 1.19 trace end to end: builds assets/go/workers with Debian's
# Go 1.19 (offline), runs it, and checks that `chanscope stats` and
# `chanscope events` read the trace it wrote: four main.worker goroutines
# that ran, the events total equals the sum per type, every hand-off left a
# wake-up, and the text/CSV/--sort forms work; and --binary on a 1.5 trace.
. tests/cli/go119.inc
build119 workers
tr=$dir/workers.trace
rm -f "$tr"
"$dir/workers" "$tr" >/dev/null || fail "workers did not run"
head -c 16 "$tr" | grep -q "go 1.19 trace" || fail "not a Go 1.19 trace"

js=$($cs stats --json "$tr") || fail "stats exited $?"
echo "$js" | grep -q '"version": "1.19"' || fail "stats version: $js"
workers=$(echo "$js" | grep -c '"name": "main.worker"')
[ "$workers" -eq 4 ] || fail "$workers main.worker goroutines, want 4"
echo "$js" | grep -A12 '"name": "main.worker"' | grep -q '"exec": [1-9]' || fail "workers never ran"

sum=$($cs events --summary --json "$tr") || fail "events --summary exited $?"
total=$(echo "$sum" | sed -n 's/^ *"total": *\([0-9]*\).*/\1/p')
parts=$(echo "$sum" | sed -n '/"by_type"/,/}/s/^ *"[A-Za-z]*": *\([0-9]*\).*/\1/p' | awk '{s+=$1} END {print s}')
[ "$total" -gt 200 ] || fail "only $total events"
[ "$total" -eq "$parts" ] || fail "total $total != sum of types $parts"
creates=$(echo "$sum" | sed -n 's/^ *"GoCreate": *\([0-9]*\).*/\1/p')
[ "$creates" -ge 5 ] || fail "$creates GoCreate events"
unblocks=$(echo "$sum" | sed -n 's/^ *"GoUnblock": *\([0-9]*\).*/\1/p')
[ "$unblocks" -ge 40 ] || fail "$unblocks GoUnblock events for 80 hand-offs"

lines=$($cs events "$tr" | wc -l)
[ "$lines" -eq "$total" ] || fail "events printed $lines lines for $total events"
$cs events --stacks "$tr" | grep -q "main.worker" || fail "--stacks shows no main.worker frame"
$cs stats "$tr" | head -1 | grep -q "SCHED WAIT" || fail "table header"
$cs stats --csv "$tr" | head -1 | grep -q "^id,name,pc,creation" || fail "csv header"
first=$($cs stats --csv --sort exec "$tr" | sed -n 2p | cut -d, -f7)
max=$($cs stats --csv "$tr" | tail -n +2 | cut -d, -f7 | sort -n | tail -1)
[ "$first" = "$max" ] || fail "--sort exec: first row $first, max $max"
$cs stats --sort nosuch "$tr" >/dev/null 2>&1; [ $? -eq 2 ] || fail "unknown --sort column should exit 2"
$cs events --json "$tr" >/dev/null 2>&1; [ $? -eq 2 ] || fail "events --json without --summary should exit 2"
$cs events --help | grep -q "usage: chanscope events" || fail "events --help"
$cs stats --help | grep -q "usage: chanscope stats" || fail "stats --help"

# --binary: a Go 1.5-format trace (gotrace's patched Go 1.6) has bare PCs;
# with a binary its goroutines get function names from the ELF symbol table
# (this binary is not the traced program, so only the plumbing is checked).
old=tests/data/gotrace-patched/go1.6-pingpong01.trace
named=$($cs stats --csv "$old" | tail -n +2 | cut -d, -f2 | grep -vc '^""$')
[ "$named" -eq 0 ] || fail "names without --binary"
named=$($cs stats --csv --binary "$dir/workers" "$old" | tail -n +2 | cut -d, -f2 | grep -vc '^""$')
[ "$named" -gt 0 ] || fail "no names with --binary"
$cs stats --binary /nonexistent "$old" >/dev/null 2>&1; [ $? -eq 1 ] || fail "missing binary should exit 1"
exit 0
