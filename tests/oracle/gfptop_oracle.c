// SPDX-License-Identifier: GPL-2.0
/*
 * gfptop_oracle: ground truth for gfptop's reserve tiers. Test module,
 * loaded only inside the gfptop QEMU guests (tests/oracle/host.sh).
 *
 * On "run" written to /sys/kernel/debug/gfptop_oracle/control it brings
 * the DMA32 zone's (target=normal: ZONE_NORMAL's) NR_FREE_PAGES into
 * chosen bands relative to its watermarks by holding pages (a "holder" kthread, PF_MEMALLOC), then
 * makes allocations with known contexts from a "campaign" kthread and
 * records each one (case, level, order, gfp, free pages before/after,
 * highatomic state, pfn or failure) in .../records. Every page it holds
 * is freed when the campaign ends, on error, and on unload.
 *
 * A row whose level could not be reached is recorded as such
 * ("unreached") instead of as an allocation.
 *
 * "fallback" runs the rows that need min_free_kbytes lowered (the
 * caller lowers it), "rfail" a series of allocations that must all fail
 * while holding a reserve right, traced on their own; "run1" the first
 * phase of "run" alone (the campaigns of tests/oracle/zones-guest.sh).
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/gfp.h>
#include <linux/interrupt.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/vmstat.h>
#include <linux/wait.h>

/*
 * 6.1 and 6.12 (one source for both): 6.1's MAX_ORDER is the number of
 * orders, 6.12 calls that NR_PAGE_ORDERS; 6.12 moved free_area_empty()
 * and get_page_from_free_area() out of the headers, so the module has
 * its own (the same list operations).
 */
#ifndef NR_PAGE_ORDERS
#define NR_PAGE_ORDERS MAX_ORDER
#endif

static bool oracle_area_empty(struct free_area *area, int migratetype)
{
	return list_empty(&area->free_list[migratetype]);
}

static struct page *oracle_area_first(struct free_area *area, int migratetype)
{
	return list_first_entry_or_null(&area->free_list[migratetype],
					struct page, buddy_list);
}

#define MAX_RECS	512
#define REPS		2
#define OUT_SIZE	(MAX_RECS * 256)
#define NR_RFAIL	32	/* allocations of the reserve-failure series */
#define KSWAPD_HOPELESS	16	/* mm/internal.h's MAX_RECLAIM_RETRIES */

/*
 * The zone the campaign brings into its bands: DMA32 (the default), or
 * ZONE_NORMAL with target=normal (a guest with memory above 4 GB). With
 * hold_higher=1 the holder also holds every free page of the zones above
 * the target (Normal, for DMA32) while the module is loaded: a request
 * whose zonelist starts there fails in them and is decided in the
 * target, against its marks plus lowmem_reserve[ZONE_NORMAL] (the
 * zonelist walk). The zones below the target are always held.
 */
static char *target = "dma32";
module_param(target, charp, 0444);
MODULE_PARM_DESC(target, "zone of the campaign: dma32 or normal");
static bool hold_higher;
module_param(hold_higher, bool, 0444);
MODULE_PARM_DESC(hold_higher, "hold every free page of the zones above the target");
static int target_idx = ZONE_DMA32;

enum ctx { CTX_TASK, CTX_RT, CTX_PF_MEMALLOC, CTX_SOFTIRQ, CTX_HARDIRQ };
static const char * const ctx_names[] = {
	"task", "rt", "pf_memalloc", "softirq", "hardirq"
};

struct oracle_case {
	const char *name;
	gfp_t gfp;
	unsigned int order;
	enum ctx ctx;
};

/*
 * __GFP_NORETRY keeps blocking requests that fail the watermark from
 * looping into the OOM killer; gfp_to_alloc_flags() does not look at it,
 * so it does not change the tier. __GFP_NOWARN only silences failures.
 */
#define Q	(__GFP_NOWARN | __GFP_NORETRY)
static const struct oracle_case cases[] = {
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
};

#define C_KERNEL	0
#define C_NOWAIT	1
#define C_HIGH		2
#define C_ATOMIC	3
#define C_RT_KERNEL	4
#define C_RT_NOWAIT	6
#define C_SOFTIRQ	7
#define C_PHASE1	11	/* cases [0, C_PHASE1) run at every phase 1 level */
#define C_ATOMIC_O4	11
#define C_LEAK_O4	12
#define C_KERNEL_MOVABLE 13
#define C_ATOMIC_O5	14
#define C_RFAIL		15

enum level {
	L_ABOVE_LOW, L_MIN_LOW, L_87, L_69, L_56, L_44, L_31,
	L_MIN_LOW_HA, L_HA_ONLY, L_BOOST, L_OVER_HA, L_FRAG, NR_LEVELS
};
static const char * const level_names[] = {
	"above_low", "min_low", "87", "69", "56", "44", "31", "min_low_ha",
	"ha_only", "boost", "over_ha", "frag"
};

struct rec {
	unsigned short c, level, rep;
	short reached;		/* 1: in band before the allocation */
	long lo, hi;		/* band: lo < free <= hi */
	long free_before, free_after, reserved_ha;
	int ha_avail;		/* a free MIGRATE_HIGHATOMIC block of >= order */
	long pfn;		/* -1: allocation failed */
	long wmin;		/* the min watermark at the time */
	long normal_free;	/* ha_only: free pages an UNMOVABLE order-0
				 * request could get without the reserve */
	long boost;		/* zone->watermark_boost set for the row */
	long boost_after;	/* and read back after the allocation */
	int normal_avail;	/* a free non-highatomic block of >= order */
};

