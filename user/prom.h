/* --prom: Prometheus text exposition (format 0.0.4, what node_exporter's
 * textfile collector reads) of the counters since gfptop started.
 * docs/prometheus.md lists the metrics (keep the two in step). */
#ifndef GFPTOP_PROM_H
#define GFPTOP_PROM_H
#include <stdio.h>
#include "report.h"

/* Add one interval's report to the running totals in cum (zeroed by the
 * caller before the first call). Counters are summed; the kernel's
 * description, zone names and highatomic levels (gauges) are copied;
 * cum has no process rows. */
void prom_accumulate(struct report *cum, const struct report *r);

/* Write cum as one exposition: # HELP and # TYPE for every family, a
 * series for every non-zero counter, no timestamps. Returns 0, or -1 on
 * a write error. */
int prom_write(FILE *f, const struct report *cum);

#endif
