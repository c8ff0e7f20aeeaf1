# Build rules for gfptop (bpf/ + user/) and its unit tests. Included by
# the top-level Makefile; also usable alone:
#   make -f user/gfptop.mk BUILD=build build/gfptop unit-test
# Everything it writes is under $(BUILD): obj/, gfptop, tests. No kernel
# is needed: the BPF side compiles against bpf/kernel_types.h, and CO-RE
# relocates it against the running kernel's BTF.

BUILD ?= build

GFPTOP_CLANG ?= clang
GFPTOP_STRIP ?= llvm-strip
GFPTOP_BPFTOOL ?= bpftool
GFPTOP_OBJ := $(BUILD)/obj
GFPTOP_CC ?= $(CC)

# sources of the loader; collect.c and gfptop.c are the only ones that
# need the skeleton (and so the BPF object), kcheck.c and progs.c the
# only others that need libbpf
GFPTOP_LIB_SRCS := tpformat.c gfpclass.c merge.c report.c format.c json.c \
	outfile.c output.c options.c prom.c krules.c source.c procs.c zoneinfo.c
GFPTOP_SRCS := $(GFPTOP_LIB_SRCS) kcheck.c progs.c ksetup.c collect.c gfptop.c
# common/: what user/ shares with bpf/ (the ABI) and compare/ (the names)
GFPTOP_COMMON_OBJS := $(GFPTOP_OBJ)/common/names.o $(GFPTOP_OBJ)/common/rule_sets.o
GFPTOP_LIB_OBJS := $(addprefix $(GFPTOP_OBJ)/user/,$(GFPTOP_LIB_SRCS:.c=.o)) $(GFPTOP_COMMON_OBJS)
GFPTOP_OBJS := $(addprefix $(GFPTOP_OBJ)/user/,$(GFPTOP_SRCS:.c=.o)) $(GFPTOP_COMMON_OBJS)

# libtraceevent parses the tracepoint format files (user/tpformat.c)
GFPTOP_TEP_CFLAGS := $(shell pkg-config --cflags libtraceevent)
GFPTOP_TEP_LIBS := $(shell pkg-config --libs libtraceevent)
GFPTOP_CFLAGS := -O2 -g -Wall -Wextra -Wno-unused-parameter -Werror -std=gnu11 \
	-Icommon -Iuser -I$(GFPTOP_OBJ) $(GFPTOP_TEP_CFLAGS)
# static: the guest rootfs has no shared libraries for gfptop. libelf
# of Debian 12 needs zstd as well as zlib. tep_free() drags in
# libtraceevent.a's plugin loader, so the link warns about dlopen in a
# static program; gfptop never calls tep_load_plugins(), so it never runs.
GFPTOP_LDLIBS := -static -lbpf -lelf -lz -lzstd -ljson-c $(GFPTOP_TEP_LIBS) -lm

# GFPTOP_BPF_EXTRA: more flags (guest/bench: -DGFPTOP_BENCH_FLOOR)
GFPTOP_BPF_CFLAGS := -target bpf -D__TARGET_ARCH_x86 -g -O2 -Wall -Werror \
	-Ibpf -Icommon $(GFPTOP_BPF_EXTRA)

.PHONY: unit-test

# One object for every kernel: CO-RE relocates its reads of
# bpf/kernel_types.h's types at load time (tests/core-relocs.sh checks
# them against the guest kernels' BTF).
$(GFPTOP_OBJ)/gfptop.bpf.o: bpf/gfptop.bpf.c common/gfptop_abi.h common/gfptop_tiers.h common/gfptop_rules.h \
		bpf/count.bpf.h bpf/shadow.bpf.h bpf/probe.bpf.h bpf/kernel_types.h
	@mkdir -p $(@D)
	$(GFPTOP_CLANG) $(GFPTOP_BPF_CFLAGS) -c $< -o $@
	$(GFPTOP_STRIP) -g $@

# (llvm-strip -g above drops DWARF and keeps .BTF)
$(GFPTOP_OBJ)/gfptop.skel.h: $(GFPTOP_OBJ)/gfptop.bpf.o
	$(GFPTOP_BPFTOOL) gen skeleton $< name gfptop_bpf > $@.tmp
	mv $@.tmp $@

$(GFPTOP_OBJ)/user/collect.o $(GFPTOP_OBJ)/user/gfptop.o: $(GFPTOP_OBJ)/gfptop.skel.h

$(GFPTOP_OBJ)/user/%.o: user/%.c
	@mkdir -p $(@D)
	$(GFPTOP_CC) $(GFPTOP_CFLAGS) -MMD -MP -c $< -o $@

