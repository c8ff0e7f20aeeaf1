// SPDX-License-Identifier: GPL-2.0
/*
 * tiercheck: re-derive the reserve tier of every kmem:mm_page_alloc_tier
 * event of a tracefs text trace, independently of the kernel's code, from
 * the definition in kernel-patches/README.md ("How the tier is defined")
 * and each kernel's __zone_watermark_ok() arithmetic.
 *
 *   tiercheck [-l LABEL] [-m MIN_EVENTS] before|after|6.12 TRACE
 *
 * 6.12 is the after kernel's rules on 6.12.y, whose event carries
 * free_highatomic= and whose watermark check subtracts it (the free pages
 * of highatomic pageblocks) instead of the whole reserve.
 *
 * TRACE is a copy of /sys/kernel/tracing/trace (other events and comment
 * lines are skipped). Prints one "PASS name" / "FAIL name: why" line per
 * check, a "MISMATCH ..." line with every field for each event a check
 * rejects, per-tier counts and one "STATS label key=value..." line for
 * scripts. Exit status: 0 all checks passed, 1 a check failed, 2 usage or
 * I/O error.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ALLOC_* bits shared by both kernels (mm/internal.h of each tree) */
#define A_WMARK_MASK	0x003
#define A_NO_WATERMARKS	0x004
#define A_OOM		0x008
#define A_0x10		0x010	/* after: ALLOC_NON_BLOCK, before: ALLOC_HARDER */
#define A_0x20		0x020	/* after: ALLOC_MIN_RESERVE, before: ALLOC_HIGH */
#define A_CPUSET	0x040
#define A_CMA		0x080
#define A_NOFRAGMENT	0x100
#define A_HIGHATOMIC	0x200	/* after only */
#define A_KSWAPD	0x800

/* free_blocks bits, as printed */
#define FB_NORMAL	0x1
#define FB_CMA		0x2
#define FB_HIGHATOMIC	0x4

enum kind { BEFORE, AFTER, V6_12, V7_2 };

enum tier {
	T_NONE,
	T_NON_BLOCK,
	T_MIN_RESERVE,
	T_MIN_RESERVE_NON_BLOCK,
	T_OOM,
	T_NO_WATERMARKS,
	T_HIGHATOMIC,
	T_HIGHATOMIC_COUNTED,
	T_NO_LEVEL,
	NR_TIERS
};

static const char *const tier_names[NR_TIERS] = {
	"none", "non_block", "min_reserve", "min_reserve_non_block", "oom",
	"no_watermarks", "highatomic", "highatomic_counted", "no_level",
};

enum source { S_PCP, S_BUDDY, S_HIGHATOMIC, S_HIGHATOMIC_FALLBACK, NR_SOURCES };

static const char *const source_names[NR_SOURCES] = {
	"pcp", "buddy", "highatomic", "highatomic_fallback",
};

/* the watermark levels, in the order they are tried, and their bits */
static const struct level {
	enum tier tier;
	unsigned int bits;
} levels[] = {
	{ T_NONE, 0 },
	{ T_NON_BLOCK, A_0x10 },
	{ T_MIN_RESERVE, A_0x20 },
	{ T_MIN_RESERVE_NON_BLOCK, A_0x20 | A_0x10 },
	{ T_OOM, A_OOM },
};
#define NR_LEVELS (sizeof(levels) / sizeof(levels[0]))

struct event {
	unsigned long pfn;
	unsigned int order;
	char gfp[512];
	unsigned int alloc_flags;
	int migratetype, nid;
	char zone[16], highest_zone[16];
	long free, free_cma;
	unsigned long watermark, boost;
	long lowmem_reserve;
	unsigned long highatomic, free_highatomic;
	unsigned int free_blocks;
	enum source source;
	int highatomic_block;
	enum tier watermark_tier, tier;
};

static enum kind kind;
static const char *const kind_names[] = { "before", "after", "6.12", "7.2" };
/* the row of gfptop's common/rule_sets.c each kind's rules are written
 * from here, again (tests/rules/host.sh: every row has its checker) */
static const char *const kind_rule_sets[] = { "6.1-before", "6.1-after", "6.12", "7.2" };

