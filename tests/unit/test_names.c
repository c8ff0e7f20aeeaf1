/* common/names.c: every value of the enums of common/gfptop_abi.h and user/gfpclass.h
 * has a name, names are unique, and lookups round-trip. A tier added to
 * enum gfptop_tier without a name fails here instead of printing "?" in
 * gfptop's outputs and missing from the report. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "names.h"
#include "options.h"

/* every entry set, non-empty, and no two alike */
static void check_table(const char *what, const char *const *names, int n)
{
	for (int i = 0; i < n; i++) {
		if (!names[i] || !*names[i])
			fail_msg("%s: value %d has no name", what, i);
		for (int j = 0; j < i; j++)
			if (!strcmp(names[i], names[j]))
				fail_msg("%s: values %d and %d are both '%s'", what, j, i, names[i]);
		assert_int_equal(names_index(names, n, names[i]), i);
	}
	assert_int_equal(names_index(names, n, "bogus"), -1);
}

static void tables_complete(void **state)
{
	check_table("tier", tier_names, GT_NR_TIERS);
	check_table("context", context_names, GC_NR);
	check_table("depth bucket", depth_bucket_names, GD_NR);
	check_table("gfp class", gfp_class_names, GFPC_NR);
}

static void tier_lookup(void **state)
{
	/* the names the kernel's tracepoint prints (kernel-patches/README.md) */
	assert_string_equal(tier_name(GT_NONE), "none");
	assert_string_equal(tier_name(GT_MIN_RESERVE_NON_BLOCK), "min_reserve_non_block");
	assert_string_equal(tier_name(GT_UNKNOWN), "unknown");
	assert_string_equal(tier_name(GT_NR_TIERS), "?");
	assert_string_equal(tier_name(-1), "?");
	for (int t = 0; t < GT_NR_TIERS; t++)
		assert_int_equal(tier_from_name(tier_name(t)), t);
	assert_int_equal(tier_from_name("?"), -1);
	assert_string_equal(gfpclass_name(GFPC_NOFS_NOIO), "GFP_NOFS_NOIO");
	assert_string_equal(context_names[GC_SOFTIRQ], "softirq");
}

/* gfptop -h lists the tiers -t takes: each one of the table */
static void help_lists_every_tier(void **state)
{
	for (int t = 0; t < GT_NR_TIERS; t++)
		if (!strstr(options_help(), tier_names[t]))
			fail_msg("gfptop -h does not list tier '%s'", tier_names[t]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tables_complete),
		cmocka_unit_test(tier_lookup),
		cmocka_unit_test(help_lists_every_tier),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
