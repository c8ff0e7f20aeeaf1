/* Reads the BPF maps once per interval into a struct report: merges the
 * per-CPU copies, diffs the cumulative counters against the previous
 * read, classifies the raw gfp flags and accounts the processes (procs.h). */
#ifndef GFPTOP_COLLECT_H
#define GFPTOP_COLLECT_H
#include "gfpclass.h"
#include "options.h"
#include "procs.h"
#include "report.h"

struct gfptop_bpf;

struct collector {
	struct gfptop_bpf *skel;
	const struct gfp_classifier *gc;
	int ncpus;
	void *buf;		/* ncpus per-CPU values of the largest value type */
	struct gt_counters prev;
	struct gt_cnt gfp_prev[GT_NR][GFPC_NR];
	struct proc_row *rows;
	size_t rows_cap;
	struct proc_sample *map;	/* the process map: 2 * (GT_MAX_PROCS + slots) */
	size_t nmap;
	__u32 *drain;			/* tgids to take out of it, sorted */
	size_t ndrain;
	proc_alive_fn alive;		/* NULL: liveness unknown */
	struct proc_sample *slots;	/* the process slots, ncpus * GT_PROC_SLOTS */
	size_t nslots;
	struct proc_acct acct;
	struct gt_zone_ha zone_ha[GT_NR_ZONES];	/* merged at the last read */
	uint64_t zone_ha_prev[GT_NR_ZONES];	/* ... their stamps the read before */
	const char *zoneinfo;			/* /proc/zoneinfo */
};

int collector_init(struct collector *c, struct gfptop_bpf *skel, const struct gfp_classifier *gc);
/* Fill r with the interval since the last call; procs sorted by o. */
int collect_interval(struct collector *c, const struct options *o, struct report *r);
void collector_free(struct collector *c);

#endif
