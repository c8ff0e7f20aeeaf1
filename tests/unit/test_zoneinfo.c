/* /proc/zoneinfo parsing, the highatomic merge over CPUs, and the zone
 * header in the live view and JSON (its --prom gauges: test_prom.c). The
 * data/zoneinfo.* files are real /proc/zoneinfo text (the name says of
 * what). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "format.h"
#include "json.h"
#include "merge.h"
#include "report.h"
#include "zone_fixture.h"
#include "zoneinfo.h"

static int read_fixture(const char *name, struct zone_row *rows)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", TEST_DATA_DIR, name);
	return zoneinfo_read(path, rows, ZONEINFO_MAX);
}

/* What a fixture's zones must parse to (boost 0 in all of them: the
 * unboosting is boost_subtracted's) */
struct want {
	const char *name;
	int idx;
	uint64_t free, min, low, high, managed;
};

/* A fixture and the zones it must parse to, populated or not */
struct fixture {
	const char *file;
	int n;
	struct want w[ZONEINFO_MAX];
};

static const struct fixture fixtures[] = {
	/* a host (6.18, the 6.12 format with "promo"): DMA, DMA32, Normal
	 * populated, Movable and Device listed with managed 0 */
	{ "zoneinfo.host-6.18-5zones", 5, {
		{ "DMA", 0, 3840, 32, 40, 48, 3840 },
		{ "DMA32", 1, 772847, 6564, 8205, 9846, 772847 },
		{ "Normal", 2, 680514, 10298, 12872, 15446, 1212416 },
		{ "Movable", 3, 0, 32, 32, 32, 0 },
		{ "Device", 4, 0, 0, 0, 0, 0 } } },
	/* the after guest (6.1, 256 MB, no ZONE_DMA): DMA32 alone
	 * populated, its per-node stats above "pages free" */
	{ "zoneinfo.guest-6.1-after", 3, {
		{ "DMA32", 0, 38059, 4096, 5120, 6144, 59318 },
		{ "Normal", 1, 0, 0, 0, 0, 0 },
		{ "Movable", 2, 0, 0, 0, 0, 0 } } },
	/* the 6.12 guest: the same zones, and 6.12's "promo" line (not a
	 * field gfptop reads) */
	{ "zoneinfo.guest-6.12", 3, {
		{ "DMA32", 0, 41562, 4096, 5120, 6144, 59717 },
		{ "Normal", 1, 0, 0, 0, 0, 0 },
		{ "Movable", 2, 0, 32, 32, 32, 0 } } },
	/* Debian's 6.12 (6.12.118+deb12-amd64) in the same guest: with
	 * ZONE_DMA and ZONE_DEVICE, DMA and DMA32 populated */
	{ "zoneinfo.debian-6.12", 5, {
		{ "DMA", 0, 3808, 291, 363, 435, 3840 },
		{ "DMA32", 1, 35452, 3804, 4755, 5706, 50032 },
		{ "Normal", 2, 0, 0, 0, 0, 0 },
		{ "Movable", 3, 0, 32, 32, 32, 0 },
		{ "Device", 4, 0, 0, 0, 0, 0 } } },
};

/* the fixture (the test's state) has exactly its zones, and the
 * populated filter keeps those with managed pages, in order */
static void fixture_zones(void **state)
{
	const struct fixture *fx = *state;
	const struct want *w = fx->w;
	struct zone_row z[ZONEINFO_MAX];
	size_t k = 0, n;

	assert_int_equal(read_fixture(fx->file, z), fx->n);
	for (int i = 0; i < fx->n; i++) {
		assert_string_equal(z[i].name, w[i].name);
		assert_int_equal(z[i].node, 0);
		assert_int_equal(z[i].idx, w[i].idx);
		assert_int_equal(z[i].free, w[i].free);
		assert_int_equal(z[i].min, w[i].min);
		assert_int_equal(z[i].low, w[i].low);
		assert_int_equal(z[i].high, w[i].high);
		assert_int_equal(z[i].managed, w[i].managed);
	}
	n = zoneinfo_populated(z, (size_t)fx->n);
	for (int i = 0; i < fx->n; i++)
		if (w[i].managed)
			assert_string_equal(z[k++].name, w[i].name);
	assert_int_equal(n, k);
}

/* the filter keeps the order, whatever is left out between */
static void populated_in_order(void **state)
{
	struct zone_row z[4] = { { .idx = 0 }, { .idx = 1, .managed = 5 }, { .idx = 2 },
				 { .idx = 3, .managed = 7 } };

	assert_int_equal(zoneinfo_populated(z, 4), 2);
	assert_int_equal(z[0].idx, 1);
	assert_int_equal(z[1].idx, 3);
}

/* zoneinfo prints min_wmark_pages() = _watermark + boost: unboosted here;
 * the pagesets' "high:" and the counters' names are not the fields */
static void boost_subtracted(void **state)
{
	const char *text =
		"Node 0, zone    DMA32\n"
		"  pages free     1000\n"
		"        boost    300\n"
		"        min      400\n"
		"        low      500\n"
		"        high     600\n"
		"        spanned  131072\n"
		"        present  130000\n"
		"        managed  120000\n"
		"        cma      0\n"
		"        protection: (0, 0, 0, 0)\n"
		"      nr_free_pages 1000\n"
		"  pagesets\n"
		"    cpu: 0\n"
		"              count: 10\n"
		"              high:  999\n"
		"              batch: 63\n"
		"  node_unreclaimable:  0\n"
		"  start_pfn:           4096\n"
		"Node 1, zone    DMA32\n"
		"  pages free     5\n"
		"        boost    0\n"
		"        min      1\n"
		"        low      2\n"
		"        high     3\n"
		"        managed  7\n";
	struct zone_row z[4];

	assert_int_equal(zoneinfo_parse(text, z, 4), 2);
	assert_int_equal(z[0].boost, 300);
	assert_int_equal(z[0].min, 100);
	assert_int_equal(z[0].low, 200);
	assert_int_equal(z[0].high, 300);
	assert_int_equal(z[0].free, 1000);
	/* a new node starts at index 0 again */
	assert_int_equal(z[1].node, 1);
	assert_int_equal(z[1].idx, 0);
	assert_int_equal(z[1].high, 3);
	/* a zone without its watermarks: not a format gfptop knows */
	assert_int_equal(zoneinfo_parse("Node 0, zone DMA32\n  pages free 5\n", z, 4), -1);
	assert_int_equal(zoneinfo_read("/nonexistent/zoneinfo", z, 4), -1);
}

