/* See ingest.h: the tiers and depth buckets the runs' JSON names, added
 * as first seen, then put in the report's order. */
#include "ingest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static int tier_find(const struct results *res, const char *name)
{
	int i;

	for (i = 0; i < res->ntiers; i++)
		if (!strcmp(res->tiers[i].name, name))
			return i;
	return -1;
}

/* the tier's index, added if new; -1 (and a warning once) when full */
int tier_index(struct results *res, const char *name)
{
	static int warned;
	int i = tier_find(res, name), k;

	if (i >= 0)
		return i;
	if (res->ntiers == MAXT) {
		if (!warned++)
			fprintf(stderr, "gfpcompare: tier '%s' ignored: more than %d tiers\n", name, MAXT);
		return -1;
	}
	memset(&res->tiers[res->ntiers], 0, sizeof(res->tiers[0]));
	res->tiers[res->ntiers].name = xstrdup(name);
	res->tiers[res->ntiers].gt = tier_from_name(name);
	for (k = 0; k < NK; k++)
		res->tiers[res->ntiers].level[k] = res->tiers[res->ntiers].share_json[k] = -1;
	return res->ntiers++;
}

/* ">100%", "75-100%", "<=25%": the bounds in % of min; NAN if not */
static void parse_bucket(const char *s, double *lo, double *hi)
{
	char *end;
	double a, b;

	*lo = *hi = NAN;
	if (s[0] == '>') {
		a = strtod(s + 1, &end);
		if (end != s + 1 && *end == '%') {
			*lo = a;
			*hi = INFINITY;
		}
	} else if (s[0] == '<' && s[1] == '=') {
		a = strtod(s + 2, &end);
		if (end != s + 2 && *end == '%') {
			*lo = -INFINITY;
			*hi = a;
		}
	} else {
		a = strtod(s, &end);
		if (end != s && *end == '-') {
			const char *p = end + 1;

			b = strtod(p, &end);
			if (end != p && *end == '%') {
				*lo = a;
				*hi = b;
			}
		}
	}
}

int bucket_index_of(struct results *res, const char *name)
{
	static int warned;
	int i;

	for (i = 0; i < res->nbuckets; i++)
		if (!strcmp(res->buckets[i].name, name))
			return i;
	if (res->nbuckets == MAXB || strlen(name) >= sizeof(res->buckets[0].name)) {
		if (!warned++)
			fprintf(stderr, "gfpcompare: depth bucket '%s' ignored: more than %d buckets\n", name, MAXB);
		return -1;
	}
	snprintf(res->buckets[res->nbuckets].name, sizeof(res->buckets[0].name), "%s", name);
	parse_bucket(name, &res->buckets[res->nbuckets].lo, &res->buckets[res->nbuckets].hi);
	return res->nbuckets++;
}

struct sortkey {
	int idx;
	long long val;
	int hasval;
	int gfptop; /* index in gfptop's tier table (common/names.c); -1 not there */
};

static int cmp_tier(const void *a, const void *b)
{
	const struct sortkey *x = a, *y = b;

	if (x->hasval != y->hasval)
		return x->hasval ? -1 : 1;
	if (x->hasval && x->val != y->val)
		return x->val < y->val ? -1 : 1;
	/* no kernel value: gfptop's order, then names gfptop does not know */
	if ((x->gfptop >= 0) != (y->gfptop >= 0))
		return x->gfptop >= 0 ? -1 : 1;
	if (x->gfptop != y->gfptop)
		return x->gfptop - y->gfptop;
	return x->idx - y->idx; /* first seen first */
}

/* a bucket and where it was first seen */
struct bucketkey {
	struct bucket b;
	int idx;
};

static int cmp_bucket(const void *a, const void *b)
{
	const struct bucketkey *x = a, *y = b;

	if (isnan(x->b.hi) != isnan(y->b.hi))
		return isnan(x->b.hi) ? 1 : -1;
	if (!isnan(x->b.hi) && x->b.hi != y->b.hi)
		return x->b.hi > y->b.hi ? -1 : 1;
	return x->idx - y->idx;
}

/* The tiers' order into perm (perm[new] = old index): by the kernel's
 * enum value (the smaller where the kernels differ), tiers without one
 * (e.g. "unknown") last, in gfptop's order, then as first seen. */
static void tier_order(const struct results *res, int *perm)
{
	struct sortkey key[MAXT];
	int i, k;

	for (i = 0; i < res->ntiers; i++) {
		key[i].idx = i;
		key[i].hasval = 0;
		key[i].gfptop = res->tiers[i].gt;
		for (k = NK - 1; k >= 0; k--) {
			if (res->tiers[i].hasval[k] && (!key[i].hasval || res->tiers[i].val[k] < key[i].val)) {
				key[i].val = res->tiers[i].val[k];
				key[i].hasval = 1;
			}
		}
	}
	qsort(key, (size_t)res->ntiers, sizeof(key[0]), cmp_tier);
	for (i = 0; i < res->ntiers; i++)
		perm[i] = key[i].idx;
}

/* The buckets' order into perm: from shallow to deep, names that do not
 * parse last */
static void bucket_order(const struct results *res, int *perm)
{
	struct bucketkey key[MAXB];
	int b;

	for (b = 0; b < res->nbuckets; b++) {
		key[b].b = res->buckets[b];
		key[b].idx = b;
	}
	qsort(key, (size_t)res->nbuckets, sizeof(key[0]), cmp_bucket);
	for (b = 0; b < res->nbuckets; b++)
		perm[b] = key[b].idx;
}

/* a run's per-tier data, and each tier's depth counts, into the new order */
static void permute_run(const struct results *res, struct run *r, const int *tperm, const int *bperm)
{
	struct tierrun otd[MAXT];
	int t, b;

	memcpy(otd, r->td, sizeof(otd));
	for (t = 0; t < res->ntiers; t++) {
		r->td[t] = otd[tperm[t]];
		for (b = 0; b < res->nbuckets; b++)
			r->td[t].depth[b] = otd[tperm[t]].depth[bperm[b]];
	}
}

void order_tiers(struct results *res)
{
	struct tier old[MAXT];
	struct bucket oldb[MAXB];
	int tperm[MAXT], bperm[MAXB], i, j, k;

	tier_order(res, tperm);
	bucket_order(res, bperm);
	memcpy(old, res->tiers, sizeof(old));
	for (i = 0; i < res->ntiers; i++)
		res->tiers[i] = old[tperm[i]];
	memcpy(oldb, res->buckets, sizeof(oldb));
	for (i = 0; i < res->nbuckets; i++)
		res->buckets[i] = oldb[bperm[i]];
	for (i = 0; i < res->nwl; i++)
		for (k = 0; k < NK; k++)
			for (j = 0; j < res->wls[i].g[k].n; j++)
				permute_run(res, &res->wls[i].g[k].runs[j], tperm, bperm);
}

int tier_of(const struct results *res, int gt)
{
	int t;

	for (t = 0; t < res->ntiers; t++)
		if (res->tiers[t].gt == gt)
			return t;
	return -1;
}

int is_reserve(const struct results *res, int t)
{
	return res->tiers[t].gt != GT_NONE;
}
