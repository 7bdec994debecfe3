#!/bin/sh
# tools/bench_layout.sh — builds tools/bench_layout.c against the release
# objects of `make` and prints layout and export timings (part of make bench).
set -eu
objs=$(find build/rel -name '*.o' ! -path 'build/rel/cli/*' | sort)
libs=$(pkg-config --libs glfw3 glew cglm libgvc libcgraph egl gl jansson libxxhash libelf libgif)
${CC:-cc} -std=c11 -D_GNU_SOURCE -O2 $(pkg-config --cflags libgvc) -o build/bench_layout \
    tools/bench_layout.c $objs $libs -lstb -lm -lpthread -ldl
./build/bench_layout
