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
 * phase of "run" alone, "runwalk" that and the rows decided in the
 * zonelist's second zone (the campaigns of tests/oracle/zones-guest.sh).
 *
 * This file: the module's parameters, init and exit. Its other parts
 * (Kbuild's gfptop_oracle-y, sharing oracle.h): oracle_cases.c (the
 * cases, levels and bands), oracle_zone.c (the target zone's state),
 * oracle_hold.c (the holder thread), oracle_campaign.c (the campaign
 * thread, its rows and phases), oracle_debugfs.c (the debugfs files).
 */
#include <linux/bitmap.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/kthread.h>
#include <linux/mmzone.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/version.h>

#include "oracle.h"

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
/* shared, so named oracle_*; the parameter keeps its name */
bool oracle_hold_higher;
module_param_named(hold_higher, oracle_hold_higher, bool, 0444);
MODULE_PARM_DESC(hold_higher, "hold every free page of the zones above the target");
int oracle_target_idx = ZONE_DMA32;

struct zone *oracle_zone;
struct task_struct *oracle_camp_task, *oracle_hold_task;
bool oracle_stopping;

static int __init oracle_init(void)
{
	int i;

	/* hrtimer_setup() since 6.13; hrtimer_init() is gone since 6.15 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(&oracle_timer, oracle_hardirq_fn, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL_HARD);
#else
	hrtimer_init(&oracle_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	oracle_timer.function = oracle_hardirq_fn;
#endif
	if (!strcmp(target, "normal"))
		oracle_target_idx = ZONE_NORMAL;
	else if (strcmp(target, "dma32"))
		return -EINVAL;
	/* the zones above DMA32 are held with DMA32's help only */
	if (oracle_hold_higher && oracle_target_idx != ZONE_DMA32)
		return -EINVAL;
	oracle_zone = &NODE_DATA(0)->node_zones[oracle_target_idx];
	if (!populated_zone(oracle_zone))
		return -ENODEV;
	for (i = 0; i < ARRAY_SIZE(oracle_hold_orders); i++)
		INIT_LIST_HEAD(&oracle_held[i]);
	oracle_recs = kcalloc(MAX_RECS, sizeof(*oracle_recs), GFP_KERNEL);
	oracle_out_buf = vzalloc(OUT_SIZE);
	oracle_held_o4_bits = (oracle_zone->spanned_pages >> 4) + 1;
	oracle_held_o4 = bitmap_zalloc(oracle_held_o4_bits, GFP_KERNEL);
	if (!oracle_recs || !oracle_out_buf || !oracle_held_o4)
		goto nomem;
	oracle_hold_task = kthread_run(oracle_hold_fn, NULL, "oracle-hold");
	if (IS_ERR(oracle_hold_task))
		goto nomem;
	/*
	 * insmod returns once the other zones are held: a process started
	 * after it (gfptop) allocates from the zones as the rows find them,
	 * never in the moment with both DMA32 and Normal held (hold_higher),
	 * when the OOM killer would choose it
	 */
	wait_for_completion(&oracle_zones_held);
	oracle_camp_task = kthread_run(oracle_camp_fn, NULL, "oracle-camp");
	if (IS_ERR(oracle_camp_task)) {
		kthread_stop(oracle_hold_task);
		goto nomem;
	}
	oracle_debugfs_create();
	return 0;
nomem:
	kfree(oracle_recs);
	vfree(oracle_out_buf);
	bitmap_free(oracle_held_o4);
	return -ENOMEM;
}

static void __exit oracle_exit(void)
{
	oracle_debugfs_remove();
	/* no campaign runs: control_write() holds a module reference */
	WRITE_ONCE(oracle_stopping, true);
	complete(&oracle_camp_req);
	kthread_stop(oracle_camp_task);
	complete(&oracle_hold_req);
	kthread_stop(oracle_hold_task);	/* frees everything still held */
	tasklet_kill(&oracle_tasklet);
	hrtimer_cancel(&oracle_timer);
	kfree(oracle_recs);
	vfree(oracle_out_buf);
	bitmap_free(oracle_held_o4);
}

module_init(oracle_init);
module_exit(oracle_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("gfptop test oracle: forces page allocator reserve tiers");
