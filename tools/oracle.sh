#!/bin/sh
# tools/oracle.sh — builds csoracle (tools/oracle/main.go: Go's own trace
# reader and Summarizer, the reference chanscope's tests compare with) with
# the Go toolchain at GOROOT, offline. internal/trace can only be imported
# from inside GOROOT, so the source is copied to $GOROOT/src/cmd/csoracle/
# and built there as cmd/csoracle (GOROOT must hold the full source and be
# writable: use a scratch copy, e.g. one unpacked by ../shared/tools/get-go.sh).
# Usage: sh tools/oracle.sh GOROOT OUTBIN
set -eu
if [ $# -ne 2 ]; then
    echo "usage: sh tools/oracle.sh GOROOT OUTBIN" >&2
    exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
goroot=$(cd "$1" 2>/dev/null && pwd) || { echo "oracle.sh: no such GOROOT: $1" >&2; exit 1; }
case $2 in
/*) out=$2 ;;
*) out=$(pwd)/$2 ;;
esac
go=$goroot/bin/go
if [ ! -x "$go" ] || [ ! -d "$goroot/src/internal/trace" ]; then
    echo "oracle.sh: $goroot is not a Go toolchain with its source (no bin/go or src/internal/trace)" >&2
    exit 1
fi
mkdir -p "$goroot/src/cmd/csoracle" "$(dirname "$out")" "$root/build/go/cache" || {
    echo "oracle.sh: cannot create $goroot/src/cmd/csoracle (GOROOT must be writable)" >&2
    exit 1
}
cp "$root/tools/oracle/main.go" "$goroot/src/cmd/csoracle/main.go"
if ! (cd "$goroot/src" &&
    GOROOT="$goroot" GOTOOLCHAIN=local GOPROXY=off GOFLAGS=-mod=mod GOWORK=off \
        GOCACHE="$root/build/go/cache" "$go" build -o "$out" cmd/csoracle); then
    echo "oracle.sh: building csoracle with $go failed" >&2
    exit 1
fi
