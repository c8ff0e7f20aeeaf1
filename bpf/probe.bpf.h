/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The probe source of gfptop (gfptop.bpf.c includes it): its programs,
 * fentry/fexit (or kprobe/kretprobe) on get_page_from_freelist() and
 * unreserve_highatomic_pageblock(), and the derivation of an
 * allocation's reserve tier they need on a kernel without the gfptop
 * tracepoints. Kept together because the programs are nothing but the
 * two halves of the derivation: what fentry reads, what fexit concludes.
 *
 * The tier is the one kernel-patches/README.md defines and the
 * tracepoint computes in the kernel; here it is recomputed from the zone's
 * counters, read with CO-RE. ALLOC_* values are #defines, not in BTF:
 * the loader sets them (user/krules.c) for the rules of the running kernel
 * before load. Everything that differs from the tracepoint is a read at a
 * different moment; the loader counts each kind in a GS_PROBE_* stat.
 * Which of the programs load (fentry/fexit or kprobes; the unreserve
 * pair only where the kernel has the function) is user/progs.c's call.
 */
#ifndef GFPTOP_PROBE_BPF_H
#define GFPTOP_PROBE_BPF_H
#include "kernel_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "gfptop_abi.h"
#include "count.bpf.h"
#include "shadow.bpf.h"

/* The running kernel's rule set: a row of common/rule_sets.c, whose
 * numbers the loader copies here before load (user/krules.c picks the
 * row). As rodata the verifier knows every field, and keeps only the
 * branches of this kernel's rules. */
const volatile struct gt_rules rules = {};

/* x86_64's VMEMMAP_START with 4- and 5-level page tables, where the
 * memory layout is not randomized. Where it is (RANDOMIZE_MEMORY), the
 * kernel has a vmemmap_base variable, which kallsyms lists with
 * CONFIG_KALLSYMS_ALL (distribution kernels have both). */
#define GT_VMEMMAP_BASE_L4 0xffffea0000000000ULL
#define GT_VMEMMAP_BASE_L5 0xffd4000000000000ULL
extern const void vmemmap_base __ksym __weak;

/* What only some kernels have, found by the loader in the kernel's BTF
 * (a CO-RE relocation of something the kernel lacks fails the load when
 * clang hoists it out of its existence check): the offset of 6.12's
 * zone->nr_free_highatomic (0: none) and MIGRATE_CMA (-1: no CMA). */
const volatile __u32 zone_nr_free_highatomic_off = 0;
const volatile int migrate_cma = -1;
/* The loader's check that struct zone's head holds every field
 * zone_head_fields() takes in one copy (kcheck_zone_head_fits()): as a
 * rodata constant the verifier keeps one way, and the checks, CO-RE
 * constants clang cannot fold, cost nothing per event. */
const volatile bool zone_head_fits = false;

/* Zones of the zonelist looked at, from the preferred one on. */
#define GT_PROBE_ZONES 4

/* Free lists of one zone at entry, as the watermark check and
 * __rmqueue_smallest(MIGRATE_HIGHATOMIC) see them (read_blocks()). */
struct probe_blocks {
	bool normal;	/* a block >= order on a MIGRATE_PCPTYPES list */
	bool cma;
	bool highatomic;
	__u64 ha_page;	/* what __rmqueue_smallest(HIGHATOMIC) would take */
};

/* What fentry read of one zone of the zonelist, for the tier at fexit. */
struct probe_zone {
	__u64 zone;
	long free;
	long free_cma;
	/* the highatomic pages a request without a right may not count, at
	 * entry: a high-order atomic allocation may reserve a pageblock
	 * (reserve_highatomic_pageblock()) before get_page_from_freelist()
	 * returns, and the allocator checked against the reserve before it */
	long nr_highatomic;
	/* nr_reserved_highatomic at entry, for the zone header only (on
	 * 6.1 the same as nr_highatomic) */
	long nr_reserved;
	unsigned long mark;	/* _watermark[alloc_flags & ALLOC_WMARK_MASK] */
	unsigned long boost;	/* watermark_boost, which the kernel's check adds */
	long lowmem;		/* lowmem_reserve[highest_zoneidx] */
	__u64 start_pfn;
	__u64 spanned_pages;
	/* its free lists, when the tier can depend on them: for order > 0,
	 * and where the page may come off a highatomic list. Read at entry
	 * for every zone, not only the preferred one: by fexit the page
	 * has left them, and a zone whose last block of the order it was
	 * would look as if it had none (no_level instead of none). */
	struct probe_blocks blocks;
	__u32 idx;		/* zone_idx(), from the zoneref */
};

