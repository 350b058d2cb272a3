# flowlayoutd: the two commands a fresh machine needs are `make demo` and
# `make test`. Both install what is missing first (see `deps`).

SWIFT ?= swift
PYTHON ?= python3
SWIFTFLAGS ?= -Xswiftc -warnings-as-errors
SHELL := /bin/bash
DAEMON_DEBUG := .build/debug/flowlayoutd
# The daemon's end-to-end pytest suite, a folder per area (transport, kinds,
# live, fuzz, protocol, web); the Python client's own tests are in
# clients/python/tests.
E2E := Tests/EndToEnd
export PYTHONPATH := $(CURDIR)/clients/python$(if $(PYTHONPATH),:$(PYTHONPATH))

.PHONY: all build release dist install uninstall deps deps-system deps-python deps-web deps-editors demo test test-swift test-embed test-js test-python test-web test-asan fuzz fuzz-build lint format bench clean cookbook

all: build

# jansson (Debian's libjansson-dev, found through pkg-config) is the only
# system library. apt-get needs root; sudo is used when it is there.
deps-system:
	@if ! pkg-config --exists jansson 2>/dev/null; then \
	  echo "installing libjansson-dev and pkg-config"; \
	  SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq libjansson-dev pkg-config >/dev/null; \
	fi

# The test suite's PyPI packages (pytest and the third-party JSON-RPC clients:
# python-lsp-jsonrpc, pygls, pytest-lsp).
deps-python:
	@$(PYTHON) -c "import pytest, pylsp_jsonrpc, hypothesis, pygls, pytest_lsp, PIL" 2>/dev/null || \
	  $(PYTHON) -m pip install -q --disable-pip-version-check -r Tests/EndToEnd/requirements.txt

# The web client's browser tests: Debian's chromium and chromium-driver,
# and PyPI's selenium.
deps-web:
	@if ! chromium --version >/dev/null 2>&1 || ! chromedriver --version >/dev/null 2>&1; then \
	  echo "installing chromium and chromium-driver"; \
	  SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium chromium-driver >/dev/null; \
	fi
	@$(PYTHON) -c "import selenium" 2>/dev/null || \
	  $(PYTHON) -m pip install -q --disable-pip-version-check "selenium>=4.11"

# The editors whose own JSON-RPC clients transport/test_editor_clients.py drives the
# daemon with: Debian's neovim (vim.lsp) and emacs-nox (jsonrpc.el).
deps-editors:
	@if ! command -v nvim >/dev/null 2>&1 || ! command -v emacs >/dev/null 2>&1; then \
	  echo "installing neovim and emacs-nox"; \
	  SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq neovim emacs-nox >/dev/null; \
	fi

deps: deps-system deps-python

build: deps-system
	$(SWIFT) build $(SWIFTFLAGS)

release: deps-system
	$(SWIFT) build -c release $(SWIFTFLAGS)

# The main job: the seed carousel driven by the Python client.
demo: build
	@FLOWLAYOUTD=$(DAEMON_DEBUG) $(PYTHON) -m flowlayout demo

test: deps lint test-swift test-embed test-js test-python test-web test-asan fuzz dist

# Unit tests with the engine's internal checks on: every commit's layout
# is checked whole (Sources/LayoutEngine/Invariants.swift).
test-swift: deps-system
	$(SWIFT) build --build-tests $(SWIFTFLAGS)
	FLOWLAYOUT_INTERNAL_CHECKS=1 $(SWIFT) test --skip-build

# A separate Swift package that depends on this one by path and uses both
# library products: the engine in process and the daemon through
# FlowLayoutClient, checking that they agree to the bit.
test-embed: build
	cd examples/embed-swift && $(SWIFT) build $(SWIFTFLAGS)
	FLOWLAYOUTD=$(CURDIR)/$(DAEMON_DEBUG) examples/embed-swift/.build/debug/embed-swift

# The JavaScript client, zero dependencies, under Node's own test runner.
test-js: build
	FLOWLAYOUTD=$(CURDIR)/$(DAEMON_DEBUG) node --test clients/js/

# The daemon's end-to-end suite (E2E) and the Python client's own tests.
test-python: build release deps-python deps-editors
	FLOWLAYOUTD=$(DAEMON_DEBUG) FLOWLAYOUT_RELEASE=$(CURDIR)/.build/release/flowlayoutd \
	  $(PYTHON) -m pytest -q -p no:cacheprovider $(E2E) clients/python/tests \
	  --ignore=$(E2E)/web/test_web.py