static struct zone *zone;
static struct dentry *dir;
static struct task_struct *camp_task, *hold_task;
static DEFINE_MUTEX(run_lock);
static struct rec *recs;
static int nr_recs;
static char *out_buf;
static size_t out_len;

/* holder: a list per order of held blocks, linked through page->lru */
static const unsigned int hold_orders[] = { 8, 4, 0 };
static struct list_head held[ARRAY_SIZE(hold_orders)];
#define HOLD_O4		1	/* held[HOLD_O4] are order-4 blocks */
static long nr_held_pages;
static long hold_lo, hold_hi;
static int hold_rc;
enum hold_cmd { HOLD_LEVEL, HOLD_DRAIN, HOLD_RELEASE, HOLD_FRAG, HOLD_HIGHER };
static enum hold_cmd hold_cmd;
/* order-4 blocks held, one bit per 16 pfns of the zone */
static unsigned long *held_o4;
static unsigned long held_o4_bits;
static bool fragmented;	/* HOLD_FRAG drained the zone and stays so */
static DECLARE_COMPLETION(hold_req);
static DECLARE_COMPLETION(hold_done);
static DECLARE_COMPLETION(camp_req);
static DECLARE_COMPLETION(camp_done);
/* the holder's first hold (the zones other than the target) is in place */
static DECLARE_COMPLETION(zones_held);
static bool stopping;
static int camp_cmd;	/* 1: run (phases 1, 2), 2: fallback (3), 3: rfail (4) */

static long zone_free(void)
{
	return zone_page_state(zone, NR_FREE_PAGES);
}

/* the zone's marks without the boost (min_wmark_pages() adds it) */
static long wmark(enum zone_watermarks w)
{
	return zone->_watermark[w];
}

static long held_o4_bit(struct page *page)
{
	unsigned long pfn = page_to_pfn(page);

	if (page_zone(page) != zone)
		return -1;
	return (pfn - zone->zone_start_pfn) >> 4;
}

static void held_o4_mark(struct page *page, bool held)
{
	long bit = held_o4_bit(page);

	if (bit < 0 || bit >= held_o4_bits)
		return;
	if (held)
		__set_bit(bit, held_o4);
	else
		__clear_bit(bit, held_o4);
}

static bool hold_one(int i)
{
	/*
	 * PF_MEMALLOC (set in the holder) lets this go below every
	 * watermark: the slow path retries with ALLOC_NO_WATERMARKS only,
	 * so it never holds ALLOC_NON_BLOCK/ALLOC_OOM/ALLOC_HIGHATOMIC and
	 * never takes MIGRATE_HIGHATOMIC pages; no kswapd wakeup, no
	 * direct reclaim (PF_MEMALLOC), no compaction.
	 */
	gfp_t gfp = (GFP_KERNEL & ~__GFP_KSWAPD_RECLAIM) | __GFP_NOWARN |
		    __GFP_NORETRY | (target_idx == ZONE_DMA32 ? __GFP_DMA32 : 0);
	struct page *page = alloc_pages(gfp, hold_orders[i]);

	if (!page)
		return false;
	/* the target is empty of this order: the zonelist went on */
	if (page_zone(page) != zone) {
		__free_pages(page, hold_orders[i]);
		return false;
	}
	list_add(&page->lru, &held[i]);
	nr_held_pages += 1L << hold_orders[i];
	if (i == HOLD_O4)
		held_o4_mark(page, true);
	return true;
}

static void release_page(int i, struct page *page)
{
	list_del(&page->lru);
	if (i == HOLD_O4)
		held_o4_mark(page, false);
	__free_pages(page, hold_orders[i]);
	nr_held_pages -= 1L << hold_orders[i];
}

/* free one held block of order >= 4: those go straight to the buddy lists */
static bool release_one(long want)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(hold_orders); i++) {
		struct page *page;

		if (!hold_orders[i] || list_empty(&held[i]))
			continue;
		if ((1L << hold_orders[i]) > want && i + 1 < ARRAY_SIZE(hold_orders) &&
		    hold_orders[i + 1] && !list_empty(&held[i + 1]))
			continue;
		page = list_first_entry(&held[i], struct page, lru);
		release_page(i, page);
		return true;
	}
	return false;
}

static void release_all(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(hold_orders); i++) {
		while (!list_empty(&held[i])) {
			struct page *page = list_first_entry(&held[i], struct page, lru);

			list_del(&page->lru);
			__free_pages(page, hold_orders[i]);
		}
	}
	nr_held_pages = 0;
	bitmap_zero(held_o4, held_o4_bits);
	fragmented = false;
}

/* bring zone_free() into [hold_lo, hold_hi]; 0 or -EAGAIN */
static int keep_level(void)
{
	int iter;

	for (iter = 0; iter < 200000; iter++) {
		long f = zone_free();
		long mid = (hold_lo + hold_hi) / 2;
		bool ok = false;
		int i;

		if (f >= hold_lo && f <= hold_hi)
			return 0;
		if (f > hold_hi) {
			for (i = 0; i < ARRAY_SIZE(hold_orders) && !ok; i++)
				if ((1L << hold_orders[i]) <= f - mid || !hold_orders[i])
					ok = hold_one(i);
		} else {
			ok = release_one(mid - f);
		}
		if (!ok)
			return -EAGAIN;
		if (!(iter % 64))
			cond_resched();
	}
	return -EAGAIN;
}

/* hold blocks of one order until none is left */
static void drain_order(int i)
{
	long n = 0;

	while (hold_one(i))
		if (!(++n % 64))
			cond_resched();
}