/* What fentry saw, per CPU and interrupt context (a task's allocation can
 * be interrupted by a softirq's or a hardirq's, never by one of its own
 * context on the same CPU); fexit checks it is its own call's. */
struct probe_entry {
	__u64 pid_tgid;
	__u64 ac;		/* the alloc_context pointer, as an id */
	__u32 gfp;
	__u32 order;
	__u32 alloc_flags;
	__u32 nzones;
	__u32 highest_zoneidx;
	struct probe_zone z[GT_PROBE_ZONES];
	bool valid;
	bool late;	/* fexit took the snapshot (the entry was not this call's) */
	/* the preferred zone alone proved none at entry; the other zones
	 * were not read (probe_snapshot()) */
	bool none_first;
	/* scratch of read_span(); 8-aligned for span_word()'s 8-byte loads */
	__u8 buf[GT_SPAN_BUF] __attribute__((aligned(8)));
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, GC_NR);
	__type(key, __u32);
	__type(value, struct probe_entry);
} probe_entries SEC(".maps");

/*
 * A bpf_probe_read_kernel() costs ~210 ns a call plus ~20 ns per 8 bytes
 * here (-icount), and those calls were most of the probe source's cost
 * (docs/probe.md). So what fentry needs of a struct is read in one call:
 * the stretch [lo, lo + len) of it into buf, and span_word() takes each
 * field out of the copy. The fields taken lie inside the stretch (the
 * stretches are chosen so, and the loader checks zone_head()'s); a stretch longer than
 * buf is read field by field instead. lo and len are CO-RE constants, so
 * the verifier keeps only one of the two ways.
 */
struct span {
	__u32 lo;
	__u32 len;
};

/* Copy the stretch into buf; false if it does not fit (read by field). */
static __always_inline bool read_span(__u8 *buf, __u64 base, struct span sp)
{
	if (sp.len > GT_SPAN_BUF)
		return false;
	bpf_probe_read_kernel(buf, sp.len, (void *)(base + sp.lo));
	return true;
}

/* The 8-byte field at offset off of the struct at base: from the copy if
 * read_span() made one, else read on its own. */
static __always_inline __u64 span_word(const __u8 *buf, bool copied, __u64 base, struct span sp,
				       __u32 off)
{
	__u64 v = 0;

	if (copied)
		return *(const __u64 *)(buf + ((off - sp.lo) & (GT_SPAN_BUF - 8)));
	bpf_probe_read_kernel(&v, sizeof(v), (void *)(base + off));
	return v;
}

/* The reserve bits __zone_watermark_ok() knows (after the series,
 * ALLOC_RESERVES; before it, ALLOC_HARDER, ALLOC_HIGH and ALLOC_OOM) */
static __always_inline __u32 alloc_reserves(void)
{
	return rules.non_block | rules.min_reserve | rules.oom | rules.highatomic;
}

/* Every bit that lets a request below the min watermark on this kernel. */
static __always_inline __u32 reserve_rights(void)
{
	return alloc_reserves() | rules.no_watermarks;
}

/* Whether free MIGRATE_HIGHATOMIC blocks count for a request with these
 * flags in __zone_watermark_ok() (before: ALLOC_HARDER or ALLOC_OOM;
 * after: ALLOC_HIGHATOMIC or ALLOC_OOM). */
static __always_inline bool highatomic_counts(__u32 flags)
{
	return flags & rules.ha_counts;
}

/* Is the free list zone->free_area[o].free_list[mt] non-empty? */
static __always_inline bool list_nonempty(__u64 area, int mt, __u64 *first)
{
	__u64 head = area + bpf_core_field_offset(struct free_area, free_list) +
		     mt * bpf_core_type_size(struct list_head);
	__u64 next = 0;

	bpf_probe_read_kernel(&next, sizeof(next),
			      (void *)(head + bpf_core_field_offset(struct list_head, next)));
	if (first)
		*first = next;
	return next && next != head;
}

