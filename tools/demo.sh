#!/bin/sh
# tools/demo.sh — `make demo`: renders the bundled example traces (Go 1.25
# ping-pong and a worker pool, from assets/go/) to PNG, SVG and DOT and says
# where the pictures are. Needs no display.
set -e
out=build/demo
mkdir -p "$out"
for name in pingpong workers; do
    t=assets/traces/$name-go1.25.trace
    ./chanscope info "$t"
    ./chanscope png "$t" -o "$out/$name.png"
    ./chanscope svg "$t" -o "$out/$name.svg"
    ./chanscope dot "$t" -o "$out/$name.dot"
    ./chanscope pairs "$t" > "$out/$name.pairs.txt"
done
echo
echo "pictures written:"
ls -1 "$out"/* | sed 's/^/  /'
