#!/bin/sh
# The command line: help, version and exit statuses (0 ok, 1 bad input, 2 usage).
set -u
cs=${CHANSCOPE:-./chanscope}
fail() { echo "FAIL: $*"; exit 1; }
$cs --help | grep -q "usage: chanscope COMMAND" || fail "--help"
$cs --version | grep -q "^chanscope [0-9]" || fail "--version"
$cs >/dev/null 2>&1; [ $? -eq 2 ] || fail "no args should exit 2"
$cs nosuchcommand >/dev/null 2>&1; [ $? -eq 2 ] || fail "unknown command should exit 2"
$cs info --help | grep -q "usage: chanscope info" || fail "info --help"
$cs info >/dev/null 2>&1; [ $? -eq 2 ] || fail "info without trace should exit 2"
tmp=$(mktemp); printf 'hello, not a trace at all' > "$tmp"
msg=$($cs info "$tmp" 2>&1); rc=$?
[ $rc -eq 1 ] || fail "garbage should exit 1, got $rc"
echo "$msg" | grep -q "^$tmp:0: not a Go execution trace" || fail "error format: $msg"
$cs info /nonexistent/trace >/dev/null 2>&1; [ $? -eq 1 ] || fail "missing file should exit 1"
rm -f "$tmp"
exit 0
