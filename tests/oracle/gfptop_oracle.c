// SPDX-License-Identifier: GPL-2.0
/*
 * gfptop_oracle: ground truth for gfptop's reserve tiers. Test module,
 * loaded only inside the gfptop QEMU guests (tests/oracle-guest.sh).
 *
 * On "run" written to /sys/kernel/debug/gfptop_oracle/control it brings
 * the DMA32 zone's NR_FREE_PAGES into chosen bands relative to its
 * watermarks by holding pages (a "holder" kthread, PF_MEMALLOC), then
 * makes allocations with known contexts from a "campaign" kthread and
 * records each one (case, level, order, gfp, free pages before/after,
 * highatomic state, pfn or failure) in .../records. Every page it holds
 * is freed when the campaign ends, on error, and on unload.
 *
 * A row whose level could not be reached is recorded as such
 * ("unreached") instead of as an allocation.
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

#define MAX_RECS	512
#define REPS		2
#define OUT_SIZE	(MAX_RECS * 256)

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

enum level {
	L_ABOVE_LOW, L_MIN_LOW, L_87, L_69, L_56, L_44, L_31,
	L_MIN_LOW_HA, L_HA_ONLY, NR_LEVELS
};
static const char * const level_names[] = {
	"above_low", "min_low", "87", "69", "56", "44", "31", "min_low_ha",
	"ha_only"
};

struct rec {
	unsigned short c, level, rep;
	short reached;		/* 1: in band before the allocation */
	long lo, hi;		/* band: lo < free <= hi */
	long free_before, free_after, reserved_ha;
	int ha_avail;		/* a free MIGRATE_HIGHATOMIC block of >= order */
	long pfn;		/* -1: allocation failed */
	long wmin;		/* the min watermark at the time */
	long normal_free;	/* ha_only: free pages on non-highatomic lists */
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
static long nr_held_pages;
static long hold_lo, hold_hi;
static int hold_rc;
static bool hold_release, hold_drain;
static DECLARE_COMPLETION(hold_req);
static DECLARE_COMPLETION(hold_done);
static DECLARE_COMPLETION(camp_req);
static DECLARE_COMPLETION(camp_done);
static bool stopping;
static int camp_cmd;	/* 1: run (phases 1 and 2), 2: fallback (phase 3) */

static long zone_free(void)
{
	return zone_page_state(zone, NR_FREE_PAGES);
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
		    __GFP_NORETRY | __GFP_DMA32;
	struct page *page = alloc_pages(gfp, hold_orders[i]);

	if (!page)
		return false;
	list_add(&page->lru, &held[i]);
	nr_held_pages += 1L << hold_orders[i];
	return true;
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
		list_del(&page->lru);
		__free_pages(page, hold_orders[i]);
		nr_held_pages -= 1L << hold_orders[i];
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

/*
 * Hold every page __rmqueue() can still hand out: afterwards only the
 * MIGRATE_HIGHATOMIC free lists (which the holder's requests never
 * search) and other CPUs' pcp lists have pages.
 */
static int drain(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(hold_orders); i++) {
		long n = 0;

		while (hold_one(i))
			if (!(++n % 64))
				cond_resched();
	}
	return 0;
}

static int hold_fn(void *unused)
{
	unsigned int noreclaim = memalloc_noreclaim_save();

	while (!kthread_should_stop()) {
		if (wait_for_completion_interruptible(&hold_req))
			continue;
		if (kthread_should_stop() || READ_ONCE(stopping))
			break;
		if (hold_release) {
			release_all();
			hold_rc = 0;
		} else if (hold_drain) {
			hold_rc = drain();
		} else {
			hold_rc = keep_level();
		}
		complete(&hold_done);
	}
	release_all();
	memalloc_noreclaim_restore(noreclaim);
	return 0;
}

