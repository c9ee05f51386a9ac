#!/usr/bin/env bash
# Prints a `swift test --filter` pattern naming every test type that holds machine-dependent
# tests (`.tags(.machine)`, see Tests/TestSupport/MachineDependent.swift): `make test-machine`.
set -euo pipefail
cd "$(dirname "$0")/.."
grep -rl --include='*.swift' 'tags(\.machine)' Tests \
    | xargs grep -ho '^\(@Suite[^{]*\)\?\(final \)\?\(struct\|class\) [A-Za-z0-9_]*' \
    | sed 's/.*\(struct\|class\) //' | sort -u | paste -sd'|'
