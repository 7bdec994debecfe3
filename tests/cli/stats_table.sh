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
    # (names may hold spaces, durations do not)
    awk -F, 'NR > 1 {
        k = 0
        for (i = 4; i <= NF; i++) {
            v = $i + 0
            if (v == 0) s = "0"
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
echo "ok: $n rows of durations equal printf's"
