/* See sections.h: summary.json (schema gfpcompare-summary/1, docs/compare.md). */
#include "sections.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>

#include "util.h"

static json_object *jdbl(double x)
{
	return json_object_new_double(isnan(x) ? 0 : x);
}

/* the tiers: name, enum value, meaning and level per kernel (null where
 * the kernel has none) */
static json_object *tiers_json(const struct results *res)
{
	json_object *tl = json_object_new_array();
	int t, k;

	for (t = 0; t < res->ntiers; t++) {
		const struct tier *ti = &res->tiers[t];
		json_object *o = json_object_new_object(), *v = json_object_new_object();
		json_object *m = json_object_new_object(), *l = json_object_new_object();

		json_object_object_add(o, "tier", json_object_new_string(ti->name));
		for (k = 0; k < NK; k++) {
			json_object_object_add(v, res->kernels[k],
					       ti->hasval[k] ? json_object_new_int64(ti->val[k]) : NULL);
			json_object_object_add(m, res->kernels[k],
					       ti->meaning[k] ? json_object_new_string(ti->meaning[k]) : NULL);
			json_object_object_add(l, res->kernels[k],
					       ti->level[k] >= 0 ? json_object_new_double(ti->level[k]) : NULL);
		}
		json_object_object_add(o, "value", v);
		json_object_object_add(o, "meaning", m);
		json_object_object_add(o, "level_pct_of_min", l);
		json_object_array_add(tl, o);
	}
	return tl;
}

/* one table row: per kernel n, mean, sd; the p value where tested */
static json_object *row_json(const struct results *res, const struct row *r)
{
	json_object *o = json_object_new_object();
	int k;

	json_object_object_add(o, "metric", json_object_new_string(r->label));
	for (k = 0; k < NK; k++) {
		json_object *s = json_object_new_object();

		json_object_object_add(s, "n", json_object_new_int(r->s[k].n));
		json_object_object_add(s, "mean", jdbl(r->s[k].mean));
		json_object_object_add(s, "sd", jdbl(r->s[k].sd));
		json_object_object_add(o, res->kernels[k], s);
	}
	if (r->tested && !isnan(r->w.p))
		json_object_object_add(o, "p", json_object_new_double(r->w.p));
	json_object_object_add(o, "significant", json_object_new_boolean(significant(r)));
	return o;
}

/* a kernel's depth: {tier: {allocs_per_run, shares_pct: {bucket: %}}} */
static json_object *depth_json(const struct results *res, const struct group *g)
{
	json_object *kd = json_object_new_object();
	int t, b;

	for (t = 0; t < res->ntiers; t++) {
		json_object *o, *s;
		double sh[MAXB];

		if (depth_shares(res, g, t, sh) <= 0)
			continue;
		o = json_object_new_object();
		s = json_object_new_object();
		json_object_object_add(o, "allocs_per_run", jdbl(mean_of(res, g, g_count, t)));
		for (b = 0; b < res->nbuckets; b++)
			json_object_object_add(s, res->buckets[b].name, jdbl(sh[b]));
		json_object_object_add(o, "shares_pct", s);
		json_object_object_add(kd, res->tiers[t].name, o);
	}
	return kd;
}

/* a kernel's highatomic pages used via pcp: per run, and by watermark tier */
static json_object *pcp_json(const struct results *res, const struct group *g)
{
	json_object *kp = json_object_new_object(), *kpt = json_object_new_object();
	double cnt = 0;
	int t, j;

	for (t = 0; t < res->ntiers; t++) {
		double p = 0;

		for (j = 0; j < g->n; j++)
			p += g->runs[j].td[t].pcp_pages;
		if (p > 0)
			json_object_object_add(kpt, res->tiers[t].name, jdbl(p / g->n));
	}
	for (j = 0; j < g->n; j++)
		cnt += g->runs[j].pcp_cnt;
	json_object_object_add(kp, "allocs_per_run", jdbl(g->n ? cnt / g->n : 0));
	json_object_object_add(kp, "pages_per_run", jdbl(mean_of(res, g, g_pcp_pages, 0)));
	json_object_object_add(kp, "pages_per_run_by_tier", kpt);
	return kp;
}

/* one workload: its rows, and the depth and pcp sections where its runs'
 * JSON had them */
static json_object *workload_json(const struct results *res, const struct workload *w,
				  const struct rowset *rs)
{
	json_object *o = json_object_new_object(), *rows = json_object_new_array();
	int j, k;

	json_object_object_add(o, "workload", json_object_new_string(w->name));
	for (j = 0; j < rs->n; j++)
		json_object_array_add(rows, row_json(res, &rs->r[j]));
	json_object_object_add(o, "rows", rows);
	if (wl_has(w, 0)) {
		json_object *depth = json_object_new_object();

		for (k = 0; k < NK; k++)
			json_object_object_add(depth, res->kernels[k], depth_json(res, &w->g[k]));
		json_object_object_add(o, "depth", depth);
	}
	if (wl_has(w, 1)) {
		json_object *pcp = json_object_new_object();

		for (k = 0; k < NK; k++)
			json_object_object_add(pcp, res->kernels[k], pcp_json(res, &w->g[k]));
		json_object_object_add(o, "pcp_highatomic", pcp);
	}
	return o;
}

void write_summary_json(const struct results *res, const struct rowset *all)
{
	char tmp[4096];
	json_object *root = json_object_new_object(), *ws = json_object_new_array();
	FILE *f;
	int i;

	json_object_object_add(root, "schema", json_object_new_string("gfpcompare-summary/1"));
	json_object_object_add(root, "alpha", json_object_new_double(alpha));
	json_object_object_add(root, "tiers", tiers_json(res));
	for (i = 0; i < res->nwl; i++)
		json_object_array_add(ws, workload_json(res, &res->wls[i], &all[i]));
	json_object_object_add(root, "workloads", ws);
	f = open_tmp("summary.json", tmp, sizeof(tmp));
	fprintf(f, "%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY));
	close_rename(f, tmp, "summary.json");
	json_object_put(root);
}
