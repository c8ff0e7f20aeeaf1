/* See metrics.h. */
#include "metrics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

double alpha = 0.05;

double g_total(const struct run *r, int a) { return r->total; }
static double g_rate(const struct run *r, int a) { return r->secs > 0 ? r->total / r->secs : 0; }
double g_count(const struct run *r, int t) { return t >= 0 ? r->td[t].cnt : 0; }
double g_share(const struct run *r, int t)
{
	return r->total > 0 ? 100 * g_count(r, t) / r->total : 0;
}
double g_hiord(const struct run *r, int t) { return t >= 0 ? r->td[t].hiord : 0; }
double g_blocking(const struct run *r, int t)
{
	return t >= 0 ? r->td[t].cls[GFPC_KERNEL] + r->td[t].cls[GFPC_NOFS_NOIO] + r->td[t].cls[GFPC_USER]
		      : 0;
}
double g_reserve(const struct run *r, int a)
{
	return r->total - g_count(r, tier_of(GT_NONE));
}
double g_reserve_share(const struct run *r, int a)
{
	return r->total > 0 ? 100 * g_reserve(r, 0) / r->total : 0;
}
static double g_res_cls(const struct run *r, int c)
{
	double s = 0;
	int t;

	for (t = 0; t < ntiers; t++)
		if (is_reserve(t))
			s += r->td[t].cls[c];
	return s;
}
static double g_res_ctx(const struct run *r, int c)
{
	double s = 0;
	int t;

	for (t = 0; t < ntiers; t++)
		if (is_reserve(t))
			s += r->td[t].ctx[c];
	return s;
}
static double g_res_hiord(const struct run *r, int a)
{
	double s = 0;
	int t;

	for (t = 0; t < ntiers; t++)
		if (is_reserve(t))
			s += r->td[t].hiord;
	return s;
}
static double g_below(const struct run *r, int a)
{
	/* allocations satisfied with free pages below the checked watermark */
	double s = 0;
	int t, b;

	for (t = 0; t < ntiers; t++)
		for (b = 0; b < 64; b++)
			s += r->td[t].hist[b];
	return s;
}
static double g_ha_res(const struct run *r, int a) { return r->ha_res; }
static double g_ha_unres(const struct run *r, int a) { return r->ha_unres; }
static double g_ha_max(const struct run *r, int a) { return r->ha_max; }
static double g_rfail(const struct run *r, int a) { return r->rfail; }
double g_pcp_pages(const struct run *r, int a) { return r->pcp_pages; }
static double g_oom(const struct run *r, int a) { return r->oom_kill; }
static double g_lost(const struct run *r, int a) { return r->lost; }
static double g_cpu(const struct run *r, int a) { return r->gfptop_cpu; }

static void values(const struct group *g, getter f, int arg, double *out)
{
	int i;

	for (i = 0; i < g->n; i++)
		out[i] = f(&g->runs[i], arg);
}

/* compute one row; returns 0 if both kernels are all zero (row omitted
 * unless keep) */
static int make_row(const struct workload *w, struct row *row, const char *label, getter f,
		    int arg, int keep)
{
	int k, nz = 0, i;

	memset(row, 0, sizeof(*row));
	snprintf(row->label, sizeof(row->label), "%s", label);
	for (k = 0; k < NK; k++) {
		row->v[k] = xrealloc(NULL, sizeof(double) * (size_t)(w->g[k].n + 1));
		values(&w->g[k], f, arg, row->v[k]);
		stats_summarize(row->v[k], w->g[k].n, &row->s[k]);
		for (i = 0; i < w->g[k].n; i++)
			nz |= row->v[k][i] != 0;
	}
	row->tested = stats_welch_test(row->v[0], w->g[0].n, row->v[1], w->g[1].n, &row->w) == 0;
	if (!nz && !keep) {
		free(row->v[0]);
		free(row->v[1]);
		return 0;
	}
	return 1;
}

static void rs_add(struct rowset *rs, const struct workload *w, const char *label, getter f,
		   int arg, int keep)
{
	struct row row;

	if (!make_row(w, &row, label, f, arg, keep))
		return;
	rs->r = xrealloc(rs->r, sizeof(*rs->r) * (size_t)(rs->n + 1));
	rs->r[rs->n++] = row;
}

