/* Kernel checks on BTF files, never the running kernel's: a file that is
 * there but is not BTF is said so in one line, apart from one that
 * cannot be read; the tier table is the guest kernels' enum, and BPF's
 * tier map and the snapshot members it reads are what the loader checks. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <bpf/btf.h>

#include "kcheck.h"
#include "names.h"

static char msg[512];

static void invalid_btf_file(void **state)
{
	char path[] = "/tmp/gfptop-btf-XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "not BTF at all\n", 15), 15);
	close(fd);
	msg[0] = 0;
	assert_null(kcheck_load_btf_file(path, msg, sizeof(msg)));
	unlink(path);
	assert_non_null(strstr(msg, "is not valid BTF"));
	assert_non_null(strstr(msg, path));
	assert_null(strchr(msg, '\n'));
}

static void missing_btf_file(void **state)
{
	assert_null(kcheck_load_btf_file("/nonexistent-gfptop/vmlinux", msg, sizeof(msg)));
	assert_non_null(strstr(msg, "cannot read kernel BTF"));
	assert_non_null(strstr(msg, "No such file or directory"));
}

/*
 * common/gfptop_tiers.h against a kernel's enum page_alloc_tier: every
 * enumerator the kernel has is a line of the table, and every kernel
 * line of the table is in the kernel. A tier added to the kernel patches
 * but not to the table, or the other way round, fails here.
 */
static void tier_table_matches(const char *kind)
{
	char path[512];
	struct btf *btf;
	const struct btf_type *t;
	const struct btf_enum *e;
	int id, known = 0;

	snprintf(path, sizeof(path), "%s/linux-%s/vmlinux", TEST_VMLINUX_DIR, kind);
	if (access(path, R_OK)) {
		/* make unit-test needs no kernel; make test builds them first */
		print_message("%s: no such kernel built, not compared\n", path);
		skip();
	}
	btf = btf__parse(path, NULL);
	assert_non_null(btf);
	id = btf__find_by_name_kind(btf, "page_alloc_tier", BTF_KIND_ENUM);
	if (id <= 0)
		fail_msg("%s has no enum page_alloc_tier", path);
	t = btf__type_by_id(btf, id);
	e = btf_enum(t);
	for (int i = 0; i < btf_vlen(t); i++) {
		const char *name = btf__name_by_offset(btf, e[i].name_off);
		int g = names_index(tier_kernel_names, GT_NR_TIERS, name);

		if (!strcmp(name, "NR_PAGE_ALLOC_TIERS"))	/* the count, not a tier */
			continue;
		if (g < 0)
			fail_msg("%s: kernel tier %s is not in common/gfptop_tiers.h", kind, name);
		known++;
	}
	for (int g = 0; g < GT_NR_TIERS; g++) {
		long long v;

		if (tier_kernel_names[g] &&
		    kcheck_enum_value(btf, "page_alloc_tier", tier_kernel_names[g], &v))
			fail_msg("%s: table tier %s is not in the kernel", kind, tier_kernel_names[g]);
	}
	/* every line but unknown is a kernel tier */
	assert_int_equal(known, GT_NR_TIERS - 1);
	/* the loader accepts the kernel, and BPF's table (kcheck_tier_map())
	 * takes each enumerator's value to the table line of its name */
	{
		int64_t values[GT_NR];
		uint8_t map[GT_NR];

		if (kcheck_tracepoints(btf, values, msg, sizeof(msg)))
			fail_msg("%s: %s", kind, msg);
		kcheck_tier_map(values, map);
		for (int i = 0; i < btf_vlen(t); i++) {
			const char *name = btf__name_by_offset(btf, e[i].name_off);

			if (!strcmp(name, "NR_PAGE_ALLOC_TIERS"))
				continue;
			assert_in_range(e[i].val, 0, GT_NR - 1);
			assert_int_equal(map[e[i].val],
					 names_index(tier_kernel_names, GT_NR_TIERS, name));
		}
	}
	btf__free(btf);
}

