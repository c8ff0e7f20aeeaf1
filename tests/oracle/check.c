/*
 * Host-side checks of one oracle guest run (tests/oracle/host.sh):
 *
 *   build/oracle/check KIND OUTDIR EXPECT_FILE
 *
 * Reads what tests/oracle/guest.sh left in OUTDIR (the module's
 * records.txt, the tracefs dumps trace.txt, rfail-trace.txt and
 * oom-trace.txt, gfptop's JSON lines campaign.json, rfail.json and
 * oom.json, held.txt, hog.pid, oom-dmesg.txt) and prints one
 * "PASS name" / "FAIL name: why" line per check. It exits 0 whatever
 * the checks found: tests/run counts the lines. It exits 1 only when an
 * input is malformed and the run cannot be judged (a message on
 * stderr), and the caller then adds a FAIL line.
 *
 * This replaced a Python checker (whose output it kept byte for byte
 * then), so the text handling copies Python's rules (for ASCII input):
 * str.splitlines() line breaks, str.split()/strip() whitespace (which
 * includes \x1c-\x1f), int() (surrounding whitespace, a sign, "_"
 * between digits, "0x" with base 16) and the regular expressions'
 * \s \w \d. Everything here is allocated once for a single run and
 * lives until exit.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

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

/* A string built with stdio: sb_open(), fprintf(b.f, ...), sb_close() */
struct strbuf {
	char *s;
	size_t len;
	FILE *f;
};

static void sb_open(struct strbuf *b)
{
	b->s = NULL;
	b->f = open_memstream(&b->s, &b->len);
	if (!b->f)
		die("out of memory");
}

