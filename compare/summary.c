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

void write_summary_json(const struct results *res, const struct rowset *all)
{
	char tmp[4096];
	json_object *root = json_object_new_object(), *ws = json_object_new_array();
	json_object *tl = json_object_new_array();
	FILE *f;
	int i, j, k, t, b;

	json_object_object_add(root, "schema", json_object_new_string("gfpcompare-summary/1"));
	json_object_object_add(root, "alpha", json_object_new_double(alpha));
	for (t = 0; t < res->ntiers; t++) {
		json_object *o = json_object_new_object(), *v = json_object_new_object();
		json_object *m = json_object_new_object(), *l = json_object_new_object();

		json_object_object_add(o, "tier", json_object_new_string(res->tiers[t].name));
		for (k = 0; k < NK; k++) {
			json_object_object_add(v, res->kernels[k],
					       res->tiers[t].hasval[k] ? json_object_new_int64(res->tiers[t].val[k]) : NULL);
			json_object_object_add(m, res->kernels[k],
					       res->tiers[t].meaning[k] ? json_object_new_string(res->tiers[t].meaning[k]) : NULL);
			json_object_object_add(l, res->kernels[k],
					       res->tiers[t].level[k] >= 0 ? json_object_new_double(res->tiers[t].level[k]) : NULL);
		}
		json_object_object_add(o, "value", v);
		json_object_object_add(o, "meaning", m);
		json_object_object_add(o, "level_pct_of_min", l);
		json_object_array_add(tl, o);
	}
	json_object_object_add(root, "tiers", tl);
	for (i = 0; i < res->nwl; i++) {
		json_object *w = json_object_new_object(), *rows = json_object_new_array();
		json_object *depth = json_object_new_object(), *pcp = json_object_new_object();

		json_object_object_add(w, "workload", json_object_new_string(res->wls[i].name));
		for (j = 0; j < all[i].n; j++) {
			const struct row *r = &all[i].r[j];
			json_object *o = json_object_new_object();

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
			json_object_array_add(rows, o);
		}
		json_object_object_add(w, "rows", rows);
		/* depth: {kernel: {tier: {allocs_per_run, shares_pct: {bucket: %}}}} */
		for (k = 0; k < NK; k++) {
			json_object *kd = json_object_new_object(), *kp = json_object_new_object();
			json_object *kpt = json_object_new_object();
			const struct group *g = &res->wls[i].g[k];
			double cnt = 0;

			for (t = 0; t < res->ntiers; t++) {
				double sh[MAXB], p = 0;

				for (j = 0; j < g->n; j++)
					p += g->runs[j].td[t].pcp_pages;
				if (p > 0)
					json_object_object_add(kpt, res->tiers[t].name, jdbl(p / g->n));
				if (depth_shares(res, g, t, sh) > 0) {
					json_object *o = json_object_new_object(), *s = json_object_new_object();

					json_object_object_add(o, "allocs_per_run", jdbl(mean_of(res, g, g_count, t)));
					for (b = 0; b < res->nbuckets; b++)
						json_object_object_add(s, res->buckets[b].name, jdbl(sh[b]));
					json_object_object_add(o, "shares_pct", s);
					json_object_object_add(kd, res->tiers[t].name, o);
				}
			}
			for (j = 0; j < g->n; j++)
				cnt += g->runs[j].pcp_cnt;
			json_object_object_add(kp, "allocs_per_run", jdbl(g->n ? cnt / g->n : 0));
			json_object_object_add(kp, "pages_per_run", jdbl(mean_of(res, g, g_pcp_pages, 0)));
			json_object_object_add(kp, "pages_per_run_by_tier", kpt);
			json_object_object_add(depth, res->kernels[k], kd);
			json_object_object_add(pcp, res->kernels[k], kp);
		}
		if (wl_has(&res->wls[i], 0))
			json_object_object_add(w, "depth", depth);
		else
			json_object_put(depth);
		if (wl_has(&res->wls[i], 1))
			json_object_object_add(w, "pcp_highatomic", pcp);
		else
			json_object_put(pcp);
		json_object_array_add(ws, w);
	}
	json_object_object_add(root, "workloads", ws);
	f = open_tmp("summary.json", tmp, sizeof(tmp));
	fprintf(f, "%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY));
	close_rename(f, tmp, "summary.json");
	json_object_put(root);
}
