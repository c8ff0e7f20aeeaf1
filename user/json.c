/* See json.h and docs/json-schema.md (keep the two in step). */
#include "json.h"
#include "format.h"

#include <stdio.h>
#include <string.h>

static struct json_object *cnt_obj(uint64_t count, uint64_t pages)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "count", json_object_new_int64((int64_t)count));
	json_object_object_add(o, "pages", json_object_new_int64((int64_t)pages));
	return o;
}

static void add_u64(struct json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_int64((int64_t)v));
}

/* A number with at most `digits` decimals, as written (no binary-fraction
 * tail like 0.64997160000000065): the clocks resolve microseconds.
 * Trailing zeros go, one decimal stays: 2.000000 is 2.0. */
static struct json_object *rounded(double v, int digits)
{
	char buf[64];
	size_t n;

	n = (size_t)snprintf(buf, sizeof(buf), "%.*f", digits, v);
	while (n > 2 && buf[n - 1] == '0' && buf[n - 2] != '.')
		buf[--n] = 0;
	return json_object_new_double_s(v, buf);
}

/* Where the counts came from: the source, and with the probe what it
 * cannot see and how far it had to fall back. */
static void add_source(struct json_object *root, const struct report *r)
{
	/* the counts only the tracepoints have (docs/probe.md) */
	static const char *const probe_blind[] = {
		"reserve_fail", "highatomic.reserve", "highatomic.pages_moved", "pcp_highatomic",
	};
	struct json_object *un = json_object_new_array(), *o;
	const __u64 *s = r->c.stat;

	json_object_object_add(root, "source", json_object_new_string(r->source ? r->source :
								       "tracepoint"));
	json_object_object_add(root, "tiers_derived", json_object_new_boolean(r->tiers_derived));
	if (r->rules_basis)
		json_object_object_add(root, "rules", json_object_new_string(r->rules_basis));
	for (size_t i = 0; r->tiers_derived && i < sizeof(probe_blind) / sizeof(probe_blind[0]); i++)
		json_object_array_add(un, json_object_new_string(probe_blind[i]));
	json_object_object_add(root, "unavailable", un);
	if (r->tiers_derived || r->have_agreement) {
		o = json_object_new_object();
		add_u64(o, "late", s[GS_PROBE_LATE]);
		add_u64(o, "lost", s[GS_PROBE_LOST]);
		add_u64(o, "no_zone", s[GS_PROBE_NO_ZONE]);
		json_object_object_add(root, "probe", o);
	}
	if (r->have_agreement) {
		struct json_object *names = json_object_new_array();
		struct json_object *m = json_object_new_array();

		o = json_object_new_object();
		for (int i = 0; i < GT_NR_TIERS; i++) {
			struct json_object *row = json_object_new_array();

			json_object_array_add(names, json_object_new_string(tier_name(i)));
			for (int j = 0; j < GT_NR_TIERS; j++)
				json_object_array_add(row, json_object_new_int64(
					(int64_t)r->agreement.n[i][j]));
			json_object_array_add(m, row);
		}
		json_object_object_add(o, "tiers", names);
		json_object_object_add(o, "matrix", m);
		add_u64(o, "unmatched", r->agreement.unmatched);
		add_u64(o, "late", r->agreement.late);
		json_object_object_add(root, "agreement", o);
	}
}

/* v, or null where it was never seen */
static struct json_object *opt_u64(bool have, uint64_t v)
{
	return have ? json_object_new_int64((int64_t)v) : NULL;
}

/* v as a percentage of min, one decimal; null without either */
static struct json_object *opt_pct(bool have, uint64_t v, uint64_t min)
{
	double p = zone_pct_of_min(v, min);

	return have && p >= 0 ? rounded(p, 1) : NULL;
}

/* The zone header's numbers (docs/json-schema.md, "zones"). */
static struct json_object *zones_array(const struct report *r)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < r->nzones; i++) {
		const struct zone_row *z = &r->zones[i];
		struct json_object *o = json_object_new_object();

