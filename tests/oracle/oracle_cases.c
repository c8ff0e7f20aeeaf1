// SPDX-License-Identifier: GPL-2.0
/*
 * gfptop_oracle's rows: the cases (gfp, order, context), the levels and
 * the band of free pages each level is, from the target zone's marks.
 */
#include <linux/gfp.h>
#include <linux/mmzone.h>

#include "oracle.h"

const char * const oracle_ctx_names[] = {
	"task", "rt", "pf_memalloc", "softirq", "hardirq"
};

/*
 * __GFP_NORETRY keeps blocking requests that fail the watermark from
 * looping into the OOM killer; gfp_to_alloc_flags() does not look at it,
 * so it does not change the tier. __GFP_NOWARN only silences failures.
 */
#define Q	(__GFP_NOWARN | __GFP_NORETRY)
const struct oracle_case oracle_cases[] = {
	{ "kernel",		GFP_KERNEL | Q,			0, CTX_TASK },
	{ "nowait",		GFP_NOWAIT | __GFP_NOWARN,	0, CTX_TASK },
	{ "high_reclaim",	GFP_KERNEL | __GFP_HIGH | Q,	0, CTX_TASK },
	{ "atomic",		GFP_ATOMIC | __GFP_NOWARN,	0, CTX_TASK },
	{ "rt_kernel",		GFP_KERNEL | Q,			0, CTX_RT },
	{ "rt_high",		GFP_KERNEL | __GFP_HIGH | Q,	0, CTX_RT },
	{ "rt_nowait",		GFP_NOWAIT | __GFP_NOWARN,	0, CTX_RT },
	{ "softirq_atomic",	GFP_ATOMIC | __GFP_NOWARN,	0, CTX_SOFTIRQ },
	{ "hardirq_atomic",	GFP_ATOMIC | __GFP_NOWARN,	0, CTX_HARDIRQ },
	{ "memalloc",		GFP_KERNEL | __GFP_MEMALLOC | Q, 0, CTX_TASK },
	{ "pf_memalloc",	GFP_KERNEL | Q,			0, CTX_PF_MEMALLOC },
	/* phase 2: high-order atomic, the highatomic reserve */
	{ "atomic_o4",		GFP_ATOMIC | __GFP_NOWARN,	4, CTX_TASK },
	/* the pcp leak: an order-4 block off the highatomic list, split
	 * and freed onto the per-cpu lists, then an order-0 movable request */
	{ "leak_o4",		GFP_ATOMIC | __GFP_NOWARN,	4, CTX_TASK },
	{ "kernel_movable",	GFP_KERNEL | __GFP_MOVABLE | Q,	0, CTX_TASK },
	/* admitted only because a free highatomic block counts for it */
	{ "atomic_o5",		GFP_ATOMIC | __GFP_NOWARN,	5, CTX_TASK },
	/* phase 4: the reserve-failure series */
	{ "rfail_atomic",	GFP_ATOMIC | __GFP_NOWARN,	0, CTX_TASK },
	/*
	 * the zonelist walk (zones-guest.sh): the zone's last free block of
	 * the order, taken by a request without any reserve right
	 */
	{ "kernel_o5",		GFP_KERNEL | Q,			5, CTX_TASK },
};

const char * const oracle_level_names[] = {
	"above_low", "min_low", "87", "69", "56", "44", "31", "min_low_ha",
	"ha_only", "boost", "over_ha", "frag", "last"
};

/*
 * The boost the boost rows set: twice min, so that the boosted min
 * (3 * min) scaled by every level's reduction is above the band they
 * run in (see oracle_band()).
 */
long oracle_boost_pages(void)
{
	return 2 * oracle_wmark(WMARK_MIN);
}

/*
 * The highatomic pages __zone_watermark_unusable_free() takes off the
 * free count of a request without a reserve right: the whole reserve on
 * 6.1, only its free pages on 6.12 (zone->nr_free_highatomic, commit
 * c928807f6f6b; Kbuild defines ORACLE_NR_FREE_HIGHATOMIC when the
 * kernel's struct zone has it). The bands below that depend on the
 * reserve use this, so one expectation holds on both.
 */
