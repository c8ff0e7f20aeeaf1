/* See ingest.h: one line of gfptop -j (docs/json-schema.md), one
 * interval, added to its run's totals. */
#include "ingest.h"

#include <stdio.h>
#include <string.h>

#include "json_get.h"
#include "util.h"

/* index of a gfp class or context name in gfptop's table (common/names.c);
 * a name this gfpcompare does not know is left out, said once */
static int known_name(const char *const *names, int n, const char *what, const char *name)
{
	static char warned[8][48];
	int i = names_index(names, n, name), w;

	if (i >= 0)
		return i;
	for (w = 0; w < 8 && warned[w][0]; w++)
		if (!strcmp(warned[w], name))
			return -1;
	if (w < 8)
		snprintf(warned[w], sizeof(warned[w]), "%s", name);
	fprintf(stderr, "gfpcompare: %s '%s' is not in gfptop's names (common/names.c): left out\n",
		what, name);
	return -1;
}

/* margin bucket -> index: 0 for {0,0}, k+1 for [2^k, 2^(k+1)-1], -(k+1) below */
static int bucket_index(long long low, long long high)
{
	long long v;
	int k = 0;

	if (low == 0 && high == 0)
		return 0;
	v = low > 0 ? low : -high;
	while (v > 1 && k < 63) {
		v >>= 1;
		k++;
	}
	return low > 0 ? k + 1 : -(k + 1);
}

/* the tier names and enum values, and what each tier permits on this kernel */
static void add_tier_info(struct results *res, int k, json_object *o)
{
	json_object *x = jobj(o, "tier_values");

	json_object_object_foreach(asobj(x), vname, vv) {
		int ti = tier_index(res, vname);
		long long v;

		if (ti < 0 || !vv || !json_object_is_type(vv, json_type_int))
			continue;
		v = json_object_get_int64(vv);
		/* the same name should have the same value on every run of a
		 * kernel; keep the smallest if not */
		if (!res->tiers[ti].hasval[k] || v < res->tiers[ti].val[k])
			res->tiers[ti].val[k] = v;
		res->tiers[ti].hasval[k] = 1;
	}
	x = jobj(o, "tier_meaning");
	json_object_object_foreach(asobj(x), mname, mv) {
		int ti = tier_index(res, mname);

		if (ti < 0 || res->tiers[ti].meaning[k] || !mv || !json_object_is_type(mv, json_type_string))
			continue;
		res->tiers[ti].meaning[k] = xstrdup(json_object_get_string(mv));
	}
	x = jobj(o, "tier_levels");
	json_object_object_foreach(asobj(x), lname, lv) {
		int ti = tier_index(res, lname);
		json_object *share = jobj(lv, "min_share");

		if (ti < 0 || res->tiers[ti].share_json[k] >= 0 || !share ||
		    !(json_object_is_type(share, json_type_double) ||
		      json_object_is_type(share, json_type_int)))
			continue;
		res->tiers[ti].share_json[k] = json_object_get_double(share);
	}
}

/* the kernel's rule set: "rule_set", or the 6.1 row of its "semantics"
 * (gfptop before rule sets); the first run's */
static void add_rule_set(struct results *res, int k, json_object *o)
{
	json_object *x;

	if (res->rules[k])
		return;
	if ((x = jobj(o, "rule_set")) && json_object_is_type(x, json_type_string))
		res->rules[k] = rule_set_by_id(json_object_get_string(x));
	else if ((x = jobj(o, "semantics")) && json_object_is_type(x, json_type_string))
		res->rules[k] = &rule_sets[strcmp(json_object_get_string(x), "before") ?
					   RS_6_1_AFTER : RS_6_1_BEFORE];
}

/* what to do with one tier's value in a section keyed by tier */
typedef void (*tier_value_fn)(struct results *res, struct run *r, int ti, json_object *v);

/* {tier: value}: fn for each tier, in the JSON's order (which is the order
 * tiers are first seen in) */
static void each_tier(struct results *res, struct run *r, json_object *section, tier_value_fn fn)
{
	json_object_object_foreach(asobj(section), name, v) {
		int ti = tier_index(res, name);

		if (ti >= 0)
			fn(res, r, ti, v);
	}
}

/* "tiers": {count, pages} */
static void add_counts(struct results *res, struct run *r, int ti, json_object *v)
{
	r->td[ti].cnt += jnum(v, "count");
	r->td[ti].pages += jnum(v, "pages");
	r->total += jnum(v, "count");
}