/* 6.12 and 7.2 (read off linux-source-7.2, 7.2.13: __zone_watermark_ok()
 * and __zone_watermark_unusable_free() unchanged from 6.12.118) subtract
 * the free pages of highatomic pageblocks, and their event carries them */
static bool free_highatomic_rules(void)
{
	return kind == V6_12 || kind == V7_2;
}

/* the after kernel's ALLOC_* names and rules (6.1 after, and 6.12) */
static bool after_rules(void)
{
	return kind != BEFORE;
}
static const char *label = "tiercheck";

/* every bit that lets a request below the min watermark */
static unsigned int reserve_rights(void)
{
	return A_NO_WATERMARKS | A_OOM | A_0x10 | A_0x20 |
	       (after_rules() ? A_HIGHATOMIC : 0);
}

/* the ALLOC_* bits this kernel defines */
static unsigned int known_flags(void)
{
	return A_WMARK_MASK | A_NO_WATERMARKS | A_OOM | A_0x10 | A_0x20 |
	       A_CPUSET | A_CMA | A_NOFRAGMENT | A_KSWAPD |
	       (after_rules() ? A_HIGHATOMIC : 0);
}

/* may free MIGRATE_HIGHATOMIC blocks count for a request with FLAGS */
static bool highatomic_blocks_count(unsigned int flags)
{
	if (after_rules())
		return flags & (A_HIGHATOMIC | A_OOM);
	return flags & (A_0x10 | A_OOM);
}

/* what a watermark check computed, for the mismatch report */
struct wm_calc {
	long usable, min;
	bool ok;
};

/*
 * This kernel's __zone_watermark_ok() on the event's snapshot with
 * alloc_flags FLAGS against MARK. Free highatomic blocks count for an
 * order > 0 request only if HIGHATOMIC_OK and FLAGS would let them.
 */
static struct wm_calc wm_check(const struct event *e, unsigned int flags,
			       unsigned long mark, bool highatomic_ok)
{
	struct wm_calc c;
	long usable = e->free - ((1L << e->order) - 1);
	long min = (long)mark;
	bool reserve_counted;

	if (!(flags & A_CMA))
		usable -= e->free_cma;
	if (after_rules()) {
		reserve_counted = !(flags & (A_0x10 | A_0x20 | A_HIGHATOMIC | A_OOM));
		if (flags & A_0x20) {		/* ALLOC_MIN_RESERVE */
			min -= min / 2;
			if (flags & A_0x10)	/* ... and ALLOC_NON_BLOCK */
				min -= min / 4;
		}
		if (flags & A_OOM)
			min -= min / 2;
	} else {
		reserve_counted = !(flags & (A_0x10 | A_OOM));
		if (flags & A_0x20)		/* ALLOC_HIGH */
			min -= min / 2;
		if (flags & A_OOM)
			min -= min / 2;
		else if (flags & A_0x10)	/* ALLOC_HARDER */
			min -= min / 4;
	}
	/*
	 * what __zone_watermark_unusable_free() subtracts: the reserve on
	 * 6.1, the free pages of highatomic pageblocks on 6.12 (c928807f6f6b)
	 */
	if (reserve_counted)
		usable -= (long)(free_highatomic_rules() ? e->free_highatomic : e->highatomic);

	c.usable = usable;
	c.min = min;
	if (usable <= min + e->lowmem_reserve)
		c.ok = false;
	else if (e->order == 0)
		c.ok = true;
	else
		c.ok = (e->free_blocks & FB_NORMAL) ||
		       ((flags & A_CMA) && (e->free_blocks & FB_CMA)) ||
		       (highatomic_ok && highatomic_blocks_count(flags) &&
			(e->free_blocks & FB_HIGHATOMIC));
	return c;
}

/* the watermark tier of E against MARK (the event's, or boosted) */
static enum tier derive(const struct event *e, unsigned long mark)
{
	unsigned int base = e->alloc_flags & ~reserve_rights();
	size_t i;

	for (i = 0; i < NR_LEVELS; i++) {
		if ((e->alloc_flags & levels[i].bits) != levels[i].bits)
			continue;
		if (wm_check(e, base | levels[i].bits, mark, false).ok)
			return levels[i].tier;
	}
	if (e->order > 0 && wm_check(e, e->alloc_flags, mark, true).ok &&
	    !wm_check(e, e->alloc_flags, mark, false).ok)
		return T_HIGHATOMIC_COUNTED;
	if (e->alloc_flags & A_NO_WATERMARKS)
		return T_NO_WATERMARKS;
	return T_NO_LEVEL;
}