static long ha_unusable(void)
{
#ifdef ORACLE_NR_FREE_HIGHATOMIC
	return READ_ONCE(oracle_zone->nr_free_highatomic);
#else
	return oracle_zone->nr_reserved_highatomic;
#endif
}

/* the GFP_ATOMIC mark, mark - mark/2 - (mark - mark/2)/4, both kernels */
static long mark_37(long mark)
{
	long half = mark - mark / 2;

	return half - half / 4;
}

/*
 * bands, with the allocator's integer arithmetic, against the unboosted
 * marks; order only matters for over_ha and frag
 */
static void band_unreserved(int level, unsigned int order, long *lo, long *hi);

/*
 * Every row's request has ZONE_NORMAL as its highest zone (no zone
 * modifier; __GFP_MOVABLE alone is Normal too), and every watermark
 * check adds the target's lowmem_reserve[ZONE_NORMAL] to the scaled
 * mark: 0 when the target is the highest populated zone, the reserve
 * DMA32 keeps from Normal's requests otherwise (hold_higher). The bands
 * move up by it.
 */
long oracle_lowmem(void)
{
	return oracle_zone->lowmem_reserve[ZONE_NORMAL];
}

void oracle_band(int level, unsigned int order, long *lo, long *hi)
{
	band_unreserved(level, order, lo, hi);
	*lo += oracle_lowmem();
	if (*hi != LONG_MAX)
		*hi += oracle_lowmem();
}

static void band_unreserved(int level, unsigned int order, long *lo, long *hi)
{
	long m = oracle_wmark(WMARK_MIN), low = oracle_wmark(WMARK_LOW);
	long m50 = m - m / 2;
	long res = ha_unusable();

	switch (level) {
	case L_ABOVE_LOW:
		*lo = low;
		*hi = oracle_wmark(WMARK_HIGH) + (oracle_wmark(WMARK_HIGH) - low);
		break;
	case L_MIN_LOW:
		*lo = m;
		*hi = low;
		break;
	case L_87:
		*lo = m - m / 4;
		*hi = m;
		break;
	case L_69:
		*lo = m - m * 3 / 8;
		*hi = m - m / 4;
		break;
	case L_56:
		*lo = m50;
		*hi = m - m * 3 / 8;
		break;
	case L_44:
		*lo = m50 - m50 / 4;
		*hi = m50;
		break;
	case L_31:
		*lo = m / 4;
		*hi = m50 - m50 / 4;
		break;
	case L_MIN_LOW_HA:
		/* free - the unusable highatomic pages <= min < free */
		*lo = m;
		*hi = min_t(long, low, m + res);
		break;
	case L_HA_ONLY:
		/* m < free, every free buddy page on a highatomic list */
		*lo = m;
		*hi = LONG_MAX;
		break;
	case L_BOOST:
		/*
		 * m < free - reserve (the unboosted none level passes) and
		 * free <= the boosted min scaled for GFP_ATOMIC (37.5%), the
		 * deepest of the three cases: every boosted check fails
		 */
		*lo = m + res;
		*hi = mark_37(m + oracle_boost_pages());
		break;
	case L_OVER_HA:
	case L_FRAG:
		/*
		 * free - (2^order - 1) - reserve is above min (the none level
		 * passes once a block is there) and at most low (the fast
		 * path's low-mark check fails for every request)
		 */
		*lo = m + res + (1L << order) - 1;
		*hi = low + res + (1L << order) - 1;
		break;
	case L_LAST:
		/*
		 * the above_low band for a request of this order: free -
		 * (2^order - 1) - reserve above low (the fast path's check
		 * passes once a block of the order is there)
		 */
		*lo = low + res + (1L << order) - 1;
		*hi = oracle_wmark(WMARK_HIGH) + (oracle_wmark(WMARK_HIGH) - low) + res +
		      (1L << order) - 1;
		break;
	}
}
