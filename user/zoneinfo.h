/* The zones' state for the zone header of the live view, -H, -j and
 * --prom: free pages and the watermarks from /proc/zoneinfo, read each
 * interval, and the highatomic counters the BPF side last saw in an
 * allocation's snapshot (gt_zone_ha, merge_zone_ha()). Parsing is pure,
 * so it is unit tested on real zoneinfo text (tests/unit/data/). */
#ifndef GFPTOP_ZONEINFO_H
#define GFPTOP_ZONEINFO_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "gfptop_abi.h"

#define ZONEINFO_NAME_LEN 16
/* nodes x zones kept; a machine with more shows the first ones */
#define ZONEINFO_MAX 64

struct zone_row {
	int node;
	int idx;		/* its place in the node's list: zone_idx() */
	char name[ZONEINFO_NAME_LEN];
	uint64_t free;		/* "pages free": NR_FREE_PAGES */
	uint64_t boost;		/* watermark_boost */
	/* the watermarks without the boost: zoneinfo prints
	 * min_wmark_pages() etc., which add watermark_boost (6.1 and 6.12) */
	uint64_t min, low, high;
	uint64_t managed;	/* 0: not populated */
	/* from the BPF side, by zone index (zoneinfo_attach_ha()) */
	bool have_ha_reserved, have_ha_free;
	uint64_t ha_reserved;	/* nr_reserved_highatomic */
	uint64_t ha_free;	/* nr_free_highatomic (6.12) */
	bool ha_in_interval;	/* a snapshot of this interval carried them */
};

/*
 * Every zone of /proc/zoneinfo text into rows (at most max), in the
 * file's order, populated or not. Returns the number of zones, or -1 if
 * a zone lacks one of the fields (the format is not one gfptop knows).
 */
int zoneinfo_parse(const char *text, struct zone_row *rows, size_t max);

/* The same from a file (/proc/zoneinfo); -1 also if it cannot be read. */
int zoneinfo_read(const char *path, struct zone_row *rows, size_t max);

/* Keep only the populated zones (managed > 0), in order; their number. */
size_t zoneinfo_populated(struct zone_row *rows, size_t n);

/*
 * The BPF side's highatomic counters (per zone index, merged over CPUs)
 * onto the rows. The BPF side does not tell nodes apart, so a zone index
 * that more than one row has (several nodes) gets none: never another
 * node's numbers. prev_jiffies: the stamps of the previous interval's
 * merge (ha_in_interval: the stamp moved since).
 */
void zoneinfo_attach_ha(struct zone_row *rows, size_t n, const struct gt_zone_ha ha[GT_NR_ZONES],
			const uint64_t prev_jiffies[GT_NR_ZONES]);

/* 100 * v / min, or -1 if min is 0 (no share to give) */
double zone_pct_of_min(uint64_t v, uint64_t min);

#endif
