/*
 * The oracle checker's row checks: each (case, level) group of the
 * module's records, its rows in their band, carries the expectation's
 * tier and event fields (untraced: got a page or failed as expected),
 * and every expected (case, level) has rows.
 */
#include "check.h"

/* ---- a tier per case and level */

/* whether the free count the decision saw lies in the row's band */
static bool in_band(const struct rec *rec)
{
	long long f, res;

	if (!rec->reached)
		return false;
	f = rec->ev ? field_int(rec->ev, "free", 10) : rec->free_before;
	if (!(rec->lo < f && f <= rec->hi))
		return false;
	res = rec->ev ? field_int(rec->ev, "highatomic", 10) : rec->reserved;
	if (!strcmp(rec->level, "min_low_ha") && (res == 0 || f - res > rec->wmin))
		return false;
	if (!strcmp(rec->level, "ha_only") &&
	    (res == 0 || !rec->ha_avail || rec->normal_free))
		return false;
	/* the band was set for the reserve the module saw */
	if ((!strcmp(rec->level, "over_ha") || !strcmp(rec->level, "frag") ||
	     !strcmp(rec->level, "boost")) && res != rec->reserved)
		return false;
	/* the boost stayed on the zone until the allocation returned */
	if (!strcmp(rec->level, "boost") && (!rec->boost || rec->boost_after != rec->boost))
		return false;
	return true;
}

/*
 * Rows are checked in groups of one (key_of, level), in the order the
 * campaign made them; a group goes by its first row.
 */
static struct rec *first_row(const struct run *r, const char *key, const char *level)
{
	struct rec *rec;

	for_each_rec(r, rec)
		if (!strcmp(rec->key, key) && !strcmp(rec->level, level))
			return rec;
	return NULL;
}

#define for_each_row(r, g, rec)	\
	for_each_rec(r, rec)	\
		if (!strcmp((rec)->key, (g)->key) && !strcmp((rec)->level, (g)->level))

/* the rows' free_before (or normal_free) joined with "," */
static char *join_rows(const struct run *r, const struct rec *g, bool normal_free)
{
	char *s = xasprintf("%s", "");
	const struct rec *rec;

	for_each_row(r, g, rec)
		catf(&s, "%s%lld", *s ? "," : "", normal_free ? rec->normal_free : rec->free_before);
	return s;
}

static char *observed_set(const struct run *r, const struct rec *g)
{
	const char **v = xrealloc(NULL, r->nrecs * sizeof(*v));
	const struct rec *rec;
	size_t n = 0;

	for_each_row(r, g, rec)
		v[n++] = rec->observed;
	return join_sorted_unique(v, n, ",");
}

/* the free count a row reports: the event's own text, else the module's */
static const char *rec_free_str(const struct rec *rec)
{
	return rec->ev ? field(rec->ev, "free") : xasprintf("%lld", rec->free_before);
}

/* V is one of the comma-separated alternatives of WANT ("none,non_block") */
static bool value_in(const char *v, const char *want)
{
	size_t n = strlen(v);
	const char *p = want;

	for (;;) {
		if (!strncmp(p, v, n) && (p[n] == ',' || p[n] == '\0'))
			return true;
		p = strchr(p, ',');
		if (!p)
			return false;
		p++;
	}
}

/*
 * The first event field of a row's event that is not what the
 * expectation says, as "key=want, observed value"; NULL if all are.
 * Besides the expectation's KEY=VALUE words: watermark_tier equals the
 * tier unless the tier is highatomic (or fail), and boost is what the
 * module set (0 except in the boost rows).
 */
static char *field_mismatch(const struct expect *x, const struct rec *rec)
{
	const char *v;
	size_t i;

	for (i = 0; i < x->nfields; i++) {
		v = kv_get(rec->ev->kv, x->fields[i].key);
		if (!v)
			v = "(none)";
		if (!value_in(v, x->fields[i].value))
			return xasprintf("%s=%s, observed %s", x->fields[i].key,
					 x->fields[i].value, v);
	}
	if (strcmp(x->tier, "highatomic") && strcmp(x->tier, "fail")) {
		v = field(rec->ev, "watermark_tier");
		if (strcmp(v, x->tier))
			return xasprintf("watermark_tier=%s, observed %s", x->tier, v);
	}
	if (field_int(rec->ev, "boost", 10) != rec->boost)
		return xasprintf("boost=%lld (the module's), observed %s", rec->boost,
				 field(rec->ev, "boost"));
	return NULL;
}

