#!/bin/sh
# What `chanscope png` and `svg` export, checked as a reader would check it
# (ImageMagick, xmllint): a GIF frame's state colours are the PNG frame's
# (within a small distance: the palette holds the theme's colours), in the
# dark and gotrace themes; PNGs are opaque; the gotrace theme draws
# blocked-on-channel and syscall in different colours; an exact message's
# value is printed beside its arrow in the SVG and the PNG differs where
# it is; grid lines come before the lanes in the SVG (under the bars).
# Skips without ImageMagick or xmllint.
set -u
cs=${CHANSCOPE:-./chanscope}
fail() { echo "FAIL: $*"; exit 1; }
for tool in identify convert compare xmllint; do
    command -v $tool >/dev/null 2>&1 || { echo "SKIP: $tool missing"; exit 0; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset DISPLAY WAYLAND_DISPLAY
t=tests/data/corpus/go1.23/pingpong.trace
$cs info -q "$t" >/dev/null 2>&1 || { echo "SKIP: $t does not decode"; exit 0; }

# pixels of colour $2 (within 3 %) in image $1
px() { convert "$1" -fuzz 3% -fill white -opaque "$2" -fill black +opaque white -format '%[fx:round(mean*w*h)]' info:; }
for theme in dark gotrace; do
    $cs png -q --frames 3 --size 640x360 --theme $theme "$t" -o "$tmp/a.png" >/dev/null || fail "--frames --theme $theme"
    convert "$tmp/a.gif[1]" "$tmp/g2.png" || fail "GIF frame 2 does not decode"
    case $theme in dark) states='#E69F00 #009E73';; gotrace) states='#ED0000 #6C8200';; esac
    for c in $states; do
        a=$(px "$tmp/a-0002.png" "$c"); b=$(px "$tmp/g2.png" "$c")
        echo "$theme $c: $a pixels in the PNG frame, $b in the GIF frame"
        [ "$a" -gt 500 ] || fail "$theme: state colour $c hardly in the PNG frame ($a)"
        [ $((b * 100)) -ge $((a * 97)) ] && [ $((b * 100)) -le $((a * 103)) ] || fail "$theme: $c $a pixels in the PNG frame, $b in the GIF's"
    done
    mae=$(compare -metric MAE "$tmp/a-0002.png" "$tmp/g2.png" null: 2>&1 | sed 's/.*(\(.*\))/\1/')
    echo "$theme: GIF frame 2 differs from the PNG by $mae (mean, 0-1)"
    awk -v m="$mae" 'BEGIN { exit !(m < 0.01) }' || fail "$theme: GIF frame far from the PNG frame ($mae)"
    # opaque: no alpha channel, or every pixel's alpha full
    o=$(identify -format '%[opaque]' "$tmp/a-0002.png")
    [ "$o" = True ] || [ "$o" = true ] || fail "$theme: PNG frame is not opaque ($o)"
done
$cs png -q --size 640x360 "$t" -o "$tmp/one.png" || fail "png"
o=$(identify -format '%[opaque]' "$tmp/one.png"); [ "$o" = True ] || [ "$o" = true ] || fail "PNG is not opaque ($o)"

# gotrace: channel waits (red) and syscalls are told apart (with --system, the
# tracer's own goroutine writing the trace out in syscalls)
$cs png -q --size 640x360 --theme gotrace --system tests/data/corpus/go1.23/annotated.trace -o "$tmp/gt.png" || fail "png gotrace"
red=$(px "$tmp/gt.png" '#ED0000'); sys=$(px "$tmp/gt.png" '#C77DFF')
echo "gotrace annotated: $red channel-wait pixels, $sys syscall pixels"
[ "$sys" -gt 100 ] || fail "gotrace theme: no syscall colour of its own ($sys)"

# the values of a patched runtime's messages, beside their arrows
p=tests/data/gotrace-patched/go1.8-primesieve.trace
if $cs info -q "$p" >/dev/null 2>&1; then
    $cs svg -q "$p" -o "$tmp/v.svg" || fail "svg $p"
    xmllint --noout "$tmp/v.svg" || fail "svg of $p is not XML"
    n=$(xmllint --xpath 'count(//*[local-name()="g"][@font-size="11"]/*[local-name()="text"])' "$tmp/v.svg")
    echo "$p: $n values printed beside arrows in the SVG"
    [ "${n%.*}" -ge 20 ] || fail "only $n message values printed in the SVG"
    xmllint --xpath '//*[local-name()="g"][@font-size="11"]/*[local-name()="text"][.="7"]' "$tmp/v.svg" >/dev/null 2>&1 ||
        fail "the value 7 (a prime sent down the sieve) is not printed"
fi
# grid lines before the first lane's bars in the SVG: they are under them
$cs svg -q "$t" -o "$tmp/pp.svg" || fail "svg $t"
grid=$(grep -n 'stroke-opacity="0.18"' "$tmp/pp.svg" | head -1 | cut -d: -f1)
first_lane=$(grep -n '<g><title>G' "$tmp/pp.svg" | head -1 | cut -d: -f1)
[ -n "$grid" ] && [ -n "$first_lane" ] && [ "$grid" -lt "$first_lane" ] || fail "grid lines (line $grid) are drawn after the lanes (line $first_lane)"
echo "SVG: grid lines at line $grid, before the first lane at line $first_lane"
exit 0
