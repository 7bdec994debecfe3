#!/bin/sh
# tools/bench.sh — `make bench`: speed and memory of `chanscope stats` (and,
# for legacy traces, `events --summary`) on large traces, as MB/s, events/s
# and peak RSS (and RSS / file size).
#
# Legacy part: builds the token-ring program (../shared/traces/corpus-src/ring)
# with Debian's Go 1.19 (offline) and makes the 88 MB Go 1.19 trace of issue 2
# (`ring OUT 1000 7000000`, about 15 s, kept in build/bench), and unpacks
# ../shared/traces/large/ring-go1.19-mid.trace.xz. Without ../shared it times
# the small traces in tests/data. Go 1.22+ part: see below. User CPU time
# is printed beside wall time because the machine may be shared.
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

# ---- Go 1.22+ part: the token rings of ../shared/traces/large (Go 1.25,
# Go 1.27) and the 117 MB Go 1.25 and Go 1.27 rings ----
# Two figures per trace: decode + full model (`chanscope info`, with the
# model's bytes per event) and decode + Summarizer statistics (`chanscope
# stats`, the acceptance figure), then Go 1.27's own reader reading every
# event of the same file (csoracle -read, tools/oracle/main.go) and the
# ratio. Go 1.27 is Debian's golang-1.27-go, unpacked into build/go by
# tools/go_toolchain.sh (as `make test` does); without it, or offline,
# those figures are left out and say so.
v2_measure() { # TRACE LABEL COMMAND...
    t=$1; label=$2; shift 2
    size=$(stat -L -c %s "$t")
    info=$(./chanscope info --json -q "$t")
    events=$(echo "$info" | sed -n 's/^ *"events": *\([0-9]*\).*/\1/p')
    mbytes=$(echo "$info" | sed -n 's/^ *"model_bytes": *\([0-9]*\).*/\1/p')
    /usr/bin/time -f "%e %U %M" -o "$out/time.txt" ./chanscope "$@" -q "$t" >/dev/null
    read -r wall user rss <"$out/time.txt"
    last_wall=$wall
    awk -v n="$label" -v size="$size" -v ev="$events" -v w="$wall" -v u="$user" -v rss="$rss" -v mb="$mbytes" 'BEGIN {
        if (w <= 0) w = 0.001; if (u <= 0) u = 0.001;
        printf "  %-22s %6.1f MB %9d events %6.3f s wall %6.3f s user %7.1f MB/s %6.1f Mev/s  RSS %6.1f MB (%.2fx file)",
               n, size / 1e6, ev, w, u, size / 1e6 / w, ev / 1e6 / w, rss / 1024, rss * 1024 / size
        if (n ~ /model/) printf "  model %.1f B/event", mb / ev
        printf "\n" }'
}
go_reader() { # TRACE STATS_WALL: Go 1.27's reader on the same file, and the ratio
    [ -x "$oracle" ] || return 0
    /usr/bin/time -f "%e %U %M" -o "$out/time.txt" "$oracle" -read "$1" >/dev/null
    read -r wall user rss <"$out/time.txt"
    awk -v w="$wall" -v u="$user" -v rss="$rss" -v c="$2" 'BEGIN { if (c <= 0) c = 0.001;
        printf "  %-22s %6.3f s wall %6.3f s user  RSS %6.1f MB   chanscope stats is %.1fx faster\n",
               "Go 1.27 reader (-read)", w, u, rss / 1024, w / c }'
}

go127=$root/build/go/go-1.27
oracle=$root/build/go/csoracle127
if sh tools/go_toolchain.sh build/go 1.27 >"$out/go127.log" 2>&1; then
    if [ ! -x "$oracle" ] || [ tools/oracle/main.go -nt "$oracle" ]; then
        sh tools/oracle.sh "$go127" "$oracle" >>"$out/go127.log" 2>&1 || echo "(csoracle did not build: $out/go127.log)"
    fi
else
    echo "(no Go 1.27 toolchain: $(tail -1 "$out/go127.log"); Go's reader and the 117 MB Go 1.27 ring left out)"
