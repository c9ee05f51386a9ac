#!/usr/bin/env bash
# The release artifacts (`make dist`; docs/install.md says what each holds and what it needs):
#
#   dist/mempressure-VERSION-linux-ARCH.tar.gz   the binary, its man pages and completions, the
#                                                licence, NOTICE, README and CHANGELOG
#   dist/mempressure_VERSION_DEBARCH.deb          the same for `apt install ./…deb`
#   dist/mempressure-VERSION-linux-ARCH.debug     the binary's debug symbols (its .gnu_debuglink)
#   dist/SHA256SUMS                               over the three
#
# The binary is a release build with the TLS trait and with the Swift standard library and
# Foundation linked statically (--static-swift-stdlib): it needs no Swift toolchain, only ordinary
# system libraries (the .deb's Depends names them, computed by dpkg-shlibdeps from the binary).
# Its man pages (argument-parser's generate-manual, which reads the binary's
# --experimental-dump-help) and shell completions (--generate-completion-script) are made from
# the built binary, so they cannot drift from --help.
#
# Reproducible: timestamps come from SOURCE_DATE_EPOCH (the commit's time unless set), archives
# are sorted with owner root and no gzip time stamp. What still depends on the build folder is
# said in docs/install.md.
#
#   scripts/dist.sh           everything above
#   scripts/dist.sh binary    only the stripped binary and its debug file, in dist/ (the Dockerfile)
#
# Environment: MEMPRESSURE_COMMIT (default: git's HEAD, 12 digits, `-dirty` if tracked files
# changed), SOURCE_DATE_EPOCH (default: HEAD's commit time), DIST_DIR (dist), DIST_SCRATCH
# (.build-dist), DEB_MAINTAINER.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
mode=${1:-all}
case "$mode" in all | binary) ;; *)
    echo "usage: scripts/dist.sh [binary]" >&2
    exit 64
    ;;
esac

version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/MemoryPressure/Version.swift)
[ -n "$version" ] || {
    echo "dist: no version in Sources/MemoryPressure/Version.swift" >&2
    exit 1
}
arch=$(uname -m)
dist=${DIST_DIR:-$root/dist}
scratch=${DIST_SCRATCH:-$root/.build-dist}

if [ -z "${MEMPRESSURE_COMMIT:-}" ]; then
    if git rev-parse --git-dir >/dev/null 2>&1; then
        MEMPRESSURE_COMMIT=$(git rev-parse --short=12 HEAD)
        git diff --quiet HEAD -- || MEMPRESSURE_COMMIT="$MEMPRESSURE_COMMIT-dirty"
    else
        MEMPRESSURE_COMMIT=unknown
    fi
fi
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
    SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null || echo 0)
fi
export SOURCE_DATE_EPOCH
[[ "$MEMPRESSURE_COMMIT" =~ ^[0-9A-Za-z._-]+$ ]] || {
    echo "dist: MEMPRESSURE_COMMIT must be letters, digits, '.', '_' or '-'" >&2
    exit 64
}

# The commit goes in through a header of the build folder (Sources/CBuildInfo says why), rewritten
# only when it changes: a new commit recompiles that C file and the command-line module that imports
# it, and relinks (about 26 s); the libraries are not rebuilt.
mkdir -p "$scratch/buildinfo" "$dist"
header="$scratch/buildinfo/mempressure_build_commit.h"
wanted="#define MEMPRESSURE_COMMIT \"$MEMPRESSURE_COMMIT\""
[ "$(cat "$header" 2>/dev/null)" = "$wanted" ] || printf '%s\n' "$wanted" >"$header"

echo "dist: mempressure $version (commit $MEMPRESSURE_COMMIT), linux-$arch, SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH"
# -fno-pch-timestamp: clang module files (.pcm) then record no file times, so their signatures, which
# the debug information names and the build ID covers, are the same in every fresh build folder.
build=(swift build -c release --product mempressure --static-swift-stdlib --scratch-path "$scratch"
    -Xcc -I"$scratch/buildinfo" -Xcc -Xclang -Xcc -fno-pch-timestamp)