/*
 * Untraced, what a row shows is only whether it got a page: a valid row
 * that did and should have carries its expected tier (the count gfptop
 * must match), one that should have failed is "allocated"; a row not in
 * its band has no known tier ("unknown"), a failed one is "fail".
 */
static const char *untraced_observed(const struct rec *rec, const struct expect *x)
{
	if (rec->pfn < 0)
		return "fail";
	if (!rec->valid)
		return "unknown";
	return strcmp(x->tier, "fail") ? x->tier : "allocated";
}

static void check_group(const struct run *r, const struct rec *g)
{
	char *n = xasprintf("%s at %s", g->key, g->level);
	const struct expect *x = find_expect(r, g->key, g->level);
	struct rec *rec, *wrong = NULL;
	char *why = NULL, *fields;
	size_t nvalid = 0, nrows = 0, i;

	/* every row's band first, even without an expectation: reading an
	 * event's free= can fail */
	for_each_row(r, g, rec) {
		nvalid += rec->valid = in_band(rec);
		nrows++;
		if (!r->traced)
			rec->observed = x ? untraced_observed(rec, x) :
				        rec->pfn < 0 ? "fail" : "unknown";
	}
	if (!x) {
		fail(n, "no expectation in %s (observed %s)", r->expect_base, observed_set(r, g));
		return;
	}
	if (!nvalid) {
		fail(n, "level not reached (free %s, band %lld..%lld%s)",
		     join_rows(r, g, false), g->lo, g->hi,
		     strcmp(g->level, "ha_only") ? "" :
		     xasprintf(", free outside the reserve %s", join_rows(r, g, true)));
		return;
	}
	for_each_row(r, g, rec)
		if (!wrong && rec->valid && strcmp(rec->observed, x->tier))
			wrong = rec;
	if (wrong) {
		fail(n, "expected %s, observed %s (seq %lld, free %s, reserve %lld)",
		     x->tier, wrong->observed, wrong->seq, rec_free_str(wrong), wrong->reserved);
		return;
	}
	for_each_row(r, g, rec)
		if (!why && rec->valid && rec->ev && (why = field_mismatch(x, rec)))
			wrong = rec;
	if (why) {
		fail(n, "%s: expected %s (seq %lld, free %s, reserve %lld)", x->tier, why,
		     wrong->seq, rec_free_str(wrong), wrong->reserved);
		return;
	}
	fields = xasprintf("%s", "");
	for (i = 0; i < x->nfields; i++)
		catf(&fields, " %s=%s", x->fields[i].key, x->fields[i].value);
	pass("%s: %s%s (%zu/%zu rows in band%s)", n, x->tier, r->traced ? fields : "", nvalid, nrows,
	     r->traced ? "" : "; untraced: allocated or failed as expected");
}

/* a (case, level) of the first phase: the order-0 levels and boost */
static bool in_phase1(const struct expect *x)
{
	static const char *const levels[] = {
		"above_low", "min_low", "87", "69", "56", "44", "31", "boost"
	};
	size_t i;

	if (!strcmp(x->case_name, RFAIL_CASE))
		return false;
	for (i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
		if (!strcmp(x->level, levels[i]))
			return true;
	return false;
}

void check_rows(const struct run *r)
{
	const struct rec *rec;
	size_t i;

	for_each_rec(r, rec)
		if (first_row(r, rec->key, rec->level) == rec)
			check_group(r, rec);
	/* and every expected (case, level) the campaign made no row for */
	for (i = 0; i < r->nexpect; i++) {
		const struct expect *x = &r->expect[i];

		if (r->phase1 && !in_phase1(x))
			continue;
		if (!first_row(r, x->case_name, x->level) && !x->optional)
			fail(xasprintf("%s at %s", x->case_name, x->level),
			     "expected %s, but the campaign has no such row", x->tier);
	}
}