# The web client in headless Chromium, through `flowlayout web`; saves
# artifacts/web-client.png and copies it to docs/web-client.png.
test-web: build deps-python deps-web
	FLOWLAYOUTD=$(DAEMON_DEBUG) $(PYTHON) -m pytest -q -p no:cacheprovider $(E2E)/web/test_web.py

# The unit tests and the end-to-end suite again, with everything built under
# AddressSanitizer (its leak checker on for the daemon). The daemon is
# single-threaded, so ThreadSanitizer has nothing to check.
ASAN_BUILD := .build/asan
test-asan: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path $(ASAN_BUILD) $(SWIFTFLAGS)
	@# XCTest keeps its test cases alive at exit; the leak check is for the daemon.
	ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --skip-build --sanitize=address --scratch-path $(ASAN_BUILD)
	@# The property tests run fewer examples here: the plain run covers them.
	FLOWLAYOUTD=$(ASAN_BUILD)/debug/flowlayoutd SWIFT_BACKTRACE=enable=no \
	  PROPERTY_EXAMPLES=8 FUZZ_EXAMPLES=6 FLOWLAYOUT_TIMEOUT_SCALE=6 \
	  $(PYTHON) -m pytest -q -p no:cacheprovider -x $(E2E) clients/python/tests \
	  --ignore=$(E2E)/web/test_web.py --ignore=$(E2E)/web/test_web_bridge.py

# libFuzzer over the framing reader, the JSON-RPC layer and the methods, with
# live sessions, under AddressSanitizer; seeded from protocol.md's examples;
# then the hypothesis state machine against the daemon, for about as long.
# `make fuzz SECONDS=600` for a long run; the test command runs a short one.
SECONDS ?= 30
FUZZ_BUILD := .build/fuzz
fuzz-build: deps-system
	$(SWIFT) build --product flowlayout-fuzz --scratch-path $(FUZZ_BUILD) \
	  -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -DFUZZING
fuzz: fuzz-build build deps-python
	@$(PYTHON) clients/fuzz/make_corpus.py $(FUZZ_BUILD)/corpus
	@mkdir -p $(FUZZ_BUILD)/artifacts
	@SWIFT_BACKTRACE=enable=no FLOWLAYOUT_INTERNAL_CHECKS=1 $(FUZZ_BUILD)/debug/flowlayout-fuzz $(FUZZ_BUILD)/corpus \
	  clients/fuzz/regressions -max_len=8192 -max_total_time=$(SECONDS) \
	  -artifact_prefix=$(FUZZ_BUILD)/artifacts/ -print_final_stats=1 > $(FUZZ_BUILD)/fuzz.log 2>&1; \
	  status=$$?; grep -E "cov:" $(FUZZ_BUILD)/fuzz.log | tail -1; \
	  grep -E "^(Done|stat::number_of_executed_units|stat::peak_rss)" $(FUZZ_BUILD)/fuzz.log; \
	  if [ $$status -ne 0 ]; then grep -E -A30 "ERROR|Fatal error" $(FUZZ_BUILD)/fuzz.log | head -60; \
	    echo "fuzz: failure; the input is in $(FUZZ_BUILD)/artifacts/"; exit 1; fi
	@# Then the stateful property test against the built daemon: random valid
	@# and invalid requests, about three examples a second.
	FLOWLAYOUTD=$(DAEMON_DEBUG) FLOWLAYOUT_INTERNAL_CHECKS=1 FUZZ_EXAMPLES=$$(( $(SECONDS) * 3 )) \
	  $(PYTHON) -m pytest -q -p no:cacheprovider $(E2E)/fuzz/test_stateful_fuzz.py

lint:
	$(SWIFT) format lint --strict -r Sources Tests Package.swift

format:
	$(SWIFT) format -i -r Sources Tests Package.swift

