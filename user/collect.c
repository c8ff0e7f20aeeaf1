/* See collect.h. */
#include "collect.h"
#include "merge.h"
#include "gfptop.skel.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

int collector_init(struct collector *c, struct gfptop_bpf *skel, const struct gfp_classifier *gc)
{
	size_t big = sizeof(struct gt_counters);

	memset(c, 0, sizeof(*c));
	c->skel = skel;
	c->gc = gc;
	c->ncpus = libbpf_num_possible_cpus();
	if (c->ncpus <= 0)
		return -1;
	c->buf = calloc(c->ncpus, percpu_stride(big));
	c->keys = calloc(GT_MAX_PROCS, sizeof(*c->keys));
	c->rows_cap = GT_MAX_PROCS;
	c->rows = calloc(c->rows_cap, sizeof(*c->rows));
	if (!c->buf || !c->keys || !c->rows)
		return -1;
	return 0;
}

void collector_free(struct collector *c)
{
	free(c->buf);
	free(c->keys);
	free(c->rows);
	memset(c, 0, sizeof(*c));
}

static int read_counters(struct collector *c, struct gt_counters *out)
{
	__u32 k = 0;

	if (bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.counters), &k, c->buf))
		return -1;
	merge_counters(c->buf, c->ncpus, out);
	return 0;
}

/* Cumulative per tier x class totals: the gfp map is never cleared, so
 * an interval is a difference, like the counters. */
static void read_gfp(struct collector *c, struct gt_cnt out[GT_NR][GFPC_NR])
{
	int fd = bpf_map__fd(c->skel->maps.gfp_counts);
	struct gt_gfp_key key, next, *cur = NULL;

	memset(out, 0, sizeof(struct gt_cnt) * GT_NR * GFPC_NR);
	/* the per-CPU slots in front of the map (gfptop.h) */
	for (__u32 i = 0; i < GT_GFP_SLOTS; i++) {
		if (bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.gfp_slots), &i, c->buf))
			continue;
		for (int cpu = 0; cpu < c->ncpus; cpu++) {
			const struct gt_gfp_slot *s = (const void *)((const char *)c->buf +
					cpu * percpu_stride(sizeof(*s)));
			__u32 tier = (__u32)(s->key >> 32) - 1;

			if (!s->key)
				continue;
			enum gfp_class g = gfpclass_classify(c->gc, (__u32)s->key);
			out[tier & (GT_NR - 1)][g].count += s->v.count;
			out[tier & (GT_NR - 1)][g].pages += s->v.pages;
		}
	}
	while (bpf_map_get_next_key(fd, cur, &next) == 0) {
		struct gt_cnt v;

		key = next;
		cur = &key;
		if (bpf_map_lookup_elem(fd, &key, c->buf))
			continue;
		merge_cnt(c->buf, c->ncpus, &v);
		enum gfp_class g = gfpclass_classify(c->gc, key.gfp_flags);
		out[key.tier & (GT_NR - 1)][g].count += v.count;
		out[key.tier & (GT_NR - 1)][g].pages += v.pages;
	}
}

/* Drain the process map: keys first (deleting while walking would
 * restart get_next_key), then lookup-and-delete each, so an update that
 * races with us lands either in this interval or in the next. */
static size_t drain_procs(struct collector *c)
{
	int fd = bpf_map__fd(c->skel->maps.procs);
	__u32 key, next, *cur = NULL;
	size_t nkeys = 0, n = 0;

	while (nkeys < GT_MAX_PROCS && bpf_map_get_next_key(fd, cur, &next) == 0) {
		c->keys[nkeys++] = next;
		key = next;
		cur = &key;
	}
	for (size_t i = 0; i < nkeys; i++) {
		struct gt_proc p;
		struct proc_row *row;

		if (bpf_map_lookup_and_delete_elem(fd, &c->keys[i], c->buf)) {
			/* older kernels: no lookup_and_delete on per-CPU hashes */
			if (bpf_map_lookup_elem(fd, &c->keys[i], c->buf))
				continue;
			bpf_map_delete_elem(fd, &c->keys[i]);
		}
		merge_proc(c->buf, c->ncpus, &p);
		row = &c->rows[n++];
		memset(row, 0, sizeof(*row));
		row->pid = c->keys[i];
		memcpy(row->comm, p.comm, GT_COMM_LEN);
		memcpy(row->tier, p.tier, sizeof(row->tier));
		proc_row_totals(row);
	}
	return n;
}

static void read_ha(struct collector *c, struct report *r)
{
	int fd = bpf_map__fd(c->skel->maps.ha_level);

	for (__u32 z = 0; z < GT_NR_ZONES; z++) {
		struct gt_ha_level l;

		memset(&r->ha[z], 0, sizeof(r->ha[z]));
		if (bpf_map_lookup_elem(fd, &z, c->buf))
			continue;
		merge_ha_level(c->buf, c->ncpus, &l);
		r->ha[z].seen = l.ts != 0;
		r->ha[z].last = l.last_nr_reserved;
		r->ha[z].max = l.max_nr_reserved;
	}
}

/* --source both: the probe's comparison with the tracepoint, summed over
 * CPUs, cumulative (it is a check of the probe, not a rate) */
static void read_agreement(struct collector *c, struct gt_agreement *out)
{
	__u32 k = 0;

	memset(out, 0, sizeof(*out));
	if (bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.agreement), &k, c->buf))
		return;
	/* all __u64 counters: an element-wise sum, like the counters */
	merge_sum_u64(c->buf, c->ncpus, percpu_stride(sizeof(*out)), sizeof(*out) / 8,
		      (uint64_t *)out);
}

int collector_baseline(struct collector *c)
{
	if (read_counters(c, &c->prev))
		return -1;
	read_gfp(c, c->gfp_prev);
	drain_procs(c);
	return 0;
}

int collect_interval(struct collector *c, const struct options *o, struct report *r)
{
	struct gt_counters now;
	struct gt_cnt gfp_now[GT_NR][GFPC_NR];

	if (read_counters(c, &now))
		return -1;
	counters_diff(&now, &c->prev, &r->c);
	c->prev = now;

	read_gfp(c, gfp_now);
	for (int t = 0; t < GT_NR; t++)
		for (int g = 0; g < GFPC_NR; g++) {
			r->gfp[t][g].count = gfp_now[t][g].count - c->gfp_prev[t][g].count;
			r->gfp[t][g].pages = gfp_now[t][g].pages - c->gfp_prev[t][g].pages;
		}
	memcpy(c->gfp_prev, gfp_now, sizeof(gfp_now));

	read_ha(c, r);
	if (r->have_agreement)
		read_agreement(c, &r->agreement);

	r->nprocs_total = drain_procs(c);
	proc_rows_sort(c->rows, r->nprocs_total, o->sort, o->sort_tier);
	r->procs = c->rows;
	r->nprocs = o->rows > 0 && (size_t)o->rows < r->nprocs_total ? (size_t)o->rows : r->nprocs_total;
	return 0;
}