		add_u64(o, "node", (uint64_t)z->node);
		json_object_object_add(o, "zone", json_object_new_string(z->name));
		add_u64(o, "managed", z->managed);
		add_u64(o, "free", z->free);
		json_object_object_add(o, "free_pct_min", opt_pct(true, z->free, z->min));
		add_u64(o, "min", z->min);
		add_u64(o, "low", z->low);
		add_u64(o, "high", z->high);
		add_u64(o, "boost", z->boost);
		json_object_object_add(o, "nr_reserved_highatomic",
				       opt_u64(z->have_ha_reserved, z->ha_reserved));
		json_object_object_add(o, "nr_reserved_highatomic_pct_min",
				       opt_pct(z->have_ha_reserved, z->ha_reserved, z->min));
		json_object_object_add(o, "nr_free_highatomic", opt_u64(z->have_ha_free, z->ha_free));
		json_object_object_add(o, "highatomic_seen_in_interval",
				       json_object_new_boolean(z->ha_in_interval));
		json_object_array_add(a, o);
	}
	return a;
}

/* Every known tier is always present; "unknown" only when it has events. */
static bool tier_shown(const struct report *r, int t)
{
	return t != GT_UNKNOWN || report_tier_total(r, t).count ||
	       r->c.pcp_highatomic[t].count;
}

/* what each watermark level permits on the rule set, as numbers: the
 * share of the unboosted min free pages may go down to, and whether the
 * highatomic pages are subtracted first (gfpcompare reads these) */
static struct json_object *levels_obj(const struct rule_set *rs)
{
	struct json_object *levels = json_object_new_object();

	for (int t = 0; t < GT_NR_LEVELS; t++) {
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "min_share",
				       json_object_new_double(rule_set_min_share(&rs->rules, t)));
		json_object_object_add(o, "highatomic_subtracted",
				       json_object_new_boolean(rule_set_ha_subtracted(&rs->rules, t)));
		json_object_object_add(levels, tier_name(t), o);
	}
	return levels;
}

/* the run's header: schema, time, kernel, semantics, source */
static void add_header(struct json_object *root, const struct report *r)
{
	char buf[32];

	json_object_object_add(root, "schema", json_object_new_string(JSON_SCHEMA_ID));
	fmt_iso_time(r->timestamp, buf, sizeof(buf));
	json_object_object_add(root, "timestamp", json_object_new_string(buf));
	json_object_object_add(root, "time_unix", rounded(r->timestamp, 6));
	json_object_object_add(root, "interval_s", rounded(r->interval_s, 6));
	json_object_object_add(root, "kernel_release",
			       json_object_new_string(r->kernel_release ? r->kernel_release : ""));
	json_object_object_add(root, "semantics", json_object_new_string(report_semantics(r)));
	json_object_object_add(root, "semantics_flags",
			       json_object_new_string(report_semantics_flags(r)));
	json_object_object_add(root, "rule_set", json_object_new_string(report_rules(r)->id));
	json_object_object_add(root, "tier_levels", levels_obj(report_rules(r)));
	add_source(root, r);
}

/* the per-tier sections, each an object keyed by tier name */
enum tier_section {
	TS_MEANING, TS_VALUES, TS_TIERS, TS_ORDER, TS_GFP, TS_ZONE, TS_CONTEXT,
	TS_MARGIN, TS_DEPTH, TS_PCP_HA, TS_NR
};

static struct json_object *order_obj(const struct report *r, int t)
{
	struct json_object *ord = json_object_new_object();
	char buf[8];

	for (int k = 0; k < GT_NR_ORDERS; k++) {
		if (!r->c.order[t][k].count)
			continue;
		snprintf(buf, sizeof(buf), "%d", k);
		json_object_object_add(ord, buf, cnt_obj(r->c.order[t][k].count,
							 r->c.order[t][k].pages));
	}
	return ord;
}

static struct json_object *gfp_obj(const struct report *r, int t)
{
	struct json_object *gfp = json_object_new_object();

	for (int g = 0; g < GFPC_NR; g++)
		json_object_object_add(gfp, gfpclass_name(g),
				       cnt_obj(r->gfp[t][g].count, r->gfp[t][g].pages));
	return gfp;
}

static struct json_object *zone_obj(const struct report *r, int t)
{
	struct json_object *zn = json_object_new_object();
	char buf[32];

