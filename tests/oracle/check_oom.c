/*
 * The oracle checker's OOM checks: the user-space victim (hog) is
 * killed, its ALLOC_OOM allocations have the tier their own snapshot
 * gives, and gfptop -p of the victim counts what the trace has.
 */
#include "check.h"

/* ---- the OOM victim */

static void check_killed(const struct run *r, long long hog)
{
	const char *n = "the hog was OOM-killed";
	char *dm = read_text(r, "oom-dmesg.txt"), *rc;
	char *want = xasprintf("Killed process %lld (hog)", hog);

	if (dm && strstr(dm, want)) {
		pass("%s", n);
		return;
	}
	/* a missing or empty hog.rc is "?" */
	rc = read_text(r, "hog.rc");
	fail(n, "no '%s' in dmesg (exit %s)", want, rc && *rc ? strip(rc) : "?");
}

/*
 * The watermark tier an ALLOC_OOM order-0 allocation must have on its
 * own snapshot (an OOM victim's retry has alloc_flags ALLOC_OOM and no
 * other right in both kernels, so none and oom are its only levels):
 * none if free minus the highatomic reserve is above the mark (no right:
 * reserve subtracted), else oom if free is above mark - mark/2 (ALLOC_OOM:
 * reserve not subtracted), else no_level. The tier is highatomic if the
 * page came off a MIGRATE_HIGHATOMIC free list (source highatomic or
 * highatomic_fallback), else the watermark tier.
 */
static const char *oom_want(const struct event *e, const char **tier)
{
	long long free = field_int(e, "free", 10) - field_int(e, "free_cma", 10);
	long long wm = field_int(e, "watermark", 10);
	long long lowmem = field_int(e, "lowmem_reserve", 10);
	long long res = field_int(e, "highatomic", 10);
	const char *src = field(e, "source");
	const char *wt;

	if (free - res > wm + lowmem)
		wt = "none";
	else if (free > wm - wm / 2 + lowmem)
		wt = "oom";
	else
		wt = "no_level";
	*tier = !strcmp(src, "highatomic") || !strcmp(src, "highatomic_fallback") ?
		"highatomic" : wt;
	return wt;
}

static void check_oom_levels(const struct events *oevs)
{
	const char *n = "OOM victim at its level: every ALLOC_OOM allocation has the tier its free count gives";
	const struct event *e, *wrong = NULL;
	const char *want, *wt_want;
	char *wrong_want = NULL;
	size_t checked = 0, nwrong = 0;

	for (e = oevs->v; e < oevs->v + oevs->n; e++) {
		/* flags first: the order is only read for ALLOC_OOM events */
		if (!(field_int(e, "alloc_flags", 16) & ALLOC_OOM) || field_int(e, "order", 10))
			continue;
		checked++;
		wt_want = oom_want(e, &want);
		if (!strcmp(field(e, "tier"), want) && !strcmp(field(e, "watermark_tier"), wt_want))
			continue;
		if (!nwrong++) {
			wrong = e;
			wrong_want = xasprintf("watermark_tier=%s tier=%s", wt_want, want);
		}
	}
	if (!checked)
		fail(n, "no ALLOC_OOM allocation traced");
	else if (wrong)
		fail(n, "%zu of %zu: e.g. free=%s watermark=%s highatomic=%s source=%s: expected %s, observed watermark_tier=%s tier=%s",
		     nwrong, checked, field(wrong, "free"), field(wrong, "watermark"),
		     field(wrong, "highatomic"), field(wrong, "source"), wrong_want,
		     field(wrong, "watermark_tier"), field(wrong, "tier"));
	else
		pass("%s (%zu allocations)", n, checked);
}

/* a user process OOM-killed while allocating: hog.pid, oom-trace.txt */
void check_oom(const struct run *r)
{
	char *pid = read_text(r, "hog.pid");
	FILE *otrace = open_out(r, "oom-trace.txt");
	bool ran = pid && otrace;
	struct events oevs = { 0 };
	struct tally ocount;
	struct gfptop g;
	const char *n;
	long long hog;

	if (otrace)
		fclose(otrace);
	if (!ran) {
		fail("OOM victim ran", "hog.pid or oom-trace.txt missing");
		return;
	}
	hog = to_int(strip(pid), 10, "hog.pid");
	check_killed(r, hog);
	if (!r->traced) {
		/* nothing to hold the probe source's tiers against here: the
		 * victim's ALLOC_OOM retries must at least show up as oom */
		g = gfptop_counts(r, "oom.json");
		n = "gfptop (probe source) -p victim-pid counts oom-tier allocations";
		if (g.tiers.n[TIER_OOM])
			pass("%s (%s)", n, fmt_tally(&g.tiers));
		else
			fail(n, "no oom-tier allocation (%s)", fmt_tally(&g.tiers));
		return;
	}
	read_events(&oevs, r, "oom-trace.txt", "mm_page_alloc_tier", hog);
	ocount = events_tally(&oevs);

	n = "the OOM victim's allocations reach the oom tier";
	if (ocount.n[TIER_OOM])
		pass("%s (%s)", n, fmt_tally(&ocount));
	else
		fail(n, "no oom-tier allocation by pid %lld (%s)", hog, fmt_tally(&ocount));

	check_oom_levels(&oevs);

	g = gfptop_counts(r, "oom.json");
	n = "gfptop -p victim-pid per-tier counts equal the traced ones";
	if (g.lines == 0)
		fail(n, "no gfptop output");
	else if (tally_eq(&g.tiers, &ocount))
		pass("%s", n);
	else
		fail(n, "gfptop %s, trace %s", fmt_tally(&g.tiers), fmt_tally(&ocount));
	free_events(&oevs);
}
