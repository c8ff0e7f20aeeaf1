// SPDX-License-Identifier: GPL-2.0
/*
 * gfptop BPF side: count page allocations by reserve tier in per-CPU maps
 * (count.bpf.h); user space reads cumulative counters and takes
 * differences. Two sources feed the same counters, and the loader loads
 * one of them (user/progs.c decides which programs, by their sections):
 *
 * - tracepoint (this file): kmem:mm_page_alloc_tier and friends, added by
 *   kernel-patches/; the kernel decided the tier.
 * - probe (probe.bpf.h): fentry/fexit on get_page_from_freelist()
 *   (kprobe/kretprobe where fentry cannot attach), for kernels nobody
 *   patched; the tier is derived from the zone's counters.
 *
 * With both loaded (--source both), the tracepoint counts and the probe
 * only compares: each allocation's derived tier against the one the
 * tracepoint reported for the same page (shadow.bpf.h).
 */
#include "kernel_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "gfptop_abi.h"
#include "gfptop_rules.h"

char LICENSE[] SEC("license") = "GPL";

#include "count.bpf.h"
#include "shadow.bpf.h"
#include "probe.bpf.h"

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