/* What blocks_of() looks for besides a normal block (PROBE_WANT_READ:
 * read the lists at all) */
#define PROBE_WANT_CMA		1u	/* a CMA block: only ALLOC_CMA counts one */
#define PROBE_WANT_HA		2u	/* a highatomic block, where one counts */
#define PROBE_WANT_HA_PAGE	4u	/* the page __rmqueue_smallest(HIGHATOMIC) takes */
#define PROBE_WANT_READ		8u

/*
 * Whether the tier can depend on a zone's free lists, and what of them:
 * for order > 0 (is there a block of the order), and where the page may
 * come off a highatomic list (a reserve right and, just read, a
 * highatomic reserve in the zone: with none there is no such list to
 * take from). 0: nothing to read.
 */
static __always_inline __u32 blocks_wanted(__u32 order, __u32 alloc_flags, __u64 nr_highatomic)
{
	bool right = alloc_flags & alloc_reserves();

	if (!order && !(right && nr_highatomic))
		return 0;
	return PROBE_WANT_READ | (alloc_flags & rules.cma ? PROBE_WANT_CMA : 0) |
	       (order && highatomic_counts(alloc_flags) ? PROBE_WANT_HA : 0) |
	       (right ? PROBE_WANT_HA_PAGE : 0);
}

/*
 * The zone's free lists as __zone_watermark_ok() looks at them for a
 * request of this order: is there a block of at least this order on a
 * MIGRATE_PCPTYPES list, a CMA list, a MIGRATE_HIGHATOMIC list; and
 * which page __rmqueue_smallest(zone, order, MIGRATE_HIGHATOMIC) would
 * take (the first on the smallest non-empty highatomic list), so that
 * fexit can tell the highatomic branch; each as want asks. It stops
 * once the answer cannot change.
 */
static __always_inline void blocks_of(__u64 zone, __u32 order, __u32 want, struct probe_blocks *b)
{
	__u64 areas = zone + bpf_core_field_offset(struct zone, free_area);
	__u32 area_size = bpf_core_type_size(struct free_area);
	__u32 max_order = bpf_core_field_size(struct zone, free_area) / area_size;
	int pcptypes = bpf_core_enum_value(enum migratetype, MIGRATE_PCPTYPES);
	int ha = bpf_core_enum_value(enum migratetype, MIGRATE_HIGHATOMIC);
	__u64 lru = bpf_core_field_exists(struct page, buddy_list) ?
		    bpf_core_field_offset(struct page, buddy_list) :
		    bpf_core_field_offset(struct page, lru);
	/* what was found so far and what is still looked for, as bits in
	 * registers: the verifier tracks them exactly, where flags kept in
	 * *b would read back unknown and double the paths at every order */
	__u32 need = PROBE_WANT_CMA | PROBE_WANT_HA, have = 0;
	__u64 ha_page = 0, first = 0;
	bool normal = false;

	if (migrate_cma < 0)
		need &= ~PROBE_WANT_CMA;
	/* the page __rmqueue_smallest() takes needs the highatomic list too */
	if (want & PROBE_WANT_HA_PAGE)
		want |= PROBE_WANT_HA;
	need &= want;
	for (__u32 o = 0; o < 16; o++) {
		__u64 area = areas + o * area_size, nr_free = 0;

		if (o < order || o >= max_order)
			continue;
		bpf_probe_read_kernel(&nr_free, sizeof(nr_free),
				      (void *)(area + bpf_core_field_offset(struct free_area, nr_free)));
		if (!nr_free)
			continue;
		for (int mt = 0; mt < 3 && !normal; mt++)
			if (mt < pcptypes && list_nonempty(area, mt, NULL))
				normal = true;
		if ((need & PROBE_WANT_CMA) && list_nonempty(area, migrate_cma & 7, NULL)) {
			need &= ~PROBE_WANT_CMA;
			have |= PROBE_WANT_CMA;
		}
		if ((need & PROBE_WANT_HA) && list_nonempty(area, ha, &first)) {
			need &= ~PROBE_WANT_HA;
			have |= PROBE_WANT_HA;
			if (want & PROBE_WANT_HA_PAGE)
				ha_page = first - lru;
		}
		/* a normal block settles the check (wm_ok()): only the
		 * highatomic page may still be wanted */
		if (normal && (!(need & PROBE_WANT_HA) || !(want & PROBE_WANT_HA_PAGE)))
			break;
	}
	b->normal = normal;
	b->cma = have & PROBE_WANT_CMA;
	b->highatomic = have & PROBE_WANT_HA;
	b->ha_page = ha_page;
}

