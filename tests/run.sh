#!/bin/sh
# tests/run.sh — runs every cmocka test binary and every tests/cli/*.sh script
# (which use the sanitized binary BUILD/chanscope) and prints one summary line.
# What a test skips is listed with its reason: cmocka's [  SKIPPED ] lines
# and the `skipping …` line before them, a script's `SKIP: …` lines.
# Usage: tests/run.sh BUILD_DIR TEST_BIN...
build=$1; shift
passed=0; failed=0; skipped=0; failures=""
export CHANSCOPE="$build/chanscope"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export LSAN_OPTIONS=suppressions=$(pwd)/tests/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=suppressions=$(pwd)/tests/tsan.supp
# LeakSanitizer's own tracer thread sometimes crashes at exit (seen in about
# one run in twenty of a Graphviz layout, whose plugins load pango and
# fontconfig): "LeakSanitizer has encountered a fatal error" is a tool
# failure, not a leak report, so a test that failed that way runs again, up
# to twice more.
lsan_fault() { echo "$1" | grep -q "LeakSanitizer has encountered a fatal error"; }
# run CMD...: its output in $out, its status in $rc
run() {
    out=$("$@" 2>&1); rc=$?
    for again in 1 2; do
        [ $rc -ne 0 ] && lsan_fault "$out" || break
        echo "[ RERUN ] $* (LeakSanitizer tool fault)"
        out=$("$@" 2>&1); rc=$?
    done
}
for t in "$@"; do
    run "$t"
    echo "$out" | grep -E '^\[  (PASSED|FAILED|SKIPPED) |^\[  ERROR   \]|^skipping' | head -40
    p=$(echo "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -1)
    f=$(echo "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -1)
    s=$(echo "$out" | sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' | tail -1)
    passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0})); skipped=$((skipped + ${s:-0}))
    if [ $rc -ne 0 ] && [ -z "$f" ]; then
        failed=$((failed + 1)); echo "$out" | tail -30
    fi
    [ $rc -ne 0 ] && failures="$failures $(basename "$t")"
done
for s in tests/cli/*.sh; do
    [ -f "$s" ] || continue
    run sh "$s"
    if [ $rc -eq 0 ]; then
        passed=$((passed + 1)); echo "[ PASS ] $s"
        echo "$out" | sed -n 's/^SKIP: /[ SKIP ] /p'
    else
        failed=$((failed + 1)); failures="$failures $s"; echo "[ FAIL ] $s"; echo "$out" | tail -30
    fi
done
[ -n "$failures" ] && echo "failing:$failures"
echo "tests: $passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