# The benchmark suite of the performance issue (not part of test): the
# release daemon and a minimal C + jansson echo server (bench/floor.c, the
# floor) driven over pipes by bench/run.py, the in-process engine benchmarks
# (flowlayout-bench), memory, load, cold start, and two peers (Taffy and
# Yoga, pip-installed into .build/bench-peers). Prints one Markdown table and
# the targets, and writes bench/results.json (and bench/results.md).
# The issue's sizes, 1e3, 1e5 and 1e7 items, each loaded through the bulk
# path (about 3 minutes); `make bench BENCH_N="1000 100000 1000000"` is quicker.
BENCH_N ?= 1000 100000 10000000
BENCH_FLOOR := .build/bench/floor
# A standalone daemon an editor or a tool can ship as one file: a static
# executable (the Swift runtime, jansson and libc linked in), so `ldd`
# finds no shared library at all and it starts in under a millisecond.
# The linker's note about dlopen in a static program comes from the Swift
# runtime's optional prespecializations, which it does without.
DIST := .build/dist/flowlayoutd
dist: deps-system
	$(SWIFT) build -c release --product flowlayoutd --scratch-path .build/dist-build \
	  -Xswiftc -static-executable $(SWIFTFLAGS)
	@mkdir -p $(dir $(DIST))
	cp .build/dist-build/release/flowlayoutd $(DIST)
	@if ldd $(DIST) 2>&1 | grep -q libswift; then echo "$(DIST) links libswift dynamically" >&2; exit 1; fi
	@ldd $(DIST) 2>&1 | sed 's|^|ldd $(DIST): |'
	FLOWLAYOUTD=$(CURDIR)/$(DIST) $(PYTHON) -m pytest -q -p no:cacheprovider \
	  $(E2E)/protocol/test_protocol_examples.py $(E2E)/transport/test_lifecycle.py

# `make install PREFIX=…` (default /usr/local): the static daemon as
# PREFIX/bin/flowlayoutd and the Python client's `flowlayout` command (in a
# virtualenv of its own under PREFIX/lib/flowlayout, with the web page and
# the png extra, Pillow from PyPI, so that `render --out view.png` works), so
# that with PREFIX/bin on PATH `flowlayout demo`, `render` and `web` work
# from any directory. INSTALL_DAEMON=path installs that build instead of
# making `dist` (the test installs the daemon it tests). `make uninstall
# PREFIX=…` removes them.
PREFIX ?= /usr/local
INSTALL_DAEMON ?=
INSTALL_LIB := $(PREFIX)/lib/flowlayout
install: deps-system
	@if [ -z "$(INSTALL_DAEMON)" ]; then $(MAKE) --no-print-directory dist; fi
	install -d "$(PREFIX)/bin" "$(INSTALL_LIB)"
	install -m 755 "$(or $(INSTALL_DAEMON),$(DIST))" "$(PREFIX)/bin/flowlayoutd"
	rm -rf "$(INSTALL_LIB)/venv"
	$(PYTHON) -m venv "$(INSTALL_LIB)/venv"
	"$(INSTALL_LIB)/venv/bin/python" -m pip install -q --disable-pip-version-check "./clients/python[png]"
	ln -sf "../lib/flowlayout/venv/bin/flowlayout" "$(PREFIX)/bin/flowlayout"
	@echo "installed $(PREFIX)/bin/flowlayoutd and $(PREFIX)/bin/flowlayout"

uninstall:
	rm -f "$(PREFIX)/bin/flowlayoutd" "$(PREFIX)/bin/flowlayout"
	rm -rf "$(INSTALL_LIB)"

# The cookbook's pictures (docs/cookbook/img): every recipe under examples/
# drawn by `flowlayout render`; make test checks that they are current.
cookbook: build deps-python
	@mkdir -p docs/cookbook/img
	@for f in examples/*/*.jsonl; do \
	  t=$$(basename $$(dirname $$f)); n=$$(basename $$f .jsonl); \
	  FLOWLAYOUTD=$(CURDIR)/$(DAEMON_DEBUG) $(PYTHON) -m flowlayout render --session-script $$f \
	    --out docs/cookbook/img/$$t-$$n.png || exit 1; \
	done

bench: deps-system dist
	$(SWIFT) build -c release --product flowlayoutd $(SWIFTFLAGS)
	$(SWIFT) build -c release --product flowlayout-bench $(SWIFTFLAGS)
	@# The number-formatting property test runs at 10^7 doubles here.
	$(SWIFT) build --build-tests $(SWIFTFLAGS)
	@mkdir -p $(dir $(BENCH_FLOOR))
	$(CC) -O2 -Wall -o $(BENCH_FLOOR) bench/floor.c $$(pkg-config --cflags --libs jansson)
	$(CC) -O2 -Wall -o $(dir $(BENCH_FLOOR))jansson_parse bench/jansson_parse.c $$(pkg-config --cflags --libs jansson)
	BENCH_N="$(BENCH_N)" $(PYTHON) bench/run.py

clean:
	rm -rf .build
