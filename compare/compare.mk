# Build rules for gfpcompare (compare/: the before/after report of
# guest/compare and guest/bench's Welch tests) and its statistics' unit
# test. Included by nothing; used as
#   make -f compare/compare.mk BUILD=build build/gfpcompare
#   make -f compare/compare.mk BUILD=build build/unit/test_stats
# tests/compare/host.sh builds and runs both (make test's "report" suite).
# gfpcompare runs on the host only, so it links dynamically. It takes the
# tier, context and gfp class names from gfptop's common/names.c (indexed
# by common/gfptop_abi.h's enums), so the two cannot disagree.

BUILD ?= build
GFPCOMPARE_OBJ := $(BUILD)/obj/compare
GFPCOMPARE_CC ?= $(CC)
GFPCOMPARE_CFLAGS := -O2 -g -Wall -Wextra -Wno-unused-parameter -Werror -std=gnu11 \
	-Icompare -Icommon

GFPCOMPARE_SRCS := gfpcompare.c ingest.c workloads.c run_dir.c interval.c json_get.c tiers.c \
	levels.c metrics.c stats.c cells.c doc.c render_md.c \
	render_html.c sections.c predictions.c depth_check.c summary.c plots.c util.c
GFPCOMPARE_OBJS := $(addprefix $(GFPCOMPARE_OBJ)/,$(GFPCOMPARE_SRCS:.c=.o)) \
	$(GFPCOMPARE_OBJ)/common/names.o $(GFPCOMPARE_OBJ)/common/rule_sets.o

$(GFPCOMPARE_OBJ)/%.o: compare/%.c
	@mkdir -p $(@D)
	$(GFPCOMPARE_CC) $(GFPCOMPARE_CFLAGS) -MMD -MP -c $< -o $@

$(GFPCOMPARE_OBJ)/common/%.o: common/%.c
	@mkdir -p $(@D)
	$(GFPCOMPARE_CC) $(GFPCOMPARE_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/gfpcompare: $(GFPCOMPARE_OBJS)
	$(GFPCOMPARE_CC) $(GFPCOMPARE_CFLAGS) -o $@ $^ -ljson-c -lm

# the statistics against independently computed values (cmocka)
$(GFPCOMPARE_OBJ)/test_stats.o: tests/compare/test_stats.c
	@mkdir -p $(@D)
	$(GFPCOMPARE_CC) $(GFPCOMPARE_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/unit/test_stats: $(GFPCOMPARE_OBJ)/test_stats.o $(GFPCOMPARE_OBJ)/stats.o
	@mkdir -p $(@D)
	$(GFPCOMPARE_CC) -o $@ $^ -lcmocka -lm

-include $(GFPCOMPARE_OBJS:.o=.d) $(GFPCOMPARE_OBJ)/test_stats.d
