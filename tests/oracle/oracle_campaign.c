// SPDX-License-Identifier: GPL-2.0
/*
 * gfptop_oracle's campaign thread: each row's allocation in its case's
 * context, brought to its level and recorded, and the campaign's phases.
 */
#include <linux/delay.h>
#include <linux/gfp.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>

#include "oracle.h"

#define REPS		2
#define NR_RFAIL	32	/* allocations of the reserve-failure series */

struct rec *oracle_recs;
int oracle_nr_recs;
DECLARE_COMPLETION(oracle_camp_req);
DECLARE_COMPLETION(oracle_camp_done);
/* 1: run (phases 1, 2), 2: fallback (3), 3: rfail (4), 4: run1 (1),
 * 5: runwalk
 */
int oracle_camp_cmd;

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
DECLARE_TASKLET(oracle_tasklet, softirq_fn);

struct hrtimer oracle_timer;

enum hrtimer_restart oracle_hardirq_fn(struct hrtimer *t)
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

	if (oracle_nr_recs >= MAX_RECS)
		return NULL;
	r = &oracle_recs[oracle_nr_recs++];
	memset(r, 0, sizeof(*r));
	r->c = ci;
	r->level = level;
	r->rep = rep;
	r->pfn = -1;
	r->wmin = oracle_wmark(WMARK_MIN);
	r->normal_free = -1;
	return r;
}