/*
 * blocks_of() at entry, for each zone of the zonelist: a global
 * function, so that the verifier checks it once on its own rather than
 * once per zone and per state of the caller's loop (inlined there, the
 * kprobe program went past the verifier's 1M instructions on 6.12). b
 * may be NULL to the verifier (a global function's pointer argument).
 * Its stack adds to the caller's: fexit, with the largest frame, reads
 * inline instead (wm_inputs()).
 */
__noinline int read_blocks(__u64 zone, __u32 order, __u32 want, struct probe_blocks *b)
{
	if (b)
		blocks_of(zone, order, want, b);
	return 0;
}

/* The zone of the i-th zoneref from ref, NULL past the zonelist's end. */
static __always_inline struct zone *zoneref_zone(struct zoneref *ref, int i)
{
	struct zoneref *r = (void *)((__u64)ref + i * bpf_core_type_size(struct zoneref));

	return BPF_CORE_READ(r, zone);
}

/*
 * Of struct zone: from _watermark to spanned_pages (6.1: 136 bytes),
 * which holds every field zone_head_fields() takes (their order has
 * been the same from 4.x to 6.12). A kernel where it does not (the
 * loader's zone_head_fits) gets a length that read_span() refuses, and
 * the fields are read one by one.
 */
static __always_inline struct span zone_head(void)
{
	__u32 lo = bpf_core_field_offset(struct zone, _watermark);
	struct span sp = { lo, bpf_core_field_offset(struct zone, spanned_pages) + 8 - lo };

	if (!zone_head_fits)
		sp.len = GT_SPAN_BUF + 1;
	return sp;
}

/*
 * The head of a zone at entry: its watermark, lowmem reserve, pfn span
 * and the highatomic pages a request without a reserve right may not
 * count as free: the whole reserve up to 6.1 (nr_reserved_highatomic),
 * the free pages in it from 6.12 (nr_free_highatomic, added in 6.12's
 * __zone_watermark_unusable_free()). Under fentry/fexit the preferred
 * zone is a typed pointer (direct), and its fields direct loads, no
 * helper call; variable indices into a typed pointer are not allowed,
 * so the mark and the lowmem reserve are picked by constant ones. Other
 * zones, and every zone under kprobes, take one read of the head.
 */