static int hold_to(long lo, long hi)
{
	hold_lo = lo;
	hold_hi = hi;
	hold_release = false;
	hold_drain = false;
	complete(&hold_req);
	wait_for_completion(&hold_done);
	return hold_rc;
}

static void hold_drain_all(void)
{
	hold_release = false;
	hold_drain = true;
	complete(&hold_req);
	wait_for_completion(&hold_done);
}

static void hold_release_all(void)
{
	hold_drain = false;
	hold_release = true;
	complete(&hold_req);
	wait_for_completion(&hold_done);
}

/* bands, with the allocator's integer arithmetic (order 0, no boost) */
static void band(int level, long *lo, long *hi)
{
	long m = min_wmark_pages(zone), low = low_wmark_pages(zone);
	long m50 = m - m / 2;

	switch (level) {
	case L_ABOVE_LOW:
		*lo = low;
		*hi = high_wmark_pages(zone) + (high_wmark_pages(zone) - low);
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
		/* free - nr_reserved_highatomic <= min < free */
		*lo = m;
		*hi = min_t(long, low, m + (long)zone->nr_reserved_highatomic);
		break;
	case L_HA_ONLY:
		/* m < free, every free buddy page on a highatomic list */
		*lo = m;
		*hi = LONG_MAX;
		break;
	}
}

static int ha_avail(unsigned int order)
{
	unsigned long flags;
	int o, ret = 0;

	spin_lock_irqsave(&zone->lock, flags);
	for (o = order; o < MAX_ORDER; o++)
		if (!free_area_empty(&zone->free_area[o], MIGRATE_HIGHATOMIC))
			ret = 1;
	spin_unlock_irqrestore(&zone->lock, flags);
	return ret;
}

