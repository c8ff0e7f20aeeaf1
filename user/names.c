/* See names.h. Designated initializers, so each name sits next to its
 * enum value whatever the order of the enum. */
#include "names.h"

#include <string.h>

const char *const tier_names[GT_NR_TIERS] = {
	[GT_NONE] = "none",
	[GT_NON_BLOCK] = "non_block",
	[GT_MIN_RESERVE] = "min_reserve",
	[GT_MIN_RESERVE_NON_BLOCK] = "min_reserve_non_block",
	[GT_OOM] = "oom",
	[GT_NO_WATERMARKS] = "no_watermarks",
	[GT_HIGHATOMIC] = "highatomic",
	[GT_HIGHATOMIC_COUNTED] = "highatomic_counted",
	[GT_NO_LEVEL] = "no_level",
	[GT_UNKNOWN] = "unknown",
};

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