"${build[@]}"
built="$("${build[@]}" --show-bin-path)/mempressure"

# Stripped, with the debug symbols in a file of their own that the binary names (.gnu_debuglink).
name="mempressure-$version-linux-$arch"
work="$scratch/dist-work"
rm -rf "$work"
mkdir -p "$work"
objcopy --only-keep-debug --compress-debug-sections=zlib "$built" "$work/$name.debug"
objcopy --strip-all "$built" "$work/mempressure"
(cd "$work" && objcopy --add-gnu-debuglink="$name.debug" mempressure)
chmod 0755 "$work/mempressure"
chmod 0644 "$work/$name.debug"
cp "$work/$name.debug" "$dist/"
if [ "$mode" = binary ]; then
    cp "$work/mempressure" "$dist/mempressure"
    echo "dist: $dist/mempressure, $dist/$name.debug"
    exit 0
fi
binary="$work/mempressure"
"$binary" --version

# Man pages: argument-parser's generate-manual tool, built from the checkout SwiftPM resolved (the
# plugin `swift package generate-manual` would build mempressure a second time, without
# --static-swift-stdlib), run on the built binary, one page a command.
parser="$scratch/checkouts/swift-argument-parser"
tool=(swift build --package-path "$parser" --scratch-path "$scratch/generate-manual")
"${tool[@]}" --product generate-manual >"$work/generate-manual.log" 2>&1 || {
    cat "$work/generate-manual.log" >&2
    exit 1
}
mkdir -p "$work/man/man1"
"$("${tool[@]}" --show-bin-path 2>/dev/null)/generate-manual" \
    "$binary" --multi-page --section 1 --date "$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)" \
    --output-directory "$work/man/man1"

# Completions, from the binary.
mkdir -p "$work/completions"
"$binary" --generate-completion-script bash >"$work/completions/mempressure.bash"
"$binary" --generate-completion-script zsh >"$work/completions/_mempressure"
"$binary" --generate-completion-script fish >"$work/completions/mempressure.fish"

# Every file of both archives gets the same mode and time, whatever the umask and checkout time.
normalize() {
    find "$1" -type d -exec chmod 0755 {} +
    find "$1" -type f -exec chmod 0644 {} +
    [ -z "${2:-}" ] || chmod 0755 "$2"
    find "$1" -exec touch --no-dereference --date="@$SOURCE_DATE_EPOCH" {} +
}

# ---- the tarball ----
tree="$work/tar/$name"
mkdir -p "$tree"
cp "$binary" "$tree/mempressure"
cp -R "$work/man" "$work/completions" "$tree/"
cp LICENSE NOTICE README.md CHANGELOG.md "$tree/"
normalize "$tree" "$tree/mempressure"
tar --sort=name --format=gnu --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner \
    -C "$work/tar" -cf - "$name" | gzip -9n >"$dist/$name.tar.gz"

# ---- the Debian package ----
debarch=$(dpkg --print-architecture)
deb="$work/deb"
mkdir -p "$deb/DEBIAN" "$deb/usr/bin" "$deb/usr/share/man/man1" "$deb/usr/share/doc/mempressure" \
    "$deb/usr/share/bash-completion/completions" "$deb/usr/share/zsh/vendor-completions" \
    "$deb/usr/share/fish/vendor_completions.d"
