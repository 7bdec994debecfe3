#!/bin/sh
# svg, dot and perfetto on real traces of Go 1.19 to 1.25: the SVG parses
# (xmllint) and headless Chromium renders it to a screenshot with more than
# the background in it; the DOT file is accepted by `dot -Tsvg` and
# --render png gives a PNG; the Perfetto JSON parses (jq) with one flow start
# and one flow end per message, on named threads; the SVG legend names GC
# when GC bands are drawn; failures leave no output and no temporary file
# behind.
set -u
cs=${CHANSCOPE:-./chanscope}
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
traces="tests/data/pingpong-go1.25.trace tests/data/corpus/go1.27/selectmix.trace tests/data/closebcast-go1.22.trace tests/data/corpus/go1.23/selectmix.trace
        tests/data/corpus/go1.19/pingpong.trace tests/data/corpus/go1.21/closebcast.trace"
shared=../shared/traces/corpus
if [ -d "$shared" ]; then
    for v in go1.19 go1.21 go1.22 go1.23 go1.25 go1.26 go1.27; do
        traces="$traces $shared/$v/workers.trace"
    done
    traces="$traces $shared/go1.25/spawnstorm.trace $shared/go1.27/spawnstorm.trace $shared/go1.21/syncmix.trace"
else
    echo "SKIP: $shared absent: the corpus exports are not checked"
fi
for t in $traces; do
    [ -f "$t" ] || continue
    n=$(basename "$(dirname "$t")")-$(basename "$t" .trace)
    $cs svg -q "$t" -o "$tmp/$n.svg" || fail "svg $t"
    xmllint --noout "$tmp/$n.svg" || fail "xmllint $n.svg"
    $cs svg -q --layout graph --theme light "$t" -o "$tmp/$n-graph.svg" || fail "svg graph $t"
    xmllint --noout "$tmp/$n-graph.svg" || fail "xmllint $n-graph.svg"
    $cs dot -q "$t" -o "$tmp/$n.dot" || fail "dot $t"
    dot -Tsvg "$tmp/$n.dot" -o "$tmp/$n.dot.svg" 2>"$tmp/dot.err" || fail "dot -Tsvg $n.dot: $(cat "$tmp/dot.err")"
    $cs perfetto -q "$t" -o "$tmp/$n.json" || fail "perfetto $t"
    s=$(jq '[.traceEvents[] | select(.ph == "s" and (.cat == "chan" or .cat == "close"))] | length' "$tmp/$n.json") || fail "jq $n.json"
    f=$(jq '[.traceEvents[] | select(.ph == "f" and (.cat == "chan" or .cat == "close") and .bp == "e")] | length' "$tmp/$n.json")
    msgs=$($cs info --json -q "$t" | jq .messages)
    [ "$s" -eq "$f" ] && { [ "$s" -gt 0 ] || [ "$msgs" -eq 0 ]; } && [ "$s" -le "$msgs" ] || fail "$n: $s flow starts, $f ends, $msgs messages"
    jq -e '[.traceEvents[] | select(.name == "thread_name")] | length > 2' "$tmp/$n.json" >/dev/null || fail "$n: thread names"
done
# the legend names GC when the picture has its bands (a trace with GC cycles), not otherwise
$cs svg -q tests/data/gens/gens-gc-go1.27.trace -o "$tmp/gc.svg" || fail "svg gens-gc"
grep -q 'fill-opacity="[0-9.]*"><title>GC</title>' "$tmp/gc.svg" || fail "gens-gc: no GC bands"
grep -q '>GC</text>' "$tmp/gc.svg" || fail "gens-gc: GC bands drawn, but not in the legend"
$cs svg -q --range 0:1us tests/data/gens/gens-gc-go1.27.trace -o "$tmp/nogc.svg" || fail "svg gens-gc --range"
if grep -q '<title>GC</title>' "$tmp/nogc.svg"; then :; elif grep -q '>GC</text>' "$tmp/nogc.svg"; then
    fail "gens-gc, first microsecond: GC in the legend, but no GC band drawn"
fi
# the legend counts each channel's messages the picture draws: over a window
# of 2 ms, or the whole trace, its counts add up to the title's "N of M"
for r in 0:2ms 0:20ms :; do
    $cs svg -q --range $r tests/data/pingpong-go1.25.trace -o "$tmp/win.svg" || fail "svg --range $r"
    shown=$(sed -n 's/.* \([0-9]*\) of [0-9]* messages, drawn as.*/\1/p' "$tmp/win.svg" | head -1)
    sum=$(grep -o ' ([0-9]*)</text>' "$tmp/win.svg" | tr -dc '0-9\n' | awk '{s += $1} END {print s + 0}')
    [ -n "$shown" ] && [ "$shown" -gt 0 ] && [ "$sum" -eq "$shown" ] ||
        fail "svg --range $r: the legend counts $sum messages, the title $shown"
