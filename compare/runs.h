/* The results in memory: the workloads, each with a group of runs per
 * kernel, and the tiers and depth buckets the runs' JSON names. Filled by
 * ingest.c, read by everything else.
 *
 * Nothing about the tiers is built in but, for JSON without
 * "tier_meaning", the levels of kernel-patches/README.md: the tiers are
 * the keys the runs' JSON has, in the order of the kernel's enum
 * ("tier_values"; else gfptop's own, common/names.c), and the depth
 * buckets are the keys of "depth_histograms", ordered by the share of
 * min they stand for. A tier the report's checks are about is found by
 * its place in gfptop's table (common/gfptop_tiers.h, tier_of(GT_...)),
 * not by spelling its name again. */
#ifndef GFPCOMPARE_RUNS_H
#define GFPCOMPARE_RUNS_H
#include "names.h"

#define MAXT GT_NR	/* tiers: as many as gfptop has slots */
#define MAXB 12		/* depth buckets (gfptop has GD_NR) */
#define HB 129		/* margin buckets -64..64 */
#define NK 2		/* kernels: before, after (or the two of -k) */

extern const char *kernels[NK];

/* one tier, as the runs' JSON names it */
struct tier {
	char *name;
	long long val[NK]; /* tier_values: the kernel's enum value */
	int hasval[NK];
	char *meaning[NK]; /* tier_meaning, first seen; NULL if absent */
	double level[NK];  /* % of min the level must leave free; < 0: not a level */
	int level_json[NK]; /* level read from tier_meaning (else built in) */
	int gt;		   /* its enum gfptop_tier (common/gfptop_tiers.h); -1: gfptop has not it */
};

extern struct tier tiers[MAXT];
extern int ntiers;

/* one depth bucket: free pages as a share of min, lo < free <= hi (%) */
struct bucket {
	char name[32];
	double lo, hi; /* NAN if the name does not parse */
};

extern struct bucket buckets[MAXB];
extern int nbuckets;

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

extern struct workload *wls;
extern int nwl;

/* The tab-separated name, mem, set, description, command lines that
 * workloads_table (guest/lib.sh) makes of guest/workloads: the
 * workloads' names, guest sizes and descriptions, in file order */
void read_workloads(const char *path);
/* RESULTS/<kernel>/<workload>/rep-<N>/ into wls, then drop the listed
 * workloads without any run, order the tiers and buckets and find each
 * tier's level. Returns the number of workloads. */
int load_results(const char *root);

/* the index in tiers[] of gfptop's tier gt (enum gfptop_tier), the way
 * the report's checks name a tier; -1 if no run has it */
int tier_of(int gt);
/* every tier but none is a reserve tier */
int is_reserve(int t);
/* some run of the workload had this section in its JSON */
int wl_has(const struct workload *w, int pcp);

#endif
