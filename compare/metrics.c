/* See metrics.h. */
#include "metrics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

double alpha = 0.05;

double g_total(const struct results *res, const struct run *r, int a) { return r->total; }
static double g_rate(const struct results *res, const struct run *r, int a)
{
	return r->secs > 0 ? r->total / r->secs : 0;
}
double g_count(const struct results *res, const struct run *r, int t)
{
	return t >= 0 ? r->td[t].cnt : 0;
}
double g_share(const struct results *res, const struct run *r, int t)
{
	return r->total > 0 ? 100 * g_count(res, r, t) / r->total : 0;
}
double g_hiord(const struct results *res, const struct run *r, int t)
{
	return t >= 0 ? r->td[t].hiord : 0;
}
double g_blocking(const struct results *res, const struct run *r, int t)
{
	return t >= 0 ? r->td[t].cls[GFPC_KERNEL] + r->td[t].cls[GFPC_NOFS_NOIO] + r->td[t].cls[GFPC_USER]
		      : 0;
}
double g_reserve(const struct results *res, const struct run *r, int a)
{
	return r->total - g_count(res, r, tier_of(res, GT_NONE));
}
double g_reserve_share(const struct results *res, const struct run *r, int a)
{
	return r->total > 0 ? 100 * g_reserve(res, r, 0) / r->total : 0;
}
static double g_res_cls(const struct results *res, const struct run *r, int c)
{
	double s = 0;
	int t;

	for (t = 0; t < res->ntiers; t++)
		if (is_reserve(res, t))
			s += r->td[t].cls[c];
	return s;
}
static double g_res_ctx(const struct results *res, const struct run *r, int c)
{
	double s = 0;
	int t;

	for (t = 0; t < res->ntiers; t++)
		if (is_reserve(res, t))
			s += r->td[t].ctx[c];
	return s;
}
static double g_res_hiord(const struct results *res, const struct run *r, int a)
{
	double s = 0;
	int t;

	for (t = 0; t < res->ntiers; t++)
		if (is_reserve(res, t))
			s += r->td[t].hiord;
	return s;
}
static double g_below(const struct results *res, const struct run *r, int a)
{
	/* allocations satisfied with free pages below the checked watermark */
	double s = 0;
	int t, b;

	for (t = 0; t < res->ntiers; t++)
		for (b = 0; b < 64; b++)
			s += r->td[t].hist[b];
	return s;
}
static double g_ha_res(const struct results *res, const struct run *r, int a) { return r->ha_res; }
static double g_ha_unres(const struct results *res, const struct run *r, int a) { return r->ha_unres; }
static double g_ha_max(const struct results *res, const struct run *r, int a) { return r->ha_max; }
static double g_rfail(const struct results *res, const struct run *r, int a) { return r->rfail; }
double g_pcp_pages(const struct results *res, const struct run *r, int a) { return r->pcp_pages; }
static double g_oom(const struct results *res, const struct run *r, int a) { return r->oom_kill; }
static double g_lost(const struct results *res, const struct run *r, int a) { return r->lost; }
static double g_cpu(const struct results *res, const struct run *r, int a) { return r->gfptop_cpu; }

static void values(const struct results *res, const struct group *g, getter f, int arg, double *out)
{
	int i;

	for (i = 0; i < g->n; i++)
		out[i] = f(res, &g->runs[i], arg);
}

/* compute one row; returns 0 if both kernels are all zero (row omitted
 * unless keep) */
