/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one table of gfptop's tiers. Each line yields the enum gfptop_tier
 * value GT_<ID> (in this order), the kernel's enum page_alloc_tier value
 * PAGE_ALLOC_TIER_<ID> that kcheck looks up in BTF and BPF maps onto it
 * (tier_of_kernel[] in gfptop.bpf.c, filled by kcheck_tier_map()), the name gfptop prints, keys its
 * JSON by and takes for -t and -s, its column title in the live view's
 * process table, the report's colour, and what the tier is. The first
 * five are the watermark levels, whose words and numbers depend on the
 * kernel's rule set: one row each in common/rule_sets.c (what is
 * NULL here); the others mean the same on every kernel.
 *
 * Adding a tier is one line here; tests/unit/test_kcheck.c compares the
 * K lines with enum page_alloc_tier in both kernels' BTF.
 *
 * X(ID, KIND, name, short, colour, what): KIND is K for a tier the
 * kernel has, U for gfptop's own "unknown" (a kernel value it does not
 * know); what is NULL for a watermark level (its rule set's words).
 * Macros only: the BPF side includes it too.
 */
#ifndef GFPTOP_TIERS_H
#define GFPTOP_TIERS_H

#define GFPTOP_TIERS(X) \
	X(NONE, K, "none", "NONE", "#bbbbbb", NULL) \
	X(NON_BLOCK, K, "non_block", "NONBLK", "#4477aa", NULL) \
	X(MIN_RESERVE, K, "min_reserve", "MINRES", "#ee6677", NULL) \
	X(MIN_RESERVE_NON_BLOCK, K, "min_reserve_non_block", "MINRES+NB", "#aa3377", NULL) \
	X(OOM, K, "oom", "OOM", "#228833", NULL) \
	X(NO_WATERMARKS, K, "no_watermarks", "NOWMARK", "#ccbb44", \
	  "ALLOC_NO_WATERMARKS: no watermark check") \
	X(HIGHATOMIC, K, "highatomic", "HIGHATOM", "#66ccee", \
	  "page taken off a MIGRATE_HIGHATOMIC free list by a reserve right") \
	X(HIGHATOMIC_COUNTED, K, "highatomic_counted", "HA_COUNT", "#ee7733", \
	  "high-order request admitted only by counting free highatomic blocks") \
	X(NO_LEVEL, K, "no_level", "NOLEVEL", "#555555", \
	  "no level passes on the snapshot: counters moved between the " \
	  "allocator's check and the snapshot") \
	X(UNKNOWN, U, "unknown", "UNKNOWN", "#000000", \
	  "a kernel tier value gfptop does not know")

#endif
