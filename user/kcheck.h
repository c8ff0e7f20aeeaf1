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
#include "gfptop.h"

#define KCHECK_BTF_PATH "/sys/kernel/btf/vmlinux"

/* Each returns 0, or -1 with one line (no newline) in msg. */
int kcheck_btf(char *msg, size_t len);
/* Needs kernel BTF; fills tier_values[] (kernel enum value per gfptop
 * tier, -1 if the kernel lacks it) when non-NULL. */
int kcheck_tracepoints(int64_t tier_values[GT_NR], char *msg, size_t len);
/* true if kernel BTF has btf_trace_NAME (the tracepoint exists). */
bool kcheck_has_tracepoint(const char *name);
int kcheck_privileges(char *msg, size_t len);
/* Returns the malloc'ed text of kmem/EVENT/format, or NULL with msg. */
char *kcheck_read_format(const char *event, char *msg, size_t len);
/* cgroup v2 path (absolute or relative to /sys/fs/cgroup) -> id. */
int kcheck_cgroup_id(const char *path, uint64_t *id, char *msg, size_t len);

#endif
