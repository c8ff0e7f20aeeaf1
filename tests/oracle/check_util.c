/*
 * The oracle checker's small helpers: allocation that dies on failure,
 * the PASS/FAIL lines and the error exit, whitespace, numbers and
 * key=value words, the tier names and per-tier tallies, sorted joins.
 */
#include "check.h"

/* enum page_alloc_tier, as the tracepoint prints it */
const char *const tiers[] = {
	"none", "non_block", "min_reserve", "min_reserve_non_block",
	"oom", "no_watermarks", "highatomic", "highatomic_counted",
	"no_level",
};

/* gfptop's tier_context keys, in the order the messages print them */
const char *const ctx_names[NCTX] = { "task", "softirq", "hardirq" };

/* ---- memory and messages */

void __attribute__((noreturn, format(printf, 1, 2)))
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

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

char *__attribute__((format(printf, 1, 2))) xasprintf(const char *fmt, ...)
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
void __attribute__((format(printf, 2, 3))) catf(char **s, const char *fmt, ...)
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

/* "oracle KIND": the start of every check's name */
const char *prefix;

void __attribute__((format(printf, 1, 2))) pass(const char *fmt, ...)
{
	va_list ap;

	printf("PASS %s: ", prefix);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

void __attribute__((format(printf, 2, 3)))
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
char *strip(char *s)
{
	size_t n;

	s += strspn(s, WS);
	for (n = strlen(s); n && isspace((unsigned char)s[n - 1]); n--)
		;
	s[n] = '\0';
	return s;
}

/* the whole of s as a number in base 10 or 16 ("0x" allowed) */
long long to_int(const char *s, int base, const char *what)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, base);
	if (end == s || *end || errno)
		die("%s: not a base %d number: '%s'", what, base, s);
	return v;
}

struct kv split_kv(char *s)
{
	struct kv kv = { s, s + strlen(s) };

	for (; *s; s++)
		if (isspace((unsigned char)*s))
			*s = '\0';
	return kv;
}

/* key's value; NULL if there is none, or an empty one ("free_blocks=") */
const char *kv_get(struct kv kv, const char *key)
{
	size_t n = strlen(key);
	const char *w;

	for (w = kv.s; w < kv.end; w += strlen(w) + 1)
		if (!strncmp(w, key, n) && w[n] == '=')
			return w[n + 1] ? w + n + 1 : NULL;
	return NULL;
}

/* ---- per-tier counts */

int tier_index(const char *s)
{
	size_t i;

	for (i = 0; i < NTIERS; i++)
		if (!strcmp(s, tiers[i]))
			return i;
	return -1;
}

/* exact because one side of each comparison (the oracle or gfptop)
 * never has extra names */
bool tally_eq(const struct tally *a, const struct tally *b)
{
	return !a->extra && !b->extra && !memcmp(a->n, b->n, sizeof(a->n));
}

/* "tier=N ..." for the non-zero tiers, or "nothing" */
const char *fmt_tally(const struct tally *t)
{
	char *s = xasprintf("%s", "");
	size_t i;

	for (i = 0; i < NTIERS; i++)
		if (t->n[i])
			catf(&s, "%s%s=%lld", *s ? " " : "", tiers[i], t->n[i]);
	return *s ? s : "nothing";
}

/* ---- sorted strings */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* sort strings and join the distinct ones with sep */
char *join_sorted_unique(const char **v, size_t n, const char *sep)
{
	char *s = xasprintf("%s", "");
	size_t i;

	qsort(v, n, sizeof(*v), cmp_str);
	for (i = 0; i < n; i++)
		if (!i || strcmp(v[i], v[i - 1]))
			catf(&s, "%s%s", i ? sep : "", v[i]);
	return s;
}