/* values the kernel does not have, or that no slot can hold, map no
 * slot; every slot no tier took is unknown */
static void tier_map_inverts(void **state)
{
	int64_t values[GT_NR];
	uint8_t map[GT_NR];

	for (int t = 0; t < GT_NR; t++)
		values[t] = -1;
	values[GT_NONE] = 3;
	values[GT_OOM] = 0;
	values[GT_HIGHATOMIC] = GT_NR;	/* out of range: dropped */
	kcheck_tier_map(values, map);
	assert_int_equal(map[3], GT_NONE);
	assert_int_equal(map[0], GT_OOM);
	for (int v = 0; v < GT_NR; v++)
		if (v != 0 && v != 3)
			assert_int_equal(map[v], GT_UNKNOWN);
}

/* A BTF with the four tracepoints and a snapshot of the given members. */
static struct btf *fake_kernel_btf(const char *const *members, int n)
{
	static const char *const tps[] = {
		"btf_trace_mm_page_alloc_tier", "btf_trace_mm_page_alloc_reserve_fail",
		"btf_trace_mm_reserve_highatomic", "btf_trace_mm_unreserve_highatomic",
	};
	struct btf *btf = btf__new_empty();
	int lng;

	assert_non_null(btf);
	lng = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
	assert_true(lng > 0);
	for (size_t i = 0; i < sizeof(tps) / sizeof(tps[0]); i++)
		assert_true(btf__add_typedef(btf, tps[i], lng) > 0);
	assert_true(btf__add_struct(btf, "page_alloc_tier_snapshot", 8 * n) > 0);
	for (int i = 0; i < n; i++)
		assert_int_equal(btf__add_field(btf, members[i], lng, 64 * i, 0), 0);
	return btf;
}

/* read_snap() reads every member unguarded: a snapshot without one of
 * them is refused by name, one with all of them passes */
static void snapshot_members_required(void **state)
{
	const char *all[] = { "free_pages", "watermark", "nr_reserved_highatomic", "source",
			      "highatomic_block", "watermark_tier", "tier" };
	const int n = sizeof(all) / sizeof(all[0]);
	struct btf *btf = fake_kernel_btf(all, n);

	assert_int_equal(kcheck_tracepoints(btf, NULL, msg, sizeof(msg)), 0);
	btf__free(btf);
	for (int skip = 0; skip < n; skip++) {
		const char *some[sizeof(all) / sizeof(all[0])];
		char want[64];
		int k = 0;

		for (int i = 0; i < n; i++)
			if (i != skip)
				some[k++] = all[i];
		btf = fake_kernel_btf(some, k);
		msg[0] = 0;
		assert_int_equal(kcheck_tracepoints(btf, NULL, msg, sizeof(msg)), -1);
		snprintf(want, sizeof(want), "its snapshot has no %s)", all[skip]);
		if (!strstr(msg, want))
			fail_msg("without %s: '%s'", all[skip], msg);
		btf__free(btf);
	}
}

/* A struct zone of 8-byte fields in this order (lowmem_reserve: an
 * array of 4), with the loader's verdict on its head. */
static bool head_fits(const char *const *fields, int n)
{
	struct btf *btf = btf__new_empty();
	int lng, arr, off = 0;
	bool fits;

	assert_non_null(btf);
	lng = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
	arr = btf__add_array(btf, lng, lng, 4);
	assert_true(lng > 0 && arr > 0);
	for (int i = 0; i < n; i++)
		off += strcmp(fields[i], "lowmem_reserve") ? 8 : 32;
	assert_true(btf__add_struct(btf, "zone", off) > 0);
	off = 0;
	for (int i = 0; i < n; i++) {
		bool is_arr = !strcmp(fields[i], "lowmem_reserve");

		assert_int_equal(btf__add_field(btf, fields[i], is_arr ? arr : lng, off * 8, 0), 0);
		off += is_arr ? 32 : 8;
	}
	fits = kcheck_zone_head_fits(btf);
	btf__free(btf);
	return fits;
}

