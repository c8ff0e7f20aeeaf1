/* Text renderings of a report: the tier x order table, the log2
 * margin histograms, the live top-like view and CSV rows. Each writes
 * to a FILE so tests can capture it with open_memstream(). */
#ifndef GFPTOP_FORMAT_H
#define GFPTOP_FORMAT_H
#include <stdbool.h>
#include <stdio.h>
#include "report.h"

#define HIST_BAR_WIDTH 40

/* Lowest and highest margin a histogram bucket holds. Bucket b runs over
 * neg[31..0], zero, pos[0..31]: b = 0..2*GT_HIST_SLOTS. */
void hist_bucket_range(int b, long long *lo, long long *hi);
uint64_t hist_bucket_count(const struct gt_hist *h, int b);
#define HIST_NR_BUCKETS (2 * GT_HIST_SLOTS + 1)

/* One histogram, buckets from the lowest to the highest non-empty one:
 *   "%11lld -> %-11lld : %-10llu |%-40s|\n"
 * with the bar '*' x (count * 40 / max). Prints nothing if empty. */
void fmt_hist(FILE *f, const struct gt_hist *h);

/* "TIER" column then one column per order 0..highest order with a
 * count, then ALLOCS and PAGES. Tiers with no allocation are left out
 * except that the table always has a header. */
void fmt_tier_order_table(FILE *f, const struct report *r);

/* "what each tier permits" lines for the tiers with allocations:
 * "  %-22s %s\n" name and tier_meaning(), after one title line; nothing
 * if no tier has any. Returns the number of tiers listed. */
int fmt_tier_legend(FILE *f, const struct report *r);

/* Depth table: a title line, then "TIER" and one column per depth
 * bucket (">100%" ... "<=25%"), a row per tier with allocations. */
void fmt_depth_table(FILE *f, const struct report *r);

/* The zone header: one line of column names, then per populated zone
 * (r->zones; nothing if none) "%-10s %10llu %6s %8llu %8llu %8llu %7llu
 * %8s %6s %8s": name (NODE:name if there are several nodes), free pages
 * and as % of the unboosted min, min, low, high (unboosted), boost,
 * nr_reserved_highatomic and as % of min, nr_free_highatomic; "-" for
 * what was never seen. Under 90 columns. */
void fmt_zones(FILE *f, const struct report *r);

/* -H output: header line, zone header, tier x order table, what each tier permits,
 * depth table, highatomic pages via pcp, margin histograms per tier,
 * event line. */
void fmt_histogram_mode(FILE *f, const struct report *r, bool timestamps);

/* default output: the zone header, rates per tier and the process
 * table, rows lines. */
void fmt_live(FILE *f, const struct report *r, int rows, bool clear, bool timestamps);

/* CSV: long format, one line per (section, tier, key). */
void fmt_csv_header(FILE *f);
void fmt_csv(FILE *f, const struct report *r);

/* "2026-12-03T09:18:00Z"-style UTC time; buf >= 32 bytes. */
void fmt_iso_time(double t, char *buf, size_t len);

#endif
