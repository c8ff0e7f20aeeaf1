/* What gfptop needs from the running kernel, checked before loading so
 * that a missing piece gives one clear line instead of a verifier log:
 * kernel BTF, the gfptop tracepoints, privileges, tracefs. Also reads
 * what user space learns from the kernel: tier enum values (BTF), the
 * tracepoint format file (gfp flags, zone names) and cgroup ids. */
#ifndef GFPTOP_KCHECK_H
#define GFPTOP_KCHECK_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "gfptop_abi.h"

#define KCHECK_BTF_PATH "/sys/kernel/btf/vmlinux"

struct btf;

/* Each returns 0, or -1 with one line (no newline) in msg. */
int kcheck_btf(char *msg, size_t len);
/* The kernel's BTF, parsed once for every check below; NULL with msg. */
struct btf *kcheck_load_btf(char *msg, size_t len);
/* The same for a raw BTF file at PATH: "not valid BTF" if it is there
 * but does not parse. */
struct btf *kcheck_load_btf_file(const char *path, char *msg, size_t len);
/* The gfptop tracepoints; fills tier_values[] (kernel enum value per
 * gfptop tier, -1 if the kernel lacks it) when non-NULL. */
int kcheck_tracepoints(const struct btf *btf, int64_t tier_values[GT_NR], char *msg,
		       size_t len);
/* The inverse of tier_values: map[v] is the gfptop tier whose kernel
 * enum value is v, GT_UNKNOWN for a value no tier has (BPF's
 * tier_of_kernel[], set before load). */
void kcheck_tier_map(const int64_t tier_values[GT_NR], uint8_t map[GT_NR]);
/* true if kernel BTF has btf_trace_NAME (the tracepoint exists). */
bool kcheck_has_tracepoint(const struct btf *btf, const char *name);
/* true if kernel BTF has the function NAME (probes can attach to it). */
bool kcheck_has_func(const struct btf *btf, const char *name);
/* Byte offset of member MEMBER of struct STRUCT, or -1 if the kernel's
 * struct has no such member. */
long kcheck_member_offset(const struct btf *btf, const char *st, const char *member);
/* true if struct zone's head, _watermark to spanned_pages, is at most
 * GT_SPAN_BUF bytes and holds every field probe.bpf.h's
 * zone_head_fields() takes from it (its zone_head_fits). */
bool kcheck_zone_head_fits(const struct btf *btf);
/* Value of enumerator NAME of enum ENUM into *val: 0, or -1 if absent. */
int kcheck_enum_value(const struct btf *btf, const char *en, const char *name, long long *val);
/* Zone names by zone index from BTF's enum zone_type, as the kmem
 * tracepoints print them ("DMA32", "Normal"); names[i] left alone where
 * the kernel has no such zone. */
void kcheck_zone_names(const struct btf *btf, char names[][16], int n);
int kcheck_privileges(char *msg, size_t len);
/* Returns the malloc'ed text of kmem/EVENT/format, or NULL with msg. */
char *kcheck_read_format(const char *event, char *msg, size_t len);
/* cgroup v2 path (absolute or relative to /sys/fs/cgroup) -> an open
 * fd of its directory, for -c's cgroup array. */
int kcheck_cgroup_fd(const char *path, int *fd, char *msg, size_t len);

#endif