static int make_row(const struct results *res, const struct workload *w, struct row *row, enum row_id id,
		    const char *label, getter f, int arg, int keep)
{
	int k, nz = 0, i;

	memset(row, 0, sizeof(*row));
	row->id = id;
	row->arg = arg;
	snprintf(row->label, sizeof(row->label), "%s", label);
	for (k = 0; k < NK; k++) {
		row->v[k] = xrealloc(NULL, sizeof(double) * (size_t)(w->g[k].n + 1));
		values(res, &w->g[k], f, arg, row->v[k]);
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

/* Which rows a row spec makes: one, or one per tier, reserve tier, gfp
 * class or interrupt context (task context is where allocations happen
 * anyway). */
enum row_per { PER_WORKLOAD, PER_TIER, PER_RESERVE_TIER, PER_CLASS, PER_IRQ_CONTEXT };

/* When a row that is zero in every run is kept: rows the reader looks
 * for are kept, the per-tier and per-class breakdowns are left out. */
enum row_keep {
	KEEP_NONZERO,
	KEEP_ALWAYS,
	KEEP_NONE_TIER,	/* the share of none, which the others are a remainder of */
	KEEP_RECORDED,	/* where gfptop reported the section (pcp_highatomic) */
};

struct row_spec {
	enum row_id id;
	const char *label; /* printf format; %s: the tier, class or context */
	getter get;
	enum row_per per;
	enum row_keep keep;
};

/* the rows of a workload's table, in the report's order */
static const struct row_spec row_specs[] = {
	{ ROW_ALLOCS, "allocations (events)", g_total, PER_WORKLOAD, KEEP_ALWAYS },
	{ ROW_RATE, "allocations/s", g_rate, PER_WORKLOAD, KEEP_ALWAYS },
	{ ROW_TIER_SHARE, "%% %s", g_share, PER_TIER, KEEP_NONE_TIER },
	{ ROW_RESERVE_SHARE, "%% reserve (all but none)", g_reserve_share, PER_WORKLOAD, KEEP_ALWAYS },
	{ ROW_TIER_ALLOCS, "%s allocs", g_count, PER_RESERVE_TIER, KEEP_NONZERO },
	{ ROW_TIER_HIORD, "%s allocs order>0", g_hiord, PER_RESERVE_TIER, KEEP_NONZERO },
	{ ROW_RESERVE_ALLOCS, "reserve allocs", g_reserve, PER_WORKLOAD, KEEP_ALWAYS },
	{ ROW_RESERVE_CLASS, "reserve %s", g_res_cls, PER_CLASS, KEEP_NONZERO },
	{ ROW_RESERVE_CONTEXT, "reserve in %s", g_res_ctx, PER_IRQ_CONTEXT, KEEP_NONZERO },
	{ ROW_RESERVE_HIORD, "reserve order>0", g_res_hiord, PER_WORKLOAD, KEEP_NONZERO },
	{ ROW_BELOW_MARK, "allocs below checked mark", g_below, PER_WORKLOAD, KEEP_ALWAYS },
	{ ROW_HA_RESERVE, "highatomic reserve events", g_ha_res, PER_WORKLOAD, KEEP_ALWAYS },
	{ ROW_HA_UNRESERVE, "highatomic unreserve events", g_ha_unres, PER_WORKLOAD, KEEP_NONZERO },
	{ ROW_HA_MAX, "highatomic max reserved (pages)", g_ha_max, PER_WORKLOAD, KEEP_ALWAYS },
	{ ROW_PCP_PAGES, "highatomic pages used without the right, via pcp", g_pcp_pages, PER_WORKLOAD,
	  KEEP_RECORDED },
	{ ROW_RESERVE_FAIL, "failed allocations with a reserve right (reserve_fail)", g_rfail,
	  PER_WORKLOAD, KEEP_ALWAYS },
	{ ROW_OOM_KILLS, "OOM kills (dmesg)", g_oom, PER_WORKLOAD, KEEP_ALWAYS },
	{ ROW_LOST_EVENTS, "lost events (gfptop maps)", g_lost, PER_WORKLOAD, KEEP_ALWAYS },
	{ ROW_GFPTOP_CPU, "gfptop CPU s (with start-up)", g_cpu, PER_WORKLOAD, KEEP_ALWAYS },
};

static int keep_row(const struct results *res, const struct row_spec *sp, const struct workload *w,
		    int arg)
{
	switch (sp->keep) {
	case KEEP_ALWAYS: return 1;
	case KEEP_NONE_TIER: return !is_reserve(res, arg);
	case KEEP_RECORDED: return wl_has(w, 1);
	default: return 0;
	}
}

/* the row of spec sp for arg (named name in its label), if kept */
static void add_row(const struct results *res, struct rowset *rs, const struct workload *w,
		    const struct row_spec *sp, int arg, const char *name)
{
	char label[96];
	struct row row;

	snprintf(label, sizeof(label), sp->label, name);
	if (!make_row(res, w, &row, sp->id, label, sp->get, arg, keep_row(res, sp, w, arg)))
		return;
	rs->r = xrealloc(rs->r, sizeof(*rs->r) * (size_t)(rs->n + 1));
	rs->r[rs->n++] = row;
}

static void add_rows(const struct results *res, struct rowset *rs, const struct workload *w,
		     const struct row_spec *sp)
{
	int i;

	switch (sp->per) {
	case PER_WORKLOAD:
		add_row(res, rs, w, sp, 0, "");
		break;
	case PER_TIER:
	case PER_RESERVE_TIER:
		for (i = 0; i < res->ntiers; i++)
			if (sp->per == PER_TIER || is_reserve(res, i))
				add_row(res, rs, w, sp, i, res->tiers[i].name);
		break;
	case PER_CLASS:
		for (i = 0; i < GFPC_NR; i++)
			add_row(res, rs, w, sp, i, gfp_class_names[i]);
		break;
	case PER_IRQ_CONTEXT:
		for (i = GC_TASK + 1; i < GC_NR; i++)
			add_row(res, rs, w, sp, i, context_names[i]);
		break;
	}
}

void build_rows(const struct results *res, const struct workload *w, struct rowset *rs)
{
	size_t i;

	rs->r = NULL;
	rs->n = 0;
	for (i = 0; i < sizeof(row_specs) / sizeof(row_specs[0]); i++)
		add_rows(res, rs, w, &row_specs[i]);
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

const struct row *find_row(const struct rowset *rs, enum row_id id, int arg)
{
	int i;

	for (i = 0; i < rs->n; i++)
		if (rs->r[i].id == id && rs->r[i].arg == arg)
			return &rs->r[i];
	return NULL;
}

double depth_shares(const struct results *res, const struct group *g, int t, double *sh)
{
	double n = 0;
	int i, b;

	for (b = 0; b < res->nbuckets; b++)
		sh[b] = 0;
	if (t < 0)
		return 0;
	for (i = 0; i < g->n; i++)
		for (b = 0; b < res->nbuckets; b++) {
			sh[b] += g->runs[i].td[t].depth[b];
			n += g->runs[i].td[t].depth[b];
		}
	for (b = 0; b < res->nbuckets; b++)
		sh[b] = n > 0 ? 100 * sh[b] / n : 0;
	return n;
}

/* the share (%) of sh[] in buckets at or below level (% of min): free pages
 * that did not stay above the level; NAN if no level */
double at_or_below(const struct results *res, const double *sh, double level)
{
	double s = 0;
	int b;

	if (level < 0)
		return NAN;
	for (b = 0; b < res->nbuckets; b++)
		if (!isnan(res->buckets[b].hi) && res->buckets[b].hi <= level + 1e-9)
			s += sh[b];
	return s;
}

int significant(const struct row *r)
{
	return r->tested && !isnan(r->w.p) && r->w.p < alpha;
}

double mean_of(const struct results *res, const struct group *g, getter f, int arg)
{
	double s = 0;
	int i;

	for (i = 0; i < g->n; i++)
		s += f(res, &g->runs[i], arg);
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
int depth_tiers(const struct results *res, const struct workload *w, int *list)
{
	double sh[MAXB];
	int t, k, n = 0;

	for (t = 0; t < res->ntiers; t++) {
		if (!is_reserve(res, t))
			continue;
		for (k = 0; k < NK; k++)
			if (depth_shares(res, &w->g[k], t, sh) > 0)
				break;
		if (k < NK)
			list[n++] = t;
	}
	return n;
}
