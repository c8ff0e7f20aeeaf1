/* See sections.h: each check takes a statement of the cover letter (0/6)
 * or a patch of Mel Gorman's "Discard __GFP_ATOMIC" series (v6.3) and the tier
 * semantics of kernel-patches/README.md, and looks at every workload where
 * the relevant tiers have allocations. */
#include "sections.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cells.h"

static double tier_at(const double *a, int t) { return t >= 0 ? a[t] : 0; }

static void depth_check(struct doc *d);

/* the cover letter's predictions, checked against each workload */
void predictions(struct doc *d, struct rowset *all)
{
	char buf[512];
	int i, any;

	doc_heading(d, 2, "What the series predicts, and what the data shows");
	doc_para(d, "Each check below takes a statement from the cover letter (0/6) or a patch of Mel "
		"Gorman's series \"Discard __GFP_ATOMIC\" (merged in v6.3) and the tier semantics of "
		"kernel-patches/README.md, and looks at every workload where the relevant tiers have "
		"allocations. The verdict is mechanical (means over repetitions and the Welch test); "
		"read it with the tables.");

	doc_heading(d, 3, "1. RT tasks: ALLOC_HARDER before, ALLOC_MIN_RESERVE after (patch 2/6)");
	doc_para(d, "Before, a SCHED_FIFO task's blocking allocations get ALLOC_HARDER (tier `non_block`, "
		"75%% of the min watermark); after they get ALLOC_MIN_RESERVE like __GFP_HIGH (tier "
		"`min_reserve`, 50%% of min): deeper access, not less.");
	doc_bullets_start(d);
	for (i = 0, any = 0; i < nwl; i++) {
		/* blocking classes only: GFP_ATOMIC/NOWAIT reach these tiers for
		 * other reasons */
		double bn = mean_of(&wls[i].g[0], g_blocking, t_non_block);
		double bm = mean_of(&wls[i].g[0], g_blocking, t_min_reserve);
		double an = mean_of(&wls[i].g[1], g_blocking, t_non_block);
		double am = mean_of(&wls[i].g[1], g_blocking, t_min_reserve);
		const char *verdict;

		if (!wls[i].g[0].n || !wls[i].g[1].n || (bn == 0 && am == 0 && an == 0 && bm == 0))
			continue;
		any = 1;
		if (bn > 0 && am > 0 && bm == 0 && an == 0)
			verdict = "as predicted: blocking allocations that got non_block (ALLOC_HARDER) before get min_reserve after";
		else if (bn > 0 && am == 0)
			verdict = "not reproduced: before used non_block, after shows no min_reserve";
		else
			verdict = "mixed";
		doc_bullet(d, "%s: blocking-class (GFP_KERNEL/NOFS_NOIO/USER) allocs/run: before non_block %.1f, "
			  "min_reserve %.1f; after non_block %.1f, min_reserve %.1f: %s",
		       wls[i].name, bn, bm, an, am, verdict);
	}
	if (!any)
		doc_bullet(d, "no workload used either tier");
	doc_bullets_end(d);

	doc_heading(d, 3, "2. GFP_ATOMIC keeps its reserves (ALLOC_MIN_RESERVE|ALLOC_NON_BLOCK = ALLOC_HIGH|ALLOC_HARDER)");
	doc_para(d, "Both kernels give GFP_ATOMIC the same 37.5%% of min (`min_reserve_non_block`); "
		"the series should not change how much GFP_ATOMIC dips into reserves. The tier is the least "
		"privileged level that suffices, and the levels changed meaning: a GFP_ATOMIC request that "
		"needs part of min shows as `non_block` before (ALLOC_HARDER alone grants 25%% of min) and "
		"as `min_reserve` after (ALLOC_NON_BLOCK alone grants none), with the same rights. So "
		"compare the GFP_ATOMIC totals, not the tier labels.");
	doc_bullets_start(d);
	for (i = 0, any = 0; i < nwl; i++) {
		const struct row *r = find_row(&all[i], "reserve GFP_ATOMIC");
		const struct row *m = find_row(&all[i], "min_reserve_non_block allocs");

		if (!r || !wls[i].g[0].n || !wls[i].g[1].n)
			continue;
		any = 1;
		doc_bullet(d, "%s: %s; min_reserve_non_block allocs %.1f -> %.1f: %s", wls[i].name,
		       fmt_row(buf, sizeof(buf), r), m ? m->s[0].mean : 0, m ? m->s[1].mean : 0,
		       significant(r) ? "DIFFERS significantly: see the workload's source table for "
						"the tiers those GFP_ATOMIC allocations used"
				      : "no significant difference, as predicted");
	}
	if (!any)
		doc_bullet(d, "no GFP_ATOMIC allocation needed a reserve tier in any workload");
	doc_bullets_end(d);

	doc_heading(d, 3, "3. GFP_NOWAIT gets no reserve access (v3 changelog)");
	doc_para(d, "After, GFP_NOWAIT holds only ALLOC_NON_BLOCK, which grants no part of the min "
		"reserve (it only stops the highatomic reserve being subtracted); before it held "
		"nothing. GFP_NOWAIT in `min_reserve`, `min_reserve_non_block` would contradict it; "
		"`oom` (OOM victims), `highatomic`, `highatomic_counted` and `no_level` are expected "
		"exceptions.");
	doc_bullets_start(d);
	for (i = 0, any = 0; i < nwl; i++) {
		int k;

		for (k = 0; k < NK; k++) {
			double per[MAXT] = { 0 };
			const struct group *g = &wls[i].g[k];
			int t, r;
			char s[1024] = "";

			for (r = 0; r < g->n; r++)
				for (t = 0; t < ntiers; t++)
					if (is_reserve(t))
						per[t] += g->runs[r].td[t].cls[GFPC_NOWAIT] / g->n;
			for (t = 0; t < ntiers; t++) {
				size_t len = strlen(s);

				if (per[t] > 0)
					snprintf(s + len, sizeof(s) - len, "%s%s %.1f", len ? ", " : "",
						 tiers[t].name, per[t]);
			}
			if (!*s)
				continue;
			any = 1;
			doc_bullet(d, "%s, %s: GFP_NOWAIT reserve allocs/run by tier: %s: %s", wls[i].name,
			       kernels[k], s,
			       tier_at(per, t_min_reserve) + tier_at(per, t_mrnb) > 0 ? "CONTRADICTS the prediction"
			       : k == 1 && tier_at(per, t_non_block) > 0
				       ? "no min reserve, as predicted, but the non_block ones passed the "
					 "watermark only because ALLOC_NON_BLOCK stops the highatomic reserve "
					 "being subtracted from the free pages (before it was subtracted for "
					 "GFP_NOWAIT): a small reserve benefit \"no reserve access\" does not mention"
			       : k == 0 && tier_at(per, t_non_block) > 0
				       ? "non_block before = ALLOC_HARDER, which only RT tasks get for GFP_NOWAIT"
				       : "consistent");
		}
	}
	if (!any)
		doc_bullet(d, "no GFP_NOWAIT allocation needed a reserve tier in any workload");
	doc_bullets_end(d);

	doc_heading(d, 3, "4. High-order atomic reserves (patches 3/6, 5/6)");
	doc_para(d, "Before, any order>0 request with ALLOC_HARDER (GFP_ATOMIC, but also RT tasks) may "
		"take MIGRATE_HIGHATOMIC pages and reserve pageblocks; after only ALLOC_HIGHATOMIC "
		"(order>0, __GFP_HIGH, non-blocking) does, and 6.1.y's 281dd25c1a01 lets order-0 "
		"GFP_ATOMIC fall back to them. Predicted: no more RT or non-atomic users of the "
		"highatomic reserve after. `highatomic` counts pages taken off a MIGRATE_HIGHATOMIC "
		"free list by such a right; `highatomic_counted`, high-order requests admitted only "
		"because free highatomic blocks counted for them; pages of highatomic pageblocks that "
		"per-cpu lists hand out to anyone are counted apart (without the right, via pcp).");
	doc_bullets_start(d);
	for (i = 0, any = 0; i < nwl; i++) {
		const struct row *ha = find_row(&all[i], "highatomic allocs");
		const struct row *hc = find_row(&all[i], "highatomic_counted allocs");
		const struct row *hr = find_row(&all[i], "highatomic reserve events");
		const struct row *hm = find_row(&all[i], "highatomic max reserved (pages)");
		const struct row *pc = find_row(&all[i], PCP_ROW);

		if (!wls[i].g[0].n || !wls[i].g[1].n || !hr ||
		    (hr->s[0].mean == 0 && hr->s[1].mean == 0 && !ha && !hc && !(pc && (pc->s[0].mean || pc->s[1].mean))))
			continue;
		any = 1;
		if (pc) {
			char a[32], b[32], df[32], p[32];

			snprintf(buf, sizeof(buf), "%s -> %s (%s, p %s)", num(b, sizeof(b), pc->s[0].mean),
				 num(a, sizeof(a), pc->s[1].mean), diffpct(df, sizeof(df), pc),
				 pval(p, sizeof(p), pc));
		} else {
			snprintf(buf, sizeof(buf), "not recorded (older gfptop)");
		}
		doc_bullet(d, "%s: highatomic-tier allocs %.1f -> %.1f/run; highatomic_counted %.1f -> %.1f; "
			  "reserve events %.1f -> %.1f; max reserved %.0f -> %.0f pages; highatomic pages "
			  "used without the right, via pcp: %s%s",
		       wls[i].name, ha ? ha->s[0].mean : 0, ha ? ha->s[1].mean : 0, hc ? hc->s[0].mean : 0,
		       hc ? hc->s[1].mean : 0, hr->s[0].mean, hr->s[1].mean, hm ? hm->s[0].mean : 0,
		       hm ? hm->s[1].mean : 0, buf,
		       ha && significant(ha) ? " (highatomic-tier difference significant)" : "");
	}
	if (!any)
		doc_bullet(d, "no workload reserved highatomic pageblocks or used them");
	doc_bullets_end(d);
	depth_check(d);
}

