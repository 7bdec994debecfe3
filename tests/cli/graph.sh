#!/bin/sh
# The communication graph and the framing of pictures:
# - `svg --layout graph` of every corpus trace (tests/data, and the shared
#   Go 1.25 and 1.27 corpus when present): every node (<g class="node">) has
#   a <text class="label"> of at least 10 px, and no two labels (names and
#   edge counts) overlap, their boxes estimated from x (the middle), y (the
#   baseline), font-size and the number of characters at 0.6 em each, the
#   least layout/text.c counts a character;
# - `png` of the 4-goroutine ping-pong at the default 1920x1080, lanes, tree and
#   graph: the content (non-background pixels between the title and the
#   legend) covers at least 70% of the picture's height;
# - `dot`: a close is counted once ("1× close"), never "close close";
# - the two counts of a pair that talks both ways are both shown;
# - `--engine` is honoured and a wrong one is a usage error.
set -u
cs=${CHANSCOPE:-./chanscope}
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check_labels SVG: exits 1 with a message on a node without a label, a
# label under 10 px or two overlapping labels
check_labels() {
    LC_ALL=C awk '
    function attr(s, name) {
        if (!match(s, " " name "=\"[^\"]*\"")) return ""
        return substr(s, RSTART + length(name) + 3, RLENGTH - length(name) - 4)
    }
    {
        line = $0
        nodes += gsub(/<g class="node">/, "&", line)
        while (match(line, /<text class="(label|count)"[^>]*>[^<]*<\/text>/)) {
            t = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
            fs = attr(t, "font-size") + 0; x = attr(t, "x") + 0; y = attr(t, "y") + 0
            txt = t; sub(/^<text[^>]*>/, "", txt); sub(/<\/text>$/, "", txt)
            c = txt; gsub(/&[a-z]+;|&#[0-9]+;/, "e", c); gsub(/[\200-\277]/, "", c)
            labels += attr(t, "class") == "label"
            if (fs < 10) { print "label \"" txt "\" at " fs " px"; bad = 1 }
            w = 0.6 * fs * length(c); cy = y - 0.35 * fs; k++
            X0[k] = x - w / 2; X1[k] = x + w / 2; Y0[k] = cy - 0.6 * fs; Y1[k] = cy + 0.6 * fs; T[k] = txt
        }
    }
    END {
        if (nodes != labels) { print nodes " nodes but " labels " labels"; bad = 1 }
        for (i = 1; i <= k; i++)
            for (j = i + 1; j <= k; j++)
                if (X0[i] < X1[j] - 0.2 && X0[j] < X1[i] - 0.2 && Y0[i] < Y1[j] - 0.2 && Y0[j] < Y1[i] - 0.2) {
                    print "\"" T[i] "\" overlaps \"" T[j] "\""; bad = 1
                }
        exit bad
    }' "$1"
}

traces=$(find tests/data -name '*.trace' ! -path '*/regress/*' ! -path '*/gens/*' | sort)
shared=../shared/traces/corpus
if [ -d "$shared" ]; then
    traces="$traces $(ls "$shared"/go1.25/*.trace "$shared"/go1.27/*.trace)"
else
    echo "graph.sh: $shared absent, only the traces in tests/data"
fi
n=0
for t in $traces; do
    $cs svg -q --layout graph "$t" -o "$tmp/g.svg" || fail "svg --layout graph $t"
    out=$(check_labels "$tmp/g.svg") || fail "$t: $out"
    n=$((n + 1))
done
echo "graph.sh: labels of $n graphs checked"

# a check that can fail: labels drawn on top of each other are seen
printf '<g class="node"><text class="label" x="100" y="50" font-size="12">G1 main.main</text></g>\n<g class="node"><text class="label" x="120" y="52" font-size="12">G2 main.worker</text></g>\n' >"$tmp/bad.svg"
check_labels "$tmp/bad.svg" >/dev/null && fail "overlapping labels not seen"

# framing: rows 50..1049 hold everything but the title and the legend
for l in lanes tree graph; do
    $cs png -q --layout $l tests/data/pingpong-go1.25.trace -o "$tmp/pp-$l.png" || fail "png --layout $l"
    h=$(convert "$tmp/pp-$l.png" -crop 1920x1000+0+50 +repage -fuzz 3% -trim -format %h info:)
    [ "$h" -ge 756 ] || fail "ping-pong $l: content is $h px of 1080 high (less than 70%)"
done

$cs dot -q tests/data/closebcast-go1.22.trace -o "$tmp/cb.dot" || fail "dot closebcast"
grep -q 'xlabel="[0-9]*× close"' "$tmp/cb.dot" || fail "dot: no 'N× close' count"
grep -q 'close close' "$tmp/cb.dot" && fail "dot: 'close close' in a label"
# ping-pong's players send each way over one channel (29 and 30 times):
# the two edges share Graphviz's route, and both counts are shown
$cs svg -q --layout graph tests/data/pingpong-go1.25.trace -o "$tmp/pp.svg" || fail "svg graph pingpong"
for c in 29 30; do
    grep -q "class=\"count\"[^>]*>$c×<" "$tmp/pp.svg" || fail "ping-pong graph: no '$c×' count"
done

$cs svg -q --layout graph --engine sfdp tests/data/pingpong-go1.25.trace -o "$tmp/e.svg" || fail "svg --engine sfdp"
grep -q 'layout: Graphviz sfdp' "$tmp/e.svg" || fail "svg --engine sfdp not used"
$cs png -q --layout graph --engine nope tests/data/pingpong-go1.25.trace -o "$tmp/e.png" 2>/dev/null
[ $? -eq 2 ] || fail "png --engine nope should exit 2"
exit 0