/*
 * Hold every page __rmqueue() can still hand out: afterwards only the
 * MIGRATE_HIGHATOMIC free lists (which the holder's requests never
 * search) and other CPUs' pcp lists have pages.
 */
static int drain(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(hold_orders); i++)
		drain_order(i);
	return 0;
}

/*
 * Bring zone_free() into [hold_lo, hold_hi] with no free block of order
 * >= 5 on any list __rmqueue() searches (the MIGRATE_HIGHATOMIC lists
 * keep theirs): the first time, everything is released and then every
 * free block of order >= 4 held again as order-4 blocks (what is left
 * free is in blocks of order <= 3); then free pages are added only as
 * order-4 blocks at an even 16-pfn boundary whose buddy (the next 16
 * pfns) stays held, so that they cannot merge into order 5. Frees go
 * straight to the buddy lists (order 4 is above PAGE_ALLOC_COSTLY_ORDER,
 * no per-cpu list). The campaign checks the lists before it allocates.
 */
static int keep_fragmented(void)
{
	struct page *page, *next;
	int iter;

	if (!fragmented) {
		release_all();
		drain_order(HOLD_O4);
		fragmented = true;
	}
	for (iter = 0; iter < 4; iter++) {
		long f = zone_free();

		if (f >= hold_lo && f <= hold_hi)
			return 0;
		if (f > hold_hi) {
			while (zone_free() > (hold_lo + hold_hi) / 2 && hold_one(HOLD_O4))
				;
			continue;
		}
		list_for_each_entry_safe(page, next, &held[HOLD_O4], lru) {
			unsigned long pfn = page_to_pfn(page);
			unsigned long buddy = (pfn ^ 16) - zone->zone_start_pfn;

			if (zone_free() >= (hold_lo + hold_hi) / 2)
				break;
			/* a block at an even 16-pfn boundary whose buddy
			 * block we hold (and never release here) */
			if (page_zone(page) != zone || (pfn & 16) ||
			    (buddy >> 4) >= held_o4_bits || !test_bit(buddy >> 4, held_o4))
				continue;
			release_page(HOLD_O4, page);
		}
	}
	return -EAGAIN;
}

/*
 * The zones below the target (ZONE_DMA on kernels that have it:
 * Debian's, not ours; DMA32 too for target=normal): an allocation that
 * fails the target's watermark check goes on to them in the zonelist,
 * and a zone far above its own marks would serve it at tier none,
 * whatever level the target was brought to. The holder holds all of
 * their free pages while the module is loaded, so every row is decided
 * in the target, as on a one-zone kernel; and with hold_higher those of
 * the zones above it, which every row's zonelist tries first.
 */
static LIST_HEAD(lower_held);
static long nr_lower_held, nr_higher_held;

/*
 * hold every free page the zone modifier zmod reaches in zones lo..hi
 * (onto list, counted in *n); a page of another zone is given back and
 * the next order tried
 */
static void hold_zones(gfp_t zmod, int lo, int hi, struct list_head *list,
		       long *n)
{
	gfp_t gfp = (GFP_KERNEL & ~__GFP_KSWAPD_RECLAIM) | __GFP_NOWARN |
		    __GFP_NORETRY | zmod;
	int order = NR_PAGE_ORDERS - 1;
	struct page *page;
	long calls = 0;
	int zi;

	while (order >= 0) {
		page = alloc_pages(gfp, order);
		zi = page ? page_zonenum(page) : -1;
		if (zi < lo || zi > hi) {
			if (page)
				__free_pages(page, order);
			order--;
			continue;
		}
		/* the order in page->private, for the release */
		set_page_private(page, order);
		list_add(&page->lru, list);
		*n += 1L << order;
		if (!(++calls % 64))
			cond_resched();
	}
}

static void free_listed(struct list_head *list)
{
	while (!list_empty(list)) {
		struct page *page = list_first_entry(list, struct page, lru);
		unsigned int order = page_private(page);

		list_del(&page->lru);
		set_page_private(page, 0);
		__free_pages(page, order);
	}
}

static void hold_lower_zones(void)
{
	LIST_HEAD(target_held);
	long n = 0;

	if (target_idx == ZONE_NORMAL)
		hold_zones(__GFP_DMA32, 0, ZONE_DMA32, &lower_held,
			   &nr_lower_held);
#ifdef CONFIG_ZONE_DMA
	else if (populated_zone(&NODE_DATA(0)->node_zones[ZONE_DMA]))
		hold_zones(__GFP_DMA, ZONE_DMA, ZONE_DMA, &lower_held,
			   &nr_lower_held);
#endif
	if (!hold_higher)
		return;
	/*
	 * Normal's requests fall back to DMA32 as soon as Normal is below
	 * its low mark (the fast path, before PF_MEMALLOC counts): DMA32 is
	 * held whole meanwhile, so that they have nowhere else to go and
	 * the slow path takes Normal down to its last page; then given
	 * back.
	 */
	hold_zones(__GFP_DMA32, ZONE_DMA32, ZONE_DMA32, &target_held, &n);
	hold_zones(0, ZONE_NORMAL, MAX_NR_ZONES - 1, &lower_held,
		   &nr_higher_held);
	free_listed(&target_held);
}

static void release_lower_zones(void)
{
	free_listed(&lower_held);
	nr_lower_held = 0;
	nr_higher_held = 0;
}

/*
 * With hold_higher, kswapd (woken by the held Normal) frees what it
 * reclaims there, and a row's request would find it: before each row
 * the holder takes again what Normal's free lists have, order by order
 * (HOLD_HIGHER; in the holder, whose allocations gfptop -p leaves out),
 * so the row is still decided in DMA32
 */
