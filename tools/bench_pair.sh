#!/bin/sh
# tools/bench_pair.sh — two builds of chanscope compared on one command and
# trace where the machine is shared and its speed drifts: runs go in pairs
# A, B, B, A, so a slow spell weighs on both alike, and what is reported is
# the median (and quartiles) of each round's B/A ratio, with each build's
# fastest and median run. The time is the process's CPU time (task-clock,
# all its threads; `perf` when installed), or its wall time with WALL=1,
# pinned to one CPU with PIN=N (taskset).
# Usage: sh tools/bench_pair.sh ROUNDS A B TRACE [COMMAND...]
#        (COMMAND default: stats --json -q -j1)
# e.g.   sh tools/bench_pair.sh 40 /tmp/main-chanscope ./chanscope build/bench/ring-go1.27-7M.trace
set -eu
[ $# -ge 4 ] || { echo "usage: sh tools/bench_pair.sh ROUNDS A B TRACE [COMMAND...]" >&2; exit 2; }
rounds=$1 a=$2 b=$3 trace=$4
shift 4
[ $# -gt 0 ] || set -- stats --json -q -j1
pin=""
[ -n "${PIN:-}" ] && pin="taskset -c $PIN"
if [ -z "${WALL:-}" ] && ! command -v perf >/dev/null; then
    echo "perf not found: timing wall time instead" >&2
    WALL=1
fi
# one run of build $1, in microseconds
run() {
    bin=$1
    shift
    if [ -n "${WALL:-}" ]; then
        s=$(date +%s%N)
        $pin "$bin" "$@" "$trace" >/dev/null 2>&1 || true
        e=$(date +%s%N)
        echo $(((e - s) / 1000))
    else
        $pin perf stat -x, -e task-clock "$bin" "$@" "$trace" 2>&1 >/dev/null |
            awk -F, '/task-clock/ { printf "%d\n", $1 * 1000 }'
    fi
}
i=0
while [ $i -lt "$rounds" ]; do
    echo "$(run "$a" "$@") $(run "$b" "$@") $(run "$b" "$@") $(run "$a" "$@")"
    i=$((i + 1))
done | awk -v a="$a" -v b="$b" '
    function q(arr, n, f,   k) { k = int(f * (n - 1)) + 1; return arr[k] }
    function sort(arr, n,   i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && arr[j - 1] > arr[j]; j--) { t = arr[j]; arr[j] = arr[j - 1]; arr[j - 1] = t } }
    { r[++n] = ($2 + $3) / ($1 + $4); ta[++na] = $1; ta[++na] = $4; tb[++nb] = $2; tb[++nb] = $3 }
    END {
        if (!n) { print "no runs"; exit 1 }
        sort(r, n); sort(ta, na); sort(tb, nb)
        printf "B/A: median %.3f  quartiles %.3f - %.3f  (%d rounds)\n", q(r, n, .5), q(r, n, .25), q(r, n, .75), n
        printf "A %s: fastest %.1f ms, median %.1f ms\n", a, ta[1] / 1000, q(ta, na, .5) / 1000
        printf "B %s: fastest %.1f ms, median %.1f ms\n", b, tb[1] / 1000, q(tb, nb, .5) / 1000
    }'
