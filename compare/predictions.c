/* See sections.h: each check takes a statement of the cover letter (0/6)
 * or a patch of Mel Gorman's "Discard __GFP_ATOMIC" series (v6.3) and the tier
 * semantics of kernel-patches/README.md, and looks at every workload where
 * the relevant tiers have allocations. */
#include "sections.h"

#include <stdio.h>
#include <string.h>

#include "cells.h"

static double tier_at(const double *a, int t) { return t >= 0 ? a[t] : 0; }

/* both kernels ran the workload: a check compares the two */
static int both_ran(const struct workload *w)
{
	return w->g[0].n && w->g[1].n;
}

/* 1: patch 2/6 moves RT tasks from ALLOC_HARDER to ALLOC_MIN_RESERVE */
static void check_rt_tasks(struct doc *d, const struct results *res)
{
	int i, any = 0;

	doc_heading(d, 3, "1. RT tasks: ALLOC_HARDER before, ALLOC_MIN_RESERVE after (patch 2/6)");
	doc_para(d, "Before, a SCHED_FIFO task's blocking allocations get ALLOC_HARDER (tier `non_block`, "
		"75%% of the min watermark); after they get ALLOC_MIN_RESERVE like __GFP_HIGH (tier "
		"`min_reserve`, 50%% of min): deeper access, not less.");
	doc_bullets_start(d);
	for (i = 0; i < res->nwl; i++) {
		/* blocking classes only: GFP_ATOMIC/NOWAIT reach these tiers for
		 * other reasons */
		double bn = mean_of(res, &res->wls[i].g[0], g_blocking, tier_of(res, GT_NON_BLOCK));
		double bm = mean_of(res, &res->wls[i].g[0], g_blocking, tier_of(res, GT_MIN_RESERVE));
		double an = mean_of(res, &res->wls[i].g[1], g_blocking, tier_of(res, GT_NON_BLOCK));
		double am = mean_of(res, &res->wls[i].g[1], g_blocking, tier_of(res, GT_MIN_RESERVE));
		const char *verdict;

		if (!both_ran(&res->wls[i]) || (bn == 0 && am == 0 && an == 0 && bm == 0))
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
		       res->wls[i].name, bn, bm, an, am, verdict);
	}
	if (!any)
		doc_bullet(d, "no workload used either tier");
	doc_bullets_end(d);
}

/* 2: GFP_ATOMIC's rights are the same on both kernels */
static void check_gfp_atomic(struct doc *d, const struct results *res, const struct rowset *all)
{
	char buf[512];
	int i, any = 0;

	doc_heading(d, 3, "2. GFP_ATOMIC keeps its reserves (ALLOC_MIN_RESERVE|ALLOC_NON_BLOCK = ALLOC_HIGH|ALLOC_HARDER)");
	doc_para(d, "Both kernels give GFP_ATOMIC the same 37.5%% of min (`min_reserve_non_block`); "
		"the series should not change how much GFP_ATOMIC dips into reserves. The tier is the least "
		"privileged level that suffices, and the levels changed meaning: a GFP_ATOMIC request that "
		"needs part of min shows as `non_block` before (ALLOC_HARDER alone grants 25%% of min) and "
		"as `min_reserve` after (ALLOC_NON_BLOCK alone grants none), with the same rights. So "
		"compare the GFP_ATOMIC totals, not the tier labels.");
	doc_bullets_start(d);
	for (i = 0; i < res->nwl; i++) {
		const struct row *r = find_row(&all[i], ROW_RESERVE_CLASS, GFPC_ATOMIC);
		const struct row *m = find_row(&all[i], ROW_TIER_ALLOCS, tier_of(res, GT_MIN_RESERVE_NON_BLOCK));

		if (!r || !both_ran(&res->wls[i]))
			continue;
		any = 1;
		doc_bullet(d, "%s: %s; min_reserve_non_block allocs %.1f -> %.1f: %s", res->wls[i].name,
		       fmt_row(buf, sizeof(buf), r), m ? m->s[0].mean : 0, m ? m->s[1].mean : 0,
		       significant(r) ? "DIFFERS significantly: see the workload's source table for "
						"the tiers those GFP_ATOMIC allocations used"
				      : "no significant difference, as predicted");
	}
	if (!any)
		doc_bullet(d, "no GFP_ATOMIC allocation needed a reserve tier in any workload");
	doc_bullets_end(d);
}

/* GFP_NOWAIT allocations per run of a group in each reserve tier into per[] */
static void nowait_per_tier(const struct results *res, const struct group *g, double *per)
{
	int t, r;

	for (t = 0; t < MAXT; t++)
		per[t] = 0;
	for (r = 0; r < g->n; r++)
		for (t = 0; t < res->ntiers; t++)
			if (is_reserve(res, t))
				per[t] += g->runs[r].td[t].cls[GFPC_NOWAIT] / g->n;
}

