/* --prom: the exposition follows the format rules (tests/prom/promcheck.h)
 * and its counters are the reports' counts, summed since the start. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "prom.h"
#include "promcheck.h"
#include "zone_fixture.h"

/* what fill() sets as the report's source (source_marked) */
static const char *source;
static bool derived;

static void fill(struct report *r, const char *release)
{
	memset(r, 0, sizeof(*r));
	r->timestamp = 1700000000.5;
	r->interval_s = 1.0;
	r->kernel_release = release;
	r->rules = &rule_sets[RS_6_1_BEFORE];
	r->source = source;
	r->tiers_derived = derived;
	for (int t = 0; t < GT_NR; t++)
		r->tier_values[t] = t < GT_UNKNOWN ? t : -1;
	r->c.order[GT_NONE][0] = (struct gt_cnt){ 100, 100 };
	r->c.order[GT_MIN_RESERVE][3] = (struct gt_cnt){ 4, 32 };
	r->c.order[GT_OOM][0] = (struct gt_cnt){ 1, 1 };
	r->c.depth[GT_MIN_RESERVE][GD_62] = 3;
	r->c.depth[GT_MIN_RESERVE][GD_BELOW_25] = 1;
	r->c.depth[GT_OOM][GD_BELOW_25] = 1;
	r->c.pcp_highatomic[GT_NONE] = (struct gt_cnt){ 2, 2 };
	r->c.pcp_highatomic[GT_NON_BLOCK] = (struct gt_cnt){ 1, 1 };
	r->c.zone[GT_NONE][1] = (struct gt_cnt){ 100, 100 };
	r->c.zone[GT_MIN_RESERVE][1] = (struct gt_cnt){ 4, 32 };
	r->c.zone[GT_OOM][5] = (struct gt_cnt){ 1, 1 };	/* unnamed zone */
	r->c.ctx[GT_NONE][GC_TASK] = (struct gt_cnt){ 100, 100 };
	r->c.ctx[GT_MIN_RESERVE][GC_SOFTIRQ] = (struct gt_cnt){ 4, 32 };
	r->c.ctx[GT_OOM][GC_HARDIRQ] = (struct gt_cnt){ 1, 1 };
	r->gfp[GT_NONE][GFPC_KERNEL] = (struct gt_cnt){ 100, 100 };
	r->gfp[GT_MIN_RESERVE][GFPC_ATOMIC] = (struct gt_cnt){ 4, 32 };
	r->gfp[GT_OOM][GFPC_OTHER] = (struct gt_cnt){ 1, 1 };
	r->c.stat[GS_EVENTS] = 110;
	r->c.stat[GS_FILTERED] = 5;
	r->c.stat[GS_RESERVE_FAIL] = 1;
	r->c.stat[GS_RESERVE_FAIL_PAGES] = 8;
	r->c.stat[GS_HA_RESERVE] = 2;
	r->c.stat[GS_HA_UNRESERVE] = 1;
	r->c.stat[GS_HA_UNRESERVE_FORCED] = 1;
	r->c.stat[GS_HA_MOVED] = 17;
	r->c.stat[GS_PROC_DROPPED] = 9;
	r->ha[1] = (struct ha_zone_level){ true, 512, 1024 };
	strcpy(r->zone_names[0], "DMA32");
	strcpy(r->zone_names[1], "Normal");
	fill_zone_rows(r);
}

/* The exposition of n identical intervals, checked; caller frees. */
static char *expose(int n, const char *release)
{
	static struct report r, cum;
	char *buf = NULL, err[256];
	size_t len = 0, nsamples;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	memset(&cum, 0, sizeof(cum));
	fill(&r, release);
	for (int i = 0; i < n; i++)
		prom_accumulate(&cum, &r);
	assert_int_equal(prom_write(f, &cum), 0);
	fclose(f);
	if (promcheck(buf, &nsamples, err, sizeof(err)))
		fail_msg("%s\n%s", err, buf);
	assert_true(nsamples > 20);
	return buf;
}

static void follows_the_rules(void **state)
{
	free(expose(1, "6.1.192-gfptop-before"));
}

/* fill_zone_rows()'s zones as gauges; -1: no series (DMA32's
 * nr_free_highatomic was never seen: not a made-up 0) */
static const struct {
	const char *name, *labels;
	int64_t value;
} zone_gauges[] = {
	{ "gfptop_zone_free_pages", "node=\"0\",zone=\"DMA32\"", 12345 },
	{ "gfptop_zone_watermark_pages", "node=\"0\",zone=\"Normal\",mark=\"low\"", 81920 },
	{ "gfptop_zone_boost_pages", "node=\"0\",zone=\"Normal\"", 196608 },
	{ "gfptop_zone_reserved_highatomic_pages", "node=\"0\",zone=\"DMA32\"", 1024 },
	{ "gfptop_zone_free_highatomic_pages", "node=\"0\",zone=\"Normal\"", 99999 },
	{ "gfptop_zone_free_highatomic_pages", "node=\"0\",zone=\"DMA32\"", -1 },
};

