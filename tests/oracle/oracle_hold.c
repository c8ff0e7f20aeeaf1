// SPDX-License-Identifier: GPL-2.0
/*
 * gfptop_oracle's holder thread (PF_MEMALLOC): it holds pages to bring
 * the target zone into a row's band, holds the other zones, and gives
 * everything back.
 */
#include <linux/bitmap.h>
#include <linux/gfp.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/sched/mm.h>

#include "oracle.h"

/* holder: a list per order of held blocks, linked through page->lru */
const unsigned int oracle_hold_orders[] = { 8, 4, 0 };
struct list_head oracle_held[ARRAY_SIZE(oracle_hold_orders)];
#define HOLD_O4		1	/* oracle_held[HOLD_O4] are order-4 blocks */
long oracle_nr_held_pages;
static long hold_lo, hold_hi;
static int hold_rc;
static enum hold_cmd hold_cmd;
/* order-4 blocks held, one bit per 16 pfns of the zone */
unsigned long *oracle_held_o4;
unsigned long oracle_held_o4_bits;
static bool fragmented;	/* HOLD_FRAG drained the zone and stays so */
DECLARE_COMPLETION(oracle_hold_req);
static DECLARE_COMPLETION(hold_done);
/* the holder's first hold (the zones other than the target) is in place */
DECLARE_COMPLETION(oracle_zones_held);

static long held_o4_bit(struct page *page)
{
	unsigned long pfn = page_to_pfn(page);

	if (page_zone(page) != oracle_zone)
		return -1;
	return (pfn - oracle_zone->zone_start_pfn) >> 4;
}

static void held_o4_mark(struct page *page, bool held)
{
	long bit = held_o4_bit(page);

	if (bit < 0 || bit >= oracle_held_o4_bits)
		return;
	if (held)
		__set_bit(bit, oracle_held_o4);
	else
		__clear_bit(bit, oracle_held_o4);
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
		    __GFP_NORETRY | (oracle_target_idx == ZONE_DMA32 ? __GFP_DMA32 : 0);
	struct page *page = alloc_pages(gfp, oracle_hold_orders[i]);

	if (!page)
		return false;
	/* the target is empty of this order: the zonelist went on */
	if (page_zone(page) != oracle_zone) {
		__free_pages(page, oracle_hold_orders[i]);
		return false;
	}
	list_add(&page->lru, &oracle_held[i]);
	oracle_nr_held_pages += 1L << oracle_hold_orders[i];
	if (i == HOLD_O4)
		held_o4_mark(page, true);
	return true;
}

static void release_page(int i, struct page *page)
{
	list_del(&page->lru);
	if (i == HOLD_O4)
		held_o4_mark(page, false);
	__free_pages(page, oracle_hold_orders[i]);
	oracle_nr_held_pages -= 1L << oracle_hold_orders[i];
}

/* free one held block of order >= 4: those go straight to the buddy lists */
static bool release_one(long want)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(oracle_hold_orders); i++) {
		struct page *page;

		if (!oracle_hold_orders[i] || list_empty(&oracle_held[i]))
			continue;
		if ((1L << oracle_hold_orders[i]) > want &&
		    i + 1 < ARRAY_SIZE(oracle_hold_orders) &&
		    oracle_hold_orders[i + 1] && !list_empty(&oracle_held[i + 1]))
			continue;
		page = list_first_entry(&oracle_held[i], struct page, lru);
		release_page(i, page);
		return true;
	}
	return false;
}

static void release_all(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(oracle_hold_orders); i++) {
		while (!list_empty(&oracle_held[i])) {
			struct page *page = list_first_entry(&oracle_held[i], struct page, lru);

			list_del(&page->lru);
			__free_pages(page, oracle_hold_orders[i]);
		}
	}
	oracle_nr_held_pages = 0;
	bitmap_zero(oracle_held_o4, oracle_held_o4_bits);
	fragmented = false;
}

