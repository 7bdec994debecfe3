#!/bin/sh
# tools/go_toolchain.sh — unpacks a Go toolchain with its full source
# (internal/trace included) from Debian's own packages, golang-V-go and
# golang-V-src, without installing anything system-wide, into DEST/go-V
# (GOROOT). Kept: a second run with DEST/go-V/bin/go present does nothing.
# Go 1.21-1.23 come from bookworm-backports, 1.24 from trixie, 1.25-1.27
# from trixie-backports; apt-get only reads the package lists into DEST.
# Usage: sh tools/go_toolchain.sh DEST VERSION    (e.g. build 1.27)
set -eu
if [ $# -ne 2 ]; then
    echo "usage: sh tools/go_toolchain.sh DEST VERSION" >&2
    exit 2
fi
mkdir -p "$1"
dest=$(cd "$1" && pwd) v=$2
[ -x "$dest/go-$v/bin/go" ] && exit 0
apt=$dest/.apt
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs" "$dest/root"
key=/usr/share/keyrings/debian-archive-keyring.gpg
cat >"$apt/sources.list" <<EOF
deb [signed-by=$key] http://deb.debian.org/debian trixie main
deb [signed-by=$key] http://deb.debian.org/debian trixie-backports main
deb [signed-by=$key] http://deb.debian.org/debian bookworm-backports main
EOF
aptq() {
    apt-get -q -o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null \
        -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -o Debug::NoLocking=1 -o APT::Sandbox::User=root "$@"
}
aptq update >/dev/null
rm -f "$apt/debs"/*.deb
(cd "$apt/debs" && aptq download "golang-$v-go" "golang-$v-src" >/dev/null)
for f in "$apt/debs"/*.deb; do
    dpkg -x "$f" "$dest/root"
done
ln -sfn "root/usr/lib/go-$v" "$dest/go-$v"
GOROOT="$dest/go-$v" "$dest/go-$v/bin/go" version
