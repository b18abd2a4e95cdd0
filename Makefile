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
	    libyaml-dev libudev-dev libcmocka-dev gcc-riscv64-unknown-elf \
	    libopenblas-dev libncurses-dev libxlsxwriter-dev \
	    python3-jsonschema python3-numpy python3-torch tmux \
	    linux-headers-amd64 linux-image-amd64 sparse \
	    qemu-system-x86 busybox-static g++ \
	    linux-source-6.1 xz-utils bc flex bison libelf-dev \
	    clang mlir-15-tools \
	    libonnx-dev libonnx-testdata protobuf-c-compiler libprotobuf-c-dev \
	    python3-onnx python3-torchvision

# The kernel module is built out of tree in $(BUILD)/driver, from links to
# driver/, so the source tree gets no build products. KDIR: the running
# kernel's build directory, else the Debian 6.1 kernel the VM tests boot.
# "make driver W=1 C=2" adds kernel warnings and sparse; DRIVER_OUT=DIR
# builds elsewhere (the VM tests build one copy per guest kernel).
DRIVER_OUT ?= $(abspath $(BUILD))/driver
KDIR ?= $(firstword $(wildcard /lib/modules/$(shell uname -r)/build) \
	$(shell python3 tests/vm/kernel.py --kdir))

.PHONY: all build deps run test test-unit test-san bench clean distclean help \
	driver driver-clean driver-install dkms-tree dkms-install vm-test \
	debug-kernel mutate

# The VM tests' guest kernels: both (default), or VM_KERNEL=debian|debug
# (also for the vm test inside "make test", through the environment).
VM_KERNEL ?=
export TT_VM_KERNEL := $(VM_KERNEL)

all: build

help:
	@echo "make          build everything (userspace, into $(BUILD)/)"
	@echo "make deps     install the Debian packages the build needs"
	@echo "make run      boot the embedded chip model, show it, compile and run the models (models/, ResNet-18 from ONNX)"
	@echo "make test     all tests, plain and under ASan+UBSan, and the VM tests"
	@echo "make driver   build the kernel module tenstorrent.ko (into $(BUILD)/driver/)"
	@echo "make driver-install  install tenstorrent.ko for KDIR and the udev rule (root; DESTDIR= stages)"
	@echo "make dkms-install    install the driver as a DKMS package (root; DESTDIR= stages)"
	@echo "make vm-test  only the VM tests of the kernel module (QEMU, both kernels)"
	@echo "make debug-kernel  build the VM tests' debug kernel if it is not cached"
	@echo "make bench    benchmarks, one BENCH line per figure"
	@echo "make mutate   mutation testing: plant each bug of tests/mutate/mutants.ini, check the tests catch it (MUTANTS=slug...)"
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
	@scripts/run-models $(BUILD)

test: deps
	@$(MAKE) --no-print-directory build
	@$(MAKE) --no-print-directory debug-kernel
	@$(MAKE) --no-print-directory $(BUILD_SAN)/build.ninja
	@$(MESON) compile -C $(BUILD_SAN)
	@python3 tests/run-suite --build $(BUILD) --build $(BUILD_SAN)

vm-test: deps
	@$(MAKE) --no-print-directory debug-kernel
	@python3 tests/vm/run-vm --build $(BUILD)

# The debug kernel (KASAN, lockdep, kmemleak, UBSAN, KUnit) of the VM tests,
# cached outside the tree (tests/vm/debug_kernel.py). The first time, it takes
# a few minutes; afterwards a second or so (hashing its inputs).
debug-kernel:
	@$(if $(filter debian,$(VM_KERNEL)),true,\
		python3 tests/vm/debug_kernel.py >/dev/null)

driver:
	@test -f "$(KDIR)/Makefile" || { echo "make driver: no kernel build" \
		"directory (KDIR=$(KDIR)); make deps installs the headers" >&2; \
		exit 1; }
	@mkdir -p $(DRIVER_OUT)
	@find $(DRIVER_OUT) -maxdepth 1 -xtype l -delete
	@ln -sf $(abspath driver)/Kbuild $(abspath driver)/*.[ch] $(DRIVER_OUT)/
	$(MAKE) -C $(KDIR) M=$(DRIVER_OUT) modules

driver-clean:
	@if [ -f "$(KDIR)/Makefile" ] && [ -d $(DRIVER_OUT) ]; then \
		$(MAKE) -C $(KDIR) M=$(DRIVER_OUT) clean; fi

# Installing the driver (driver/README.md): for one kernel (KDIR), or as a
# DKMS package that is rebuilt for every kernel. DESTDIR stages the files
# (packaging); without it, root installs into the system.
UDEV_RULE := $(DESTDIR)/etc/udev/rules.d/50-tenstorrent.rules

driver-install: driver
	$(MAKE) -C $(KDIR) M=$(DRIVER_OUT) INSTALL_MOD_PATH=$(DESTDIR) \
		modules_install
	install -D -m 0644 driver/udev-50-tenstorrent.rules $(UDEV_RULE)

dkms-tree:
	@python3 driver/dkms-tree $(BUILD)/dkms

dkms-install:
	@set -e; src=$$(python3 driver/dkms-tree $(BUILD)/dkms); \
	ver=$${src##*/tenstorrent-}; \
	install -d $(DESTDIR)/usr/src; \
	rm -rf $(DESTDIR)/usr/src/tenstorrent-$$ver; \
	cp -r $$src $(DESTDIR)/usr/src/; \
	install -D -m 0644 driver/udev-50-tenstorrent.rules $(UDEV_RULE); \
	if [ -z "$(DESTDIR)" ]; then \
		dkms install -m tenstorrent -v $$ver; \
	else echo "staged /usr/src/tenstorrent-$$ver in $(DESTDIR)"; fi

# Mutation testing (docs/testing.md, "Mutation testing"): not part of
# "make test", each mutant costs a build and a test run. It works on a copy
# of the tree in build-mutate/; MUTANTS="slug ..." runs only those.
MUTANTS ?=
mutate: deps
	@$(MAKE) --no-print-directory build
	@python3 scripts/mutate $(foreach m,$(MUTANTS),--only $(m))

test-unit: build
	@python3 tests/run-suite --build $(BUILD)

bench: deps
	@$(MAKE) --no-print-directory build
	@$(BUILD)/tests/bench/bench-noc
	@$(BUILD)/tests/bench/bench-hart
	@$(BUILD)/tests/bench/bench-idle
	@$(BUILD)/tests/bench/bench-tilize
	@$(BUILD)/tests/bench/bench-queue
	@$(BUILD)/tests/bench/bench-tensix
	@$(BUILD)/tests/bench/bench-kbuild
	@$(BUILD)/tests/bench/bench-buffer
	@$(BUILD)/tests/bench/bench-dispatch
	@$(BUILD)/tests/bench/bench-matmul
	@$(BUILD)/tests/bench/bench-ttir
	@$(BUILD)/tests/bench/bench-ops
	@$(BUILD)/tests/bench/bench-ops-norm
	@$(BUILD)/tests/bench/bench-ops-conv
	@$(BUILD)/tests/bench/bench-golden
	@$(BUILD)/tests/bench/bench-ops-matmul
	@$(BUILD)/tests/bench/bench-model $(CURDIR)
	@/usr/bin/python3 tests/bench/bench_onnx.py $(BUILD)/tools/ttc/ttc
	@python3 tests/bench/bench_smi.py $(BUILD)
	@python3 tests/vm/run-vm --build $(BUILD) --bench

clean:
	rm -rf $(BUILD) $(BUILD_SAN)