/* bring oracle_zone_free() into [hold_lo, hold_hi]; 0 or -EAGAIN */
static int keep_level(void)
{
	int iter;

	for (iter = 0; iter < 200000; iter++) {
		long f = oracle_zone_free();
		long mid = (hold_lo + hold_hi) / 2;
		bool ok = false;
		int i;

		if (f >= hold_lo && f <= hold_hi)
			return 0;
		if (f > hold_hi) {
			for (i = 0; i < ARRAY_SIZE(oracle_hold_orders) && !ok; i++)
				if ((1L << oracle_hold_orders[i]) <= f - mid ||
				    !oracle_hold_orders[i])
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

	for (i = 0; i < ARRAY_SIZE(oracle_hold_orders); i++)
		drain_order(i);
	return 0;
}

/*
 * Bring oracle_zone_free() into [hold_lo, hold_hi] with no free block of order
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
		long f = oracle_zone_free();

		if (f >= hold_lo && f <= hold_hi)
			return 0;
		if (f > hold_hi) {
			while (oracle_zone_free() > (hold_lo + hold_hi) / 2 && hold_one(HOLD_O4))
				;
			continue;
		}
		list_for_each_entry_safe(page, next, &oracle_held[HOLD_O4], lru) {
			unsigned long pfn = page_to_pfn(page);
			unsigned long buddy = (pfn ^ 16) - oracle_zone->zone_start_pfn;

			if (oracle_zone_free() >= (hold_lo + hold_hi) / 2)
				break;
			/* a block at an even 16-pfn boundary whose buddy
			 * block we hold (and never release here) */
			if (page_zone(page) != oracle_zone || (pfn & 16) ||
			    (buddy >> 4) >= oracle_held_o4_bits ||
			    !test_bit(buddy >> 4, oracle_held_o4))
				continue;
			release_page(HOLD_O4, page);
		}
	}
	return -EAGAIN;
}

/*
 * Bring the zone into [hold_lo, hold_hi] as keep_fragmented() does, then
 * give back one pair of held buddy order-4 blocks: they merge into the
 * one free block of order >= 5 on a list __rmqueue() searches (the
 * pair's own buddy is not free as a whole: no such block was), the
 * block a row's order-5 request must take. The campaign counts the
 * blocks before it allocates.
 */
static int keep_last(void)
{
	struct page *page, *next;
	int rc = keep_fragmented();

	if (rc)
		return rc;
	list_for_each_entry_safe(page, next, &oracle_held[HOLD_O4], lru) {
		unsigned long pfn = page_to_pfn(page);
		unsigned long buddy = (pfn ^ 16) - oracle_zone->zone_start_pfn;

		if (page_zone(page) != oracle_zone || (pfn & 16) ||
		    (buddy >> 4) >= oracle_held_o4_bits ||
		    !test_bit(buddy >> 4, oracle_held_o4))
			continue;
		release_page(HOLD_O4, page);
		release_page(HOLD_O4, pfn_to_page(pfn ^ 16));
		return 0;
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
long oracle_nr_lower_held, oracle_nr_higher_held;

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

	if (oracle_target_idx == ZONE_NORMAL)
		hold_zones(__GFP_DMA32, 0, ZONE_DMA32, &lower_held,
			   &oracle_nr_lower_held);
#ifdef CONFIG_ZONE_DMA
	else if (populated_zone(&NODE_DATA(0)->node_zones[ZONE_DMA]))
		hold_zones(__GFP_DMA, ZONE_DMA, ZONE_DMA, &lower_held,
			   &oracle_nr_lower_held);
#endif
	if (!oracle_hold_higher)
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
		   &oracle_nr_higher_held);
	free_listed(&target_held);
}

static void release_lower_zones(void)
{
	free_listed(&lower_held);
	oracle_nr_lower_held = 0;
	oracle_nr_higher_held = 0;
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
				oracle_nr_higher_held += 1L << order;
			}
		}
	}
}

int oracle_hold_fn(void *unused)
{
	unsigned int noreclaim = memalloc_noreclaim_save();

	hold_lower_zones();
	complete(&oracle_zones_held);
	while (!kthread_should_stop()) {
		if (wait_for_completion_interruptible(&oracle_hold_req))
			continue;
		if (kthread_should_stop() || READ_ONCE(oracle_stopping))
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
		case HOLD_LAST:
			hold_rc = keep_last();
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

int oracle_hold_run(enum hold_cmd cmd, long lo, long hi)
{
	hold_lo = lo;
	hold_hi = hi;
	hold_cmd = cmd;
	complete(&oracle_hold_req);
	wait_for_completion(&hold_done);
	return hold_rc;
}

int oracle_hold_to(long lo, long hi)
{
	return oracle_hold_run(HOLD_LEVEL, lo, hi);
}

void oracle_hold_drain_all(void)
{
	oracle_hold_run(HOLD_DRAIN, 0, 0);
}

void oracle_hold_release_all(void)
{
	oracle_hold_run(HOLD_RELEASE, 0, 0);
}