/* deepest margin bucket of tier t over a group's runs: the bucket's bound
 * nearest zero (pages, <= 0), or 1 if the tier never went below its mark */
static double deepest(const struct group *g, int t, double *zmin)
{
	int i, b;
	double d = 1;

	*zmin = 0;
	for (i = 0; i < g->n; i++) {
		if (g->runs[i].zmin > *zmin)
			*zmin = g->runs[i].zmin;
		for (b = 0; b < 64; b++) {
			if (g->runs[i].td[t].hist[b] > 0) {
				double near = -(double)(1LL << (63 - b)); /* index b-64 = -(k+1): bound -2^k */

				if (near < d)
					d = near;
				break;
			}
		}
	}
	return d;
}

/* what the cover letter's text says a tier keeps free on the after
 * kernel, where it differs from the code (% of min); -1 if not */
static double letter_level(int t)
{
	if (t >= 0 && t == t_non_block)
		return 75;
	if (t >= 0 && t == t_oom)
		return 25;
	return -1;
}

/* results without depth histograms: the margin histograms against the
 * zone's min from /proc/zoneinfo */
static void depth_check_margins(struct doc *d)
{
	int i, k, t, any = 0;

	doc_para(d, "These results have no depth histograms (gfptop before gfptop-interval/2). For each "
		"reserve tier, the deepest margin bucket seen (its bound nearest zero, so the true depth "
		"is up to twice that) is compared with the min watermark of the guest's biggest zone "
		"(from /proc/zoneinfo). A tier may go down to -(1 - level) x min. Margins are read "
		"without the zone lock and the watermark check also adds lowmem_reserve, so treat a "
		"bucket beyond the limit as a question, not a proof.");
	doc_bullets_start(d);
	for (i = 0; i < nwl; i++) {
		for (k = 0; k < NK; k++) {
			for (t = 0; t < ntiers; t++) {
				double zmin, dp, lim;
				char letter[96];
				const char *v;

				if (!is_reserve(t) || tiers[t].level[k] < 0)
					continue;
				dp = deepest(&wls[i].g[k], t, &zmin);
				if (mean_of(&wls[i].g[k], g_count, t) <= 0 || zmin <= 0)
					continue;
				any = 1;
				lim = -(1 - tiers[t].level[k] / 100) * zmin;
				if (dp > 0)
					v = "never below its mark";
				else if (dp < lim - 0.5)
					v = "DEEPER than the code allows";
				else
					v = "within the code's limit";
				if (k == 1 && letter_level(t) >= 0 && letter_level(t) != tiers[t].level[k])
					snprintf(letter, sizeof(letter), "; the cover letter's text: %.0f%%",
						 -(100 - letter_level(t)));
				else
					letter[0] = 0;
				if (dp > 0)
					doc_bullet(d, "%s, %s, %s: %s (min %.0f pages)", wls[i].name, kernels[k],
					       tiers[t].name, v, zmin);
				else
					doc_bullet(d, "%s, %s, %s: down to at least %.0f pages = %.0f%% of min "
						  "(min %.0f; code limit %.0f%%%s): %s",
					       wls[i].name, kernels[k], tiers[t].name, dp, 100 * dp / zmin, zmin,
					       100 * lim / zmin, letter, v);
			}
		}
	}
	if (!any)
		doc_bullet(d, "no reserve tier with allocations, or no zoneinfo in the results (older runs)");
	doc_bullets_end(d);
}

