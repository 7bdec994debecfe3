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
# A header alone is an empty trace whatever its version, also through a pipe:
# exit 1 and "FILE:16: trace is empty" (not an empty picture or table).
seen=""
for t in $(find tests/data -name '*.trace' | sort); do
    h=$(head -c 16 "$t" | od -An -c | tr -d ' \n')
    case " $seen " in *" $h "*) continue ;; esac
    seen="$seen $h"
    f=$tmp/head.trace; head -c 16 "$t" > "$f"
    $cs stats -q "$f" >/dev/null 2>"$tmp/err"; rc=$?
    [ $rc -eq 1 ] && grep -qx "$f:16: trace is empty" "$tmp/err" \
        || { echo "FAIL: the header of $t alone: exit $rc"; cat "$tmp/err"; exit 1; }
    head -c 16 "$t" | $cs info - >/dev/null 2>"$tmp/err"; rc=$?
    [ $rc -eq 1 ] && grep -qx "stdin:16: trace is empty" "$tmp/err" \
        || { echo "FAIL: the header of $t alone through a pipe: exit $rc"; cat "$tmp/err"; exit 1; }
    n=$((n + 2))
done
[ "$(echo $seen | wc -w)" -ge 4 ] || { echo "FAIL: only $(echo $seen | wc -w) trace versions for the header-alone check"; exit 1; }
echo "checked $n runs"
exit 0
