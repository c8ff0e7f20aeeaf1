/* See levels.h. */
#include "levels.h"

#include <stdlib.h>
#include <string.h>

/* "ALLOC_MIN_RESERVE: > 50% of min" -> 50; -1 if the meaning names no
 * level. The format is the one common/gfptop_tiers.h writes its meanings
 * in, which gfptop copies into tier_meaning. */
static double level_from_meaning(const char *m)
{
	const char *p;

	for (p = m; (p = strstr(p, "> ")); p += 2) {
		char *end;
		double v = strtod(p + 2, &end);

		if (end != p + 2 && !strncmp(end, "% of min", 8))
			return v;
	}
	return -1;
}

int levels_from_json(const struct results *res, int k)
{
	int t;

	for (t = 0; t < res->ntiers; t++)
		if (res->tiers[t].level_json[k])
			return 1;
	return 0;
}

void find_level(struct tier *t, int k)
{
	t->level[k] = -1;
	t->level_json[k] = 0;
	if (t->meaning[k]) {
		t->level[k] = level_from_meaning(t->meaning[k]);
		t->level_json[k] = 1;
	} else if (t->gt >= 0) {
		/* gfptop-interval/1 has no tier_meaning: what this gfpcompare's
		 * gfptop table says */
		t->level[k] = level_from_meaning(tier_meaning_on(t->gt, k == 0));
	}
}