void build_rows(const struct workload *w, struct rowset *rs)
{
	char lab[96];
	int t, c;

	rs->r = NULL;
	rs->n = 0;
	rs_add(rs, w, "allocations (events)", g_total, 0, 1);
	rs_add(rs, w, "allocations/s", g_rate, 0, 1);
	for (t = 0; t < ntiers; t++) {
		snprintf(lab, sizeof(lab), "%% %s", tiers[t].name);
		rs_add(rs, w, lab, g_share, t, !is_reserve(t));
	}
	rs_add(rs, w, "% reserve (all but none)", g_reserve_share, 0, 1);
	for (t = 0; t < ntiers; t++) {
		if (!is_reserve(t))
			continue;
		snprintf(lab, sizeof(lab), "%s allocs", tiers[t].name);
		rs_add(rs, w, lab, g_count, t, 0);
	}
	for (t = 0; t < ntiers; t++) {
		if (!is_reserve(t))
			continue;
		snprintf(lab, sizeof(lab), "%s allocs order>0", tiers[t].name);
		rs_add(rs, w, lab, g_hiord, t, 0);
	}
	rs_add(rs, w, "reserve allocs", g_reserve, 0, 1);
	for (c = 0; c < GFPC_NR; c++) {
		snprintf(lab, sizeof(lab), "reserve %s", gfp_class_names[c]);
		rs_add(rs, w, lab, g_res_cls, c, 0);
	}
	/* task context is where allocations happen anyway */
	for (c = GC_TASK + 1; c < GC_NR; c++) {
		snprintf(lab, sizeof(lab), "reserve in %s", context_names[c]);
		rs_add(rs, w, lab, g_res_ctx, c, 0);
	}
	rs_add(rs, w, "reserve order>0", g_res_hiord, 0, 0);
	rs_add(rs, w, "allocs below checked mark", g_below, 0, 1);
	rs_add(rs, w, "highatomic reserve events", g_ha_res, 0, 1);
	rs_add(rs, w, "highatomic unreserve events", g_ha_unres, 0, 0);
	rs_add(rs, w, "highatomic max reserved (pages)", g_ha_max, 0, 1);
	/* kept even when zero, where gfptop reported it */
	rs_add(rs, w, PCP_ROW, g_pcp_pages, 0, wl_has(w, 1));
	rs_add(rs, w, RFAIL_ROW, g_rfail, 0, 1);
	rs_add(rs, w, "OOM kills (dmesg)", g_oom, 0, 1);
	rs_add(rs, w, "lost events (gfptop maps)", g_lost, 0, 1);
	rs_add(rs, w, "gfptop CPU s (with start-up)", g_cpu, 0, 1);
}

void free_rows(struct rowset *rs)
{
	int i;

	for (i = 0; i < rs->n; i++) {
		free(rs->r[i].v[0]);
		free(rs->r[i].v[1]);
	}
	free(rs->r);
}

const struct row *find_row(const struct rowset *rs, const char *label)
{
	int i;

	for (i = 0; i < rs->n; i++)
		if (!strcmp(rs->r[i].label, label))
			return &rs->r[i];
	return NULL;
}

double depth_shares(const struct group *g, int t, double *sh)
{
	double n = 0;
	int i, b;

	for (b = 0; b < nbuckets; b++)
		sh[b] = 0;
	if (t < 0)
		return 0;
	for (i = 0; i < g->n; i++)
		for (b = 0; b < nbuckets; b++) {
			sh[b] += g->runs[i].td[t].depth[b];
			n += g->runs[i].td[t].depth[b];
		}
	for (b = 0; b < nbuckets; b++)
		sh[b] = n > 0 ? 100 * sh[b] / n : 0;
	return n;
}

/* the share (%) of sh[] in buckets at or below level (% of min): free pages
 * that did not stay above the level; NAN if no level */
double at_or_below(const double *sh, double level)
{
	double s = 0;
	int b;

	if (level < 0)
		return NAN;
	for (b = 0; b < nbuckets; b++)
		if (!isnan(buckets[b].hi) && buckets[b].hi <= level + 1e-9)
			s += sh[b];
	return s;
}

int significant(const struct row *r)
{
	return r->tested && !isnan(r->w.p) && r->w.p < alpha;
}

double mean_of(const struct group *g, getter f, int arg)
{
	double s = 0;
	int i;

	for (i = 0; i < g->n; i++)
		s += f(&g->runs[i], arg);
	return g->n ? s / g->n : 0;
}

double mean_hist(const struct group *g, int t, int b)
{
	double s = 0;
	int i;

	for (i = 0; i < g->n; i++)
		s += g->runs[i].td[t].hist[b];
	return g->n ? s / g->n : 0;
}

/* the reserve tiers to show in a workload's depth plot and table: those
 * with depth counts on either kernel */
int depth_tiers(const struct workload *w, int *list)
{
	double sh[MAXB];
	int t, k, n = 0;

	for (t = 0; t < ntiers; t++) {
		if (!is_reserve(t))
			continue;
		for (k = 0; k < NK; k++)
			if (depth_shares(&w->g[k], t, sh) > 0)
				break;
		if (k < NK)
			list[n++] = t;
	}
	return n;
}