static __always_inline void zone_head_fields(struct probe_entry *e, struct probe_zone *z,
					     struct zone *direct, __u64 zone, __u32 wm,
					     __u32 highest)
{
	__u32 nr_lowmem = bpf_core_field_size(struct zone, lowmem_reserve) / sizeof(long);
	/* the count the rule set subtracts (the loader checked that the
	 * kernel has it) */
	__u32 ha_off = rules.ha_unusable == GT_HA_FREE ? zone_nr_free_highatomic_off :
		       bpf_core_field_offset(struct zone, nr_reserved_highatomic);
	__u32 rsv_off = bpf_core_field_offset(struct zone, nr_reserved_highatomic);
	__u32 lowmem_off = bpf_core_field_offset(struct zone, lowmem_reserve);
	/* 0 or all ones: no branch (each would double the states the
	 * verifier walks through the tier code after it) */
	long lowmem_mask = -(long)(highest < nr_lowmem);
	struct span head = zone_head();
	__u64 *w = (__u64 *)e->buf;
	bool copied;

	z->zone = zone;
	if (direct) {
		/* the marks into w[0..3], the lowmem reserves into w[4..11],
		 * then one variable index into each (a map value, not the
		 * stack: the stack is full) */
		z->nr_highatomic = *(unsigned long *)((void *)direct + ha_off);
		/* a rodata constant: the verifier keeps one of the two */
		z->nr_reserved = rules.ha_unusable == GT_HA_FREE ?
				 *(unsigned long *)((void *)direct + rsv_off) : z->nr_highatomic;
		for (int i = 0; i < 4; i++)
			w[i] = direct->_watermark[i];
		/* by offset, kept from clang (barrier_var): folded into a
		 * CO-RE relocation of lowmem_reserve[i], an i past this
		 * kernel's MAX_NR_ZONES fails the load */
		barrier_var(lowmem_off);
		for (int i = 0; i < 8; i++)
			w[4 + i] = i < nr_lowmem ?
				   *(long *)((void *)direct + lowmem_off + i * sizeof(long)) : 0;
		z->mark = w[wm & 3];
		z->boost = direct->watermark_boost;
		z->lowmem = w[4 + (highest & 7)] & lowmem_mask;
		z->start_pfn = direct->zone_start_pfn;
		z->spanned_pages = direct->spanned_pages;
		return;
	}
	copied = read_span(e->buf, zone, head);
	z->mark = span_word(e->buf, copied, zone, head,
			    bpf_core_field_offset(struct zone, _watermark) + (wm & 3) * sizeof(long));
	z->boost = span_word(e->buf, copied, zone, head,
			     bpf_core_field_offset(struct zone, watermark_boost));
	z->lowmem = span_word(e->buf, copied, zone, head, lowmem_off + (highest & 7) * sizeof(long)) &
		    lowmem_mask;
	z->nr_highatomic = span_word(e->buf, copied, zone, head, ha_off);
	z->nr_reserved = rules.ha_unusable == GT_HA_FREE ?
			 span_word(e->buf, copied, zone, head, rsv_off) : z->nr_highatomic;
	z->start_pfn = span_word(e->buf, copied, zone, head,
				 bpf_core_field_offset(struct zone, zone_start_pfn));
	z->spanned_pages = span_word(e->buf, copied, zone, head,
				     bpf_core_field_offset(struct zone, spanned_pages));
}

/* A zone's free and free CMA pages at entry: one read of vm_stat up to
 * the later of the two (not direct: the 6.1 verifier cannot walk into
 * an array of atomic_long_t, a typedef, in a typed pointer). Clamped at
 * 0 as zone_page_state() does on SMP, which is what the watermark checks
 * read: a counter whose per-CPU diffs are not folded yet can be
 * negative. */
static __always_inline void zone_counters(struct probe_entry *e, struct probe_zone *z, __u64 zone,
					  __u32 alloc_flags)
{
	int free_item = bpf_core_enum_value(enum zone_stat_item, NR_FREE_PAGES);
	int cma_item = bpf_core_enum_value(enum zone_stat_item, NR_FREE_CMA_PAGES);
	__u32 stat = bpf_core_type_size(atomic_long_t);
	/* the free CMA pages count against a request only without
	 * ALLOC_CMA (wm_ok()); with it (movable ones, on a CMA kernel) the
	 * read stops at NR_FREE_PAGES, 8 bytes instead of 88 on 6.1. All
	 * ones or 0, no branch (see zone_head_fields()). */
	long cma_mask = -(long)!(alloc_flags & rules.cma);
	struct span stats;
	bool copied;

	stats.lo = bpf_core_field_offset(struct zone, vm_stat);
	stats.len = (free_item + 1) * stat;
	if (cma_item > free_item)
		stats.len += (cma_item - free_item) * stat & cma_mask;
	copied = read_span(e->buf, zone, stats);
	z->free = span_word(e->buf, copied, zone, stats, stats.lo + free_item * stat);
	z->free_cma = span_word(e->buf, copied, zone, stats, stats.lo + cma_item * stat) & cma_mask;
	if (z->free < 0)
		z->free = 0;
	if (z->free_cma < 0)
		z->free_cma = 0;
}

/* The inputs of __zone_watermark_ok(), for one zone and request. */
struct wm_in {
	long free;
	long free_cma;
	long nr_highatomic;
	long lowmem;
	unsigned long mark;	/* unboosted */
	__u32 order;
	struct probe_blocks blocks;
};

/* __zone_watermark_ok() of this kernel's rules, written from both trees'
 * code (see kernel-patches/README.md, "How the tier is defined"). */
