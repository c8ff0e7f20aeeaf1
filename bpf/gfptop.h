/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Types shared by the BPF programs (gfptop.bpf.c) and the loader (user/).
 * Everything here is a layout contract between the two sides, so it uses
 * fixed-size types only and no kernel headers.
 */
#ifndef GFPTOP_H
#define GFPTOP_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/*
 * Tool-side tier indices. The kernel's enum page_alloc_tier values are
 * mapped onto these in BPF with bpf_core_enum_value(), so the tool never
 * assumes the kernel's numbering; a value the kernel has but we do not
 * know lands in GT_UNKNOWN.
 */
enum gfptop_tier {
	GT_NONE,
	GT_NON_BLOCK,
	GT_MIN_RESERVE,
	GT_MIN_RESERVE_NON_BLOCK,
	GT_OOM,
	GT_NO_WATERMARKS,
	GT_HIGHATOMIC,
	GT_UNKNOWN,
	GT_NR, /* a power of two: BPF masks indices with GT_NR - 1 */
};

/* Orders above GT_MAX_ORDER (never on x86 6.1: MAX_ORDER is 11) are clamped. */
#define GT_NR_ORDERS 16
#define GT_MAX_ORDER (GT_NR_ORDERS - 1)

/* zone_idx() values; 6.1 x86 has at most DMA, DMA32, Normal, Movable, Device. */
#define GT_NR_ZONES 8

enum gfptop_ctx {
	GC_TASK,
	GC_SOFTIRQ,
	GC_HARDIRQ,
	GC_NR,
};

/*
 * log2 histogram of the watermark margin (free_pages - mark), signed.
 * pos[k] counts margins in [2^k, 2^(k+1)-1], neg[k] counts margins in
 * [-(2^(k+1)-1), -2^k], zero counts margin == 0. k is clamped to
 * GT_HIST_SLOTS - 1.
 */
#define GT_HIST_SLOTS 32

struct gt_hist {
	__u64 neg[GT_HIST_SLOTS];
	__u64 zero;
	__u64 pos[GT_HIST_SLOTS];
};

struct gt_cnt {
	__u64 count; /* allocations */
	__u64 pages; /* pages: sum of 1 << order */
};

enum gfptop_stat {
	GS_EVENTS,		/* mm_page_alloc_tier events seen (before filters) */
	GS_FILTERED,		/* events dropped by -p/-c/--min-order/--tiers */
	GS_RESERVE_FAIL,	/* mm_page_alloc_reserve_fail events (after filters) */
	GS_RESERVE_FAIL_PAGES,
	GS_HA_RESERVE,		/* mm_reserve_highatomic events */
	GS_HA_UNRESERVE,	/* mm_unreserve_highatomic events */
	GS_HA_UNRESERVE_FORCED,	/* ... of them with force set */
	GS_HA_MOVED,		/* pages moved out by unreserve (sum of "moved") */
	GS_PROC_DROPPED,	/* events not counted by process: proc map full */
	GS_GFP_DROPPED,		/* events not counted by gfp flags: gfp map full */
	GS_NR,
};

/*
 * The whole per-CPU aggregate, one element of a BPF_MAP_TYPE_PERCPU_ARRAY.
 * It is all __u64 counters that only ever grow, so merging CPUs is an
 * element-wise sum and an interval is the difference of two snapshots.
 */
struct gt_counters {
	struct gt_cnt order[GT_NR][GT_NR_ORDERS];
	struct gt_cnt zone[GT_NR][GT_NR_ZONES];
	struct gt_cnt ctx[GT_NR][GC_NR];
	struct gt_hist hist[GT_NR];
	__u64 stat[GS_NR];
};

/* Highatomic reserve level of one zone, per CPU: merged by timestamp. */
struct gt_ha_level {
	__u64 ts;		/* bpf_ktime_get_ns() of the last event, 0: none */
	__u64 last_nr_reserved;	/* zone->nr_reserved_highatomic after it */
	__u64 max_nr_reserved;	/* highest value seen on this CPU */
};

/* Key of the gfp map: raw gfp_flags per tier, classified in user space. */
struct gt_gfp_key {
	__u32 gfp_flags;
	__u32 tier;
};

#define GT_COMM_LEN 16
#define GT_MAX_PROCS 8192
#define GT_MAX_GFP_KEYS 4096

struct gt_proc {
	char comm[GT_COMM_LEN];
	struct gt_cnt tier[GT_NR];
};

#endif /* GFPTOP_H */
