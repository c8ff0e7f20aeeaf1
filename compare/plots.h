/* The report's gnuplot plots: each writes its data (.dat) and script
 * (.gp) into the report directory and runs gnuplot there; the PNG is
 * renamed into place only if gnuplot succeeded. */
#ifndef GFPCOMPARE_PLOTS_H
#define GFPCOMPARE_PLOTS_H
#include <stddef.h>
#include "runs.h"

int have_gnuplot(void);
/* tiers.png and reserve.png: stacked tier shares per workload and kernel */
int plot_tiers(const struct results *res);
/* margins-<workload>.png (name into png): margin histograms per kernel */
int plot_margins(const struct results *res, const struct workload *w, char *png, size_t pnglen);
/* depth-<workload>.png (name into png): depth shares per reserve tier,
 * with each kernel's levels drawn */
int plot_depth(const struct results *res, const struct workload *w, char *png, size_t pnglen);

#endif
