/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel types gfptop's BPF programs read, and nothing else: what a
 * vmlinux.h dumped from a kernel's BTF would give them, without needing a
 * built kernel to compile (the libbpf-tools / libbpf-bootstrap way of
 * shipping a minimal header).
 *
 * Every struct and union is preserve_access_index: clang records each
 * field access as a CO-RE relocation, and libbpf resolves offsets, sizes
 * and enum values against the running kernel's BTF at load time. So only
 * names matter here: a struct lists just the fields read, and field
 * order, array sizes and enum values are for the reader. Array sizes and
 * values are those of Linux 6.1 on x86_64 with Debian 12's config
 * (ZONE_DMA, ZONE_DEVICE, CMA, MEMORY_ISOLATION, ZSMALLOC, NUMA with
 * NODES_SHIFT 10); the guest kernels (guest/kernel.config) have fewer
 * (MIGRATE_TYPES 4, no ZONE_DMA), which CO-RE takes care of. Code must
 * not use sizeof() of these types or constants from them where the
 * kernel's value matters: bpf_core_type_size(), bpf_core_field_size()
 * and bpf_core_enum_value() give the kernel's.
 *
 * Checked against the kernel: tests/run's builds suite runs
 * tests/core-relocs, which resolves every CO-RE relocation of the BPF
 * object against the after and before kernels' BTF on the host (nothing
 * loaded); the guest tests load the programs, which fails on a field
 * the kernel lacks.
 *
 * Names come from: include/linux/mmzone.h, mm_types.h, sched.h,
 * nodemask.h, mm/internal.h (struct alloc_context),
 * arch/x86/include/asm/ptrace.h (struct pt_regs, for BPF_KPROBE and
 * PT_REGS_* with __TARGET_ARCH_x86), and include/trace/events/kmem.h of
 * kernel-patches/ (the page_alloc_tier types).
 */
#ifndef GFPTOP_KERNEL_TYPES_H
#define GFPTOP_KERNEL_TYPES_H

/*
 * This header stands in for vmlinux.h, and says so the way vmlinux.h
 * does: bpf_tracing.h then takes the kernel's struct pt_regs field names
 * (di, not the uapi rdi), and gfptop_abi.h skips <linux/types.h>.
 */
#define __VMLINUX_H__

/* ---- basic types (include/uapi/asm-generic/int-ll64.h, linux/types.h) ---- */
typedef signed char __s8;
typedef unsigned char __u8;
typedef short __s16;
typedef unsigned short __u16;
typedef int __s32;
typedef unsigned int __u32;
typedef long long __s64;
typedef unsigned long long __u64;
typedef __s8 s8;
typedef __u8 u8;
typedef __s16 s16;
typedef __u16 u16;
typedef __s32 s32;
typedef __u32 u32;
typedef __s64 s64;
typedef __u64 u64;
typedef __u16 __be16;
typedef __u32 __be32;
typedef __u32 __wsum;

typedef _Bool bool;
enum {
	false = 0,
	true = 1,
};

typedef int pid_t;
typedef unsigned int gfp_t;
typedef long unsigned int size_t;
typedef long int ssize_t;
typedef long unsigned int uintptr_t;

/* ---- the BPF uapi constants the maps use (include/uapi/linux/bpf.h);
 * ABI values, not relocated: map types and update flags ---- */
enum bpf_map_type {
	BPF_MAP_TYPE_UNSPEC = 0,
	BPF_MAP_TYPE_HASH = 1,
	BPF_MAP_TYPE_ARRAY = 2,
	BPF_MAP_TYPE_PERCPU_HASH = 5,
	BPF_MAP_TYPE_PERCPU_ARRAY = 6,
	BPF_MAP_TYPE_CGROUP_ARRAY = 8,
	BPF_MAP_TYPE_LRU_HASH = 9,
	BPF_MAP_TYPE_LRU_PERCPU_HASH = 10,
	BPF_MAP_TYPE_RINGBUF = 27,
};

enum {
	BPF_ANY = 0,
	BPF_NOEXIST = 1,
	BPF_EXIST = 2,
};

#pragma clang attribute push(__attribute__((preserve_access_index)), apply_to = record)

/* ---- lists and atomics ---- */
struct list_head {
	struct list_head *next;
	struct list_head *prev;
};

typedef struct {
	s64 counter;
} atomic64_t;

typedef atomic64_t atomic_long_t;

/* ---- x86_64 registers, for BPF_KPROBE/BPF_KRETPROBE (bpf_tracing.h) ---- */
struct pt_regs {
	long unsigned int r15;
	long unsigned int r14;
	long unsigned int r13;
	long unsigned int r12;
	long unsigned int bp;
	long unsigned int bx;
	long unsigned int r11;
	long unsigned int r10;
	long unsigned int r9;
	long unsigned int r8;
	long unsigned int ax;
	long unsigned int cx;
	long unsigned int dx;
	long unsigned int si;
	long unsigned int di;
	long unsigned int orig_ax;
	long unsigned int ip;
	long unsigned int cs;
	long unsigned int flags;
	long unsigned int sp;
	long unsigned int ss;
};

/* ---- tasks (include/linux/sched.h) ---- */
#define TASK_COMM_LEN 16

struct task_struct {
	unsigned int flags;
	pid_t pid;
	pid_t tgid;
	__u64 self_exec_id;	/* +1 on every exec() */
	char comm[TASK_COMM_LEN];
};

/* ---- pages (include/linux/mm_types.h): the free-list link ---- */
struct page {
	long unsigned int flags;
	union {
		struct list_head lru;
		struct list_head buddy_list;	/* 6.1+; a free page's link */
		struct list_head pcp_list;
	};
};