static void depth_check(struct doc *d)
{
	int i, k, t, b, any = 0, have = 0;

	doc_heading(d, 3, "5. How deep below the min watermark each tier went");
	for (i = 0; i < nwl; i++)
		have |= wl_has(&wls[i], 0);
	if (!have) {
		depth_check_margins(d);
		return;
	}
	doc_para(d, "The cover letter says \"ALLOC_NON_BLOCK (no direct reclaim) on its own allows 25%% of "
		"the min reserve ... ALLOC_OOM allows access to 75%%\"; its v3 changelog and the code "
		"(kernel-patches/README.md) say NON_BLOCK alone gets none of it after (75%% of min must "
		"stay free before, ALLOC_HARDER) and ALLOC_OOM half. gfptop's depth histograms give, per "
		"tier, the free pages when the page was taken as a share of the unboosted min watermark. "
		"A watermark tier passed its level's check on the same snapshot, so none of its "
		"allocations can be at or below its level: a share there means gfptop's arithmetic and "
		"the kernel's disagree. The deepest bucket shows how much of the level was used.");
	doc_bullets_start(d);
	for (i = 0; i < nwl; i++) {
		for (k = 0; k < NK; k++) {
			for (t = 0; t < ntiers; t++) {
				double sh[MAXB], below, lev = tiers[t].level[k];
				char letter[128];
				int deep = -1;

				if (!is_reserve(t) || lev < 0 || depth_shares(&wls[i].g[k], t, sh) <= 0)
					continue;
				any = 1;
				for (b = 0; b < nbuckets; b++)
					if (sh[b] > 0)
						deep = b;
				below = at_or_below(sh, lev);
				if (k == 1 && letter_level(t) >= 0 && letter_level(t) != lev)
					snprintf(letter, sizeof(letter), "; the cover letter's text: > %g%%",
						 letter_level(t));
				else
					letter[0] = 0;
				doc_bullet(d, "%s, %s, %s (level > %g%% of min%s): deepest bucket %s, %.1f%% of its "
					  "allocations there; at or below its level: %.1f%%: %s",
				       wls[i].name, kernels[k], tiers[t].name, lev, letter,
				       deep >= 0 ? buckets[deep].name : "-", deep >= 0 ? sh[deep] : 0, below,
				       below > 0 ? "DEEPER than its level: gfptop and the kernel disagree"
						 : "within its level");
			}
		}
	}
	if (!any)
		doc_bullet(d, "no watermark tier with allocations");
	doc_bullets_end(d);
}
