/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The probe source's half of gfptop (gfptop.bpf.c includes it): derive an
 * allocation's reserve tier on a kernel without the gfptop tracepoints,
 * from fentry/fexit (or kprobe/kretprobe) on get_page_from_freelist().
 *
 * The tier is the one kernel-patches/README.md defines and the
 * tracepoint computes in the kernel; here it is recomputed from the zone's
 * counters, read with CO-RE. ALLOC_* values are #defines, not in BTF:
 * the loader sets them (user/krules.c) for the rules of the running kernel
 * before load. Everything that differs from the tracepoint is a read at a
 * different moment; the loader counts each kind in a GS_PROBE_* stat.
 */
#ifndef GFPTOP_DERIVE_BPF_H
#define GFPTOP_DERIVE_BPF_H

/* The running kernel's ALLOC_* bits and rules (rodata, set by the loader). */
const volatile bool rules_before = false;	/* pre-series __zone_watermark_ok() */
const volatile __u32 alloc_wmark_mask = 0x03;
const volatile __u32 alloc_no_watermarks = 0x04;
const volatile __u32 alloc_oom = 0x08;
const volatile __u32 alloc_non_block = 0x10;	/* ALLOC_HARDER before the series */
const volatile __u32 alloc_min_reserve = 0x20;	/* ALLOC_HIGH before the series */
const volatile __u32 alloc_cma = 0x80;
const volatile __u32 alloc_highatomic = 0x200;	/* 0: the kernel has no such bit */

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

/* Zones of the zonelist looked at, from the preferred one on. */
#define GT_PROBE_ZONES 4

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
	__u64 zone[GT_PROBE_ZONES];
	long free[GT_PROBE_ZONES];
	long free_cma[GT_PROBE_ZONES];
	/* the highatomic pages a request without a right may not count, at
	 * entry: a high-order atomic allocation may reserve a pageblock
	 * (reserve_highatomic_pageblock()) before get_page_from_freelist()
	 * returns, and the allocator checked against the reserve before it */
	long nr_highatomic[GT_PROBE_ZONES];
	/* free lists of the preferred zone (zone[0]) at entry */
	struct probe_blocks {
		bool normal;	/* a block >= order on a MIGRATE_PCPTYPES list */
		bool cma;
		bool highatomic;
		__u64 ha_page;	/* what __rmqueue_smallest(HIGHATOMIC) would take */
	} blocks;
	bool valid;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, GC_NR);
	__type(key, __u32);
	__type(value, struct probe_entry);
} probe_entries SEC(".maps");

/* The reserve bits __zone_watermark_ok() knows (after the series,
 * ALLOC_RESERVES; before it, ALLOC_HARDER, ALLOC_HIGH and ALLOC_OOM) */
static __always_inline __u32 alloc_reserves(void)
{
	return alloc_non_block | alloc_min_reserve | alloc_oom | alloc_highatomic;
}

/* Every bit that lets a request below the min watermark on this kernel. */
static __always_inline __u32 reserve_rights(void)
{
	return alloc_reserves() | alloc_no_watermarks;
}

/* Whether free MIGRATE_HIGHATOMIC blocks count for a request with these
 * flags in __zone_watermark_ok() (before: ALLOC_HARDER or ALLOC_OOM). */
static __always_inline bool highatomic_counts(__u32 flags)
{
	return flags & ((rules_before ? alloc_non_block : alloc_highatomic) | alloc_oom);
}

/* The highatomic pages a request without a reserve right may not count as
 * free: the whole reserve up to 6.1 (nr_reserved_highatomic), the free
 * pages in it from 6.12 (nr_free_highatomic, added in 6.12's
 * __zone_watermark_unusable_free()). */
static __always_inline long unusable_highatomic(struct zone *zone)
{
	unsigned long v = 0;

	if (!zone_nr_free_highatomic_off)
		return BPF_CORE_READ(zone, nr_reserved_highatomic);
	bpf_probe_read_kernel(&v, sizeof(v), (void *)zone + zone_nr_free_highatomic_off);
	return v;
}

