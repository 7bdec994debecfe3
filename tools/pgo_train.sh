#!/bin/sh
# tools/pgo_train.sh — the training run of the profile-guided release build
# (Makefile, PGO): the instrumented binary summarizes every trace given, on
# one thread and on two, so that the counts GCC lays out the release binary
# by are those of real decoding. Traces made to fail (tests/data/regress)
# fail here too; that is part of the run, not an error of it.
# Usage: tools/pgo_train.sh BINARY TRACE...
bin=$1; shift
for t in "$@"; do
    "$bin" stats -j 1 "$t" >/dev/null 2>&1
    "$bin" stats -j 2 "$t" >/dev/null 2>&1
done
exit 0
