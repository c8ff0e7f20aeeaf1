// SPDX-License-Identifier: GPL-2.0
/*
 * gfptop BPF side: count page allocations by reserve tier in per-CPU maps
 * (count.bpf.h); user space reads cumulative counters and takes
 * differences. Two sources feed the same counters, and the loader loads
 * one of them:
 *
 * - tracepoint: kmem:mm_page_alloc_tier and friends, added by
 *   kernel-patches/; the kernel decided the tier. Every program exists
 *   twice, tp_btf and raw_tp (TP_TWINS below).
 * - probe: fentry/fexit on get_page_from_freelist() (kprobe/kretprobe
 *   where fentry cannot attach), for kernels nobody patched; the tier is
 *   derived from the zone's counters (derive.bpf.h).
 *
 * With both loaded (--source both), the tracepoint counts and the probe
 * only compares: each allocation's derived tier against the one the
 * tracepoint reported for the same page, in the agreement map.
 */
#include "kernel_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "gfptop_abi.h"

char LICENSE[] SEC("license") = "GPL";

#include "count.bpf.h"
#include "derive.bpf.h"

/*
 * Every tracepoint program exists twice, from this one definition:
 * tp_btf (BTF-typed arguments, preferred: direct loads, several times
 * cheaper per event, guest/bench) and raw_tp, the fallback the loader
 * takes where tp_btf does not load or attach. Both run `call`, in which
 * `btf` is the twin's constant, so that each compiles only its own side
 * of KREAD(). The arguments after `call` are the tracepoint's (a prefix
 * of them will do).
 */
#define TP_TWINS(event, name, call, ...)					\
	SEC("tp_btf/" #event) int BPF_PROG(name##_btf, ##__VA_ARGS__)	\
	{ const bool btf __attribute__((unused)) = true; return call; }	\
	SEC("raw_tp/" #event) int BPF_PROG(name##_raw, ##__VA_ARGS__)	\
	{ const bool btf __attribute__((unused)) = false; return call; }

/* Interrupt context tracking (count.bpf.h), for both sources. */
#define IRQ_PROGS(event, hard, enter) TP_TWINS(event, event, irq_track(hard, enter))

IRQ_PROGS(irq_handler_entry, true, true)
IRQ_PROGS(irq_handler_exit, true, false)
IRQ_PROGS(local_timer_entry, true, true)
IRQ_PROGS(local_timer_exit, true, false)
IRQ_PROGS(softirq_entry, false, true)
IRQ_PROGS(softirq_exit, false, false)

/*
 * The kernel's enum page_alloc_tier value -> our index: a table the
 * loader fills from BTF before load (kcheck_tier_map()), one load per
 * event. (A CO-RE test per tier, bpf_core_enum_value(), was ~20
 * instructions for none and ~80 for the last tier: clang cannot fold
 * the relocated constants.)
 */
const volatile __u8 tier_of_kernel[GT_NR] = {};

static __always_inline __u32 tier_index(__u32 tier)
{
	if (tier >= GT_NR)
		return GT_UNKNOWN;
	/* the mask where the verifier sees it: clang would drop it after
	 * the test and index with a copy reloaded from the stack */
	barrier_var(tier);
	return tier_of_kernel[tier & (GT_NR - 1)];
}

/* true if the kernel has PAGE_ALLOC_SOURCE_PCP and source is it */
static __always_inline bool source_is_pcp(__u32 source)
{
	return bpf_core_enum_value_exists(enum page_alloc_source, PAGE_ALLOC_SOURCE_PCP) &&
	       source == bpf_core_enum_value(enum page_alloc_source, PAGE_ALLOC_SOURCE_PCP);
}

/* The offset of 6.12's snapshot->nr_free_highatomic, 0: none (set by
 * the loader from BTF, like zone_nr_free_highatomic_off: a CO-RE
 * relocation of a member the 6.1 kernels lack could fail their load) */
const volatile __u32 snap_nr_free_highatomic_off = 0;

/* What mm_page_alloc_tier's snapshot says, read with CO-RE. */
struct tier_snap {
	long free_pages;
	unsigned long watermark;
	unsigned long nr_reserved_highatomic;
	unsigned long nr_free_highatomic;
	__u32 have_ha;		/* GT_ZHA_*: which of the two the kernel has */
	__u32 tier;		/* kernel enum values */
	__u32 watermark_tier;
	__u32 source;
	bool highatomic_block;
	bool valid;		/* the event passed one (it always does) */
};

/*
 * Every member read here is in every version of the patches' snapshot,
 * and the loader refuses a kernel whose snapshot lacks one
 * (kcheck_tracepoints()), so no read is guarded by
 * bpf_core_field_exists(): though the verifier drops such a guard's dead
 * branch, clang set up the defaults of the not-taken way around each one
 * (~80 of tier_btf's instructions per event).
 */
static __always_inline void read_snap(const struct page_alloc_tier_snapshot *snap,
				      struct tier_snap *s, bool btf)
{
	s->valid = snap != NULL;
	s->free_pages = KREAD(btf, snap, free_pages);
	s->watermark = KREAD(btf, snap, watermark);
	s->tier = KREAD(btf, snap, tier);
	s->watermark_tier = KREAD(btf, snap, watermark_tier);
	s->source = KREAD(btf, snap, source);
	s->highatomic_block = KREAD(btf, snap, highatomic_block);
	s->nr_reserved_highatomic = KREAD(btf, snap, nr_reserved_highatomic);
	s->have_ha = GT_ZHA_RESERVED;
	s->nr_free_highatomic = 0;
	if (snap_nr_free_highatomic_off) {
		const void *p = (const void *)snap + snap_nr_free_highatomic_off;

		if (btf)
			s->nr_free_highatomic = *(const unsigned long *)p;
		else
			bpf_probe_read_kernel(&s->nr_free_highatomic, sizeof(long), p);
		s->have_ha |= GT_ZHA_FREE;
	}
}

/* Both sources loaded: the probe's derived tiers against the tracepoint's. */
const volatile bool probe_shadow = false;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct gt_agreement);
} agreement SEC(".maps");