static __always_inline long zone_stat(__u64 zone, int item)
{
	atomic_long_t *vm_stat = (void *)(zone + bpf_core_field_offset(struct zone, vm_stat));

	return BPF_CORE_READ(vm_stat + item, counter);
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

/*
 * The zone's free lists as __zone_watermark_ok() looks at them for a
 * request of this order: is there a block of at least this order on a
 * MIGRATE_PCPTYPES list, a CMA list, a MIGRATE_HIGHATOMIC list; and, if
 * want_ha_page, which page __rmqueue_smallest(zone, order,
 * MIGRATE_HIGHATOMIC) would take (the first on the smallest non-empty
 * highatomic list), so that fexit can tell the highatomic branch.
 */
static __always_inline void read_blocks(__u64 zone, __u32 order, bool want_ha_page,
					struct probe_blocks *b)
{
	__u64 areas = zone + bpf_core_field_offset(struct zone, free_area);
	__u32 area_size = bpf_core_type_size(struct free_area);
	__u32 max_order = bpf_core_field_size(struct zone, free_area) / area_size;
	int pcptypes = bpf_core_enum_value(enum migratetype, MIGRATE_PCPTYPES);
	int ha = bpf_core_enum_value(enum migratetype, MIGRATE_HIGHATOMIC);
	__u64 lru = bpf_core_field_exists(struct page, buddy_list) ?
		    bpf_core_field_offset(struct page, buddy_list) :
		    bpf_core_field_offset(struct page, lru);

	__builtin_memset(b, 0, sizeof(*b));
	for (__u32 o = 0; o < 16; o++) {
		__u64 area = areas + o * area_size, nr_free = 0, first;

		if (o < order || o >= max_order)
			continue;
		bpf_probe_read_kernel(&nr_free, sizeof(nr_free),
				      (void *)(area + bpf_core_field_offset(struct free_area, nr_free)));
		if (!nr_free)
			continue;
		for (int mt = 0; mt < 3; mt++)
			if (mt < pcptypes && !b->normal && list_nonempty(area, mt, NULL))
				b->normal = true;
		if (migrate_cma >= 0 && !b->cma)
			b->cma = list_nonempty(area, migrate_cma & 7, NULL);
		if (!b->highatomic && list_nonempty(area, ha, &first)) {
			b->highatomic = true;
			if (want_ha_page)
				b->ha_page = first - lru;
		}
		if (b->normal && b->highatomic)
			break;
	}
}

/* The zone of the i-th zoneref from ref, NULL past the zonelist's end. */
static __always_inline struct zone *zoneref_zone(struct zoneref *ref, int i)
{
	struct zoneref *r = (void *)((__u64)ref + i * bpf_core_type_size(struct zoneref));

	return BPF_CORE_READ(r, zone);
}

/*
 * Snapshot at entry: free pages of the first GT_PROBE_ZONES zones the
 * allocator may try, and the preferred zone's free lists when the tier
 * needs them (order > 0), or when the page may come off a highatomic list
 * (a reserve right and a highatomic reserve in the zone).
 */
static __always_inline void probe_snapshot(struct probe_entry *e, const struct alloc_context *ac,
					   __u32 order, __u32 alloc_flags)
{
	struct zoneref *ref = BPF_CORE_READ(ac, preferred_zoneref);
	int free_item = bpf_core_enum_value(enum zone_stat_item, NR_FREE_PAGES);
	int cma_item = bpf_core_enum_value(enum zone_stat_item, NR_FREE_CMA_PAGES);
	__u32 n = 0;

	for (int i = 0; i < GT_PROBE_ZONES; i++) {
		__u64 zone = (__u64)zoneref_zone(ref, i);

		if (!zone)
			break;
		e->zone[i] = zone;
		e->free[i] = zone_stat(zone, free_item);
		e->free_cma[i] = zone_stat(zone, cma_item);
		e->nr_highatomic[i] = unusable_highatomic((struct zone *)zone);
		n = i + 1;
	}
	e->nzones = n;
	__builtin_memset(&e->blocks, 0, sizeof(e->blocks));
	if (n) {
		bool right = alloc_flags & alloc_reserves();

		/* (the reserve just read: with none there is no highatomic list
		 * to take from) */
		if (order || (right && e->nr_highatomic[0]))
			read_blocks(e->zone[0], order, right, &e->blocks);
	}
}

/* pfn of a struct page under SPARSEMEM_VMEMMAP (every x86_64 kernel).
 * Without vmemmap_base in kallsyms the layout is the fixed one, and the
 * page's own address says which (the L4 area lies above the L5 one). */
static __always_inline __u64 page_pfn(__u64 page)
{
	__u64 base = page >= GT_VMEMMAP_BASE_L4 ? GT_VMEMMAP_BASE_L4 : GT_VMEMMAP_BASE_L5;

	if (&vmemmap_base)
		bpf_probe_read_kernel(&base, sizeof(base), &vmemmap_base);
	return (page - base) / bpf_core_type_size(struct page);
}

/* Index in e->zone[] of the zone whose pfn span holds pfn, or -1. */
static __always_inline int zone_of_pfn(const struct probe_entry *e, __u64 pfn)
{
	for (int i = 0; i < GT_PROBE_ZONES; i++) {
		struct zone *z = (void *)e->zone[i];
		__u64 start, span;

		if (i >= e->nzones)
			break;
		start = BPF_CORE_READ(z, zone_start_pfn);
		span = BPF_CORE_READ(z, spanned_pages);
		if (pfn >= start && pfn < start + span)
			return i;
	}
	return -1;
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

	if (!(flags & alloc_cma))
		usable -= in->free_cma;
	if (rules_before) {
		if (!(flags & (alloc_non_block | alloc_oom)))
			usable -= in->nr_highatomic;
		if (flags & alloc_min_reserve)
			min -= min >> 1;
		if (flags & alloc_oom)
			min -= min >> 1;
		else if (flags & alloc_non_block)
			min -= min >> 2;
	} else {
		if (!(flags & alloc_reserves()))
			usable -= in->nr_highatomic;
		if (flags & alloc_min_reserve) {
			min -= min >> 1;
			if (flags & alloc_non_block)
				min -= min >> 2;
		}
		if (flags & alloc_oom)
			min -= min >> 1;
	}
	if (usable <= (long)min + in->lowmem)
		return false;
	if (!in->order || in->blocks.normal)
		return true;
	if ((flags & alloc_cma) && in->blocks.cma)
		return true;
	return count_ha && in->blocks.highatomic;
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
	TRY_LEVEL(alloc_non_block, GT_NON_BLOCK);
	TRY_LEVEL(alloc_min_reserve, GT_MIN_RESERVE);
	TRY_LEVEL(alloc_min_reserve | alloc_non_block, GT_MIN_RESERVE_NON_BLOCK);
	TRY_LEVEL(alloc_oom, GT_OOM);
	if (in->order && highatomic_counts(flags) && wm_ok(in, flags, true))
		return GT_HIGHATOMIC_COUNTED;
	if (flags & alloc_no_watermarks)
		return GT_NO_WATERMARKS;
	return GT_NO_LEVEL;
}
#undef TRY_LEVEL

#endif /* GFPTOP_DERIVE_BPF_H */
