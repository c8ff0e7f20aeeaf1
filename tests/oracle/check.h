/*
 * The oracle checker's shared declarations (build/oracle/check, built by
 * tests/oracle/build-tools from tests/oracle/check*.c): the run's inputs
 * as read (struct run, its records, expectations and trace events), the
 * per-tier tallies and gfptop's sums, and the functions one part of the
 * checker lends another. check_main.c says what the checker does.
 */
#ifndef ORACLE_CHECK_H
#define ORACLE_CHECK_H

#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define WS " \t\n\v\f\r"

/* enum page_alloc_tier, as the tracepoint prints it */
extern const char *const tiers[9];	/* check_util.c */
#define NTIERS ARRAY_SIZE(tiers)
#define TIER_OOM 4

/* gfptop's tier_context keys, in the order the messages print them */
enum { CTX_TASK, CTX_SOFTIRQ, CTX_HARDIRQ, NCTX };
extern const char *const ctx_names[NCTX];

#define ALLOC_OOM 0x08		/* both kernels' mm/internal.h */
/* ALLOC_HARDER|ALLOC_HIGH (before), ALLOC_NON_BLOCK|ALLOC_MIN_RESERVE
 * (after): the rights GFP_ATOMIC holds, the same bits in both kernels */
#define ALLOC_ATOMIC_RIGHTS 0x30

/* the rows of the reserve-failure series (rfail-trace.txt, rfail.json) */
#define RFAIL_CASE "rfail_atomic"

/* append one element to a growable array: p, n and cap name its parts */
#define PUSH(p, n, cap, item)							\
	do {									\
		if ((n) == (cap)) {						\
			(cap) = (cap) ? 2 * (cap) : 16;				\
			(p) = xrealloc((p), (cap) * sizeof(*(p)));		\
		}								\
		(p)[(n)++] = (item);						\
	} while (0)

/* "key=value" words, split in place at whitespace: NUL-separated s..end */
struct kv {
	char *s, *end;
};

/* an event of a tracefs dump */
struct event {
	const char *name;	/* the tracepoint: "mm_page_alloc_tier" */
	struct kv kv;		/* its "key=value ..." text */
	int ctx;		/* CTX_*: the flags' irq character */
};

struct events {
	struct event *v;
	size_t n, cap;
};

/* one run: OUTDIR, what was read of it, the expectations */
struct run {
	const char *out;	/* OUTDIR */
	const char *expect_base; /* EXPECT_FILE's last path component */
	struct expect *expect;
	size_t nexpect, cap_expect;
	struct kv hdr;		/* records.txt's first line: "# key=value ..." */
	struct rec *recs;
	size_t nrecs, cap_recs;
	long long camp_pid;
	struct events tier_evs;	/* the campaign thread's allocations */
	/* false on a kernel without the tier events (Debian's own): the
	 * rows' tiers are the expectations of their valid rows, and what
	 * gfptop derived on the probe source is checked against those */
	bool traced;
	/* phase1.txt: only the campaign's first phase ran ("run1", the
	 * zone set-ups of tests/oracle/zones-guest.sh): the expectations of
	 * the later phases, the reserve, the failure series and the OOM
	 * victim are not checked */
	bool phase1;
};

/* read_events(): every pid */
#define ANY_PID LLONG_MIN

/* per-tier counts */
struct tally {
	long long n[NTIERS];
	/* a tier name outside tiers[] was counted: it makes the tally
	 * differ from any other, and fmt_tally() does not print it */
	bool extra;
};

/* gfptop's JSON lines, summed */
struct gfptop {
	struct tally tiers;
	long long fails;	/* reserve_fail */
	long long ctx[NCTX];	/* tier_context summed over the tiers */
	long long pcp_ha;	/* pcp_highatomic: highatomic pages off a pcp list */
	long long pcp_ha_lines;	/* lines that have pcp_highatomic */
	long long lines;
};

/* an event field a row's event must have: "source=pcp" */
struct field_want {
	const char *key, *value;
};

/* an expect file's line: the tier of a (CASE, LEVEL) */
struct expect {
	const char *case_name, *level, *tier;
	bool optional;		/* "TIER?": the campaign makes the row only in some runs */
	struct field_want *fields;	/* KEY=VALUE words after TIER */
	size_t nfields, cap_fields;
};

/* a row of the module's records.txt */
struct rec {
	long long seq, rep, order, reached, lo, hi, free_before, free_after;
	long long reserved, ha_avail, pfn, wmin, normal_free;
	long long boost, boost_after, normal_avail;
	char *case_name, *level, *ctx;
	const char *key;	/* key_of(): the case, atomic_o4 split by reserve state */
	const char *observed;	/* the traced tier, "fail" or "no-event" */
	const struct event *ev;	/* its mm_page_alloc_tier event, if any */
	bool valid;		/* in_band() */
};

#define for_each_rec(r, rec) \
	for ((rec) = (r)->recs; (rec) < (r)->recs + (r)->nrecs; (rec)++)

/* check_util.c: memory, messages, text */
void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...);
void *xrealloc(void *p, size_t n);
char *__attribute__((format(printf, 1, 2))) xasprintf(const char *fmt, ...);
void __attribute__((format(printf, 2, 3))) catf(char **s, const char *fmt, ...);
extern const char *prefix;
void __attribute__((format(printf, 1, 2))) pass(const char *fmt, ...);
void __attribute__((format(printf, 2, 3))) fail(const char *name, const char *fmt, ...);
char *strip(char *s);
long long to_int(const char *s, int base, const char *what);
struct kv split_kv(char *s);
const char *kv_get(struct kv kv, const char *key);
int tier_index(const char *s);
bool tally_eq(const struct tally *a, const struct tally *b);
const char *fmt_tally(const struct tally *t);
char *join_sorted_unique(const char **v, size_t n, const char *sep);

/* check_input.c: OUTDIR's files, the trace, gfptop's JSON, the
 * expectations and the module's records */
FILE *open_out(const struct run *r, const char *file);
char *read_text(const struct run *r, const char *file);
void read_events(struct events *evs, const struct run *r, const char *file,
		 const char *name, long long pid);
void free_events(struct events *evs);
const char *field(const struct event *e, const char *key);
long long field_int(const struct event *e, const char *key, int base);
struct tally events_tally(const struct events *evs);
struct gfptop gfptop_counts(const struct run *r, const char *file);
struct expect *find_expect(const struct run *r, const char *case_name,
			   const char *level);
void parse_expect(struct run *r, const char *path);
void parse_records(struct run *r, FILE *f);
const char *hdr_get(const struct run *r, const char *key);
char *campaign_wmins(const struct run *r);
void match_records(struct run *r);

/* check_rows.c: a tier per case and level */
void check_rows(const struct run *r);

/* check_counts.c: gfptop -p <campaign pid> versus the oracle and the trace */
bool is_rfail(const struct rec *rec);
void check_counts(const struct run *r);

/* check_reserve.c: the reserve-failure series, the highatomic reserve,
 * the holder */
void check_rfail(const struct run *r);
void check_reserve(const struct run *r);
void check_held(const struct run *r);

/* check_oom.c: the OOM victim */
void check_oom(const struct run *r);

#endif /* ORACLE_CHECK_H */