static __always_inline bool wm_ok(const struct wm_in *in, __u32 flags, bool count_ha)
{
	long usable = in->free - ((1L << (in->order & 15)) - 1);
	unsigned long min = in->mark;

	if (!(flags & rules.cma))
		usable -= in->free_cma;
	if (!(flags & rules.ha_usable))
		usable -= in->nr_highatomic;
	/* the rule set's reductions of min, in its order */
	for (int i = 0; i < GT_MIN_STEPS; i++) {
		__u32 all = rules.min_step[i].all;

		if (rules.min_step[i].shift && all && (flags & all) == all &&
		    !(flags & rules.min_step[i].none))
			min -= min >> rules.min_step[i].shift;
	}
	if (usable <= (long)min + in->lowmem)
		return false;
	if (!in->order || in->blocks.normal)
		return true;
	if ((flags & rules.cma) && in->blocks.cma)
		return true;
	return count_ha && in->blocks.highatomic;
}

/*
 * Whether the preferred zone alone settles the tier: its none level
 * passes for this request against the boosted mark (wm_ok() with every
 * right stripped; its free lists read first where the tier can depend
 * on them). Most allocations are far above every mark. The kernel's own
 * check (boosted: zone_watermark_fast()) then passes too, so the page
 * comes from this zone, and its tier is what the full snapshot would
 * derive (none, or highatomic if it is the zone's ha_page): the zones
 * after it need not be read at all. With the unboosted mark a boosted
 * zone would pass here and fail in the kernel, which goes on to the next
 * zone. A page from another zone all the same (rmqueue() failed after
 * the check, a zone skipped for its dirty limit or cpuset) is caught at
 * fexit, which then takes the whole snapshot (probe_return()).
 */
static __always_inline bool first_is_none(struct probe_entry *e, __u32 order, __u32 alloc_flags)
{
	struct probe_zone *z = &e->z[0];
	__u32 want = blocks_wanted(order, alloc_flags, z->nr_highatomic);
	struct wm_in in = {
		.free = z->free,
		.free_cma = z->free_cma,
		.nr_highatomic = z->nr_highatomic,
		.lowmem = z->lowmem,
		.mark = z->mark + z->boost,
		.order = order,
	};

	__builtin_memset(&z->blocks, 0, sizeof(z->blocks));
	if (want)
		read_blocks(z->zone, order, want, &z->blocks);
	in.blocks = z->blocks;
	return wm_ok(&in, alloc_flags & ~reserve_rights(), false);
}

/*
 * At fentry, the preferred zone through the typed pointers alone: its
 * head by direct loads and its counters in one read, without the read of
 * the zonerefs (a helper call, ~370 ns), for a request that needs none of
 * its free lists (order 0, no highatomic page to take: most of them)
 * when that zone proves none (first_is_none()). read_blocks() needs the
 * zone as a number, which only the zonerefs read gives; so with free
 * lists to read, or when the zone does not prove none, the full
 * snapshot follows and reads this zone again. A NULL zone (an empty
 * zonelist) reads as zeros and does not prove none.
 */
static __always_inline bool first_direct(struct probe_entry *e, struct zoneref *pref,
					 __u32 order, __u32 alloc_flags, __u32 wm, __u32 highest)
{
	struct zone *zone = pref->zone;
	struct probe_zone *z = &e->z[0];

	zone_head_fields(e, z, zone, 0, wm, highest);
	if (blocks_wanted(order, alloc_flags, z->nr_highatomic))
		return false;
	zone_counters(e, z, (__u64)zone, alloc_flags);
	z->idx = pref->zone_idx;
	if (!first_is_none(e, order, alloc_flags))
		return false;
	e->none_first = true;
	e->nzones = 1;
	return true;
}

/*
 * Snapshot at entry, for the tier and everything fexit needs: of the
 * first GT_PROBE_ZONES zones the allocator may try (one read of their
 * zonerefs), the head and the counters of each (zone_head_fields(),
 * zone_counters()), and each one's free lists when the tier needs them
 * (order > 0), or when the page may come off a highatomic list (a
 * reserve right and a highatomic reserve in the zone): the kernel can
 * take a highatomic page in any zone it tries, not only the preferred
 * one; only the preferred zone's when it proves none (first_is_none()).
 * btf: ac is a typed pointer (fentry/fexit).
 */
