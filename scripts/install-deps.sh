#!/usr/bin/env bash
# Installs what the package needs from Debian, only if it is missing:
# - libjemalloc-dev: the CJemalloc system library (real per-app arenas);
# - earlyoom: its --dryrun is the reference the earlyoom policy is checked against.
set -euo pipefail

missing=()
pkg-config --exists jemalloc 2>/dev/null || missing+=(libjemalloc-dev)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkgconf)
command -v earlyoom >/dev/null 2>&1 || missing+=(earlyoom)

if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