/* free pages on the buddy lists __rmqueue() searches (not highatomic) */
static long normal_free(void)
{
	unsigned long flags;
	struct page *page;
	long n = 0;
	int o, mt;

	spin_lock_irqsave(&zone->lock, flags);
	for (o = 0; o < MAX_ORDER; o++)
		for (mt = 0; mt < MIGRATE_TYPES; mt++) {
			if (mt == MIGRATE_HIGHATOMIC)
				continue;
			list_for_each_entry(page, &zone->free_area[o].free_list[mt], buddy_list)
				n += 1L << o;
		}
	spin_unlock_irqrestore(&zone->lock, flags);
	return n;
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

static void run_row(int ci, int level, int rep)
{
	const struct oracle_case *c = &cases[ci];
	struct rec *r;
	struct page *page;
	long lo, hi, margin;
	int try;

	if (nr_recs >= MAX_RECS)
		return;
	r = &recs[nr_recs++];
	memset(r, 0, sizeof(*r));
	r->c = ci;
	r->level = level;
	r->rep = rep;
	r->pfn = -1;
	r->wmin = min_wmark_pages(zone);
	for (try = 0; try < 3; try++) {
		band(level, &lo, &hi);
		r->lo = lo;
		r->hi = hi;
		/* aim at the middle of the band, away from both edges */
		margin = (hi - lo) / 4;
		if (margin < 32) {
			r->reached = 0;
			return;
		}
		if (level == L_HA_ONLY)
			hold_drain_all();
		else if (hold_to(lo + margin, hi - margin))
			continue;
		r->reserved_ha = zone->nr_reserved_highatomic;
		r->ha_avail = ha_avail(c->order);
		r->free_before = zone_free();
		r->normal_free = level == L_HA_ONLY ? normal_free() : -1;
		if (level == L_HA_ONLY ? r->free_before <= lo + 16 || !ha_avail(0) ||
		    r->normal_free :
		    r->free_before <= lo + 16 || r->free_before > hi - 16)
			continue;
		r->reached = 1;
		page = alloc_in_ctx(c);
		r->free_after = zone_free();
		if (page) {
			r->pfn = page_to_pfn(page);
			__free_pages(page, c->order);
		}
		return;
	}
	r->reached = 0;
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

static void campaign(void)
{
	int level, ci, rep, i;
	long lo, hi;

	/* phase 1: every order-0 case at every level, shallow to deep */
	for (level = L_ABOVE_LOW; level <= L_31; level++) {
		for (ci = 0; ci < C_PHASE1; ci++) {
			for (rep = 0; rep < REPS; rep++) {
				run_row(ci, level, rep);
				/* do not leave user space below min between rows */
				if (level > L_MIN_LOW) {
					band(L_MIN_LOW, &lo, &hi);
					hold_to(lo + (hi - lo) / 4, hi - (hi - lo) / 4);
				}
			}
		}
	}
	/*
	 * phase 2: high-order GFP_ATOMIC below low (the fast path never
	 * reserves): the first reserves a highatomic pageblock, the
	 * following take from it.
	 */
	for (i = 0; i < 4; i++)
		run_row(C_ATOMIC_O4, L_MIN_LOW, i);
	/* order-0 requests while the reserve hides their free pages */
	for (rep = 0; rep < REPS; rep++) {
		static const int ha_cases[] = {
			C_NOWAIT, C_ATOMIC, C_HIGH, C_RT_KERNEL, C_RT_NOWAIT
		};

		for (i = 0; i < ARRAY_SIZE(ha_cases); i++)
			run_row(ha_cases[i], L_MIN_LOW_HA, rep);
	}
	hold_release_all();
}

static void format_records(void)
{
	size_t n = 0;
	int i;

	n += scnprintf(out_buf + n, OUT_SIZE - n,
		       "# zone=%s min=%lu low=%lu high=%lu boost=%lu managed=%lu lowmem_reserve=%ld pageblock_order=%u camp_pid=%d\n",
		       zone->name, min_wmark_pages(zone), low_wmark_pages(zone),
		       high_wmark_pages(zone), zone->watermark_boost,
		       zone_managed_pages(zone), zone->lowmem_reserve[ZONE_DMA32],
		       pageblock_order, camp_task->pid);
	n += scnprintf(out_buf + n, OUT_SIZE - n,
		       "# seq case level rep ctx order gfp reached lo hi free_before free_after reserved_ha ha_avail pfn wmin normal_free\n");
	for (i = 0; i < nr_recs; i++) {
		const struct rec *r = &recs[i];
		const struct oracle_case *c = &cases[r->c];

		n += scnprintf(out_buf + n, OUT_SIZE - n,
			       "%d %s %s %d %s %u %#x %d %ld %ld %ld %ld %ld %d %ld %ld %ld\n",
			       i, c->name, level_names[r->level], r->rep,
			       ctx_names[c->ctx], c->order, (__force unsigned int)c->gfp,
			       r->reached, r->lo, r->hi, r->free_before,
			       r->free_after, r->reserved_ha, r->ha_avail, r->pfn,
			       r->wmin, r->normal_free);
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
		if (camp_cmd == 1)
			campaign();
		else
			campaign_fallback();
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
	if (!strncmp(cmd, "run", 3)) {
		camp_cmd = 1;
	} else if (!strncmp(cmd, "fallback", 8)) {
		camp_cmd = 2;
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
	zone = &NODE_DATA(0)->node_zones[ZONE_DMA32];
	if (!populated_zone(zone))
		return -ENODEV;
	for (i = 0; i < ARRAY_SIZE(hold_orders); i++)
		INIT_LIST_HEAD(&held[i]);
	recs = kcalloc(MAX_RECS, sizeof(*recs), GFP_KERNEL);
	out_buf = vzalloc(OUT_SIZE);
	if (!recs || !out_buf)
		goto nomem;
	hold_task = kthread_run(hold_fn, NULL, "oracle-hold");
	if (IS_ERR(hold_task))
		goto nomem;
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
}

module_init(oracle_init);
module_exit(oracle_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("gfptop test oracle: forces page allocator reserve tiers");