cp "$binary" "$deb/usr/bin/mempressure"
for page in "$work"/man/man1/*.1; do gzip -9n <"$page" >"$deb/usr/share/man/man1/$(basename "$page").gz"; done
cp "$work/completions/mempressure.bash" "$deb/usr/share/bash-completion/completions/mempressure"
cp "$work/completions/_mempressure" "$deb/usr/share/zsh/vendor-completions/_mempressure"
cp "$work/completions/mempressure.fish" "$deb/usr/share/fish/vendor_completions.d/mempressure.fish"
gzip -9n <CHANGELOG.md >"$deb/usr/share/doc/mempressure/changelog.gz"
{
    cat <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: MemoryPressure

Files: *
Copyright: 2026 the MemoryPressure authors
License: Apache-2.0
 On Debian systems the full text of the Apache License 2.0 is in
 /usr/share/common-licenses/Apache-2.0.
Comment:
 /usr/bin/mempressure is linked statically with the Swift standard library and
 Foundation (Apache-2.0 with Runtime Library Exception) and with the package's
 dependencies as resolved in Package.resolved (swift-argument-parser, swift-nio,
 swift-nio-ssl with BoringSSL, swift-metrics, swift-prometheus,
 swift-service-lifecycle, swift-atomics, swift-collections, swift-system,
 swift-log, swift-async-algorithms: Apache-2.0; Yams with libyaml: MIT;
 BoringSSL: ISC and OpenSSL licences), each under its own terms.
 The project's NOTICE follows.
EOF
    sed -e 's/^$/./' -e 's/^/ /' NOTICE
} >"$deb/usr/share/doc/mempressure/copyright"
normalize "$deb" "$deb/usr/bin/mempressure"

# Depends: exactly the shared libraries the binary needs (its NEEDED entries), each mapped to the
# package that ships it with the lowest version whose symbols it uses (dpkg-shlibdeps, which wants
# a debian/control to stand in).
shlibs="$work/shlibs"
mkdir -p "$shlibs/debian"
printf 'Source: mempressure\n\nPackage: mempressure\nArchitecture: any\n' >"$shlibs/debian/control"
depends=$(cd "$shlibs" && dpkg-shlibdeps -O "$deb/usr/bin/mempressure" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || {
    echo "dist: dpkg-shlibdeps found no dependencies" >&2
    exit 1
}
installed=$(du -sk --apparent-size --exclude=DEBIAN "$deb" | cut -f1)
{
    printf 'Package: mempressure\nVersion: %s\nArchitecture: %s\n' "$version" "$debarch"
    printf 'Maintainer: %s\n' "${DEB_MAINTAINER:-MemoryPressure authors <noreply@memorypressure.invalid>}"
    printf 'Installed-Size: %s\nDepends: %s\nSection: utils\nPriority: optional\n' "$installed" "$depends"
    [ -z "${DEB_HOMEPAGE:-}" ] || printf 'Homepage: %s\n' "$DEB_HOMEPAGE"
    cat <<'EOF'
Description: memory-pressure and purge policy engine: who dies next, and why
 mempressure reads the kill reports that real machines print (Linux kernel OOM
 reports, earlyoom and systemd-oomd logs, Android lmkd and ActivityManager
 logs, iOS JetsamEvent reports) and says who was killed, in what order and
 why. It replays and compares memory-pressure policies (iOS jetsam, Android
 lmkd, the Linux OOM killer, earlyoom, systemd-oomd) on generated phone users,
 traces and real usage logs, and watches this machine's processes with a
 Prometheus metrics endpoint.
EOF
} >"$deb/DEBIAN/control"
chmod 0644 "$deb/DEBIAN/control"
touch --date="@$SOURCE_DATE_EPOCH" "$deb/DEBIAN" "$deb/DEBIAN/control"
debfile="$dist/mempressure_${version}_$debarch.deb"
dpkg-deb --root-owner-group -Zxz --build "$deb" "$debfile" >/dev/null

(cd "$dist" && sha256sum "$name.tar.gz" "$(basename "$debfile")" "$name.debug" >SHA256SUMS)
echo "dist: Depends: $depends"
echo "dist: artifacts (bytes)"
(cd "$dist" && ls -l "$name.tar.gz" "$(basename "$debfile")" "$name.debug" SHA256SUMS | awk '{printf "%12d  %s\n", $5, $9}')
printf '%12d  stripped binary (in both)\n' "$(stat -c %s "$binary")"
printf '%12d  unstripped binary (%s)\n' "$(stat -c %s "$built")" "$built"
