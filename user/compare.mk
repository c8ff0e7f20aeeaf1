# Build rules for gfpcompare (the before/after report of guest/compare)
# (its statistics' unit test, test_stats, is built by user/gfptop.mk's
# unit-test; the report itself is tested by tests/compare.sh on the
# results in tests/compare/fixtures). Included by nothing; used as
#   make -f user/compare.mk BUILD=build build/gfpcompare
# gfpcompare runs on the host only, so it links dynamically.

BUILD ?= build
GFPCOMPARE_OBJ := $(BUILD)/obj/compare
GFPCOMPARE_CC ?= $(CC)
GFPCOMPARE_CFLAGS := -O2 -g -Wall -Wextra -Wno-unused-parameter -Werror -std=gnu11 -Iuser

$(GFPCOMPARE_OBJ)/%.o: user/%.c user/stats.h
	@mkdir -p $(@D)
	$(GFPCOMPARE_CC) $(GFPCOMPARE_CFLAGS) -c $< -o $@

$(BUILD)/gfpcompare: $(GFPCOMPARE_OBJ)/gfpcompare.o $(GFPCOMPARE_OBJ)/stats.o
	$(GFPCOMPARE_CC) $(GFPCOMPARE_CFLAGS) -o $@ $^ -ljson-c -lm
