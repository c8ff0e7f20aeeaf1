/* See names.h. The tier tables come from common/gfptop_tiers.h; the others
 * are designated initializers, so each name sits next to its enum value
 * whatever the order of the enum. */
#include "names.h"

#include <stddef.h>
#include <string.h>

#define TIER_NAME(id, kind, name, ...) [GT_##id] = name,
const char *const tier_names[GT_NR_TIERS] = { GFPTOP_TIERS(TIER_NAME) };

#define TIER_SHORT(id, kind, name, short, ...) [GT_##id] = short,
const char *const tier_short_names[GT_NR_TIERS] = { GFPTOP_TIERS(TIER_SHORT) };

#define TIER_COLOUR(id, kind, name, short, colour, ...) [GT_##id] = colour,
const char *const tier_colours[GT_NR_TIERS] = { GFPTOP_TIERS(TIER_COLOUR) };

#define TIER_KERNEL_K(id) "PAGE_ALLOC_TIER_" #id
#define TIER_KERNEL_U(id) NULL
#define TIER_KERNEL(id, kind, ...) [GT_##id] = TIER_KERNEL_##kind(id),
const char *const tier_kernel_names[GT_NR_TIERS] = { GFPTOP_TIERS(TIER_KERNEL) };

#define TIER_WHAT(id, kind, name, short, colour, what) [GT_##id] = what,
static const char *const tier_what[GT_NR_TIERS] = { GFPTOP_TIERS(TIER_WHAT) };

const char *tier_words(int tier)
{
	if (tier < 0 || tier >= GT_NR_TIERS || !tier_what[tier])
		return "";
	return tier_what[tier];
}

const char *const context_names[GC_NR] = {
	[GC_TASK] = "task",
	[GC_SOFTIRQ] = "softirq",
	[GC_HARDIRQ] = "hardirq",
};

const char *const depth_bucket_names[GD_NR] = {
	[GD_ABOVE] = ">100%",
	[GD_75] = "75-100%",
	[GD_62] = "62.5-75%",
	[GD_50] = "50-62.5%",
	[GD_37] = "37.5-50%",
	[GD_25] = "25-37.5%",
	[GD_BELOW_25] = "<=25%",
};

const char *const gfp_class_names[GFPC_NR] = {
	[GFPC_ATOMIC] = "GFP_ATOMIC",
	[GFPC_NOWAIT] = "GFP_NOWAIT",
	[GFPC_KERNEL] = "GFP_KERNEL",
	[GFPC_NOFS_NOIO] = "GFP_NOFS_NOIO",
	[GFPC_USER] = "GFP_USER",
	[GFPC_OTHER] = "other",
};

const char *tier_name(int tier)
{
	return tier >= 0 && tier < GT_NR_TIERS && tier_names[tier] ? tier_names[tier] : "?";
}

int names_index(const char *const *names, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (names[i] && !strcmp(names[i], name))
			return i;
	return -1;
}

int tier_from_name(const char *name)
{
	return names_index(tier_names, GT_NR_TIERS, name);
}
