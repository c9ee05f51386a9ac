#!/usr/bin/env bash
# Installs what the package needs from Debian, only if it is missing:
# - libjemalloc-dev: the CJemalloc system library (real per-app arenas);
# - earlyoom: its --dryrun is the reference the earlyoom policy is checked against;
# - libcrypt-dev: the CCrypt system library (bcrypt checks of the metrics endpoint's users);
# - openssl and curl: the metrics endpoint's TLS tests make a certificate and scrape as a real
#   TLS client;
# - binutils, dpkg-dev and man-db: `make dist` strips the binary (objcopy) and computes the .deb's
#   Depends (dpkg-shlibdeps); `make dist-check` renders the man page (man -l);
# - kubernetes-validate (PyPI): validates deploy/kubernetes/sweep-job.yaml offline in the tests
#   (they skip that check, saying so, when it is absent).
set -euo pipefail

if ! command -v kubernetes-validate >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
    echo "install-deps: installing kubernetes-validate (pip)" >&2
    python3 -m pip install --quiet --user kubernetes-validate >/dev/null 2>&1 \
        || python3 -m pip install --quiet --user --break-system-packages kubernetes-validate >/dev/null 2>&1 \
        || echo "install-deps: could not install kubernetes-validate; the manifest test will be skipped" >&2
fi

missing=()
pkg-config --exists jemalloc 2>/dev/null || missing+=(libjemalloc-dev)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkgconf)
command -v earlyoom >/dev/null 2>&1 || missing+=(earlyoom)
[ -f /usr/include/crypt.h ] || missing+=(libcrypt-dev)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v objcopy >/dev/null 2>&1 || missing+=(binutils)
command -v dpkg-shlibdeps >/dev/null 2>&1 || missing+=(dpkg-dev)
command -v man >/dev/null 2>&1 || missing+=(man-db)

if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
