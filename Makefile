# The two commands of the README's quick start, plus the benchmarks.
.PHONY: deps run test check test-machine test-release test-checks benchmarks install dist dist-check fuzz sanitizers docs-check docs format format-check

# Where `make install` puts bin/mempressure.
PREFIX ?= /usr/local

# System packages (libjemalloc-dev, earlyoom), installed only when missing.
deps:
	scripts/install-deps.sh

# The main job: every shipped policy on the built-in phone workload, side by side. Built without the
# TLS trait (compare serves nothing), which leaves swift-nio-ssl's BoringSSL out of a first build;
# `make install` builds the binary with TLS.
run: deps
	swift run -c release --disable-default-traits mempressure compare

# The test suite, except the machine-dependent tests (tag `machine`: live /proc, earlyoom, child
# processes holding hundreds of MiB), which `make test-machine` runs. TEST_ARGS adds arguments to
# `swift test` (CI passes `--skip` for the two suites `make test-checks` runs, checked, on the same
# build: .ci/run).
TEST_ARGS ?=
test: deps
	swift test $(TEST_ARGS)

# The fast local loop for a change to ordinary library code (minutes, incremental): the tree's
# formatting, every public declaration documented, then the test suite. docs/ci.md says what a
# change to concurrency, a parser, the build or CI needs besides.
check: format-check docs-check test

# The machine-dependent tests alone (they are skipped by `make test`).
test-machine: deps
	MEMORYPRESSURE_MACHINE_TESTS=1 swift test --filter "$$(scripts/machine-test-suites.sh)"

# The whole suite built for release (optimizer on), with the 10-million-id churn of LongRunTests,
# the command-line suites included. CI's release run is AddressSanitizer's release build instead
# (scripts/sanitizers.sh), which runs every suite but the command-line ones, with the same churn.
test-release: deps
	MEMORYPRESSURE_CHURN=10000000 swift test -c release --scratch-path .build-release

# The heap's and the engine's suites with every invariant checked after every mutation (O(n)
# each), on `make test`'s own debug build: in a debug build the checks follow the
# MEMORYPRESSURE_INTERNAL_CHECKS environment variable (Sources/IndexedHeapModule/InternalChecks.swift),
# so no second build is needed. The other targets only drive the same code.
test-checks: deps
	swift build --build-tests
	MEMORYPRESSURE_INTERNAL_CHECKS=1 swift test --skip-build --filter "IndexedHeapModuleTests|MemoryPressureTests"

# Every benchmark (separate package; see Benchmarks/README.md).
benchmarks: deps
	cd Benchmarks && swift package --disable-sandbox benchmark

# Installs the release binary as $(PREFIX)/bin/mempressure: `make dist`'s binary (the Swift
# runtime linked in, stripped, the commit stamped for --version; its build folder is shared with
# `make dist`). It carries its policies, so it runs from anywhere; it needs libjemalloc2 at run time.
install: deps
	scripts/dist.sh binary
	install -d "$(PREFIX)/bin"
	install -m 755 dist/mempressure "$(PREFIX)/bin/mempressure"

# The release artifacts in dist/: the tarball and the .deb (binary, man pages, completions,
# licence), the debug symbols and SHA256SUMS (scripts/dist.sh; docs/install.md).
dist: deps
	scripts/dist.sh

# What `make dist` made, checked as a user meets it: the tarball's binary run from an empty folder
# with no Swift on the path, no Swift library in ldd, the .deb's Depends and contents, the man page
# rendered (scripts/check-dist.sh; `scripts/check-dist.sh --install` also installs and removes the
# .deb, as root).
dist-check:
	scripts/check-dist.sh

# Every parser fuzzed for a minute each, as many at once as there are cores (libFuzzer;
# scripts/fuzz.sh TARGET SECONDS for one).
fuzz: deps
	scripts/fuzz.sh all 60

# The suites under AddressSanitizer (release, the 10-million-id churn) and ThreadSanitizer (debug),
# without the TLS trait and the command-line suites (scripts/sanitizers.sh says why).
sanitizers: deps
	scripts/sanitizers.sh

# Every public declaration of the library has a doc comment, and every public function states
# its cost (`- Complexity:`); lists the gaps with file:line (scripts/check-docs.py).
docs-check:
	scripts/check-docs.py

# Every library's DocC catalog built; a symbol link that does not resolve fails (scripts/build-docs.sh);
# archives under .build/plugins/Swift-DocC/outputs/.
docs: deps docs-check
	scripts/build-docs.sh

# Every Swift file (the library, the tests, the benchmarks, the fuzzers, the manifests) formatted
# with the repository's .swift-format (4 spaces, 120 columns); format-check fails on any difference
# (CI runs it), format rewrites the files.
SWIFT_FILES = Package.swift Sources Tests Benchmarks/Package.swift Benchmarks/Benchmarks Fuzz/Package.swift Fuzz/Sources
format-check:
	swift format lint --strict --recursive --configuration .swift-format $(SWIFT_FILES)

format:
	swift format --in-place --recursive --configuration .swift-format $(SWIFT_FILES)
