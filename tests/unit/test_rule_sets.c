/* The rule sets (common/rule_sets.c): every row complete, its words
 * saying what its numbers do (the share of min, whether the highatomic
 * pages are subtracted, the flags' names), and the numbers giving the
 * kernels' levels as mm/page_alloc.c computes them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "rule_sets.h"
#include "names.h"

/* "> 37.5% of min" in WORDS, as a share; -1 if absent */
static double words_share(const char *words)
{
	const char *p = strstr(words, "> ");

	return p && strstr(p, "% of min") ? atof(p + 2) / 100 : -1;
}

/* the flag names of a row: "ALLOC_HARDER/ALLOC_HIGH" -> nb, mr */
static void flag_names(const struct rule_set *rs, char *nb, char *mr, size_t len)
{
	const char *slash = strchr(rs->flags, '/');

	assert_non_null(slash);
	snprintf(nb, len, "%.*s", (int)(slash - rs->flags), rs->flags);
	snprintf(mr, len, "%s", slash + 1);
}

static void check_level_words(const struct rule_set *rs, int t)
{
	const char *w = rs->level_words[t];
	bool sub = rule_set_ha_subtracted(&rs->rules, t);
	const char *ha_words = rs->rules.ha_unusable == GT_HA_FREE ? "free highatomic pages" :
								    "highatomic reserve";
	char nb[32], mr[32], want[80];

	if (!w || !*w)
		fail_msg("%s: no words for %s", rs->id, tier_name(t));
	if (words_share(w) != rule_set_min_share(&rs->rules, t))
		fail_msg("%s %s: the words say %s, the numbers %g of min", rs->id, tier_name(t), w,
			 rule_set_min_share(&rs->rules, t));
	if (sub != (strstr(w, "subtracted") && !strstr(w, "not subtracted")))
		fail_msg("%s %s: the numbers %s the highatomic pages, the words say %s", rs->id,
			 tier_name(t), sub ? "subtract" : "keep", w);
	if (strstr(w, "subtracted") && !strstr(w, ha_words))
		fail_msg("%s %s: the subtracted pages are the %s: %s", rs->id, tier_name(t),
			 ha_words, w);
	flag_names(rs, nb, mr, sizeof(nb));
	snprintf(want, sizeof(want), "%s:", t == GT_NON_BLOCK ? nb : t == GT_MIN_RESERVE ? mr :
		 t == GT_OOM ? "ALLOC_OOM" : "");
	if (t == GT_MIN_RESERVE_NON_BLOCK)
		snprintf(want, sizeof(want), "%s|%s:", mr, nb);
	if (t != GT_NONE && strncmp(w, want, strlen(want)))
		fail_msg("%s %s: the words should start with %s: %s", rs->id, tier_name(t), want, w);
}

static void every_row_complete(void **state)
{
	for (int i = 0; i < RS_NR; i++) {
		const struct rule_set *rs = &rule_sets[i];

		assert_non_null(rs->id);
		assert_ptr_equal(rule_set_by_id(rs->id), rs);
		assert_true(!strcmp(rs->series, "before") || !strcmp(rs->series, "after"));
		assert_non_null(rs->read_off);
		assert_true(rs->rules.wmark_mask && rs->rules.no_watermarks && rs->rules.oom &&
			    rs->rules.non_block && rs->rules.min_reserve && rs->rules.cma);
		for (int t = 0; t < GT_NR_LEVELS; t++)
			check_level_words(rs, t);
		/* the other tiers mean the same everywhere: the tier table's */
		for (int t = GT_NR_LEVELS; t < GT_NR_TIERS; t++)
			assert_string_equal(rule_set_meaning(rs, t), tier_words(t));
	}
	assert_null(rule_set_by_id("5.15"));
}

/* mm/internal.h's values, and __zone_watermark_ok()'s levels, of each
 * tree (read off the trees, not the table) */
static void the_kernels_levels(void **state)
{
	static const struct { const char *id; double share[GT_NR_LEVELS]; bool sub[GT_NR_LEVELS];
			      unsigned ha_bit; } want[] = {
		{ "6.1-before", { 1, 0.75, 0.5, 0.375, 0.5 }, { 1, 0, 1, 0, 0 }, 0 },
		{ "6.1-after", { 1, 1, 0.5, 0.375, 0.5 }, { 1, 0, 0, 0, 0 }, 0x200 },
		{ "6.12", { 1, 1, 0.5, 0.375, 0.5 }, { 1, 0, 0, 0, 0 }, 0x200 },
		{ "7.2", { 1, 1, 0.5, 0.375, 0.5 }, { 1, 0, 0, 0, 0 }, 0x200 },
	};

	assert_int_equal(sizeof(want) / sizeof(want[0]), RS_NR);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct rule_set *rs = rule_set_by_id(want[i].id);

		assert_non_null(rs);
		assert_int_equal(rs->rules.oom, 0x08);
		assert_int_equal(rs->rules.non_block, 0x10);
		assert_int_equal(rs->rules.min_reserve, 0x20);
		assert_int_equal(rs->rules.highatomic, want[i].ha_bit);
		for (int t = 0; t < GT_NR_LEVELS; t++) {
			assert_true(rule_set_min_share(&rs->rules, t) == want[i].share[t]);
			assert_int_equal(rule_set_ha_subtracted(&rs->rules, t), want[i].sub[t]);
		}
	}
	assert_true(rule_set_min_share(&rule_sets[0].rules, GT_HIGHATOMIC) < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_row_complete),
		cmocka_unit_test(the_kernels_levels),
	};
	return cmocka_run_group_tests_name("rule_sets", tests, NULL, NULL);
}
