/* JSON schema: keys present, value types, the documented shapes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "json.h"
#include "names.h"

static struct json_object *get(struct json_object *o, const char *key, json_type type)
{
	struct json_object *v = NULL;

	if (!json_object_object_get_ex(o, key, &v))
		fail_msg("key '%s' missing", key);
	if (!json_object_is_type(v, type))
		fail_msg("key '%s' has type %s", key, json_type_to_name(json_object_get_type(v)));
	return v;
}

static struct json_object *build(void)
{
	static struct report r;
	static struct proc_row row;

	memset(&r, 0, sizeof(r));
	r.timestamp = 1700000000.5;
	r.interval_s = 1.0;
	r.kernel_release = "6.1.192-gfptop-before";
	r.rules = &rule_sets[RS_6_1_BEFORE];
	for (int t = 0; t < GT_NR; t++)
		r.tier_values[t] = t;
	r.c.order[GT_MIN_RESERVE][3] = (struct gt_cnt){ 4, 32 };
	r.c.hist[GT_MIN_RESERVE].neg[2] = 4;
	r.c.depth[GT_MIN_RESERVE][GD_62] = 3;
	r.c.depth[GT_MIN_RESERVE][GD_BELOW_25] = 1;
	r.c.pcp_highatomic[GT_NONE] = (struct gt_cnt){ 2, 2 };
	r.c.pcp_highatomic[GT_NON_BLOCK] = (struct gt_cnt){ 1, 1 };
	r.c.zone[GT_MIN_RESERVE][1] = (struct gt_cnt){ 4, 32 };
	r.c.ctx[GT_MIN_RESERVE][GC_SOFTIRQ] = (struct gt_cnt){ 4, 32 };
	r.gfp[GT_MIN_RESERVE][GFPC_ATOMIC] = (struct gt_cnt){ 4, 32 };
	r.c.stat[GS_RESERVE_FAIL] = 1;
	r.c.stat[GS_PROC_DROPPED] = 9;
	r.ha[1] = (struct ha_zone_level){ true, 512, 1024 };
	strcpy(r.zone_names[0], "DMA32");
	strcpy(r.zone_names[1], "Normal");
	row.pid = 99;
	strcpy(row.comm, "ping");
	row.tier[GT_MIN_RESERVE] = (struct gt_cnt){ 4, 32 };
	proc_row_totals(&row);
	r.procs = &row;
	r.nprocs = r.nprocs_total = 1;
	return json_report(&r);
}

/* The probe source: derived, what it cannot see, the agreement matrix;
 * and numbers written with the clock's resolution. */
static void source_sections(void **state)
{
	static struct report r;
	struct json_object *o, *a, *m;
	const char *text;

	memset(&r, 0, sizeof(r));
	r.interval_s = 0.64997160000000065;
	r.timestamp = 1700000000.123456789;
	r.source = "both";
	r.rules_basis = "gfptop's after kernel (whole series)";
	r.have_agreement = true;
	r.agreement.n[GT_NONE][GT_NONE] = 100;
	r.agreement.n[GT_MIN_RESERVE][GT_NONE] = 2;
	r.agreement.unmatched = 3;
	r.c.stat[GS_PROBE_LATE] = 4;
	o = json_report(&r);
	assert_string_equal(json_object_get_string(get(o, "source", json_type_string)), "both");
	assert_false(json_object_get_boolean(get(o, "tiers_derived", json_type_boolean)));
	assert_int_equal(json_object_array_length(get(o, "unavailable", json_type_array)), 0);
	assert_int_equal(json_object_get_int64(get(get(o, "probe", json_type_object), "late",
						   json_type_int)), 4);
	a = get(o, "agreement", json_type_object);
	assert_int_equal(json_object_array_length(get(a, "tiers", json_type_array)), GT_NR_TIERS);
	m = get(a, "matrix", json_type_array);
	assert_int_equal(json_object_get_int64(json_object_array_get_idx(
		json_object_array_get_idx(m, GT_MIN_RESERVE), GT_NONE)), 2);
	assert_int_equal(json_object_get_int64(get(a, "unmatched", json_type_int)), 3);
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	assert_non_null(strstr(text, "\"interval_s\":0.649972,"));
	assert_non_null(strstr(text, "\"time_unix\":1700000000.123457,"));
	json_object_put(o);
	/* trailing zeros trimmed, one decimal kept */
	r.interval_s = 2.0000001;
	r.timestamp = 1700000000.5;
	o = json_report(&r);
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	assert_non_null(strstr(text, "\"interval_s\":2.0,"));
	assert_non_null(strstr(text, "\"time_unix\":1700000000.5,"));
	json_object_put(o);

	r.source = "probe";
	r.tiers_derived = true;
	r.have_agreement = false;
	o = json_report(&r);
	assert_true(json_object_get_boolean(get(o, "tiers_derived", json_type_boolean)));
	assert_string_equal(json_object_get_string(json_object_array_get_idx(
		get(o, "unavailable", json_type_array), 0)), "reserve_fail");
	assert_false(json_object_object_get_ex(o, "agreement", NULL));
	json_object_put(o);
}