/* The last page the tracepoint reported, per CPU and context (shadow mode). */
struct tp_last {
	__u64 page;
	__u32 tier;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, GC_NR);
	__type(key, __u32);
	__type(value, struct tp_last);
} tp_last SEC(".maps");

static __always_inline int handle_tier(struct page *page, struct zone *zone, unsigned int order,
				       gfp_t gfp_flags, const struct page_alloc_tier_snapshot *snap,
				       bool btf)
{
	struct alloc_rec r = { .order = order, .gfp_flags = gfp_flags };
	struct gt_cpu *cpu = this_cpu_state();
	struct tier_snap s;

	if (!cpu)
		return 0;
	cpu->c.stat[GS_EVENTS]++;
#ifdef GFPTOP_BENCH_FLOOR
	/* make bench's floor mode: attached and counting events like
	 * gfptop, nothing else; what any BPF counter of this event pays */
	return 0;
#endif

	read_snap(snap, &s, btf);
	r.zone_idx = zone_index(zone, btf);
	note_zone_ha(cpu, r.zone_idx, s.nr_reserved_highatomic, s.nr_free_highatomic, s.have_ha);
	r.tier = s.valid ? tier_index(s.tier) : GT_UNKNOWN;
	r.free_pages = s.free_pages;
	r.watermark = s.watermark;
	r.have_levels = s.valid;
	r.pcp_highatomic = s.valid && s.highatomic_block && source_is_pcp(s.source);
	if (r.pcp_highatomic)
		r.watermark_tier = tier_index(s.watermark_tier);
	if (probe_shadow) {
		__u32 x = current_ctx(cpu);
		struct tp_last *l = bpf_map_lookup_elem(&tp_last, &x);

		if (l) {
			l->page = (__u64)page;
			l->tier = r.tier;
		}
	}
	count_alloc(cpu, &r, btf);
	return 0;
}