/* ---- parsing */

static int lookup(const char *s, const char *const *names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

static bool parse_num(const char *s, int base, bool sign, void *out, size_t size)
{
	char *end;

	if (!*s)
		return false;
	errno = 0;
	if (sign) {
		long v = strtol(s, &end, base);

		if (errno || *end)
			return false;
		if (size == sizeof(int)) {
			if (v < INT32_MIN || v > INT32_MAX)
				return false;
			*(int *)out = (int)v;
		} else {
			*(long *)out = v;
		}
	} else {
		unsigned long v;

		if (*s == '-')
			return false;
		v = strtoul(s, &end, base);
		if (errno || *end)
			return false;
		if (size == sizeof(unsigned int)) {
			if (v > UINT32_MAX)
				return false;
			*(unsigned int *)out = (unsigned int)v;
		} else {
			*(unsigned long *)out = v;
		}
	}
	return true;
}

static bool parse_hex(const char *s, void *out, size_t size)
{
	if (strncmp(s, "0x", 2))
		return false;
	return parse_num(s + 2, 16, false, out, size);
}

static bool parse_str(const char *s, char *out, size_t size)
{
	if (!*s || strlen(s) >= size)
		return false;
	strcpy(out, s);
	return true;
}

static bool parse_free_blocks(const char *s, unsigned int *out)
{
	char buf[64], *tok, *save;
	static const char *const names[] = { "normal", "cma", "highatomic" };
	int i;

	*out = 0;
	if (strlen(s) >= sizeof(buf))
		return false;
	strcpy(buf, s);
	for (tok = strtok_r(buf, "|", &save); tok; tok = strtok_r(NULL, "|", &save)) {
		i = lookup(tok, names, 3);
		if (i < 0 || (*out & (1u << i)))
			return false;
		*out |= 1u << i;
	}
	return true;
}

enum field {
	F_PFN, F_ORDER, F_GFP, F_ALLOC_FLAGS, F_MIGRATETYPE, F_NID, F_ZONE,
	F_HIGHEST_ZONE, F_FREE, F_FREE_CMA, F_WATERMARK, F_BOOST,
	F_LOWMEM_RESERVE, F_HIGHATOMIC, F_FREE_HIGHATOMIC, F_FREE_BLOCKS, F_SOURCE,
	F_HIGHATOMIC_BLOCK, F_WATERMARK_TIER, F_TIER, NR_FIELDS
};

static const char *const field_names[NR_FIELDS] = {
	"pfn", "order", "gfp_flags", "alloc_flags", "migratetype", "nid", "zone",
	"highest_zone", "free", "free_cma", "watermark", "boost",
	"lowmem_reserve", "highatomic", "free_highatomic", "free_blocks", "source",
	"highatomic_block", "watermark_tier", "tier",
};

/*
 * The text after "mm_page_alloc_tier: ": "key=value" tokens separated by
 * single spaces, each field exactly once, in TP_printk's order
 * (free_highatomic only on 6.12). NULL on success, else what is wrong.
 */
static const char *parse_event(const char *text, struct event *e)
{
	char buf[4096], *tok, *save, *val;
	int f, next = 0;
	bool ok;

	memset(e, 0, sizeof(*e));
	if (strlen(text) >= sizeof(buf))
		return "line too long";
	strcpy(buf, text);
	buf[strcspn(buf, "\r\n")] = '\0';
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		val = strchr(tok, '=');
		if (!val)
			return "a token without '='";
		*val++ = '\0';
		f = lookup(tok, field_names, NR_FIELDS);
		if (f < 0)
			return "an unknown field";
		if (next == F_FREE_HIGHATOMIC && !free_highatomic_rules())
			next++;		/* a 6.1 event has no such field */
		if (f != next)
			return "a field out of order or repeated";
		next++;
		switch (f) {
		case F_PFN:
			ok = parse_hex(val, &e->pfn, sizeof(e->pfn));
			break;
		case F_ORDER:
			ok = parse_num(val, 10, false, &e->order, sizeof(e->order)) &&
			     e->order < 11;
			break;
		case F_GFP:
			ok = parse_str(val, e->gfp, sizeof(e->gfp));
			break;
		case F_ALLOC_FLAGS:
			ok = parse_hex(val, &e->alloc_flags, sizeof(e->alloc_flags));
			break;
		case F_MIGRATETYPE:
			ok = parse_num(val, 10, true, &e->migratetype, sizeof(int));
			break;
		case F_NID:
			ok = parse_num(val, 10, true, &e->nid, sizeof(int));
			break;
		case F_ZONE:
			ok = parse_str(val, e->zone, sizeof(e->zone));
			break;
		case F_HIGHEST_ZONE:
			ok = parse_str(val, e->highest_zone, sizeof(e->highest_zone));
			break;
		case F_FREE:
			ok = parse_num(val, 10, true, &e->free, sizeof(long));
			break;
		case F_FREE_CMA:
			ok = parse_num(val, 10, true, &e->free_cma, sizeof(long));
			break;
		case F_WATERMARK:
			ok = parse_num(val, 10, false, &e->watermark, sizeof(long));
			break;
		case F_BOOST:
			ok = parse_num(val, 10, false, &e->boost, sizeof(long));
			break;
		case F_LOWMEM_RESERVE:
			ok = parse_num(val, 10, true, &e->lowmem_reserve, sizeof(long));
			break;
		case F_HIGHATOMIC:
			ok = parse_num(val, 10, false, &e->highatomic, sizeof(long));
			break;
		case F_FREE_HIGHATOMIC:
			ok = parse_num(val, 10, false, &e->free_highatomic, sizeof(long));
			break;
		case F_FREE_BLOCKS:
			ok = parse_free_blocks(val, &e->free_blocks);
			break;
		case F_SOURCE:
			ok = (int)(e->source = lookup(val, source_names, NR_SOURCES)) >= 0;
			break;
		case F_HIGHATOMIC_BLOCK:
			ok = parse_num(val, 10, true, &e->highatomic_block, sizeof(int)) &&
			     (e->highatomic_block == 0 || e->highatomic_block == 1);
			break;
		case F_WATERMARK_TIER:
			ok = (int)(e->watermark_tier = lookup(val, tier_names, NR_TIERS)) >= 0;
			break;
		case F_TIER:
			ok = (int)(e->tier = lookup(val, tier_names, NR_TIERS)) >= 0;
			break;
		default:
			ok = false;
		}
		if (!ok) {
			static char why[64];

			snprintf(why, sizeof(why), "a bad %s value", field_names[f]);
			return why;
		}
	}
	if (next != NR_FIELDS)
		return "missing fields";
	return NULL;
}

