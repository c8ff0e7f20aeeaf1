/* Where gfptop's counts come from (which BPF programs that loads:
 * progs.h).
 *
 * tracepoint: kmem:mm_page_alloc_tier and friends (kernel-patches/); the
 *   kernel decided each tier.
 * probe:      fentry/fexit (or kprobe/kretprobe) on get_page_from_freelist(),
 *   on any kernel; each tier is derived from the zone's counters
 *   (bpf/probe.bpf.h), and some counts are not visible at all.
 * both:       the tracepoint counts; the probe only compares its derived
 *   tier with the tracepoint's for the same page (a check of the probe).
 * auto:       the tracepoint where the kernel has it, else the probe. */
#ifndef GFPTOP_SOURCE_H
#define GFPTOP_SOURCE_H
#include <stdbool.h>
#include <stddef.h>

enum gt_source {
	SRC_AUTO,
	SRC_TRACEPOINT,
	SRC_PROBE,
	SRC_BOTH,
};

struct source_plan {
	enum gt_source src;	/* never SRC_AUTO once resolved */
	bool raw;		/* raw_tp instead of tp_btf */
	bool kprobe;		/* kprobe/kretprobe instead of fentry/fexit */
	bool have_timer;	/* the local_timer_entry/exit tracepoints exist */
	bool have_unreserve;	/* unreserve_highatomic_pageblock() can be probed */
};

/* "tracepoint", "probe", "both", "auto"; NULL for anything else */
const char *source_name(enum gt_source s);
int source_parse(const char *s, enum gt_source *out);

/* Resolve p->src (SRC_AUTO by the kernel's tracepoints). has_tp: the
 * kernel has gfptop's tracepoints (its error is tp_msg otherwise);
 * has_probe: get_page_from_freelist() is in its BTF. 0, or -1 with a
 * one-line reason in msg. */
int source_resolve(struct source_plan *p, bool has_tp, const char *tp_msg, bool has_probe,
		   char *msg, size_t len);

/* Whether the plan counts with the tracepoint, runs the probe (both
 * for SRC_BOTH). */
static inline bool source_uses_tp(const struct source_plan *p)
{
	return p->src == SRC_TRACEPOINT || p->src == SRC_BOTH;
}

static inline bool source_uses_probe(const struct source_plan *p)
{
	return p->src == SRC_PROBE || p->src == SRC_BOTH;
}

/* Whether the tiers are derived (probe only), not the kernel's. */
static inline bool source_derived(const struct source_plan *p)
{
	return p->src == SRC_PROBE;
}

#endif
