/* SPDX-License-Identifier: GPL-2.0 */
/* See rule_sets.h. Each row is read off a tree's mm/page_alloc.c and
 * mm/internal.h (__zone_watermark_ok(), __zone_watermark_unusable_free(),
 * where reserve_highatomic_pageblock() is called); kernel-patches/README.md
 * quotes the code. */
#include "rule_sets.h"

#include <stddef.h>
#include <string.h>
#include "names.h"

/* The ALLOC_* bits, the same values in every row; ALLOC_HIGHATOMIC came
 * with the series. */
#define BITS_6_1	.wmark_mask = 0x03, .no_watermarks = 0x04, .oom = 0x08, \
			.non_block = 0x10, .min_reserve = 0x20, .cma = 0x80
#define NB 0x10		/* ALLOC_NON_BLOCK, before the series ALLOC_HARDER */
#define MR 0x20		/* ALLOC_MIN_RESERVE, before the series ALLOC_HIGH */
#define OOM 0x08
#define HA 0x200	/* ALLOC_HIGHATOMIC */

/* after the series (6.1.116+, 6.12): ALLOC_RESERVES lets a request keep
 * the highatomic pages; ALLOC_MIN_RESERVE halves min, with
 * ALLOC_NON_BLOCK a quarter less again; ALLOC_OOM halves it */
#define RULES_AFTER \
	BITS_6_1, .highatomic = HA, \
	.min_step = { { MR, 0, 1 }, { MR | NB, 0, 2 }, { OOM, 0, 1 } }, \
	.ha_usable = NB | MR | OOM | HA, .ha_counts = HA | OOM

/* the after rules' words where the pages kept from a request without a
 * reserve right are the free ones of highatomic blocks (6.12, 7.2) */
#define WORDS_FREE_HIGHATOMIC { \
	[GT_NONE] = "no reserve right: > 100% of min, free highatomic pages subtracted", \
	[GT_NON_BLOCK] = "ALLOC_NON_BLOCK: > 100% of min, free highatomic pages not subtracted", \
	[GT_MIN_RESERVE] = "ALLOC_MIN_RESERVE: > 50% of min", \
	[GT_MIN_RESERVE_NON_BLOCK] = "ALLOC_MIN_RESERVE|ALLOC_NON_BLOCK: > 37.5% of min", \
	[GT_OOM] = "ALLOC_OOM: > 50% of min", \
}

