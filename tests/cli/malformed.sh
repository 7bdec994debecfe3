#!/bin/sh
# A malformed trace always gives exit status 1 and exactly one line
# "FILE:OFFSET: reason" on stderr — or exit 0 (a good prefix, maybe with one
# warning line). Never a crash, never another status.
set -u
cs=${CHANSCOPE:-./chanscope}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0
for t in $(find tests/data -name '*.trace' | sort); do
    size=$(stat -c %s "$t")
    for cut in 15 17 40 $((size / 3)) $((size / 2)) $((size - 1)); do
        [ "$cut" -gt 0 ] && [ "$cut" -lt "$size" ] || continue
        f=$tmp/cut.trace; head -c "$cut" "$t" > "$f"
        for args in "stats -q" "info"; do
            $cs $args "$f" >/dev/null 2>"$tmp/err"; rc=$?
            lines=$(wc -l < "$tmp/err")
            case $rc in
            0) [ "$lines" -le 1 ] || { echo "FAIL: $t cut at $cut: $lines stderr lines"; cat "$tmp/err"; exit 1; } ;;
            1) [ "$lines" -eq 1 ] && grep -Eq "^$f:[0-9]+: .+" "$tmp/err" \
                   || { echo "FAIL: $t cut at $cut ($args): bad error:"; cat "$tmp/err"; exit 1; } ;;
            *) echo "FAIL: $t cut at $cut ($args): exit $rc"; cat "$tmp/err"; exit 1 ;;
            esac
            n=$((n + 1))
        done
    done
done
echo "checked $n runs"
exit 0
