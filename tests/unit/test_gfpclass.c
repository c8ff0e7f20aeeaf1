/* GFP class decoding and table parsing from the real format files of
 * both guest kernels (tests/unit/data/, saved from tracefs). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gfpclass.h"
#include "report.h"
#include "tpformat.h"

struct kernel {
	char *text;
	struct tpfmt_sym syms[128];
	int n;
	struct gfp_classifier gc;
};

static struct kernel *load(const char *kind)
{
	char path[512];
	struct kernel *k = calloc(1, sizeof(*k));
	const char *missing = NULL;

	snprintf(path, sizeof(path), "%s/mm_page_alloc_tier.%s.format", TEST_DATA_DIR, kind);
	k->text = tpfmt_read_file(path);
	assert_non_null(k->text);
	k->n = tpfmt_table(k->text, "__print_flags", "gfp_flags", k->syms, 128);
	assert_int_equal(gfpclass_init(&k->gc, k->syms, k->n, &missing), 0);
	return k;
}

static int setup(void **state)
{
	struct kernel **ks = calloc(2, sizeof(*ks));

	ks[0] = load("before");
	ks[1] = load("after");
	*state = ks;
	return 0;
}

static int teardown(void **state)
{
	struct kernel **ks = *state;

	for (int i = 0; i < 2; i++) {
		free(ks[i]->text);
		free(ks[i]);
	}
	free(ks);
	return 0;
}

static uint64_t val(struct kernel *k, const char *name)
{
	uint64_t v = 0;

	assert_int_equal(tpfmt_lookup(k->syms, k->n, name, &v), 0);
	return v;
}

static void table_sizes(void **state)
{
	struct kernel **ks = *state;

	/* one more entry (__GFP_ATOMIC) in before */
	assert_int_equal(ks[0]->n, 36);
	assert_int_equal(ks[1]->n, 35);
}

static void gfp_atomic_flag_only_before(void **state)
{
	struct kernel **ks = *state;
	uint64_t v;

	assert_int_equal(tpfmt_lookup(ks[0]->syms, ks[0]->n, "__GFP_ATOMIC", &v), 0);
	assert_int_equal(v, 0x200);
	assert_int_equal(tpfmt_lookup(ks[1]->syms, ks[1]->n, "__GFP_ATOMIC", &v), -1);
	assert_true(ks[0]->gc.has_gfp_atomic_flag);
	assert_false(ks[1]->gc.has_gfp_atomic_flag);
}

static void composite_values(void **state)
{
	struct kernel **ks = *state;

	assert_int_equal(val(ks[0], "GFP_ATOMIC"), 0xa20);	/* HIGH|ATOMIC|KSWAPD */
	assert_int_equal(val(ks[1], "GFP_ATOMIC"), 0x820);	/* HIGH|KSWAPD */
	for (int i = 0; i < 2; i++) {
		assert_int_equal(val(ks[i], "GFP_KERNEL"), 0xcc0);
		assert_int_equal(val(ks[i], "GFP_NOWAIT"), 0x800);
		assert_int_equal(val(ks[i], "GFP_HIGHUSER_MOVABLE"), 0x100cca);
		assert_int_equal(val(ks[i], "GFP_TRANSHUGE"), 0x1c24ca);
	}
}

/* each kernel's own composites decode to their class, on both */
static void classes_on_both(void **state)
{
	struct kernel **ks = *state;

	for (int i = 0; i < 2; i++) {
		struct kernel *k = ks[i];
		const struct gfp_classifier *gc = &k->gc;

		assert_int_equal(gfpclass_classify(gc, val(k, "GFP_ATOMIC")), GFPC_ATOMIC);
		assert_int_equal(gfpclass_classify(gc, val(k, "GFP_ATOMIC") | val(k, "__GFP_NOWARN") |
							   val(k, "__GFP_COMP")), GFPC_ATOMIC);
		assert_int_equal(gfpclass_classify(gc, val(k, "GFP_NOWAIT")), GFPC_NOWAIT);
		assert_int_equal(gfpclass_classify(gc, val(k, "GFP_KERNEL")), GFPC_KERNEL);
		assert_int_equal(gfpclass_classify(gc, val(k, "GFP_KERNEL_ACCOUNT") |
							   val(k, "__GFP_ZERO")), GFPC_KERNEL);
		assert_int_equal(gfpclass_classify(gc, val(k, "GFP_NOFS")), GFPC_NOFS_NOIO);
		assert_int_equal(gfpclass_classify(gc, val(k, "GFP_NOIO")), GFPC_NOFS_NOIO);
		assert_int_equal(gfpclass_classify(gc, val(k, "GFP_USER")), GFPC_USER);
		assert_int_equal(gfpclass_classify(gc, val(k, "GFP_HIGHUSER_MOVABLE")), GFPC_USER);
		assert_int_equal(gfpclass_classify(gc, val(k, "GFP_TRANSHUGE")), GFPC_OTHER);
		assert_int_equal(gfpclass_classify(gc, val(k, "__GFP_HIGH")), GFPC_OTHER);
		assert_int_equal(gfpclass_classify(gc, 0), GFPC_OTHER);
	}
}

