# gfptop: see the page allocator's reserve decisions, before and after
# "Discard __GFP_ATOMIC". This Makefile is the single entry point; `make help`.

BUILD := $(CURDIR)/build
KERNEL ?= after
export BUILD

.DEFAULT_GOAL := help
.PHONY: help deps deps-build kernels kernel-before kernel-after kernel-stock gfptop rootfs boot demo test unit-test compare bench clean

help:
	@echo "gfptop make targets:"
	@echo "  make demo        boot the after kernel under stress-ng and show its reserve tiers"
	@echo "  make test        build everything and run all tests (patches + guest kernels); ends with 'N passed, N failed, N skipped'"
	@echo "  make deps        install the Debian packages gfptop needs (run by the targets below)"
	@echo "  make kernels     build the before and after guest kernels under $(notdir $(BUILD))/"
	@echo "  make gfptop      build the gfptop loader (static; CO-RE BPF, no kernel needed)"
	@echo "  make rootfs      build the guest initramfs (busybox, stress-ng, bpftool, gfptop)"
	@echo "  make unit-test   the loader's unit tests only (cmocka, no kernel needed)"
	@echo "  make compare     before/after report under stress-ng (build/report/); FULL=1 for the full matrix"
	@echo "                   KERNELS=debian-6.1,debian-6.12: Debian's own images as the columns"
	@echo "  make bench       cost of gfptop (both sources) vs its floors, perf record and tracefs, per kernel,"
	@echo "                   and of the disabled tracepoint; BENCH_KERNELS=debian-6.1,debian-6.12,after"
	@echo "                   (default: those of the three that exist), BENCH_JOBS=N guests at once"
	@echo "  make boot        interactive shell in a guest: KERNEL=before|after (default after)"
	@echo "  make kernel-stock  the unpatched kernel the tests use to check gfptop's error path"
	@echo "  make clean       remove build/ (kernel trees, rootfs, binaries, results)"

deps:
	@guest/install-deps

# only what building gfptop and its unit tests needs (no kernel source,
# QEMU or perf)
deps-build:
	@guest/install-deps build

kernels: kernel-before kernel-after

kernel-before kernel-after kernel-stock: kernel-%: deps
	guest/build-kernel $*

# No kernel needed: the BPF side builds from bpf/kernel_types.h (CO-RE).
gfptop: deps-build
	$(MAKE) --no-print-directory -f user/gfptop.mk $(BUILD)/gfptop

rootfs: deps gfptop
	guest/build-rootfs $(BUILD)/gfptop

unit-test: deps-build
	$(MAKE) --no-print-directory -f user/gfptop.mk unit-test

boot: kernel-$(KERNEL) rootfs
	guest/run -k $(KERNEL) -i

demo: kernel-after rootfs
	guest/run -k after -m 256 -c 2 -t 900 -o $(BUILD)/run/demo -- sh /host/guest/vm/demo.sh

# FULL=1 and KERNELS=A,B reach guest/compare through the environment;
# with KERNELS (debian-6.1,debian-6.12, say) our kernels are not built
compare: $(if $(KERNELS),,kernels) rootfs
	guest/compare

# BENCH_KERNELS=A,B (after, 6.12, debian-6.1, debian-6.12) and
# BENCH_JOBS=N reach guest/bench through the environment; our kernels are
# built only when the list names them (or is empty: the default has after)
comma := ,
bench_kinds := $(subst $(comma), ,$(BENCH_KERNELS))
bench: $(if $(bench_kinds),$(if $(filter after,$(bench_kinds)),kernel-after kernel-stock),kernel-after kernel-stock) rootfs
	guest/bench $(if $(BENCH_KERNELS),-k $(BENCH_KERNELS))

test: deps
	tests/run

clean:
	rm -rf $(BUILD)
