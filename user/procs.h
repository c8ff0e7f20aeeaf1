/* Per-process counts for an interval from the BPF side's cumulative
 * ones: the process map plus the per-CPU process slots (gfptop.h,
 * struct gt_proc_slot). Pure functions: no BPF here, so they are unit
 * tested. */
#ifndef GFPTOP_PROCS_H
#define GFPTOP_PROCS_H
#include <stdbool.h>
#include <stddef.h>
#include "report.h"

/* One process's cumulative counts, as one source holds them. */
struct proc_sample {
	__u32 tgid;
	struct gt_proc p;
};

/* What user space remembers between intervals: the totals of the
 * processes that slots held at the last read, sorted by tgid. */
struct proc_acct {
	struct proc_sample *held;
	size_t nheld;
};

/* Sort samples by tgid (the functions below want them sorted). */
void procs_sort(struct proc_sample *s, size_t n);

/* The slots of ncpus struct gt_cpu copies, stride bytes apart, summed
 * per tgid into out (room for ncpus * GT_PROC_SLOTS), sorted by tgid;
 * returns how many. */
size_t procs_from_slots(const void *cpu_vals, int ncpus, size_t stride, struct proc_sample *out);

/* tgid's sample in s (sorted, n of them), or NULL */
struct proc_sample *procs_find(const struct proc_sample *s, size_t n, __u32 tgid);

/* A slot on some CPU holds tgid: its map entry may still grow. */
bool procs_held(const struct proc_sample *slots, size_t nslots, __u32 tgid);

/*
 * The tgids to take out of the process map, into out (room for nmap +
 * a->nheld); returns how many. Read the map, then the slots, then call
 * this: an entry whose process holds no slot can only have grown by a
 * flush that came before the slot read, so its final value can be
 * taken. That is every entry read whose process no slot holds, and also
 * every process held at the last read and not now: the flush that
 * freed its slot may have created its entry after the map was read.
 * (Not covered: a process that claims a slot and loses it again between
 * the slot read and the lookup-and-delete, a window of microseconds; a
 * flush that finds the entry just before it is deleted is lost.)
 */
size_t procs_to_drain(const struct proc_acct *a, const struct proc_sample *map, size_t nmap,
		      const struct proc_sample *slots, size_t nslots, __u32 *out);

/*
 * The interval's rows, one per process whose total grew, into rows
 * (room for nmap + nslots); returns how many. map: the process map's
 * entries, merged over CPUs and sorted; for the tgids procs_to_drain()
 * gave, the value that took them out of the map (lookup-and-delete), so
 * nothing is added behind our back. A total is its map entry plus its slots; a
 * row is the growth since the last call, field by field. A total read
 * while a slot was being flushed can come out short (the map read
 * before the flush, the slots after it); the remembered total is the
 * largest seen, so the shortfall shows in the next interval and no row
 * goes negative.
 */
size_t procs_account(struct proc_acct *a, const struct proc_sample *map, size_t nmap,
		     const struct proc_sample *slots, size_t nslots, struct proc_row *rows);

void procs_acct_free(struct proc_acct *a);

#endif