/* the state a row needs besides its band, checked right before it runs */
static bool row_ready(const struct rec *r, unsigned int order)
{
	switch (r->level) {
	case L_HA_ONLY:
		return r->free_before > r->lo + 16 && oracle_ha_avail(0) && !r->normal_free;
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
		if (oracle_zone->watermark_boost)
			return false;
		break;
	case L_LAST:
		/* the request takes the zone's only block of its order */
		if (r->normal_avail != 1)
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
	const struct oracle_case *c = &oracle_cases[ci];
	struct rec *r = new_rec(ci, level, rep);
	long lo, hi, margin;
	int try;

	if (!r)
		return NULL;
	for (try = 0; try < 3; try++) {
		oracle_band(level, c->order, &lo, &hi);
		r->lo = lo;
		r->hi = hi;
		/* aim at the middle of the band, away from both edges */
		margin = (hi - lo) / 4;
		if (margin < 32)
			return r;
		if (level == L_HA_ONLY)
			oracle_hold_drain_all();
		else if (level == L_FRAG || level == L_LAST ?
			 oracle_hold_run(level == L_FRAG ? HOLD_FRAG : HOLD_LAST,
					 lo + margin, hi - margin) :
			 oracle_hold_to(lo + margin, hi - margin))
			continue;
		if (oracle_hold_higher)
			oracle_hold_run(HOLD_HIGHER, 0, 0);
		r->reserved_ha = oracle_zone->nr_reserved_highatomic;
		r->ha_avail = oracle_ha_avail(c->order);
		r->normal_avail = level == L_LAST ? oracle_normal_blocks(c->order) :
						    oracle_normal_avail(c->order);
		r->free_before = oracle_zone_free();
		r->normal_free = level == L_HA_ONLY ? oracle_normal_free() : -1;
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

/* one try of a row; true if its page came from a zone it was not to */
static bool try_row(int ci, int level, int rep)
{
	const struct oracle_case *c = &oracle_cases[ci];
	struct rec *r;
	struct page *page;
	bool elsewhere = false;
	int kswapd = 0;

	if (level == L_BOOST)
		kswapd = oracle_kswapd_quiesce();
	r = prepare_row(ci, level, rep);
	if (r && r->reached) {
		if (level == L_BOOST) {
			/* nothing runs between this and the allocation's
			 * watermark checks: no preemption in this kernel, and
			 * kswapd sleeps */
			r->boost = oracle_boost_pages();
			oracle_set_boost(r->boost);
		}
		page = alloc_in_ctx(c);
		if (level == L_BOOST) {
			r->boost_after = READ_ONCE(oracle_zone->watermark_boost);
			oracle_set_boost(0);
		}
		r->free_after = oracle_zone_free();
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
			if (page_zone(page) != oracle_zone && !no_watermarks(c)) {
				r->reached = 0;
				elsewhere = true;
			}
			__free_pages(page, c->order);
		}
	}
	if (level == L_BOOST)
		oracle_kswapd_restore(kswapd);
	return elsewhere;
}

/*
 * A row, tried again (a new record, up to three) while its page comes
 * from another zone: with hold_higher, kswapd woken by a slow-path
 * request can free pages in Normal between the rehold and that
 * request's retry, which then takes one there. The record of such a try
 * stays, unreached: the checker counts its allocation as one of unknown
 * tier.
 */
static void run_row(int ci, int level, int rep)
{
	int try;

	for (try = 0; try < 3; try++)
		if (!try_row(ci, level, rep))
			break;
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
	want = oracle_ha_first_pfn(4);
	page = alloc_in_ctx(&oracle_cases[C_LEAK_O4]);
	r->free_after = oracle_zone_free();
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
	m->reserved_ha = oracle_zone->nr_reserved_highatomic;
	m->ha_avail = oracle_ha_avail(0);
	m->normal_avail = oracle_normal_avail(0);
	m->free_before = oracle_zone_free();
	head = oracle_pcp_head(MIGRATE_MOVABLE, NULL);
	/* the head of the MOVABLE list is one of the pages just freed */
	m->reached = head >= r->pfn && head < r->pfn + 16 &&
		     m->free_before > m->lo + 16 && m->free_before <= m->hi - 16;
	if (m->reached) {
		p2 = alloc_in_ctx(&oracle_cases[C_KERNEL_MOVABLE]);
		m->free_after = oracle_zone_free();
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
	oracle_hold_release_all();
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
	oracle_hold_release_all();
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
					oracle_band(L_MIN_LOW, 0, &lo, &hi);
					oracle_hold_to(lo + (hi - lo) / 4, hi - (hi - lo) / 4);
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
	oracle_hold_release_all();
#endif
	for (rep = 0; rep < REPS; rep++) {
		static const int ha_cases[] = {
			C_NOWAIT, C_ATOMIC, C_HIGH, C_RT_KERNEL, C_RT_NOWAIT
		};

		for (i = 0; i < ARRAY_SIZE(ha_cases); i++)
			run_row(ha_cases[i], L_MIN_LOW_HA, rep);
	}
	/*
	 * the normal lists without a block of order 5, a highatomic one;
	 * before the leak rows, which keep order-4 blocks of the reserved
	 * pageblock (on a per-cpu list): where the pageblock was mostly in
	 * use when it was reserved, those were its last order-5 block
	 */
	for (rep = 0; rep < REPS; rep++)
		run_row(C_ATOMIC_O5, L_FRAG, rep);
	/* highatomic pages on the per-cpu lists */
	for (rep = 0; rep < REPS; rep++)
		run_leak(rep);
	oracle_hold_release_all();
}

/*
 * "runwalk" (zones-guest.sh's walk set-up, Normal held, so every row's
 * zonelist starts in an empty Normal): phase 1, then rows where what
 * decides the tier is in the second zone of the zonelist, DMA32: the
 * order-4 GFP_ATOMIC rows of phase 2 (after the first, their pages come
 * off DMA32's highatomic lists), and an order-5 GFP_KERNEL that takes
 * DMA32's last free block of that order (none; after the allocation
 * the zone has no block of the order left). A derivation that looks for
 * highatomic pages only in the preferred zone, or reads a later zone's
 * free lists after the allocation, gets these rows wrong.
 */
static void campaign_walk(void)
{
	int i, rep;

	campaign_phase1();
	for (i = 0; i < 4; i++)
		run_row(C_ATOMIC_O4, L_OVER_HA, i);
	for (rep = 0; rep < REPS; rep++) {
		run_row(C_KERNEL_O5, L_LAST, rep);
		/* the next row's block anew: the page freed is a second */
		oracle_hold_release_all();
	}
}

int oracle_camp_fn(void *unused)
{
	while (!kthread_should_stop()) {
		if (wait_for_completion_interruptible(&oracle_camp_req))
			continue;
		if (kthread_should_stop() || READ_ONCE(oracle_stopping))
			break;
		switch (oracle_camp_cmd) {
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
			oracle_hold_release_all();
			break;
		case 5:
			campaign_walk();
			break;
		}
		oracle_format_records();
		complete(&oracle_camp_done);
	}
	return 0;
}
