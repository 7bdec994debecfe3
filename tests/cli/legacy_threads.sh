#!/bin/sh
# Two threads read a legacy trace exactly as one does: builds assets/go/ring
# with Debian's Go 1.19 (offline) and writes a ~10 MB trace of 800k channel
# hand-offs, large enough that pass 1 splits in halves and the merge runs on
# a worker; then `stats`, `events --summary` and `edges` must print the same
# bytes with -j 1 and -j 2, and every hand-off must be there.
. tests/cli/go119.inc
build119 ring
tr=$dir/ring.trace
[ -s "$tr" ] || "$dir/ring" "$tr" 1000 800000 >/dev/null || fail "ring did not run"
size=$(stat -c %s "$tr")
[ "$size" -gt 9000000 ] || fail "ring trace is only $size bytes: too small to split"

for cmd in "stats --json" "events --summary --json" "edges --json"; do
    # shellcheck disable=SC2086
    a=$($cs $cmd -j 1 "$tr" | md5sum) || fail "$cmd -j 1 exited $?"
    # shellcheck disable=SC2086
    b=$($cs $cmd -j 2 "$tr" | md5sum) || fail "$cmd -j 2 exited $?"
    [ "$a" = "$b" ] || fail "$cmd differs between -j 1 and -j 2"
done
unblocks=$($cs events --summary --json "$tr" | sed -n 's/^ *"GoUnblock": *\([0-9]*\).*/\1/p')
[ "$unblocks" -ge 800000 ] || fail "$unblocks GoUnblock events for 800000 hand-offs"
msgs=$($cs info --json "$tr" | sed -n 's/^ *"messages": *\([0-9]*\).*/\1/p')
[ "$msgs" -ge 800000 ] || fail "$msgs messages for 800000 hand-offs"
ring=$($cs stats --csv "$tr" | grep -c ',"main.main.func[0-9]*",')
[ "$ring" -eq 1000 ] || fail "$ring ring goroutines, want 1000"
exit 0
