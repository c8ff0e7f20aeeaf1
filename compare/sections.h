/* The parts of the report, each written to both documents (doc.h). */
#ifndef GFPCOMPARE_SECTIONS_H
#define GFPCOMPARE_SECTIONS_H
#include "doc.h"
#include "metrics.h"

/* sections.c: the tier legend and the tables of one workload */
void tier_legend(struct doc *d, const struct results *res);
void compare_table(struct doc *d, const struct rowset *rs);
/* gp: gnuplot is there, draw the depth plot */
void depth_section(struct doc *d, const struct results *res, const struct workload *w, int gp);
void describe_sources(struct doc *d, const struct results *res, const struct workload *w);
void pcp_table(struct doc *d, const struct results *res, const struct workload *w);

/* predictions.c: the cover letter's predictions against every workload
 * (all: the workloads' rows, in wls order) */
void predictions(struct doc *d, const struct results *res, const struct rowset *all);
/* depth_check.c: the predictions' check 5, how deep each tier went */
void check_depth(struct doc *d, const struct results *res);

/* summary.c: summary.json, the rows and depth shares as data */
void write_summary_json(const struct results *res, const struct rowset *all);

#endif