/* ---- zones and nodes (include/linux/mmzone.h) ---- */
enum migratetype {
	MIGRATE_UNMOVABLE = 0,
	MIGRATE_MOVABLE = 1,
	MIGRATE_RECLAIMABLE = 2,
	MIGRATE_PCPTYPES = 3,
	MIGRATE_HIGHATOMIC = 3,
	MIGRATE_CMA = 4,		/* CONFIG_CMA */
	MIGRATE_ISOLATE = 5,		/* CONFIG_MEMORY_ISOLATION */
	MIGRATE_TYPES = 6,
};

enum zone_stat_item {
	NR_FREE_PAGES = 0,
	NR_ZONE_LRU_BASE = 1,
	NR_ZONE_INACTIVE_ANON = 1,
	NR_ZONE_ACTIVE_ANON = 2,
	NR_ZONE_INACTIVE_FILE = 3,
	NR_ZONE_ACTIVE_FILE = 4,
	NR_ZONE_UNEVICTABLE = 5,
	NR_ZONE_WRITE_PENDING = 6,
	NR_MLOCK = 7,
	NR_BOUNCE = 8,
	NR_ZSPAGES = 9,			/* CONFIG_ZSMALLOC */
	NR_FREE_CMA_PAGES = 10,
	NR_VM_ZONE_STAT_ITEMS = 11,
};

enum zone_watermarks {
	WMARK_MIN = 0,
	WMARK_LOW = 1,
	WMARK_HIGH = 2,
	WMARK_PROMO = 3,
	NR_WMARK = 4,
};

enum zone_type {
	ZONE_DMA = 0,			/* CONFIG_ZONE_DMA */
	ZONE_DMA32 = 1,
	ZONE_NORMAL = 2,
	ZONE_MOVABLE = 3,
	ZONE_DEVICE = 4,		/* CONFIG_ZONE_DEVICE */
	__MAX_NR_ZONES = 5,
};

#define MAX_NR_ZONES 5
#define MAX_ORDER 11
#define MAX_NUMNODES (1 << 10)
#define MAX_ZONES_PER_ZONELIST (MAX_NUMNODES * MAX_NR_ZONES)

typedef struct {
	long unsigned int bits[MAX_NUMNODES / 64];
} nodemask_t;

struct free_area {
	struct list_head free_list[MIGRATE_TYPES];
	long unsigned int nr_free;
};

struct pglist_data;

struct zone {
	long unsigned int _watermark[NR_WMARK];
	long unsigned int watermark_boost;
	long unsigned int nr_reserved_highatomic;
	long int lowmem_reserve[MAX_NR_ZONES];
	struct pglist_data *zone_pgdat;
	long unsigned int zone_start_pfn;
	long unsigned int spanned_pages;
	struct free_area free_area[MAX_ORDER];
	atomic_long_t vm_stat[NR_VM_ZONE_STAT_ITEMS];
};

struct zoneref {
	struct zone *zone;
	int zone_idx;
};

struct zonelist {
	struct zoneref _zonerefs[MAX_ZONES_PER_ZONELIST + 1];
};

typedef struct pglist_data {
	struct zone node_zones[MAX_NR_ZONES];
	long unsigned int node_start_pfn;
	long unsigned int node_spanned_pages;
	int node_id;
} pg_data_t;

/* ---- the page allocator's request (mm/internal.h) ---- */
struct alloc_context {
	struct zonelist *zonelist;
	nodemask_t *nodemask;
	struct zoneref *preferred_zoneref;
	int migratetype;
	enum zone_type highest_zoneidx;
	bool spread_dirty_pages;
};

/* ---- gfptop's tracepoints (kernel-patches/: include/trace/events/kmem.h) ---- */
enum page_alloc_tier {
	PAGE_ALLOC_TIER_NONE = 0,
	PAGE_ALLOC_TIER_NON_BLOCK = 1,
	PAGE_ALLOC_TIER_MIN_RESERVE = 2,
	PAGE_ALLOC_TIER_MIN_RESERVE_NON_BLOCK = 3,
	PAGE_ALLOC_TIER_OOM = 4,
	PAGE_ALLOC_TIER_NO_WATERMARKS = 5,
	PAGE_ALLOC_TIER_HIGHATOMIC = 6,
	PAGE_ALLOC_TIER_HIGHATOMIC_COUNTED = 7,
	PAGE_ALLOC_TIER_NO_LEVEL = 8,
	NR_PAGE_ALLOC_TIERS = 9,
};

enum page_alloc_source {
	PAGE_ALLOC_SOURCE_PCP = 0,
	PAGE_ALLOC_SOURCE_BUDDY = 1,
	PAGE_ALLOC_SOURCE_HIGHATOMIC = 2,
	PAGE_ALLOC_SOURCE_HIGHATOMIC_FALLBACK = 3,
};

struct page_alloc_tier_snapshot {
	long int free_pages;
	long int free_cma_pages;
	long unsigned int watermark;
	long unsigned int boost;
	long int lowmem_reserve;
	long unsigned int nr_reserved_highatomic;
	long unsigned int nr_free_highatomic;	/* 6.12 only: read by offset */
	int highest_zoneidx;
	unsigned int free_blocks;
	enum page_alloc_source source;
	bool highatomic_block;
	enum page_alloc_tier watermark_tier;
	enum page_alloc_tier tier;
};

#pragma clang attribute pop

#endif /* GFPTOP_KERNEL_TYPES_H */