static __always_inline int handle_reserve_fail(unsigned int order)
{
	struct gt_cpu *cpu;

	if (order < filter_min_order || !task_selected())
		return 0;
	cpu = this_cpu_state();
	if (!cpu)
		return 0;
	cpu->c.stat[GS_RESERVE_FAIL]++;
	cpu->c.stat[GS_RESERVE_FAIL_PAGES] += 1ULL << (order > GT_MAX_ORDER ? GT_MAX_ORDER : order);
	return 0;
}

/* The zone's highatomic reserve level now, into ha_level. */
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

/* Highatomic events are zone-wide decisions: not filtered by task. */
static __always_inline int handle_highatomic(struct zone *zone, bool reserve,
					     int moved, bool force, bool btf)
{
	struct gt_cpu *cpu = this_cpu_state();
	struct gt_counters *c;

	if (!cpu)
		return 0;
	c = &cpu->c;
	if (reserve) {
		c->stat[GS_HA_RESERVE]++;
	} else {
		c->stat[GS_HA_UNRESERVE]++;
		if (force)
			c->stat[GS_HA_UNRESERVE_FORCED]++;
		if (moved > 0)
			c->stat[GS_HA_MOVED] += moved;
	}

	note_ha_level(zone, btf);
	return 0;
}

/* ---- the tracepoint source's programs ---- */

TP_TWINS(mm_page_alloc_tier, tier, handle_tier(page, zone, order, gfp_flags, snap, btf),
	 struct page *page, struct zone *zone, unsigned int order, gfp_t gfp_flags,
	 unsigned int alloc_flags, int migratetype, const struct page_alloc_tier_snapshot *snap)

TP_TWINS(mm_page_alloc_reserve_fail, reserve_fail, handle_reserve_fail(order),
	 unsigned int order, gfp_t gfp_flags, unsigned int alloc_flags, int migratetype,
	 int highest_zoneidx)

TP_TWINS(mm_reserve_highatomic, reserve_ha, handle_highatomic(zone, true, 0, false, btf),
	 struct zone *zone, struct page *page, unsigned int order, int old_migratetype,
	 unsigned long limit)

TP_TWINS(mm_unreserve_highatomic, unreserve_ha, handle_highatomic(zone, false, moved, force, btf),
	 struct zone *zone, struct page *page, unsigned int order, int new_migratetype, int moved,
	 bool force)

/* ---- probe source: get_page_from_freelist(), on any kernel ---- */

/* This call's identity and the counters it will be judged on, into e. */
static __always_inline void probe_fill(struct probe_entry *e, const struct alloc_context *ac,
				       __u32 gfp, __u32 order, __u32 alloc_flags, bool btf,
				       bool at_entry)
{
	e->pid_tgid = bpf_get_current_pid_tgid();
	e->ac = (__u64)ac;
	e->gfp = gfp;
	e->order = order;
	e->alloc_flags = alloc_flags;
	probe_snapshot(e, ac, order, alloc_flags, btf, at_entry);
}

static __always_inline int probe_enter(const struct alloc_context *ac, __u32 gfp, __u32 order,
				       __u32 alloc_flags, bool btf)
{
	struct gt_cpu *cpu = this_cpu_state();
	struct probe_entry *e;
	__u32 x;

	if (!cpu)
		return 0;
#ifdef GFPTOP_BENCH_FLOOR
	/* make bench's pfloor mode: the fentry/fexit pair attached, the
	 * calls counted at fexit, nothing else */
	return 0;
#endif
	x = current_ctx(cpu);
	e = bpf_map_lookup_elem(&probe_entries, &x);
	if (!e)
		return 0;
	probe_fill(e, ac, gfp, order, alloc_flags, btf, true);
	e->valid = true;
	return 0;
}

