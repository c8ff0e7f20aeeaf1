/* The one table of names for gfptop's enums: tiers (enum gfptop_tier,
 * their names, colours and meanings from common/gfptop_tiers.h),
 * contexts (enum gfptop_ctx), depth buckets (enum gfptop_depth) and GFP
 * classes (enum gfp_class). Every output of gfptop (user/) and the report
 * generator (compare/) takes its names from here (common/, so that
 * neither reaches into the other's folder), so a value added to an
 * enum without a name here is caught by tests/unit/test_names.c instead of
 * dropping out of some output. */
#ifndef GFPTOP_NAMES_H
#define GFPTOP_NAMES_H
#include <stdbool.h>
#include "gfptop_abi.h"

/* GFP class of an allocation (user/gfpclass.h decides it) */
enum gfp_class {
	GFPC_ATOMIC,
	GFPC_NOWAIT,
	GFPC_KERNEL,
	GFPC_NOFS_NOIO,
	GFPC_USER,	/* GFP_USER and GFP_HIGHUSER(_MOVABLE) */
	GFPC_OTHER,
	GFPC_NR,
};

/* "none", "non_block", ..., "unknown": as the kernel's tracepoint prints
 * them and as gfptop's JSON keys them, indexed by enum gfptop_tier. */
extern const char *const tier_names[GT_NR_TIERS];
/* "NONE", "NONBLK", ...: the live view's process table columns */
extern const char *const tier_short_names[GT_NR_TIERS];
/* the report's colour per tier ("#rrggbb") */
extern const char *const tier_colours[GT_NR_TIERS];
/* "PAGE_ALLOC_TIER_NONE", ...: the kernel's enum page_alloc_tier names;
 * NULL for unknown, which the kernel has not */
extern const char *const tier_kernel_names[GT_NR_TIERS];
/* What a tier that is no watermark level is (the tier table's words);
 * "" for a watermark level (its rule set says: rule_sets.h) and out of
 * range. */
const char *tier_words(int tier);
/* "task", "softirq", "hardirq": enum gfptop_ctx. */
extern const char *const context_names[GC_NR];
/* ">100%", "75-100%", ..., "<=25%": enum gfptop_depth's buckets. */
extern const char *const depth_bucket_names[GD_NR];
/* "GFP_ATOMIC", "GFP_NOWAIT", "GFP_KERNEL", "GFP_NOFS_NOIO", "GFP_USER",
 * "other": enum gfp_class. */
extern const char *const gfp_class_names[GFPC_NR];

/* tier_names[tier]; "?" outside 0..GT_NR_TIERS-1. */
const char *tier_name(int tier);
/* Index of a tier name, or -1. */
int tier_from_name(const char *name);

/* Index of name in names[0..n-1], or -1 (for the context and class
 * tables). */
int names_index(const char *const *names, int n, const char *name);

#endif
