/* The results in memory: the workloads, each with a group of runs per
 * kernel, and the tiers and depth buckets the runs' JSON names, in one
 * struct results that load_results() (ingest.c) fills and everything
 * else reads through a const pointer.
 *
 * Nothing about the tiers is built in but, for JSON without
 * "tier_levels", the levels of gfptop's rule sets (common/rule_sets.c): the tiers are
 * the keys the runs' JSON has, in the order of the kernel's enum
 * ("tier_values"; else gfptop's own, common/names.c), and the depth
 * buckets are the keys of "depth_histograms", ordered by the share of
 * min they stand for. A tier the report's checks are about is found by
 * its place in gfptop's table (common/gfptop_tiers.h, tier_of(GT_...)),
 * not by spelling its name again. */
#ifndef GFPCOMPARE_RUNS_H
#define GFPCOMPARE_RUNS_H
#include "names.h"
#include "rule_sets.h"

#define MAXT GT_NR	/* tiers: as many as gfptop has slots */
#define MAXB 12		/* depth buckets (gfptop has GD_NR) */
#define HB 129		/* margin buckets -64..64 */
#define NK 2		/* kernels: before, after (or the two of -k) */

/* one tier, as the runs' JSON names it */
struct tier {
	char *name;
	long long val[NK]; /* tier_values: the kernel's enum value */
	int hasval[NK];
	char *meaning[NK]; /* tier_meaning, first seen; NULL if absent */
	double share_json[NK]; /* tier_levels' min_share, first seen; < 0: absent */
	double level[NK];  /* % of min the level must leave free; < 0: not a level */
	int level_json[NK]; /* level read from tier_levels (else the rule set's) */
	int gt;		   /* its enum gfptop_tier (common/gfptop_tiers.h); -1: gfptop has not it */
};


/* one depth bucket: free pages as a share of min, lo < free <= hi (%) */
struct bucket {
	char name[32];
	double lo, hi; /* NAN if the name does not parse */
};


/* per run and tier */
struct tierrun {
	double cnt, pages, hiord, cls[GFPC_NR], ctx[GC_NR];
	double hist[HB];
	double depth[MAXB];
	double pcp_cnt, pcp_pages; /* highatomic pageblock pages via pcp, at this watermark tier */
};

struct run {
	int rep;
	struct tierrun td[MAXT];
	double total, secs, intervals;
	double ha_res, ha_unres, ha_forced, ha_max;
	double rfail, lost, pcp_cnt, pcp_pages;
	int has_depth, has_pcp; /* the JSON had depth_histograms, pcp_highatomic */
	double zmin; /* min watermark (pages) of the zone with most managed pages; 0 unknown */
	double oom_kill, gfptop_cpu, maxrss, cmd_wall;
	char release[80], gfpver[64], sha[40], accel[16], qemu[96], schema[40];
	int mem_mb, cpus, min_free;
};

struct group {
	struct run *runs;
	int n, cap, failed;
};

struct workload {
	char name[64], desc[512];
	int mem;
	struct group g[NK];
};

/* everything gfpcompare knows of the runs: what load_results() returns */
struct results {
	const char *kernels[NK]; /* the report's two columns: RESULTS/<kernel>/ */
	/* each kernel's rule set (common/rule_sets.c), as its JSON names it
	 * ("rule_set", else "semantics": 6.1's row of that series); NULL:
	 * the JSON named none */
	const struct rule_set *rules[NK];
	struct tier tiers[MAXT];
	int ntiers;
	struct bucket buckets[MAXB];
	int nbuckets;
	struct workload *wls; /* the workload list's order, then as found */
	int nwl;
};

/* RESULTS/<kernel>/<workload>/rep-<N>/ of the two kernels. workloads, if
 * not NULL, is the tab-separated name, mem, set, description, command
 * lines that workloads_table (guest/lib.sh) makes of guest/workloads:
 * the workloads' order, guest sizes and descriptions; those without any
 * run are dropped. The tiers and buckets are ordered and each tier's
 * level found. Dies on an unreadable workload list; nwl is 0 if there
 * are no results. */
struct results *load_results(const char *root, const char *const kernels[NK], const char *workloads);
void free_results(struct results *res);

/* the index in res->tiers of gfptop's tier gt (enum gfptop_tier), the
 * way the report's checks name a tier; -1 if no run has it */
int tier_of(const struct results *res, int gt);
/* every tier but none is a reserve tier */
int is_reserve(const struct results *res, int t);
/* some run of the workload had this section in its JSON */
int wl_has(const struct workload *w, int pcp);

#endif