static char *sb_close(struct strbuf *b)
{
	if (fclose(b->f))
		die("out of memory");
	return b->s;
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

static void __attribute__((format(printf, 1, 2))) pass(const char *fmt, ...)
{
	va_list ap;

	fputs("PASS ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static void __attribute__((format(printf, 2, 3)))
fail(const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("FAIL %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* ---- text, with Python's character classes */

/* A piece of a file: files are read whole and never freed, so spans into
 * them stay valid; they may hold any byte, NUL included. */
struct span {
	const char *p;
	size_t n;
};

#define SPAN_ARG(s) (int)(s).n, (s).p

static bool py_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

static bool py_nonspace(unsigned char c)
{
	return !py_space(c);
}

static bool py_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static bool py_word(unsigned char c)
{
	return py_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* the trace's timestamp: [\d.] */
static bool ts_char(unsigned char c)
{
	return py_digit(c) || c == '.';
}

static bool span_is(struct span s, const char *str)
{
	size_t n = strlen(str);

	return s.n == n && !memcmp(s.p, str, n);
}

static char *span_dup(struct span s)
{
	char *d = xrealloc(NULL, s.n + 1);

	memcpy(d, s.p, s.n);
	d[s.n] = '\0';
	return d;
}

static struct span span_strip(struct span s)
{
	while (s.n && py_space(s.p[0]))
		s.p++, s.n--;
	while (s.n && py_space(s.p[s.n - 1]))
		s.n--;
	return s;
}

/*
 * Lines as Python saw them. Text files are read with universal newlines
 * (\r\n and \r become \n); str.splitlines() also breaks at \v \f
 * \x1c-\x1e, a file object's line iteration does not (all == false).
 * A break at the very end opens no further line.
 */
struct lines {
	const char *p, *end;
	bool all;
};

static bool line_break(unsigned char c, bool all)
{
	if (c == '\n' || c == '\r')
		return true;
	return all && (c == '\v' || c == '\f' || (c >= 0x1c && c <= 0x1e));
}

static bool next_line(struct lines *it, struct span *line)
{
	const char *q = it->p;

	if (q >= it->end)
		return false;
	while (q < it->end && !line_break(*q, it->all))
		q++;
	*line = (struct span){ it->p, q - it->p };
	if (q < it->end) {
		if (*q == '\r' && q + 1 < it->end && q[1] == '\n')
			q++;
		q++;
	}
	it->p = q;
	return true;
}

static struct lines splitlines(struct span text)
{
	return (struct lines){ text.p, text.p + text.n, true };
}

/* str.split(): the next run of non-whitespace at or after *pos */
static bool next_word(struct span s, size_t *pos, struct span *w)
{
	size_t i = *pos, j;

	while (i < s.n && py_space(s.p[i]))
		i++;
	if (i == s.n)
		return false;
	for (j = i; j < s.n && !py_space(s.p[j]); j++)
		;
	*w = (struct span){ s.p + i, j - i };
	*pos = j;
	return true;
}

/*
 * re.findall(r"(\w+)=(\S+)", s), one match at a time from *pos. A match
 * starting inside a word would end its \w+ where the whole word ends, so
 * it fails where the word's own start failed: skip to the word's end.
 */
static bool next_kv(struct span s, size_t *pos, struct span *key, struct span *val)
{
	size_t i = *pos, j, k;

	while (i < s.n) {
		if (!py_word(s.p[i])) {
			i++;
			continue;
		}
		for (j = i; j < s.n && py_word(s.p[j]); j++)
			;
		if (j + 1 < s.n && s.p[j] == '=' && !py_space(s.p[j + 1])) {
			for (k = j + 1; k < s.n && !py_space(s.p[k]); k++)
				;
			*key = (struct span){ s.p + i, j - i };
			*val = (struct span){ s.p + j + 1, k - j - 1 };
			*pos = k;
			return true;
		}
		i = j;
	}
	*pos = i;
	return false;
}

/* dict(re.findall(...))[key]: the last pair with that key wins */
static bool kv_get(struct span s, const char *key, struct span *val)
{
	struct span k, v;
	size_t pos = 0;
	bool found = false;

	while (next_kv(s, &pos, &k, &v)) {
		if (span_is(k, key)) {
			*val = v;
			found = true;
		}
	}
	return found;
}

static int digit_value(unsigned char c)
{
	if (py_digit(c))
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return 99;
}

/*
 * int(s) / int(s, 16): surrounding whitespace, an optional sign, for
 * base 16 an optional 0x, then digits with single "_" between them (and
 * one "_" right after 0x). Python's ints do not overflow; a value beyond
 * long long cannot come from these files, so it is an error.
 */
static bool py_int(struct span s, int base, long long *val)
{
	unsigned long long v = 0, lim;
	bool neg = false, after_digit = false;
	size_t i = 0, ndigits = 0;

	s = span_strip(s);
	if (i < s.n && (s.p[i] == '+' || s.p[i] == '-'))
		neg = s.p[i++] == '-';
	if (base == 16 && i + 1 < s.n && s.p[i] == '0' && (s.p[i + 1] | 0x20) == 'x') {
		i += 2;
		after_digit = true;
	}
	lim = neg ? (unsigned long long)LLONG_MAX + 1 : LLONG_MAX;
	for (; i < s.n; i++) {
		int d = digit_value(s.p[i]);

		if (s.p[i] == '_' && after_digit && i + 1 < s.n &&
		    digit_value(s.p[i + 1]) < base) {
			after_digit = false;
			continue;
		}
		if (d >= base)
			return false;
		if (v > (lim - d) / base)
			die("number out of range: '%.*s'", SPAN_ARG(s));
		v = v * base + d;
		after_digit = true;
		ndigits++;
	}
	if (!ndigits)
		return false;
	*val = neg ? (long long)(0 - v) : (long long)v;
	return true;
}

static long long want_int(struct span s, int base, const char *what)
{
	long long v;

	if (!py_int(s, base, &v))
		die("%s: invalid literal for int() with base %d: '%.*s'",
		    what, base, SPAN_ARG(s));
	return v;
}

/* ---- files */

/* open() and read() as Python did: any failure is "no such file" */
static bool slurp(const char *path, struct span *text)
{
	size_t n = 0, cap = 65536;
	char *buf = xrealloc(NULL, cap);
	ssize_t got;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		free(buf);
		return false;
	}
	while ((got = read(fd, buf + n, cap - n)) != 0) {
		if (got < 0) {
			close(fd);
			free(buf);
			return false;
		}
		n += got;
		if (n == cap)
			buf = xrealloc(buf, cap *= 2);
	}
	close(fd);
	*text = (struct span){ buf, n };
	return true;
}

struct run {
	const char *out;	/* OUTDIR */
	const char *name;	/* "oracle KIND", every check's prefix */
	const char *expect_base; /* EXPECT_FILE's last path component */
	struct expect *expect;
	size_t nexpect, cap_expect;
	struct span hdr;	/* records.txt's first line: key=value ... */
	struct rec *recs;
	size_t nrecs, cap_recs;
	struct events *evs, *tier_evs;
	struct events *rfail_evs;	/* rfail-trace.txt */
	long long camp_pid;
};

/* read(path): OUTDIR/path, or false if it cannot be read */
static bool read_out(const struct run *r, const char *file, struct span *text)
{
	char *path = xasprintf("%s/%s", r->out, file);
	bool ok = slurp(path, text);

	free(path);
	return ok;
}

/* read(path) or "": a missing file reads as empty */
static struct span read_or_empty(const struct run *r, const char *file)
{
	struct span text = { "", 0 };

	read_out(r, file, &text);
	return text;
}

/* ---- the trace */

struct event {
	struct span name;	/* the tracepoint: "mm_page_alloc_tier" */
	struct span rest;	/* its "key=value ..." text */
	long long pid;
	bool pid_ok;		/* false: too long for a long long, matches nothing */
	int ctx;		/* CTX_*: the latency field's irq character */
};

struct events {
	struct event *v;
	size_t n, cap;
};

/* consume the run of characters of a class at the cursor; its length */
static size_t take(struct span *c, bool (*cls)(unsigned char))
{
	size_t i = 0;

	while (i < c->n && cls(c->p[i]))
		i++;
	c->p += i;
	c->n -= i;
	return i;
}

static bool take_lit(struct span *c, const char *lit)
{
	size_t n = strlen(lit);

	if (c->n < n || memcmp(c->p, lit, n))
		return false;
	c->p += n;
	c->n -= n;
	return true;
}

/* digits of a pid: at most 18, so that they fit a long long */
static bool pid_value(struct span s, long long *pid)
{
	size_t i;

	if (s.n > 18)
		return false;
	*pid = 0;
	for (i = 0; i < s.n; i++)
		*pid = *pid * 10 + (s.p[i] - '0');
	return true;
}

/* the third character of the flags ("...." padded): h/H hardirq, s softirq */
static int ctx_of_flags(struct span flags)
{
	char c = flags.n > 2 ? flags.p[2] : '.';

	if (c == 'h' || c == 'H')
		return CTX_HARDIRQ;
	return c == 's' ? CTX_SOFTIRQ : CTX_TASK;
}

/*
 * The trace line regex
 *   ^\s*(?P<comm>.*?)-(?P<pid>\d+)\s+\[\d+\]\s+(?P<flags>\S+)\s+[\d.]+: (?P<ev>\w+): (?P<rest>.*)$
 * after the dash at line.p[dash]. Each run in it ends at a character it
 * cannot contain, so this part matches in exactly one way or not at
 * all; only comm's lazy .*? backtracks, which makes the match the one at
 * the leftmost dash where this part matches.
 */
static bool match_after_dash(struct span line, size_t dash, struct event *e)
{
	struct span c = { line.p + dash + 1, line.n - dash - 1 };
	struct span pid = c, flags;

	pid.n = take(&c, py_digit);
	if (!pid.n || !take(&c, py_space) || !take_lit(&c, "[") ||
	    !take(&c, py_digit) || !take_lit(&c, "]") || !take(&c, py_space))
		return false;
	flags = c;
	flags.n = take(&c, py_nonspace);
	if (!flags.n || !take(&c, py_space) || !take(&c, ts_char) || !take_lit(&c, ": "))
		return false;
	e->name = c;
	e->name.n = take(&c, py_word);
	if (!e->name.n || !take_lit(&c, ": "))
		return false;
	e->rest = c;
	e->pid_ok = pid_value(pid, &e->pid);
	e->ctx = ctx_of_flags(flags);
	return true;
}

static bool match_event(struct span line, struct event *e)
{
	size_t i;

	for (i = 0; i < line.n; i++)
		if (line.p[i] == '-' && match_after_dash(line, i, e))
			return true;
	return false;
}

/* events(text): every line that is not a comment and matches */
static struct events *parse_events(struct span text)
{
	struct events *evs = xrealloc(NULL, sizeof(*evs));
	struct lines it = splitlines(text);
	struct span line;
	struct event e;

	*evs = (struct events){ 0 };
	while (next_line(&it, &line)) {
		if (line.n && line.p[0] == '#')
			continue;
		if (match_event(line, &e))
			PUSH(evs->v, evs->n, evs->cap, e);
	}
	return evs;
}

/* events of one tracepoint, of one pid if pid_only */
static struct events *filter_events(const struct events *all, const char *name,
				    bool pid_only, long long pid)
{
	struct events *evs = xrealloc(NULL, sizeof(*evs));
	size_t i;

	*evs = (struct events){ 0 };
	for (i = 0; i < all->n; i++) {
		const struct event *e = &all->v[i];

		if (!span_is(e->name, name))
			continue;
		if (pid_only && !(e->pid_ok && e->pid == pid))
			continue;
		PUSH(evs->v, evs->n, evs->cap, *e);
	}
	return evs;
}

/* e[key]: a missing field is an error, as Python's KeyError was */
static struct span field(const struct event *e, const char *key)
{
	struct span v;

	if (!kv_get(e->rest, key, &v))
		die("%.*s event without %s=: %.*s", SPAN_ARG(e->name), key, SPAN_ARG(e->rest));
	return v;
}

static long long field_int(const struct event *e, const char *key, int base)
{
	return want_int(field(e, key), base, key);
}

/* ---- per-tier counts, as Python's dicts keyed by tier name */

struct tally {
	long long n[NTIERS];
	/* a tier name outside tiers[] was counted: in Python an extra key,
	 * which made the dict differ from any other and which fmt() did not
	 * print */
	bool extra;
};

static int tier_index(struct span s)
{
	size_t i;

	for (i = 0; i < NTIERS; i++)
		if (span_is(s, tiers[i]))
			return i;
	return -1;
}

static void tally_add(struct tally *t, struct span tier)
{
	int i = tier_index(tier);

	if (i < 0)
		t->extra = true;
	else
		t->n[i]++;
}

/* dict equality; exact because one side of each comparison (the oracle
 * or gfptop) never has extra keys */
static bool tally_eq(const struct tally *a, const struct tally *b)
{
	return !a->extra && !b->extra && !memcmp(a->n, b->n, sizeof(a->n));
}

/* fmt(): "tier=N ..." for the non-zero tiers, or "nothing" */
static char *fmt_tally(const struct tally *t)
{
	struct strbuf b;
	size_t i;

	sb_open(&b);
	for (i = 0; i < NTIERS; i++)
		if (t->n[i])
			fprintf(b.f, "%s%s=%lld", ftell(b.f) ? " " : "", tiers[i], t->n[i]);
	if (!ftell(b.f))
		fputs("nothing", b.f);
	return sb_close(&b);
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

/* o[key]: o must be an object that has key, as Python's o[key] needed */
static struct json_object *member(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v))
		die("gfptop JSON: no \"%s\" where one was expected", key);
	return v;
}

/* o["count"]; gfptop writes integers (Python would have summed floats and
 * printed "12.0", so anything else is refused rather than guessed) */
static long long count_of(struct json_object *o)
{
	struct json_object *c = member(o, "count");

	if (!json_object_is_type(c, json_type_int))
		die("gfptop JSON: \"count\" is not an integer");
	return json_object_get_int64(c);
}

/* json.loads(line): one JSON value and nothing after it */
static struct json_object *parse_json(struct span line, const char *file, size_t lineno)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *j;
	enum json_tokener_error err;
	size_t end;

	if (!tok)
		die("out of memory");
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	j = json_tokener_parse_ex(tok, line.p, line.n);
	err = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (err != json_tokener_success || end != line.n)
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
	struct lines it = splitlines(read_or_empty(r, file));
	struct span line;
	struct json_object *j;
	size_t lineno = 0;

	while (next_line(&it, &line)) {
		lineno++;
		line = span_strip(line);
		if (!line.n)
			continue;
		j = parse_json(line, file, lineno);
		g.lines++;
		add_interval(&g, j);
		json_object_put(j);
	}
	return g;
}

/* ---- the expectation table */

/* an event field a row's event must have: "source=pcp" */
struct field_want {
	char *key, *value;
};

struct expect {
	char *case_name, *level, *tier;
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
 * one "CASE LEVEL TIER[?] [KEY=VALUE...]" line; a repeated (CASE, LEVEL)
 * keeps its place and takes the later tier and fields, and stays
 * optional once it was
 */
static void add_expect(struct run *r, const struct span *w, struct span rest,
		       const char *path)
{
	struct expect x = { .case_name = span_dup(w[0]), .level = span_dup(w[1]),
			    .tier = span_dup(w[2]) };
	struct expect *old;
	size_t n = strlen(x.tier), pos = 0, k;
	struct span kw;

	if (n && x.tier[n - 1] == '?') {
		x.tier[n - 1] = '\0';
		x.optional = true;
	}
	while (next_word(rest, &pos, &kw)) {
		const char *eq = memchr(kw.p, '=', kw.n);
		struct field_want f;

		if (!eq || eq == kw.p || eq == kw.p + kw.n - 1)
			die("%s: not KEY=VALUE: %.*s", path, SPAN_ARG(kw));
		f.key = span_dup((struct span){ kw.p, eq - kw.p });
		f.value = span_dup((struct span){ eq + 1, kw.p + kw.n - eq - 1 });
		for (k = 0; k < ARRAY_SIZE(field_keys); k++)
			if (!strcmp(f.key, field_keys[k]))
				break;
		if (k == ARRAY_SIZE(field_keys))
			die("%s: unknown event field %s", path, f.key);
		PUSH(x.fields, x.nfields, x.cap_fields, f);
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
	struct span text, line, w[3];
	struct lines it;
	const char *hash;
	size_t pos, nw;

	if (!slurp(path, &text))
		die("cannot read %s", path);
	it = (struct lines){ text.p, text.p + text.n, false };
	while (next_line(&it, &line)) {
		/* a comment runs from the first # to the end of the line */
		hash = memchr(line.p, '#', line.n);
		if (hash)
			line.n = hash - line.p;
		pos = 0;
		for (nw = 0; nw < 3 && next_word(line, &pos, &w[nw]); nw++)
			;
		if (!nw)
			continue;
		if (nw < 3)
			die("%s: not CASE LEVEL TIER: %.*s", path, SPAN_ARG(line));
		add_expect(r, w, (struct span){ line.p + pos, line.n - pos }, path);
	}
}

/* ---- the module's records */

struct rec {
	long long seq, rep, order, reached, lo, hi, free_before, free_after;
	long long reserved, ha_avail, pfn, wmin, normal_free;
	long long boost, boost_after, normal_avail;
	char *case_name, *level, *ctx;
	char *key;		/* key_of(): the case, atomic_o4 split by reserve state */
	const char *observed;	/* the traced tier, "fail" or "no-event" */
	const struct event *ev;	/* its mm_page_alloc_tier event, if any */
};

#define REC_FIELDS 20

/*
 * atomic_o4 rows behave by the reserve's state: a free highatomic block
 * (ha; ha_counted if no normal list had a block of the order, so that
 * only the highatomic one counted), no reserve yet (fresh), or a
 * reserve without a usable block (hidden)
 */
static char *key_of(const struct rec *rec)
{
	if (strcmp(rec->case_name, "atomic_o4"))
		return rec->case_name;
	if (rec->ha_avail)
		return xasprintf("%s/%s", rec->case_name, rec->normal_avail ? "ha" : "ha_counted");
	if (rec->reserved == 0)
		return xasprintf("%s/fresh", rec->case_name);
	return xasprintf("%s/hidden", rec->case_name);
}

/* seq case level rep ctx order gfp reached lo hi free_before free_after
 * reserved_ha ha_avail pfn wmin normal_free boost boost_after
 * normal_avail; rep and free_after are not checked but still read as
 * numbers, so that a garbled row is an error */
static struct rec parse_rec(struct span line)
{
	struct span f[REC_FIELDS];
	struct rec rec = { 0 };
	size_t pos = 0, n;

	for (n = 0; n < REC_FIELDS && next_word(line, &pos, &f[n]); n++)
		;
	if (n < REC_FIELDS)
		die("records.txt: %zu fields, want %d: %.*s", n, REC_FIELDS, SPAN_ARG(line));
	rec.seq = want_int(f[0], 10, "seq");
	rec.case_name = span_dup(f[1]);
	rec.level = span_dup(f[2]);
	rec.rep = want_int(f[3], 10, "rep");
	rec.ctx = span_dup(f[4]);
	rec.order = want_int(f[5], 10, "order");
	rec.reached = want_int(f[7], 10, "reached");
	rec.lo = want_int(f[8], 10, "lo");
	rec.hi = want_int(f[9], 10, "hi");
	rec.free_before = want_int(f[10], 10, "free_before");
	rec.free_after = want_int(f[11], 10, "free_after");
	rec.reserved = want_int(f[12], 10, "reserved_ha");
	rec.ha_avail = want_int(f[13], 10, "ha_avail");
	rec.pfn = want_int(f[14], 10, "pfn");
	rec.wmin = want_int(f[15], 10, "wmin");
	rec.normal_free = want_int(f[16], 10, "normal_free");
	rec.boost = want_int(f[17], 10, "boost");
	rec.boost_after = want_int(f[18], 10, "boost_after");
	rec.normal_avail = want_int(f[19], 10, "normal_avail");
	rec.key = key_of(&rec);
	return rec;
}

/* the header line is key=value pairs; the rest is one record a line */
static void parse_records(struct run *r, struct span text)
{
	struct lines it = splitlines(text);
	struct span line;
	struct rec rec;

	if (!next_line(&it, &r->hdr))
		die("records.txt is empty");
	it = splitlines(text);
	while (next_line(&it, &line)) {
		if ((line.n && line.p[0] == '#') || !span_strip(line).n)
			continue;
		rec = parse_rec(line);
		PUSH(r->recs, r->nrecs, r->cap_recs, rec);
	}
}

/* hdr.get(key) as "%s" printed it */
static const char *hdr_get(const struct run *r, const char *key)
{
	struct span v;

	return kv_get(r->hdr, key, &v) ? span_dup(v) : "None";
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* sort strings and join the distinct ones with sep */
static char *join_sorted_unique(char **v, size_t n, const char *sep)
{
	struct strbuf b;
	size_t i;

	sb_open(&b);
	qsort(v, n, sizeof(*v), cmp_str);
	for (i = 0; i < n; i++)
		if (!i || strcmp(v[i], v[i - 1]))
			fprintf(b.f, "%s%s", i ? sep : "", v[i]);
	return sb_close(&b);
}

/* "/".join(sorted({str(r["wmin"]) for r in recs})): sorted as strings */
static char *campaign_wmins(const struct run *r)
{
	char **v = xrealloc(NULL, r->nrecs * sizeof(*v));
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
	const struct events *evs = r->tier_evs;
	size_t pos = 0, i, k;

	for (k = 0; k < r->nrecs; k++) {
		struct rec *rec = &r->recs[k];

		rec->ev = NULL;
		if (rec->pfn < 0) {
			rec->observed = "fail";
			continue;
		}
		rec->observed = "no-event";
		for (i = pos; i < evs->n; i++) {
			const struct event *e = &evs->v[i];

			if (field_int(e, "pfn", 16) == rec->pfn &&
			    field_int(e, "order", 10) == rec->order) {
				rec->ev = e;
				rec->observed = span_dup(field(e, "tier"));
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

/* the rows of one (key_of, level), in the order the campaign made them */
struct group {
	const char *key, *level;
	struct rec **rows;
	size_t n, cap;
};

static struct group *find_group(struct group *g, size_t n, const char *key,
				const char *level)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(g[i].key, key) && !strcmp(g[i].level, level))
			return &g[i];
	return NULL;
}

/* groups in the order of their first row */
static struct group *group_records(const struct run *r, size_t *ngroups)
{
	struct group *groups = NULL, *g, fresh;
	size_t n = 0, cap = 0, i;

	for (i = 0; i < r->nrecs; i++) {
		struct rec *rec = &r->recs[i];

		g = find_group(groups, n, rec->key, rec->level);
		if (!g) {
			fresh = (struct group){ rec->key, rec->level, NULL, 0, 0 };
			PUSH(groups, n, cap, fresh);
			g = &groups[n - 1];
		}
		PUSH(g->rows, g->n, g->cap, rec);
	}
	*ngroups = n;
	return groups;
}

static long long rec_free_before(const struct rec *rec)
{
	return rec->free_before;
}

static long long rec_normal_free(const struct rec *rec)
{
	return rec->normal_free;
}

/* ",".join(str(get(row)) for row in the group) */
static char *join_rows(const struct group *g, long long (*get)(const struct rec *))
{
	struct strbuf b;
	size_t i;

	sb_open(&b);
	for (i = 0; i < g->n; i++)
		fprintf(b.f, "%s%lld", i ? "," : "", get(g->rows[i]));
	return sb_close(&b);
}

static char *observed_set(const struct group *g)
{
	char **v = xrealloc(NULL, g->n * sizeof(*v));
	size_t i;

	for (i = 0; i < g->n; i++)
		v[i] = (char *)g->rows[i]->observed;
	return join_sorted_unique(v, g->n, ",");
}

/* the free count a row reports: the event's own text, else the module's */
static char *rec_free_str(const struct rec *rec)
{
	if (rec->ev) {
		struct span f = field(rec->ev, "free");

		return xasprintf("%.*s", SPAN_ARG(f));
	}
	return xasprintf("%lld", rec->free_before);
}

static bool is_watermark_tier(const char *tier)
{
	return strcmp(tier, "highatomic") && strcmp(tier, "fail");
}

/*
 * The first event field of a row's event that is not what the
 * expectation says, as "key=want, observed value"; NULL if all are.
 * Besides the expectation's KEY=VALUE words: watermark_tier equals the
 * tier unless the tier is highatomic, and boost is what the module set
 * (0 except in the boost rows).
 */
static char *field_mismatch(const struct expect *x, const struct rec *rec)
{
	struct span v;
	size_t i;

	for (i = 0; i < x->nfields; i++) {
		const struct field_want *f = &x->fields[i];

		if (!kv_get(rec->ev->rest, f->key, &v))
			v = (struct span){ "(none)", 6 };
		if (!span_is(v, f->value))
			return xasprintf("%s=%s, observed %.*s", f->key, f->value, SPAN_ARG(v));
	}
	if (is_watermark_tier(x->tier)) {
		v = field(rec->ev, "watermark_tier");
		if (!span_is(v, x->tier))
			return xasprintf("watermark_tier=%s, observed %.*s", x->tier, SPAN_ARG(v));
	}
	if (field_int(rec->ev, "boost", 10) != rec->boost)
		return xasprintf("boost=%lld (the module's), observed %.*s", rec->boost,
				 SPAN_ARG(field(rec->ev, "boost")));
	return NULL;
}

/* " source=pcp highatomic_block=0" for the PASS line */
static char *fields_str(const struct expect *x)
{
	struct strbuf b;
	size_t i;

	sb_open(&b);
	for (i = 0; i < x->nfields; i++)
		fprintf(b.f, " %s=%s", x->fields[i].key, x->fields[i].value);
	return sb_close(&b);
}

static void check_group(const struct run *r, const struct group *g)
{
	char *n = xasprintf("%s: %s at %s", r->name, g->key, g->level);
	const struct expect *x = find_expect(r, g->key, g->level);
	bool *valid = xrealloc(NULL, g->n * sizeof(*valid));
	const struct rec *wrong = NULL;
	char *why = NULL;
	size_t nvalid = 0, i;

	/* every row's band first, even without an expectation: reading an
	 * event's free= can fail, and the Python checker failed there too */
	for (i = 0; i < g->n; i++)
		nvalid += valid[i] = in_band(g->rows[i]);
	if (!x) {
		fail(n, "no expectation in %s (observed %s)", r->expect_base, observed_set(g));
		return;
	}
	if (!nvalid) {
		fail(n, "level not reached (free %s, band %lld..%lld%s)",
		     join_rows(g, rec_free_before), g->rows[0]->lo, g->rows[0]->hi,
		     strcmp(g->level, "ha_only") ? "" :
		     xasprintf(", free outside the reserve %s", join_rows(g, rec_normal_free)));
		return;
	}
	for (i = 0; i < g->n && !wrong; i++)
		if (valid[i] && strcmp(g->rows[i]->observed, x->tier))
			wrong = g->rows[i];
	if (wrong) {
		fail(n, "expected %s, observed %s (seq %lld, free %s, reserve %lld)",
		     x->tier, wrong->observed, wrong->seq, rec_free_str(wrong), wrong->reserved);
		return;
	}
	for (i = 0; i < g->n && !why; i++)
		if (valid[i] && g->rows[i]->ev && (why = field_mismatch(x, g->rows[i])))
			wrong = g->rows[i];
	if (why)
		fail(n, "%s: expected %s (seq %lld, free %s, reserve %lld)", x->tier, why,
		     wrong->seq, rec_free_str(wrong), wrong->reserved);
	else
		pass("%s: %s%s (%zu/%zu rows in band)", n, x->tier, fields_str(x), nvalid, g->n);
}

static void check_rows(const struct run *r)
{
	size_t ngroups, i;
	struct group *groups = group_records(r, &ngroups);

	for (i = 0; i < ngroups; i++)
		check_group(r, &groups[i]);
	/* and every expected (case, level) the campaign made no row for */
	for (i = 0; i < r->nexpect; i++) {
		const struct expect *x = &r->expect[i];

		if (!find_group(groups, ngroups, x->case_name, x->level) && !x->optional)
			fail(xasprintf("%s: %s at %s", r->name, x->case_name, x->level),
			     "expected %s, but the campaign has no such row", x->tier);
	}
}

/* ---- gfptop -p <campaign pid> versus the oracle and the trace */

/* the rows of the reserve-failure series (rfail-trace.txt, rfail.json) */
#define RFAIL_CASE "rfail_atomic"

static bool is_rfail(const struct rec *rec)
{
	return !strcmp(rec->case_name, RFAIL_CASE);
}

/* how many rows of the campaign (rfail: of the failure series, else the
 * others) were traced at each tier */
static struct tally oracle_tally(const struct run *r, bool rfail)
{
	struct tally t = { 0 };
	size_t i;
	int k;

	for (i = 0; i < r->nrecs; i++) {
		const char *obs = r->recs[i].observed;

		if (is_rfail(&r->recs[i]) != rfail)
			continue;
		k = tier_index((struct span){ obs, strlen(obs) });
		if (k >= 0)
			t.n[k]++;
	}
	return t;
}

static struct tally events_tally(const struct events *evs)
{
	struct tally t = { 0 };
	size_t i;

	for (i = 0; i < evs->n; i++)
		tally_add(&t, field(&evs->v[i], "tier"));
	return t;
}

static void check_tier_counts(const struct run *r, const char *how, const struct gfptop *g,
			      const struct tally *oracle)
{
	char *n = xasprintf("%s: gfptop %s-p campaign-pid per-tier counts equal the oracle's",
			    r->name, how);

	if (g->lines == 0)
		fail(n, "no gfptop output");
	else if (tally_eq(&g->tiers, oracle))
		pass("%s (%s)", n, fmt_tally(oracle));
	else
		fail(n, "gfptop %s, oracle %s", fmt_tally(&g->tiers), fmt_tally(oracle));
}

static void check_reserve_fails(const struct run *r, const struct gfptop *g)
{
	struct events *rfail = filter_events(r->evs, "mm_page_alloc_reserve_fail",
					     true, r->camp_pid);
	char *n = xasprintf("%s: gfptop -p campaign-pid counts the campaign's reserve failures",
			    r->name);

	if (g->fails == (long long)rfail->n)
		pass("%s (%lld mm_page_alloc_reserve_fail)", n, g->fails);
	else
		fail(n, "gfptop %lld, trace %zu", g->fails, rfail->n);
}

/* the context a row asked for: its softirq/hardirq, else a task */
static int rec_ctx(const struct rec *rec)
{
	if (!strcmp(rec->ctx, "softirq"))
		return CTX_SOFTIRQ;
	return strcmp(rec->ctx, "hardirq") ? CTX_TASK : CTX_HARDIRQ;
}

static char *fmt_ctx(const long long *ctx)
{
	/* the repr() of Python's {"task": n, "softirq": n, "hardirq": n} */
	return xasprintf("{'task': %lld, 'softirq': %lld, 'hardirq': %lld}",
			 ctx[CTX_TASK], ctx[CTX_SOFTIRQ], ctx[CTX_HARDIRQ]);
}

/*
 * The context each traced allocation ran in: the trace's irq flags and
 * gfptop's tier_context against the oracle's.
 */
static void check_contexts(const struct run *r, const struct gfptop *g)
{
	long long octx[NCTX] = { 0 };
	const struct rec *wrong = NULL;
	int wrong_want = CTX_TASK, want;
	size_t i;
	char *n;

	for (i = 0; i < r->nrecs; i++) {
		const struct rec *rec = &r->recs[i];

		if (!rec->ev || is_rfail(rec))
			continue;
		want = rec_ctx(rec);
		octx[want]++;
		if (rec->ev->ctx != want && !wrong) {
			wrong = rec;
			wrong_want = want;
		}
	}
	n = xasprintf("%s: softirq/hardirq rows ran in that context (trace irq flags)", r->name);
	if (wrong)
		fail(n, "%s at %s: expected %s, observed %s", wrong->case_name, wrong->level,
		     ctx_names[wrong_want], ctx_names[wrong->ev->ctx]);
	else
		pass("%s (softirq %lld, hardirq %lld)", n, octx[CTX_SOFTIRQ], octx[CTX_HARDIRQ]);
	n = xasprintf("%s: gfptop -p campaign-pid per-context counts equal the oracle's", r->name);
	if (!memcmp(g->ctx, octx, sizeof(octx)))
		pass("%s", n);
	else
		fail(n, "gfptop %s, oracle %s", fmt_ctx(g->ctx), fmt_ctx(octx));
}

static void check_traced(const struct run *r, const struct tally *traced,
			 const struct tally *oracle)
{
	char *n = xasprintf("%s: every traced allocation of the campaign thread is an oracle row",
			    r->name);

	if (tally_eq(traced, oracle))
		pass("%s", n);
	else
		fail(n, "trace %s, oracle %s", fmt_tally(traced), fmt_tally(oracle));
}

/*
 * Pages of a highatomic pageblock handed out from a per-cpu list
 * (source=pcp highatomic_block=1): gfptop counts them apart, as
 * highatomic pages used without the right.
 */
static void check_pcp_highatomic(const struct run *r, const struct gfptop *g)
{
	char *n = xasprintf("%s: gfptop -p campaign-pid counts the highatomic pages off per-cpu lists",
			    r->name);
	long long want = 0;
	struct span src, blk;
	size_t i;

	for (i = 0; i < r->nrecs; i++) {
		const struct rec *rec = &r->recs[i];

		if (!rec->ev || is_rfail(rec))
			continue;
		src = field(rec->ev, "source");
		blk = field(rec->ev, "highatomic_block");
		want += span_is(src, "pcp") && span_is(blk, "1");
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
	struct tally all = oracle_tally(r, false), rf = oracle_tally(r, true);
	struct tally traced = events_tally(r->tier_evs);
	struct gfptop g = gfptop_counts(r, "campaign.json");
	/* the same campaign counted by the probe source (tiers derived from
	 * zone counters, docs/probe.md), in a gfptop of its own */
	struct gfptop gp = gfptop_counts(r, "campaign-probe.json");
	size_t k;

	check_tier_counts(r, "", &g, &all);
	check_tier_counts(r, "--source probe ", &gp, &all);
	check_reserve_fails(r, &g);
	check_contexts(r, &g);
	check_pcp_highatomic(r, &g);
	for (k = 0; k < NTIERS; k++)
		all.n[k] += rf.n[k];
	check_traced(r, &traced, &all);
}

/*
 * The reserve-failure series (phase 4, traced and counted on its own):
 * every row that ran failed, and each failure gave exactly one
 * mm_page_alloc_reserve_fail from the campaign thread, with GFP_ATOMIC's
 * rights, and gfptop -p counted exactly those.
 */
static void check_rfail(const struct run *r)
{
	struct events *rfail = filter_events(r->rfail_evs, "mm_page_alloc_reserve_fail",
					     true, r->camp_pid);
	struct events *tier = filter_events(r->rfail_evs, "mm_page_alloc_tier", true,
					    r->camp_pid);
	struct gfptop g = gfptop_counts(r, "rfail.json");
	struct tally none = { 0 };
	long long rows = 0, failed = 0, bad = 0;
	char *n;
	size_t i;

	for (i = 0; i < r->nrecs; i++) {
		const struct rec *rec = &r->recs[i];

		if (!is_rfail(rec))
			continue;
		rows++;
		failed += rec->reached && rec->pfn < 0;
	}
	for (i = 0; i < rfail->n; i++)
		bad += field_int(&rfail->v[i], "order", 10) != 0 ||
		       (field_int(&rfail->v[i], "alloc_flags", 16) & ALLOC_ATOMIC_RIGHTS) !=
		       ALLOC_ATOMIC_RIGHTS;
	n = xasprintf("%s: %lld failed GFP_ATOMIC give %lld mm_page_alloc_reserve_fail from the campaign thread",
		      r->name, rows, rows);
	if (!rows)
		fail(n, "the campaign made no %s row", RFAIL_CASE);
	else if (failed != rows || tier->n)
		fail(n, "%lld of %lld rows ran and failed, %zu allocations traced", failed, rows,
		     tier->n);
	else if ((long long)rfail->n != rows || bad)
		fail(n, "%zu events, %lld of them not order 0 with alloc_flags & %#x", rfail->n, bad,
		     ALLOC_ATOMIC_RIGHTS);
	else
		pass("%s", n);
	n = xasprintf("%s: gfptop -p campaign-pid counts exactly the series' reserve failures",
		      r->name);
	if (g.lines == 0)
		fail(n, "no gfptop output");
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
	struct events *reserve = filter_events(r->evs, "mm_reserve_highatomic", false, 0);
	size_t nfresh = 0, i;
	char *n;

	for (i = 0; i < r->nrecs; i++)
		if (!strcmp(r->recs[i].key, "atomic_o4/fresh") && r->recs[i].pfn >= 0)
			nfresh++;
	n = xasprintf("%s: high-order GFP_ATOMIC below low reserves a highatomic pageblock",
		      r->name);
	if (!nfresh) {
		fail(n, "no atomic_o4 allocation ran with an empty reserve");
	} else if (reserve->n && field_int(&reserve->v[0], "order", 10) == 4) {
		struct span nr = field(&reserve->v[reserve->n - 1], "nr_reserved");

		pass("%s (%zu mm_reserve_highatomic, nr_reserved=%.*s)", n, reserve->n,
		     SPAN_ARG(nr));
	} else {
		fail(n, "no mm_reserve_highatomic event of order 4 in the trace");
	}
}

/* held.txt: what the holder still held after each campaign phase */
static void check_held(const struct run *r)
{
	struct span text = read_or_empty(r, "held.txt"), w;
	char *n = xasprintf("%s: the holder holds nothing after each campaign", r->name);
	struct strbuf b;
	char *all;
	size_t pos = 0;
	bool zero = true;

	sb_open(&b);
	while (next_word(text, &pos, &w)) {
		fprintf(b.f, "%s%.*s", ftell(b.f) ? " " : "", SPAN_ARG(w));
		zero &= span_is(w, "0");
	}
	all = sb_close(&b);
	if (b.len && zero)
		pass("%s", n);
	else
		fail(n, "pages still held: %s", b.len ? all : "held.txt missing");
}

/* ---- the module campaign */

/* false if there was no campaign to check (records.txt missing) */
static bool check_campaign(struct run *r)
{
	struct span text;

	if (!read_out(r, "records.txt", &text)) {
		fail(xasprintf("%s: campaign produced records", r->name), "records.txt missing");
		return false;
	}
	parse_records(r, text);
	pass("%s: campaign ran (%zu allocations, zone %s min=%s boost=%s, min during the campaign %s)",
	     r->name, r->nrecs, hdr_get(r, "zone"), hdr_get(r, "min"), hdr_get(r, "boost"),
	     campaign_wmins(r));

	r->evs = parse_events(read_or_empty(r, "trace.txt"));
	if (!kv_get(r->hdr, "camp_pid", &text))
		die("records.txt: no camp_pid= in the header");
	r->camp_pid = want_int(text, 10, "camp_pid");
	r->tier_evs = filter_events(r->evs, "mm_page_alloc_tier", true, r->camp_pid);
	/* the series' allocations (if one did not fail) follow in time */
	r->rfail_evs = parse_events(read_or_empty(r, "rfail-trace.txt"));
	{
		struct events *more = filter_events(r->rfail_evs, "mm_page_alloc_tier", true,
						    r->camp_pid);
		size_t i;

		for (i = 0; i < more->n; i++)
			PUSH(r->tier_evs->v, r->tier_evs->n, r->tier_evs->cap, more->v[i]);
	}
	match_records(r);

	check_rows(r);
	check_counts(r);
	check_rfail(r);
	check_reserve(r);
	check_held(r);
	return true;
}

/* ---- the OOM victim */

static void check_killed(const struct run *r, long long hog)
{
	struct span dm = read_or_empty(r, "oom-dmesg.txt"), rc;
	char *want = xasprintf("Killed process %lld (hog)", hog);
	char *n = xasprintf("%s: the hog was OOM-killed", r->name);

	if (memmem(dm.p, dm.n, want, strlen(want))) {
		pass("%s", n);
		return;
	}
	/* (read("hog.rc") or "?").strip(): an empty file is "?" too */
	rc = read_or_empty(r, "hog.rc");
	rc = rc.n ? span_strip(rc) : (struct span){ "?", 1 };
	fail(n, "no '%s' in dmesg (exit %.*s)", want, SPAN_ARG(rc));
}

static void check_oom_tier(const struct run *r, long long hog, const struct tally *ocount)
{
	char *n = xasprintf("%s: the OOM victim's allocations reach the oom tier", r->name);

	if (ocount->n[TIER_OOM])
		pass("%s (%s)", n, fmt_tally(ocount));
	else
		fail(n, "no oom-tier allocation by pid %lld (%s)", hog, fmt_tally(ocount));
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
	struct span src = field(e, "source");
	const char *wt;

	if (free - res > wm + lowmem)
		wt = "none";
	else if (free > wm - wm / 2 + lowmem)
		wt = "oom";
	else
		wt = "no_level";
	*tier = span_is(src, "highatomic") || span_is(src, "highatomic_fallback") ?
		"highatomic" : wt;
	return wt;
}

static void check_oom_levels(const struct run *r, const struct events *oevs)
{
	const struct event *wrong = NULL;
	const char *want, *wt_want, *wrong_want = NULL;
	size_t checked = 0, nwrong = 0, i;
	char *n;

	for (i = 0; i < oevs->n; i++) {
		const struct event *e = &oevs->v[i];

		/* flags first: the order is only read for ALLOC_OOM events */
		if (!(field_int(e, "alloc_flags", 16) & ALLOC_OOM) || field_int(e, "order", 10))
			continue;
		checked++;
		wt_want = oom_want(e, &want);
		if (span_is(field(e, "tier"), want) && span_is(field(e, "watermark_tier"), wt_want))
			continue;
		if (!nwrong++) {
			wrong = e;
			wrong_want = xasprintf("watermark_tier=%s tier=%s", wt_want, want);
		}
	}
	n = xasprintf("%s: OOM victim at its level: every ALLOC_OOM allocation has the tier its free count gives",
		      r->name);
	if (!checked) {
		fail(n, "no ALLOC_OOM allocation traced");
	} else if (wrong) {
		struct span f = field(wrong, "free"), wm = field(wrong, "watermark");
		struct span res = field(wrong, "highatomic"), tier = field(wrong, "tier");
		struct span wt = field(wrong, "watermark_tier"), src = field(wrong, "source");

		fail(n, "%zu of %zu: e.g. free=%.*s watermark=%.*s highatomic=%.*s source=%.*s: expected %s, observed watermark_tier=%.*s tier=%.*s",
		     nwrong, checked, SPAN_ARG(f), SPAN_ARG(wm), SPAN_ARG(res), SPAN_ARG(src),
		     wrong_want, SPAN_ARG(wt), SPAN_ARG(tier));
	} else {
		pass("%s (%zu allocations)", n, checked);
	}
}

static void check_oom_counts(const struct run *r, const struct tally *ocount)
{
	struct gfptop g = gfptop_counts(r, "oom.json");
	char *n = xasprintf("%s: gfptop -p victim-pid per-tier counts equal the traced ones",
			    r->name);

	if (g.lines == 0)
		fail(n, "no gfptop output");
	else if (tally_eq(&g.tiers, ocount))
		pass("%s", n);
	else
		fail(n, "gfptop %s, trace %s", fmt_tally(&g.tiers), fmt_tally(ocount));
}

/* a user process OOM-killed while allocating: hog.pid, oom-trace.txt */
static void check_oom(const struct run *r)
{
	struct span pid, otrace;
	struct events *oevs;
	struct tally ocount;
	long long hog;

	if (!read_out(r, "hog.pid", &pid) || !read_out(r, "oom-trace.txt", &otrace)) {
		fail(xasprintf("%s: OOM victim ran", r->name), "hog.pid or oom-trace.txt missing");
		return;
	}
	hog = want_int(pid, 10, "hog.pid");
	check_killed(r, hog);
	oevs = filter_events(parse_events(otrace), "mm_page_alloc_tier", true, hog);
	ocount = events_tally(oevs);
	check_oom_tier(r, hog, &ocount);
	check_oom_levels(r, oevs);
	check_oom_counts(r, &ocount);
}

int main(int argc, char **argv)
{
	struct run r = { 0 };
	const char *slash;

	if (argc < 4) {
		fputs("usage: check KIND OUTDIR EXPECT_FILE\n", stderr);
		return 1;
	}
	r.name = xasprintf("oracle %s", argv[1]);
	r.out = argv[2];
	slash = strrchr(argv[3], '/');
	r.expect_base = slash ? slash + 1 : argv[3];
	parse_expect(&r, argv[3]);

	if (check_campaign(&r))
		check_oom(&r);
	if (fflush(stdout) || ferror(stdout)) {
		perror("check: stdout");
		return 1;
	}
	return 0;
}
