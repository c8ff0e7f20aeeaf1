/* See sections.h: the tier legend and the tables of one workload. */
#include "sections.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cells.h"
#include "levels.h"
#include "plots.h"

/* the tiers, their enum values and what each permits on each kernel */
void tier_legend(struct doc *d, const struct results *res)
{
	const char *cols[] = { "tier", "enum value", "before: what it permits", "after: what it permits" };
	int t, k, json = 0;

	for (k = 0; k < NK; k++)
		json |= levels_from_json(res, k);
	doc_heading(d, 2, "Tiers");
	doc_para(d, "The tiers are those the runs' JSON names (every key of any run), in the order of the "
		"kernel's `enum page_alloc_tier` (gfptop's `tier_values`): the order the levels are tried "
		"in, not their depth. A tier without an enum value (`unknown`: a value gfptop does not "
		"know) comes last. A watermark level is defined by how far below the zone's unboosted min "
		"watermark it lets free pages go (kernel-patches/README.md, \"How the tier is defined\"); "
		"the series changed those depths, which the depth plots and tables of each workload show. "
		"%s",
	     json ? "What each tier permits is gfptop's `tier_meaning` for that kernel, and its "
		    "levels are the kernel's `tier_levels`."
		  : "These results have no `tier_levels` (gfptop before its rule sets): the levels "
		    "below are those of the kernel's rule set in gfptop's common/rule_sets.c.");
	doc_table_head(d, 4, cols);
	for (t = 0; t < res->ntiers; t++) {
		char c[4][512];
		const char *cp[4];

		snprintf(c[0], sizeof(c[0]), "%s", res->tiers[t].name);
		if (res->tiers[t].hasval[0] && res->tiers[t].hasval[1] && res->tiers[t].val[0] != res->tiers[t].val[1])
			snprintf(c[1], sizeof(c[1]), "%lld / %lld", res->tiers[t].val[0], res->tiers[t].val[1]);
		else if (res->tiers[t].hasval[0] || res->tiers[t].hasval[1])
			snprintf(c[1], sizeof(c[1]), "%lld", res->tiers[t].hasval[1] ? res->tiers[t].val[1] : res->tiers[t].val[0]);
		else
			snprintf(c[1], sizeof(c[1]), "-");
		for (k = 0; k < NK; k++) {
			if (res->tiers[t].meaning[k])
				snprintf(c[2 + k], sizeof(c[0]), "%s", res->tiers[t].meaning[k]);
			else if (res->tiers[t].level[k] >= 0)
				snprintf(c[2 + k], sizeof(c[0]), "> %g%% of min (rule set)", res->tiers[t].level[k]);
			else
				snprintf(c[2 + k], sizeof(c[0]), "-");
		}
		for (k = 0; k < 4; k++)
			cp[k] = c[k];
		doc_table_row(d, 4, cp, 0);
	}
	doc_table_end(d);
}