/* The inputs of the tier check for the zone at e->z[zi], as fentry read
 * them (or fexit, late: probe_snapshot()). */
static __always_inline void wm_inputs(const struct probe_entry *e, int zi, struct wm_in *in)
{
	const struct probe_zone *z = &e->z[zi & (GT_PROBE_ZONES - 1)];

	in->free = z->free;
	in->free_cma = z->free_cma;
	in->order = e->order;
	in->nr_highatomic = z->nr_highatomic;
	in->mark = z->mark;
	in->lowmem = z->lowmem;
	in->blocks = z->blocks;
}

/*
 * get_page_from_freelist() returned page. have_args: fexit, whose
 * arguments identify the call; a kretprobe has only the return value and
 * relies on the entry snapshot of the same task.
 */
static __always_inline int probe_return(const struct alloc_context *ac, __u32 gfp, __u32 order,
					__u32 alloc_flags, __u64 page, bool have_args)
{
	struct gt_cpu *cpu = this_cpu_state();
	struct alloc_rec r = {};
	struct gt_counters *c;
	struct probe_entry *e;
	struct wm_in in;
	__u32 k = 0, x;
	__u64 pfn;
	bool mine;
	int zi;

	if (!cpu)
		return 0;
	c = &cpu->c;
#ifdef GFPTOP_BENCH_FLOOR
	/* make bench's pfloor mode: count the call, like the tracepoint's
	 * floor counts the event */
	c->stat[GS_EVENTS]++;
	return 0;
#endif
	x = current_ctx(cpu);
	e = bpf_map_lookup_elem(&probe_entries, &x);
	if (!e)
		return 0;
	/* fexit's page is a typed pointer; page_pfn() needs a number */
	page = verifier_opaque(c, page);
	mine = e->valid && e->pid_tgid == bpf_get_current_pid_tgid();
	if (have_args)
		mine = mine && e->ac == (__u64)ac && e->gfp == gfp && e->order == order &&
		       e->alloc_flags == alloc_flags;
	e->valid = false;
	if (!page)
		return 0;	/* a failed pass: nothing handed out */
	if (!probe_shadow)
		c->stat[GS_EVENTS]++;
	/* the preferred zone proved none at entry, and the page is not
	 * its: the other zones were not read, so as if late */
	pfn = page_pfn(page);
	if (mine && e->none_first && zone_of_pfn(e, pfn) < 0)
		mine = false;
	e->late = !mine;
	if (!mine) {
		/* preempted between entry and exit (another task's entry
		 * overwrote ours), entry missed, or the page not from the
		 * zone that proved none: read the counters now */
		if (!have_args) {
			c->stat[GS_PROBE_LOST]++;
			return 0;
		}
		c->stat[GS_PROBE_LATE]++;
		probe_fill(e, ac, gfp, order, alloc_flags, have_args, false);
	}
	/*
	 * Both ways join here in one verifier state: e looked up again and
	 * "late" kept in it, not in a register. Otherwise the verifier walks
	 * the tier code below once per way, and 6.12's stops at its limit
	 * of 1M instructions (6.1's did not), leaving 6.12 to kprobes.
	 */
	e = bpf_map_lookup_elem(&probe_entries, &x);
	if (!e)
		return 0;

	zi = zone_of_pfn(e, pfn);
	if (zi < 0) {
		c->stat[GS_PROBE_NO_ZONE]++;
		zi = 0;
	}
	wm_inputs(e, zi, &in);
	r.zone_idx = e->z[zi & (GT_PROBE_ZONES - 1)].idx;
	/* the tracepoint notes them in shadow mode; 6.12's nr_highatomic
	 * is nr_free_highatomic (zone_head_fields()) */
	if (!probe_shadow)
		note_zone_ha(cpu, r.zone_idx, e->z[zi & (GT_PROBE_ZONES - 1)].nr_reserved,
			     in.nr_highatomic, zone_nr_free_highatomic_off ?
			     GT_ZHA_RESERVED | GT_ZHA_FREE : GT_ZHA_RESERVED);
	r.order = e->order;
	r.gfp_flags = e->gfp;
	r.watermark_tier = derive_watermark_tier(&in, e->alloc_flags);
	/* the highatomic branch took the page __rmqueue_smallest() would,
	 * in whichever zone served it */
	r.tier = in.blocks.ha_page && page == in.blocks.ha_page ? GT_HIGHATOMIC : r.watermark_tier;
	r.free_pages = in.free;
	r.watermark = in.mark;
	r.have_levels = true;

	if (probe_shadow) {
		struct tp_last *l = bpf_map_lookup_elem(&tp_last, &x);
		struct gt_agreement *a = bpf_map_lookup_elem(&agreement, &k);

		if (!l || !a)
			return 0;
		if (l->page == page)
			a->n[l->tier & (GT_NR - 1)][r.tier & (GT_NR - 1)]++;
		else
			a->unmatched++;
		if (e->late)
			a->late++;
		l->page = 0;
		return 0;
	}
	/* fexit may read the task directly (count_proc()); a kretprobe not */
	count_alloc(cpu, &r, have_args);
	return 0;
}

