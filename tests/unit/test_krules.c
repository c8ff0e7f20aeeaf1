/* Which kernels get which rule set (user/krules.c's table), and that a
 * kernel outside the table is refused, not guessed. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "krules.h"

static int detect(const char *release, bool patched, bool gfp_atomic, struct krules *k)
{
	char msg[256];

	memset(k, 0xa5, sizeof(*k));
	return krules_detect(release, patched, gfp_atomic, k, msg, sizeof(msg));
}

/* 6.1.116 backported patches 1-5: after rules though __GFP_ATOMIC exists */
static void test_stock_6_1_versions(void **state)
{
	struct krules k;

	assert_int_equal(detect("6.1.115", false, true, &k), 0);
	assert_ptr_equal(k.set, &rule_sets[RS_6_1_BEFORE]);
	assert_int_equal(k.set->rules.highatomic, 0);
	assert_int_equal(detect("6.1.116", false, true, &k), 0);
	assert_ptr_equal(k.set, &rule_sets[RS_6_1_AFTER]);
	assert_int_equal(k.set->rules.highatomic, 0x200);
	assert_int_equal(detect("6.1.192-gfptop-stock", false, true, &k), 0);
	assert_ptr_equal(k.set, &rule_sets[RS_6_1_AFTER]);
	assert_int_equal(detect("6.12.118+deb13-amd64", false, false, &k), 0);
	assert_ptr_equal(k.set, &rule_sets[RS_6_12]);
	assert_non_null(k.basis);
	assert_int_equal(detect("7.2.13+deb14-amd64", false, false, &k), 0);
	assert_ptr_equal(k.set, &rule_sets[RS_7_2]);
	assert_int_equal(k.set->ha_reserve_at, RS_HA_AT_RMQUEUE_BUDDY);
}

/* gfptop's patched kernels: the 6.1 ones are both 6.1.192, and their
 * __GFP_ATOMIC tells them apart; the others go by their release */
static void test_patched_kernels(void **state)
{
	struct krules k;

	assert_int_equal(detect("6.1.192-gfptop-before", true, true, &k), 0);
	assert_ptr_equal(k.set, &rule_sets[RS_6_1_BEFORE]);
	assert_int_equal(detect("6.1.192-gfptop-after", true, false, &k), 0);
	assert_ptr_equal(k.set, &rule_sets[RS_6_1_AFTER]);
	assert_int_equal(detect("6.12.118-gfptop-6.12", true, false, &k), 0);
	assert_ptr_equal(k.set, &rule_sets[RS_6_12]);
}

/* every row of common/rule_sets.c is some release's */
static void test_every_row_reached(void **state)
{
	for (int i = 0; i < RS_NR; i++)
		if (!krules_reaches(i))
			fail_msg("rule set %s: no release of krules.c's table has it",
				 rule_sets[i].id);
}

static void test_unknown_kernels_refused(void **state)
{
	struct krules k;
	char msg[256] = "";

	assert_int_equal(detect("6.6.30", false, false, &k), -1);
	assert_int_equal(detect("6.13.1", false, false, &k), -1);
	assert_int_equal(detect("7.1.3", false, false, &k), -1);
	assert_int_equal(detect("5.15.0-91-generic", false, true, &k), -1);
	assert_int_equal(detect("6.2.1", false, true, &k), -1);
	assert_int_equal(detect("garbage", false, true, &k), -1);
	assert_int_equal(krules_detect("6.8.0", false, false, &k, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "6.8.0"));
	assert_non_null(strstr(msg, "Linux 6.1.y, 6.12.y and 7.2.y only"));
}

/* where distributions keep the upstream version */
static void test_kernel_version(void **state)
{
	char v[32];

	krules_kernel_version("6.1.0-28-amd64",
			      "#1 SMP PREEMPT_DYNAMIC Debian 6.1.119-1 (2024-11-22)", NULL, v,
			      sizeof(v));
	assert_string_equal(v, "6.1.119");
	krules_kernel_version("5.15.0-91-generic", "#101-Ubuntu SMP Tue Nov 14 13:30:08 UTC 2023",
			      "Ubuntu 5.15.0-91.101-generic 5.15.131\n", v, sizeof(v));
	assert_string_equal(v, "5.15.131");
	krules_kernel_version("6.1.192-gfptop-stock", "#1 SMP Fri Dec 4 2026", NULL, v, sizeof(v));
	assert_string_equal(v, "6.1.192-gfptop-stock");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stock_6_1_versions),
		cmocka_unit_test(test_every_row_reached),
		cmocka_unit_test(test_patched_kernels),
		cmocka_unit_test(test_unknown_kernels_refused),
		cmocka_unit_test(test_kernel_version),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
