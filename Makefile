# flowlayoutd: the two commands a fresh machine needs are `make demo` and
# `make test`. Both install what is missing first (see `deps`).

SWIFT ?= swift
PYTHON ?= python3
SWIFTFLAGS ?= -Xswiftc -warnings-as-errors
DAEMON_DEBUG := .build/debug/flowlayoutd
export PYTHONPATH := $(CURDIR)/clients/python$(if $(PYTHONPATH),:$(PYTHONPATH))

.PHONY: all build release deps deps-system deps-python demo test test-swift test-python lint format bench clean

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

# The test suite's PyPI packages (pytest and a third-party JSON-RPC client).
deps-python:
	@$(PYTHON) -c "import pytest, pylsp_jsonrpc" 2>/dev/null || \
	  $(PYTHON) -m pip install -q --disable-pip-version-check -r clients/python/tests/requirements.txt

deps: deps-system deps-python

build: deps-system
	$(SWIFT) build $(SWIFTFLAGS)

release: deps-system
	$(SWIFT) build -c release $(SWIFTFLAGS)

# The main job: the seed carousel driven by the Python client.
demo: build
	@FLOWLAYOUTD=$(DAEMON_DEBUG) $(PYTHON) -m flowlayout demo

test: deps lint test-swift test-python

test-swift: deps-system
	$(SWIFT) build --build-tests $(SWIFTFLAGS)
	$(SWIFT) test --skip-build

test-python: build deps-python
	FLOWLAYOUTD=$(DAEMON_DEBUG) $(PYTHON) -m pytest -q -p no:cacheprovider clients/python/tests

lint:
	$(SWIFT) format lint --strict -r Sources Tests Package.swift

format:
	$(SWIFT) format -i -r Sources Tests Package.swift

# In-process engine and handler benchmarks, release build (not part of test).
BENCH_SIZES ?= 1000 100000 1000000
bench: deps-system
	$(SWIFT) build -c release --product flowlayout-bench $(SWIFTFLAGS)
	@for n in $(BENCH_SIZES); do .build/release/flowlayout-bench $$n; echo; done

clean:
	rm -rf .build