/*
 * unreserve_highatomic_pageblock() returned true: it moved a pageblock
 * out of the reserve. Which zone it came from is not returned, so the
 * reserve levels of the zones of the request's zonelist are re-read.
 */
static __always_inline int probe_unreserve(const struct alloc_context *ac, bool force, bool ret,
					   bool have_force)
{
	struct gt_cpu *cpu;
	struct gt_counters *c;
	struct zoneref *ref;

	if (!ret || probe_shadow)
		return 0;
	cpu = this_cpu_state();
	if (!cpu)
		return 0;
	c = &cpu->c;
	c->stat[GS_HA_UNRESERVE]++;
	if (have_force && force)
		c->stat[GS_HA_UNRESERVE_FORCED]++;
	if (!ac)
		return 0;
	ref = BPF_CORE_READ(ac, preferred_zoneref);
	for (int i = 0; i < GT_PROBE_ZONES; i++) {
		struct zone *zone = zoneref_zone(ref, i);

		if (!zone)
			break;
		note_ha_level(zone, false);
	}
	return 0;
}

SEC("fentry/get_page_from_freelist")
int BPF_PROG(gpff_entry_fentry, gfp_t gfp_mask, unsigned int order, int alloc_flags,
	     const struct alloc_context *ac)
{
	return probe_enter(ac, gfp_mask, order, alloc_flags, true);
}

SEC("fexit/get_page_from_freelist")
int BPF_PROG(gpff_return_fexit, gfp_t gfp_mask, unsigned int order, int alloc_flags,
	     const struct alloc_context *ac, struct page *page)
{
	return probe_return(ac, gfp_mask, order, alloc_flags, (__u64)page, true);
}

SEC("fexit/unreserve_highatomic_pageblock")
int BPF_PROG(unreserve_probe_fexit, const struct alloc_context *ac, bool force, bool ret)
{
	return probe_unreserve(ac, force, ret, true);
}

SEC("kprobe/get_page_from_freelist")
int BPF_KPROBE(gpff_entry_kprobe, gfp_t gfp_mask, unsigned int order, int alloc_flags,
	       const struct alloc_context *ac)
{
	return probe_enter(ac, gfp_mask, order, alloc_flags, false);
}

SEC("kretprobe/get_page_from_freelist")
int BPF_KRETPROBE(gpff_return_kretprobe, struct page *page)
{
	return probe_return(NULL, 0, 0, 0, (__u64)page, false);
}

SEC("kretprobe/unreserve_highatomic_pageblock")
int BPF_KRETPROBE(unreserve_probe_kretprobe, bool ret)
{
	return probe_unreserve(NULL, false, ret, false);
}