/* Counts equal the input report's, times the number of intervals:
 * cumulative since the start, not per interval. */
static void counts_are_cumulative(void **state)
{
	for (int n = 1; n <= 3; n++) {
		char *t = expose(n, "6.1.192-gfptop-after");

		assert_int_equal(promcheck_sum(t, "gfptop_allocations_total"), n * 105);
		assert_int_equal(promcheck_sum(t, "gfptop_allocated_pages_total"), n * 133);
		assert_int_equal(promcheck_value(t, "gfptop_allocations_total",
						 "tier=\"min_reserve\",order=\"3\""), n * 4);
		assert_int_equal(promcheck_value(t, "gfptop_allocated_pages_total",
						 "tier=\"min_reserve\",order=\"3\""), n * 32);
		/* zero counts have no series */
		assert_int_equal(promcheck_value(t, "gfptop_allocations_total",
						 "tier=\"min_reserve\",order=\"0\""), -1);
		assert_int_equal(promcheck_sum(t, "gfptop_zone_allocations_total"), n * 105);
		assert_int_equal(promcheck_value(t, "gfptop_zone_allocations_total",
						 "tier=\"oom\",zone=\"zone5\""), n);
		assert_int_equal(promcheck_sum(t, "gfptop_context_allocations_total"), n * 105);
		assert_int_equal(promcheck_value(t, "gfptop_context_allocations_total",
						 "tier=\"min_reserve\",context=\"softirq\""), n * 4);
		assert_int_equal(promcheck_sum(t, "gfptop_gfp_class_allocations_total"), n * 105);
		assert_int_equal(promcheck_value(t, "gfptop_gfp_class_allocated_pages_total",
						 "tier=\"min_reserve\",gfp_class=\"GFP_ATOMIC\""), n * 32);
		assert_int_equal(promcheck_sum(t, "gfptop_depth_allocations_total"), n * 5);
		assert_int_equal(promcheck_value(t, "gfptop_depth_allocations_total",
						 "tier=\"min_reserve\",depth=\"62.5-75%\""), n * 3);
		assert_int_equal(promcheck_value(t, "gfptop_depth_allocations_total",
						 "tier=\"oom\",depth=\"<=25%\""), n);
		assert_int_equal(promcheck_sum(t, "gfptop_pcp_highatomic_allocations_total"), n * 3);
		assert_int_equal(promcheck_value(t, "gfptop_pcp_highatomic_pages_total",
						 "tier=\"none\""), n * 2);
		assert_int_equal(promcheck_value(t, "gfptop_reserve_fail_total", ""), n);
		assert_int_equal(promcheck_value(t, "gfptop_reserve_fail_pages_total", ""), n * 8);
		assert_int_equal(promcheck_value(t, "gfptop_highatomic_reserve_total", ""), n * 2);
		assert_int_equal(promcheck_value(t, "gfptop_highatomic_unreserve_total", ""), n);
		assert_int_equal(promcheck_value(t, "gfptop_highatomic_unreserve_forced_total", ""), n);
		assert_int_equal(promcheck_value(t, "gfptop_highatomic_moved_pages_total", ""), n * 17);
		assert_int_equal(promcheck_value(t, "gfptop_events_total", ""), n * 110);
		assert_int_equal(promcheck_value(t, "gfptop_events_filtered_total", ""), n * 5);
		assert_int_equal(promcheck_value(t, "gfptop_events_lost_total", "map=\"process\""), n * 9);
		/* gauges are levels, not sums */
		assert_int_equal(promcheck_value(t, "gfptop_highatomic_reserved_pages",
						 "zone=\"Normal\""), 512);
		assert_int_equal(promcheck_value(t, "gfptop_highatomic_reserved_pages_max",
						 "zone=\"Normal\""), 1024);
		/* the zone header's gauges: the last interval's, not sums */
		for (size_t g = 0; g < sizeof(zone_gauges) / sizeof(zone_gauges[0]); g++)
			assert_int_equal(promcheck_value(t, zone_gauges[g].name, zone_gauges[g].labels),
					 zone_gauges[g].value);
		assert_int_equal(promcheck_sum(t, "gfptop_zone_watermark_pages"),
				 4096 + 5120 + 6144 + 65536 + 81920 + 98304);
		free(t);
	}
}

static void kernel_and_tiers_described(void **state)
{
	char *t = expose(1, "6.1.192-gfptop-before");

	assert_non_null(strstr(t, "\ngfptop_kernel_info{release=\"6.1.192-gfptop-before\","
				  "semantics=\"before\","));
	assert_non_null(strstr(t, "\ngfptop_tier_info{tier=\"non_block\",kernel_value=\"1\","
				  "meaning=\"ALLOC_HARDER: > 75% of min\"} 1\n"));
	assert_int_equal(promcheck_sum(t, "gfptop_tier_info"), GT_UNKNOWN);
	assert_null(strstr(t, "tier=\"unknown\""));
	free(t);
}

/* The source as the JSON has it; no source (a report that never went
 * through ksetup) is the tracepoint, as in the JSON. */
