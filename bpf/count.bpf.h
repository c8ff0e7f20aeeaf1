/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What both sources of gfptop.bpf.c share: the filters, the maps user
 * space reads, interrupt-context tracking and count_alloc(), which adds
 * one allocation to every aggregate. The tracepoint source passes what
 * the kernel computed, the probe source (probe.bpf.h) what it derived;
 * from here on they are counted the same way.
 */
#ifndef GFPTOP_COUNT_BPF_H
#define GFPTOP_COUNT_BPF_H
#include "kernel_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "gfptop_abi.h"

/* Filters, set by the loader before load (rodata). */
const volatile __u32 filter_tgid = 0;		/* 0: any process */
const volatile bool filter_cgroup = false;	/* -c: only tasks under cgroup_filter's */
const volatile __u32 filter_min_order = 0;
const volatile __u32 filter_tier_mask = ~0u;	/* bit per enum gfptop_tier */

/* Everything an event touches on its CPU, found with one lookup */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct gt_cpu);
} cpu_state SEC(".maps");

static __always_inline struct gt_cpu *this_cpu_state(void)
{
	__u32 k = 0;

	return bpf_map_lookup_elem(&cpu_state, &k);
}

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

/* Per process (tgid), behind the slots of gt_cpu (gfptop_abi.h): what the
 * slots held when another process took them over; cumulative. */
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
 * interrupted; NMIs cannot allocate pages. The depths are gt_cpu's irq.
 */
static __always_inline __u32 current_ctx(const struct gt_cpu *cpu)
{
	if (cpu->irq.hardirq)
		return GC_HARDIRQ;
	if (cpu->irq.softirq)
		return GC_SOFTIRQ;
	return GC_TASK;
}

/* enter: +1, leave: -1, never below 0 (gfptop may start mid-handler) */
static __always_inline int irq_track(bool hard, bool enter)
{
	struct gt_cpu *cpu = this_cpu_state();
	__u32 *v;

	if (!cpu)
		return 0;
	v = hard ? &cpu->irq.hardirq : &cpu->irq.softirq;
	if (enter)
		(*v)++;
	else if (*v)
		(*v)--;
	return 0;
}


/* Field f of kernel pointer p: a direct (CO-RE relocated) load under
 * tp_btf, bpf_probe_read_kernel() under raw_tp. btf is a constant, so
 * only one side is compiled into each program. */
#define KREAD(btf, p, f) ((btf) ? (p)->f : BPF_CORE_READ(p, f))

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

/* The histogram slot of a margin of v > 0 pages: log2(v), and the last
 * slot from 2^31 up (no zone has that many pages), so that the search
 * needs no 32-bit step and no clamp */
static __always_inline __u32 hist_slot(__u64 v)
{
	__u32 r = 0;

	_Static_assert(GT_HIST_SLOTS == 32, "hist_slot() clamps at 2^31");
	if (v >> 31)
		return GT_HIST_SLOTS - 1;
	/* unrolled binary search, verifier friendly */
	if (v >> 16) { v >>= 16; r += 16; }
	if (v >> 8) { v >>= 8; r += 8; }
	if (v >> 4) { v >>= 4; r += 4; }
	if (v >> 2) { v >>= 2; r += 2; }
	if (v >> 1) { r += 1; }
	return r;
}

/* -c's cgroup (v2), at index 0: the task's cgroup or one below it counts,
 * as bcc's tools filter (bpf_current_task_under_cgroup()) */