$(GFPTOP_OBJ)/common/%.o: common/%.c
	@mkdir -p $(@D)
	$(GFPTOP_CC) $(GFPTOP_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/gfptop: $(GFPTOP_OBJS)
	$(GFPTOP_CC) $(GFPTOP_CFLAGS) -o $@ $^ $(GFPTOP_LDLIBS)

# ---- unit tests (cmocka), no kernel or BPF involved ----
GFPTOP_TESTS := test_tpformat test_gfpclass test_merge test_format test_json test_options \
	test_outfile test_output test_prom test_krules test_source test_names test_procs test_kcheck \
	test_zoneinfo test_rule_sets
GFPTOP_TEST_BINS := $(addprefix $(BUILD)/unit/,$(GFPTOP_TESTS))
GFPTOP_TEST_CFLAGS := $(GFPTOP_CFLAGS) -DTEST_DATA_DIR='"$(abspath tests/unit/data)"'

$(GFPTOP_OBJ)/unit/%.o: tests/unit/%.c
	@mkdir -p $(@D)
	$(GFPTOP_CC) $(GFPTOP_TEST_CFLAGS) -MMD -MP -c $< -o $@

.SECONDARY: $(GFPTOP_TESTS:%=$(GFPTOP_OBJ)/unit/%.o)
$(BUILD)/unit/%: $(GFPTOP_OBJ)/unit/%.o $(GFPTOP_LIB_OBJS)
	@mkdir -p $(@D)
	$(GFPTOP_CC) -o $@ $^ -lcmocka -ljson-c $(GFPTOP_TEP_LIBS) -lm

# runs every test binary, even after a failure; fails if any failed
unit-test: $(GFPTOP_TEST_BINS)
	@rc=0; for t in $(GFPTOP_TEST_BINS); do echo "== $$(basename $$t)"; $$t || rc=1; done; \
	if [ $$rc -eq 0 ]; then echo "unit-test: all test programs passed"; \
	else echo "unit-test: FAILURES (see above)"; fi; exit $$rc

# test_kcheck parses BTF files (never the running kernel's): libbpf
# too, and the guest kernels' vmlinux for the tier table
$(GFPTOP_OBJ)/unit/test_kcheck.o: GFPTOP_TEST_CFLAGS += \
	-DTEST_VMLINUX_DIR='"$(abspath $(BUILD))"'
$(BUILD)/unit/test_kcheck: $(GFPTOP_OBJ)/unit/test_kcheck.o $(GFPTOP_OBJ)/user/kcheck.o \
		$(GFPTOP_LIB_OBJS)
	@mkdir -p $(@D)
	$(GFPTOP_CC) -o $@ $^ -lcmocka -lbpf -lelf -lz -ljson-c $(GFPTOP_TEP_LIBS) -lm

# test_source checks the selection against the programs of the built
# BPF object (bpf_object__open_file: read, never loaded)
$(GFPTOP_OBJ)/unit/test_source.o: GFPTOP_TEST_CFLAGS += \
	-DTEST_BPF_OBJ='"$(abspath $(GFPTOP_OBJ))/gfptop.bpf.o"'
$(BUILD)/unit/test_source: $(GFPTOP_OBJ)/unit/test_source.o $(GFPTOP_OBJ)/user/progs.o \
		$(GFPTOP_LIB_OBJS) \
		| $(GFPTOP_OBJ)/gfptop.bpf.o
	@mkdir -p $(@D)
	$(GFPTOP_CC) -o $@ $(filter %.o,$^) -lcmocka -lbpf -lelf -lz -ljson-c $(GFPTOP_TEP_LIBS) -lm

-include $(GFPTOP_OBJS:.o=.d) $(GFPTOP_TEST_BINS:$(BUILD)/unit/%=$(GFPTOP_OBJ)/unit/%.d)

# ---- --prom's format checker (tests/prom/): in test_prom, and as
# $(BUILD)/promcheck for tests/gfptop/host.sh on a file from a guest ----
$(GFPTOP_OBJ)/prom/%.o: tests/prom/%.c
	@mkdir -p $(@D)
	$(GFPTOP_CC) $(GFPTOP_CFLAGS) -MMD -MP -c $< -o $@

$(GFPTOP_OBJ)/unit/test_prom.o: GFPTOP_TEST_CFLAGS += -Itests/prom
$(BUILD)/unit/test_prom: $(GFPTOP_OBJ)/prom/promcheck.o

$(BUILD)/promcheck: $(GFPTOP_OBJ)/prom/promcheck-main.o $(GFPTOP_OBJ)/prom/promcheck.o
	$(GFPTOP_CC) $(GFPTOP_CFLAGS) -o $@ $^

-include $(GFPTOP_OBJ)/prom/promcheck.d $(GFPTOP_OBJ)/prom/promcheck-main.d
