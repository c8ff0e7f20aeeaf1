/* See merge.h. */
#include "merge.h"

#include <string.h>

void merge_sum_u64(const void *vals, int ncpus, size_t stride, size_t n_u64, uint64_t *out)
{
	memset(out, 0, n_u64 * sizeof(*out));
	for (int cpu = 0; cpu < ncpus; cpu++) {
		const uint64_t *v = (const uint64_t *)((const char *)vals + (size_t)cpu * stride);

		for (size_t i = 0; i < n_u64; i++)
			out[i] += v[i];
	}
}

void merge_counters(const void *cpu_vals, int ncpus, struct gt_counters *out)
{
	/* c is gt_cpu's first member */
	merge_sum_u64(cpu_vals, ncpus, percpu_stride(sizeof(struct gt_cpu)), sizeof(*out) / 8,
		      (uint64_t *)out);
}

void merge_cnt(const void *vals, int ncpus, struct gt_cnt *out)
{
	merge_sum_u64(vals, ncpus, percpu_stride(sizeof(*out)), sizeof(*out) / 8, (uint64_t *)out);
}

void merge_ha_level(const void *vals, int ncpus, struct gt_ha_level *out)
{
	size_t stride = percpu_stride(sizeof(*out));

	memset(out, 0, sizeof(*out));
	for (int cpu = 0; cpu < ncpus; cpu++) {
		const struct gt_ha_level *l = (const void *)((const char *)vals + (size_t)cpu * stride);

		if (!l->ts)
			continue;
		if (l->ts > out->ts) {
			out->ts = l->ts;
			out->last_nr_reserved = l->last_nr_reserved;
		}
		if (l->max_nr_reserved > out->max_nr_reserved)
			out->max_nr_reserved = l->max_nr_reserved;
	}
}

void merge_zone_ha(const void *cpu_vals, int ncpus, struct gt_zone_ha out[GT_NR_ZONES])
{
	size_t stride = percpu_stride(sizeof(struct gt_cpu));

	memset(out, 0, sizeof(struct gt_zone_ha) * GT_NR_ZONES);
	for (int cpu = 0; cpu < ncpus; cpu++) {
		const struct gt_cpu *v = (const void *)((const char *)cpu_vals + (size_t)cpu * stride);

		for (int z = 0; z < GT_NR_ZONES; z++) {
			const struct gt_zone_ha *h = &v->zone_ha[z];

			if (h->have && (!out[z].have || h->jiffies > out[z].jiffies))
				out[z] = *h;
		}
	}
}

void merge_proc(const void *vals, int ncpus, struct gt_proc *out)
{
	size_t stride = percpu_stride(sizeof(*out));

	memset(out, 0, sizeof(*out));
	for (int cpu = 0; cpu < ncpus; cpu++) {
		const struct gt_proc *p = (const void *)((const char *)vals + (size_t)cpu * stride);

		merge_proc_name(out, p);
		merge_proc_add(out, p);
	}
}

void merge_proc_name(struct gt_proc *to, const struct gt_proc *from)
{
	if (!from->comm[0] || (to->comm[0] && from->exec_id <= to->exec_id))
		return;
	memcpy(to->comm, from->comm, GT_COMM_LEN);
	to->comm[GT_COMM_LEN - 1] = 0;
	to->exec_id = from->exec_id;
}

void merge_proc_add(struct gt_proc *to, const struct gt_proc *from)
{
	for (int t = 0; t < GT_NR; t++) {
		to->tier[t].count += from->tier[t].count;
		to->tier[t].pages += from->tier[t].pages;
	}
}

void counters_diff(const struct gt_counters *now, const struct gt_counters *prev,
		   struct gt_counters *out)
{
	const uint64_t *a = (const uint64_t *)now, *b = (const uint64_t *)prev;
	uint64_t *o = (uint64_t *)out;

	for (size_t i = 0; i < sizeof(*out) / 8; i++)
		o[i] = a[i] >= b[i] ? a[i] - b[i] : 0;
}
