/* The one table of names for gfptop's enums: tiers (enum gfptop_tier),
 * contexts (enum gfptop_ctx), depth buckets (enum gfptop_depth) and GFP
 * classes (enum gfp_class). Every output of gfptop (user/) and the report
 * generator (compare/) takes its names from here, so a value added to an
 * enum without a name here is caught by tests/unit/test_names.c instead of
 * dropping out of some output. */
#ifndef GFPTOP_NAMES_H
#define GFPTOP_NAMES_H
#include "gfptop.h"
#include "gfpclass.h"

/* "none", "non_block", ..., "unknown": as the kernel's tracepoint prints
 * them and as gfptop's JSON keys them, indexed by enum gfptop_tier. */
extern const char *const tier_names[GT_NR_TIERS];
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
