/* See format.h. */
#include "format.h"
#include "names.h"

#include <string.h>
#include <time.h>

void fmt_iso_time(double t, char *buf, size_t len)
{
	time_t s = (time_t)t;
	struct tm tm;

	gmtime_r(&s, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void hist_bucket_range(int b, long long *lo, long long *hi)
{
	if (b < GT_HIST_SLOTS) {		/* neg[k], k = 31 - b */
		int k = GT_HIST_SLOTS - 1 - b;

		*lo = -((1LL << (k + 1)) - 1);
		*hi = -(1LL << k);
	} else if (b == GT_HIST_SLOTS) {
		*lo = *hi = 0;
	} else {				/* pos[k], k = b - 33 */
		int k = b - GT_HIST_SLOTS - 1;

		*lo = 1LL << k;
		*hi = (1LL << (k + 1)) - 1;
	}
}

uint64_t hist_bucket_count(const struct gt_hist *h, int b)
{
	if (b < GT_HIST_SLOTS)
		return h->neg[GT_HIST_SLOTS - 1 - b];
	if (b == GT_HIST_SLOTS)
		return h->zero;
	return h->pos[b - GT_HIST_SLOTS - 1];
}

void fmt_hist(FILE *f, const struct gt_hist *h)
{
	int first = -1, last = -1;
	uint64_t max = 0;

	for (int b = 0; b < HIST_NR_BUCKETS; b++) {
		uint64_t c = hist_bucket_count(h, b);

		if (!c)
			continue;
		if (first < 0)
			first = b;
		last = b;
		if (c > max)
			max = c;
	}
	if (first < 0)
		return;
	fprintf(f, "%11s    %-11s : %-10s  %s\n", "margin", "", "count", "distribution");
	for (int b = first; b <= last; b++) {
		uint64_t c = hist_bucket_count(h, b);
		char bar[HIST_BAR_WIDTH + 1];
		long long lo, hi;
		int n = (int)(c * HIST_BAR_WIDTH / max);

		memset(bar, '*', n);
		bar[n] = 0;
		hist_bucket_range(b, &lo, &hi);
		fprintf(f, "%11lld -> %-11lld : %-10llu |%-*s|\n", lo, hi,
			(unsigned long long)c, HIST_BAR_WIDTH, bar);
	}
}

static int highest_order(const struct report *r)
{
	int hi = 0;

	for (int t = 0; t < GT_NR_TIERS; t++)
		for (int o = 0; o < GT_NR_ORDERS; o++)
			if (r->c.order[t][o].count && o > hi)
				hi = o;
	return hi;
}

void fmt_tier_order_table(FILE *f, const struct report *r)
{
	int hi = highest_order(r);

	fprintf(f, "%-22s", "TIER \\ ORDER");
	for (int o = 0; o <= hi; o++)
		fprintf(f, " %9d", o);
	fprintf(f, " %11s %11s\n", "ALLOCS", "PAGES");
	for (int t = 0; t < GT_NR_TIERS; t++) {
		struct gt_cnt tot = report_tier_total(r, t);

		if (!tot.count)
			continue;
		fprintf(f, "%-22s", tier_name(t));
		for (int o = 0; o <= hi; o++)
			fprintf(f, " %9llu", (unsigned long long)r->c.order[t][o].count);
		fprintf(f, " %11llu %11llu\n", (unsigned long long)tot.count,
			(unsigned long long)tot.pages);
	}
}

static void fmt_header(FILE *f, const struct report *r, bool timestamps)
{
	if (timestamps) {
		char ts[32];

		fmt_iso_time(r->timestamp, ts, sizeof(ts));
		fprintf(f, "%s ", ts);
	}
	fprintf(f, "gfptop: kernel %s, %s-series semantics (%s), interval %.2fs\n",
		r->kernel_release ? r->kernel_release : "?", report_semantics(r),
		report_semantics_flags(r), r->interval_s);
	if (r->tiers_derived)
		fprintf(f, "tiers DERIVED by the probe source from zone counters (%s); not seen: "
			"reserve_fail, highatomic reserve, pcp highatomic (docs/probe.md)\n",
			r->rules_basis ? r->rules_basis : "?");
}

/* v, or "-" where it was never seen */
static const char *opt_u64(char *buf, size_t len, bool have, uint64_t v)
{
	if (!have)
		return "-";
	snprintf(buf, len, "%llu", (unsigned long long)v);
	return buf;
}

/* v as a share of min, "301%", or "-" */
static const char *opt_pct(char *buf, size_t len, bool have, uint64_t v, uint64_t min)
{
	double p = zone_pct_of_min(v, min);

	if (!have || p < 0)
		return "-";
	snprintf(buf, len, "%.0f%%", p);
	return buf;
}

void fmt_zones(FILE *f, const struct report *r)
{
	bool nodes = false;

	if (!r->nzones)
		return;
	for (size_t i = 0; i < r->nzones; i++)
		if (r->zones[i].node != r->zones[0].node)
			nodes = true;
	fprintf(f, "%-10s %10s %6s %8s %8s %8s %7s %8s %6s %8s\n", "ZONE", "FREE", "%MIN", "MIN",
		"LOW", "HIGH", "BOOST", "HA_RSV", "%MIN", "HA_FREE");
	for (size_t i = 0; i < r->nzones; i++) {
		const struct zone_row *z = &r->zones[i];
		char name[32], p1[16], rsv[24], p2[16], hfree[24];

		if (nodes)
			snprintf(name, sizeof(name), "%d:%s", z->node, z->name);
		else
			snprintf(name, sizeof(name), "%s", z->name);
		fprintf(f, "%-10s %10llu %6s %8llu %8llu %8llu %7llu %8s %6s %8s\n", name,
			(unsigned long long)z->free, opt_pct(p1, sizeof(p1), true, z->free, z->min),
			(unsigned long long)z->min, (unsigned long long)z->low,
			(unsigned long long)z->high, (unsigned long long)z->boost,
			opt_u64(rsv, sizeof(rsv), z->have_ha_reserved, z->ha_reserved),
			opt_pct(p2, sizeof(p2), z->have_ha_reserved, z->ha_reserved, z->min),
			opt_u64(hfree, sizeof(hfree), z->have_ha_free, z->ha_free));
	}
}

static void fmt_footer(FILE *f, const struct report *r)
{
	const __u64 *s = r->c.stat;
	char zb[16];

	fprintf(f, "reserve_fail %llu  highatomic reserve %llu unreserve %llu (forced %llu)",
		(unsigned long long)s[GS_RESERVE_FAIL], (unsigned long long)s[GS_HA_RESERVE],
		(unsigned long long)s[GS_HA_UNRESERVE], (unsigned long long)s[GS_HA_UNRESERVE_FORCED]);
	for (int z = 0; z < GT_NR_ZONES; z++)
		if (r->ha[z].seen)
			fprintf(f, "  %s nr_reserved %llu max %llu", report_zone_name(r, z, zb, sizeof(zb)),
				(unsigned long long)r->ha[z].last, (unsigned long long)r->ha[z].max);
	fprintf(f, "\n");
	if (s[GS_PROC_DROPPED] || s[GS_GFP_DROPPED])
		fprintf(f, "LOST: %llu events not counted by process (map full), %llu not counted by gfp flags (map full)\n",
			(unsigned long long)s[GS_PROC_DROPPED], (unsigned long long)s[GS_GFP_DROPPED]);
}

int fmt_tier_legend(FILE *f, const struct report *r)
{
	int n = 0;

	for (int t = 0; t < GT_NR_TIERS; t++) {
		if (!report_tier_total(r, t).count)
			continue;
		if (!n++)
			fprintf(f, "what each tier permits on this %s kernel (how far free pages may go, "
				"as a share of the unboosted min watermark):\n", report_semantics(r));
		fprintf(f, "  %-22s %s\n", tier_name(t), tier_meaning(r, t));
	}
	return n;
}

void fmt_depth_table(FILE *f, const struct report *r)
{
	fprintf(f, "depth: allocations by free pages as a share of the unboosted watermark checked "
		"(min for every reserve right)\n");
	fprintf(f, "%-22s", "TIER");
	for (int b = 0; b < GD_NR; b++)
		fprintf(f, " %9s", depth_bucket_names[b]);
	fprintf(f, "\n");
	for (int t = 0; t < GT_NR_TIERS; t++) {
		uint64_t n = 0;

		for (int b = 0; b < GD_NR; b++)
			n += r->c.depth[t][b];
		if (!n)
			continue;
		fprintf(f, "%-22s", tier_name(t));
		for (int b = 0; b < GD_NR; b++)
			fprintf(f, " %9llu", (unsigned long long)r->c.depth[t][b]);
		fprintf(f, "\n");
	}
}

/* counts (per = 0) or rates per second (per = the interval) */
static void fmt_pcp_highatomic(FILE *f, const struct report *r, double per)
{
	struct gt_cnt tot = report_pcp_highatomic_total(r);

	fprintf(f, "highatomic pageblock pages from per-cpu lists, used without the right "
		"(by watermark tier):\n");
	if (per > 0) {
		fprintf(f, "  %-20s %12.1f %12.1f\n", "total", tot.count / per, tot.pages / per);
	} else {
		fprintf(f, "  %-20s %12s %12s\n", "", "ALLOCS", "PAGES");
		fprintf(f, "  %-20s %12llu %12llu\n", "total", (unsigned long long)tot.count,
			(unsigned long long)tot.pages);
	}
	for (int t = 0; t < GT_NR_TIERS; t++) {
		const struct gt_cnt *c = &r->c.pcp_highatomic[t];

		if (!c->count)
			continue;
		if (per > 0)
			fprintf(f, "  %-20s %12.1f %12.1f\n", tier_name(t), c->count / per,
				c->pages / per);
		else
			fprintf(f, "  %-20s %12llu %12llu\n", tier_name(t),
				(unsigned long long)c->count, (unsigned long long)c->pages);
	}
}

void fmt_histogram_mode(FILE *f, const struct report *r, bool timestamps)
{
	fmt_header(f, r, timestamps);
	fmt_zones(f, r);
	fmt_tier_order_table(f, r);
	fprintf(f, "\n");
	if (fmt_tier_legend(f, r))
		fprintf(f, "\n");
	fmt_depth_table(f, r);
	fprintf(f, "\n");
	fmt_pcp_highatomic(f, r, 0);
	for (int t = 0; t < GT_NR_TIERS; t++) {
		struct gt_cnt tot = report_tier_total(r, t);

		if (!tot.count)
			continue;
		fprintf(f, "\ntier %s: watermark margin (free_pages - unboosted watermark, pages), "
			"%llu allocations\n", tier_name(t), (unsigned long long)tot.count);
		fmt_hist(f, &r->c.hist[t]);
	}
	fprintf(f, "\n");
	fmt_footer(f, r);
	fprintf(f, "\n");
}

void fmt_live(FILE *f, const struct report *r, int rows, bool clear, bool timestamps)
{
	double iv = r->interval_s > 0 ? r->interval_s : 1;

	if (clear)
		fputs("\033[H\033[2J", f);
	fmt_header(f, r, timestamps);
	fmt_zones(f, r);
	fprintf(f, "%-22s %12s %12s %8s\n", "TIER", "ALLOCS/s", "PAGES/s", "%ALLOCS");
	uint64_t all = 0;
	for (int t = 0; t < GT_NR_TIERS; t++)
		all += report_tier_total(r, t).count;
	for (int t = 0; t < GT_NR_TIERS; t++) {
		struct gt_cnt tot = report_tier_total(r, t);

		if (t == GT_UNKNOWN && !tot.count)
			continue;
		fprintf(f, "%-22s %12.1f %12.1f %7.2f%%\n", tier_name(t), tot.count / iv,
			tot.pages / iv, all ? 100.0 * tot.count / all : 0.0);
	}
	fmt_pcp_highatomic(f, r, iv);
	fmt_footer(f, r);
	fprintf(f, "\n%7s %-16s %10s %10s", "PID", "COMM", "ALLOCS", "RESERVE");
	for (int t = 1; t < GT_UNKNOWN; t++)
		fprintf(f, " %9s", tier_short_names[t]);
	fprintf(f, "\n");
	for (size_t i = 0; i < r->nprocs && (rows <= 0 || (int)i < rows); i++) {
		const struct proc_row *p = &r->procs[i];

		fprintf(f, "%7u %-16s %10llu %10llu", p->pid, p->comm, (unsigned long long)p->count,
			(unsigned long long)p->reserve_count);
		for (int t = 1; t < GT_UNKNOWN; t++)
			fprintf(f, " %9llu", (unsigned long long)p->tier[t].count);
		fprintf(f, "\n");
	}
	if (r->nprocs_total > r->nprocs || (rows > 0 && r->nprocs > (size_t)rows))
		fprintf(f, "(%zu processes in this interval, %zu shown)\n", r->nprocs_total,
			rows > 0 && r->nprocs > (size_t)rows ? (size_t)rows : r->nprocs);
	fflush(f);
}

void fmt_csv_header(FILE *f)
{
	fputs("timestamp,interval_s,section,tier,key,count,pages\n", f);
}

static void csv_row(FILE *f, const struct report *r, const char *section, const char *tier,
		    const char *key, uint64_t count, uint64_t pages)
{
	fprintf(f, "%.3f,%.3f,%s,%s,%s,%llu,%llu\n", r->timestamp, r->interval_s, section, tier, key,
		(unsigned long long)count, (unsigned long long)pages);
}

/* Rows with count 0 are left out, except the per-tier totals, which are
 * always there so that every interval has at least the 9 "tier" rows,
 * and the totals of the "pcp_highatomic" and "event" sections. */
void fmt_csv(FILE *f, const struct report *r)
{
	struct gt_cnt pcp_ha = report_pcp_highatomic_total(r);
	char key[32];

	for (int t = 0; t < GT_NR_TIERS; t++) {
		struct gt_cnt tot = report_tier_total(r, t);
		const char *tn = tier_name(t);

		if (t == GT_UNKNOWN && !tot.count)
			continue;
		csv_row(f, r, "tier", tn, "all", tot.count, tot.pages);
		for (int o = 0; o < GT_NR_ORDERS; o++) {
			if (!r->c.order[t][o].count)
				continue;
			snprintf(key, sizeof(key), "%d", o);
			csv_row(f, r, "order", tn, key, r->c.order[t][o].count, r->c.order[t][o].pages);
		}
		for (int g = 0; g < GFPC_NR; g++)
			if (r->gfp[t][g].count)
				csv_row(f, r, "gfp_class", tn, gfpclass_name(g), r->gfp[t][g].count,
					r->gfp[t][g].pages);
		for (int z = 0; z < GT_NR_ZONES; z++)
			if (r->c.zone[t][z].count)
				csv_row(f, r, "zone", tn, report_zone_name(r, z, key, sizeof(key)),
					r->c.zone[t][z].count, r->c.zone[t][z].pages);
		for (int x = 0; x < GC_NR; x++)
			if (r->c.ctx[t][x].count)
				csv_row(f, r, "context", tn, context_names[x], r->c.ctx[t][x].count,
					r->c.ctx[t][x].pages);
		for (int b = 0; b < GD_NR; b++)
			if (r->c.depth[t][b])
				csv_row(f, r, "depth", tn, depth_bucket_names[b], r->c.depth[t][b], 0);
	}
	csv_row(f, r, "pcp_highatomic", "", "all", pcp_ha.count, pcp_ha.pages);
	for (int t = 0; t < GT_NR_TIERS; t++)
		if (r->c.pcp_highatomic[t].count)
			csv_row(f, r, "pcp_highatomic", tier_name(t), "all",
				r->c.pcp_highatomic[t].count, r->c.pcp_highatomic[t].pages);
	csv_row(f, r, "event", "", "reserve_fail", r->c.stat[GS_RESERVE_FAIL],
		r->c.stat[GS_RESERVE_FAIL_PAGES]);
	csv_row(f, r, "event", "", "highatomic_reserve", r->c.stat[GS_HA_RESERVE], 0);
	csv_row(f, r, "event", "", "highatomic_unreserve", r->c.stat[GS_HA_UNRESERVE], 0);
	csv_row(f, r, "lost", "", "process_map_full", r->c.stat[GS_PROC_DROPPED], 0);
	csv_row(f, r, "lost", "", "gfp_map_full", r->c.stat[GS_GFP_DROPPED], 0);
	fflush(f);
}
