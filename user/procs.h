/* Per-process counts for an interval from the BPF side's cumulative
 * ones: the process map plus the per-CPU process slots (gfptop_abi.h,
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

/* What user space remembers between intervals: the totals seen of the
 * processes not drained at the last read (a slot holds them, or their
 * entry stays in the map), sorted by tgid. */
struct proc_acct {
	struct proc_sample *kept;
	size_t nkept;
};

/* Whether process tgid may still allocate, and so claim a slot again. */
typedef bool (*proc_alive_fn)(__u32 tgid);

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
 * The tgids to take out of the process map, sorted, into out (room for
 * nmap + a->nkept); returns how many. Read the map, then the slots, then
 * call this. An entry whose process holds no slot can only have grown by
 * a flush that came before the slot read, so its final value can be
 * taken, unless the process claims a slot and loses it again before the
 * lookup-and-delete: a flush that finds the entry just before it is
 * deleted adds to a freed element, and is lost. So the entries of live
 * processes (alive() true) stay in the map, and only those of processes
 * that have exited, which claim no slot again, are taken. With alive
 * NULL (liveness unknown: gfptop outside the initial pid namespace), or
 * once the map is half full (flushes into a full map are dropped), every
 * unheld entry is taken, and that window remains.
 * Also taken: every process kept at the last read that is now in
 * neither the map read nor a slot; the flush that freed its slot may
 * have created its entry after the map was read.
 */
size_t procs_to_drain(const struct proc_acct *a, const struct proc_sample *map, size_t nmap,
		      const struct proc_sample *slots, size_t nslots, proc_alive_fn alive,
		      __u32 *out);

/*
 * The interval's rows, one per process whose total grew, into rows
 * (room for nmap + nslots + a->nkept); returns how many. map: the
 * process map's entries, merged over CPUs and sorted; for the tgids
 * procs_to_drain() gave (drained, sorted), the value that took them out
 * of the map (lookup-and-delete), so nothing is added behind our back;
 * those are not kept. A total is its map entry plus its slots; a
 * row is the growth since the last call, field by field. A total read
 * while a slot was being flushed can come out short (the map read
 * before the flush, the slots after it); the remembered total is the
 * largest seen, so the shortfall shows in the next interval and no row
 * goes negative.
 */
size_t procs_account(struct proc_acct *a, const struct proc_sample *map, size_t nmap,
		     const struct proc_sample *slots, size_t nslots, const __u32 *drained,
		     size_t ndrained, struct proc_row *rows);

void procs_acct_free(struct proc_acct *a);

#endif
