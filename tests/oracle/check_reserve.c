/*
 * The oracle checker's reserve checks: the reserve-failure series
 * (rfail-trace.txt, rfail.json), the highatomic reserve the first
 * order-4 rows make, and that the holder holds nothing after a phase.
 */
#include "check.h"

/*
 * The reserve-failure series (phase 4, traced and counted on its own):
 * every row that ran failed, and each failure gave exactly one
 * mm_page_alloc_reserve_fail from the campaign thread, with GFP_ATOMIC's
 * rights, and gfptop -p counted exactly those.
 */
void check_rfail(const struct run *r)
{
	struct events rfail = { 0 }, tier = { 0 };
	struct gfptop g = gfptop_counts(r, "rfail.json");
	struct tally none = { 0 };
	long long rows = 0, failed = 0, bad = 0;
	const struct rec *rec;
	const char *n;
	size_t i;

	read_events(&rfail, r, "rfail-trace.txt", "mm_page_alloc_reserve_fail", r->camp_pid);
	read_events(&tier, r, "rfail-trace.txt", "mm_page_alloc_tier", r->camp_pid);
	for_each_rec(r, rec) {
		rows += is_rfail(rec);
		failed += is_rfail(rec) && rec->reached && rec->pfn < 0;
	}
	for (i = 0; i < rfail.n; i++)
		bad += field_int(&rfail.v[i], "order", 10) != 0 ||
		       (field_int(&rfail.v[i], "alloc_flags", 16) & ALLOC_ATOMIC_RIGHTS) !=
		       ALLOC_ATOMIC_RIGHTS;
	n = xasprintf("%lld failed GFP_ATOMIC give %lld mm_page_alloc_reserve_fail from the campaign thread",
		      rows, rows);
	if (!r->traced)
		n = xasprintf("%lld GFP_ATOMIC rows of the reserve-failure series ran and failed", rows);
	if (!rows)
		fail(n, "the campaign made no %s row", RFAIL_CASE);
	else if (failed != rows || tier.n)
		fail(n, "%lld of %lld rows ran and failed, %zu allocations traced", failed, rows,
		     tier.n);
	else if (r->traced && ((long long)rfail.n != rows || bad))
		fail(n, "%zu events, %lld of them not order 0 with alloc_flags & %#x", rfail.n, bad,
		     ALLOC_ATOMIC_RIGHTS);
	else
		pass("%s", n);
	free_events(&rfail);
	free_events(&tier);
	n = "gfptop -p campaign-pid counts exactly the series' reserve failures";
	if (!r->traced)
		n = "gfptop -p campaign-pid counts no allocation of the series";
	if (g.lines == 0)
		fail(n, "no gfptop output");
	else if (!r->traced && tally_eq(&g.tiers, &none))
		pass("%s", n);
	else if (g.fails == rows && tally_eq(&g.tiers, &none))
		pass("%s (%lld)", n, g.fails);
	else
		fail(n, "gfptop reserve_fail %lld and %s, want %lld and nothing", g.fails,
		     fmt_tally(&g.tiers), rows);
}

/* ---- the highatomic reserve and the holder */

/* high-order atomic allocations below low must reserve a pageblock */
void check_reserve(const struct run *r)
{
	const char *n = "high-order GFP_ATOMIC below low reserves a highatomic pageblock";
	struct events reserve = { 0 };
	const struct rec *rec;
	size_t nfresh = 0;

	long long later = 0;

	read_events(&reserve, r, "trace.txt", "mm_reserve_highatomic", ANY_PID);
	for_each_rec(r, rec) {
		nfresh += !strcmp(rec->key, "atomic_o4/fresh") && rec->pfn >= 0;
		/* untraced: the reserve the module read before a later row */
		if (nfresh && rec->reserved > later)
			later = rec->reserved;
	}
	if (!nfresh)
		fail(n, "no atomic_o4 allocation ran with an empty reserve");
	else if (!r->traced && later > 0)
		pass("%s (untraced: nr_reserved_highatomic %lld before a later row)", n, later);
	else if (!r->traced)
		fail(n, "nr_reserved_highatomic stayed 0 after the fresh atomic_o4 rows");
	else if (reserve.n && field_int(&reserve.v[0], "order", 10) == 4)
		pass("%s (%zu mm_reserve_highatomic, nr_reserved=%s)", n, reserve.n,
		     field(&reserve.v[reserve.n - 1], "nr_reserved"));
	else
		fail(n, "no mm_reserve_highatomic event of order 4 in the trace");
	free_events(&reserve);
}

/* held.txt: what the holder still held after each campaign phase */
void check_held(const struct run *r)
{
	const char *n = "the holder holds nothing after each campaign";
	char *text = read_text(r, "held.txt"), *all = xasprintf("%s", ""), *w, *save = NULL;
	bool zero = true;

	for (w = text ? strtok_r(text, WS, &save) : NULL; w; w = strtok_r(NULL, WS, &save)) {
		catf(&all, "%s%s", *all ? " " : "", w);
		zero &= !strcmp(w, "0");
	}
	if (*all && zero)
		pass("%s", n);
	else
		fail(n, "pages still held: %s", *all ? all : "held.txt missing");
}