/* ---- checks */

enum check {
	C_PARSE,
	C_FLAGS,
	C_WATERMARK_TIER,
	C_TIER,
	C_SOURCE_HIGHATOMIC,
	C_SOURCE_FALLBACK,
	C_WATERMARK_CONST,
	NR_CHECKS
};

static const char *const check_names[NR_CHECKS] = {
	"parse", "alloc_flags", "watermark_tier", "tier", "source_highatomic",
	"source_highatomic_fallback", "watermark_constant",
};

static unsigned long failures[NR_CHECKS];

/* MISMATCH CHECK FILE:LINE: WHY | every field of the event */
static void mismatch(enum check c, const char *file, unsigned long lineno,
		     const char *text, const char *fmt, ...)
{
	va_list ap;

	failures[c]++;
	printf("MISMATCH %s %s:%lu: ", check_names[c], file, lineno);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" | %.*s\n", (int)strcspn(text, "\r\n"), text);
}

/* the level checks spelled out, for a watermark_tier mismatch */
static void explain(const struct event *e, char *buf, size_t size)
{
	unsigned int base = e->alloc_flags & ~reserve_rights();
	size_t i, n = 0;
	struct wm_calc c;

	for (i = 0; i < NR_LEVELS && n < size; i++) {
		if ((e->alloc_flags & levels[i].bits) != levels[i].bits)
			continue;
		c = wm_check(e, base | levels[i].bits, e->watermark, false);
		n += snprintf(buf + n, size - n, "%s%s: usable %ld %s min %ld + lowmem %ld: %s",
			      n ? "; " : "", tier_names[levels[i].tier], c.usable,
			      c.usable > c.min + e->lowmem_reserve ? ">" : "<=",
			      c.min, e->lowmem_reserve,
			      c.ok ? "pass" : c.usable > c.min + e->lowmem_reserve ?
			      "fail (no block on a list it may use)" : "fail");
	}
}