static __always_inline void probe_snapshot(struct probe_entry *e, const struct alloc_context *ac,
					   __u32 order, __u32 alloc_flags, bool btf, bool at_entry)
{
	__u32 ref_size = bpf_core_type_size(struct zoneref);
	struct span refs = { 0, GT_PROBE_ZONES * ref_size };
	__u32 zone_off = bpf_core_field_offset(struct zoneref, zone);
	__u32 idx_off = bpf_core_field_offset(struct zoneref, zone_idx);
	struct zoneref *pref = KREAD(btf, ac, preferred_zoneref);
	__u32 n = 0, highest = KREAD(btf, ac, highest_zoneidx);
	__u32 wm = alloc_flags & rules.wmark_mask;
	__u64 zones[GT_PROBE_ZONES], ref = (__u64)pref;
	__u32 idx[GT_PROBE_ZONES];
	bool copied;

	e->highest_zoneidx = highest;
	e->none_first = false;
	if (btf && at_entry && first_direct(e, pref, order, alloc_flags, wm, highest))
		return;
	/* the zonerefs from the preferred one, GT_PROBE_ZONES of them; the
	 * read may pass the zonelist's end, but is used only up to its NULL
	 * zone (an int zone_idx: the low half of its word on x86) */
	copied = read_span(e->buf, ref, refs);
	for (int i = 0; i < GT_PROBE_ZONES; i++) {
		__u32 at = i * ref_size;

		zones[i] = span_word(e->buf, copied, ref, refs, at + zone_off);
		idx[i] = span_word(e->buf, copied, ref, refs, at + (idx_off & ~7u)) >>
			 (idx_off & 4) * 8;
	}
	for (int i = 0; i < GT_PROBE_ZONES; i++) {
		if (!zones[i])
			break;
		zone_head_fields(e, &e->z[i], btf && i == 0 ? pref->zone : NULL, zones[i], wm,
				 highest);
		zone_counters(e, &e->z[i], zones[i], alloc_flags);
		e->z[i].idx = idx[i];
		n = i + 1;
		if (i == 0 && at_entry && first_is_none(e, order, alloc_flags)) {
			e->none_first = true;
			break;
		}
	}
	e->nzones = n;
	/*
	 * a loop, not four copies of the call: read_blocks() is checked once
	 * on its own, and this stays small. A snapshot taken at fexit (late:
	 * probe.late counts them) does not read them: the page has left
	 * them by then, and fexit's frame leaves no stack for the call. Its
	 * zones are taken to have a normal block of the order (the usual
	 * case), so that only the watermark arithmetic decides, and no
	 * highatomic page is recognised.
	 */
#pragma clang loop unroll(disable)
	for (__u32 i = 0; i < GT_PROBE_ZONES; i++) {
		struct probe_zone *z = &e->z[i];
		__u32 want = blocks_wanted(order, alloc_flags, z->nr_highatomic);

		if (i >= n)
			break;
		/* (at entry, first_is_none() read the preferred zone's) */
		if (i == 0 && at_entry)
			continue;
		__builtin_memset(&z->blocks, 0, sizeof(z->blocks));
		if (!at_entry)
			z->blocks.normal = true;
		else if (want)
			read_blocks(z->zone, order, want, &z->blocks);
	}
}

/* The vmemmap base page_pfn() found: set at boot (KASLR) and never
 * changed, so read once, not in every fexit (a helper call, ~200 ns). */
__u64 gt_vmemmap_base_seen = 0;

/* pfn of a struct page under SPARSEMEM_VMEMMAP (every x86_64 kernel).
 * Without vmemmap_base in kallsyms the layout is the fixed one, and the
 * page's own address says which (the L4 area lies above the L5 one). */
static __always_inline __u64 page_pfn(__u64 page)
{
	__u64 base = gt_vmemmap_base_seen;

	if (!base) {
		base = page >= GT_VMEMMAP_BASE_L4 ? GT_VMEMMAP_BASE_L4 : GT_VMEMMAP_BASE_L5;
		if (&vmemmap_base)
			bpf_probe_read_kernel(&base, sizeof(base), &vmemmap_base);
		gt_vmemmap_base_seen = base;
	}
	return (page - base) / bpf_core_type_size(struct page);
}