/* {name: {count}} of one tier, names from gfptop's table, into counts[] */
static void add_named_counts(json_object *v, const char *const *names, int n, const char *what,
			     double *counts)
{
	json_object_object_foreach(asobj(v), name, nv) {
		int i = known_name(names, n, what, name);

		if (i >= 0)
			counts[i] += jnum(nv, "count");
	}
}

/* "tier_gfp_class" */
static void add_classes(struct results *res, struct run *r, int ti, json_object *v)
{
	add_named_counts(v, gfp_class_names, GFPC_NR, "gfp class", r->td[ti].cls);
}

/* "tier_context" */
static void add_contexts(struct results *res, struct run *r, int ti, json_object *v)
{
	add_named_counts(v, context_names, GC_NR, "context", r->td[ti].ctx);
}

/* "tier_order": {order: {count}}, counted if order > 0 */
static void add_high_orders(struct results *res, struct run *r, int ti, json_object *v)
{
	json_object_object_foreach(asobj(v), ord, ordv) {
		if (strcmp(ord, "0"))
			r->td[ti].hiord += jnum(ordv, "count");
	}
}

/* "margin_histograms": [{low, high, count}] into log2 buckets -64..64 */
static void add_margins(struct results *res, struct run *r, int ti, json_object *v)
{
	size_t i, n;

	if (!json_object_is_type(v, json_type_array))
		return;
	n = json_object_array_length(v);
	for (i = 0; i < n; i++) {
		json_object *b = json_object_array_get_idx(v, i);
		int bi = bucket_index((long long)jnum(b, "low"), (long long)jnum(b, "high"));

		if (bi < -64)
			bi = -64;
		if (bi > 64)
			bi = 64;
		r->td[ti].hist[bi + 64] += jnum(b, "count");
	}
}

/* "depth_histograms": {bucket: count} */
static void add_depth(struct results *res, struct run *r, int ti, json_object *v)
{
	json_object_object_foreach(asobj(v), bname, bv) {
		int bi = bucket_index_of(res, bname);

		if (bi >= 0)
			r->td[ti].depth[bi] += bv ? json_object_get_double(bv) : 0;
	}
}

/* "pcp_highatomic"'s tiers: {count, pages} */
static void add_pcp_tier(struct results *res, struct run *r, int ti, json_object *v)
{
	r->td[ti].pcp_cnt += jnum(v, "count");
	r->td[ti].pcp_pages += jnum(v, "pages");
}

/* highatomic pageblock pages handed out from per-cpu lists */
static void add_pcp(struct results *res, struct run *r, json_object *x)
{
	if (!x)
		return;
	r->has_pcp = 1;
	r->pcp_cnt += jnum(x, "count");
	r->pcp_pages += jnum(x, "pages");
	each_tier(res, r, jobj(x, "tiers"), add_pcp_tier);
}

/* the highatomic reserve's events, and its largest size over the zones */
static void add_highatomic(struct run *r, json_object *ha)
{
	double sum = 0;

	r->ha_res += jnum(ha, "reserve");
	r->ha_unres += jnum(ha, "unreserve");
	r->ha_forced += jnum(ha, "unreserve_forced");
	json_object_object_foreach(asobj(jobj(ha, "zones")), zname, zv) {
		(void)zname;
		sum += jnum(zv, "nr_reserved_max");
	}
	if (sum > r->ha_max)
		r->ha_max = sum;
}

void add_interval(struct results *res, struct run *r, int k, json_object *o)
{
	if (!r->intervals)
		jstr(o, "schema", r->schema, sizeof(r->schema));
	r->intervals++;
	r->secs += jnum(o, "interval_s");
	add_tier_info(res, k, o);
	add_rule_set(res, k, o);
	each_tier(res, r, jobj(o, "tiers"), add_counts);
	each_tier(res, r, jobj(o, "tier_gfp_class"), add_classes);
	each_tier(res, r, jobj(o, "tier_context"), add_contexts);
	each_tier(res, r, jobj(o, "tier_order"), add_high_orders);
	each_tier(res, r, jobj(o, "margin_histograms"), add_margins);
	if (jobj(o, "depth_histograms"))
		r->has_depth = 1;
	each_tier(res, r, jobj(o, "depth_histograms"), add_depth);
	add_pcp(res, r, jobj(o, "pcp_highatomic"));
	add_highatomic(r, jobj(o, "highatomic"));
	r->rfail += jnum(jobj(o, "reserve_fail"), "count");
	r->lost += jnum(jobj(o, "lost"), "process_map_full") + jnum(jobj(o, "lost"), "gfp_map_full");
}
