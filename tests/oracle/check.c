/*
 * Host-side checks of one oracle guest run (tests/oracle/host.sh):
 *
 *   build/oracle/check KIND OUTDIR EXPECT_FILE
 *
 * Reads what tests/oracle/guest.sh left in OUTDIR (the module's
 * records.txt, the tracefs dumps trace.txt, rfail-trace.txt and
 * oom-trace.txt, gfptop's JSON lines campaign.json, campaign-probe.json,
 * rfail.json and oom.json, held.txt, hog.pid, hog.rc, oom-dmesg.txt) and
 * prints one "PASS name" / "FAIL name: why" line per check. It exits 0
 * whatever the checks found: tests/run counts the lines. It exits 1 only
 * when an input is malformed and the run cannot be judged (a message on
 * stderr), and the caller then adds a FAIL line.
 *
 * On a kernel without the tier tracepoints (guest.sh writes traced.txt
 * "0": Debian's own kernels) nothing is traced: each row's success or
 * failure is checked against its expectation, the tier of each valid
 * row is the expectation's, and gfptop's probe source (fentry/fexit in
 * campaign-probe.json, kprobes in campaign-kprobe.json) must count
 * exactly those tiers and contexts.
 *
 * Every input is machine-written (the module, tracefs, gfptop, our own
 * expect files): whitespace-separated words and key=value pairs are all
 * the parsing there is. What one check reads of a trace is freed after
 * it; everything else is allocated for the run and lives until exit.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define WS " \t\n\v\f\r"

/* enum page_alloc_tier, as the tracepoint prints it */
static const char *const tiers[] = {
	"none", "non_block", "min_reserve", "min_reserve_non_block",
	"oom", "no_watermarks", "highatomic", "highatomic_counted",
	"no_level",
};
#define NTIERS ARRAY_SIZE(tiers)
#define TIER_OOM 4

/* gfptop's tier_context keys, in the order the messages print them */
enum { CTX_TASK, CTX_SOFTIRQ, CTX_HARDIRQ, NCTX };
static const char *const ctx_names[NCTX] = { "task", "softirq", "hardirq" };

#define ALLOC_OOM 0x08		/* both kernels' mm/internal.h */
/* ALLOC_HARDER|ALLOC_HIGH (before), ALLOC_NON_BLOCK|ALLOC_MIN_RESERVE
 * (after): the rights GFP_ATOMIC holds, the same bits in both kernels */
#define ALLOC_ATOMIC_RIGHTS 0x30

/* the rows of the reserve-failure series (rfail-trace.txt, rfail.json) */
#define RFAIL_CASE "rfail_atomic"

/* ---- memory and messages */

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;

	/* the PASS/FAIL lines so far stay: they were judged already */
	fflush(stdout);
	fputs("check: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

static char *__attribute__((format(printf, 1, 2))) xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("out of memory");
	return s;
}

/* append to *s, a string from xasprintf() */
static void __attribute__((format(printf, 2, 3))) catf(char **s, const char *fmt, ...)
{
	va_list ap;
	char *more, *old = *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&more, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("out of memory");
	*s = xasprintf("%s%s", old, more);
	free(old);
	free(more);
}

/* append one element to a growable array: p, n and cap name its parts */
#define PUSH(p, n, cap, item)							\
	do {									\
		if ((n) == (cap)) {						\
			(cap) = (cap) ? 2 * (cap) : 16;				\
			(p) = xrealloc((p), (cap) * sizeof(*(p)));		\
		}								\
		(p)[(n)++] = (item);						\
	} while (0)

/* "oracle KIND": the start of every check's name */
static const char *prefix;

static void __attribute__((format(printf, 1, 2))) pass(const char *fmt, ...)
{
	va_list ap;

	printf("PASS %s: ", prefix);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static void __attribute__((format(printf, 2, 3)))
fail(const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("FAIL %s: %s: ", prefix, name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* ---- text */

/* s without its surrounding whitespace (trimmed in place) */
static char *strip(char *s)
{
	size_t n;

	s += strspn(s, WS);
	for (n = strlen(s); n && isspace((unsigned char)s[n - 1]); n--)
		;
	s[n] = '\0';
	return s;
}

/* the whole of s as a number in base 10 or 16 ("0x" allowed) */
static long long to_int(const char *s, int base, const char *what)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, base);
	if (end == s || *end || errno)
		die("%s: not a base %d number: '%s'", what, base, s);
	return v;
}

/* "key=value" words, split in place at whitespace: NUL-separated s..end */
struct kv {
	char *s, *end;
};

static struct kv split_kv(char *s)
{
	struct kv kv = { s, s + strlen(s) };

	for (; *s; s++)
		if (isspace((unsigned char)*s))
			*s = '\0';
	return kv;
}

/* key's value; NULL if there is none, or an empty one ("free_blocks=") */
static const char *kv_get(struct kv kv, const char *key)
{
	size_t n = strlen(key);
	const char *w;

	for (w = kv.s; w < kv.end; w += strlen(w) + 1)
		if (!strncmp(w, key, n) && w[n] == '=')
			return w[n + 1] ? w + n + 1 : NULL;
	return NULL;
}

/* ---- files */

struct event {
	const char *name;	/* the tracepoint: "mm_page_alloc_tier" */
	struct kv kv;		/* its "key=value ..." text */
	int ctx;		/* CTX_*: the flags' irq character */
};

struct events {
	struct event *v;
	size_t n, cap;
};

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

/* OUTDIR/file, or NULL if it cannot be opened */
static FILE *open_out(const struct run *r, const char *file)
{
	char *path = xasprintf("%s/%s", r->out, file);
	FILE *f = fopen(path, "r");

	free(path);
	return f;
}

/* a whole (small) file as a string, or NULL if it cannot be opened */
static char *read_text(const struct run *r, const char *file)
{
	FILE *f = open_out(r, file);
	char *s = NULL;
	size_t cap = 0;

	if (!f)
		return NULL;
	/* a text file has no NUL: up to the first one is all of it */
	if (getdelim(&s, &cap, '\0', f) < 0) {
		free(s);
		s = xasprintf("%s", "");
	}
	fclose(f);
	return s;
}

/* ---- the trace */

#define ANY_PID LLONG_MIN

/* the third character of the flags ("d.h1."): h/H hardirq, s softirq */
static int ctx_of_flags(const char *flags)
{
	char c = strlen(flags) > 2 ? flags[2] : '.';

	if (c == 'h' || c == 'H')
		return CTX_HARDIRQ;
	return c == 's' ? CTX_SOFTIRQ : CTX_TASK;
}

/*
 * Append the events of one tracepoint (of one pid unless ANY_PID) in a
 * tracefs dump to evs; a missing file has none. A line is
 * "comm-pid [cpu] flags timestamp: name: key=value ...", and the comm
 * may hold dashes: the pid follows the first dash the rest fits after.
 */
static void read_events(struct events *evs, const struct run *r, const char *file,
			const char *name, long long pid)
{
	FILE *f = open_out(r, file);
	char *line = NULL, flags[32], ev[64];
	const char *d;
	size_t cap = 0;
	long long p = 0;
	int rest = 0;
	struct event e = { .name = name };

	if (!f)
		return;
	while (getline(&line, &cap, f) >= 0) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#')
			continue;
		for (d = strchr(line, '-'); d; d = strchr(d + 1, '-')) {
			rest = 0;
			if (isdigit((unsigned char)d[1]) &&
			    sscanf(d + 1, "%lld [%*d] %31s %*[0-9.]: %63[A-Za-z0-9_]: %n",
				   &p, flags, ev, &rest) == 3 && rest)
				break;
		}
		if (!d || strcmp(ev, name) || (pid != ANY_PID && p != pid))
			continue;
		e.kv = split_kv(xasprintf("%s", d + 1 + rest));
		e.ctx = ctx_of_flags(flags);
		PUSH(evs->v, evs->n, evs->cap, e);
	}
	free(line);
	fclose(f);
}

