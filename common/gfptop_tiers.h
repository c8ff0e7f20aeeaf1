/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one table of gfptop's tiers. Each line yields the enum gfptop_tier
 * value GT_<ID> (in this order), the kernel's enum page_alloc_tier value
 * PAGE_ALLOC_TIER_<ID> that kcheck looks up in BTF and BPF maps onto it
 * (tier_of_kernel[] in gfptop.bpf.c, filled by kcheck_tier_map()), the name gfptop prints, keys its
 * JSON by and takes for -t and -s, its column title in the live view's
 * process table, the report's colour, and what the tier
 * permits on each kernel series (kernel-patches/README.md, "How the tier
 * is defined": a share of the unboosted min watermark the level may take
 * free pages down to, "> N% of min", which the report reads its levels
 * from; the 2^order - 1 and lowmem_reserve terms left out).
 *
 * Adding a tier is one line here; tests/unit/test_kcheck.c compares the
 * K lines with enum page_alloc_tier in both kernels' BTF.
 *
 * X(ID, KIND, name, short, colour, after, before): KIND is K for a tier the
 * kernel has, U for gfptop's own "unknown" (a kernel value it does not
 * know); before is NULL where the series did not change the meaning.
 * Macros only: the BPF side includes it too.
 */
#ifndef GFPTOP_TIERS_H
#define GFPTOP_TIERS_H

#define GFPTOP_TIERS(X) \
	X(NONE, K, "none", "NONE", "#bbbbbb", \
	  "no reserve right: > 100% of min, highatomic reserve subtracted", NULL) \
	X(NON_BLOCK, K, "non_block", "NONBLK", "#4477aa", \
	  "ALLOC_NON_BLOCK: > 100% of min, highatomic reserve not subtracted", \
	  "ALLOC_HARDER: > 75% of min") \
	X(MIN_RESERVE, K, "min_reserve", "MINRES", "#ee6677", \
	  "ALLOC_MIN_RESERVE: > 50% of min", \
	  "ALLOC_HIGH: > 50% of min, highatomic reserve subtracted") \
	X(MIN_RESERVE_NON_BLOCK, K, "min_reserve_non_block", "MINRES+NB", "#aa3377", \
	  "ALLOC_MIN_RESERVE|ALLOC_NON_BLOCK: > 37.5% of min", \
	  "ALLOC_HIGH|ALLOC_HARDER: > 37.5% of min") \
	X(OOM, K, "oom", "OOM", "#228833", "ALLOC_OOM: > 50% of min", NULL) \
	X(NO_WATERMARKS, K, "no_watermarks", "NOWMARK", "#ccbb44", \
	  "ALLOC_NO_WATERMARKS: no watermark check", NULL) \
	X(HIGHATOMIC, K, "highatomic", "HIGHATOM", "#66ccee", \
	  "page taken off a MIGRATE_HIGHATOMIC free list by a reserve right", NULL) \
	X(HIGHATOMIC_COUNTED, K, "highatomic_counted", "HA_COUNT", "#ee7733", \
	  "high-order request admitted only by counting free highatomic blocks", NULL) \
	X(NO_LEVEL, K, "no_level", "NOLEVEL", "#555555", \
	  "no level passes on the snapshot: counters moved between the " \
	  "allocator's check and the snapshot", NULL) \
	X(UNKNOWN, U, "unknown", "UNKNOWN", "#000000", \
	  "a kernel tier value gfptop does not know", NULL)

#endif
