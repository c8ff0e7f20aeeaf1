/* See prom.h and docs/prometheus.md (keep the two in step). */
#include "prom.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

static void add_u64s(uint64_t *dst, const uint64_t *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] += src[i];
}

void prom_accumulate(struct report *cum, const struct report *r)
{
	_Static_assert(sizeof(struct gt_counters) % sizeof(uint64_t) == 0, "all __u64");
	_Static_assert(sizeof(cum->gfp) % sizeof(uint64_t) == 0, "all __u64");

	add_u64s((uint64_t *)&cum->c, (const uint64_t *)&r->c, sizeof(r->c) / sizeof(uint64_t));
	add_u64s((uint64_t *)cum->gfp, (const uint64_t *)r->gfp, sizeof(r->gfp) / sizeof(uint64_t));
	cum->timestamp = r->timestamp;
	cum->interval_s += r->interval_s;
	cum->kernel_release = r->kernel_release;
	cum->rules = r->rules;
	cum->source = r->source;
	cum->tiers_derived = r->tiers_derived;
	memcpy(cum->ha, r->ha, sizeof(cum->ha));
	memcpy(cum->zone_names, r->zone_names, sizeof(cum->zone_names));
	memcpy(cum->tier_values, r->tier_values, sizeof(cum->tier_values));
	memcpy(cum->zones, r->zones, sizeof(cum->zones));
	cum->nzones = r->nzones;
	cum->procs = NULL;
	cum->nprocs = 0;
	cum->nprocs_total = 0;
}

static void family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* A label value in the text format: \ " and newline escaped. */
static void label_value(FILE *f, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\')
			fputs("\\\\", f);
		else if (*v == '"')
			fputs("\\\"", f);
		else if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
}

/* sample(f, name, value, n, key1, value1, ...): n label pairs */
static void sample(FILE *f, const char *name, uint64_t v, int n, ...)
{
	va_list ap;

	fputs(name, f);
	va_start(ap, n);
	for (int i = 0; i < n; i++) {
		const char *k = va_arg(ap, const char *);

		fprintf(f, "%s%s=\"", i ? "," : "{", k);
		label_value(f, va_arg(ap, const char *));
		fputc('"', f);
	}
	va_end(ap);
	fprintf(f, "%s %" PRIu64 "\n", n ? "}" : "", v);
}

/* Tiers as in the JSON: every known one; unknown has no kernel value. */
#define FOR_TIERS(t) for (int t = 0; t < GT_NR_TIERS; t++)

/* The count and pages families of one breakdown of the tiers: key k of
 * nkeys, label name key, key_name(k) its value; only non-zero series. */
static void cnt_families(FILE *f, const struct report *r, const char *what, const char *key,
			 int nkeys, const struct gt_cnt *(*get)(const struct report *, int, int),
			 const char *(*key_name)(const struct report *, int, char *, size_t),
			 const char *help_count, const char *help_pages)
{
	char name[96], kbuf[32];

	for (int pages = 0; pages < 2; pages++) {
		snprintf(name, sizeof(name), "gfptop_%s%s_total", what,
			 pages ? "allocated_pages" : "allocations");
		family(f, name, "counter", pages ? help_pages : help_count);
		FOR_TIERS(t) {
			for (int k = 0; k < nkeys; k++) {
				const struct gt_cnt *c = get(r, t, k);
				uint64_t v = pages ? c->pages : c->count;

				if (c->count)
					sample(f, name, v, 2, "tier", tier_name(t), key,
					       key_name(r, k, kbuf, sizeof(kbuf)));
			}
		}
	}
}

static const struct gt_cnt *get_order(const struct report *r, int t, int k) { return &r->c.order[t][k]; }
static const struct gt_cnt *get_zone(const struct report *r, int t, int k) { return &r->c.zone[t][k]; }
static const struct gt_cnt *get_ctx(const struct report *r, int t, int k) { return &r->c.ctx[t][k]; }
static const struct gt_cnt *get_gfp(const struct report *r, int t, int k) { return &r->gfp[t][k]; }

static const char *order_name(const struct report *r, int k, char *buf, size_t len)
{
	snprintf(buf, len, "%d", k);
	return buf;
}

static const char *ctx_name(const struct report *r, int k, char *buf, size_t len)
{
	return context_names[k];
}

static const char *gfp_name(const struct report *r, int k, char *buf, size_t len)
{
	return gfpclass_name(k);
}

