/* Metrics of a run (getters), their before/after rows (mean, sd and
 * Welch's test over the repetitions) and the pooled depth shares. */
#ifndef GFPCOMPARE_METRICS_H
#define GFPCOMPARE_METRICS_H
#include "runs.h"
#include "stats.h"

/* the significance level (-a) */
extern double alpha;

/* one number of a run; arg: a tier, gfp class or context index, or 0 */
typedef double (*getter)(const struct run *r, int arg);

double g_total(const struct run *r, int a);
double g_count(const struct run *r, int t);
double g_share(const struct run *r, int t);
double g_hiord(const struct run *r, int t);
/* allocations of tier t in the blocking classes (GFP_KERNEL, NOFS_NOIO, USER) */
double g_blocking(const struct run *r, int t);
double g_reserve(const struct run *r, int a);
double g_reserve_share(const struct run *r, int a);
double g_pcp_pages(const struct run *r, int a);

#define PCP_ROW "highatomic pages used without the right, via pcp"
#define RFAIL_ROW "failed allocations with a reserve right (reserve_fail)"

/* a metric of one workload on both kernels */
struct row {
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
void build_rows(const struct workload *w, struct rowset *rs);
void free_rows(struct rowset *rs);
const struct row *find_row(const struct rowset *rs, const char *label);
/* p < alpha */
int significant(const struct row *r);

/* mean over a group's runs of a getter */
double mean_of(const struct group *g, getter f, int arg);
/* mean over a group's runs of margin bucket b of tier t */
double mean_hist(const struct group *g, int t, int b);

/* depth of tier t over a group's runs: the share (%) of its allocations
 * in each bucket (pooled over the runs) into sh[]; returns the number of
 * allocations the depth histograms counted */
double depth_shares(const struct group *g, int t, double *sh);
/* the share (%) of sh[] in buckets at or below level (% of min); NAN if
 * no level */
double at_or_below(const double *sh, double level);
/* the reserve tiers with depth counts on either kernel into list; their number */
int depth_tiers(const struct workload *w, int *list);

#endif
