/* See collect.h. */
#include "collect.h"
#include "merge.h"
#include "procs.h"
#include "zoneinfo.h"
#include "gfptop_rules.h"
#include "gfptop.skel.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

/* The kernel's tgids are the initial pid namespace's: kill() names the
 * same processes only from there (PROC_PID_INIT_INO). */
static bool in_initial_pidns(void)
{
	char ns[64];
	ssize_t n = readlink("/proc/self/ns/pid", ns, sizeof(ns) - 1);

	if (n <= 0)
		return false;
	ns[n] = 0;
	return strcmp(ns, "pid:[4026531836]") == 0;
}

/* Whether tgid may allocate again: kill() finds it (EPERM: it exists).
 * tgid 0 is the idle tasks' (interrupts over idle), which never exit
 * and which kill() would read as our process group. */
static bool tgid_alive(__u32 tgid)
{
	return tgid == 0 || kill((pid_t)tgid, 0) == 0 || errno == EPERM;
}

int collector_init(struct collector *c, struct gfptop_bpf *skel, const struct gfp_classifier *gc)
{
	size_t nslots;

	memset(c, 0, sizeof(*c));
	c->skel = skel;
	c->gc = gc;
	c->zoneinfo = "/proc/zoneinfo";
	c->alive = in_initial_pidns() ? tgid_alive : NULL;
	c->ncpus = libbpf_num_possible_cpus();
	if (c->ncpus <= 0)
		return -1;
	nslots = (size_t)c->ncpus * GT_PROC_SLOTS;
	c->buf = calloc(c->ncpus, percpu_stride(sizeof(struct gt_cpu)));
	/* the map's entries, and those of the processes kept at the last
	 * read that the map read missed (procs_to_drain() adds them): at most
	 * one map and its slots' more */
	c->map = calloc(2 * (GT_MAX_PROCS + nslots), sizeof(*c->map));
	c->drain = calloc(2 * (GT_MAX_PROCS + nslots), sizeof(*c->drain));
	c->slots = calloc(nslots, sizeof(*c->slots));
	c->rows_cap = 2 * (GT_MAX_PROCS + nslots) + nslots;
	c->rows = calloc(c->rows_cap, sizeof(*c->rows));
	if (!c->buf || !c->map || !c->drain || !c->slots || !c->rows)
		return -1;
	return 0;
}

void collector_free(struct collector *c)
{
	free(c->buf);
	free(c->map);
	free(c->drain);
	free(c->slots);
	free(c->rows);
	procs_acct_free(&c->acct);
	memset(c, 0, sizeof(*c));
}

static void add_gfp(struct collector *c, struct gt_cnt out[GT_NR][GFPC_NR], __u32 gfp,
		    __u32 tier, const struct gt_cnt *v)
{
	enum gfp_class g = gfpclass_classify(c->gc, gfp);

	out[tier & (GT_NR - 1)][g].count += v->count;
	out[tier & (GT_NR - 1)][g].pages += v->pages;
}

/*
 * Everything in the per-CPU cpu_state map: the counters (summed), the
 * gfp slots into gfp (per tier x class, cumulative like the gfp map) and
 * the process slots into c->slots.
 */
static int read_cpu_state(struct collector *c, struct gt_counters *out,
			  struct gt_cnt gfp[GT_NR][GFPC_NR])
{
	size_t stride = percpu_stride(sizeof(struct gt_cpu));
	__u32 k = 0;

	if (bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.cpu_state), &k, c->buf))
		return -1;
	merge_counters(c->buf, c->ncpus, out);
	for (int z = 0; z < GT_NR_ZONES; z++)
		c->zone_ha_prev[z] = c->zone_ha[z].jiffies;
	merge_zone_ha(c->buf, c->ncpus, c->zone_ha);
	memset(gfp, 0, sizeof(struct gt_cnt) * GT_NR * GFPC_NR);
	for (int cpu = 0; cpu < c->ncpus; cpu++) {
		const struct gt_cpu *v = (const void *)((const char *)c->buf + cpu * stride);

		for (int i = 0; i < GT_GFP_SLOTS; i++)
			if (v->gfp[i].key)
				add_gfp(c, gfp, (__u32)v->gfp[i].key,
					(__u32)(v->gfp[i].key >> 32) - 1, &v->gfp[i].v);
	}
	c->nslots = procs_from_slots(c->buf, c->ncpus, stride, c->slots);
	return 0;
}

/* The gfp map into out, added to what the slots gave: cumulative per
 * tier x class totals, so an interval is a difference. */
