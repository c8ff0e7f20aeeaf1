/* See kcheck.h. */
#define _GNU_SOURCE
#include "kcheck.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/btf.h>

#include "names.h"
#include "tpformat.h"

int kcheck_btf(char *msg, size_t len)
{
	if (access(KCHECK_BTF_PATH, R_OK) == 0)
		return 0;
	snprintf(msg, len, "kernel BTF missing (%s: %s): boot a kernel built with "
		 "CONFIG_DEBUG_INFO_BTF=y", KCHECK_BTF_PATH, strerror(errno));
	return -1;
}

static const char *const events[] = {
	"mm_page_alloc_tier",
	"mm_page_alloc_reserve_fail",
	"mm_reserve_highatomic",
	"mm_unreserve_highatomic",
};

/* btf__parse_raw, not btf__load_vmlinux_btf: the latter warns twice
 * through libbpf and then reports the errno of its last fallback path
 * (ESRCH), so a broken file read "No such process". The parser's own
 * complaints are libbpf debug messages: with -v. */
struct btf *kcheck_load_btf_file(const char *path, char *msg, size_t len)
{
	struct btf *btf = btf__parse_raw(path);
	int e = errno;

	if (btf)
		return btf;
	if (e == ENOENT || e == EACCES || e == EPERM || e == EISDIR)
		snprintf(msg, len, "cannot read kernel BTF (%s): %s", path, strerror(e));
	else
		snprintf(msg, len, "kernel BTF %s is not valid BTF (%s): boot a kernel built "
			 "with CONFIG_DEBUG_INFO_BTF=y", path, strerror(e));
	return NULL;
}

struct btf *kcheck_load_btf(char *msg, size_t len)
{
	return kcheck_load_btf_file(KCHECK_BTF_PATH, msg, len);
}

/* The members of struct page_alloc_tier_snapshot that gfptop.bpf.c's
 * read_snap() reads: every version of the patches has them (6.12's
 * nr_free_highatomic is optional, by offset). */
static const char *const snap_members[] = {
	"free_pages", "watermark", "nr_reserved_highatomic", "source", "highatomic_block",
	"watermark_tier", "tier",
};

int kcheck_tracepoints(const struct btf *btf, int64_t tier_values[GT_NR], char *msg, size_t len)
{
	long long v;

	/* a tracepoint the kernel has shows up in BTF as btf_trace_NAME */
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		if (!kcheck_has_tracepoint(btf, events[i])) {
			snprintf(msg, len, "this kernel lacks the kmem:%s tracepoint: boot a kernel "
				 "with the gfptop patches (kernel-patches/)", events[i]);
			return -1;
		}
	}
	/* the mm_page_alloc_tier that passes its snapshot (an older version
	 * of the patches passed free_pages, mark and tier as arguments) */
	if (btf__find_by_name_kind(btf, "page_alloc_tier_snapshot", BTF_KIND_STRUCT) < 0) {
		snprintf(msg, len, "this kernel's kmem:mm_page_alloc_tier is an older version "
			 "(no struct page_alloc_tier_snapshot): rebuild it with the current "
			 "kernel-patches/");
		return -1;
	}
	/* BPF reads these without bpf_core_field_exists() (read_snap()) */
	for (size_t i = 0; i < sizeof(snap_members) / sizeof(snap_members[0]); i++) {
		if (kcheck_member_offset(btf, "page_alloc_tier_snapshot", snap_members[i]) < 0) {
			snprintf(msg, len, "this kernel's kmem:mm_page_alloc_tier is an older "
				 "version (its snapshot has no %s): rebuild it with the current "
				 "kernel-patches/", snap_members[i]);
			return -1;
		}
	}
	for (int t = 0; tier_values && t < GT_NR; t++)
		if (t >= GT_NR_TIERS || !tier_kernel_names[t] ||
		    kcheck_enum_value(btf, "page_alloc_tier", tier_kernel_names[t], &v))
			tier_values[t] = -1;
		else
			tier_values[t] = v;
	return 0;
}

void kcheck_tier_map(const int64_t tier_values[GT_NR], uint8_t map[GT_NR])
{
	for (int v = 0; v < GT_NR; v++)
		map[v] = GT_UNKNOWN;
	for (int t = 0; t < GT_UNKNOWN; t++)
		if (tier_values[t] >= 0 && tier_values[t] < GT_NR)
			map[tier_values[t]] = (uint8_t)t;
}

bool kcheck_has_tracepoint(const struct btf *btf, const char *event)
{
	char name[64];

	snprintf(name, sizeof(name), "btf_trace_%s", event);
	return btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF) > 0;
}

bool kcheck_has_func(const struct btf *btf, const char *name)
{
	return btf__find_by_name_kind(btf, name, BTF_KIND_FUNC) > 0;
}

/* The struct named st in btf, or NULL. */
static const struct btf_type *find_struct(const struct btf *btf, const char *st)
{
	int id = btf__find_by_name_kind(btf, st, BTF_KIND_STRUCT);

	return id > 0 ? btf__type_by_id(btf, id) : NULL;
}

/* Member MEMBER of struct type t: its byte offset into *off and, when
 * size is not NULL, its byte size into *size; 0, or -1 if t has no such
 * member (or its size cannot be resolved). */