/* distinct watermark values per (nid, zone, mark index) */
#define MAX_MARKS 64
static struct mark {
	int nid;
	char zone[16];
	unsigned int idx;
	unsigned long value;
	unsigned long first_line;
} marks[MAX_MARKS];
static int nr_marks;

static void check_mark(const struct event *e, const char *file, unsigned long lineno,
		       const char *text)
{
	unsigned int idx = e->alloc_flags & A_WMARK_MASK;
	int i;

	for (i = 0; i < nr_marks; i++) {
		if (marks[i].nid != e->nid || marks[i].idx != idx ||
		    strcmp(marks[i].zone, e->zone))
			continue;
		if (marks[i].value != e->watermark)
			mismatch(C_WATERMARK_CONST, file, lineno, text,
				 "watermark %lu, but %lu at line %lu for nid %d zone %s mark %u",
				 e->watermark, marks[i].value, marks[i].first_line,
				 e->nid, e->zone, idx);
		return;
	}
	if (nr_marks == MAX_MARKS)
		return;
	marks[nr_marks].nid = e->nid;
	strcpy(marks[nr_marks].zone, e->zone);
	marks[nr_marks].idx = idx;
	marks[nr_marks].value = e->watermark;
	marks[nr_marks].first_line = lineno;
	nr_marks++;
}

static void check_event(const struct event *e, const char *file, unsigned long lineno,
			const char *text)
{
	unsigned int unknown = e->alloc_flags & ~known_flags();
	bool from_highatomic = e->source == S_HIGHATOMIC || e->source == S_HIGHATOMIC_FALLBACK;
	enum tier want;
	char why[1024];

	if (unknown)
		mismatch(C_FLAGS, file, lineno, text,
			 "alloc_flags has bits 0x%x the %s kernel does not define",
			 unknown, kind_names[kind]);

	want = derive(e, e->watermark);
	if (want != e->watermark_tier) {
		explain(e, why, sizeof(why));
		mismatch(C_WATERMARK_TIER, file, lineno, text,
			 "watermark_tier is %s, derived %s (%s)",
			 tier_names[e->watermark_tier], tier_names[want], why);
	}

	want = from_highatomic ? T_HIGHATOMIC : e->watermark_tier;
	if (e->tier != want)
		mismatch(C_TIER, file, lineno, text,
			 "tier is %s, want %s (source %s, watermark_tier %s)",
			 tier_names[e->tier], tier_names[want],
			 source_names[e->source], tier_names[e->watermark_tier]);

	if (e->source == S_HIGHATOMIC) {
		if (after_rules() && !(e->alloc_flags & A_HIGHATOMIC))
			mismatch(C_SOURCE_HIGHATOMIC, file, lineno, text,
				 "source=highatomic without ALLOC_HIGHATOMIC");
		if (kind == BEFORE && !(e->order > 0 && (e->alloc_flags & A_0x10)))
			mismatch(C_SOURCE_HIGHATOMIC, file, lineno, text,
				 "source=highatomic without order > 0 and ALLOC_HARDER");
	}
	if (e->source == S_HIGHATOMIC_FALLBACK) {
		if (kind == BEFORE)
			mismatch(C_SOURCE_FALLBACK, file, lineno, text,
				 "source=highatomic_fallback on the before kernel");
		else if (!(e->alloc_flags & (A_OOM | A_0x10)))
			mismatch(C_SOURCE_FALLBACK, file, lineno, text,
				 "source=highatomic_fallback without ALLOC_OOM or ALLOC_NON_BLOCK");
	}
	check_mark(e, file, lineno, text);
}

static void usage(void)
{
	fprintf(stderr, "usage: tiercheck [-l LABEL] [-m MIN_EVENTS] before|after|6.12|7.2 TRACE\n"
			"       tiercheck -L   (the rule sets it checks, one a line)\n");
	exit(2);
}

#define TIER_EVENT "mm_page_alloc_tier: "

