#!/bin/sh
# tools/bench_layout.sh — prints layout and export timings (part of make
# bench): runs tools/bench_layout.c, which the Makefile links against the
# objects of the profile-guided build (build/bench_layout).
set -eu
./build/bench_layout