static void rehold_higher(void)
{
	gfp_t gfp = (GFP_KERNEL & ~__GFP_KSWAPD_RECLAIM) | __GFP_NOWARN |
		    __GFP_NORETRY;
	struct page *page;
	struct zone *z;
	int zi, order;

	for (zi = ZONE_NORMAL; zi < MAX_NR_ZONES; zi++) {
		z = &NODE_DATA(0)->node_zones[zi];
		for (order = NR_PAGE_ORDERS - 1; order >= 0; order--) {
			while (READ_ONCE(z->free_area[order].nr_free)) {
				page = alloc_pages(gfp, order);
				if (!page)
					break;
				if (page_zone(page) != z) {
					__free_pages(page, order);
					break;
				}
				set_page_private(page, order);
				list_add(&page->lru, &lower_held);
				nr_higher_held += 1L << order;
			}
		}
	}
}

static int hold_fn(void *unused)
{
	unsigned int noreclaim = memalloc_noreclaim_save();

	hold_lower_zones();
	complete(&zones_held);
	while (!kthread_should_stop()) {
		if (wait_for_completion_interruptible(&hold_req))
			continue;
		if (kthread_should_stop() || READ_ONCE(stopping))
			break;
		switch (hold_cmd) {
		case HOLD_RELEASE:
			release_all();
			hold_rc = 0;
			break;
		case HOLD_DRAIN:
			hold_rc = drain();
			break;
		case HOLD_FRAG:
			hold_rc = keep_fragmented();
			break;
		case HOLD_LEVEL:
			hold_rc = keep_level();
			break;
		case HOLD_HIGHER:
			rehold_higher();
			hold_rc = 0;
			break;
		}
		complete(&hold_done);
	}
	release_all();
	release_lower_zones();
	memalloc_noreclaim_restore(noreclaim);
	return 0;
}

static int hold_run(enum hold_cmd cmd, long lo, long hi)
{
	hold_lo = lo;
	hold_hi = hi;
	hold_cmd = cmd;
	complete(&hold_req);
	wait_for_completion(&hold_done);
	return hold_rc;
}

static int hold_to(long lo, long hi)
{
	return hold_run(HOLD_LEVEL, lo, hi);
}

static void hold_drain_all(void)
{
	hold_run(HOLD_DRAIN, 0, 0);
}

static void hold_release_all(void)
{
	hold_run(HOLD_RELEASE, 0, 0);
}

/*
 * The boost the boost rows set: twice min, so that the boosted min
 * (3 * min) scaled by every level's reduction is above the band they
 * run in (see band()).
 */