/* zone_head() copies _watermark..spanned_pages: a field outside it, a
 * field missing, or a head longer than the copy's room is refused */
static void zone_head_checked(void **state)
{
	const char *ok[] = { "_watermark", "watermark_boost", "nr_reserved_highatomic",
			     "nr_free_highatomic", "lowmem_reserve", "zone_start_pfn",
			     "spanned_pages" };
	const char *late_lowmem[] = { "_watermark", "watermark_boost", "nr_reserved_highatomic",
				      "zone_start_pfn", "spanned_pages", "lowmem_reserve" };
	const char *late_free_ha[] = { "_watermark", "watermark_boost", "nr_reserved_highatomic",
				       "lowmem_reserve", "zone_start_pfn", "spanned_pages",
				       "nr_free_highatomic" };
	const char *no_boost[] = { "_watermark", "nr_reserved_highatomic", "lowmem_reserve",
				   "zone_start_pfn", "spanned_pages" };
	const char *too_long[40] = { "_watermark", "watermark_boost", "nr_reserved_highatomic",
				     "lowmem_reserve", "zone_start_pfn" };
	char pad[40][8];
	int n = 5;

	assert_true(head_fits(ok, 7));
	assert_false(head_fits(ok, 3));	/* no spanned_pages */
	assert_false(head_fits(late_lowmem, 6));
	assert_false(head_fits(late_free_ha, 7));
	assert_false(head_fits(no_boost, 5));
	/* 5 fields (64 bytes) + padding + spanned_pages: fits up to
	 * GT_SPAN_BUF bytes, not past it */
	for (; (n - 5) * 8 + 64 + 8 < GT_SPAN_BUF; n++) {
		snprintf(pad[n - 5], sizeof(pad[0]), "pad%d", n - 5);
		too_long[n] = pad[n - 5];
	}
	too_long[n] = "spanned_pages";
	assert_true(head_fits(too_long, n + 1));	/* exactly GT_SPAN_BUF */
	snprintf(pad[n - 5], sizeof(pad[0]), "pad%d", n - 5);
	too_long[n] = pad[n - 5];
	too_long[n + 1] = "spanned_pages";
	assert_false(head_fits(too_long, n + 2));
}

/* every guest kernel's struct zone takes the one-copy way */
static void zone_head_kernels(void **state)
{
	static const char *const kinds[] = { "before", "after", "stock", "6.12" };
	int seen = 0;

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		char path[512];
		struct btf *btf;

		snprintf(path, sizeof(path), "%s/linux-%s/vmlinux", TEST_VMLINUX_DIR, kinds[i]);
		if (access(path, R_OK))
			continue;
		btf = btf__parse(path, NULL);
		assert_non_null(btf);
		if (!kcheck_zone_head_fits(btf))
			fail_msg("%s: struct zone's head does not fit one copy", kinds[i]);
		btf__free(btf);
		seen++;
	}
	if (!seen)
		skip();
}

static void tier_table_before(void **state)
{
	tier_table_matches("before");
}

static void tier_table_after(void **state)
{
	tier_table_matches("after");
}

static void tier_table_6_12(void **state)
{
	tier_table_matches("6.12");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(invalid_btf_file),
		cmocka_unit_test(missing_btf_file),
		cmocka_unit_test(tier_map_inverts),
		cmocka_unit_test(snapshot_members_required),
		cmocka_unit_test(zone_head_checked),
		cmocka_unit_test(zone_head_kernels),
		cmocka_unit_test(tier_table_before),
		cmocka_unit_test(tier_table_after),
		cmocka_unit_test(tier_table_6_12),
	};
	return cmocka_run_group_tests_name("kcheck", tests, NULL, NULL);
}