static void top_level(void **state)
{
	struct json_object *o = build();

	assert_string_equal(json_object_get_string(get(o, "schema", json_type_string)), JSON_SCHEMA_ID);
	assert_string_equal(json_object_get_string(get(o, "timestamp", json_type_string)),
			    "2023-11-14T22:13:20Z");
	get(o, "time_unix", json_type_double);
	get(o, "interval_s", json_type_double);
	assert_string_equal(json_object_get_string(get(o, "kernel_release", json_type_string)),
			    "6.1.192-gfptop-before");
	assert_string_equal(json_object_get_string(get(o, "semantics", json_type_string)), "before");
	assert_string_equal(json_object_get_string(get(o, "semantics_flags", json_type_string)),
			    "ALLOC_HARDER/ALLOC_HIGH");
	assert_string_equal(json_object_get_string(get(o, "rule_set", json_type_string)),
			    "6.1-before");
	/* the before rules' levels, as numbers: ALLOC_HARDER keeps 75% of min
	 * and the highatomic reserve, ALLOC_HIGH 50% without it */
	struct json_object *lv = get(o, "tier_levels", json_type_object);
	struct json_object *nb = get(lv, "non_block", json_type_object);
	struct json_object *mr = get(lv, "min_reserve", json_type_object);

	assert_int_equal(json_object_object_length(lv), GT_NR_LEVELS);
	assert_true(json_object_get_double(get(nb, "min_share", json_type_double)) == 0.75);
	assert_false(json_object_get_boolean(get(nb, "highatomic_subtracted", json_type_boolean)));
	assert_true(json_object_get_double(get(mr, "min_share", json_type_double)) == 0.5);
	assert_true(json_object_get_boolean(get(mr, "highatomic_subtracted", json_type_boolean)));
	assert_string_equal(JSON_SCHEMA_ID, "gfptop-interval/2");
	const char *objs[] = { "tier_meaning", "tier_values", "tiers", "tier_order", "tier_gfp_class",
			       "tier_zone", "tier_context", "margin_histograms", "depth_histograms",
			       "pcp_highatomic", "highatomic", "reserve_fail", "lost", "events" };
	for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); i++)
		get(o, objs[i], json_type_object);
	get(o, "top_processes", json_type_array);
	get(o, "zones", json_type_array);
	get(o, "processes_seen", json_type_int);
	json_object_put(o);
}

static void per_tier_sections(void **state)
{
	struct json_object *o = build();
	struct json_object *tiers = get(o, "tiers", json_type_object);
	/* the kernel's tiers: every one of the table but unknown */
	const char *const *names = tier_names;
	const size_t nr_names = GT_UNKNOWN;
	const char *buckets[] = { ">100%", "75-100%", "62.5-75%", "50-62.5%", "37.5-50%",
				  "25-37.5%", "<=25%" };

	for (size_t i = 0; i < nr_names; i++) {
		struct json_object *t = get(tiers, names[i], json_type_object);

		/* every known tier, in the enum's order */
		assert_int_equal(json_object_get_int64(get(get(o, "tier_values", json_type_object),
							   names[i], json_type_int)), i);
		get(get(o, "tier_meaning", json_type_object), names[i], json_type_string);
		struct json_object *d = get(get(o, "depth_histograms", json_type_object), names[i],
					    json_type_object);
		/* all seven buckets, in order, always */
		assert_int_equal(json_object_object_length(d), 7);
		size_t k = 0;
		json_object_object_foreach(d, key, val) {
			assert_string_equal(key, buckets[k++]);
			assert_true(json_object_is_type(val, json_type_int));
		}
		get(get(get(o, "pcp_highatomic", json_type_object), "tiers", json_type_object),
		    names[i], json_type_object);
		get(t, "count", json_type_int);
		get(t, "pages", json_type_int);
		get(get(o, "tier_order", json_type_object), names[i], json_type_object);
		get(get(o, "margin_histograms", json_type_object), names[i], json_type_array);
		struct json_object *g = get(get(o, "tier_gfp_class", json_type_object), names[i],
					    json_type_object);
		get(g, "GFP_ATOMIC", json_type_object);
		get(g, "GFP_NOFS_NOIO", json_type_object);
		get(g, "other", json_type_object);
		struct json_object *c = get(get(o, "tier_context", json_type_object), names[i],
					    json_type_object);
		get(c, "task", json_type_object);
		get(c, "softirq", json_type_object);
		get(c, "hardirq", json_type_object);
		struct json_object *z = get(get(o, "tier_zone", json_type_object), names[i],
					    json_type_object);
		get(z, "DMA32", json_type_object);
		get(z, "Normal", json_type_object);
	}
	struct json_object *mr = get(tiers, "min_reserve", json_type_object);
	assert_int_equal(json_object_get_int64(get(mr, "pages", json_type_int)), 32);
	/* "unknown" only appears when it has events */
	assert_false(json_object_object_get_ex(tiers, "unknown", NULL));
	assert_false(json_object_object_get_ex(get(o, "tier_meaning", json_type_object), "unknown",
					       NULL));
	assert_int_equal(json_object_object_length(tiers), 9);
	json_object_put(o);
}