/* The counters without labels, one gfptop_stat each */
static const struct {
	const char *name, *help;
	enum gfptop_stat stat;
} stat_counters[] = {
	{ "gfptop_reserve_fail_total",
	  "Failed allocations that held a reserve right (mm_page_alloc_reserve_fail).",
	  GS_RESERVE_FAIL },
	{ "gfptop_reserve_fail_pages_total",
	  "Pages of the failed allocations that held a reserve right.", GS_RESERVE_FAIL_PAGES },
	{ "gfptop_highatomic_reserve_total",
	  "Pageblocks reserved as MIGRATE_HIGHATOMIC (mm_reserve_highatomic).", GS_HA_RESERVE },
	{ "gfptop_highatomic_unreserve_total",
	  "Highatomic pageblocks given back (mm_unreserve_highatomic), forced or not.",
	  GS_HA_UNRESERVE },
	{ "gfptop_highatomic_unreserve_forced_total",
	  "Highatomic pageblocks given back with force set.", GS_HA_UNRESERVE_FORCED },
	{ "gfptop_highatomic_moved_pages_total",
	  "Free pages moved out of the highatomic reserve by unreserving.", GS_HA_MOVED },
	{ "gfptop_events_total",
	  "mm_page_alloc_tier events seen, before gfptop's filters (-p, -c, -m, -t).", GS_EVENTS },
	{ "gfptop_events_filtered_total",
	  "mm_page_alloc_tier events dropped by gfptop's filters.", GS_FILTERED },
};

/* The zone header's one-value gauges (zoneinfo.h), as of the last
 * interval: the field, and the flag that says it was seen (-1: always
 * known); the highatomic ones only where a snapshot carried them, never
 * a made-up 0. */
static const struct {
	const char *name, *help;
	size_t off;
	long have;
} zone_gauge[] = {
	{ "gfptop_zone_free_pages",
	  "Free pages of the zone (/proc/zoneinfo's pages free) at the end of the last interval.",
	  offsetof(struct zone_row, free), -1 },
	{ "gfptop_zone_boost_pages",
	  "The zone's watermark_boost (/proc/zoneinfo's boost) at the end of the last interval.",
	  offsetof(struct zone_row, boost), -1 },
	{ "gfptop_zone_reserved_highatomic_pages",
	  "zone->nr_reserved_highatomic in the latest allocation snapshot gfptop saw.",
	  offsetof(struct zone_row, ha_reserved), offsetof(struct zone_row, have_ha_reserved) },
	{ "gfptop_zone_free_highatomic_pages",
	  "zone->nr_free_highatomic (6.12) in the latest allocation snapshot gfptop saw.",
	  offsetof(struct zone_row, ha_free), offsetof(struct zone_row, have_ha_free) },
};

static void zone_gauges(FILE *f, const struct report *r)
{
	static const char *const marks[] = { "min", "low", "high" };
	char node[16];

	for (size_t g = 0; g < sizeof(zone_gauge) / sizeof(zone_gauge[0]); g++) {
		family(f, zone_gauge[g].name, "gauge", zone_gauge[g].help);
		for (size_t i = 0; i < r->nzones; i++) {
			const char *z = (const char *)&r->zones[i];

			if (zone_gauge[g].have >= 0 && !*(const bool *)(z + zone_gauge[g].have))
				continue;
			snprintf(node, sizeof(node), "%d", r->zones[i].node);
			sample(f, zone_gauge[g].name, *(const uint64_t *)(z + zone_gauge[g].off), 2,
			       "node", node, "zone", r->zones[i].name);
		}
	}
	family(f, "gfptop_zone_watermark_pages", "gauge",
	       "The zone's min, low and high watermarks without the boost (/proc/zoneinfo's minus "
	       "boost).");
	for (size_t i = 0; i < r->nzones; i++) {
		const struct zone_row *z = &r->zones[i];
		const uint64_t v[] = { z->min, z->low, z->high };

		snprintf(node, sizeof(node), "%d", z->node);
		for (int m = 0; m < 3; m++)
			sample(f, "gfptop_zone_watermark_pages", v[m], 3, "node", node, "zone", z->name,
			       "mark", marks[m]);
	}
}

/* what the counts are of: the kernel, the source, the tiers */
static void info_families(FILE *f, const struct report *r)
{
	char buf[32];

	family(f, "gfptop_kernel_info", "gauge",
	       "The kernel gfptop runs on: release, and before or after the \"Discard __GFP_ATOMIC\" "
	       "series (the semantics of the tiers).");
	sample(f, "gfptop_kernel_info", 1, 3, "release", r->kernel_release ? r->kernel_release : "",
	       "semantics", report_semantics(r), "semantics_flags", report_semantics_flags(r));
	/* Apart from gfptop_kernel_info, whose series (and joins on it) stay
	 * as they were: the JSON's "source" and "tiers_derived", so a rule
	 * can tell the probe's derived tiers from the tracepoint's. */
	family(f, "gfptop_source_info", "gauge",
	       "Where the counts come from: the source (tracepoint, probe or both) and whether the "
	       "tiers are derived from zone counters (the probe: no reserve_fail, no pcp highatomic).");
	sample(f, "gfptop_source_info", 1, 2, "source", r->source ? r->source : "tracepoint",
	       "tiers_derived", r->tiers_derived ? "true" : "false");
	family(f, "gfptop_tier_info", "gauge",
	       "Each tier the kernel has: its enum page_alloc_tier value and what it permits on this kernel.");
	for (int t = 0; t < GT_UNKNOWN; t++) {
		if (r->tier_values[t] < 0)
			continue;
		snprintf(buf, sizeof(buf), "%lld", (long long)r->tier_values[t]);
		sample(f, "gfptop_tier_info", 1, 3, "tier", tier_name(t), "kernel_value", buf,
		       "meaning", tier_meaning(r, t));
	}
}