struct {
	__uint(type, BPF_MAP_TYPE_CGROUP_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} cgroup_filter SEC(".maps");

/* Common pid/cgroup filter; true: count the event. */
static __always_inline bool task_selected(void)
{
	if (filter_tgid && (bpf_get_current_pid_tgid() >> 32) != filter_tgid)
		return false;
	if (filter_cgroup && bpf_current_task_under_cgroup(&cgroup_filter, 0) != 1)
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

/* The slot's counts into the process map: another tgid takes it over.
 * Both are cumulative, so user space's totals do not change. */
static __always_inline void proc_slot_flush(struct gt_cpu *cpu, struct gt_proc_slot *s)
{
	__u32 tgid = s->key - 1;
	struct gt_proc *p, zero = {};

	p = bpf_map_lookup_elem(&procs, &tgid);
	if (!p) {
		bpf_map_update_elem(&procs, &tgid, &zero, BPF_NOEXIST);
		p = bpf_map_lookup_elem(&procs, &tgid);
	}
	if (!p) {
		for (int t = 0; t < GT_NR; t++)
			cpu->c.stat[GS_PROC_DROPPED] += s->p.tier[t].count;
		return;
	}
	/* the slot's name unless this CPU's copy has a newer one */
	if (s->p.exec_id >= p->exec_id) {
		__builtin_memcpy(p->comm, s->p.comm, GT_COMM_LEN);
		p->exec_id = s->p.exec_id;
	}
	for (int t = 0; t < GT_NR; t++) {
		p->tier[t].count += s->p.tier[t].count;
		p->tier[t].pages += s->p.tier[t].pages;
	}
}

static __always_inline void count_proc(struct gt_cpu *cpu, __u32 t, __u64 pages, bool btf)
{
	struct task_struct *task = NULL;
	struct gt_proc_slot *s;
	__u32 tgid;

	if (btf) {
		task = bpf_get_current_task_btf();
		tgid = task->tgid;
	} else {
		tgid = bpf_get_current_pid_tgid() >> 32;
	}
	/* this CPU's slot: only this program writes it (the kernel does not
	 * run it again on a CPU where it is running, count_gfp()) */
	s = &cpu->proc[gt_proc_slot_index(tgid)];
	if (s->key != tgid + 1) {
		if (s->key)
			proc_slot_flush(cpu, s);
		__builtin_memset(&s->p, 0, sizeof(s->p));
		s->key = tgid + 1;
	}
	/* refreshed on every event: a child that exec()s after its first
	 * allocation shows under its new name, not its parent's */
	current_comm(s->p.comm, task, btf);
	if (btf)
		s->p.exec_id = task->self_exec_id;
	s->p.tier[t].count++;
	s->p.tier[t].pages += pages;
}

static __always_inline void count_gfp(struct gt_cpu *cpu, __u32 gfp, __u32 t, __u64 pages)
{
	struct gt_gfp_key key = { .gfp_flags = gfp, .tier = t };
	__u32 idx = gt_gfp_slot_index(gfp, t);
	__u64 k = gt_gfp_slot_key(gfp, t);
	struct gt_cnt *v, zero = {};
	struct gt_gfp_slot *slot;

	/* the slot first; it is this CPU's, and the kernel does not run a
	 * program again on a CPU where it is running (an interrupt's
	 * allocation is a recursion miss), so nothing claims it under us */
	slot = &cpu->gfp[idx & (GT_GFP_SLOTS - 1)];
	if (!slot->key)
		slot->key = k;
	if (slot->key == k) {
		slot->v.count++;
		slot->v.pages += pages;
		return;
	}

	v = bpf_map_lookup_elem(&gfp_counts, &key);
	if (!v) {
		bpf_map_update_elem(&gfp_counts, &key, &zero, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&gfp_counts, &key);
	}
	if (!v) {
		cpu->c.stat[GS_GFP_DROPPED]++;
		return;
	}
	v->count++;
	v->pages += pages;
}

/*
 * v, passed through c->scratch: a map value the verifier does not track,
 * so what comes back is an unknown it must bound, not the constant or
 * typed pointer that went in. Each branch of tier_index() or
 * derive_watermark_tier() ends in its own constant tier, and verified
 * once per tier the code after them went past the verifier's
 * 1M-instruction budget; a typed pointer allows no arithmetic.
 */
static __always_inline __u64 verifier_opaque(struct gt_counters *c, __u64 v)
{
	*(volatile __u64 *)&c->scratch = v;
	return *(volatile __u64 *)&c->scratch;
}

/*
 * The zone's highatomic counters as an allocation's snapshot had them,
 * into this CPU's state (gt_zone_ha): before the filters, since they are
 * the zone's, not the task's. bpf_jiffies64() is inlined by the verifier
 * (one load of jiffies_64), so this is a handful of stores.
 */
static __always_inline void note_zone_ha(struct gt_cpu *cpu, __u32 zone_idx, __u64 nr_reserved,
					 __u64 nr_free, __u64 have)
{
	struct gt_zone_ha *h = &cpu->zone_ha[zone_idx & (GT_NR_ZONES - 1)];

	h->jiffies = bpf_jiffies64();
	h->nr_reserved = nr_reserved;
	h->nr_free = nr_free;
	h->have = have;
}

/* One allocation, as either source sees it. */
struct alloc_rec {
	__u32 zone_idx;
	__u32 order;
	__u32 gfp_flags;
	__u32 tier;		/* GT_* */
	__u32 watermark_tier;	/* GT_*: the tier before the highatomic branch */
	long free_pages;	/* the snapshot the tier was decided on */
	unsigned long watermark; /* unboosted */
	bool have_levels;	/* free_pages and watermark are set */
	bool pcp_highatomic;	/* a highatomic pageblock's page off a per-cpu list */
};

/* Count one allocation in every aggregate, after the filters. */
static __always_inline void count_alloc(struct gt_cpu *cpu, const struct alloc_rec *r, bool btf)
{
	struct gt_counters *c = &cpu->c;
	__u32 t, o, z, x;
	__u64 pages;
	long margin;

	t = verifier_opaque(c, r->tier) & (GT_NR - 1);

	if (r->order < filter_min_order || !(filter_tier_mask & (1u << t)) ||
	    !task_selected()) {
		c->stat[GS_FILTERED]++;
		return;
	}

	o = r->order > GT_MAX_ORDER ? GT_MAX_ORDER : r->order;
	pages = 1ULL << o;
	z = r->zone_idx & (GT_NR_ZONES - 1);
	x = current_ctx(cpu);
	if (x >= GC_NR)
		x = GC_TASK;

	c->order[t][o & (GT_NR_ORDERS - 1)].count++;
	c->order[t][o & (GT_NR_ORDERS - 1)].pages += pages;
	c->zone[t][z].count++;
	c->zone[t][z].pages += pages;
	c->ctx[t][x].count++;
	c->ctx[t][x].pages += pages;

	if (r->have_levels) {
		/* against the unboosted mark the allocator checked */
		margin = r->free_pages - (long)r->watermark;
		if (margin > 0)
			c->hist[t].pos[hist_slot(margin) & (GT_HIST_SLOTS - 1)]++;
		else if (margin < 0)
			c->hist[t].neg[hist_slot(-(__u64)margin) & (GT_HIST_SLOTS - 1)]++;
		else
			c->hist[t].zero++;
		c->depth[t][gt_depth_bucket(r->free_pages, r->watermark) % GD_NR]++;
	}
	if (r->pcp_highatomic) {
		__u32 wt = verifier_opaque(c, r->watermark_tier) & (GT_NR - 1);

		c->pcp_highatomic[wt].count++;
		c->pcp_highatomic[wt].pages += pages;
	}

	count_gfp(cpu, r->gfp_flags, t, pages);
	count_proc(cpu, t, pages, btf);
}

/* The zone's highatomic reserve level now, into ha_level: after a
 * reserve or unreserve decision, seen by either source. */
static __always_inline void note_ha_level(struct zone *zone, bool btf)
{
	__u32 z = zone_index(zone, btf) & (GT_NR_ZONES - 1);
	struct gt_ha_level *l = bpf_map_lookup_elem(&ha_level, &z);
	__u64 nr;

	if (!l)
		return;
	nr = KREAD(btf, zone, nr_reserved_highatomic);
	l->ts = bpf_ktime_get_ns();
	l->last_nr_reserved = nr;
	if (nr > l->max_nr_reserved)
		l->max_nr_reserved = nr;
}

#endif /* GFPTOP_COUNT_BPF_H */