void describe_sources(struct doc *d, const struct results *res, const struct workload *w)
{
	const char *cols[] = { "kernel", "tier", "allocs/run", "order>0", "gfp classes",
		"contexts" };
	int k, t, c, rows = 0, impossible = 0;

	for (k = 0; k < NK; k++) {
		for (t = 0; t < res->ntiers; t++) {
			char cells[6][512], *cp[6];
			double n = mean_of(res, &w->g[k], g_count, t), cl[GFPC_NR] = { 0 }, cx[GC_NR] = { 0 };
			size_t len;
			int i;

			if (!is_reserve(res, t) || n <= 0)
				continue;
			if (!rows++)
				doc_table_head(d, 6, cols);
			for (i = 0; i < w->g[k].n; i++) {
				for (c = 0; c < GFPC_NR; c++)
					cl[c] += w->g[k].runs[i].td[t].cls[c];
				for (c = 0; c < GC_NR; c++)
					cx[c] += w->g[k].runs[i].td[t].ctx[c];
			}
			snprintf(cells[0], sizeof(cells[0]), "%s", res->kernels[k]);
			snprintf(cells[1], sizeof(cells[1]), "%s", res->tiers[t].name);
			num(cells[2], sizeof(cells[2]), n);
			num(cells[3], sizeof(cells[3]), mean_of(res, &w->g[k], g_hiord, t));
			cells[4][0] = cells[5][0] = 0;
			for (c = 0; c < GFPC_NR; c++) {
				double p = 100 * cl[c] / (n * w->g[k].n);

				len = strlen(cells[4]);
				if (p >= 0.5)
					snprintf(cells[4] + len, sizeof(cells[4]) - len, "%s%s %.0f%%",
						 len ? ", " : "", gfp_class_names[c], p);
			}
			for (c = 0; c < GC_NR; c++) {
				double p = 100 * cx[c] / (n * w->g[k].n);

				len = strlen(cells[5]);
				if (p >= 0.5)
					snprintf(cells[5] + len, sizeof(cells[5]) - len, "%s%s %.0f%%",
						 len ? ", " : "", context_names[c], p);
			}
			for (i = 0; i < 6; i++)
				cp[i] = cells[i];
			doc_table_row(d, 6, (const char *const *)cp, 0);
			/* blocking classes cannot allocate in interrupt context */
			if ((cl[GFPC_KERNEL] + cl[GFPC_NOFS_NOIO] + cl[GFPC_USER] + cx[GC_SOFTIRQ] + cx[GC_HARDIRQ]) >
			    1.01 * n * w->g[k].n)
				impossible = 1;
		}
	}
	if (rows)
		doc_table_end(d);
	else
		doc_para(d, "No allocation in either kernel needed a reserve tier.");
	if (impossible)
		doc_para(d, "Caution: in this workload blocking gfp classes (GFP_KERNEL, GFP_NOFS_NOIO, "
			"GFP_USER) plus interrupt contexts add up to more than 100%% of a tier, which cannot "
			"be: blocking allocations do not happen in softirq or hardirq. gfptop's per-CPU irq "
			"depth (bpf/gfptop.bpf.c, from irq/softirq entry and exit events) seems to have been "
			"left non-zero on some CPU in some runs (an entry seen without its exit), so the "
			"context columns are not reliable here.");
}

/* highatomic pageblock pages handed out from per-cpu lists, by watermark tier */
void pcp_table(struct doc *d, const struct results *res, const struct workload *w)
{
	const char *cols[] = { "kernel", "allocs/run", "pages/run", "pages/run by watermark tier" };
	int k, t, i, any = 0;

	doc_heading(d, 3, "Highatomic pages used without the right, via pcp (mean per run)");
	if (!wl_has(w, 1)) {
		doc_para(d, "These runs' JSON has no `pcp_highatomic` (gfptop before gfptop-interval/2): "
			"not counted.");
		return;
	}
	for (k = 0; k < NK; k++)
		any |= mean_of(res, &w->g[k], g_pcp_pages, 0) > 0;
	if (!any) {
		doc_para(d, "No page of a MIGRATE_HIGHATOMIC pageblock was handed out from a per-cpu list "
			"in either kernel.");
		return;
	}
	doc_para(d, "Pages of a MIGRATE_HIGHATOMIC pageblock that a per-cpu list handed out (the event's "
		"`source=pcp highatomic_block=1`: freed there earlier, kept on the MOVABLE list), i.e. "
		"reserved high-order atomic pages used by requests that did not need a reserve right for "
		"them. Their tier is their watermark tier, not `highatomic`.");
	doc_table_head(d, 4, cols);
	for (k = 0; k < NK; k++) {
		char c[4][1024], by[1024] = "";
		const char *cp[4];
		double cnt = 0;

		for (i = 0; i < w->g[k].n; i++)
			cnt += w->g[k].runs[i].pcp_cnt;
		snprintf(c[0], sizeof(c[0]), "%s", res->kernels[k]);
		num(c[1], sizeof(c[1]), w->g[k].n ? cnt / w->g[k].n : 0);
		num(c[2], sizeof(c[2]), mean_of(res, &w->g[k], g_pcp_pages, 0));
		for (t = 0; t < res->ntiers; t++) {
			double p = 0;
			char v[32];
			size_t len = strlen(by);

			for (i = 0; i < w->g[k].n; i++)
				p += w->g[k].runs[i].td[t].pcp_pages;
			if (p <= 0)
				continue;
			snprintf(by + len, sizeof(by) - len, "%s%s %s", len ? ", " : "", res->tiers[t].name,
				 num(v, sizeof(v), p / w->g[k].n));
		}
		snprintf(c[3], sizeof(c[3]), "%s", *by ? by : "-");
		for (i = 0; i < 4; i++)
			cp[i] = c[i];
		doc_table_row(d, 4, cp, 0);
	}
	doc_table_end(d);
}