static void free_events(struct events *evs)
{
	size_t i;

	for (i = 0; i < evs->n; i++)
		free(evs->v[i].kv.s);
	free(evs->v);
}

/* e[key]: a missing field is an error */
static const char *field(const struct event *e, const char *key)
{
	const char *v = kv_get(e->kv, key);

	if (!v)
		die("%s event without %s=", e->name, key);
	return v;
}

static long long field_int(const struct event *e, const char *key, int base)
{
	return to_int(field(e, key), base, key);
}

/* ---- per-tier counts */

struct tally {
	long long n[NTIERS];
	/* a tier name outside tiers[] was counted: it makes the tally
	 * differ from any other, and fmt_tally() does not print it */
	bool extra;
};

static int tier_index(const char *s)
{
	size_t i;

	for (i = 0; i < NTIERS; i++)
		if (!strcmp(s, tiers[i]))
			return i;
	return -1;
}

/* exact because one side of each comparison (the oracle or gfptop)
 * never has extra names */
static bool tally_eq(const struct tally *a, const struct tally *b)
{
	return !a->extra && !b->extra && !memcmp(a->n, b->n, sizeof(a->n));
}

/* "tier=N ..." for the non-zero tiers, or "nothing" */
static const char *fmt_tally(const struct tally *t)
{
	char *s = xasprintf("%s", "");
	size_t i;

	for (i = 0; i < NTIERS; i++)
		if (t->n[i])
			catf(&s, "%s%s=%lld", *s ? " " : "", tiers[i], t->n[i]);
	return *s ? s : "nothing";
}

static struct tally events_tally(const struct events *evs)
{
	struct tally t = { 0 };
	size_t i;
	int k;

	for (i = 0; i < evs->n; i++) {
		k = tier_index(field(&evs->v[i], "tier"));
		if (k < 0)
			t.extra = true;
		else
			t.n[k]++;
	}
	return t;
}

/* ---- gfptop's JSON lines */

struct gfptop {
	struct tally tiers;
	long long fails;	/* reserve_fail */
	long long ctx[NCTX];	/* tier_context summed over the tiers */
	long long pcp_ha;	/* pcp_highatomic: highatomic pages off a pcp list */
	long long pcp_ha_lines;	/* lines that have pcp_highatomic */
	long long lines;
};

/* o[key]: o must be an object that has key */
static struct json_object *member(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v))
		die("gfptop JSON: no \"%s\" where one was expected", key);
	return v;
}

/* o["count"]: gfptop writes integers, anything else is refused */
static long long count_of(struct json_object *o)
{
	struct json_object *c = member(o, "count");

	if (!json_object_is_type(c, json_type_int))
		die("gfptop JSON: \"count\" is not an integer");
	return json_object_get_int64(c);
}

/* one JSON value and nothing after it: a truncated line is an error */
static struct json_object *parse_json(const char *line, const char *file, size_t lineno)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *j;
	enum json_tokener_error err;
	size_t n = strlen(line), end;

	if (!tok)
		die("out of memory");
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	j = json_tokener_parse_ex(tok, line, n);
	err = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (err != json_tokener_success || end != n)
		die("%s line %zu: %s", file, lineno, err != json_tokener_success ?
		    json_tokener_error_desc(err) : "extra data after the JSON value");
	return j;
}

static void add_interval(struct gfptop *g, struct json_object *j)
{
	struct json_object *tc;
	size_t t, c;

	for (t = 0; t < NTIERS; t++)
		g->tiers.n[t] += count_of(member(member(j, "tiers"), tiers[t]));
	g->fails += count_of(member(j, "reserve_fail"));
	if (json_object_object_get_ex(j, "pcp_highatomic", &tc)) {
		g->pcp_ha += count_of(tc);
		g->pcp_ha_lines++;
	}
	tc = member(j, "tier_context");
	for (t = 0; t < NTIERS; t++)
		for (c = 0; c < NCTX; c++)
			g->ctx[c] += count_of(member(member(tc, tiers[t]), ctx_names[c]));
}

