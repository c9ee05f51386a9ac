#!/usr/bin/env bash
# Checks what `make dist` left in dist/ as a user would meet it (`make dist-check`; CI runs it):
# - SHA256SUMS matches the artifacts;
# - the tarball, extracted in an empty folder, runs `--version`, `kill-order` on a real kernel OOM
#   report and `compare`, with an empty environment (env -i, PATH=/usr/bin:/bin: no Swift
#   toolchain on the path or in the library path), from an empty folder;
# - ldd names no Swift runtime library (libswift*, libFoundation*, libdispatch, libBlocksRuntime);
# - the .deb's control has Depends, and it holds the binary, a man page per command, the three
#   completions, the copyright and the changelog; `man -l` renders the main page;
# - with --install (root, changes this machine): `apt-get install ./….deb` installs it,
#   `mempressure --version` runs from the path, and `apt-get remove` leaves none of its files.
# Prints the artifacts' sizes.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
install=false
[ "${1:-}" != "--install" ] || install=true
dist=${DIST_DIR:-$root/dist}
version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/MemoryPressure/Version.swift)
name="mempressure-$version-linux-$(uname -m)"
deb="$dist/mempressure_${version}_$(dpkg --print-architecture).deb"
report="$root/evidence/public/linux/002-lkml-mglru-rsync-memcg-6.7.log"
fail() {
    echo "check-dist: $*" >&2
    exit 1
}

(cd "$dist" && sha256sum --check --quiet SHA256SUMS) || fail "SHA256SUMS does not match"

empty=$(mktemp -d)
trap 'rm -rf "$empty"' EXIT
tar -xzf "$dist/$name.tar.gz" -C "$empty"
bin="$empty/$name/mempressure"
for file in mempressure LICENSE NOTICE README.md CHANGELOG.md man/man1/mempressure.1 \
    completions/mempressure.bash completions/_mempressure completions/mempressure.fish; do
    [ -e "$empty/$name/$file" ] || fail "the tarball has no $file"
done
mkdir "$empty/cwd"
run() { (cd "$empty/cwd" && env -i PATH=/usr/bin:/bin HOME="$empty/cwd" "$bin" "$@"); }
line=$(run --version)
[[ "$line" =~ ^mempressure\ $version\ \(commit\ ([0-9a-f]{12}(-dirty)?|unknown)\)$ ]] || fail "--version said: $line"
echo "check-dist: $line"
run kill-order "$report" --limit 3 >"$empty/kill-order.txt" || fail "kill-order on $report failed"
grep -q "the kernel killed rsync\[128825\]" "$empty/kill-order.txt" || fail "kill-order did not name the report's victim (rsync)"
run compare --seeds 2 >"$empty/compare.txt" || fail "compare failed"
[ -s "$empty/compare.txt" ] || fail "compare printed nothing"
[ -z "$(ls -A "$empty/cwd")" ] || fail "the binary left files in its folder: $(ls -A "$empty/cwd")"
echo "check-dist: --version, kill-order on a real report and compare ran from an empty folder under env -i"

libraries=$(ldd "$bin")
if grep -Ei 'libswift|libFoundation|libdispatch|libBlocksRuntime|not found' <<<"$libraries"; then
    fail "ldd names a Swift runtime library or a missing one"
fi
echo "check-dist: ldd: $(awk '/=>/ {print $1}' <<<"$libraries" | sort | tr '\n' ' ')"

info=$(dpkg-deb --info "$deb")
depends=$(sed -n 's/^ Depends: //p' <<<"$info")
[ -n "$depends" ] || fail "the .deb has no Depends"
echo "check-dist: Depends: $depends"
contents=$(dpkg-deb --contents "$deb" | awk '{print $NF}')
for path in ./usr/bin/mempressure ./usr/share/man/man1/mempressure.1.gz \
    ./usr/share/bash-completion/completions/mempressure ./usr/share/zsh/vendor-completions/_mempressure \
    ./usr/share/fish/vendor_completions.d/mempressure.fish ./usr/share/doc/mempressure/copyright \
    ./usr/share/doc/mempressure/changelog.gz; do
    grep -qxF "$path" <<<"$contents" || fail "the .deb has no $path"
done
pages=$(grep -c '^./usr/share/man/man1/.*\.1\.gz$' <<<"$contents")
echo "check-dist: the .deb holds the binary, $pages man pages, the three completions, copyright and changelog"
if command -v man >/dev/null 2>&1; then
    rendered=$(MANWIDTH=80 man -l "$empty/$name/man/man1/mempressure.1" 2>/dev/null | col -b)
    grep -q "mempressure" <<<"$rendered" || fail "man -l rendered nothing"
    echo "check-dist: man -l renders mempressure.1 ($(wc -l <<<"$rendered") lines)"
else
    echo "check-dist: no man here (man-db): the man page was not rendered"
fi

if $install; then
    [ "$(id -u)" -eq 0 ] || fail "--install needs root"
    ! dpkg -s mempressure >/dev/null 2>&1 || fail "mempressure is already installed; remove it first"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$deb" >/dev/null
    files=$(dpkg -L mempressure | while read -r f; do [ -f "$f" ] && echo "$f"; done)
    echo "check-dist: installed $(wc -l <<<"$files") files; $(env -i PATH=/usr/bin:/bin mempressure --version)"
    DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq mempressure >/dev/null
    left=$(while read -r f; do [ ! -e "$f" ] || echo "$f"; done <<<"$files")
    [ -z "$left" ] || fail "apt-get remove left: $left"
    ! dpkg -s mempressure >/dev/null 2>&1 || fail "dpkg still knows mempressure after remove"
    echo "check-dist: apt-get remove left none of its files"
fi

echo "check-dist: sizes (bytes)"
for file in "$name.tar.gz" "$(basename "$deb")" "$name.debug"; do printf '%12d  %s\n' "$(stat -c %s "$dist/$file")" "$file"; done
printf '%12d  %s\n' "$(stat -c %s "$bin")" "the binary, stripped"
