#!/bin/sh
# The stats table's durations are what C's printf makes of them: every
# cell of `chanscope stats` equals the --csv value in ns formatted by awk's
# printf (the C library's), "%.1fµs", "%.2fms" or "%.3fs" by size, so the
# table's own integer formatting rounds as printf does, ties included.
set -u
cs=${CHANSCOPE:-./chanscope}
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
for t in tests/data/pingpong-go1.25.trace tests/data/closebcast-go1.22.trace tests/data/corpus/*/*.trace; do
    [ -f "$t" ] || continue
    $cs stats --csv "$t" > "$tmp/csv" 2>/dev/null || fail "stats --csv $t"
    $cs stats "$t" > "$tmp/table" 2>/dev/null || fail "stats $t"
    # the last K fields of a table row are the CSV's fields from the 4th on
    # (names may hold spaces, durations do not); a Go 1.22+ table gives the
    # times (creation, start, end) from the trace's start, its first event,
    # and - for Go's 0 (none)
    v2=0 origin=0
    if head -1 "$tmp/csv" | grep -q syscall_block; then
        v2=1 origin=$($cs events "$t" 2>/dev/null | head -1 | cut -d' ' -f1)
    fi
    awk -F, -v v2=$v2 -v origin="$origin" 'NR > 1 {
        k = 0
        for (i = 4; i <= NF; i++) {
            v = $i + 0
            if (v2 && i <= 6) v = v == 0 ? "-" : v - origin
            if (v == "-") s = "-"
            else if (v == 0) s = "0"
            else if (v < 1000 && v > -1000) s = sprintf("%dns", v)
            else if (v < 1000000 && v > -1000000) s = sprintf("%.1fµs", v / 1e3)
            else if (v < 1000000000 && v > -1000000000) s = sprintf("%.2fms", v / 1e6)
            else s = sprintf("%.3fs", v / 1e9)
            line = line (k++ ? " " : "") s
        }
        print line; line = ""
    }' "$tmp/csv" > "$tmp/want"
    k=$(head -1 "$tmp/want" | wc -w)
    [ "$k" -gt 0 ] || continue
    tail -n +2 "$tmp/table" | awk -v k="$k" '{ s = ""; for (i = NF - k + 1; i <= NF; i++) s = s (s == "" ? "" : " ") $i; print s }' > "$tmp/got"
    cmp -s "$tmp/want" "$tmp/got" || fail "$t: table cells differ from printf: $(diff "$tmp/want" "$tmp/got" | head -4)"
    n=$((n + $(wc -l < "$tmp/got")))
done
[ "$n" -gt 50 ] || fail "only $n rows compared"
# a Go 1.22+ table sorts by a block reason, by all of them, by a range: the
# CSV's column names; one that is not there is a usage error
t=tests/data/pingpong-go1.25.trace
$cs stats --sort "block:chan receive" --csv "$t" | awk -F, 'NR > 1 { print $10 }' > "$tmp/by"
sort -n -r "$tmp/by" | cmp -s - "$tmp/by" || fail "--sort block:chan receive is not descending"
[ "$(head -1 "$tmp/by")" -gt 0 ] || fail "--sort block:chan receive: no chan receive time first"
$cs stats --sort block "$t" >/dev/null || fail "--sort block"
$cs stats --sort "range:stop-the-world (start trace)" "$t" >/dev/null || fail "--sort range:NAME"
$cs stats --sort "block:no such reason" "$t" >/dev/null 2>&1
[ $? -eq 2 ] || fail "--sort of an absent reason should exit 2"
echo "ok: $n rows of durations equal printf's"
