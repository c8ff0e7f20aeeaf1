/* See procs.h. */
#include "procs.h"
#include "merge.h"

#include <stdlib.h>
#include <string.h>

static int cmp_tgid(const void *a, const void *b)
{
	const struct proc_sample *x = a, *y = b;

	return x->tgid < y->tgid ? -1 : x->tgid > y->tgid;
}

void procs_sort(struct proc_sample *s, size_t n)
{
	qsort(s, n, sizeof(*s), cmp_tgid);
}

size_t procs_from_slots(const void *cpu_vals, int ncpus, size_t stride, struct proc_sample *out)
{
	size_t n = 0, m = 0;

	for (int cpu = 0; cpu < ncpus; cpu++) {
		const struct gt_cpu *v = (const void *)((const char *)cpu_vals + (size_t)cpu * stride);

		for (int i = 0; i < GT_PROC_SLOTS; i++) {
			if (!v->proc[i].key)
				continue;
			out[n].tgid = v->proc[i].key - 1;
			out[n].p = v->proc[i].p;
			out[n].p.comm[GT_COMM_LEN - 1] = 0;
			n++;
		}
	}
	procs_sort(out, n);
	/* one sample per tgid: a process can hold a slot on every CPU */
	for (size_t i = 0; i < n; i++) {
		if (m && out[m - 1].tgid == out[i].tgid) {
			merge_proc_name(&out[m - 1].p, &out[i].p);
			merge_proc_add(&out[m - 1].p, &out[i].p);
		} else
			out[m++] = out[i];
	}
	return m;
}

struct proc_sample *procs_find(const struct proc_sample *s, size_t n, __u32 tgid)
{
	struct proc_sample key = { .tgid = tgid };

	return n ? bsearch(&key, s, n, sizeof(*s), cmp_tgid) : NULL;
}

bool procs_held(const struct proc_sample *slots, size_t nslots, __u32 tgid)
{
	return procs_find(slots, nslots, tgid) != NULL;
}

static int cmp_u32(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return x < y ? -1 : x > y;
}

static bool in_u32s(const __u32 *s, size_t n, __u32 v)
{
	return n && bsearch(&v, s, n, sizeof(*s), cmp_u32);
}

size_t procs_to_drain(const struct proc_acct *a, const struct proc_sample *map, size_t nmap,
		      const struct proc_sample *slots, size_t nslots, proc_alive_fn alive,
		      __u32 *out)
{
	/* live entries stay, while the map has room for the new ones */
	bool keep_live = alive && nmap <= GT_MAX_PROCS / 2;
	size_t n = 0;

	for (size_t i = 0; i < nmap; i++) {
		__u32 tgid = map[i].tgid;

		if (!procs_held(slots, nslots, tgid) && !(keep_live && alive(tgid)))
			out[n++] = tgid;
	}
	for (size_t i = 0; i < a->nkept; i++) {
		__u32 tgid = a->kept[i].tgid;

		if (!procs_held(slots, nslots, tgid) && !procs_find(map, nmap, tgid))
			out[n++] = tgid;
	}
	qsort(out, n, sizeof(*out), cmp_u32);
	return n;
}

/* The smallest tgid at the heads of three sorted lists, or false. */
static bool next_tgid(const struct proc_sample *a, size_t na, const struct proc_sample *b,
		      size_t nb, const struct proc_sample *c, size_t nc, __u32 *tgid)
{
	bool any = false;

	if (na)
		*tgid = a->tgid, any = true;
	if (nb && (!any || b->tgid < *tgid))
		*tgid = b->tgid, any = true;
	if (nc && (!any || c->tgid < *tgid))
		*tgid = c->tgid, any = true;
	return any;
}

static __u64 growth(__u64 now, __u64 *seen)
{
	__u64 d = now > *seen ? now - *seen : 0;

	if (now > *seen)
		*seen = now;
	return d;
}

size_t procs_account(struct proc_acct *a, const struct proc_sample *map, size_t nmap,
		     const struct proc_sample *slots, size_t nslots, const __u32 *drained,
		     size_t ndrained, struct proc_row *rows)
{
	const struct proc_sample *prev = a->kept;
	size_t nprev = a->nkept, nrows = 0, nkept = 0;
	struct proc_sample *kept;
	__u32 tgid;

	/* every process seen now or kept before, at most */
	kept = malloc((nmap + nslots + nprev + 1) * sizeof(*kept));
	if (!kept)
		return 0;
	while (next_tgid(map, nmap, slots, nslots, prev, nprev, &tgid)) {
		struct proc_sample total = { .tgid = tgid }, seen = { .tgid = tgid };
		bool in_slots = nslots && slots->tgid == tgid;
		struct proc_row *row = &rows[nrows];

		/* the slots' name first: of equal exec_ids it is the later
		 * one (refreshed on every event, the map's at a takeover) */
		if (in_slots) {
			merge_proc_name(&total.p, &slots->p);
			merge_proc_add(&total.p, &slots->p);
			slots++, nslots--;
		}
		if (nmap && map->tgid == tgid) {
			merge_proc_name(&total.p, &map->p);
			merge_proc_add(&total.p, &map->p);
			map++, nmap--;
		}
		if (nprev && prev->tgid == tgid) {
			seen = *prev;
			prev++, nprev--;
		}
		memset(row, 0, sizeof(*row));
		row->pid = tgid;
		memcpy(row->comm, total.p.comm, GT_COMM_LEN);
		row->comm[GT_COMM_LEN - 1] = 0;
		for (int t = 0; t < GT_NR; t++) {
			row->tier[t].count = growth(total.p.tier[t].count, &seen.p.tier[t].count);
			row->tier[t].pages = growth(total.p.tier[t].pages, &seen.p.tier[t].pages);
		}
		proc_row_totals(row);
		if (row->count || row->pages)
			nrows++;
		if (!in_u32s(drained, ndrained, tgid))
			kept[nkept++] = seen;
	}
	free(a->kept);
	a->kept = kept;
	a->nkept = nkept;
	return nrows;
}

void procs_acct_free(struct proc_acct *a)
{
	free(a->kept);
	memset(a, 0, sizeof(*a));
}