static void read_gfp(struct collector *c, struct gt_cnt out[GT_NR][GFPC_NR])
{
	int fd = bpf_map__fd(c->skel->maps.gfp_counts);
	struct gt_gfp_key key, next, *cur = NULL;

	while (bpf_map_get_next_key(fd, cur, &next) == 0) {
		struct gt_cnt v;

		key = next;
		cur = &key;
		if (bpf_map_lookup_elem(fd, &key, c->buf))
			continue;
		merge_cnt(c->buf, c->ncpus, &v);
		add_gfp(c, out, key.gfp_flags, key.tier, &v);
	}
}

/* Pass 1, before the slots are read: the process map's entries. */
static void read_proc_map(struct collector *c)
{
	int fd = bpf_map__fd(c->skel->maps.procs);
	__u32 key, next, *cur = NULL;

	c->nmap = 0;
	while (c->nmap < GT_MAX_PROCS && bpf_map_get_next_key(fd, cur, &next) == 0) {
		key = next;
		cur = &key;
		if (bpf_map_lookup_elem(fd, &key, c->buf))
			continue;
		c->map[c->nmap].tgid = key;
		merge_proc(c->buf, c->ncpus, &c->map[c->nmap].p);
		c->nmap++;
	}
	procs_sort(c->map, c->nmap);
}

/*
 * Pass 2, after the slots are read: take the entries procs_to_drain()
 * names (those of exited processes no slot holds) out of the map with
 * their final values. Entries of held or live processes stay: a flush
 * may still add to them.
 */
static void drain_unheld(struct collector *c)
{
	int fd = bpf_map__fd(c->skel->maps.procs);
	size_t n = procs_to_drain(&c->acct, c->map, c->nmap, c->slots, c->nslots, c->alive,
				  c->drain);
	size_t nmap = c->nmap;	/* sorted; what is appended below is not */

	c->ndrain = n;
	for (size_t i = 0; i < n; i++) {
		__u32 tgid = c->drain[i];
		struct proc_sample *e;

		if (bpf_map_lookup_and_delete_elem(fd, &tgid, c->buf)) {
			/* older kernels: no lookup_and_delete on per-CPU hashes */
			if (bpf_map_lookup_elem(fd, &tgid, c->buf))
				continue;
			bpf_map_delete_elem(fd, &tgid);
		}
		e = procs_find(c->map, nmap, tgid);
		if (!e) {
			e = &c->map[c->nmap++];
			e->tgid = tgid;
		}
		merge_proc(c->buf, c->ncpus, &e->p);
	}
	procs_sort(c->map, c->nmap);
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

/* The zones now, right after the maps: /proc/zoneinfo and the highatomic
 * counters the snapshots carried (none on a read or parse error). */
static void read_zones(struct collector *c, struct report *r)
{
	int n = zoneinfo_read(c->zoneinfo, r->zones, ZONEINFO_MAX);

	r->nzones = n > 0 ? zoneinfo_populated(r->zones, (size_t)n) : 0;
	zoneinfo_attach_ha(r->zones, r->nzones, c->zone_ha, c->zone_ha_prev);
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

/* Read every map's cumulative counts; the process rows into c->rows. */
static int read_all(struct collector *c, struct gt_counters *now,
		    struct gt_cnt gfp_now[GT_NR][GFPC_NR], size_t *nrows)
{
	read_proc_map(c);
	if (read_cpu_state(c, now, gfp_now))
		return -1;
	drain_unheld(c);
	*nrows = procs_account(&c->acct, c->map, c->nmap, c->slots, c->nslots, c->drain,
			       c->ndrain, c->rows);
	read_gfp(c, gfp_now);
	return 0;
}

int collect_interval(struct collector *c, const struct options *o, struct report *r)
{
	struct gt_counters now;
	struct gt_cnt gfp_now[GT_NR][GFPC_NR];

	if (read_all(c, &now, gfp_now, &r->nprocs_total))
		return -1;
	counters_diff(&now, &c->prev, &r->c);
	c->prev = now;

	for (int t = 0; t < GT_NR; t++)
		for (int g = 0; g < GFPC_NR; g++) {
			r->gfp[t][g].count = gfp_now[t][g].count - c->gfp_prev[t][g].count;
			r->gfp[t][g].pages = gfp_now[t][g].pages - c->gfp_prev[t][g].pages;
		}
	memcpy(c->gfp_prev, gfp_now, sizeof(gfp_now));

	read_ha(c, r);
	read_zones(c, r);
	if (r->have_agreement)
		read_agreement(c, &r->agreement);

	proc_rows_sort(c->rows, r->nprocs_total, o->sort, o->sort_tier);
	r->procs = c->rows;
	r->nprocs = o->rows > 0 && (size_t)o->rows < r->nprocs_total ? (size_t)o->rows : r->nprocs_total;
	return 0;
}
