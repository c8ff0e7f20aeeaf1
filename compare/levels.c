/* See levels.h. */
#include "levels.h"

int levels_from_json(const struct results *res, int k)
{
	int t;

	for (t = 0; t < res->ntiers; t++)
		if (res->tiers[t].level_json[k])
			return 1;
	return 0;
}

void find_level(struct tier *t, const struct rule_set *rs, int k)
{
	t->level[k] = -1;
	t->level_json[k] = 0;
	if (t->share_json[k] >= 0) {
		t->level[k] = 100 * t->share_json[k];
		t->level_json[k] = 1;
	} else if (t->gt >= 0 && t->gt < GT_NR_LEVELS) {
		/* JSON without tier_levels: the numbers of the kernel's rule
		 * set; with none named, of 6.1's row of the column's series */
		if (!rs)
			rs = &rule_sets[k == 0 ? RS_6_1_BEFORE : RS_6_1_AFTER];
		t->level[k] = 100 * rule_set_min_share(&rs->rules, t->gt);
	}
}