	for (int z = 0; z < GT_NR_ZONES; z++) {
		if (!r->zone_names[z][0] && !r->c.zone[t][z].count)
			continue;
		json_object_object_add(zn, report_zone_name(r, z, buf, sizeof(buf)),
				       cnt_obj(r->c.zone[t][z].count, r->c.zone[t][z].pages));
	}
	return zn;
}

static struct json_object *context_obj(const struct report *r, int t)
{
	struct json_object *cx = json_object_new_object();

	for (int x = 0; x < GC_NR; x++)
		json_object_object_add(cx, context_names[x],
				       cnt_obj(r->c.ctx[t][x].count, r->c.ctx[t][x].pages));
	return cx;
}

static struct json_object *margin_arr(const struct report *r, int t)
{
	struct json_object *h = json_object_new_array();

	for (int b = 0; b < HIST_NR_BUCKETS; b++) {
		uint64_t c = hist_bucket_count(&r->c.hist[t], b);
		struct json_object *o;
		long long lo, hi;

		if (!c)
			continue;
		hist_bucket_range(b, &lo, &hi);
		o = json_object_new_object();
		json_object_object_add(o, "low", json_object_new_int64(lo));
		json_object_object_add(o, "high", json_object_new_int64(hi));
		add_u64(o, "count", c);
		json_object_array_add(h, o);
	}
	return h;
}

static struct json_object *depth_obj(const struct report *r, int t)
{
	struct json_object *d = json_object_new_object();

	for (int b = 0; b < GD_NR; b++)
		add_u64(d, depth_bucket_names[b], r->c.depth[t][b]);
	return d;
}

/* tier T's entry in each section (the tiers not shown: only what the
 * kernel defines for them) */
static void add_tier(struct json_object *sec[TS_NR], const struct report *r, int t)
{
	const char *tn = tier_name(t);
	struct gt_cnt tot;

	if (t != GT_UNKNOWN) {
		json_object_object_add(sec[TS_VALUES], tn, r->tier_values[t] >= 0 ?
				       json_object_new_int64(r->tier_values[t]) : NULL);
		json_object_object_add(sec[TS_MEANING], tn,
				       json_object_new_string(tier_meaning(r, t)));
	}
	if (!tier_shown(r, t))
		return;
	tot = report_tier_total(r, t);
	json_object_object_add(sec[TS_TIERS], tn, cnt_obj(tot.count, tot.pages));
	json_object_object_add(sec[TS_ORDER], tn, order_obj(r, t));
	json_object_object_add(sec[TS_GFP], tn, gfp_obj(r, t));
	json_object_object_add(sec[TS_ZONE], tn, zone_obj(r, t));
	json_object_object_add(sec[TS_CONTEXT], tn, context_obj(r, t));
	json_object_object_add(sec[TS_MARGIN], tn, margin_arr(r, t));
	json_object_object_add(sec[TS_DEPTH], tn, depth_obj(r, t));
	json_object_object_add(sec[TS_PCP_HA], tn, cnt_obj(r->c.pcp_highatomic[t].count,
							   r->c.pcp_highatomic[t].pages));
}

static struct json_object *procs_arr(const struct report *r)
{
	struct json_object *procs = json_object_new_array();

	for (size_t i = 0; i < r->nprocs; i++) {
		const struct proc_row *p = &r->procs[i];
		struct json_object *pt = json_object_new_object();
		struct json_object *o = json_object_new_object();

		add_u64(o, "pid", p->pid);
		json_object_object_add(o, "comm", json_object_new_string(p->comm));
		add_u64(o, "count", p->count);
		add_u64(o, "pages", p->pages);
		add_u64(o, "reserve_count", p->reserve_count);
		add_u64(o, "reserve_pages", p->reserve_pages);
		for (int t = 0; t < GT_NR_TIERS; t++)
			if (p->tier[t].count)
				json_object_object_add(pt, tier_name(t),
						       cnt_obj(p->tier[t].count, p->tier[t].pages));
		json_object_object_add(o, "tiers", pt);
		json_object_array_add(procs, o);
	}
	return procs;
}

static struct json_object *pcp_ha_obj(const struct report *r, struct json_object *tiers)
{
	struct gt_cnt tot = report_pcp_highatomic_total(r);
	struct json_object *pcp_ha = json_object_new_object();