/* Index in e->z[] of the zone whose pfn span holds pfn, or -1. */
static __always_inline int zone_of_pfn(const struct probe_entry *e, __u64 pfn)
{
	for (int i = 0; i < GT_PROBE_ZONES; i++) {
		const struct probe_zone *z = &e->z[i];

		if (i >= e->nzones)
			break;
		if (pfn >= z->start_pfn && pfn < z->start_pfn + z->spanned_pages)
			return i;
	}
	return -1;
}

/* One level: the request holds all of its bits; checked with every other
 * right stripped. */
#define TRY_LEVEL(bits, tier)						\
	do {								\
		if ((flags & (bits)) == (bits) && wm_ok(in, base | (bits), false)) \
			return tier;					\
	} while (0)

/* The watermark tier (GT_* index) of a request with these alloc_flags. */
static __always_inline __u32 derive_watermark_tier(const struct wm_in *in, __u32 flags)
{
	__u32 base = flags & ~reserve_rights();

	TRY_LEVEL(0, GT_NONE);
	TRY_LEVEL(rules.non_block, GT_NON_BLOCK);
	TRY_LEVEL(rules.min_reserve, GT_MIN_RESERVE);
	TRY_LEVEL(rules.min_reserve | rules.non_block, GT_MIN_RESERVE_NON_BLOCK);
	TRY_LEVEL(rules.oom, GT_OOM);
	if (in->order && highatomic_counts(flags) && wm_ok(in, flags, true))
		return GT_HIGHATOMIC_COUNTED;
	if (flags & rules.no_watermarks)
		return GT_NO_WATERMARKS;
	return GT_NO_LEVEL;
}
#undef TRY_LEVEL

/* ---- the programs: get_page_from_freelist(), on any kernel ---- */

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

/* Whether e is the entry snapshot of this call: the same task's and,
 * where fexit has the call's arguments (have_args), the same call's. */
static __always_inline bool probe_mine(const struct probe_entry *e, const struct alloc_context *ac,
				       __u32 gfp, __u32 order, __u32 alloc_flags, bool have_args)
{
	bool mine = e->valid && e->pid_tgid == bpf_get_current_pid_tgid();

	if (have_args)
		mine = mine && e->ac == (__u64)ac && e->gfp == gfp && e->order == order &&
		       e->alloc_flags == alloc_flags;
	return mine;
}

/*
 * What fexit counts of the call whose snapshot e holds, which returned
 * page (at pfn): the zone the page came from, found by its pfn span, and
 * the tier derived on that zone's snapshot.
 */
static __always_inline void probe_rec(struct gt_cpu *cpu, const struct probe_entry *e, __u64 page,
				      __u64 pfn, struct alloc_rec *r)
{
	int zi = zone_of_pfn(e, pfn);
	struct wm_in in;

	if (zi < 0) {
		cpu->c.stat[GS_PROBE_NO_ZONE]++;
		zi = 0;
	}
	wm_inputs(e, zi, &in);
	r->zone_idx = e->z[zi & (GT_PROBE_ZONES - 1)].idx;
	/* the tracepoint notes them in shadow mode; 6.12's nr_highatomic
	 * is nr_free_highatomic (zone_head_fields()) */
	if (!probe_shadow)
		note_zone_ha(cpu, r->zone_idx, e->z[zi & (GT_PROBE_ZONES - 1)].nr_reserved,
			     in.nr_highatomic, rules.ha_unusable == GT_HA_FREE ?
			     GT_ZHA_RESERVED | GT_ZHA_FREE : GT_ZHA_RESERVED);
	r->order = e->order;
	r->gfp_flags = e->gfp;
	r->watermark_tier = derive_watermark_tier(&in, e->alloc_flags);
	/* the highatomic branch took the page __rmqueue_smallest() would,
	 * in whichever zone served it */
	r->tier = in.blocks.ha_page && page == in.blocks.ha_page ? GT_HIGHATOMIC : r->watermark_tier;
	r->free_pages = in.free;
	r->watermark = in.mark;
	r->have_levels = true;
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
	__u32 k = 0, x;
	__u64 pfn;
	bool mine;

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
	mine = probe_mine(e, ac, gfp, order, alloc_flags, have_args);
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

	probe_rec(cpu, e, page, pfn, &r);
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

#endif /* GFPTOP_PROBE_BPF_H */