static void source_marked(void **state)
{
	char *t = expose(1, "6.1.192-gfptop-after");

	assert_non_null(strstr(t, "\ngfptop_source_info{source=\"tracepoint\","
				  "tiers_derived=\"false\"} 1\n"));
	free(t);
	source = "probe";
	derived = true;
	t = expose(2, "6.1.192");
	source = NULL;
	derived = false;
	assert_non_null(strstr(t, "\ngfptop_source_info{source=\"probe\","
				  "tiers_derived=\"true\"} 1\n"));
	assert_int_equal(promcheck_sum(t, "gfptop_source_info"), 1);
	free(t);
}

static void label_values_escaped(void **state)
{
	char *t = expose(1, "a\\b\"c\nd");

	assert_non_null(strstr(t, "release=\"a\\\\b\\\"c\\nd\""));
	free(t);
}

/* The checker itself: each rule, broken once. */
static void checker_rejects(void **state)
{
	static const struct {
		const char *text, *why;
	} cases[] = {
		{ "", "empty" },
		{ "# HELP a_total x\n# TYPE a_total counter\na_total 1", "no newline at the end" },
		{ "a_total 1\n", "without # HELP and # TYPE" },
		{ "# TYPE a_total counter\na_total 1\n", "without # HELP" },
		{ "# HELP a_total x\na_total 1\n", "without # HELP and # TYPE" },
		{ "# HELP a x\n# TYPE a counter\na 1\n", "does not end in _total" },
		{ "# HELP a_total x\n# TYPE a_total gauge\na_total 1\n", "gauge a_total ends in _total" },
		{ "# HELP 1a x\n# TYPE 1a gauge\n1a 1\n", "invalid metric name" },
		{ "# HELP a-b x\n# TYPE a-b gauge\n", "invalid metric name" },
		{ "# HELP a x\n# TYPE a gauge\na -1\n", "not a non-negative integer" },
		{ "# HELP a x\n# TYPE a gauge\na 1.5\n", "not a non-negative integer" },
		{ "# HELP a x\n# TYPE a gauge\na 1 1700000000000\n", "timestamp" },
		{ "# HELP a x\n# TYPE a gauge\na{l=\"x\"} 1\na{l=\"x\"} 2\n", "twice" },
		{ "# HELP a x\n# TYPE a gauge\na{l=\"x\",m=\"y\"} 1\na{m=\"y\",l=\"x\"} 2\n", "twice" },
		{ "# HELP a x\n# TYPE a gauge\na{l=\"x\",l=\"y\"} 1\n", "label l twice" },
		{ "# HELP a x\n# TYPE a gauge\na{l=\"x\"y\"} 1\n", "expected , or }" },
		{ "# HELP a x\n# TYPE a gauge\na{l=\"x\\ty\"} 1\n", "bad escape" },
		{ "# HELP a x\n# TYPE a gauge\na{__l=\"x\"} 1\n", "reserved label" },
		{ "# HELP a x\n# TYPE a gauge\na{1l=\"x\"} 1\n", "invalid label name" },
		{ "# HELP a x\n# TYPE a gauge\na 1\n# HELP b x\n# TYPE b gauge\nb 1\na{l=\"x\"} 1\n",
		  "not together" },
		{ "# HELP a x\n# TYPE a gauge\na 1\n# TYPE a gauge\n", "after its samples" },
		{ "# HELP a x\n# HELP a y\n# TYPE a gauge\n", "second # HELP" },
		{ "# HELP a x\n# TYPE a histogram\n", "not counter or gauge" },
		{ "# HELP a x\n# TYPE a gauge\n\na 1\n", "blank line" },
		{ "# a comment\n", "neither" },
	};
	char err[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (!promcheck(cases[i].text, NULL, err, sizeof(err)))
			fail_msg("accepted case %zu: %s", i, cases[i].text);
		if (!strstr(err, cases[i].why))
			fail_msg("case %zu: '%s' does not say '%s'", i, err, cases[i].why);
	}
	assert_int_equal(promcheck("# HELP a x\n# TYPE a gauge\na{l=\"q\\\"\\\\\\n\",m=\"\"} 0\n",
				   NULL, err, sizeof(err)), 0);
}

/* GFPTOP_PROM_SAMPLE=FILE: also write an exposition (three intervals
 * of fill()'s report) to FILE, for tests/prom-rules/host.sh to give to
 * promtool check metrics: a second, independent checker of the format,
 * on the host, with no kernel. Without the variable, nothing. */
static void sample_for_promtool(void **state)
{
	const char *path = getenv("GFPTOP_PROM_SAMPLE");
	char *t;
	FILE *f;

	if (!path)
		skip();
	t = expose(3, "6.1.192-gfptop-after");
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fputs(t, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(follows_the_rules),
		cmocka_unit_test(counts_are_cumulative),
		cmocka_unit_test(kernel_and_tiers_described),
		cmocka_unit_test(source_marked),
		cmocka_unit_test(label_values_escaped),
		cmocka_unit_test(checker_rejects),
		cmocka_unit_test(sample_for_promtool),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
