/*
 * The oracle checker's count checks: what gfptop -p counted for the
 * campaign thread (per tier, reserve failures, per context,
 * pcp_highatomic) against the oracle's rows and the trace.
 */
#include "check.h"

/* ---- gfptop -p <campaign pid> versus the oracle and the trace */

bool is_rfail(const struct rec *rec)
{
	return !strcmp(rec->case_name, RFAIL_CASE);
}

/* how many rows of the campaign (rfail: of the failure series, else the
 * others) were traced at each tier */
static struct tally oracle_tally(const struct run *r, bool rfail)
{
	struct tally t = { 0 };
	const struct rec *rec;
	int k;

	for_each_rec(r, rec) {
		k = tier_index(rec->observed);
		if (is_rfail(rec) == rfail && k >= 0)
			t.n[k]++;
	}
	return t;
}

/* the rows that got a page without a known tier (untraced, out of band) */
static long long unknown_rows(const struct run *r, bool rfail)
{
	const struct rec *rec;
	long long n = 0;

	for_each_rec(r, rec)
		n += is_rfail(rec) == rfail && !strcmp(rec->observed, "unknown");
	return n;
}

/*
 * Equal, tier by tier. Untraced rows out of their band got a page at a
 * tier nobody knows: then gfptop must have at least the oracle's count
 * in every tier and exactly as many allocations in all (said so).
 */
static void check_tier_counts(const char *how, const struct gfptop *g,
			      const struct tally *oracle, long long unknown)
{
	char *n = xasprintf("gfptop %s-p campaign-pid per-tier counts equal the oracle's", how);
	long long got = 0, want = unknown;
	bool ge = true;
	size_t k;

	for (k = 0; k < NTIERS; k++) {
		got += g->tiers.n[k];
		want += oracle->n[k];
		ge &= g->tiers.n[k] >= oracle->n[k];
	}
	if (g->lines == 0)
		fail(n, "no gfptop output");
	else if (!unknown && tally_eq(&g->tiers, oracle))
		pass("%s (%s)", n, fmt_tally(oracle));
	else if (unknown && ge && got == want)
		pass("%s (%s, and %lld rows out of band, of unknown tier: gfptop %s)", n,
		     fmt_tally(oracle), unknown, fmt_tally(&g->tiers));
	else
		fail(n, "gfptop %s, oracle %s%s", fmt_tally(&g->tiers), fmt_tally(oracle),
		     unknown ? xasprintf(" and %lld rows of unknown tier", unknown) : "");
}

static void check_reserve_fails(const struct run *r, const struct gfptop *g)
{
	const char *n = "gfptop -p campaign-pid counts the campaign's reserve failures";
	struct events rfail = { 0 };

	read_events(&rfail, r, "trace.txt", "mm_page_alloc_reserve_fail", r->camp_pid);
	if (g->fails == (long long)rfail.n)
		pass("%s (%lld mm_page_alloc_reserve_fail)", n, g->fails);
	else
		fail(n, "gfptop %lld, trace %zu", g->fails, rfail.n);
	free_events(&rfail);
}

/* the context a row asked for: its softirq/hardirq, else a task */
static int rec_ctx(const struct rec *rec)
{
	if (!strcmp(rec->ctx, "softirq"))
		return CTX_SOFTIRQ;
	return strcmp(rec->ctx, "hardirq") ? CTX_TASK : CTX_HARDIRQ;
}

/* printed as a Python dict, as these messages always were */
static char *fmt_ctx(const long long *ctx)
{
	return xasprintf("{'task': %lld, 'softirq': %lld, 'hardirq': %lld}",
			 ctx[CTX_TASK], ctx[CTX_SOFTIRQ], ctx[CTX_HARDIRQ]);
}

/*
 * The context each traced allocation ran in: the trace's irq flags and
 * gfptop's tier_context against the oracle's.
 */