	add_u64(pcp_ha, "count", tot.count);
	add_u64(pcp_ha, "pages", tot.pages);
	json_object_object_add(pcp_ha, "tiers", tiers);
	return pcp_ha;
}

static struct json_object *highatomic_obj(const struct report *r)
{
	struct json_object *ha = json_object_new_object(), *zones, *o;
	const __u64 *s = r->c.stat;
	char buf[32];

	add_u64(ha, "reserve", s[GS_HA_RESERVE]);
	add_u64(ha, "unreserve", s[GS_HA_UNRESERVE]);
	add_u64(ha, "unreserve_forced", s[GS_HA_UNRESERVE_FORCED]);
	add_u64(ha, "pages_moved", s[GS_HA_MOVED]);
	zones = json_object_new_object();
	for (int z = 0; z < GT_NR_ZONES; z++) {
		if (!r->ha[z].seen)
			continue;
		o = json_object_new_object();
		add_u64(o, "nr_reserved", r->ha[z].last);
		add_u64(o, "nr_reserved_max", r->ha[z].max);
		json_object_object_add(zones, report_zone_name(r, z, buf, sizeof(buf)), o);
	}
	json_object_object_add(ha, "zones", zones);
	return ha;
}

/* failures, what gfptop lost, and the events it saw */
static void add_tail(struct json_object *root, const struct report *r)
{
	const __u64 *s = r->c.stat;
	struct json_object *o;

	json_object_object_add(root, "reserve_fail",
			       cnt_obj(s[GS_RESERVE_FAIL], s[GS_RESERVE_FAIL_PAGES]));
	o = json_object_new_object();
	add_u64(o, "process_map_full", s[GS_PROC_DROPPED]);
	add_u64(o, "gfp_map_full", s[GS_GFP_DROPPED]);
	json_object_object_add(root, "lost", o);
	o = json_object_new_object();
	add_u64(o, "seen", s[GS_EVENTS]);
	add_u64(o, "filtered", s[GS_FILTERED]);
	json_object_object_add(root, "events", o);
}

struct json_object *json_report(const struct report *r)
{
	/* the order the keys are written in (docs/json-schema.md) */
	static const struct { enum tier_section sec; const char *key; } tier_keys[] = {
		{ TS_MEANING, "tier_meaning" }, { TS_VALUES, "tier_values" },
		{ TS_TIERS, "tiers" }, { TS_ORDER, "tier_order" },
		{ TS_GFP, "tier_gfp_class" }, { TS_ZONE, "tier_zone" },
		{ TS_CONTEXT, "tier_context" },
	};
	struct json_object *root = json_object_new_object();
	struct json_object *sec[TS_NR];

	add_header(root, r);
	for (int i = 0; i < TS_NR; i++)
		sec[i] = json_object_new_object();
	for (int t = 0; t < GT_NR_TIERS; t++)
		add_tier(sec, r, t);
	for (size_t i = 0; i < sizeof(tier_keys) / sizeof(tier_keys[0]); i++)
		json_object_object_add(root, tier_keys[i].key, sec[tier_keys[i].sec]);
	json_object_object_add(root, "top_processes", procs_arr(r));
	add_u64(root, "processes_seen", r->nprocs_total);
	json_object_object_add(root, "margin_histograms", sec[TS_MARGIN]);
	json_object_object_add(root, "depth_histograms", sec[TS_DEPTH]);
	json_object_object_add(root, "pcp_highatomic", pcp_ha_obj(r, sec[TS_PCP_HA]));
	json_object_object_add(root, "highatomic", highatomic_obj(r));
	json_object_object_add(root, "zones", zones_array(r));
	add_tail(root, r);
	return root;
}

int json_write_report(FILE *f, const struct report *r)
{
	struct json_object *o = json_report(r);
	int rc = fprintf(f, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN)) < 0 ? -1 : 0;

	json_object_put(o);
	if (fflush(f))
		rc = -1;
	return rc;
}

void json_prepare(void)
{
	struct json_object *o = json_object_new_object();

	/* the first key hashed takes the seed */
	json_object_object_add(o, "seed", NULL);
	json_object_put(o);
}
