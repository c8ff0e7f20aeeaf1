/* One interval's worth of results, as every output format sees it. It
 * is filled by collect.c (from the BPF maps) or by hand in unit tests. */
#ifndef GFPTOP_REPORT_H
#define GFPTOP_REPORT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "gfptop_abi.h"
#include "gfpclass.h"
#include "rule_sets.h"
#include "zoneinfo.h"

#define REPORT_ZONE_NAME_LEN 16

struct proc_row {
	uint32_t pid;
	char comm[GT_COMM_LEN];
	struct gt_cnt tier[GT_NR];
	uint64_t count, pages;			/* all tiers */
	uint64_t reserve_count, reserve_pages;	/* all tiers but none */
};

struct ha_zone_level {
	bool seen;		/* a highatomic event happened in this zone */
	uint64_t last;		/* nr_reserved_highatomic after the latest one */
	uint64_t max;		/* highest value since gfptop started */
};

struct report {
	double timestamp;	/* end of interval, seconds since the epoch */
	double interval_s;	/* measured length of the interval */
	const char *kernel_release;
	/* the kernel's rule set (common/rule_sets.h): what the tiers mean */
	const struct rule_set *rules;
	struct gt_counters c;	/* this interval's counts */
	struct gt_cnt gfp[GT_NR][GFPC_NR];
	struct ha_zone_level ha[GT_NR_ZONES];
	char zone_names[GT_NR_ZONES][REPORT_ZONE_NAME_LEN]; /* "" unknown */
	int64_t tier_values[GT_NR];	/* kernel's enum value, -1 absent */
	/* where the counts come from (user/source.h) */
	const char *source;		/* "tracepoint", "probe" or "both" */
	bool tiers_derived;		/* probe: derived from zone counters */
	const char *rules_basis;	/* probe, both: why these ALLOC_* rules */
	bool have_agreement;		/* both: agreement is filled */
	struct gt_agreement agreement;	/* both: cumulative since the start */
	/* the populated zones at the interval's end (zoneinfo.h); none if
	 * /proc/zoneinfo could not be read or parsed */
	struct zone_row zones[ZONEINFO_MAX];
	size_t nzones;
	struct proc_row *procs;		/* sorted, at most nprocs */
	size_t nprocs;			/* rows in procs */
	size_t nprocs_total;		/* processes seen in the interval */
};

/* "none", "non_block", ... as the tracepoint prints them; "unknown";
 * "?" outside 0..GT_NR_TIERS-1. */
const char *tier_name(int tier);
/* Index of a tier name, or -1. */
int tier_from_name(const char *name);
/* What the tier permits on this report's kernel (its rule set), e.g.
 * "ALLOC_MIN_RESERVE: > 50% of min"; "" if no tier. */
const char *tier_meaning(const struct report *r, int tier);
/* The report's rule set (6.1's after rules where none was set). */
const struct rule_set *report_rules(const struct report *r);

/* "task", "softirq", "hardirq": enum gfptop_ctx. */
extern const char *const context_names[GC_NR];

/* ">100%", "75-100%", ..., "<=25%": enum gfptop_depth's buckets. */
extern const char *const depth_bucket_names[GD_NR];

/* Highatomic pageblock pages from per-cpu lists, all tiers. */
struct gt_cnt report_pcp_highatomic_total(const struct report *r);

/* Total of one tier over all orders. */
struct gt_cnt report_tier_total(const struct report *r, int tier);
/* Zone name, or "zoneN" if the format file did not name it. */
const char *report_zone_name(const struct report *r, int zone, char *buf, size_t len);
/* "before" or "after" and the flag names that go with it. */
const char *report_semantics(const struct report *r);
const char *report_semantics_flags(const struct report *r);

/* Fill the derived columns of a row from its tier counts. */
void proc_row_totals(struct proc_row *p);

enum sort_key {
	SORT_RESERVE,	/* allocations from any tier but none (default) */
	SORT_ALLOCS,
	SORT_PAGES,
	SORT_PID,
	SORT_TIER,	/* count in one tier: options.sort_tier */
};
void proc_rows_sort(struct proc_row *rows, size_t n, enum sort_key key, int tier);

#endif
