// SPDX-License-Identifier: GPL-2.0
/*
 * gfptop BPF side: aggregate the page allocator's reserve-tier tracepoints
 * (kmem:mm_page_alloc_tier and friends, added by kernel-patches/) in
 * per-CPU maps. User space reads cumulative counters and takes differences.
 *
 * Every program exists twice: tp_btf (BTF-typed arguments, preferred) and
 * raw_tp (the fallback the loader picks when tp_btf does not load). Both
 * call the same __always_inline handlers with a constant `btf`: under
 * tp_btf they load kernel fields directly (one exception-guarded load
 * each, and the current task from bpf_get_current_task_btf()), under
 * raw_tp through BPF_CORE_READ (a bpf_probe_read_kernel() call each) and
 * the pid/comm helpers. The same values either way; the direct loads
 * make the per-event path several times cheaper (guest/bench).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "gfptop.h"

char LICENSE[] SEC("license") = "GPL";

/* Filters, set by the loader before load (rodata). */
const volatile __u32 filter_tgid = 0;		/* 0: any process */
const volatile __u64 filter_cgroup_id = 0;	/* 0: any cgroup */
const volatile __u32 filter_min_order = 0;
const volatile __u32 filter_tier_mask = ~0u;	/* bit per enum gfptop_tier */

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct gt_counters);
} counters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, GT_NR_ZONES);
	__type(key, __u32);
	__type(value, struct gt_ha_level);
} ha_level SEC(".maps");

/*
 * Raw gfp_flags x tier. The GFP class is decided in user space, from flag
 * values parsed out of the tracepoint's format file, because only user
 * space can read tracefs and because keeping the raw value lets one
 * binary classify correctly on kernels whose ___GFP_* bits differ (the
 * before kernel has __GFP_ATOMIC, the after kernel does not). Few
 * distinct gfp values occur, so the map stays small; if it fills up, the
 * miss is counted in GS_GFP_DROPPED.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, GT_MAX_GFP_KEYS);
	__type(key, struct gt_gfp_key);
	__type(value, struct gt_cnt);
} gfp_counts SEC(".maps");

/* Per process (tgid); user space drains it every interval. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, GT_MAX_PROCS);
	__type(key, __u32);
	__type(value, struct gt_proc);
} procs SEC(".maps");

/*
 * Interrupt context, tracked per CPU from the irq tracepoints. The
 * obvious way, reading preempt_count, needs the per-CPU __preempt_count
 * ksym on x86, and the verifier resolves that through kallsyms, which
 * lacks per-CPU variables unless CONFIG_KALLSYMS_ALL=y (the guest kernels
 * do not have it). So: irq_handler_entry/exit (device interrupts) and
 * local_timer_entry/exit (the APIC timer, if the kernel has those
 * events) count hardirq nesting, softirq_entry/exit count softirqs,
 * including those ksoftirqd runs. Both exits run before irq_exit()
 * processes pending softirqs, so a softirq never looks like a hardirq.
 * Other system vectors (IPIs, irq_work) count as whatever they
 * interrupted; NMIs cannot allocate pages.
 */
struct irq_depth {
	__u32 hardirq;
	__u32 softirq;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct irq_depth);
} irq_ctx SEC(".maps");

static __always_inline __u32 current_ctx(void)
{
	struct irq_depth *d;
	__u32 k = 0;

	d = bpf_map_lookup_elem(&irq_ctx, &k);
	if (!d)
		return GC_TASK;
	if (d->hardirq)
		return GC_HARDIRQ;
	if (d->softirq)
		return GC_SOFTIRQ;
	return GC_TASK;
}

/* enter: +1, leave: -1, never below 0 (gfptop may start mid-handler) */
static __always_inline int irq_track(bool hard, bool enter)
{
	struct irq_depth *d;
	__u32 k = 0, *v;

	d = bpf_map_lookup_elem(&irq_ctx, &k);
	if (!d)
		return 0;
	v = hard ? &d->hardirq : &d->softirq;
	if (enter)
		(*v)++;
	else if (*v)
		(*v)--;
	return 0;
}

