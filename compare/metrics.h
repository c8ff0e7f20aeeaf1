/* Metrics of a run (getters), their before/after rows (mean, sd and
 * Welch's test over the repetitions) and the pooled depth shares. */
#ifndef GFPCOMPARE_METRICS_H
#define GFPCOMPARE_METRICS_H
#include "runs.h"
#include "stats.h"

/* the significance level (-a) */
extern double alpha;

/* one number of a run; arg: a tier, gfp class or context index, or 0 */
typedef double (*getter)(const struct results *res, const struct run *r, int arg);

double g_total(const struct results *res, const struct run *r, int a);
double g_count(const struct results *res, const struct run *r, int t);
double g_share(const struct results *res, const struct run *r, int t);
double g_hiord(const struct results *res, const struct run *r, int t);
/* allocations of tier t in the blocking classes (GFP_KERNEL, NOFS_NOIO, USER) */
double g_blocking(const struct results *res, const struct run *r, int t);
double g_reserve(const struct results *res, const struct run *r, int a);
double g_reserve_share(const struct results *res, const struct run *r, int a);
double g_pcp_pages(const struct results *res, const struct run *r, int a);

/* What a row measures. With its arg (the tier, gfp class or context it
 * is of, else 0) it names the row for the code that reads one; the label
 * is only what the report prints. */
enum row_id {
	ROW_ALLOCS,
	ROW_RATE,
	ROW_TIER_SHARE,
	ROW_RESERVE_SHARE,
	ROW_TIER_ALLOCS,
	ROW_TIER_HIORD,
	ROW_RESERVE_ALLOCS,
	ROW_RESERVE_CLASS,
	ROW_RESERVE_CONTEXT,
	ROW_RESERVE_HIORD,
	ROW_BELOW_MARK,
	ROW_HA_RESERVE,
	ROW_HA_UNRESERVE,
	ROW_HA_MAX,
	ROW_PCP_PAGES,
	ROW_RESERVE_FAIL,
	ROW_OOM_KILLS,
	ROW_LOST_EVENTS,
	ROW_GFPTOP_CPU,
};

/* a metric of one workload on both kernels */
struct row {
	enum row_id id;
	int arg;
	char label[96];
	struct stats_summary s[NK];
	struct stats_welch w;
	int tested;
	double *v[NK];
};

struct rowset {
	struct row *r;
	int n;
};

/* the workload's rows, in the report's order; rows that are zero in every
 * run are left out unless the report needs them */
void build_rows(const struct results *res, const struct workload *w, struct rowset *rs);
void free_rows(struct rowset *rs);
/* the row id of arg (a tier index, gfp class or context, else 0); NULL if
 * the workload has none (left out as zero, or arg is -1: no such tier) */
const struct row *find_row(const struct rowset *rs, enum row_id id, int arg);
/* p < alpha */
int significant(const struct row *r);

/* mean over a group's runs of a getter */
double mean_of(const struct results *res, const struct group *g, getter f, int arg);
/* mean over a group's runs of margin bucket b of tier t */
double mean_hist(const struct group *g, int t, int b);

/* depth of tier t over a group's runs: the share (%) of its allocations
 * in each bucket (pooled over the runs) into sh[]; returns the number of
 * allocations the depth histograms counted */
double depth_shares(const struct results *res, const struct group *g, int t, double *sh);
/* the share (%) of sh[] in buckets at or below level (% of min); NAN if
 * no level */
double at_or_below(const struct results *res, const double *sh, double level);
/* the reserve tiers with depth counts on either kernel into list; their number */
int depth_tiers(const struct results *res, const struct workload *w, int *list);

#endif