done
# names that are markup in XML ("main.player" made "main.<&'\">r", same length) stay text in every
# SVG; names that are not UTF-8, with a control byte ("main.\377\001\300\200er"), are XML there,
# each bad byte and the control U+FFFD, and every JSON output parses, the bad bytes \ufffd
perl -pe 's/main\.player/main.<&\x27">r/g' tests/data/pingpong-go1.25.trace >"$tmp/markup.trace"
perl -pe 's/main\.player/main.\xff\x01\xc0\x80er/g' tests/data/pingpong-go1.25.trace >"$tmp/bad.trace"
for l in lanes graph; do
    for c in 'markup main\.&lt;&amp;' 'bad main\.&#xFFFD;&#xFFFD;&#xFFFD;&#xFFFD;er'; do
        n=${c%% *}
        $cs svg -q --layout $l "$tmp/$n.trace" -o "$tmp/$n-$l.svg" || fail "svg $l of $n names"
        xmllint --noout "$tmp/$n-$l.svg" || fail "xmllint $n-$l.svg"
        grep -q "${c#* }" "$tmp/$n-$l.svg" || fail "$n-$l.svg lacks the name"
    done
done
bad='"main.\ufffd\u0001\ufffd\ufffder"'
$cs stats --json -q "$tmp/bad.trace" | jq -e "[.goroutines[] | select(.name == $bad)] | length == 2" >/dev/null ||
    fail "stats --json of names not UTF-8"
$cs pairs --json -q "$tmp/bad.trace" | jq -e "[.channels[] | select(.channel | contains($bad))] | length > 0" \
    >/dev/null || fail "pairs --json of names not UTF-8"
$cs dot -q "$tmp/bad.trace" -o "$tmp/bad.dot" || fail "dot of names not UTF-8"
iconv -f UTF-8 -t UTF-8 "$tmp/bad.dot" >/dev/null || fail "bad.dot is not UTF-8"
$cs perfetto -q "$tmp/bad.trace" -o "$tmp/bad.json" || fail "perfetto of names not UTF-8"
jq -e "[.traceEvents[] | select(.args.name? // \"\" | endswith($bad))] | length > 0" "$tmp/bad.json" >/dev/null ||
    fail "perfetto of names not UTF-8"
$cs dot -q --render png --group function tests/data/pingpong-go1.25.trace -o "$tmp/pp.png" || fail "dot --render png"
[ "$(head -c 4 "$tmp/pp.png" | od -An -c | tr -d ' ')" = "211PNG" ] || fail "dot --render png is no PNG"

# a headless browser draws the SVG: more than a handful of colours on the screenshot
prof=$(mktemp -d)
chromium --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update \
    --disable-sync --no-first-run --user-data-dir="$prof" --screenshot="$tmp/shot.png" --window-size=1600,500 \
    "file://$(readlink -f "$tmp/go1.19-pingpong.svg")" >/dev/null 2>&1
rm -rf "$prof"
[ -s "$tmp/shot.png" ] || fail "chromium made no screenshot"
colours=$(convert "$tmp/shot.png" -format %k info:)
[ "$colours" -gt 50 ] || fail "screenshot looks blank ($colours colours)"
# the running colour (#56B4E9) and the blocked-on-channel colour (#E69F00) are on it
for c in "#56B4E9" "#E69F00"; do
    px=$(convert "$tmp/shot.png" -fill black +opaque "$c" -fill white -opaque "$c" -format "%[fx:mean*w*h]" info:)
    [ "${px%.*}" -gt 50 ] || fail "colour $c missing from the screenshot ($px px)"
done

# failures leave nothing behind
printf 'not a trace' >"$tmp/garbage"
$cs svg -q "$tmp/garbage" -o "$tmp/none.svg" 2>/dev/null; [ $? -eq 1 ] || fail "garbage should exit 1"
[ ! -e "$tmp/none.svg" ] || fail "a failed svg left a file"
mkdir "$tmp/adir"
$cs perfetto -q tests/data/pingpong-go1.25.trace -o "$tmp/adir" 2>/dev/null && fail "writing over a directory succeeded"
ls "$tmp" | grep -q '\.tmp\.' && fail "temporary file left behind"
$cs svg --range 5ms:1ms tests/data/pingpong-go1.25.trace -o "$tmp/x.svg" 2>/dev/null; [ $? -eq 2 ] || fail "bad --range should exit 2"
# --collapse: one lane per entry function, labelled with its count
$cs svg -q --collapse tests/data/corpus/go1.19/closebcast.trace -o "$tmp/collapse.svg" || fail "svg --collapse"
grep -q "main\.[a-z.0-9]* ×[0-9]" "$tmp/collapse.svg" || fail "svg --collapse has no 'FUNCTION ×N' lane"
$cs svg --help | grep -q "usage: chanscope svg" || fail "svg --help"
$cs dot --help | grep -q "usage: chanscope dot" || fail "dot --help"
$cs perfetto --help | grep -q "usage: chanscope perfetto" || fail "perfetto --help"
exit 0