/* what GFP_NOWAIT's reserve tiers on kernel k (0 before) say of check 3 */
static const char *nowait_verdict(const struct results *res, int k, const double *per)
{
	if (tier_at(per, tier_of(res, GT_MIN_RESERVE)) + tier_at(per, tier_of(res, GT_MIN_RESERVE_NON_BLOCK)) > 0)
		return "CONTRADICTS the prediction";
	if (k == 1 && tier_at(per, tier_of(res, GT_NON_BLOCK)) > 0)
		return "no min reserve, as predicted, but the non_block ones passed the "
		       "watermark only because ALLOC_NON_BLOCK stops the highatomic reserve "
		       "being subtracted from the free pages (before it was subtracted for "
		       "GFP_NOWAIT): a small reserve benefit \"no reserve access\" does not mention";
	if (k == 0 && tier_at(per, tier_of(res, GT_NON_BLOCK)) > 0)
		return "non_block before = ALLOC_HARDER, which only RT tasks get for GFP_NOWAIT";
	return "consistent";
}

/* 3: GFP_NOWAIT holds no right to the min reserve */
static void check_gfp_nowait(struct doc *d, const struct results *res)
{
	int i, k, any = 0;

	doc_heading(d, 3, "3. GFP_NOWAIT gets no reserve access (v3 changelog)");
	doc_para(d, "After, GFP_NOWAIT holds only ALLOC_NON_BLOCK, which grants no part of the min "
		"reserve (it only stops the highatomic reserve being subtracted); before it held "
		"nothing. GFP_NOWAIT in `min_reserve`, `min_reserve_non_block` would contradict it; "
		"`oom` (OOM victims), `highatomic`, `highatomic_counted` and `no_level` are expected "
		"exceptions.");
	doc_bullets_start(d);
	for (i = 0; i < res->nwl; i++) {
		for (k = 0; k < NK; k++) {
			double per[MAXT];
			char s[1024] = "";
			int t;

			nowait_per_tier(res, &res->wls[i].g[k], per);
			for (t = 0; t < res->ntiers; t++) {
				size_t len = strlen(s);

				if (per[t] > 0)
					snprintf(s + len, sizeof(s) - len, "%s%s %.1f", len ? ", " : "",
						 res->tiers[t].name, per[t]);
			}
			if (!*s)
				continue;
			any = 1;
			doc_bullet(d, "%s, %s: GFP_NOWAIT reserve allocs/run by tier: %s: %s", res->wls[i].name,
			       res->kernels[k], s, nowait_verdict(res, k, per));
		}
	}
	if (!any)
		doc_bullet(d, "no GFP_NOWAIT allocation needed a reserve tier in any workload");
	doc_bullets_end(d);
}

/* check 4's line for one workload, if its runs touched the highatomic
 * reserve; returns whether it wrote one */
static int highatomic_bullet(struct doc *d, const struct results *res, const struct workload *w,
			     const struct rowset *rs)
{
	const struct row *ha = find_row(rs, ROW_TIER_ALLOCS, tier_of(res, GT_HIGHATOMIC));
	const struct row *hc = find_row(rs, ROW_TIER_ALLOCS, tier_of(res, GT_HIGHATOMIC_COUNTED));
	const struct row *hr = find_row(rs, ROW_HA_RESERVE, 0);
	const struct row *hm = find_row(rs, ROW_HA_MAX, 0);
	const struct row *pc = find_row(rs, ROW_PCP_PAGES, 0);
	char buf[512];

	if (!both_ran(w) || !hr ||
	    (hr->s[0].mean == 0 && hr->s[1].mean == 0 && !ha && !hc && !(pc && (pc->s[0].mean || pc->s[1].mean))))
		return 0;
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
	       w->name, ha ? ha->s[0].mean : 0, ha ? ha->s[1].mean : 0, hc ? hc->s[0].mean : 0,
	       hc ? hc->s[1].mean : 0, hr->s[0].mean, hr->s[1].mean, hm ? hm->s[0].mean : 0,
	       hm ? hm->s[1].mean : 0, buf,
	       ha && significant(ha) ? " (highatomic-tier difference significant)" : "");
	return 1;
}

/* 4: only ALLOC_HIGHATOMIC (after) uses and creates highatomic reserves */
static void check_highatomic(struct doc *d, const struct results *res, const struct rowset *all)
{
	int i, any = 0;

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
	for (i = 0; i < res->nwl; i++)
		any |= highatomic_bullet(d, res, &res->wls[i], &all[i]);
	if (!any)
		doc_bullet(d, "no workload reserved highatomic pageblocks or used them");
	doc_bullets_end(d);
}

/* the cover letter's predictions, checked against each workload */
void predictions(struct doc *d, const struct results *res, const struct rowset *all)
{
	doc_heading(d, 2, "What the series predicts, and what the data shows");
	doc_para(d, "Each check below takes a statement from the cover letter (0/6) or a patch of Mel "
		"Gorman's series \"Discard __GFP_ATOMIC\" (merged in v6.3) and the tier semantics of "
		"kernel-patches/README.md, and looks at every workload where the relevant tiers have "
		"allocations. The verdict is mechanical (means over repetitions and the Welch test); "
		"read it with the tables.");
	check_rt_tasks(d, res);
	check_gfp_atomic(d, res, all);
	check_gfp_nowait(d, res);
	check_highatomic(d, res, all);
	check_depth(d, res);
}