/* the bit values differ: after's GFP_ATOMIC lacks __GFP_ATOMIC, so on
 * the before kernel it is not GFP_ATOMIC */
static void cross_kernel(void **state)
{
	struct kernel **ks = *state;

	assert_int_equal(gfpclass_classify(&ks[0]->gc, 0x820), GFPC_OTHER);
	assert_int_equal(gfpclass_classify(&ks[1]->gc, 0xa20), GFPC_ATOMIC);
}

static void zone_names(void **state)
{
	struct kernel **ks = *state;
	struct tpfmt_sym z[8];
	int n = tpfmt_table(ks[1]->text, "__print_symbolic", "zone_idx", z, 8);

	assert_int_equal(n, 3);
	assert_int_equal(z[0].value, 0);
	assert_string_equal(z[0].name, "DMA32");
	assert_int_equal(z[1].value, 1);
	assert_string_equal(z[1].name, "Normal");
	assert_string_equal(z[2].name, "Movable");
}

/* Every tier the kernel prints is one gfptop knows by that name, and
 * every tier gfptop knows (but "unknown") is one the kernel prints; the
 * zone_idx table is not confused with highest_zoneidx's. */
static void kernel_tier_names(void **state)
{
	struct kernel **ks = *state;

	for (int i = 0; i < 2; i++) {
		struct tpfmt_sym t[16];
		int n = tpfmt_table(ks[i]->text, "__print_symbolic", "tier", t, 16);
		bool seen[GT_NR_TIERS] = { false };

		assert_int_equal(n, GT_NR_TIERS - 1);
		for (int j = 0; j < n; j++) {
			int g = tier_from_name(t[j].name);

			if (g < 0 || g == GT_UNKNOWN)
				fail_msg("kernel tier '%s' unknown to gfptop", t[j].name);
			seen[g] = true;
		}
		for (int g = 0; g < GT_UNKNOWN; g++)
			if (!seen[g])
				fail_msg("gfptop tier '%s' not in the kernel's table", tier_name(g));
		/* watermark_tier has the same table */
		assert_int_equal(tpfmt_table(ks[i]->text, "__print_symbolic", "watermark_tier", t, 16), n);
	}
}

static void malformed(void **state)
{
	struct gfp_classifier gc;
	/* (malformed tables themselves: test_tpformat) */
	struct tpfmt_sym s[2] = { { 0x1, "A" }, { 0x6, "B" } };
	const char *missing = NULL;

	/* a format file without the table */
	assert_int_equal(gfpclass_init_from_format(&gc, "no table here", &missing), -1);
	assert_string_equal(missing, "the gfp_flags __print_flags table");
	assert_int_equal(gfpclass_classify(&gc, 0xcc0), GFPC_OTHER);
	/* a table without the composites: everything is other */
	assert_int_equal(gfpclass_init(&gc, s, 2, &missing), -1);
	assert_string_equal(missing, "GFP_ATOMIC");
	assert_int_equal(gfpclass_classify(&gc, 0xcc0), GFPC_OTHER);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_sizes),
		cmocka_unit_test(gfp_atomic_flag_only_before),
		cmocka_unit_test(composite_values),
		cmocka_unit_test(classes_on_both),
		cmocka_unit_test(cross_kernel),
		cmocka_unit_test(zone_names),
		cmocka_unit_test(kernel_tier_names),
		cmocka_unit_test(malformed),
	};
	return cmocka_run_group_tests_name("gfpclass", tests, setup, teardown);
}
