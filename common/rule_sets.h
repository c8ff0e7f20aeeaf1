/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel rule sets gfptop knows, one row each (rule_sets.c): the
 * numbers the probe source derives tiers with (struct gt_rules, given to
 * BPF as one rodata struct), what each watermark level permits in words
 * (the numbers give its share of min), and what the kernel's events
 * carry. gfptop (which row a kernel has: user/krules.c), gfpcompare
 * (the levels of each kernel it compares) and the tests read these rows;
 * adding a kernel is a row here plus its proofs (tests/rules/host.sh
 * says which).
 */
#ifndef GFPTOP_RULE_SETS_H
#define GFPTOP_RULE_SETS_H

#include <stdbool.h>
#include "gfptop_rules.h"

enum rule_set_id {
	RS_6_1_BEFORE,	/* 6.1.y with the series reverted (kernel-patches/before) */
	RS_6_1_AFTER,	/* 6.1.y with the series (patches 1-5 from 6.1.116) */
	RS_6_12,	/* 6.12.y */
	RS_7_2,		/* 7.2.y */
	RS_NR,
};

/* Where reserve_highatomic_pageblock() is called from (the probe does
 * not need it: it says what the reserve events' order means). */
enum rs_ha_reserve_at {
	RS_HA_AT_GET_PAGE,	/* get_page_from_freelist(), once rmqueue() gave a page */
	RS_HA_AT_RMQUEUE_BUDDY,	/* the end of rmqueue_buddy(), for the page just taken */
};

/* what a patched kernel of the rule set has, beyond the tier event (the
 * loader refuses a patched kernel whose BTF says otherwise) */
enum rule_set_events {
	/* page_alloc_tier_snapshot.nr_free_highatomic (6.12's series) */
	RS_EV_SNAP_FREE_HIGHATOMIC = 1 << 0,
};

struct rule_set {
	const char *id;		/* "6.1-before", "6.1-after", "6.12", "7.2" */
	const char *series;	/* "before" or "after" the series: JSON "semantics" */
	const char *flags;	/* the reserve bits' names, "ALLOC_HARDER/ALLOC_HIGH" */
	const char *read_off;	/* the tree the row was read off */
	struct gt_rules rules;	/* the numbers the probe derives tiers with */
	enum rs_ha_reserve_at ha_reserve_at;
	/* what each watermark level permits (GT_NONE..GT_OOM), in the words
	 * of the row's flags; its "> N% of min" is the numbers' share
	 * (tests/unit/test_rule_sets.c) */
	const char *level_words[GT_NR_LEVELS];
	unsigned int events;	/* enum rule_set_events */
};

extern const struct rule_set rule_sets[RS_NR];

/* the row named ID, or NULL */
const struct rule_set *rule_set_by_id(const char *id);
/* the ALLOC_* bits watermark level TIER (< GT_NR_LEVELS) takes */
__u32 rule_set_level_bits(const struct gt_rules *r, int tier);
/* the share of the unboosted min watermark free pages may go down to at
 * level TIER (1, 0.75, 0.5, 0.375), by the row's min steps; -1 for a
 * tier that is no watermark level */
double rule_set_min_share(const struct gt_rules *r, int tier);
/* whether level TIER has the highatomic pages subtracted from free */
bool rule_set_ha_subtracted(const struct gt_rules *r, int tier);
/* what TIER permits under rule set RS: its level words, or the tier
 * table's own words for the tiers that are no watermark level; "" out
 * of range */
const char *rule_set_meaning(const struct rule_set *rs, int tier);

#endif