/* gfptop -j prints one JSON object a line, one a second: sum them */
static struct gfptop gfptop_counts(const struct run *r, const char *file)
{
	struct gfptop g = { 0 };
	FILE *f = open_out(r, file);
	char *line = NULL, *s;
	size_t cap = 0, lineno = 0;
	struct json_object *j;

	if (!f)
		return g;
	while (getline(&line, &cap, f) >= 0) {
		lineno++;
		s = strip(line);
		if (!*s)
			continue;
		j = parse_json(s, file, lineno);
		g.lines++;
		add_interval(&g, j);
		json_object_put(j);
	}
	free(line);
	fclose(f);
	return g;
}

/* ---- the expectation table */

/* an event field a row's event must have: "source=pcp" */
struct field_want {
	const char *key, *value;
};

struct expect {
	const char *case_name, *level, *tier;
	bool optional;		/* "TIER?": the campaign makes the row only in some runs */
	struct field_want *fields;	/* KEY=VALUE words after TIER */
	size_t nfields, cap_fields;
};

static struct expect *find_expect(const struct run *r, const char *case_name,
				  const char *level)
{
	size_t i;

	for (i = 0; i < r->nexpect; i++)
		if (!strcmp(r->expect[i].case_name, case_name) &&
		    !strcmp(r->expect[i].level, level))
			return &r->expect[i];
	return NULL;
}

/* the event fields an expectation may name (the trace's own keys) */
static const char *const field_keys[] = {
	"source", "highatomic_block", "watermark_tier", "free_blocks",
};

/*
 * One "CASE LEVEL TIER[?] [KEY=VALUE...]" line, its comment cut off; the
 * expectation's strings point into a copy of it. A repeated (CASE,
 * LEVEL) keeps its place and takes the later tier and fields, and stays
 * optional once it was.
 */
static void add_expect(struct run *r, const char *line, const char *path)
{
	struct expect x = { 0 }, *old;
	char *w[3], *kw, *eq, *save = NULL, *copy = xasprintf("%s", line);
	size_t n, k;

	for (n = 0; n < 3 && (w[n] = strtok_r(n ? NULL : copy, WS, &save)); n++)
		;
	if (!n)
		return;
	if (n < 3)
		die("%s: not CASE LEVEL TIER: %s", path, line);
	x.case_name = w[0];
	x.level = w[1];
	x.tier = w[2];
	n = strlen(w[2]);
	if (w[2][n - 1] == '?') {
		w[2][n - 1] = '\0';
		x.optional = true;
	}
	while ((kw = strtok_r(NULL, WS, &save))) {
		eq = strchr(kw, '=');
		if (!eq || eq == kw || !eq[1])
			die("%s: not KEY=VALUE: %s", path, kw);
		*eq = '\0';
		for (k = 0; k < ARRAY_SIZE(field_keys) && strcmp(kw, field_keys[k]); k++)
			;
		if (k == ARRAY_SIZE(field_keys))
			die("%s: unknown event field %s", path, kw);
		PUSH(x.fields, x.nfields, x.cap_fields, ((struct field_want){ kw, eq + 1 }));
	}
	old = find_expect(r, x.case_name, x.level);
	if (old) {
		old->tier = x.tier;
		old->optional |= x.optional;
		old->fields = x.fields;
		old->nfields = x.nfields;
	} else {
		PUSH(r->expect, r->nexpect, r->cap_expect, x);
	}
}

static void parse_expect(struct run *r, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;

	if (!f)
		die("cannot read %s", path);
	while (getline(&line, &cap, f) >= 0) {
		line[strcspn(line, "\n")] = '\0';
		/* a comment runs from the first # to the end of the line */
		line[strcspn(line, "#")] = '\0';
		add_expect(r, line, path);
	}
	free(line);
	fclose(f);
}

/* ---- the module's records */

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

/*
 * atomic_o4 rows behave by the reserve's state: a free highatomic block
 * (ha; ha_counted if no normal list had a block of the order, so that
 * only the highatomic one counted), no reserve yet (fresh), or a
 * reserve without a usable block (hidden)
 */
static const char *key_of(const struct rec *rec)
{
	if (strcmp(rec->case_name, "atomic_o4"))
		return rec->case_name;
	if (rec->ha_avail)
		return xasprintf("%s/%s", rec->case_name, rec->normal_avail ? "ha" : "ha_counted");
	if (rec->reserved == 0)
		return xasprintf("%s/fresh", rec->case_name);
	return xasprintf("%s/hidden", rec->case_name);
}

/*
 * seq case level rep ctx order gfp reached lo hi free_before free_after
 * reserved_ha ha_avail pfn wmin normal_free boost boost_after
 * normal_avail: all but gfp are read (rep and free_after are not
 * checked, but a garbled row is an error)
 */
static struct rec parse_rec(const char *line)
{
	struct rec rec = { 0 };

	if (sscanf(line, "%lld %ms %ms %lld %ms %lld %*s %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld",
		   &rec.seq, &rec.case_name, &rec.level, &rec.rep, &rec.ctx, &rec.order,
		   &rec.reached, &rec.lo, &rec.hi, &rec.free_before, &rec.free_after,
		   &rec.reserved, &rec.ha_avail, &rec.pfn, &rec.wmin, &rec.normal_free,
		   &rec.boost, &rec.boost_after, &rec.normal_avail) != 19)
		die("records.txt: not a row of 20 fields: %s", line);
	rec.key = key_of(&rec);
	return rec;
}

/* the first line is the header; then one record a line, lines starting
 * with # and blank ones skipped */
static void parse_records(struct run *r, FILE *f)
{
	char *line = NULL;
	size_t cap = 0;
	struct rec rec;

	while (getline(&line, &cap, f) >= 0) {
		line[strcspn(line, "\n")] = '\0';
		if (!r->hdr.s)
			r->hdr = split_kv(xasprintf("%s", line));
		if (line[0] == '#' || !line[strspn(line, WS)])
			continue;
		rec = parse_rec(line);
		PUSH(r->recs, r->nrecs, r->cap_recs, rec);
	}
	free(line);
	if (!r->hdr.s)
		die("records.txt is empty");
}

