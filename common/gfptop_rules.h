/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One kernel rule set's reserve arithmetic as numbers: what the BPF
 * side needs to derive a tier (the probe source), handed to it as one
 * rodata struct. The rows, with their words, are common/rule_sets.c.
 * Types only, fixed size: the BPF side includes it.
 */
#ifndef GFPTOP_RULES_H
#define GFPTOP_RULES_H

#include "gfptop_abi.h"

/* the watermark levels are the first tiers, GT_NONE..GT_OOM */
#define GT_NR_LEVELS (GT_OOM + 1)

/* One step of __zone_watermark_ok()'s reduction of min: when the
 * request holds every bit of all and none of none, min -= min >> shift
 * (the kernel's min / 2 and min / 4). shift 0: no step. */
struct gt_min_step {
	__u32 all;
	__u32 none;
	__u32 shift;
};
#define GT_MIN_STEPS 3

/* Which count of highatomic pages __zone_watermark_unusable_free()
 * subtracts without a reserve right. */
enum gt_ha_unusable {
	GT_HA_RESERVED,	/* zone->nr_reserved_highatomic (6.1) */
	GT_HA_FREE,	/* zone->nr_free_highatomic (6.12: c928807f6f6b) */
};

struct gt_rules {
	/* the ALLOC_* bits (mm/internal.h); before the series non_block is
	 * ALLOC_HARDER and min_reserve ALLOC_HIGH; highatomic 0: none */
	__u32 wmark_mask;
	__u32 no_watermarks;
	__u32 oom;
	__u32 non_block;
	__u32 min_reserve;
	__u32 cma;
	__u32 highatomic;
	struct gt_min_step min_step[GT_MIN_STEPS];
	/* any of these bits: the highatomic pages are not subtracted */
	__u32 ha_usable;
	/* any of these bits: a free MIGRATE_HIGHATOMIC block satisfies a
	 * high-order request's free-block check */
	__u32 ha_counts;
	__u32 ha_unusable;	/* enum gt_ha_unusable */
};

#endif
