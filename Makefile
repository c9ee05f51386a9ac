# The two commands of the README's quick start, plus the benchmarks.
.PHONY: deps run test benchmarks install fuzz sanitizers docs-check

# Where `make install` puts bin/mempressure.
PREFIX ?= /usr/local

# System packages (libjemalloc-dev, earlyoom), installed only when missing.
deps:
	scripts/install-deps.sh

# The main job: every shipped policy on the built-in phone workload, side by side.
run: deps
	swift run -c release mempressure compare

# The whole test suite.
test: deps
	swift test

# Every benchmark (separate package; see Benchmarks/README.md).
benchmarks: deps
	cd Benchmarks && swift package --disable-sandbox benchmark

# Installs the release binary as $(PREFIX)/bin/mempressure; it carries its policies, so it runs
# from anywhere (it needs libjemalloc at run time).
install: deps
	swift build -c release --product mempressure
	install -d "$(PREFIX)/bin"
	install -m 755 "$$(swift build -c release --show-bin-path)/mempressure" "$(PREFIX)/bin/mempressure"

# Every parser fuzzed for a minute each (libFuzzer; scripts/fuzz.sh TARGET SECONDS for one).
fuzz: deps
	for target in policy snapshot trace workload usage-log; do scripts/fuzz.sh $$target 60 || exit 1; done

# The test suite under AddressSanitizer and ThreadSanitizer (scripts/sanitizers.sh).
sanitizers: deps
	scripts/sanitizers.sh

# Every public declaration of the library has a doc comment, and every public function states
# its cost (`- Complexity:`); lists the gaps with file:line (scripts/check-docs.py).
docs-check:
	scripts/check-docs.py