static void merge_latest_cpu(void **state)
{
	size_t stride = percpu_stride(sizeof(struct gt_cpu));
	char *buf = calloc(3, stride);
	struct gt_zone_ha out[GT_NR_ZONES];
	struct gt_cpu *c0 = (void *)buf, *c1 = (void *)(buf + stride), *c2 = (void *)(buf + 2 * stride);

	c0->zone_ha[1] = (struct gt_zone_ha){ 100, 512, 0, GT_ZHA_RESERVED };
	c1->zone_ha[1] = (struct gt_zone_ha){ 200, 1024, 0, GT_ZHA_RESERVED };
	c2->zone_ha[1] = (struct gt_zone_ha){ 150, 2048, 0, GT_ZHA_RESERVED };
	c2->zone_ha[2] = (struct gt_zone_ha){ 7, 0, 3, GT_ZHA_RESERVED | GT_ZHA_FREE };
	merge_zone_ha(buf, 3, out);
	assert_int_equal(out[1].nr_reserved, 1024);
	assert_int_equal(out[1].jiffies, 200);
	assert_int_equal(out[2].nr_free, 3);
	assert_int_equal(out[0].have, 0);
	free(buf);
}

static void ha_attached_once_per_index(void **state)
{
	struct zone_row z[3] = {
		{ .node = 0, .idx = 1, .managed = 1 },
		{ .node = 0, .idx = 2, .managed = 1 },
		{ .node = 1, .idx = 2, .managed = 1 },
	};
	struct gt_zone_ha ha[GT_NR_ZONES] = { 0 };
	uint64_t prev[GT_NR_ZONES] = { 0 };

	ha[1] = (struct gt_zone_ha){ 50, 1536, 0, GT_ZHA_RESERVED };
	ha[2] = (struct gt_zone_ha){ 50, 512, 0, GT_ZHA_RESERVED };
	prev[1] = 50;
	zoneinfo_attach_ha(z, 3, ha, prev);
	assert_true(z[0].have_ha_reserved);
	assert_int_equal(z[0].ha_reserved, 1536);
	assert_false(z[0].have_ha_free);	/* 6.1: never a made-up 0 */
	assert_false(z[0].ha_in_interval);	/* same stamp as before */
	/* Normal on two nodes: the BPF side cannot say whose it is */
	assert_false(z[1].have_ha_reserved);
	assert_false(z[2].have_ha_reserved);
}

static void fill_report(struct report *r)
{
	memset(r, 0, sizeof(*r));
	fill_zone_rows(r);
}

static void header_lines(void **state)
{
	static struct report r;
	char *text = NULL, *line;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int n = 0;

	fill_report(&r);
	fmt_zones(f, &r);
	fclose(f);
	assert_non_null(strstr(text, "ZONE "));
	assert_non_null(strstr(text, "DMA32           12345   301%     4096     5120     6144       0"
				     "     1024    25%        -\n"));
	for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n"), n++)
		assert_true(strlen(line) < 100);
	assert_int_equal(n, 3);
	free(text);

	/* no zones (zoneinfo unreadable): no header */
	r.nzones = 0;
	f = open_memstream(&text, &len);
	fmt_zones(f, &r);
	fclose(f);
	assert_int_equal(len, 0);
	free(text);
}

static void json_zones(void **state)
{
	static struct report r;
	struct json_object *o, *z, *v;

	fill_report(&r);
	o = json_report(&r);
	assert_true(json_object_object_get_ex(o, "zones", &z));
	assert_int_equal(json_object_array_length(z), 2);
	v = json_object_array_get_idx(z, 0);
	assert_string_equal(json_object_get_string(json_object_object_get(v, "zone")), "DMA32");
	assert_int_equal(json_object_get_int64(json_object_object_get(v, "min")), 4096);
	assert_int_equal(json_object_get_int64(json_object_object_get(v, "nr_reserved_highatomic")),
			 1024);
	/* present, and null: never seen */
	assert_true(json_object_object_get_ex(v, "nr_free_highatomic", NULL));
	assert_null(json_object_object_get(v, "nr_free_highatomic"));
	assert_true(json_object_get_double(json_object_object_get(v, "free_pct_min")) > 301.3);
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_prestate(fixture_zones, (void *)&fixtures[0]),
		cmocka_unit_test_prestate(fixture_zones, (void *)&fixtures[1]),
		cmocka_unit_test_prestate(fixture_zones, (void *)&fixtures[2]),
		cmocka_unit_test_prestate(fixture_zones, (void *)&fixtures[3]),
		cmocka_unit_test(populated_in_order),
		cmocka_unit_test(boost_subtracted),
		cmocka_unit_test(merge_latest_cpu),
		cmocka_unit_test(ha_attached_once_per_index),
		cmocka_unit_test(header_lines),
		cmocka_unit_test(json_zones),
	};
	return cmocka_run_group_tests_name("zoneinfo", tests, NULL, NULL);
}