static int struct_member(const struct btf *btf, const struct btf_type *t, const char *member,
			 long *off, long *size)
{
	const struct btf_member *m = btf_members(t);

	for (int i = 0; i < btf_vlen(t); i++) {
		const char *n = btf__name_by_offset(btf, m[i].name_off);

		if (!n || strcmp(n, member))
			continue;
		*off = btf_member_bit_offset(t, i) / 8;
		if (size)
			*size = btf__resolve_size(btf, m[i].type);
		return size && *size <= 0 ? -1 : 0;
	}
	return -1;
}

long kcheck_member_offset(const struct btf *btf, const char *st, const char *member)
{
	const struct btf_type *t = find_struct(btf, st);
	long off;

	return t && !struct_member(btf, t, member, &off, NULL) ? off : -1;
}

bool kcheck_zone_head_fits(const struct btf *btf)
{
	static const char *const fields[] = {
		"_watermark", "watermark_boost", "nr_reserved_highatomic", "lowmem_reserve",
		"zone_start_pfn", "spanned_pages",
	};
	const struct btf_type *zone = find_struct(btf, "zone");
	long lo, end, off, size;

	if (!zone || struct_member(btf, zone, "_watermark", &lo, NULL) ||
	    struct_member(btf, zone, "spanned_pages", &end, NULL))
		return false;
	end += 8;
	if (end <= lo || end - lo > GT_SPAN_BUF)
		return false;
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (struct_member(btf, zone, fields[i], &off, &size) || off < lo ||
		    off + size > end)
			return false;
	/* 6.12's, where the kernel has it */
	if (!struct_member(btf, zone, "nr_free_highatomic", &off, &size) &&
	    (off < lo || off + size > end))
		return false;
	return true;
}

int kcheck_enum_value(const struct btf *btf, const char *en, const char *name, long long *val)
{
	int id = btf__find_by_name_kind(btf, en, BTF_KIND_ENUM);
	const struct btf_type *t;
	const struct btf_enum *e;

	if (id <= 0)
		return -1;
	t = btf__type_by_id(btf, id);
	e = btf_enum(t);
	for (int i = 0; i < btf_vlen(t); i++) {
		const char *n = btf__name_by_offset(btf, e[i].name_off);

		if (n && !strcmp(n, name)) {
			*val = e[i].val;
			return 0;
		}
	}
	return -1;
}

void kcheck_zone_names(const struct btf *btf, char names[][16], int n)
{
	/* include/trace/events/mmflags.h's ZONE_TYPE names */
	static const struct {
		const char *enumerator, *name;
	} zones[] = {
		{ "ZONE_DMA", "DMA" }, { "ZONE_DMA32", "DMA32" }, { "ZONE_NORMAL", "Normal" },
		{ "ZONE_HIGHMEM", "HighMem" }, { "ZONE_MOVABLE", "Movable" },
		{ "ZONE_DEVICE", "Device" },
	};
	long long v;

	for (size_t z = 0; z < sizeof(zones) / sizeof(zones[0]); z++)
		if (!kcheck_enum_value(btf, "zone_type", zones[z].enumerator, &v) && v >= 0 && v < n)
			snprintf(names[v], 16, "%s", zones[z].name);
}

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

static int has_cap(const struct __user_cap_data_struct d[2], int cap)
{
	return !!(d[cap / 32].effective & (1u << (cap % 32)));
}

int kcheck_privileges(char *msg, size_t len)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	if (syscall(SYS_capget, &h, d) == 0 &&
	    (has_cap(d, CAP_SYS_ADMIN) || (has_cap(d, CAP_BPF) && has_cap(d, CAP_PERFMON))))
		return 0;
	snprintf(msg, len, "insufficient privileges to load BPF programs: run as root "
		 "(or with CAP_BPF and CAP_PERFMON)");
	return -1;
}

char *kcheck_read_format(const char *event, char *msg, size_t len)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char path[256];
	char *text;

	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/events/kmem/%s/format", roots[i], event);
		text = tpfmt_read_file(path);
		if (text)
			return text;
	}
	snprintf(msg, len, "cannot read %s/events/kmem/%s/format: mount tracefs "
		 "(mount -t tracefs tracefs /sys/kernel/tracing)", roots[0], event);
	return NULL;
}

int kcheck_cgroup_fd(const char *path, int *fd, char *msg, size_t len)
{
	char full[4096];
	struct statfs sf;

	if (path[0] == '/')
		snprintf(full, sizeof(full), "%s", path);
	else
		snprintf(full, sizeof(full), "/sys/fs/cgroup/%s", path);
	*fd = open(full, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (*fd < 0) {
		snprintf(msg, len, "cgroup '%s' not found (%s): give a cgroup v2 directory", full,
			 strerror(errno));
		return -1;
	}
	if (fstatfs(*fd, &sf) || sf.f_type != CGROUP2_SUPER_MAGIC) {
		snprintf(msg, len, "'%s' is not in a cgroup v2 hierarchy (mount -t cgroup2 none "
			 "/sys/fs/cgroup)", full);
		close(*fd);
		*fd = -1;
		return -1;
	}
	return 0;
}