fi
echo "Go 1.22+ traces:"
set --
for v in 1.25 1.27; do
    mid=$out/ring-go$v-mid.trace
    if [ -d "$shared" ] && [ ! -s "$mid" ]; then xz -dc "$shared/large/ring-go$v-mid.trace.xz" >"$mid"; fi
    [ -s "$mid" ] && set -- "$@" "$mid"
done
[ $# -gt 0 ] || set -- "$root"/tests/data/*go1.2[235].trace
# ring_trace VERSION GOTOOL: the README's 117 MB token ring (`ring OUT 1000
# 7000000`, about 3 s), built and run with that Go, kept in build/bench
ring_trace() {
    big=$out/ring-go$1-7M.trace
    if [ ! -s "$big" ]; then
        mkdir -p "$out/ring$1-src"
        cp "$root/assets/go/ring/main.go" "$out/ring$1-src/main.go"
        (cd "$out/ring$1-src" && GO111MODULE=off GOFLAGS= GOPROXY=off GOTOOLCHAIN=local \
            GOROOT="$(dirname "$(dirname "$2")")" GOCACHE="$root/build/go/cache$1" "$2" build -o ../ring$1 main.go)
        echo "generating $big (ring 1000 goroutines, 7M hand-offs, Go $1) ..." >&2
        "$out/ring$1" "$big" 1000 7000000 >/dev/null
    fi
    echo "$big"
}
# The 117 MB Go 1.25 ring, on which the drawing figures are judged: with
# GO125 set to a Go 1.25 `go`, or Debian's Go 1.25 unpacked into build/go
# as Go 1.27 is.
go125=${GO125:-}
if [ -z "$go125" ]; then
    if sh tools/go_toolchain.sh build/go 1.25 >"$out/go125.log" 2>&1; then
        go125=$root/build/go/go-1.25/bin/go
    else
        echo "(no Go 1.25 toolchain: $(tail -1 "$out/go125.log"); the 117 MB Go 1.25 ring left out)"
    fi
fi
[ -n "$go125" ] && set -- "$@" "$(ring_trace 1.25 "$go125")"
[ -x "$go127/bin/go" ] && set -- "$@" "$(ring_trace 1.27 "$go127/bin/go")"
# go127_trace PROG WHAT ARGS...: build/bench/PROG-go1.27.trace, made once
# by assets/go/PROG built with Go 1.27 and run as `PROG OUT ARGS...`
go127_trace() {
    prog=$1 what=$2
    shift 2
    t=$out/$prog-go1.27.trace
    [ -s "$t" ] && return 0
    mkdir -p "$out/$prog-src"
    cp "$root/assets/go/$prog/main.go" "$out/$prog-src/main.go"
    (cd "$out/$prog-src" && GO111MODULE=off GOFLAGS= GOPROXY=off GOTOOLCHAIN=local \
        GOROOT="$go127" GOCACHE="$root/build/go/cache1.27" "$go127/bin/go" build -o "../$prog" main.go)
    echo "generating $t ($what, Go 1.27) ..." >&2
    "$out/$prog" "$t" "$@" >/dev/null
}
if [ -x "$go127/bin/go" ]; then
    # a GC-heavy trace for the drawing figures (8 workers allocating until
    # the trace has 100 MB, about 20 M events, thousands of collections,
    # about 8 s)
    go127_trace gcheavy "8 allocating workers, 100 MB" 8 100
    # a program not tuned for (a worker pool with a mutex and timeouts beside
    # a pipeline, 117 MB, about 4 s)
    go127_trace mixed "a worker pool and a pipeline, 117 MB" 135000
    # a server's shape: a goroutine per request, 2.2 M of them, 64 at once
    # (107 MB, about 3 s)
    go127_trace server "a goroutine per request, 107 MB" 2200000
fi
for t in "$@"; do
    echo " $(basename "$t") ($(./chanscope info -q "$t" | sed -n 's/^format *//p')):"
    v2_measure "$t" "decode + model" info --json
    v2_measure "$t" "decode + stats -j1" stats --json -j1
    v2_measure "$t" "decode + stats" stats --json
    go_reader "$t" "$last_wall"
done
echo
sh tools/bench_layout.sh
sh tools/bench_render.sh