static void check_contexts(const struct run *r, const struct gfptop *g, const char *how)
{
	long long octx[NCTX] = { 0 };
	const struct rec *rec, *wrong = NULL;
	const char *n;

	for_each_rec(r, rec) {
		if (is_rfail(rec) || (r->traced ? !rec->ev : rec->pfn < 0))
			continue;
		octx[rec_ctx(rec)]++;
		if (r->traced && rec->ev->ctx != rec_ctx(rec) && !wrong)
			wrong = rec;
	}
	n = "softirq/hardirq rows ran in that context (trace irq flags)";
	if (!r->traced)
		; /* no trace to say */
	else if (wrong)
		fail(n, "%s at %s: expected %s, observed %s", wrong->case_name, wrong->level,
		     ctx_names[rec_ctx(wrong)], ctx_names[wrong->ev->ctx]);
	else
		pass("%s (softirq %lld, hardirq %lld)", n, octx[CTX_SOFTIRQ], octx[CTX_HARDIRQ]);
	n = xasprintf("gfptop %s-p campaign-pid per-context counts equal the oracle's", how);
	if (!memcmp(g->ctx, octx, sizeof(octx)))
		pass("%s", n);
	else
		fail(n, "gfptop %s, oracle %s", fmt_ctx(g->ctx), fmt_ctx(octx));
}

/*
 * Pages of a highatomic pageblock handed out from a per-cpu list
 * (source=pcp highatomic_block=1): gfptop counts them apart, as
 * highatomic pages used without the right.
 */
static void check_pcp_highatomic(const struct run *r, const struct gfptop *g)
{
	const char *n = "gfptop -p campaign-pid counts the highatomic pages off per-cpu lists";
	const struct rec *rec;
	const char *src, *blk;
	long long want = 0;

	for_each_rec(r, rec) {
		if (!rec->ev || is_rfail(rec))
			continue;
		src = field(rec->ev, "source");
		blk = field(rec->ev, "highatomic_block");
		want += !strcmp(src, "pcp") && !strcmp(blk, "1");
	}
	if (g->lines == 0)
		fail(n, "no gfptop output");
	else if (g->pcp_ha_lines != g->lines)
		fail(n, "gfptop's JSON has no pcp_highatomic");
	else if (g->pcp_ha == want)
		pass("%s (%lld)", n, want);
	else
		fail(n, "gfptop %lld, the oracle's rows %lld", g->pcp_ha, want);
}

void check_counts(const struct run *r)
{
	const char *n = "every traced allocation of the campaign thread is an oracle row";
	struct tally all = oracle_tally(r, false), rf = oracle_tally(r, true);
	struct tally traced = events_tally(&r->tier_evs);
	/* the same campaign counted by the probe source (tiers derived from
	 * zone counters, docs/probe.md), in a gfptop of its own */
	struct gfptop gp = gfptop_counts(r, "campaign-probe.json"), g, gk;
	long long unknown = unknown_rows(r, false);
	size_t k;

	if (!r->traced) {
		/* fentry/fexit, and the same on kprobes */
		gk = gfptop_counts(r, "campaign-kprobe.json");
		check_tier_counts("--source probe ", &gp, &all, unknown);
		check_contexts(r, &gp, "--source probe ");
		check_tier_counts("--source probe --kprobe ", &gk, &all, unknown);
		check_contexts(r, &gk, "--source probe --kprobe ");
		return;
	}
	g = gfptop_counts(r, "campaign.json");
	check_tier_counts("", &g, &all, 0);
	check_tier_counts("--source probe ", &gp, &all, 0);
	check_reserve_fails(r, &g);
	check_contexts(r, &g, "");
	check_pcp_highatomic(r, &g);
	for (k = 0; k < NTIERS; k++)
		all.n[k] += rf.n[k];
	if (tally_eq(&traced, &all))
		pass("%s", n);
	else
		fail(n, "trace %s, oracle %s", fmt_tally(&traced), fmt_tally(&all));
}
