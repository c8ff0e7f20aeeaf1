/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ABI between the BPF programs (bpf/gfptop.bpf.c) and user space
 * (user/, and compare/ for the enums): the maps' key and value layouts
 * and the enums that index them. A layout contract, so fixed-size types
 * only and no kernel headers. In common/ so that each side takes it
 * without reaching into the other's folder.
 */
#ifndef GFPTOP_ABI_H
#define GFPTOP_ABI_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "gfptop_tiers.h"

/*
 * Tool-side tier indices. The kernel's enum page_alloc_tier values are
 * mapped onto these in BPF by a table the loader fills from the kernel's
 * BTF before load (tier_of_kernel[], kcheck_tier_map()), so the tool never
 * assumes the kernel's numbering; a value the kernel has but we do not
 * know lands in GT_UNKNOWN. The tiers are GT_NONE..GT_UNKNOWN
 * (GT_NR_TIERS of them); arrays have GT_NR slots, a power of two so that
 * BPF can mask indices with GT_NR - 1, and the slots after GT_UNKNOWN
 * stay empty.
 */
#define GT_ENUM(id, ...) GT_##id,
enum gfptop_tier {
	GFPTOP_TIERS(GT_ENUM)	/* gfptop_tiers.h: GT_NONE .. GT_UNKNOWN */
	GT_NR_TIERS,
	GT_NR = 16,
};
_Static_assert((GT_NR & (GT_NR - 1)) == 0 && GT_NR >= GT_NR_TIERS,
	       "GT_NR: a power of two that holds every tier");
/* loops over the kernel's tiers stop at GT_UNKNOWN */
_Static_assert(GT_UNKNOWN == GT_NR_TIERS - 1, "unknown: the table's last line");

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
 * Depth: free_pages as a share of the unboosted watermark the allocator
 * checked (the min watermark for every request with a reserve right), in
 * intervals open below and closed above. Computed in BPF without
 * division, by comparing 8 * free with k * watermark, k = 8, 6, 5, 4, 3, 2.
 */
enum gfptop_depth {
	GD_ABOVE,	/* > 100% */
	GD_75,		/* 75% < free <= 100% */
	GD_62,		/* 62.5% < free <= 75% */
	GD_50,		/* 50% < free <= 62.5% */
	GD_37,		/* 37.5% < free <= 50% */
	GD_25,		/* 25% < free <= 37.5% */
	GD_BELOW_25,	/* <= 25% */
	GD_NR,
};

/* The depth bucket of free pages against a watermark (shared by BPF and
 * the unit tests): 8 * free against k * watermark, no division. Both are
 * page counts far below 2^59, so the products cannot overflow. */
static inline __attribute__((always_inline)) __u32 gt_depth_bucket(__s64 free_pages,
								   __u64 watermark)
{
	__s64 f = free_pages * 8, w = (__s64)watermark;

	if (f > 8 * w)
		return GD_ABOVE;
	if (f > 6 * w)
		return GD_75;
	if (f > 5 * w)
		return GD_62;
	if (f > 4 * w)
		return GD_50;
	if (f > 3 * w)
		return GD_37;
	if (f > 2 * w)
		return GD_25;
	return GD_BELOW_25;
}

/*
 * log2 histogram of the watermark margin (free_pages - watermark, the
 * unboosted mark checked), signed.
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
	GS_RESERVE_FAIL,	/* mm_page_alloc_reserve_fail events (after filters):
				 * failed allocations that held a reserve right */
	GS_RESERVE_FAIL_PAGES,
	GS_HA_RESERVE,		/* mm_reserve_highatomic events */
	GS_HA_UNRESERVE,	/* mm_unreserve_highatomic events */
	GS_HA_UNRESERVE_FORCED,	/* ... of them with force set */
	GS_HA_MOVED,		/* free pages moved out by unreserve (sum of "moved") */
	GS_PROC_DROPPED,	/* events not counted by process: proc map full */
	GS_GFP_DROPPED,		/* events not counted by gfp flags: gfp map full */
	/* probe source only */
	GS_PROBE_LATE,		/* entry snapshot not this call's: counters read at exit */
	GS_PROBE_LOST,		/* kretprobe without this task's entry: not counted */
	GS_PROBE_NO_ZONE,	/* page in no zone span looked at: counted as the preferred */
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
	__u64 depth[GT_NR][GD_NR];
	/* source pcp and highatomic_block: pages of a MIGRATE_HIGHATOMIC
	 * pageblock handed out from a per-cpu list, i.e. used without the
	 * right to them; per watermark tier */
	struct gt_cnt pcp_highatomic[GT_NR];
	__u64 stat[GS_NR];
	/* not a count: verifier_opaque() (count.bpf.h) passes values
	 * through it so the verifier forgets what they were */
	__u64 scratch;
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

