/* Merging the per-CPU copies libbpf returns for per-CPU maps, and
 * turning cumulative counters into per-interval ones. Pure functions:
 * no BPF here, so they are unit tested. */
#ifndef GFPTOP_MERGE_H
#define GFPTOP_MERGE_H
#include <stddef.h>
#include <stdint.h>
#include "gfptop_abi.h"

/* libbpf lays out per-CPU values with this stride (value size rounded
 * up to 8 bytes). */
static inline size_t percpu_stride(size_t value_size)
{
	return (value_size + 7) & ~(size_t)7;
}

/* out[i] = sum over cpus of the i-th __u64 of each CPU's copy. vals
 * holds ncpus copies, stride bytes apart, of n_u64 counters each. */
void merge_sum_u64(const void *vals, int ncpus, size_t stride, size_t n_u64, uint64_t *out);

/* The counters of ncpus struct gt_cpu copies (the cpu_state map), summed. */
void merge_counters(const void *cpu_vals, int ncpus, struct gt_counters *out);
void merge_cnt(const void *vals, int ncpus, struct gt_cnt *out);

/* Highatomic level: the last value is the one with the newest
 * timestamp, the max is the max over CPUs. */
void merge_ha_level(const void *vals, int ncpus, struct gt_ha_level *out);

/* The zones' highatomic counters of ncpus struct gt_cpu copies: per
 * zone, the copy with the latest stamp (of equal stamps, within one
 * tick, the first CPU's); have 0 where no CPU saw the zone. */
void merge_zone_ha(const void *cpu_vals, int ncpus, struct gt_zone_ha out[GT_NR_ZONES]);

/* Process entry: sums the tier counts, takes the newest comm (highest
 * exec_id; of equals, the first CPU's; each CPU fills its own copy). */
void merge_proc(const void *vals, int ncpus, struct gt_proc *out);
/* to's name := from's if from's is newer (merge_proc()'s rule) */
void merge_proc_name(struct gt_proc *to, const struct gt_proc *from);
/* to's tier counts += from's (the comm stays to's) */
void merge_proc_add(struct gt_proc *to, const struct gt_proc *from);

/* out = now - prev, counter by counter; a counter that went backwards
 * (cannot happen unless the maps were reset) gives 0. */
void counters_diff(const struct gt_counters *now, const struct gt_counters *prev,
		   struct gt_counters *out);

#endif
