/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gfptop_oracle's internal header: what the module's parts (Kbuild's
 * gfptop_oracle-y) share: the types of the cases, levels and records,
 * the state one part keeps and another reads, and the functions one
 * part lends another. Every symbol shared is named oracle_*.
 */
#ifndef ORACLE_H
#define ORACLE_H

#include <linux/completion.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/list.h>
#include <linux/mmzone.h>
#include <linux/sched.h>

/*
 * 6.1 and 6.12 (one source for both): 6.1's MAX_ORDER is the number of
 * orders, 6.12 calls that NR_PAGE_ORDERS; 6.12 moved free_area_empty()
 * and get_page_from_free_area() out of the headers, so the module has
 * its own (the same list operations, in oracle_zone.c).
 */
#ifndef NR_PAGE_ORDERS
#define NR_PAGE_ORDERS MAX_ORDER
#endif

/* the rows a campaign records, and the size of their text */
#define MAX_RECS	512
#define OUT_SIZE	(MAX_RECS * 256)

/* the context a case allocates in */
enum ctx { CTX_TASK, CTX_RT, CTX_PF_MEMALLOC, CTX_SOFTIRQ, CTX_HARDIRQ };

/* a case: one kind of request (oracle_cases[]) */
struct oracle_case {
	const char *name;
	gfp_t gfp;
	unsigned int order;
	enum ctx ctx;
};

/* indices into oracle_cases[] */
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
#define C_KERNEL_O5	16

/* the levels, the bands of free pages a row runs in (oracle_band()) */
enum level {
	L_ABOVE_LOW, L_MIN_LOW, L_87, L_69, L_56, L_44, L_31,
	L_MIN_LOW_HA, L_HA_ONLY, L_BOOST, L_OVER_HA, L_FRAG, L_LAST, NR_LEVELS
};

/* a row of the campaign, as .../records prints it */
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
	/* free non-highatomic blocks of >= order: 0 or 1; 2 (two or more) */
	int normal_avail;
};

/* what oracle_hold_run() asks the holder thread to do */
enum hold_cmd {
	HOLD_LEVEL, HOLD_DRAIN, HOLD_RELEASE, HOLD_FRAG, HOLD_HIGHER, HOLD_LAST
};

/* oracle_main.c: the target zone, the module's threads */
extern struct zone *oracle_zone;
extern int oracle_target_idx;
extern bool oracle_hold_higher;
extern struct task_struct *oracle_camp_task, *oracle_hold_task;
extern bool oracle_stopping;

/* oracle_cases.c: the cases, the levels' names and bands */
extern const char * const oracle_ctx_names[];
extern const struct oracle_case oracle_cases[];
extern const char * const oracle_level_names[];
long oracle_boost_pages(void);
long oracle_lowmem(void);
void oracle_band(int level, unsigned int order, long *lo, long *hi);

/* oracle_zone.c: the target zone's state, its free lists, kswapd */
long oracle_zone_free(void);
long oracle_wmark(enum zone_watermarks w);
int oracle_ha_avail(unsigned int order);
int oracle_normal_avail(unsigned int order);
int oracle_normal_blocks(unsigned int order);
long oracle_ha_first_pfn(unsigned int order);
long oracle_pcp_head(int migratetype, long *count);
long oracle_normal_free(void);
void oracle_set_boost(unsigned long boost);
int oracle_kswapd_quiesce(void);
void oracle_kswapd_restore(int old);

/* oracle_hold.c: the holder thread */
extern const unsigned int oracle_hold_orders[3];
extern struct list_head oracle_held[ARRAY_SIZE(oracle_hold_orders)];
extern long oracle_nr_held_pages;
extern unsigned long *oracle_held_o4;
extern unsigned long oracle_held_o4_bits;
extern long oracle_nr_lower_held, oracle_nr_higher_held;
extern struct completion oracle_hold_req, oracle_zones_held;
int oracle_hold_fn(void *unused);
int oracle_hold_run(enum hold_cmd cmd, long lo, long hi);
int oracle_hold_to(long lo, long hi);
void oracle_hold_drain_all(void);
void oracle_hold_release_all(void);

/* oracle_campaign.c: the campaign thread, its rows and phases */
extern struct rec *oracle_recs;
extern int oracle_nr_recs;
extern struct completion oracle_camp_req, oracle_camp_done;
extern int oracle_camp_cmd;
extern struct tasklet_struct oracle_tasklet;
extern struct hrtimer oracle_timer;
enum hrtimer_restart oracle_hardirq_fn(struct hrtimer *t);
int oracle_camp_fn(void *unused);

/* oracle_debugfs.c: the records' text, the debugfs files */
extern char *oracle_out_buf;
void oracle_format_records(void);
void oracle_debugfs_create(void);
void oracle_debugfs_remove(void);

#endif /* ORACLE_H */
