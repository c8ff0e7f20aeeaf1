/* See sections.h: check 5 of the predictions, how deep below the min
 * watermark each watermark tier went on each kernel, from the depth
 * histograms or, for results without them, the margin histograms. */
#include "sections.h"

#include <stdio.h>

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
static double letter_level(const struct results *res, int t)
{
	if (res->tiers[t].gt == GT_NON_BLOCK)
		return 75;
	if (res->tiers[t].gt == GT_OOM)
		return 25;
	return -1;
}

/* writes the bullet of tier t of workload w on kernel k, if it has one;
 * returns whether it did */
typedef int (*tier_bullet)(struct doc *d, const struct results *res, const struct workload *w, int k,
			   int t);

/* a bullet for every workload, kernel and tier that has one; whether any */
static int bullet_per_tier(struct doc *d, const struct results *res, tier_bullet bullet)
{
	int i, k, t, any = 0;

	for (i = 0; i < res->nwl; i++)
		for (k = 0; k < NK; k++)
			for (t = 0; t < res->ntiers; t++)
				any |= bullet(d, res, &res->wls[i], k, t);
	return any;
}

/* the margin bullet of tier t of workload w on kernel k, if the tier has
 * a level and allocations and the run a zone min; returns whether written */
static int margin_bullet(struct doc *d, const struct results *res, const struct workload *w, int k, int t)
{
	double zmin, dp, lim;
	char letter[96];
	const char *v;

	if (!is_reserve(res, t) || res->tiers[t].level[k] < 0)
		return 0;
	dp = deepest(&w->g[k], t, &zmin);
	if (mean_of(res, &w->g[k], g_count, t) <= 0 || zmin <= 0)
		return 0;
	lim = -(1 - res->tiers[t].level[k] / 100) * zmin;
	if (dp > 0)
		v = "never below its mark";
	else if (dp < lim - 0.5)
		v = "DEEPER than the code allows";
	else
		v = "within the code's limit";
	if (k == 1 && letter_level(res, t) >= 0 && letter_level(res, t) != res->tiers[t].level[k])
		snprintf(letter, sizeof(letter), "; the cover letter's text: %.0f%%", -(100 - letter_level(res, t)));
	else
		letter[0] = 0;
	if (dp > 0)
		doc_bullet(d, "%s, %s, %s: %s (min %.0f pages)", w->name, res->kernels[k], res->tiers[t].name, v, zmin);
	else
		doc_bullet(d, "%s, %s, %s: down to at least %.0f pages = %.0f%% of min "
			      "(min %.0f; code limit %.0f%%%s): %s",
			   w->name, res->kernels[k], res->tiers[t].name, dp, 100 * dp / zmin, zmin, 100 * lim / zmin,
			   letter, v);
	return 1;
}

/* results without depth histograms: the margin histograms against the
 * zone's min from /proc/zoneinfo */
static void check_depth_by_margins(struct doc *d, const struct results *res)
{

	doc_para(d, "These results have no depth histograms (gfptop before gfptop-interval/2). For each "
		"reserve tier, the deepest margin bucket seen (its bound nearest zero, so the true depth "
		"is up to twice that) is compared with the min watermark of the guest's biggest zone "
		"(from /proc/zoneinfo). A tier may go down to -(1 - level) x min. Margins are read "
		"without the zone lock and the watermark check also adds lowmem_reserve, so treat a "
		"bucket beyond the limit as a question, not a proof.");
	doc_bullets_start(d);
	if (!bullet_per_tier(d, res, margin_bullet))
		doc_bullet(d, "no reserve tier with allocations, or no zoneinfo in the results (older runs)");
	doc_bullets_end(d);
}

/* the depth bullet of tier t of workload w on kernel k, if the tier has a
 * level and depth counts; returns whether written */
static int depth_bullet(struct doc *d, const struct results *res, const struct workload *w, int k, int t)
{
	double sh[MAXB], below, lev = res->tiers[t].level[k];
	char letter[128];
	int b, deep = -1;

	if (!is_reserve(res, t) || lev < 0 || depth_shares(res, &w->g[k], t, sh) <= 0)
		return 0;
	for (b = 0; b < res->nbuckets; b++)
		if (sh[b] > 0)
			deep = b;
	below = at_or_below(res, sh, lev);
	if (k == 1 && letter_level(res, t) >= 0 && letter_level(res, t) != lev)
		snprintf(letter, sizeof(letter), "; the cover letter's text: > %g%%", letter_level(res, t));
	else
		letter[0] = 0;
	doc_bullet(d, "%s, %s, %s (level > %g%% of min%s): deepest bucket %s, %.1f%% of its "
		      "allocations there; at or below its level: %.1f%%: %s",
		   w->name, res->kernels[k], res->tiers[t].name, lev, letter, deep >= 0 ? res->buckets[deep].name : "-",
		   deep >= 0 ? sh[deep] : 0, below,
		   below > 0 ? "DEEPER than its level: gfptop and the kernel disagree" : "within its level");
	return 1;
}

void check_depth(struct doc *d, const struct results *res)
{
	int i, have = 0;

	doc_heading(d, 3, "5. How deep below the min watermark each tier went");
	for (i = 0; i < res->nwl; i++)
		have |= wl_has(&res->wls[i], 0);
	if (!have) {
		check_depth_by_margins(d, res);
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
	if (!bullet_per_tier(d, res, depth_bullet))
		doc_bullet(d, "no watermark tier with allocations");
	doc_bullets_end(d);
}
