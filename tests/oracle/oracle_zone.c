// SPDX-License-Identifier: GPL-2.0
/*
 * gfptop_oracle's view of the target zone: its free pages and marks,
 * what its free lists and this CPU's per-cpu list hold, the boost, and
 * kswapd kept asleep for the boost rows.
 */
#include <linux/delay.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/sched.h>
#include <linux/vmstat.h>
#include <linux/wait.h>

#include "oracle.h"

#define KSWAPD_HOPELESS	16	/* mm/internal.h's MAX_RECLAIM_RETRIES */

/*
 * pgdat->kswapd_failures is an atomic_t in 7.2 (an int in 6.1 and
 * 6.12): Kbuild defines ORACLE_KSWAPD_FAILURES_ATOMIC when the tree's
 * mmzone.h says so
 */
#ifdef ORACLE_KSWAPD_FAILURES_ATOMIC
#define kswapd_failures_get(pgdat)	atomic_read(&(pgdat)->kswapd_failures)
#define kswapd_failures_set(pgdat, n)	atomic_set(&(pgdat)->kswapd_failures, n)
#else
#define kswapd_failures_get(pgdat)	READ_ONCE((pgdat)->kswapd_failures)
#define kswapd_failures_set(pgdat, n)	WRITE_ONCE((pgdat)->kswapd_failures, n)
#endif

static struct page *oracle_area_first(struct free_area *area, int migratetype)
{
	return list_first_entry_or_null(&area->free_list[migratetype],
					struct page, buddy_list);
}

long oracle_zone_free(void)
{
	return zone_page_state(oracle_zone, NR_FREE_PAGES);
}

/* the zone's marks without the boost (min_wmark_pages() adds it) */
long oracle_wmark(enum zone_watermarks w)
{
	return oracle_zone->_watermark[w];
}

/*
 * The free blocks of >= order on the free lists [mt_lo, mt_hi], counted
 * up to cap (1: is there one)
 */
static int blocks(unsigned int order, int mt_lo, int mt_hi, int cap)
{
	struct list_head *pos;
	unsigned long flags;
	int o, mt, n = 0;

	spin_lock_irqsave(&oracle_zone->lock, flags);
	for (o = order; o < NR_PAGE_ORDERS && n < cap; o++)
		for (mt = mt_lo; mt <= mt_hi && n < cap; mt++)
			list_for_each(pos, &oracle_zone->free_area[o].free_list[mt])
				if (++n >= cap)
					break;
	spin_unlock_irqrestore(&oracle_zone->lock, flags);
	return n;
}

static int block_avail(unsigned int order, int mt_lo, int mt_hi)
{
	return blocks(order, mt_lo, mt_hi, 1);
}

/* ... on a MIGRATE_HIGHATOMIC list */
int oracle_ha_avail(unsigned int order)
{
	return block_avail(order, MIGRATE_HIGHATOMIC, MIGRATE_HIGHATOMIC);
}

/* ... on a list __rmqueue() searches */
int oracle_normal_avail(unsigned int order)
{
	return block_avail(order, 0, MIGRATE_PCPTYPES - 1);
}

/* ... how many: 0, 1, or 2 for two or more */
int oracle_normal_blocks(unsigned int order)
{
	return blocks(order, 0, MIGRATE_PCPTYPES - 1, 2);
}

/*
 * The pfn __rmqueue_smallest(zone, order, MIGRATE_HIGHATOMIC) would take:
 * the first block of the first non-empty highatomic list of >= order
 * (expand() gives back the block's start), -1 if none.
 */
long oracle_ha_first_pfn(unsigned int order)
{
	unsigned long flags;
	long pfn = -1;
	int o;

	spin_lock_irqsave(&oracle_zone->lock, flags);
	for (o = order; o < NR_PAGE_ORDERS && pfn < 0; o++) {
		struct page *page = oracle_area_first(&oracle_zone->free_area[o],
						      MIGRATE_HIGHATOMIC);

		if (page)
			pfn = page_to_pfn(page);
	}
	spin_unlock_irqrestore(&oracle_zone->lock, flags);
	return pfn;
}

/*
 * This CPU's per-cpu list of order-0 pages of one migratetype (its
 * index is the migratetype for order 0): the pfn at its head and the
 * number of pages on it. Call with migration disabled.
 */
long oracle_pcp_head(int migratetype, long *count)
{
	struct per_cpu_pages *pcp;
	struct list_head *list;
	unsigned long flags;
	long pfn = -1, n = 0;
	struct page *page;

	pcp = get_cpu_ptr(oracle_zone->per_cpu_pageset);
	spin_lock_irqsave(&pcp->lock, flags);
	list = &pcp->lists[migratetype];
	list_for_each_entry(page, list, pcp_list) {
		if (!n)
			pfn = page_to_pfn(page);
		n++;
	}
	spin_unlock_irqrestore(&pcp->lock, flags);
	put_cpu_ptr(oracle_zone->per_cpu_pageset);
	if (count)
		*count = n;
	return pfn;
}

/*
 * free pages an UNMOVABLE order-0 request can get without the
 * highatomic reserve: the buddy lists __rmqueue() searches and this
 * CPU's UNMOVABLE per-cpu list
 */
long oracle_normal_free(void)
{
	unsigned long flags;
	struct page *page;
	long n = 0, pcp = 0;
	int o, mt;

	spin_lock_irqsave(&oracle_zone->lock, flags);
	for (o = 0; o < NR_PAGE_ORDERS; o++)
		for (mt = 0; mt < MIGRATE_TYPES; mt++) {
			if (mt == MIGRATE_HIGHATOMIC)
				continue;
			list_for_each_entry(page, &oracle_zone->free_area[o].free_list[mt],
					    buddy_list)
				n += 1L << o;
		}
	spin_unlock_irqrestore(&oracle_zone->lock, flags);
	migrate_disable();
	oracle_pcp_head(MIGRATE_UNMOVABLE, &pcp);
	migrate_enable();
	return n + pcp;
}

void oracle_set_boost(unsigned long boost)
{
	unsigned long flags;

	spin_lock_irqsave(&oracle_zone->lock, flags);
	oracle_zone->watermark_boost = boost;
	spin_unlock_irqrestore(&oracle_zone->lock, flags);
}

/*
 * kswapd must not run balance_pgdat() while a boost row's boost is set:
 * at its end it takes the boost it found at its start off the zone. A
 * node with kswapd_failures >= MAX_RECLAIM_RETRIES is "hopeless":
 * wakeup_kswapd() and allow_direct_reclaim() leave kswapd asleep and
 * prepare_kswapd_sleep() sends it to sleep. Wait (up to 2 s) until it
 * sleeps on kswapd_wait. Returns the old count, for oracle_kswapd_restore().
 */
int oracle_kswapd_quiesce(void)
{
	pg_data_t *pgdat = oracle_zone->zone_pgdat;
	int old = kswapd_failures_get(pgdat), i;

	kswapd_failures_set(pgdat, KSWAPD_HOPELESS);
	for (i = 0; i < 200 && !waitqueue_active(&pgdat->kswapd_wait); i++)
		msleep(10);
	return old;
}

void oracle_kswapd_restore(int old)
{
	kswapd_failures_set(oracle_zone->zone_pgdat, old);
}
