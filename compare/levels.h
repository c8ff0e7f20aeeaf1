/* A tier's level on a kernel: the share (%) of the zone's unboosted min
 * watermark that the tier must leave free (kernel-patches/README.md, "How
 * the tier is defined"); the depth table, depth plot and check 5 measure
 * each tier against it. Numbers, never prose: gfptop's JSON has them in
 * tier_levels; JSON from before that has them in the kernel's rule set
 * (common/rule_sets.c). */
#ifndef GFPCOMPARE_LEVELS_H
#define GFPCOMPARE_LEVELS_H
#include "runs.h"

/* Sets t->level[k] (< 0: the tier is no watermark level) and
 * t->level_json[k], from the JSON's tier_levels for kernel k or, where it
 * had none, from the numbers of rule set RS (NULL: 6.1's row of the
 * column's series, k 0 before). */
void find_level(struct tier *t, const struct rule_set *rs, int k);
/* the levels of kernel k come from gfptop's tier_levels (not built in) */
int levels_from_json(const struct results *res, int k);

#endif
