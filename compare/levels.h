/* A tier's level on a kernel: the share (%) of the zone's unboosted min
 * watermark that the tier must leave free (kernel-patches/README.md, "How
 * the tier is defined"); the depth table, depth plot and check 5 measure
 * each tier against it.
 *
 * gfptop's JSON carries no level as a number: only inside the prose of
 * tier_meaning ("ALLOC_MIN_RESERVE: > 50% of min"), and JSON of
 * gfptop-interval/1 not even that. levels.c is the one place that reads
 * levels out of that prose; once gfptop puts each kernel's levels in its
 * JSON as numbers, they are read there instead and nothing else changes. */
#ifndef GFPCOMPARE_LEVELS_H
#define GFPCOMPARE_LEVELS_H
#include "runs.h"

/* Sets t->level[k] (< 0: the tier is no watermark level) and
 * t->level_json[k], from t->meaning[k] (gfptop's tier_meaning for kernel
 * k) or, where the JSON had none, from gfptop's own table
 * (common/gfptop_tiers.h; k 0 is the before series). */
void find_level(struct tier *t, int k);
/* the levels of kernel k come from gfptop's tier_meaning (not built in) */
int levels_from_json(const struct results *res, int k);

#endif
