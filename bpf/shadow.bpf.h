/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --source both: the tracepoint counts, and the probe only compares its
 * derived tier with the one the tracepoint reported for the same page.
 * What the two sources of gfptop.bpf.c share for that: the tracepoint
 * leaves its last page and tier here (tp_last), the probe's fexit of the
 * same get_page_from_freelist() call adds the pair to agreement.
 */
#ifndef GFPTOP_SHADOW_BPF_H
#define GFPTOP_SHADOW_BPF_H
#include "kernel_types.h"
#include <bpf/bpf_helpers.h>
#include "gfptop_abi.h"

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

#endif /* GFPTOP_SHADOW_BPF_H */
