# SPDX-License-Identifier: Apache-2.0
#
# Everyday targets. The real build is Meson (userspace) and Kbuild (driver);
# this file only drives them. See README.md and docs/testing.md.

BUILD      ?= build
BUILD_SAN  ?= build-san
MESON      ?= meson
DEPS_STAMP := $(BUILD)/.deps-ok

# Debian packages the build and the tests need (docs/dependencies.md).
DEB_PKGS := gcc make meson ninja-build pkg-config python3 \
	    libyaml-dev libcmocka-dev gcc-riscv64-unknown-elf \
	    libopenblas-dev libncurses-dev libxlsxwriter-dev \
	    python3-jsonschema tmux

.PHONY: all build deps run test test-unit test-san bench clean distclean help

all: build

help:
	@echo "make          build everything (userspace, into $(BUILD)/)"
	@echo "make deps     install the Debian packages the build needs"
	@echo "make run      boot the embedded chip model, show it, run the multi-core matmul example"
	@echo "make test     all tests, plain and under ASan+UBSan"
	@echo "make bench    benchmarks, one BENCH line per figure"
	@echo "make clean    remove build directories"

deps:
	@scripts/install-deps $(DEB_PKGS)

$(BUILD)/build.ninja:
	$(MESON) setup $(BUILD)

$(BUILD_SAN)/build.ninja:
	$(MESON) setup $(BUILD_SAN) -Db_sanitize=address,undefined \
		-Db_lundef=false -Dbuildtype=debug

build: $(BUILD)/build.ninja
	$(MESON) compile -C $(BUILD)

run: deps
	@$(MAKE) --no-print-directory build
	@$(BUILD)/tools/ttinfo/tt-info
	@$(BUILD)/tools/examples/example-matmul_multi

test: deps
	@$(MAKE) --no-print-directory build
	@$(MAKE) --no-print-directory $(BUILD_SAN)/build.ninja
	@$(MESON) compile -C $(BUILD_SAN)
	@python3 tests/run-suite --build $(BUILD) --build $(BUILD_SAN)

test-unit: build
	@python3 tests/run-suite --build $(BUILD)

bench: deps
	@$(MAKE) --no-print-directory build
	@$(BUILD)/tests/bench/bench-noc
	@$(BUILD)/tests/bench/bench-hart
	@$(BUILD)/tests/bench/bench-idle
	@$(BUILD)/tests/bench/bench-format
	@$(BUILD)/tests/bench/bench-tensix
	@$(BUILD)/tests/bench/bench-kbuild
	@$(BUILD)/tests/bench/bench-buffer
	@$(BUILD)/tests/bench/bench-dispatch
	@$(BUILD)/tests/bench/bench-matmul
	@python3 tests/bench/bench_smi.py $(BUILD)

clean:
	rm -rf $(BUILD) $(BUILD_SAN)