/* The before kernel's meanings; the depth and pcp highatomic counts. */
static void meaning_depth_pcp(void **state)
{
	struct json_object *o = build();
	struct json_object *m = get(o, "tier_meaning", json_type_object);

	assert_string_equal(json_object_get_string(get(m, "non_block", json_type_string)),
			    "ALLOC_HARDER: > 75% of min");
	assert_string_equal(json_object_get_string(get(m, "min_reserve", json_type_string)),
			    "ALLOC_HIGH: > 50% of min, highatomic reserve subtracted");
	assert_string_equal(json_object_get_string(get(m, "no_watermarks", json_type_string)),
			    "ALLOC_NO_WATERMARKS: no watermark check");

	struct json_object *d = get(get(o, "depth_histograms", json_type_object), "min_reserve",
				    json_type_object);
	assert_int_equal(json_object_get_int64(get(d, "62.5-75%", json_type_int)), 3);
	assert_int_equal(json_object_get_int64(get(d, "<=25%", json_type_int)), 1);
	assert_int_equal(json_object_get_int64(get(d, ">100%", json_type_int)), 0);

	struct json_object *p = get(o, "pcp_highatomic", json_type_object);
	assert_int_equal(json_object_get_int64(get(p, "count", json_type_int)), 3);
	assert_int_equal(json_object_get_int64(get(p, "pages", json_type_int)), 3);
	struct json_object *pt = get(p, "tiers", json_type_object);
	assert_int_equal(json_object_get_int64(get(get(pt, "none", json_type_object), "count",
						   json_type_int)), 2);
	assert_int_equal(json_object_get_int64(get(get(pt, "oom", json_type_object), "count",
						   json_type_int)), 0);
	json_object_put(o);
}

static void values(void **state)
{
	struct json_object *o = build();
	struct json_object *ord = get(get(o, "tier_order", json_type_object), "min_reserve",
				      json_type_object);
	struct json_object *h = get(get(o, "margin_histograms", json_type_object), "min_reserve",
				    json_type_array);

	assert_int_equal(json_object_get_int64(get(get(ord, "3", json_type_object), "count",
						   json_type_int)), 4);
	assert_int_equal(json_object_array_length(h), 1);
	struct json_object *b = json_object_array_get_idx(h, 0);
	assert_int_equal(json_object_get_int64(get(b, "low", json_type_int)), -7);
	assert_int_equal(json_object_get_int64(get(b, "high", json_type_int)), -4);
	assert_int_equal(json_object_get_int64(get(b, "count", json_type_int)), 4);

	struct json_object *p = json_object_array_get_idx(get(o, "top_processes", json_type_array), 0);
	assert_int_equal(json_object_get_int64(get(p, "pid", json_type_int)), 99);
	assert_string_equal(json_object_get_string(get(p, "comm", json_type_string)), "ping");
	assert_int_equal(json_object_get_int64(get(p, "reserve_count", json_type_int)), 4);
	get(get(p, "tiers", json_type_object), "min_reserve", json_type_object);

	struct json_object *ha = get(o, "highatomic", json_type_object);
	get(ha, "reserve", json_type_int);
	get(ha, "unreserve", json_type_int);
	struct json_object *zn = get(get(ha, "zones", json_type_object), "Normal", json_type_object);
	assert_int_equal(json_object_get_int64(get(zn, "nr_reserved", json_type_int)), 512);
	assert_int_equal(json_object_get_int64(get(zn, "nr_reserved_max", json_type_int)), 1024);

	assert_int_equal(json_object_get_int64(get(get(o, "reserve_fail", json_type_object), "count",
						   json_type_int)), 1);
	assert_int_equal(json_object_get_int64(get(get(o, "lost", json_type_object),
						   "process_map_full", json_type_int)), 9);
	get(get(o, "lost", json_type_object), "gfp_map_full", json_type_int);
	json_object_put(o);
}

static void one_line(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct report r;

	memset(&r, 0, sizeof(r));
	assert_int_equal(json_write_report(f, &r), 0);
	fclose(f);
	assert_true(len > 2);
	assert_int_equal(buf[len - 1], '\n');
	assert_null(memchr(buf, '\n', len - 1));	/* JSON lines: exactly one */
	struct json_object *o = json_tokener_parse(buf);
	assert_non_null(o);
	json_object_put(o);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(top_level),
		cmocka_unit_test(per_tier_sections),
		cmocka_unit_test(values),
		cmocka_unit_test(meaning_depth_pcp),
		cmocka_unit_test(one_line),
		cmocka_unit_test(source_sections),
	};
	return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