/* allocations by tier and each breakdown, and by depth */
static void tier_families(FILE *f, const struct report *r)
{
	cnt_families(f, r, "", "order", GT_NR_ORDERS, get_order, order_name,
		     "Allocations since gfptop started, by the reserve tier that satisfied them and order.",
		     "Pages allocated since gfptop started, by reserve tier and order.");
	cnt_families(f, r, "zone_", "zone", GT_NR_ZONES, get_zone, report_zone_name,
		     "Allocations since gfptop started, by reserve tier and zone.",
		     "Pages allocated since gfptop started, by reserve tier and zone.");
	cnt_families(f, r, "context_", "context", GC_NR, get_ctx, ctx_name,
		     "Allocations since gfptop started, by reserve tier and context (task, softirq, hardirq).",
		     "Pages allocated since gfptop started, by reserve tier and context.");
	cnt_families(f, r, "gfp_class_", "gfp_class", GFPC_NR, get_gfp, gfp_name,
		     "Allocations since gfptop started, by reserve tier and GFP class.",
		     "Pages allocated since gfptop started, by reserve tier and GFP class.");

	family(f, "gfptop_depth_allocations_total", "counter",
	       "Allocations since gfptop started, by reserve tier and where free pages stood as a "
	       "share of the unboosted min watermark.");
	FOR_TIERS(t) {
		for (int b = 0; b < GD_NR; b++)
			if (r->c.depth[t][b])
				sample(f, "gfptop_depth_allocations_total", r->c.depth[t][b], 2,
				       "tier", tier_name(t), "depth", depth_bucket_names[b]);
	}
}

/* highatomic pageblock pages used via per-cpu lists */
static void pcp_highatomic_families(FILE *f, const struct report *r)
{
	for (int pages = 0; pages < 2; pages++) {
		const char *name = pages ? "gfptop_pcp_highatomic_pages_total" :
					   "gfptop_pcp_highatomic_allocations_total";

		family(f, name, "counter", pages ?
		       "Highatomic pageblock pages handed out from per-cpu lists, by watermark tier." :
		       "Allocations of highatomic pageblock pages from a per-cpu list (the reserve "
		       "used without the right to it), by watermark tier.");
		FOR_TIERS(t) {
			const struct gt_cnt *c = &r->c.pcp_highatomic[t];

			if (c->count)
				sample(f, name, pages ? c->pages : c->count, 1, "tier", tier_name(t));
		}
	}
}

/* the events counted whole: reserve failures, highatomic decisions */
static void stat_families(FILE *f, const struct report *r)
{
	for (size_t i = 0; i < sizeof(stat_counters) / sizeof(stat_counters[0]); i++) {
		family(f, stat_counters[i].name, "counter", stat_counters[i].help);
		sample(f, stat_counters[i].name, r->c.stat[stat_counters[i].stat], 0);
	}
}

/* the highatomic reserve's level per zone */
static void reserve_families(FILE *f, const struct report *r)
{
	char buf[32];

	for (int max = 0; max < 2; max++) {
		const char *name = max ? "gfptop_highatomic_reserved_pages_max" :
					 "gfptop_highatomic_reserved_pages";

		family(f, name, "gauge", max ?
		       "Highest zone->nr_reserved_highatomic since gfptop started." :
		       "zone->nr_reserved_highatomic after the latest highatomic event in the zone.");
		for (int z = 0; z < GT_NR_ZONES; z++)
			if (r->ha[z].seen)
				sample(f, name, max ? r->ha[z].max : r->ha[z].last, 1, "zone",
				       report_zone_name(r, z, buf, sizeof(buf)));
	}
}

int prom_write(FILE *f, const struct report *r)
{
	const __u64 *s = r->c.stat;

	info_families(f, r);
	tier_families(f, r);
	pcp_highatomic_families(f, r);
	stat_families(f, r);
	reserve_families(f, r);
	zone_gauges(f, r);

	family(f, "gfptop_events_lost_total", "counter",
	       "Events not counted in one breakdown because its BPF map was full.");
	sample(f, "gfptop_events_lost_total", s[GS_PROC_DROPPED], 1, "map", "process");
	sample(f, "gfptop_events_lost_total", s[GS_GFP_DROPPED], 1, "map", "gfp");

	if (fflush(f) || ferror(f))
		return -1;
	return 0;
}