/* Room for one bpf_probe_read_kernel() of a stretch of a kernel struct
 * (probe.bpf.h's read_span()); a power of two, for the verifier's
 * bounds. The loader checks struct zone's head against it. */
#define GT_SPAN_BUF 256

#define GT_COMM_LEN 16
#define GT_MAX_PROCS 8192
#define GT_MAX_GFP_KEYS 4096

/*
 * In front of the gfp map, per CPU: GT_GFP_SLOTS direct-mapped slots, a
 * slot keyed by gt_gfp_slot_key(gfp, tier) (never 0; 0 is a free slot)
 * and claimed once, for good. A few gfp values
 * make most allocations, so most events find their slot and count
 * without the hash map's helper calls; a key whose slot another key
 * holds goes to the gfp map. Both are cumulative: user space sums them.
 */
#define GT_GFP_SLOTS 64

struct gt_gfp_slot {
	__u64 key;
	struct gt_cnt v;
};

static inline __u64 gt_gfp_slot_key(__u32 gfp_flags, __u32 tier)
{
	return ((__u64)(tier + 1) << 32) | gfp_flags;
}

static inline __u32 gt_gfp_slot_index(__u32 gfp_flags, __u32 tier)
{
	/* Knuth's multiplicative hash of the two, top bits */
	return ((gfp_flags ^ (tier << 27)) * 2654435761u) >> 26 & (GT_GFP_SLOTS - 1);
}

struct gt_proc {
	char comm[GT_COMM_LEN];
	/* task->self_exec_id when comm was taken (0: not known, the raw_tp
	 * and kprobe paths): of a process's names in slots on several CPUs
	 * and in the map, the one with the highest is the newest, the name
	 * after its latest exec() (merge_proc_name()) */
	__u64 exec_id;
	struct gt_cnt tier[GT_NR];
};

/*
 * In front of the process map, per CPU: GT_PROC_SLOTS direct-mapped
 * slots by tgid. A slot counts one process's allocations on its CPU from
 * the moment it claims the slot, and only BPF on that CPU writes it.
 * When another tgid needs the slot, BPF first adds what the slot holds
 * to the process map (also cumulative), so a process's total is always
 * its map entry plus the slots that hold it, and user space takes
 * differences of totals (user/procs.c). A process allocating on a CPU
 * finds its slot there unless another tgid with the same index
 * allocated on that CPU since, so most events count without the hash
 * map's helper calls (the lookup hashes the key and walks a bucket: ~35%
 * of the tracepoint program's instructions).
 */
#define GT_PROC_SLOTS 16

struct gt_proc_slot {
	__u32 key;		/* tgid + 1; 0: free (tgid 0 is the idle task) */
	__u32 pad;
	struct gt_proc p;
};

static inline __u32 gt_proc_slot_index(__u32 tgid)
{
	return (tgid * 2654435761u) >> 28 & (GT_PROC_SLOTS - 1);
}

/* irq nesting depth of a CPU (count.bpf.h: current_ctx()) */
struct gt_irq_depth {
	__u32 hardirq;
	__u32 softirq;
};

/*
 * A zone's highatomic counters as this CPU last saw them in an
 * allocation's snapshot (the tracepoint's, or the probe's entry read),
 * for the zone header of the live view (user/zoneinfo.h): the latest of
 * the CPUs' is the zone's (merge_zone_ha()). A few stores into the
 * per-CPU state the handler already holds, no map lookup, and no helper
 * call: bpf_jiffies64() is inlined to one load, so the stamp is a tick.
 */
#define GT_ZHA_RESERVED	1	/* nr_reserved_highatomic is set */
#define GT_ZHA_FREE	2	/* nr_free_highatomic (6.12) is set */

struct gt_zone_ha {
	__u64 jiffies;		/* when this CPU saw it; 0: never */
	__u64 nr_reserved;	/* zone->nr_reserved_highatomic */
	__u64 nr_free;		/* zone->nr_free_highatomic */
	__u64 have;		/* GT_ZHA_* */
};

/*
 * All a CPU's state in one per-CPU array element, so that an event
 * costs one map lookup (a helper call on 6.1) for everything it touches.
 * Only c is summed over CPUs and differenced; the slots are read per
 * CPU (user/collect.c), irq is nobody's business but BPF's.
 */
struct gt_cpu {
	struct gt_counters c;
	struct gt_gfp_slot gfp[GT_GFP_SLOTS];
	struct gt_proc_slot proc[GT_PROC_SLOTS];
	struct gt_irq_depth irq;
	struct gt_zone_ha zone_ha[GT_NR_ZONES];
};

/*
 * --source both: per allocation, the tracepoint's tier (row) against the
 * probe's derived tier (column), for the same page.
 */
struct gt_agreement {
	__u64 n[GT_NR][GT_NR];
	__u64 unmatched;	/* probe exit without the tracepoint's page */
	__u64 late;		/* ... derived from counters read at exit */
};

#endif /* GFPTOP_ABI_H */