static long boost_pages(void)
{
	return 2 * wmark(WMARK_MIN);
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
	return READ_ONCE(zone->nr_free_highatomic);
#else
	return zone->nr_reserved_highatomic;
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
static long lowmem(void)
{
	return zone->lowmem_reserve[ZONE_NORMAL];
}

static void band(int level, unsigned int order, long *lo, long *hi)
{
	band_unreserved(level, order, lo, hi);
	*lo += lowmem();
	if (*hi != LONG_MAX)
		*hi += lowmem();
}

static void band_unreserved(int level, unsigned int order, long *lo, long *hi)
{
	long m = wmark(WMARK_MIN), low = wmark(WMARK_LOW);
	long m50 = m - m / 2;
	long res = ha_unusable();

	switch (level) {
	case L_ABOVE_LOW:
		*lo = low;
		*hi = wmark(WMARK_HIGH) + (wmark(WMARK_HIGH) - low);
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
		*hi = mark_37(m + boost_pages());
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
	}
}

/* a free block of >= order on one of the free lists [mt_lo, mt_hi] */
static int block_avail(unsigned int order, int mt_lo, int mt_hi)
{
	unsigned long flags;
	int o, mt, ret = 0;

	spin_lock_irqsave(&zone->lock, flags);
	for (o = order; o < NR_PAGE_ORDERS; o++)
		for (mt = mt_lo; mt <= mt_hi; mt++)
			if (!oracle_area_empty(&zone->free_area[o], mt))
				ret = 1;
	spin_unlock_irqrestore(&zone->lock, flags);
	return ret;
}

/* ... on a MIGRATE_HIGHATOMIC list */
static int ha_avail(unsigned int order)
{
	return block_avail(order, MIGRATE_HIGHATOMIC, MIGRATE_HIGHATOMIC);
}

/* ... on a list __rmqueue() searches */
static int normal_avail(unsigned int order)
{
	return block_avail(order, 0, MIGRATE_PCPTYPES - 1);
}

/*
 * The pfn __rmqueue_smallest(zone, order, MIGRATE_HIGHATOMIC) would take:
 * the first block of the first non-empty highatomic list of >= order
 * (expand() gives back the block's start), -1 if none.
 */
static long ha_first_pfn(unsigned int order)
{
	unsigned long flags;
	long pfn = -1;
	int o;

	spin_lock_irqsave(&zone->lock, flags);
	for (o = order; o < NR_PAGE_ORDERS && pfn < 0; o++) {
		struct page *page = oracle_area_first(&zone->free_area[o],
						      MIGRATE_HIGHATOMIC);

		if (page)
			pfn = page_to_pfn(page);
	}
	spin_unlock_irqrestore(&zone->lock, flags);
	return pfn;
}

/*
 * This CPU's per-cpu list of order-0 pages of one migratetype (its
 * index is the migratetype for order 0): the pfn at its head and the
 * number of pages on it. Call with migration disabled.
 */
static long pcp_head(int migratetype, long *count)
{
	struct per_cpu_pages *pcp;
	struct list_head *list;
	unsigned long flags;
	long pfn = -1, n = 0;
	struct page *page;

	pcp = get_cpu_ptr(zone->per_cpu_pageset);
	spin_lock_irqsave(&pcp->lock, flags);
	list = &pcp->lists[migratetype];
	list_for_each_entry(page, list, pcp_list) {
		if (!n)
			pfn = page_to_pfn(page);
		n++;
	}
	spin_unlock_irqrestore(&pcp->lock, flags);
	put_cpu_ptr(zone->per_cpu_pageset);
	if (count)
		*count = n;
	return pfn;
}

/*
 * free pages an UNMOVABLE order-0 request can get without the
 * highatomic reserve: the buddy lists __rmqueue() searches and this
 * CPU's UNMOVABLE per-cpu list
 */
static long normal_free(void)
{
	unsigned long flags;
	struct page *page;
	long n = 0, pcp = 0;
	int o, mt;

	spin_lock_irqsave(&zone->lock, flags);
	for (o = 0; o < NR_PAGE_ORDERS; o++)
		for (mt = 0; mt < MIGRATE_TYPES; mt++) {
			if (mt == MIGRATE_HIGHATOMIC)
				continue;
			list_for_each_entry(page, &zone->free_area[o].free_list[mt], buddy_list)
				n += 1L << o;
		}
	spin_unlock_irqrestore(&zone->lock, flags);
	migrate_disable();
	pcp_head(MIGRATE_UNMOVABLE, &pcp);
	migrate_enable();
	return n + pcp;
}

static void set_boost(unsigned long boost)
{
	unsigned long flags;

	spin_lock_irqsave(&zone->lock, flags);
	zone->watermark_boost = boost;
	spin_unlock_irqrestore(&zone->lock, flags);
}

/*
 * kswapd must not run balance_pgdat() while a boost row's boost is set:
 * at its end it takes the boost it found at its start off the zone. A
 * node with kswapd_failures >= MAX_RECLAIM_RETRIES is "hopeless":
 * wakeup_kswapd() and allow_direct_reclaim() leave kswapd asleep and
 * prepare_kswapd_sleep() sends it to sleep. Wait (up to 2 s) until it
 * sleeps on kswapd_wait. Returns the old count, for kswapd_restore().
 */
static int kswapd_quiesce(void)
{
	pg_data_t *pgdat = zone->zone_pgdat;
	int old = READ_ONCE(pgdat->kswapd_failures), i;

	WRITE_ONCE(pgdat->kswapd_failures, KSWAPD_HOPELESS);
	for (i = 0; i < 200 && !waitqueue_active(&pgdat->kswapd_wait); i++)
		msleep(10);
	return old;
}

static void kswapd_restore(int old)
{
	WRITE_ONCE(zone->zone_pgdat->kswapd_failures, old);
}

/* the allocation itself, in the case's context */
static const struct oracle_case *cur_case;
static struct page *cur_page;
static bool cur_done;

static void do_alloc(void)
{
	cur_page = alloc_pages(cur_case->gfp, cur_case->order);
	WRITE_ONCE(cur_done, true);
}

static void softirq_fn(struct tasklet_struct *t)
{
	do_alloc();
}
static DECLARE_TASKLET(oracle_tasklet, softirq_fn);

static struct hrtimer oracle_timer;

static enum hrtimer_restart hardirq_fn(struct hrtimer *t)
{
	do_alloc();
	return HRTIMER_NORESTART;
}

static struct page *alloc_in_ctx(const struct oracle_case *c)
{
	unsigned int flags;
	int i;

	cur_case = c;
	cur_page = NULL;
	WRITE_ONCE(cur_done, false);
	switch (c->ctx) {
	case CTX_TASK:
		do_alloc();
		break;
	case CTX_RT:
		sched_set_fifo(current);
		do_alloc();
		sched_set_normal(current, 0);
		break;
	case CTX_PF_MEMALLOC:
		flags = memalloc_noreclaim_save();
		do_alloc();
		memalloc_noreclaim_restore(flags);
		break;
	case CTX_SOFTIRQ:
		/* runs in local_bh_enable(), i.e. in this task's softirq */
		local_bh_disable();
		tasklet_schedule(&oracle_tasklet);
		local_bh_enable();
		break;
	case CTX_HARDIRQ:
		/*
		 * A hard hrtimer runs in the local APIC timer interrupt
		 * (a vector with irq tracepoints, unlike irq_work's); this
		 * task spins until it has run, so it is the interrupted one.
		 */
		hrtimer_start(&oracle_timer, ns_to_ktime(20 * NSEC_PER_USEC),
			      HRTIMER_MODE_REL_HARD);
		for (i = 0; i < 100000000 && !READ_ONCE(cur_done); i++)
			cpu_relax();
		hrtimer_cancel(&oracle_timer);
		break;
	}
	for (i = 0; i < 1000 && !READ_ONCE(cur_done); i++)
		usleep_range(100, 200);
	return cur_page;
}

static struct rec *new_rec(int ci, int level, int rep)
{
	struct rec *r;

	if (nr_recs >= MAX_RECS)
		return NULL;
	r = &recs[nr_recs++];
	memset(r, 0, sizeof(*r));
	r->c = ci;
	r->level = level;
	r->rep = rep;
	r->pfn = -1;
	r->wmin = wmark(WMARK_MIN);
	r->normal_free = -1;
	return r;
}

/* the state a row needs besides its band, checked right before it runs */
static bool row_ready(const struct rec *r, unsigned int order)
{
	switch (r->level) {
	case L_HA_ONLY:
		return r->free_before > r->lo + 16 && ha_avail(0) && !r->normal_free;
	case L_FRAG:
		/* only a highatomic block can serve this order */
		if (!r->ha_avail || r->normal_avail)
			return false;
		break;
	case L_OVER_HA:
		/* the leak's order-4 block must come off a highatomic list */
		if (r->c == C_LEAK_O4 && (!r->ha_avail || !r->normal_avail))
			return false;
		break;
	case L_BOOST:
		if (zone->watermark_boost)
			return false;
		break;
	}
	return r->free_before > r->lo + 16 && r->free_before <= r->hi - 16;
}

/*
 * A row's record with the zone brought into its band and its state
 * checked (three tries); r->reached says whether it may run. NULL if the
 * records are full.
 */
static struct rec *prepare_row(int ci, int level, int rep)
{
	const struct oracle_case *c = &cases[ci];
	struct rec *r = new_rec(ci, level, rep);
	long lo, hi, margin;
	int try;

	if (!r)
		return NULL;
	for (try = 0; try < 3; try++) {
		band(level, c->order, &lo, &hi);
		r->lo = lo;
		r->hi = hi;
		/* aim at the middle of the band, away from both edges */
		margin = (hi - lo) / 4;
		if (margin < 32)
			return r;
		if (level == L_HA_ONLY)
			hold_drain_all();
		else if (level == L_FRAG ? hold_run(HOLD_FRAG, lo + margin, hi - margin) :
			 hold_to(lo + margin, hi - margin))
			continue;
		if (hold_higher)
			hold_run(HOLD_HIGHER, 0, 0);
		r->reserved_ha = zone->nr_reserved_highatomic;
		r->ha_avail = ha_avail(c->order);
		r->normal_avail = normal_avail(c->order);
		r->free_before = zone_free();
		r->normal_free = level == L_HA_ONLY ? normal_free() : -1;
		if (row_ready(r, c->order)) {
			r->reached = 1;
			return r;
		}
	}
	return r;
}

/* the cases that hold ALLOC_NO_WATERMARKS */
static bool no_watermarks(const struct oracle_case *c)
{
	return (c->gfp & __GFP_MEMALLOC) || c->ctx == CTX_PF_MEMALLOC;
}

static void run_row(int ci, int level, int rep)
{
	const struct oracle_case *c = &cases[ci];
	struct rec *r;
	struct page *page;
	int kswapd = 0;

	if (level == L_BOOST)
		kswapd = kswapd_quiesce();
	r = prepare_row(ci, level, rep);
	if (r && r->reached) {
		if (level == L_BOOST) {
			/* nothing runs between this and the allocation's
			 * watermark checks: no preemption in this kernel, and
			 * kswapd sleeps */
			r->boost = boost_pages();
			set_boost(r->boost);
		}
		page = alloc_in_ctx(c);
		if (level == L_BOOST) {
			r->boost_after = READ_ONCE(zone->watermark_boost);
			set_boost(0);
		}
		r->free_after = zone_free();
		if (page) {
			r->pfn = page_to_pfn(page);
			/*
			 * a held zone's page (kswapd freed some since the
			 * rehold, or its per-cpu lists): not decided in the
			 * target, unless the request ignores watermarks (its
			 * tier is no_watermarks in whichever zone first has
			 * a page: with hold_higher, Normal's pages that others
			 * free)
			 */
			if (page_zone(page) != zone && !no_watermarks(c))
				r->reached = 0;
			__free_pages(page, c->order);
		}
	}
	if (level == L_BOOST)
		kswapd_restore(kswapd);
}

/*
 * The pcp leak. An order-4 GFP_ATOMIC takes a block off a
 * MIGRATE_HIGHATOMIC free list (leak_o4); split into order-0 pages and
 * freed, they go onto this CPU's MOVABLE per-cpu list (free_unref_page()
 * files highatomic pages as MOVABLE). An order-0 GFP_KERNEL|__GFP_MOVABLE
 * (kernel_movable) then gets the page at the list's head: a page of a
 * highatomic pageblock, handed out without any reserve right. Migration
 * is disabled from the frees to that allocation, so it is the same CPU.
 */
static void run_leak(int rep)
{
	struct rec *r = prepare_row(C_LEAK_O4, L_OVER_HA, rep), *m;
	long want, head;
	struct page *page, *p2;
	int i;

	if (!r)
		return;
	m = new_rec(C_KERNEL_MOVABLE, L_OVER_HA, rep);
	if (!m)
		return;
	m->lo = r->lo;
	m->hi = r->hi;
	if (!r->reached)
		return;
	want = ha_first_pfn(4);
	page = alloc_in_ctx(&cases[C_LEAK_O4]);
	r->free_after = zone_free();
	if (!page)
		return;
	r->pfn = page_to_pfn(page);
	if (r->pfn != want) {
		/* not the highatomic block: no leak to test */
		__free_pages(page, 4);
		return;
	}
	migrate_disable();
	split_page(page, 4);
	for (i = 0; i < 16; i++)
		__free_pages(page + i, 0);
	m->reserved_ha = zone->nr_reserved_highatomic;
	m->ha_avail = ha_avail(0);
	m->normal_avail = normal_avail(0);
	m->free_before = zone_free();
	head = pcp_head(MIGRATE_MOVABLE, NULL);
	/* the head of the MOVABLE list is one of the pages just freed */
	m->reached = head >= r->pfn && head < r->pfn + 16 &&
		     m->free_before > m->lo + 16 && m->free_before <= m->hi - 16;
	if (m->reached) {
		p2 = alloc_in_ctx(&cases[C_KERNEL_MOVABLE]);
		m->free_after = zone_free();
		if (p2) {
			m->pfn = page_to_pfn(p2);
			__free_pages(p2, 0);
		}
	}
	migrate_enable();
}

/*
 * phase 3 (min_free_kbytes lowered by the caller so that the reserve
 * alone is above min): order-0 requests when nothing but the highatomic
 * reserve is free, i.e. the rmqueue_buddy() fallback of 281dd25c1a01.
 */
static void campaign_fallback(void)
{
	static const int fb_cases[] = { C_ATOMIC, C_NOWAIT, C_SOFTIRQ };
	int rep, i;

	for (rep = 0; rep < REPS; rep++)
		for (i = 0; i < ARRAY_SIZE(fb_cases); i++)
			run_row(fb_cases[i], L_HA_ONLY, rep);
	hold_release_all();
}

/*
 * phase 4: NR_RFAIL GFP_ATOMIC below every level GFP_ATOMIC has (31%
 * of min): each fails once, holding ALLOC_HARDER|ALLOC_HIGH (before) or
 * ALLOC_NON_BLOCK|ALLOC_MIN_RESERVE (after). The caller traces this
 * phase on its own.
 */
static void campaign_rfail(void)
{
	int i;

	for (i = 0; i < NR_RFAIL; i++)
		run_row(C_RFAIL, L_31, i);
	hold_release_all();
}

/*
 * phase 1 alone ("run1"): the order-0 rows and the boost rows, which
 * need no highatomic reserve; what a campaign in another zone
 * (target=normal, hold_higher) runs
 */
static void campaign_phase1(void)
{
	static const int boost_cases[] = { C_ATOMIC, C_RT_KERNEL, C_HIGH };
	int level, ci, rep, i;
	long lo, hi;

	/* phase 1: every order-0 case at every level, shallow to deep */
	for (level = L_ABOVE_LOW; level <= L_31; level++) {
		for (ci = 0; ci < C_PHASE1; ci++) {
			for (rep = 0; rep < REPS; rep++) {
				run_row(ci, level, rep);
				/* do not leave user space below min between rows */
				if (level > L_MIN_LOW) {
					band(L_MIN_LOW, 0, &lo, &hi);
					hold_to(lo + (hi - lo) / 4, hi - (hi - lo) / 4);
				}
			}
		}
	}
	/*
	 * the boosted zone: free between the unboosted min and the boosted
	 * marks, before any highatomic reserve exists
	 */
	for (rep = 0; rep < REPS; rep++)
		for (i = 0; i < ARRAY_SIZE(boost_cases); i++)
			run_row(boost_cases[i], L_BOOST, rep);
}

static void campaign(void)
{
	int rep, i;

	campaign_phase1();
	/*
	 * phase 2: high-order GFP_ATOMIC where the fast path fails (free
	 * at most low once the reserve is subtracted) and the none level
	 * passes: the first reserves a highatomic pageblock, the following
	 * take from it.
	 */
	for (i = 0; i < 4; i++)
		run_row(C_ATOMIC_O4, L_OVER_HA, i);
	/* order-0 requests while the reserve hides their free pages */
#ifdef ORACLE_NR_FREE_HIGHATOMIC
	/*
	 * 6.12 hides only the reserve's free pages, and a pageblock moved
	 * into it took only the pages free at the time (58 in one run:
	 * too few for a band). The holder gives back what it holds, so
	 * its pages of the reserved block return to the highatomic free
	 * list, before the rows bring the zone into the band again.
	 */
	hold_release_all();
#endif
	for (rep = 0; rep < REPS; rep++) {
		static const int ha_cases[] = {
			C_NOWAIT, C_ATOMIC, C_HIGH, C_RT_KERNEL, C_RT_NOWAIT
		};

		for (i = 0; i < ARRAY_SIZE(ha_cases); i++)
			run_row(ha_cases[i], L_MIN_LOW_HA, rep);
	}
	/* highatomic pages on the per-cpu lists */
	for (rep = 0; rep < REPS; rep++)
		run_leak(rep);
	/* the normal lists without a block of order 5, a highatomic one */
	for (rep = 0; rep < REPS; rep++)
		run_row(C_ATOMIC_O5, L_FRAG, rep);
	hold_release_all();
}

static void format_records(void)
{
	size_t n = 0;
	int i;

	n += scnprintf(out_buf + n, OUT_SIZE - n,
		       "# zone=%s min=%ld low=%ld high=%ld boost=%lu managed=%lu lowmem_reserve=%ld pageblock_order=%u camp_pid=%d lower_zones_held=%ld higher_zones_held=%ld\n",
		       zone->name, wmark(WMARK_MIN), wmark(WMARK_LOW),
		       wmark(WMARK_HIGH), zone->watermark_boost,
		       zone_managed_pages(zone), lowmem(),
		       pageblock_order, camp_task->pid, nr_lower_held,
		       nr_higher_held);
	n += scnprintf(out_buf + n, OUT_SIZE - n,
		       "# seq case level rep ctx order gfp reached lo hi free_before free_after reserved_ha ha_avail pfn wmin normal_free boost boost_after normal_avail\n");
	for (i = 0; i < nr_recs; i++) {
		const struct rec *r = &recs[i];
		const struct oracle_case *c = &cases[r->c];

		n += scnprintf(out_buf + n, OUT_SIZE - n,
			       "%d %s %s %d %s %u %#x %d %ld %ld %ld %ld %ld %d %ld %ld %ld %ld %ld %d\n",
			       i, c->name, level_names[r->level], r->rep,
			       ctx_names[c->ctx], c->order, (__force unsigned int)c->gfp,
			       r->reached, r->lo, r->hi, r->free_before,
			       r->free_after, r->reserved_ha, r->ha_avail, r->pfn,
			       r->wmin, r->normal_free, r->boost, r->boost_after,
			       r->normal_avail);
	}
	out_len = n;
}

static int camp_fn(void *unused)
{
	while (!kthread_should_stop()) {
		if (wait_for_completion_interruptible(&camp_req))
			continue;
		if (kthread_should_stop() || READ_ONCE(stopping))
			break;
		switch (camp_cmd) {
		case 1:
			campaign();
			break;
		case 2:
			campaign_fallback();
			break;
		case 3:
			campaign_rfail();
			break;
		case 4:
			campaign_phase1();
			hold_release_all();
			break;
		}
		format_records();
		complete(&camp_done);
	}
	return 0;
}

static ssize_t control_write(struct file *f, const char __user *ubuf,
			     size_t len, loff_t *ppos)
{
	char cmd[16] = "";
	int ret;

	if (copy_from_user(cmd, ubuf, min(len, sizeof(cmd) - 1)))
		return -EFAULT;
	if (!mutex_trylock(&run_lock))
		return -EBUSY;
	if (!strncmp(cmd, "run1", 4)) {
		camp_cmd = 4;
	} else if (!strncmp(cmd, "run", 3)) {
		camp_cmd = 1;
	} else if (!strncmp(cmd, "fallback", 8)) {
		camp_cmd = 2;
	} else if (!strncmp(cmd, "rfail", 5)) {
		camp_cmd = 3;
	} else {
		mutex_unlock(&run_lock);
		return -EINVAL;
	}
	reinit_completion(&camp_done);
	complete(&camp_req);
	ret = wait_for_completion_killable(&camp_done);
	mutex_unlock(&run_lock);
	return ret ? ret : len;
}

static const struct file_operations control_fops = {
	.owner = THIS_MODULE,
	.write = control_write,
};

static ssize_t records_read(struct file *f, char __user *ubuf, size_t len,
			    loff_t *ppos)
{
	return simple_read_from_buffer(ubuf, len, ppos, out_buf, out_len);
}

static const struct file_operations records_fops = {
	.owner = THIS_MODULE,
	.read = records_read,
};

static int pid_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%d %d\n", camp_task->pid, hold_task->pid);
	return 0;
}

