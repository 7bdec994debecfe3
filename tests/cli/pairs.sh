#!/bin/sh
# `chanscope pairs` and `chanscope edges` on a corpus trace: the JSON shapes
# of the README, the counts the program itself reports (60 hand-offs in
# pingpong), the --channel filter, CSV, and usage errors. With jq the JSON
# is parsed; without it the checks fall back to counting lines.
set -u
cs=${CHANSCOPE:-./chanscope}
fail() { echo "FAIL: $*"; exit 1; }
tr=tests/data/corpus/go1.19/pingpong.trace
want=$(sed -n 's/.*"handoffs":\([0-9]*\).*/\1/p' tests/data/corpus/go1.19/pingpong.truth.json)
pj=$($cs pairs --json "$tr") || fail "pairs --json exited $?"
ej=$($cs edges --json "$tr") || fail "edges --json exited $?"
wake=$($cs info "$tr" | sed -n 's/^wake-ups *//p')
if command -v jq >/dev/null; then
    n=$(echo "$pj" | jq '[.messages[] | select(.kind == "send")] | length')
    [ "$n" = "$want" ] || fail "$n send messages, want $want"
    echo "$pj" | jq -e '.messages | all(keys == ["channel","exact","kind","receiver","recv_time","send_time","sender","value"])' \
        >/dev/null || fail "message keys"
    echo "$pj" | jq -e '(.channels | map(.count) | add) == (.messages | length)' >/dev/null || fail "channel counts"
    echo "$pj" | jq -e '.channels | all(.latency_ns.min <= .latency_ns.median and .latency_ns.median <= .latency_ns.max)' \
        >/dev/null || fail "latency order"
    echo "$pj" | jq -e '.messages | all(.exact == false and .value == null and .sender != .receiver)' >/dev/null \
        || fail "inferred messages"
    n=$(echo "$ej" | jq 'length')
    [ "$n" = "$wake" ] || fail "edges has $n wake-ups, info says $wake"
    echo "$ej" | jq -e 'all(keys == ["from","kind","reason","site_from","site_to","time","to"])' >/dev/null || fail "edge keys"
    echo "$ej" | jq -e '[.[] | select(.reason == "GoSleep")] | all(.from == 0 and .kind == "timer")' >/dev/null \
        || fail "sleep wake-ups"
    n=$($cs pairs --json --channel main.player:26 "$tr" | jq '.messages | length')
    [ "$n" = 59 ] || fail "--channel main.player:26 gave $n messages, want 59"
else
    n=$(echo "$pj" | grep -c '"kind":"send"')
    [ "$n" = "$want" ] || fail "$n send messages, want $want"
    n=$(echo "$ej" | grep -c '"time":')
    [ "$n" = "$wake" ] || fail "edges has $n wake-ups, info says $wake"
fi
n=$($cs pairs --csv "$tr" | grep -c '^send,')
[ "$n" = "$want" ] || fail "csv has $n send rows"
$cs pairs --csv "$tr" | head -1 | grep -q '^kind,sender,receiver,send_time,recv_time,channel,value,exact$' || fail "csv header"
$cs pairs --channel no.such.site "$tr" | grep -q '^send' && fail "--channel filter let a message through"
$cs pairs --json --csv "$tr" >/dev/null 2>&1; [ $? -eq 2 ] || fail "--json --csv should exit 2"
$cs edges >/dev/null 2>&1; [ $? -eq 2 ] || fail "edges without trace should exit 2"
$cs pairs /nonexistent >/dev/null 2>&1; [ $? -eq 1 ] || fail "missing trace should exit 1"
exit 0