/* the header's value for key, or "None" */
static const char *hdr_get(const struct run *r, const char *key)
{
	const char *v = kv_get(r->hdr, key);

	return v ? v : "None";
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* sort strings and join the distinct ones with sep */
static char *join_sorted_unique(const char **v, size_t n, const char *sep)
{
	char *s = xasprintf("%s", "");
	size_t i;

	qsort(v, n, sizeof(*v), cmp_str);
	for (i = 0; i < n; i++)
		if (!i || strcmp(v[i], v[i - 1]))
			catf(&s, "%s%s", i ? sep : "", v[i]);
	return s;
}

/* the distinct min watermarks the rows saw, sorted as strings */
static char *campaign_wmins(const struct run *r)
{
	const char **v = xrealloc(NULL, r->nrecs * sizeof(*v));
	size_t i;

	for (i = 0; i < r->nrecs; i++)
		v[i] = xasprintf("%lld", r->recs[i].wmin);
	return join_sorted_unique(v, r->nrecs, "/");
}

/*
 * Match each successful oracle allocation to the next tier event with
 * its pfn and order, in order: the campaign thread's events come in the
 * order of its allocations, and a pfn is reused once freed.
 */
static void match_records(struct run *r)
{
	const struct events *evs = &r->tier_evs;
	struct rec *rec;
	size_t pos = 0, i;

	for_each_rec(r, rec) {
		rec->observed = rec->pfn < 0 ? "fail" : "no-event";
		if (rec->pfn < 0)
			continue;
		for (i = pos; i < evs->n; i++) {
			if (field_int(&evs->v[i], "pfn", 16) == rec->pfn &&
			    field_int(&evs->v[i], "order", 10) == rec->order) {
				rec->ev = &evs->v[i];
				rec->observed = field(rec->ev, "tier");
				pos = i + 1;
				break;
			}
		}
	}
}

/* ---- a tier per case and level */

/* whether the free count the decision saw lies in the row's band */
static bool in_band(const struct rec *rec)
{
	long long f, res;

	if (!rec->reached)
		return false;
	f = rec->ev ? field_int(rec->ev, "free", 10) : rec->free_before;
	if (!(rec->lo < f && f <= rec->hi))
		return false;
	res = rec->ev ? field_int(rec->ev, "highatomic", 10) : rec->reserved;
	if (!strcmp(rec->level, "min_low_ha") && (res == 0 || f - res > rec->wmin))
		return false;
	if (!strcmp(rec->level, "ha_only") &&
	    (res == 0 || !rec->ha_avail || rec->normal_free))
		return false;
	/* the band was set for the reserve the module saw */
	if ((!strcmp(rec->level, "over_ha") || !strcmp(rec->level, "frag") ||
	     !strcmp(rec->level, "boost")) && res != rec->reserved)
		return false;
	/* the boost stayed on the zone until the allocation returned */
	if (!strcmp(rec->level, "boost") && (!rec->boost || rec->boost_after != rec->boost))
		return false;
	return true;
}

/*
 * Rows are checked in groups of one (key_of, level), in the order the
 * campaign made them; a group goes by its first row.
 */
static struct rec *first_row(const struct run *r, const char *key, const char *level)
{
	struct rec *rec;

	for_each_rec(r, rec)
		if (!strcmp(rec->key, key) && !strcmp(rec->level, level))
			return rec;
	return NULL;
}

#define for_each_row(r, g, rec)	\
	for_each_rec(r, rec)	\
		if (!strcmp((rec)->key, (g)->key) && !strcmp((rec)->level, (g)->level))

/* the rows' free_before (or normal_free) joined with "," */
static char *join_rows(const struct run *r, const struct rec *g, bool normal_free)
{
	char *s = xasprintf("%s", "");
	const struct rec *rec;

	for_each_row(r, g, rec)
		catf(&s, "%s%lld", *s ? "," : "", normal_free ? rec->normal_free : rec->free_before);
	return s;
}

static char *observed_set(const struct run *r, const struct rec *g)
{
	const char **v = xrealloc(NULL, r->nrecs * sizeof(*v));
	const struct rec *rec;
	size_t n = 0;

	for_each_row(r, g, rec)
		v[n++] = rec->observed;
	return join_sorted_unique(v, n, ",");
}

/* the free count a row reports: the event's own text, else the module's */
static const char *rec_free_str(const struct rec *rec)
{
	return rec->ev ? field(rec->ev, "free") : xasprintf("%lld", rec->free_before);
}

/* V is one of the comma-separated alternatives of WANT ("none,non_block") */
static bool value_in(const char *v, const char *want)
{
	size_t n = strlen(v);
	const char *p = want;

	for (;;) {
		if (!strncmp(p, v, n) && (p[n] == ',' || p[n] == '\0'))
			return true;
		p = strchr(p, ',');
		if (!p)
			return false;
		p++;
	}
}

/*
 * The first event field of a row's event that is not what the
 * expectation says, as "key=want, observed value"; NULL if all are.
 * Besides the expectation's KEY=VALUE words: watermark_tier equals the
 * tier unless the tier is highatomic (or fail), and boost is what the
 * module set (0 except in the boost rows).
 */
static char *field_mismatch(const struct expect *x, const struct rec *rec)
{
	const char *v;
	size_t i;

	for (i = 0; i < x->nfields; i++) {
		v = kv_get(rec->ev->kv, x->fields[i].key);
		if (!v)
			v = "(none)";
		if (!value_in(v, x->fields[i].value))
			return xasprintf("%s=%s, observed %s", x->fields[i].key,
					 x->fields[i].value, v);
	}
	if (strcmp(x->tier, "highatomic") && strcmp(x->tier, "fail")) {
		v = field(rec->ev, "watermark_tier");
		if (strcmp(v, x->tier))
			return xasprintf("watermark_tier=%s, observed %s", x->tier, v);
	}
	if (field_int(rec->ev, "boost", 10) != rec->boost)
		return xasprintf("boost=%lld (the module's), observed %s", rec->boost,
				 field(rec->ev, "boost"));
	return NULL;
}

/*
 * Untraced, what a row shows is only whether it got a page: a valid row
 * that did and should have carries its expected tier (the count gfptop
 * must match), one that should have failed is "allocated"; a row not in
 * its band has no known tier ("unknown"), a failed one is "fail".
 */
static const char *untraced_observed(const struct rec *rec, const struct expect *x)
{
	if (rec->pfn < 0)
		return "fail";
	if (!rec->valid)
		return "unknown";
	return strcmp(x->tier, "fail") ? x->tier : "allocated";
}

static void check_group(const struct run *r, const struct rec *g)
{
	char *n = xasprintf("%s at %s", g->key, g->level);
	const struct expect *x = find_expect(r, g->key, g->level);
	struct rec *rec, *wrong = NULL;
	char *why = NULL, *fields;
	size_t nvalid = 0, nrows = 0, i;

	/* every row's band first, even without an expectation: reading an
	 * event's free= can fail */
	for_each_row(r, g, rec) {
		nvalid += rec->valid = in_band(rec);
		nrows++;
		if (!r->traced)
			rec->observed = x ? untraced_observed(rec, x) :
				        rec->pfn < 0 ? "fail" : "unknown";
	}
	if (!x) {
		fail(n, "no expectation in %s (observed %s)", r->expect_base, observed_set(r, g));
		return;
	}
	if (!nvalid) {
		fail(n, "level not reached (free %s, band %lld..%lld%s)",
		     join_rows(r, g, false), g->lo, g->hi,
		     strcmp(g->level, "ha_only") ? "" :
		     xasprintf(", free outside the reserve %s", join_rows(r, g, true)));
		return;
	}
	for_each_row(r, g, rec)
		if (!wrong && rec->valid && strcmp(rec->observed, x->tier))
			wrong = rec;
	if (wrong) {
		fail(n, "expected %s, observed %s (seq %lld, free %s, reserve %lld)",
		     x->tier, wrong->observed, wrong->seq, rec_free_str(wrong), wrong->reserved);
		return;
	}
	for_each_row(r, g, rec)
		if (!why && rec->valid && rec->ev && (why = field_mismatch(x, rec)))
			wrong = rec;
	if (why) {
		fail(n, "%s: expected %s (seq %lld, free %s, reserve %lld)", x->tier, why,
		     wrong->seq, rec_free_str(wrong), wrong->reserved);
		return;
	}
	fields = xasprintf("%s", "");
	for (i = 0; i < x->nfields; i++)
		catf(&fields, " %s=%s", x->fields[i].key, x->fields[i].value);
	pass("%s: %s%s (%zu/%zu rows in band%s)", n, x->tier, r->traced ? fields : "", nvalid, nrows,
	     r->traced ? "" : "; untraced: allocated or failed as expected");
}

/* a (case, level) of the first phase: the order-0 levels and boost */
static bool in_phase1(const struct expect *x)
{
	static const char *const levels[] = {
		"above_low", "min_low", "87", "69", "56", "44", "31", "boost"
	};
	size_t i;

	if (!strcmp(x->case_name, RFAIL_CASE))
		return false;
	for (i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
		if (!strcmp(x->level, levels[i]))
			return true;
	return false;
}

static void check_rows(const struct run *r)
{
	const struct rec *rec;
	size_t i;

	for_each_rec(r, rec)
		if (first_row(r, rec->key, rec->level) == rec)
			check_group(r, rec);
	/* and every expected (case, level) the campaign made no row for */
	for (i = 0; i < r->nexpect; i++) {
		const struct expect *x = &r->expect[i];

		if (r->phase1 && !in_phase1(x))
			continue;
		if (!first_row(r, x->case_name, x->level) && !x->optional)
			fail(xasprintf("%s at %s", x->case_name, x->level),
			     "expected %s, but the campaign has no such row", x->tier);
	}
}

/* ---- gfptop -p <campaign pid> versus the oracle and the trace */

static bool is_rfail(const struct rec *rec)
{
	return !strcmp(rec->case_name, RFAIL_CASE);
}

/* how many rows of the campaign (rfail: of the failure series, else the
 * others) were traced at each tier */
static struct tally oracle_tally(const struct run *r, bool rfail)
{
	struct tally t = { 0 };
	const struct rec *rec;
	int k;

	for_each_rec(r, rec) {
		k = tier_index(rec->observed);
		if (is_rfail(rec) == rfail && k >= 0)
			t.n[k]++;
	}
	return t;
}

/* the rows that got a page without a known tier (untraced, out of band) */
static long long unknown_rows(const struct run *r, bool rfail)
{
	const struct rec *rec;
	long long n = 0;

	for_each_rec(r, rec)
		n += is_rfail(rec) == rfail && !strcmp(rec->observed, "unknown");
	return n;
}

/*
 * Equal, tier by tier. Untraced rows out of their band got a page at a
 * tier nobody knows: then gfptop must have at least the oracle's count
 * in every tier and exactly as many allocations in all (said so).
 */
static void check_tier_counts(const char *how, const struct gfptop *g,
			      const struct tally *oracle, long long unknown)
{
	char *n = xasprintf("gfptop %s-p campaign-pid per-tier counts equal the oracle's", how);
	long long got = 0, want = unknown;
	bool ge = true;
	size_t k;

	for (k = 0; k < NTIERS; k++) {
		got += g->tiers.n[k];
		want += oracle->n[k];
		ge &= g->tiers.n[k] >= oracle->n[k];
	}
	if (g->lines == 0)
		fail(n, "no gfptop output");
	else if (!unknown && tally_eq(&g->tiers, oracle))
		pass("%s (%s)", n, fmt_tally(oracle));
	else if (unknown && ge && got == want)
		pass("%s (%s, and %lld rows out of band, of unknown tier: gfptop %s)", n,
		     fmt_tally(oracle), unknown, fmt_tally(&g->tiers));
	else
		fail(n, "gfptop %s, oracle %s%s", fmt_tally(&g->tiers), fmt_tally(oracle),
		     unknown ? xasprintf(" and %lld rows of unknown tier", unknown) : "");
}

static void check_reserve_fails(const struct run *r, const struct gfptop *g)
{
	const char *n = "gfptop -p campaign-pid counts the campaign's reserve failures";
	struct events rfail = { 0 };

	read_events(&rfail, r, "trace.txt", "mm_page_alloc_reserve_fail", r->camp_pid);
	if (g->fails == (long long)rfail.n)
		pass("%s (%lld mm_page_alloc_reserve_fail)", n, g->fails);
	else
		fail(n, "gfptop %lld, trace %zu", g->fails, rfail.n);
	free_events(&rfail);
}

/* the context a row asked for: its softirq/hardirq, else a task */
static int rec_ctx(const struct rec *rec)
{
	if (!strcmp(rec->ctx, "softirq"))
		return CTX_SOFTIRQ;
	return strcmp(rec->ctx, "hardirq") ? CTX_TASK : CTX_HARDIRQ;
}

/* printed as a Python dict, as these messages always were */
static char *fmt_ctx(const long long *ctx)
{
	return xasprintf("{'task': %lld, 'softirq': %lld, 'hardirq': %lld}",
			 ctx[CTX_TASK], ctx[CTX_SOFTIRQ], ctx[CTX_HARDIRQ]);
}

/*
 * The context each traced allocation ran in: the trace's irq flags and
 * gfptop's tier_context against the oracle's.
 */
static void check_contexts(const struct run *r, const struct gfptop *g, const char *how)
{
	long long octx[NCTX] = { 0 };
	const struct rec *rec, *wrong = NULL;
	const char *n;

	for_each_rec(r, rec) {
		if (is_rfail(rec) || (r->traced ? !rec->ev : rec->pfn < 0))
			continue;
		octx[rec_ctx(rec)]++;
		if (r->traced && rec->ev->ctx != rec_ctx(rec) && !wrong)
			wrong = rec;
	}
	n = "softirq/hardirq rows ran in that context (trace irq flags)";
	if (!r->traced)
		; /* no trace to say */
	else if (wrong)
		fail(n, "%s at %s: expected %s, observed %s", wrong->case_name, wrong->level,
		     ctx_names[rec_ctx(wrong)], ctx_names[wrong->ev->ctx]);
	else
		pass("%s (softirq %lld, hardirq %lld)", n, octx[CTX_SOFTIRQ], octx[CTX_HARDIRQ]);
	n = xasprintf("gfptop %s-p campaign-pid per-context counts equal the oracle's", how);
	if (!memcmp(g->ctx, octx, sizeof(octx)))
		pass("%s", n);
	else
		fail(n, "gfptop %s, oracle %s", fmt_ctx(g->ctx), fmt_ctx(octx));
}

/*
 * Pages of a highatomic pageblock handed out from a per-cpu list
 * (source=pcp highatomic_block=1): gfptop counts them apart, as
 * highatomic pages used without the right.
 */
static void check_pcp_highatomic(const struct run *r, const struct gfptop *g)
{
	const char *n = "gfptop -p campaign-pid counts the highatomic pages off per-cpu lists";
	const struct rec *rec;
	const char *src, *blk;
	long long want = 0;

	for_each_rec(r, rec) {
		if (!rec->ev || is_rfail(rec))
			continue;
		src = field(rec->ev, "source");
		blk = field(rec->ev, "highatomic_block");
		want += !strcmp(src, "pcp") && !strcmp(blk, "1");
	}
	if (g->lines == 0)
		fail(n, "no gfptop output");
	else if (g->pcp_ha_lines != g->lines)
		fail(n, "gfptop's JSON has no pcp_highatomic");
	else if (g->pcp_ha == want)
		pass("%s (%lld)", n, want);
	else
		fail(n, "gfptop %lld, the oracle's rows %lld", g->pcp_ha, want);
}

static void check_counts(const struct run *r)
{
	const char *n = "every traced allocation of the campaign thread is an oracle row";
	struct tally all = oracle_tally(r, false), rf = oracle_tally(r, true);
	struct tally traced = events_tally(&r->tier_evs);
	/* the same campaign counted by the probe source (tiers derived from
	 * zone counters, docs/probe.md), in a gfptop of its own */
	struct gfptop gp = gfptop_counts(r, "campaign-probe.json"), g, gk;
	long long unknown = unknown_rows(r, false);
	size_t k;

	if (!r->traced) {
		/* fentry/fexit, and the same on kprobes */
		gk = gfptop_counts(r, "campaign-kprobe.json");
		check_tier_counts("--source probe ", &gp, &all, unknown);
		check_contexts(r, &gp, "--source probe ");
		check_tier_counts("--source probe --kprobe ", &gk, &all, unknown);
		check_contexts(r, &gk, "--source probe --kprobe ");
		return;
	}
	g = gfptop_counts(r, "campaign.json");
	check_tier_counts("", &g, &all, 0);
	check_tier_counts("--source probe ", &gp, &all, 0);
	check_reserve_fails(r, &g);
	check_contexts(r, &g, "");
	check_pcp_highatomic(r, &g);
	for (k = 0; k < NTIERS; k++)
		all.n[k] += rf.n[k];
	if (tally_eq(&traced, &all))
		pass("%s", n);
	else
		fail(n, "trace %s, oracle %s", fmt_tally(&traced), fmt_tally(&all));
}

/*
 * The reserve-failure series (phase 4, traced and counted on its own):
 * every row that ran failed, and each failure gave exactly one
 * mm_page_alloc_reserve_fail from the campaign thread, with GFP_ATOMIC's
 * rights, and gfptop -p counted exactly those.
 */
static void check_rfail(const struct run *r)
{
	struct events rfail = { 0 }, tier = { 0 };
	struct gfptop g = gfptop_counts(r, "rfail.json");
	struct tally none = { 0 };
	long long rows = 0, failed = 0, bad = 0;
	const struct rec *rec;
	const char *n;
	size_t i;

	read_events(&rfail, r, "rfail-trace.txt", "mm_page_alloc_reserve_fail", r->camp_pid);
	read_events(&tier, r, "rfail-trace.txt", "mm_page_alloc_tier", r->camp_pid);
	for_each_rec(r, rec) {
		rows += is_rfail(rec);
		failed += is_rfail(rec) && rec->reached && rec->pfn < 0;
	}
	for (i = 0; i < rfail.n; i++)
		bad += field_int(&rfail.v[i], "order", 10) != 0 ||
		       (field_int(&rfail.v[i], "alloc_flags", 16) & ALLOC_ATOMIC_RIGHTS) !=
		       ALLOC_ATOMIC_RIGHTS;
	n = xasprintf("%lld failed GFP_ATOMIC give %lld mm_page_alloc_reserve_fail from the campaign thread",
		      rows, rows);
	if (!r->traced)
		n = xasprintf("%lld GFP_ATOMIC rows of the reserve-failure series ran and failed", rows);
	if (!rows)
		fail(n, "the campaign made no %s row", RFAIL_CASE);
	else if (failed != rows || tier.n)
		fail(n, "%lld of %lld rows ran and failed, %zu allocations traced", failed, rows,
		     tier.n);
	else if (r->traced && ((long long)rfail.n != rows || bad))
		fail(n, "%zu events, %lld of them not order 0 with alloc_flags & %#x", rfail.n, bad,
		     ALLOC_ATOMIC_RIGHTS);
	else
		pass("%s", n);
	free_events(&rfail);
	free_events(&tier);
	n = "gfptop -p campaign-pid counts exactly the series' reserve failures";
	if (!r->traced)
		n = "gfptop -p campaign-pid counts no allocation of the series";
	if (g.lines == 0)
		fail(n, "no gfptop output");
	else if (!r->traced && tally_eq(&g.tiers, &none))
		pass("%s", n);
	else if (g.fails == rows && tally_eq(&g.tiers, &none))
		pass("%s (%lld)", n, g.fails);
	else
		fail(n, "gfptop reserve_fail %lld and %s, want %lld and nothing", g.fails,
		     fmt_tally(&g.tiers), rows);
}

/* ---- the highatomic reserve and the holder */

/* high-order atomic allocations below low must reserve a pageblock */
static void check_reserve(const struct run *r)
{
	const char *n = "high-order GFP_ATOMIC below low reserves a highatomic pageblock";
	struct events reserve = { 0 };
	const struct rec *rec;
	size_t nfresh = 0;

	long long later = 0;

	read_events(&reserve, r, "trace.txt", "mm_reserve_highatomic", ANY_PID);
	for_each_rec(r, rec) {
		nfresh += !strcmp(rec->key, "atomic_o4/fresh") && rec->pfn >= 0;
		/* untraced: the reserve the module read before a later row */
		if (nfresh && rec->reserved > later)
			later = rec->reserved;
	}
	if (!nfresh)
		fail(n, "no atomic_o4 allocation ran with an empty reserve");
	else if (!r->traced && later > 0)
		pass("%s (untraced: nr_reserved_highatomic %lld before a later row)", n, later);
	else if (!r->traced)
		fail(n, "nr_reserved_highatomic stayed 0 after the fresh atomic_o4 rows");
	else if (reserve.n && field_int(&reserve.v[0], "order", 10) == 4)
		pass("%s (%zu mm_reserve_highatomic, nr_reserved=%s)", n, reserve.n,
		     field(&reserve.v[reserve.n - 1], "nr_reserved"));
	else
		fail(n, "no mm_reserve_highatomic event of order 4 in the trace");
	free_events(&reserve);
}

/* held.txt: what the holder still held after each campaign phase */
static void check_held(const struct run *r)
{
	const char *n = "the holder holds nothing after each campaign";
	char *text = read_text(r, "held.txt"), *all = xasprintf("%s", ""), *w, *save = NULL;
	bool zero = true;

	for (w = text ? strtok_r(text, WS, &save) : NULL; w; w = strtok_r(NULL, WS, &save)) {
		catf(&all, "%s%s", *all ? " " : "", w);
		zero &= !strcmp(w, "0");
	}
	if (*all && zero)
		pass("%s", n);
	else
		fail(n, "pages still held: %s", *all ? all : "held.txt missing");
}

/* ---- the module campaign */

/* false if there was no campaign to check (records.txt missing) */
static bool check_campaign(struct run *r)
{
	FILE *f = open_out(r, "records.txt");
	const char *pid;

	if (!f) {
		fail("campaign produced records", "records.txt missing");
		return false;
	}
	parse_records(r, f);
	fclose(f);
	pass("campaign ran (%zu allocations, zone %s min=%s boost=%s, min during the campaign %s)",
	     r->nrecs, hdr_get(r, "zone"), hdr_get(r, "min"), hdr_get(r, "boost"),
	     campaign_wmins(r));

	pid = kv_get(r->hdr, "camp_pid");
	if (!pid)
		die("records.txt: no camp_pid= in the header");
	r->camp_pid = to_int(pid, 10, "camp_pid");
	/* the series' allocations (if one did not fail) follow in time */
	read_events(&r->tier_evs, r, "trace.txt", "mm_page_alloc_tier", r->camp_pid);
	read_events(&r->tier_evs, r, "rfail-trace.txt", "mm_page_alloc_tier", r->camp_pid);
	match_records(r);

	check_rows(r);
	check_counts(r);
	if (!r->phase1) {
		check_rfail(r);
		check_reserve(r);
	}
	check_held(r);
	return true;
}

/* ---- the OOM victim */

static void check_killed(const struct run *r, long long hog)
{
	const char *n = "the hog was OOM-killed";
	char *dm = read_text(r, "oom-dmesg.txt"), *rc;
	char *want = xasprintf("Killed process %lld (hog)", hog);

	if (dm && strstr(dm, want)) {
		pass("%s", n);
		return;
	}
	/* a missing or empty hog.rc is "?" */
	rc = read_text(r, "hog.rc");
	fail(n, "no '%s' in dmesg (exit %s)", want, rc && *rc ? strip(rc) : "?");
}

/*
 * The watermark tier an ALLOC_OOM order-0 allocation must have on its
 * own snapshot (an OOM victim's retry has alloc_flags ALLOC_OOM and no
 * other right in both kernels, so none and oom are its only levels):
 * none if free minus the highatomic reserve is above the mark (no right:
 * reserve subtracted), else oom if free is above mark - mark/2 (ALLOC_OOM:
 * reserve not subtracted), else no_level. The tier is highatomic if the
 * page came off a MIGRATE_HIGHATOMIC free list (source highatomic or
 * highatomic_fallback), else the watermark tier.
 */
static const char *oom_want(const struct event *e, const char **tier)
{
	long long free = field_int(e, "free", 10) - field_int(e, "free_cma", 10);
	long long wm = field_int(e, "watermark", 10);
	long long lowmem = field_int(e, "lowmem_reserve", 10);
	long long res = field_int(e, "highatomic", 10);
	const char *src = field(e, "source");
	const char *wt;

	if (free - res > wm + lowmem)
		wt = "none";
	else if (free > wm - wm / 2 + lowmem)
		wt = "oom";
	else
		wt = "no_level";
	*tier = !strcmp(src, "highatomic") || !strcmp(src, "highatomic_fallback") ?
		"highatomic" : wt;
	return wt;
}

static void check_oom_levels(const struct events *oevs)
{
	const char *n = "OOM victim at its level: every ALLOC_OOM allocation has the tier its free count gives";
	const struct event *e, *wrong = NULL;
	const char *want, *wt_want;
	char *wrong_want = NULL;
	size_t checked = 0, nwrong = 0;

	for (e = oevs->v; e < oevs->v + oevs->n; e++) {
		/* flags first: the order is only read for ALLOC_OOM events */
		if (!(field_int(e, "alloc_flags", 16) & ALLOC_OOM) || field_int(e, "order", 10))
			continue;
		checked++;
		wt_want = oom_want(e, &want);
		if (!strcmp(field(e, "tier"), want) && !strcmp(field(e, "watermark_tier"), wt_want))
			continue;
		if (!nwrong++) {
			wrong = e;
			wrong_want = xasprintf("watermark_tier=%s tier=%s", wt_want, want);
		}
	}
	if (!checked)
		fail(n, "no ALLOC_OOM allocation traced");
	else if (wrong)
		fail(n, "%zu of %zu: e.g. free=%s watermark=%s highatomic=%s source=%s: expected %s, observed watermark_tier=%s tier=%s",
		     nwrong, checked, field(wrong, "free"), field(wrong, "watermark"),
		     field(wrong, "highatomic"), field(wrong, "source"), wrong_want,
		     field(wrong, "watermark_tier"), field(wrong, "tier"));
	else
		pass("%s (%zu allocations)", n, checked);
}

/* a user process OOM-killed while allocating: hog.pid, oom-trace.txt */
static void check_oom(const struct run *r)
{
	char *pid = read_text(r, "hog.pid");
	FILE *otrace = open_out(r, "oom-trace.txt");
	bool ran = pid && otrace;
	struct events oevs = { 0 };
	struct tally ocount;
	struct gfptop g;
	const char *n;
	long long hog;

	if (otrace)
		fclose(otrace);
	if (!ran) {
		fail("OOM victim ran", "hog.pid or oom-trace.txt missing");
		return;
	}
	hog = to_int(strip(pid), 10, "hog.pid");
	check_killed(r, hog);
	if (!r->traced) {
		/* nothing to hold the probe source's tiers against here: the
		 * victim's ALLOC_OOM retries must at least show up as oom */
		g = gfptop_counts(r, "oom.json");
		n = "gfptop (probe source) -p victim-pid counts oom-tier allocations";
		if (g.tiers.n[TIER_OOM])
			pass("%s (%s)", n, fmt_tally(&g.tiers));
		else
			fail(n, "no oom-tier allocation (%s)", fmt_tally(&g.tiers));
		return;
	}
	read_events(&oevs, r, "oom-trace.txt", "mm_page_alloc_tier", hog);
	ocount = events_tally(&oevs);

	n = "the OOM victim's allocations reach the oom tier";
	if (ocount.n[TIER_OOM])
		pass("%s (%s)", n, fmt_tally(&ocount));
	else
		fail(n, "no oom-tier allocation by pid %lld (%s)", hog, fmt_tally(&ocount));

	check_oom_levels(&oevs);

	g = gfptop_counts(r, "oom.json");
	n = "gfptop -p victim-pid per-tier counts equal the traced ones";
	if (g.lines == 0)
		fail(n, "no gfptop output");
	else if (tally_eq(&g.tiers, &ocount))
		pass("%s", n);
	else
		fail(n, "gfptop %s, trace %s", fmt_tally(&g.tiers), fmt_tally(&ocount));
	free_events(&oevs);
}

int main(int argc, char **argv)
{
	struct run r = { 0 };
	const char *slash;

	char *traced;
	int i;

	if (argc < 4) {
		fputs("usage: check KIND OUTDIR EXPECT_FILE...\n", stderr);
		return 1;
	}
	prefix = xasprintf("oracle %s", argv[1]);
	r.out = argv[2];
	/* a later file's (CASE, LEVEL) overrides an earlier one's */
	for (i = 3; i < argc; i++) {
		slash = strrchr(argv[i], '/');
		r.expect_base = slash ? slash + 1 : argv[i];
		parse_expect(&r, argv[i]);
	}
	traced = read_text(&r, "traced.txt");
	r.traced = !traced || strcmp(strip(traced), "0");
	r.phase1 = read_text(&r, "phase1.txt") != NULL;

	if (check_campaign(&r) && !r.phase1)
		check_oom(&r);
	if (fflush(stdout) || ferror(stdout)) {
		perror("check: stdout");
		return 1;
	}
	return 0;
}
