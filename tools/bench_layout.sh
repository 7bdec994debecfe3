#!/bin/sh
# tools/bench_layout.sh — builds tools/bench_layout.c against the release
# objects of `make` and prints layout and export timings (part of make bench).
set -eu
# the objects of today's sources only (an object whose source is gone would clash)
objs=$(for c in core/*.c decode/*.c layout/*.c render/*.c export/*.c; do echo "build/rel/${c%.c}.o"; done)
objs="$objs build/rel/gen/shaders.o"
libs=$(pkg-config --libs glfw3 glew cglm libgvc libcgraph egl gl jansson libxxhash libelf libgif)
${CC:-cc} -std=c11 -D_GNU_SOURCE -O2 $(pkg-config --cflags libgvc) -o build/bench_layout \
    tools/bench_layout.c $objs $libs -lstb -lm -lpthread -ldl
./build/bench_layout