int main(int argc, char **argv)
{
	unsigned long tiers[NR_TIERS] = { 0 }, wm_tiers[NR_TIERS] = { 0 };
	unsigned long sources[NR_SOURCES] = { 0 };
	unsigned long events = 0, lineno = 0, other_events = 0, boosted = 0;
	unsigned long boost_changed = 0, boosted_deep = 0, pcp_highatomic_block = 0, high_order = 0;
	unsigned long reserve_fail = 0, reserve_ha = 0, unreserve_ha = 0, lost_markers = 0;
	long in_buffer = -1, written = -1;
	long min_events = -1;
	const char *file, *p;
	char *line = NULL, *end;
	size_t cap = 0;
	int opt, i, failed = 0;
	FILE *f;

	while ((opt = getopt(argc, argv, "l:m:L")) != -1) {
		switch (opt) {
		case 'L':
			for (i = 0; i < (int)(sizeof(kind_rule_sets) / sizeof(kind_rule_sets[0])); i++)
				printf("%s\n", kind_rule_sets[i]);
			return 0;
		case 'l':
			label = optarg;
			break;
		case 'm':
			min_events = strtol(optarg, &end, 10);
			if (*end || min_events < 0)
				usage();
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 2)
		usage();
	if (!strcmp(argv[optind], "after"))
		kind = AFTER;
	else if (!strcmp(argv[optind], "before"))
		kind = BEFORE;
	else if (!strcmp(argv[optind], "6.12"))
		kind = V6_12;
	else if (!strcmp(argv[optind], "7.2"))
		kind = V7_2;
	else
		usage();
	file = argv[optind + 1];
	f = fopen(file, "r");
	if (!f) {
		fprintf(stderr, "tiercheck: %s: %s\n", file, strerror(errno));
		return 2;
	}

	while (getline(&line, &cap, f) != -1) {
		struct event e;
		const char *why;

		lineno++;
		if (line[0] == '#') {
			/* "# entries-in-buffer/entries-written: 123/456   #P:2" */
			p = strstr(line, "entries-in-buffer/entries-written:");
			if (p && sscanf(p + strlen("entries-in-buffer/entries-written:"), "%ld/%ld",
					  &in_buffer, &written) != 2)
				in_buffer = written = -1;
			continue;
		}
		p = strstr(line, TIER_EVENT);
		if (!p) {
			/* another event: "comm-pid [cpu] flags ts: name: ..." */
			if (strstr(line, "mm_page_alloc_reserve_fail: "))
				reserve_fail++;
			else if (strstr(line, "mm_reserve_highatomic: "))
				reserve_ha++;
			else if (strstr(line, "mm_unreserve_highatomic: "))
				unreserve_ha++;
			if (strstr(line, "[LOST "))
				lost_markers++;
			else if (strstr(line, "] ") && strstr(line, ": "))
				other_events++;
			continue;
		}
		p += strlen(TIER_EVENT);
		why = parse_event(p, &e);
		if (why) {
			mismatch(C_PARSE, file, lineno, p, "cannot parse the event: %s", why);
			continue;
		}
		events++;
		tiers[e.tier]++;
		wm_tiers[e.watermark_tier]++;
		sources[e.source]++;
		if (e.boost > 0) {
			boosted++;
			if (derive(&e, e.watermark + e.boost) != derive(&e, e.watermark))
				boost_changed++;
			if (e.tier != T_NONE)
				boosted_deep++;
		}
		if (e.source == S_PCP && e.highatomic_block)
			pcp_highatomic_block++;
		if (e.order > 0)
			high_order++;
		check_event(&e, file, lineno, p);
	}
	if (ferror(f)) {
		fprintf(stderr, "tiercheck: %s: read error\n", file);
		return 2;
	}
	fclose(f);
	free(line);

	/* the counts first, then the verdicts */
	printf("%s: %lu events (%lu with order > 0); tiers:", label, events, high_order);
	for (i = 0; i < NR_TIERS; i++)
		if (tiers[i])
			printf(" %s %lu", tier_names[i], tiers[i]);
	printf("\n%s: watermark_tier:", label);
	for (i = 0; i < NR_TIERS; i++)
		if (wm_tiers[i])
			printf(" %s %lu", tier_names[i], wm_tiers[i]);
	printf("\n%s: source:", label);
	for (i = 0; i < NR_SOURCES; i++)
		printf(" %s %lu", source_names[i], sources[i]);
	printf("\n%s: boost > 0 in %lu events (%lu of them with a tier other than none; the boosted "
	       "mark would give another level in %lu); source=pcp highatomic_block=1: %lu; "
	       "no_level: %lu\n",
	       label, boosted, boosted_deep, boost_changed, pcp_highatomic_block,
	       tiers[T_NO_LEVEL]);
	printf("%s: other events: %lu (reserve_fail %lu, reserve_highatomic %lu, unreserve_highatomic %lu)\n",
	       label, other_events, reserve_fail, reserve_ha, unreserve_ha);
	printf("%s: watermarks seen:", label);
	for (i = 0; i < nr_marks; i++)
		printf(" nid%d/%s/mark%u=%lu", marks[i].nid, marks[i].zone, marks[i].idx,
		       marks[i].value);
	printf("\nSTATS %s kind=%s events=%lu high_order=%lu", label,
	       kind_names[kind], events, high_order);
	for (i = 0; i < NR_TIERS; i++)
		printf(" %s=%lu", tier_names[i], tiers[i]);
	printf(" boosted=%lu boosted_deep=%lu boost_changed=%lu pcp_highatomic_block=%lu"
	       " reserve_fail=%lu reserve_highatomic=%lu unreserve_highatomic=%lu\n",
	       boosted, boosted_deep, boost_changed, pcp_highatomic_block, reserve_fail,
	       reserve_ha, unreserve_ha);

#define VERDICT(cond, name, ...)                                        \
	do {                                                           \
		if (cond) {                                            \
			printf("PASS %s: %s\n", label, name);          \
		} else {                                               \
			printf("FAIL %s: %s: ", label, name);          \
			printf(__VA_ARGS__);                           \
			printf("\n");                                  \
			failed = 1;                                    \
		}                                                      \
	} while (0)

	if (in_buffer >= 0)
		VERDICT(in_buffer == written && !lost_markers &&
				(unsigned long)in_buffer == events + other_events + failures[C_PARSE],
			"trace complete (entries-in-buffer = entries-written = event lines)",
			"entries-in-buffer %ld, entries-written %ld, %lu event lines, %lu LOST markers",
			in_buffer, written, events + other_events + failures[C_PARSE], lost_markers);
	else
		printf("%s: no entries-in-buffer header: completeness not checked\n", label);
	if (min_events >= 0)
		VERDICT(events >= (unsigned long)min_events, "at least enough events",
			"%lu mm_page_alloc_tier events, want >= %ld", events, min_events);
	VERDICT(!failures[C_PARSE], "every mm_page_alloc_tier line parses",
		"%lu lines do not", failures[C_PARSE]);
	VERDICT(!failures[C_FLAGS], "alloc_flags hold only this kernel's ALLOC_* bits",
		"%lu of %lu events", failures[C_FLAGS], events);
	VERDICT(!failures[C_WATERMARK_TIER], "watermark_tier re-derived from each event's fields",
		"%lu of %lu events differ", failures[C_WATERMARK_TIER], events);
	VERDICT(!failures[C_TIER],
		"tier is highatomic iff source is highatomic/highatomic_fallback, else watermark_tier",
		"%lu of %lu events differ", failures[C_TIER], events);
	VERDICT(!failures[C_SOURCE_HIGHATOMIC],
		after_rules() ? "source=highatomic only with ALLOC_HIGHATOMIC"
			      : "source=highatomic only with order > 0 and ALLOC_HARDER",
		"%lu of %lu events", failures[C_SOURCE_HIGHATOMIC], sources[S_HIGHATOMIC]);
	VERDICT(!failures[C_SOURCE_FALLBACK],
		after_rules() ? "source=highatomic_fallback only with ALLOC_OOM or ALLOC_NON_BLOCK"
			      : "no source=highatomic_fallback (no such fallback before)",
		"%lu of %lu events", failures[C_SOURCE_FALLBACK], sources[S_HIGHATOMIC_FALLBACK]);
	VERDICT(!failures[C_WATERMARK_CONST], "watermark is one unboosted value per zone and mark",
		"%lu events differ from the zone's first", failures[C_WATERMARK_CONST]);
	return failed;
}
