/* See report.h. The tier, context and depth bucket names are in names.c. */
#include "report.h"
#include "names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the report's rule set; a report nobody set one for (a zeroed one in
 * a test) has 6.1's after rules, as gfptop's first kernels did */
const struct rule_set *report_rules(const struct report *r)
{
	return r->rules ? r->rules : &rule_sets[RS_6_1_AFTER];
}

/* What each tier permits on the kernel's rule set: common/rule_sets.c. */
const char *tier_meaning(const struct report *r, int tier)
{
	return rule_set_meaning(report_rules(r), tier);
}

struct gt_cnt report_pcp_highatomic_total(const struct report *r)
{
	struct gt_cnt s = { 0, 0 };

	for (int t = 0; t < GT_NR; t++) {
		s.count += r->c.pcp_highatomic[t].count;
		s.pages += r->c.pcp_highatomic[t].pages;
	}
	return s;
}

struct gt_cnt report_tier_total(const struct report *r, int tier)
{
	struct gt_cnt s = { 0, 0 };

	for (int o = 0; o < GT_NR_ORDERS; o++) {
		s.count += r->c.order[tier][o].count;
		s.pages += r->c.order[tier][o].pages;
	}
	return s;
}

const char *report_zone_name(const struct report *r, int zone, char *buf, size_t len)
{
	if (r->zone_names[zone][0])
		return r->zone_names[zone];
	snprintf(buf, len, "zone%d", zone);
	return buf;
}

const char *report_semantics(const struct report *r)
{
	return report_rules(r)->series;
}

const char *report_semantics_flags(const struct report *r)
{
	return report_rules(r)->flags;
}

void proc_row_totals(struct proc_row *p)
{
	p->count = p->pages = p->reserve_count = p->reserve_pages = 0;
	for (int t = 0; t < GT_NR; t++) {
		p->count += p->tier[t].count;
		p->pages += p->tier[t].pages;
		if (t != GT_NONE) {
			p->reserve_count += p->tier[t].count;
			p->reserve_pages += p->tier[t].pages;
		}
	}
}

static enum sort_key cmp_key;
static int cmp_tier;

static uint64_t sort_value(const struct proc_row *p)
{
	switch (cmp_key) {
	case SORT_ALLOCS: return p->count;
	case SORT_PAGES: return p->pages;
	case SORT_TIER: return p->tier[cmp_tier].count;
	case SORT_PID: return p->pid;
	default: return p->reserve_count;
	}
}

static int cmp_rows(const void *a, const void *b)
{
	const struct proc_row *x = a, *y = b;
	uint64_t vx = sort_value(x), vy = sort_value(y);

	if (cmp_key == SORT_PID)	/* ascending */
		return vx < vy ? -1 : vx > vy;
	if (vx != vy)			/* descending */
		return vx > vy ? -1 : 1;
	if (x->count != y->count)	/* then by all allocations */
		return x->count > y->count ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid; /* stable for tests */
}

void proc_rows_sort(struct proc_row *rows, size_t n, enum sort_key key, int tier)
{
	cmp_key = key;
	cmp_tier = tier >= 0 && tier < GT_NR ? tier : 0;
	qsort(rows, n, sizeof(*rows), cmp_rows);
}