#define IRQ_PROGS(event, hard, enter)					\
SEC("tp_btf/" #event) int BPF_PROG(event##_btf) { return irq_track(hard, enter); } \
SEC("raw_tp/" #event) int BPF_PROG(event##_raw) { return irq_track(hard, enter); }

IRQ_PROGS(irq_handler_entry, true, true)
IRQ_PROGS(irq_handler_exit, true, false)
IRQ_PROGS(local_timer_entry, true, true)
IRQ_PROGS(local_timer_exit, true, false)
IRQ_PROGS(softirq_entry, false, true)
IRQ_PROGS(softirq_exit, false, false)

/* Field f of kernel pointer p: a direct (CO-RE relocated) load under
 * tp_btf, bpf_probe_read_kernel() under raw_tp. btf is a constant, so
 * only one side is compiled into each program. */
#define KREAD(btf, p, f) ((btf) ? (p)->f : BPF_CORE_READ(p, f))

/* The kernel's enum page_alloc_tier value -> our index, through CO-RE:
 * true if the kernel has PAGE_ALLOC_TIER_<name> and tier is its value */
#define KERNEL_TIER_IS(tier, name)						\
	(bpf_core_enum_value_exists(enum page_alloc_tier, PAGE_ALLOC_TIER_##name) &&	\
	 (tier) == bpf_core_enum_value(enum page_alloc_tier, PAGE_ALLOC_TIER_##name))

static __always_inline __u32 tier_index(__u32 tier)
{
	if (!bpf_core_type_exists(enum page_alloc_tier))
		return GT_UNKNOWN;
	if (KERNEL_TIER_IS(tier, NONE))
		return GT_NONE;
	if (KERNEL_TIER_IS(tier, NON_BLOCK))
		return GT_NON_BLOCK;
	if (KERNEL_TIER_IS(tier, MIN_RESERVE))
		return GT_MIN_RESERVE;
	if (KERNEL_TIER_IS(tier, MIN_RESERVE_NON_BLOCK))
		return GT_MIN_RESERVE_NON_BLOCK;
	if (KERNEL_TIER_IS(tier, OOM))
		return GT_OOM;
	if (KERNEL_TIER_IS(tier, NO_WATERMARKS))
		return GT_NO_WATERMARKS;
	if (KERNEL_TIER_IS(tier, HIGHATOMIC))
		return GT_HIGHATOMIC;
	if (KERNEL_TIER_IS(tier, HIGHATOMIC_COUNTED))
		return GT_HIGHATOMIC_COUNTED;
	if (KERNEL_TIER_IS(tier, NO_LEVEL))
		return GT_NO_LEVEL;
	return GT_UNKNOWN;
}

/* true if the kernel has PAGE_ALLOC_SOURCE_PCP and source is it */
static __always_inline bool source_is_pcp(__u32 source)
{
	return bpf_core_enum_value_exists(enum page_alloc_source, PAGE_ALLOC_SOURCE_PCP) &&
	       source == bpf_core_enum_value(enum page_alloc_source, PAGE_ALLOC_SOURCE_PCP);
}

/*
 * zone_idx(zone), i.e. zone - zone->zone_pgdat->node_zones, with CO-RE
 * offsets and sizes. Under tp_btf, zone is a typed pointer the verifier
 * will not subtract from, so compare it with each node_zones[i] instead.
 */
static __always_inline __u32 zone_index(struct zone *zone, bool btf)
{
	struct pglist_data *pgdat = KREAD(btf, zone, zone_pgdat);
	__u64 base, size;

	if (!pgdat)
		return 0;
	base = (__u64)pgdat + bpf_core_field_offset(struct pglist_data, node_zones);
	size = bpf_core_type_size(struct zone);
#pragma unroll
	for (__u32 i = 0; i < GT_NR_ZONES; i++)
		if ((__u64)zone == base + i * size)
			return i;
	return GT_NR_ZONES - 1;
}

static __always_inline __u32 log2_u64(__u64 v)
{
	__u32 r = 0;

	/* unrolled binary search, verifier friendly */
	if (v >> 32) { v >>= 32; r += 32; }
	if (v >> 16) { v >>= 16; r += 16; }
	if (v >> 8) { v >>= 8; r += 8; }
	if (v >> 4) { v >>= 4; r += 4; }
	if (v >> 2) { v >>= 2; r += 2; }
	if (v >> 1) { r += 1; }
	return r;
}

/* Common pid/cgroup filter; true: count the event. */
static __always_inline bool task_selected(void)
{
	if (filter_tgid && (bpf_get_current_pid_tgid() >> 32) != filter_tgid)
		return false;
	if (filter_cgroup_id && bpf_get_current_cgroup_id() != filter_cgroup_id)
		return false;
	return true;
}

/* The current task's comm into dst. Under tp_btf, two 8-byte loads of
 * task->comm (the verifier allows any load inside a char array member);
 * the kernel keeps comm NUL-terminated and zero-padded (strscpy_pad in
 * __set_task_comm), so this is the name bpf_get_current_comm() gives,
 * padded with zeros where that helper leaves the old bytes after it. */
static __always_inline void current_comm(char dst[GT_COMM_LEN], struct task_struct *task, bool btf)
{
	if (btf) {
		const __u64 *src = (const __u64 *)task->comm;

		((__u64 *)dst)[0] = src[0];
		((__u64 *)dst)[1] = src[1];
	} else {
		bpf_get_current_comm(dst, GT_COMM_LEN);
	}
}

static __always_inline void count_proc(struct gt_counters *c, __u32 t, __u64 pages, bool btf)
{
	struct task_struct *task = NULL;
	struct gt_proc *p, zero = {};
	__u32 tgid;

	if (btf) {
		task = bpf_get_current_task_btf();
		tgid = task->tgid;
	} else {
		tgid = bpf_get_current_pid_tgid() >> 32;
	}
	p = bpf_map_lookup_elem(&procs, &tgid);
	if (!p) {
		current_comm(zero.comm, task, btf);
		bpf_map_update_elem(&procs, &tgid, &zero, BPF_NOEXIST);
		p = bpf_map_lookup_elem(&procs, &tgid);
	}
	if (!p) {
		c->stat[GS_PROC_DROPPED]++;
		return;
	}
	/* refreshed on every event: a child that exec()s after its first
	 * allocation shows under its new name, not its parent's */
	current_comm(p->comm, task, btf);
	p->tier[t].count++;
	p->tier[t].pages += pages;
}

static __always_inline void count_gfp(struct gt_counters *c, __u32 gfp, __u32 t, __u64 pages)
{
	struct gt_gfp_key key = { .gfp_flags = gfp, .tier = t };
	struct gt_cnt *v, zero = {};

	v = bpf_map_lookup_elem(&gfp_counts, &key);
	if (!v) {
		bpf_map_update_elem(&gfp_counts, &key, &zero, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&gfp_counts, &key);
	}
	if (!v) {
		c->stat[GS_GFP_DROPPED]++;
		return;
	}
	v->count++;
	v->pages += pages;
}

/* What mm_page_alloc_tier's snapshot says, read with CO-RE. */
struct tier_snap {
	long free_pages;
	unsigned long watermark;
	__u32 tier;		/* kernel enum values */
	__u32 watermark_tier;
	__u32 source;
	bool highatomic_block;
	bool valid;		/* the kernel has the snapshot */
};

static __always_inline void read_snap(const struct page_alloc_tier_snapshot *snap,
				      struct tier_snap *s, bool btf)
{
	__builtin_memset(s, 0, sizeof(*s));
	if (!bpf_core_type_exists(struct page_alloc_tier_snapshot) || !snap)
		return;
	if (!bpf_core_field_exists(snap->free_pages) || !bpf_core_field_exists(snap->watermark) ||
	    !bpf_core_field_exists(snap->tier))
		return;
	s->free_pages = KREAD(btf, snap, free_pages);
	s->watermark = KREAD(btf, snap, watermark);
	s->tier = KREAD(btf, snap, tier);
	s->watermark_tier = s->tier;
	if (bpf_core_field_exists(snap->watermark_tier))
		s->watermark_tier = KREAD(btf, snap, watermark_tier);
	if (bpf_core_field_exists(snap->source) && bpf_core_field_exists(snap->highatomic_block)) {
		s->source = KREAD(btf, snap, source);
		s->highatomic_block = KREAD(btf, snap, highatomic_block);
	}
	s->valid = true;
}

static __always_inline int handle_tier(struct zone *zone, unsigned int order, gfp_t gfp_flags,
				       const struct page_alloc_tier_snapshot *snap, bool btf)
{
	struct gt_counters *c;
	struct tier_snap s;
	__u32 k = 0, t, o, z, x;
	__u64 pages;
	long margin;

	c = bpf_map_lookup_elem(&counters, &k);
	if (!c)
		return 0;
	c->stat[GS_EVENTS]++;

	read_snap(snap, &s, btf);
	t = (s.valid ? tier_index(s.tier) : GT_UNKNOWN) & (GT_NR - 1);
	if (order < filter_min_order || !(filter_tier_mask & (1u << t)) ||
	    !task_selected()) {
		c->stat[GS_FILTERED]++;
		return 0;
	}

	o = order > GT_MAX_ORDER ? GT_MAX_ORDER : order;
	pages = 1ULL << o;
	z = zone_index(zone, btf) & (GT_NR_ZONES - 1);
	x = current_ctx();
	if (x >= GC_NR)
		x = GC_TASK;

	c->order[t][o & (GT_NR_ORDERS - 1)].count++;
	c->order[t][o & (GT_NR_ORDERS - 1)].pages += pages;
	c->zone[t][z].count++;
	c->zone[t][z].pages += pages;
	c->ctx[t][x].count++;
	c->ctx[t][x].pages += pages;

	if (s.valid) {
		/* against the unboosted mark the allocator checked */
		margin = s.free_pages - (long)s.watermark;
		if (margin > 0) {
			__u32 b = log2_u64(margin);

			c->hist[t].pos[b < GT_HIST_SLOTS ? b : GT_HIST_SLOTS - 1]++;
		} else if (margin < 0) {
			__u32 b = log2_u64(-(__u64)margin);

			c->hist[t].neg[b < GT_HIST_SLOTS ? b : GT_HIST_SLOTS - 1]++;
		} else {
			c->hist[t].zero++;
		}
		c->depth[t][gt_depth_bucket(s.free_pages, s.watermark) % GD_NR]++;

		/* a highatomic pageblock's page from a per-cpu list: no right used */
		if (s.highatomic_block && source_is_pcp(s.source)) {
			__u32 wt = tier_index(s.watermark_tier) & (GT_NR - 1);

			c->pcp_highatomic[wt].count++;
			c->pcp_highatomic[wt].pages += pages;
		}
	}

	count_gfp(c, gfp_flags, t, pages);
	count_proc(c, t, pages, btf);
	return 0;
}

static __always_inline int handle_reserve_fail(unsigned int order)
{
	struct gt_counters *c;
	__u32 k = 0;

	if (order < filter_min_order || !task_selected())
		return 0;
	c = bpf_map_lookup_elem(&counters, &k);
	if (!c)
		return 0;
	c->stat[GS_RESERVE_FAIL]++;
	c->stat[GS_RESERVE_FAIL_PAGES] += 1ULL << (order > GT_MAX_ORDER ? GT_MAX_ORDER : order);
	return 0;
}

/* Highatomic events are zone-wide decisions: not filtered by task. */
static __always_inline int handle_highatomic(struct zone *zone, bool reserve,
					     int moved, bool force, bool btf)
{
	struct gt_counters *c;
	struct gt_ha_level *l;
	__u32 k = 0, z;
	__u64 nr;

	c = bpf_map_lookup_elem(&counters, &k);
	if (!c)
		return 0;
	if (reserve) {
		c->stat[GS_HA_RESERVE]++;
	} else {
		c->stat[GS_HA_UNRESERVE]++;
		if (force)
			c->stat[GS_HA_UNRESERVE_FORCED]++;
		if (moved > 0)
			c->stat[GS_HA_MOVED] += moved;
	}

	z = zone_index(zone, btf) & (GT_NR_ZONES - 1);
	l = bpf_map_lookup_elem(&ha_level, &z);
	if (!l)
		return 0;
	nr = KREAD(btf, zone, nr_reserved_highatomic);
	l->ts = bpf_ktime_get_ns();
	l->last_nr_reserved = nr;
	if (nr > l->max_nr_reserved)
		l->max_nr_reserved = nr;
	return 0;
}

/* ---- tp_btf programs (preferred) ---- */

SEC("tp_btf/mm_page_alloc_tier")
int BPF_PROG(tier_btf, struct page *page, struct zone *zone, unsigned int order,
	     gfp_t gfp_flags, unsigned int alloc_flags, int migratetype,
	     const struct page_alloc_tier_snapshot *snap)
{
	return handle_tier(zone, order, gfp_flags, snap, true);
}

SEC("tp_btf/mm_page_alloc_reserve_fail")
int BPF_PROG(reserve_fail_btf, unsigned int order, gfp_t gfp_flags,
	     unsigned int alloc_flags, int migratetype, int highest_zoneidx)
{
	return handle_reserve_fail(order);
}

SEC("tp_btf/mm_reserve_highatomic")
int BPF_PROG(reserve_ha_btf, struct zone *zone, struct page *page,
	     unsigned int order, int old_migratetype, unsigned long limit)
{
	return handle_highatomic(zone, true, 0, false, true);
}

SEC("tp_btf/mm_unreserve_highatomic")
int BPF_PROG(unreserve_ha_btf, struct zone *zone, struct page *page,
	     unsigned int order, int new_migratetype, int moved, bool force)
{
	return handle_highatomic(zone, false, moved, force, true);
}

/* ---- raw_tp fallbacks: same arguments, untyped ---- */

SEC("raw_tp/mm_page_alloc_tier")
int BPF_PROG(tier_raw, struct page *page, struct zone *zone, unsigned int order,
	     gfp_t gfp_flags, unsigned int alloc_flags, int migratetype,
	     const struct page_alloc_tier_snapshot *snap)
{
	return handle_tier(zone, order, gfp_flags, snap, false);
}

SEC("raw_tp/mm_page_alloc_reserve_fail")
int BPF_PROG(reserve_fail_raw, unsigned int order)
{
	return handle_reserve_fail(order);
}

SEC("raw_tp/mm_reserve_highatomic")
int BPF_PROG(reserve_ha_raw, struct zone *zone)
{
	return handle_highatomic(zone, true, 0, false, false);
}

SEC("raw_tp/mm_unreserve_highatomic")
int BPF_PROG(unreserve_ha_raw, struct zone *zone, struct page *page,
	     unsigned int order, int new_migratetype, int moved, bool force)
{
	return handle_highatomic(zone, false, moved, force, false);
}