const struct rule_set rule_sets[RS_NR] = {
	[RS_6_1_BEFORE] = {
		.id = "6.1-before", .series = "before", .flags = "ALLOC_HARDER/ALLOC_HIGH",
		.read_off = "Debian's linux-source-6.1 (6.1.192) with the series reverted "
			    "(kernel-patches/before)",
		/* alloc_harder (ALLOC_HARDER or ALLOC_OOM) keeps the
		 * highatomic pages and counts their blocks; ALLOC_HIGH
		 * halves min, then ALLOC_OOM halves it or ALLOC_HARDER
		 * takes a quarter */
		.rules = {
			BITS_6_1, .highatomic = 0,
			.min_step = { { MR, 0, 1 }, { OOM, 0, 1 }, { NB, OOM, 2 } },
			.ha_usable = NB | OOM, .ha_counts = NB | OOM,
			.ha_unusable = GT_HA_RESERVED,
		},
		.ha_reserve_at = RS_HA_AT_GET_PAGE,
		.level_words = {
			[GT_NONE] = "no reserve right: > 100% of min, highatomic reserve subtracted",
			[GT_NON_BLOCK] = "ALLOC_HARDER: > 75% of min",
			[GT_MIN_RESERVE] = "ALLOC_HIGH: > 50% of min, highatomic reserve subtracted",
			[GT_MIN_RESERVE_NON_BLOCK] = "ALLOC_HIGH|ALLOC_HARDER: > 37.5% of min",
			[GT_OOM] = "ALLOC_OOM: > 50% of min",
		},
	},
	[RS_6_1_AFTER] = {
		.id = "6.1-after", .series = "after", .flags = "ALLOC_NON_BLOCK/ALLOC_MIN_RESERVE",
		.read_off = "Debian's linux-source-6.1 (6.1.192) with the whole series "
			    "(kernel-patches/after)",
		.rules = { RULES_AFTER, .ha_unusable = GT_HA_RESERVED },
		.ha_reserve_at = RS_HA_AT_GET_PAGE,
		.level_words = {
			[GT_NONE] = "no reserve right: > 100% of min, highatomic reserve subtracted",
			[GT_NON_BLOCK] = "ALLOC_NON_BLOCK: > 100% of min, highatomic reserve "
					 "not subtracted",
			[GT_MIN_RESERVE] = "ALLOC_MIN_RESERVE: > 50% of min",
			[GT_MIN_RESERVE_NON_BLOCK] = "ALLOC_MIN_RESERVE|ALLOC_NON_BLOCK: > 37.5% of min",
			[GT_OOM] = "ALLOC_OOM: > 50% of min",
		},
	},
	[RS_6_12] = {
		.id = "6.12", .series = "after", .flags = "ALLOC_NON_BLOCK/ALLOC_MIN_RESERVE",
		.read_off = "Debian's linux-source-6.12 (6.12.118)",
		/* the after rules; the pages kept from a request without a
		 * reserve right are the free ones of highatomic blocks
		 * (c928807f6f6b "mm/page_alloc: keep track of free
		 * highatomic") */
		.rules = { RULES_AFTER, .ha_unusable = GT_HA_FREE },
		.ha_reserve_at = RS_HA_AT_GET_PAGE,
		.level_words = WORDS_FREE_HIGHATOMIC,
		.events = RS_EV_SNAP_FREE_HIGHATOMIC,
	},
	[RS_7_2] = {
		.id = "7.2", .series = "after", .flags = "ALLOC_NON_BLOCK/ALLOC_MIN_RESERVE",
		.read_off = "Debian's linux-source-7.2 (7.2.13)",
		/* 6.12's arithmetic, unchanged in __zone_watermark_ok() and
		 * __zone_watermark_unusable_free(); the reserve is taken at
		 * the end of rmqueue_buddy(), for the page just taken (which
		 * may lie in the pageblock it reserves). ALLOC_TRYLOCK (0x400,
		 * alloc_pages_nolock()) is no reserve right: such a request
		 * is checked against the min mark without one. */
		.rules = { RULES_AFTER, .ha_unusable = GT_HA_FREE },
		.ha_reserve_at = RS_HA_AT_RMQUEUE_BUDDY,
		.level_words = WORDS_FREE_HIGHATOMIC,
		.events = RS_EV_SNAP_FREE_HIGHATOMIC,
	},
};

const struct rule_set *rule_set_by_id(const char *id)
{
	for (int i = 0; i < RS_NR; i++)
		if (id && !strcmp(rule_sets[i].id, id))
			return &rule_sets[i];
	return NULL;
}

__u32 rule_set_level_bits(const struct gt_rules *r, int tier)
{
	switch (tier) {
	case GT_NON_BLOCK: return r->non_block;
	case GT_MIN_RESERVE: return r->min_reserve;
	case GT_MIN_RESERVE_NON_BLOCK: return r->min_reserve | r->non_block;
	case GT_OOM: return r->oom;
	default: return 0;	/* GT_NONE: no right */
	}
}

double rule_set_min_share(const struct gt_rules *r, int tier)
{
	/* the kernel's integer steps on a min large enough to be exact */
	const long one = 1L << 20;
	long min = one;
	__u32 bits;

	if (tier < 0 || tier >= GT_NR_LEVELS)
		return -1;
	bits = rule_set_level_bits(r, tier);
	for (int i = 0; i < GT_MIN_STEPS; i++) {
		const struct gt_min_step *s = &r->min_step[i];

		if (s->shift && (bits & s->all) == s->all && s->all && !(bits & s->none))
			min -= min >> s->shift;
	}
	return (double)min / one;
}

bool rule_set_ha_subtracted(const struct gt_rules *r, int tier)
{
	return !(rule_set_level_bits(r, tier) & r->ha_usable);
}

const char *rule_set_meaning(const struct rule_set *rs, int tier)
{
	if (tier >= 0 && tier < GT_NR_LEVELS)
		return rs->level_words[tier];
	return tier_words(tier);
}
