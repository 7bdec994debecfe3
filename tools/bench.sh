#!/bin/sh
# tools/bench.sh — `make bench`: speed and memory of `chanscope stats` (and,
# for legacy traces, `events --summary`) on large traces, as MB/s, events/s
# and peak RSS (and RSS / file size).
#
# Legacy part: builds the token-ring program (../shared/traces/corpus-src/ring)
# with Debian's Go 1.19 (offline) and makes the 88 MB Go 1.19 trace of issue 2
# (`ring OUT 1000 7000000`, about 15 s, kept in build/bench), and unpacks
# ../shared/traces/large/ring-go1.19-mid.trace.xz. Without ../shared it times
# the small traces in tests/data. User CPU time is printed beside wall time
# because the machine may be shared.
set -eu
root=$(pwd)
out=$root/build/bench
shared=${CHANSCOPE_SHARED:-../shared/traces}
go=/usr/lib/go-1.19/bin/go
mkdir -p "$out"

measure() { # TRACE LABEL COMMAND...: one line of figures for `chanscope COMMAND TRACE`
    t=$1 label=$2
    shift 2
    size=$(stat -L -c %s "$t")
    events=$(./chanscope events --summary --json -q "$t" | sed -n 's/^ *"total": *\([0-9]*\).*/\1/p')
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f "%e %U %M" -o "$out/time.txt" ./chanscope "$@" "$t" >/dev/null
        read -r wall user rss <"$out/time.txt"
    else
        s=$(date +%s%N); ./chanscope "$@" "$t" >/dev/null; e=$(date +%s%N)
        wall=$(awk "BEGIN{print ($e-$s)/1e9}"); user=$wall; rss=0
    fi
    awk -v n="$(basename "$t")" -v l="$label" -v size="$size" -v ev="$events" -v w="$wall" -v u="$user" -v rss="$rss" 'BEGIN {
        if (w <= 0) w = 0.001; if (u <= 0) u = 0.001;
        printf "%-24s %-9s %6.1f MB %9d events  %5.2f s wall %5.2f s cpu  %6.1f MB/s (cpu %6.1f)  %5.1f Mevents/s (cpu %5.1f)  peak RSS %6.1f MB (%.2fx file)\n",
               n, l, size / 1e6, ev, w, u, size / 1e6 / w, size / 1e6 / u, ev / 1e6 / w, ev / 1e6 / u, rss / 1024, rss * 1024 / size }'
}

legacy_traces() {
    if [ ! -d "$shared" ]; then
        ls "$root"/tests/data/corpus/go1.19/*.trace 2>/dev/null
        return
    fi
    big=$out/ring-1000-7M.trace
    if [ ! -s "$big" ] && [ -x "$go" ]; then
        mkdir -p "$out/ring-src"
        cp "$shared/corpus-src/ring/main.go" "$out/ring-src/main.go"
        (cd "$out/ring-src" && GO111MODULE=off GOFLAGS= GOPROXY=off GOTOOLCHAIN=local \
            GOPATH="$root/build/go/path" GOCACHE="$root/build/go/cache" "$go" build -o ../ring main.go)
        echo "generating $big (ring 1000 goroutines, 7M hand-offs) ..." >&2
        "$out/ring" "$big" 1000 7000000 >/dev/null
    fi
    mid=$out/ring-go1.19-mid.trace
    [ -s "$mid" ] || xz -dc "$shared/large/ring-go1.19-mid.trace.xz" >"$mid"
    echo "$mid"
    [ -s "$big" ] && echo "$big"
    return 0
}

echo "chanscope stats / events --summary, legacy traces (Go 1.19):"
for t in $(legacy_traces); do
    measure "$t" stats stats --json -q
    measure "$t" "stats -j1" stats --json -q -j1
    measure "$t" summary events --summary --json -q
done

# ---- Go 1.22+ part: the Go 1.25 token ring of ../shared/traces/large ----
# Two figures per trace: decode + full model (`chanscope info`, with the
# model's bytes per event) and decode + Summarizer statistics (`chanscope
# stats`, the acceptance figure: Go 1.25's reader needs ~3.3 s for 117 MB).
v2_measure() { # TRACE LABEL COMMAND...
    t=$1; label=$2; shift 2
    size=$(stat -c %s "$t")
    info=$(./chanscope info --json -q "$t")
    events=$(echo "$info" | sed -n 's/^ *"events": *\([0-9]*\).*/\1/p')
    mbytes=$(echo "$info" | sed -n 's/^ *"model_bytes": *\([0-9]*\).*/\1/p')
    /usr/bin/time -f "%e %U %M" -o "$out/time.txt" ./chanscope "$@" -q "$t" >/dev/null
    read -r wall user rss <"$out/time.txt"
    awk -v n="$label" -v size="$size" -v ev="$events" -v w="$wall" -v u="$user" -v rss="$rss" -v mb="$mbytes" 'BEGIN {
        if (w <= 0) w = 0.001; if (u <= 0) u = 0.001;
        printf "  %-22s %6.1f MB %9d events %6.3f s wall %6.3f s user %7.1f MB/s %6.1f Mev/s  RSS %6.1f MB (%.2fx file)",
               n, size / 1e6, ev, w, u, size / 1e6 / w, ev / 1e6 / w, rss / 1024, rss * 1024 / size
        if (n ~ /model/) printf "  model %.1f B/event", mb / ev
        printf "\n" }'
}

echo "Go 1.22+ traces (Go 1.25):"
v2mid=$out/ring-go1.25-mid.trace
if [ -d "$shared" ] && [ ! -s "$v2mid" ]; then xz -dc "$shared/large/ring-go1.25-mid.trace.xz" >"$v2mid"; fi
if [ -s "$v2mid" ]; then set -- "$v2mid"; else set -- "$root"/tests/data/*go1.2[235].trace; fi
# With GO125 set to a Go 1.25 `go` (e.g. Debian's golang-1.25-go from
# trixie-backports, unpacked with dpkg -x), also the issue's 117 MB trace of
# three generations: `ring OUT 1000 7000000`, about 3 s, kept in build/bench.
if [ -n "${GO125:-}" ]; then
    big125=$out/ring-go1.25-7M.trace
    if [ ! -s "$big125" ]; then
        mkdir -p "$out/ring125-src"
        cp "$root/assets/go/ring/main.go" "$out/ring125-src/main.go"
        (cd "$out/ring125-src" && GO111MODULE=off GOFLAGS= GOPROXY=off GOTOOLCHAIN=local \
            GOROOT="$(dirname "$(dirname "$GO125")")" GOCACHE="$root/build/go/cache125" "$GO125" build -o ../ring125 main.go)
        echo "generating $big125 (ring 1000 goroutines, 7M hand-offs, Go 1.25) ..." >&2
        "$out/ring125" "$big125" 1000 7000000 >/dev/null
    fi
    set -- "$@" "$big125"
fi
for t in "$@"; do
    echo " $(basename "$t"):"
    v2_measure "$t" "decode + model" info --json
    v2_measure "$t" "decode + stats" stats --json
    v2_measure "$t" "decode + stats -j1" stats --json -j1
done
echo
sh tools/bench_layout.sh
sh tools/bench_render.sh