/* pages the holder still holds: 0 after every campaign */
static int held_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%ld\n", READ_ONCE(nr_held_pages));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(held);
DEFINE_SHOW_ATTRIBUTE(pid);

static int __init oracle_init(void)
{
	int i;

	hrtimer_init(&oracle_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	oracle_timer.function = hardirq_fn;
	if (!strcmp(target, "normal"))
		target_idx = ZONE_NORMAL;
	else if (strcmp(target, "dma32"))
		return -EINVAL;
	/* the zones above DMA32 are held with DMA32's help only */
	if (hold_higher && target_idx != ZONE_DMA32)
		return -EINVAL;
	zone = &NODE_DATA(0)->node_zones[target_idx];
	if (!populated_zone(zone))
		return -ENODEV;
	for (i = 0; i < ARRAY_SIZE(hold_orders); i++)
		INIT_LIST_HEAD(&held[i]);
	recs = kcalloc(MAX_RECS, sizeof(*recs), GFP_KERNEL);
	out_buf = vzalloc(OUT_SIZE);
	held_o4_bits = (zone->spanned_pages >> 4) + 1;
	held_o4 = bitmap_zalloc(held_o4_bits, GFP_KERNEL);
	if (!recs || !out_buf || !held_o4)
		goto nomem;
	hold_task = kthread_run(hold_fn, NULL, "oracle-hold");
	if (IS_ERR(hold_task))
		goto nomem;
	/*
	 * insmod returns once the other zones are held: a process started
	 * after it (gfptop) allocates from the zones as the rows find them,
	 * never in the moment with both DMA32 and Normal held (hold_higher),
	 * when the OOM killer would choose it
	 */
	wait_for_completion(&zones_held);
	camp_task = kthread_run(camp_fn, NULL, "oracle-camp");
	if (IS_ERR(camp_task)) {
		kthread_stop(hold_task);
		goto nomem;
	}
	dir = debugfs_create_dir("gfptop_oracle", NULL);
	debugfs_create_file("control", 0200, dir, NULL, &control_fops);
	debugfs_create_file("records", 0400, dir, NULL, &records_fops);
	debugfs_create_file("pid", 0400, dir, NULL, &pid_fops);
	debugfs_create_file("held", 0400, dir, NULL, &held_fops);
	return 0;
nomem:
	kfree(recs);
	vfree(out_buf);
	bitmap_free(held_o4);
	return -ENOMEM;
}

static void __exit oracle_exit(void)
{
	debugfs_remove_recursive(dir);
	/* no campaign runs: control_write() holds a module reference */
	WRITE_ONCE(stopping, true);
	complete(&camp_req);
	kthread_stop(camp_task);
	complete(&hold_req);
	kthread_stop(hold_task);	/* frees everything still held */
	tasklet_kill(&oracle_tasklet);
	hrtimer_cancel(&oracle_timer);
	kfree(recs);
	vfree(out_buf);
	bitmap_free(held_o4);
}

module_init(oracle_init);
module_exit(oracle_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("gfptop test oracle: forces page allocator reserve tiers");