/* the depth plot and table of one workload */
void depth_section(struct doc *d, const struct results *res, const struct workload *w, int gp)
{
	const char *cols[3 + MAXB + 2];
	char png[160];
	int list[MAXT], n = depth_tiers(res, w, list), k, i, b, ncol;

	doc_heading(d, 3, "Depth: where free pages stood when each reserve tier was used");
	if (!wl_has(w, 0)) {
		doc_para(d, "These runs' JSON has no `depth_histograms` (gfptop before gfptop-interval/2).");
		return;
	}
	if (!n) {
		doc_para(d, "No reserve tier has allocations in either kernel.");
		return;
	}
	doc_para(d, "For each reserve tier, the share of its allocations (pooled over the runs) by the free "
		"pages of the zone when the page was taken, as a share of the unboosted watermark the "
		"allocator checked: the min watermark for every request that holds a reserve right "
		"(`no_level` allocations of the fast path are against the low watermark). A tier's level "
		"is how far it may go: its allocations must lie above it (`at or below level` must be 0), "
		"and they fall between it and the next shallower level the request holds. The plot shows "
		"the same numbers, with the levels as solid lines named by the tiers whose level each is "
		"on that kernel; the series moved `non_block` from 75%% to 100%% of min.");
	if (gp && plot_depth(res, w, png, sizeof(png)) == 0)
		doc_image(d, png, "depth histograms per tier, before and after");
	cols[0] = "kernel";
	cols[1] = "tier";
	cols[2] = "allocs/run";
	for (b = 0; b < res->nbuckets; b++)
		cols[3 + b] = res->buckets[b].name;
	cols[3 + res->nbuckets] = "level";
	cols[4 + res->nbuckets] = "at or below level";
	ncol = 5 + res->nbuckets;
	doc_table_head(d, ncol, cols);
	for (k = 0; k < NK; k++) {
		for (i = 0; i < n; i++) {
			int t = list[i];
			char c[3 + MAXB + 2][64];
			const char *cp[3 + MAXB + 2];
			double sh[MAXB], below;

			if (depth_shares(res, &w->g[k], t, sh) <= 0)
				continue;
			below = at_or_below(res, sh, res->tiers[t].level[k]);
			snprintf(c[0], sizeof(c[0]), "%s", res->kernels[k]);
			snprintf(c[1], sizeof(c[1]), "%s", res->tiers[t].name);
			num(c[2], sizeof(c[2]), mean_of(res, &w->g[k], g_count, t));
			for (b = 0; b < res->nbuckets; b++)
				snprintf(c[3 + b], sizeof(c[0]), "%.1f", sh[b]);
			if (res->tiers[t].level[k] >= 0)
				snprintf(c[3 + res->nbuckets], sizeof(c[0]), "> %g%%", res->tiers[t].level[k]);
			else
				snprintf(c[3 + res->nbuckets], sizeof(c[0]), "-");
			if (isnan(below))
				snprintf(c[4 + res->nbuckets], sizeof(c[0]), "-");
			else
				snprintf(c[4 + res->nbuckets], sizeof(c[0]), "%.1f", below);
			for (b = 0; b < ncol; b++)
				cp[b] = c[b];
			doc_table_row(d, ncol, cp, !isnan(below) && below > 0);
		}
	}
	doc_table_end(d);
}

void compare_table(struct doc *d, const struct rowset *rs)
{
	const char *cols[] = { "metric", "before mean", "before sd", "after mean", "after sd",
		"diff", "p (Welch)", "sig" };
	int i;

	doc_table_head(d, 8, cols);
	for (i = 0; i < rs->n; i++) {
		const struct row *r = &rs->r[i];
		char c[8][128];
		const char *cp[8];
		int j;

		snprintf(c[0], sizeof(c[0]), "%s", r->label);
		num(c[1], sizeof(c[1]), r->s[0].mean);
		num(c[2], sizeof(c[2]), r->s[0].sd);
		num(c[3], sizeof(c[3]), r->s[1].mean);
		num(c[4], sizeof(c[4]), r->s[1].sd);
		diffpct(c[5], sizeof(c[5]), r);
		pval(c[6], sizeof(c[6]), r);
		snprintf(c[7], sizeof(c[7]), "%s", mark(r));
		for (j = 0; j < 8; j++)
			cp[j] = c[j];
		doc_table_row(d, 8, cp, significant(r));
	}
	doc_table_end(d);
}
