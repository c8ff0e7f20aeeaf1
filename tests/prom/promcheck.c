/* See promcheck.h. */
#define _GNU_SOURCE
#include "promcheck.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NAME 200
#define MAX_LABELS 16

struct family {
	char name[MAX_NAME];
	bool help, type, counter, sampled, closed;
};

struct checker {
	struct family *fams;
	size_t nfams, capfams;
	char **series;
	size_t nseries, capseries;
	char *err;
	size_t errlen;
	int line;
};

static int bad(struct checker *c, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(c->err, c->errlen, "line %d: ", c->line);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < c->errlen)
		vsnprintf(c->err + n, c->errlen - n, fmt, ap);
	va_end(ap);
	return -1;
}

static bool name_start(char ch, bool colon)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' || (colon && ch == ':');
}

static bool name_char(char ch, bool colon)
{
	return name_start(ch, colon) || (ch >= '0' && ch <= '9');
}

/* Length of the name at s ([a-zA-Z_:][a-zA-Z0-9_:]* if colon), 0 if none. */
static size_t name_len(const char *s, bool colon)
{
	size_t n = 0;

	if (!name_start(s[0], colon))
		return 0;
	while (name_char(s[n], colon))
		n++;
	return n;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

static struct family *find_family(struct checker *c, const char *name)
{
	for (size_t i = 0; i < c->nfams; i++)
		if (!strcmp(c->fams[i].name, name))
			return &c->fams[i];
	return NULL;
}

static struct family *add_family(struct checker *c, const char *name)
{
	struct family *f = find_family(c, name);

	if (f)
		return f;
	if (c->nfams == c->capfams) {
		size_t cap = c->capfams ? 2 * c->capfams : 32;
		struct family *n = realloc(c->fams, cap * sizeof(*n));

		if (!n)
			return NULL;
		c->fams = n;
		c->capfams = cap;
	}
	f = &c->fams[c->nfams++];
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", name);
	return f;
}

/* "# HELP name text" or "# TYPE name type" */
static int meta_line(struct checker *c, const char *l, struct family **open)
{
	bool help = !strncmp(l, "# HELP ", 7);
	char name[MAX_NAME];
	size_t n;
	struct family *f;

	if (!help && strncmp(l, "# TYPE ", 7))
		return bad(c, "a comment that is neither # HELP nor # TYPE");
	l += 7;
	n = name_len(l, true);
	if (!n || n >= sizeof(name) || (l[n] != ' ' && l[n] != '\0'))
		return bad(c, "invalid metric name in # %s", help ? "HELP" : "TYPE");
	memcpy(name, l, n);
	name[n] = '\0';
	l += n;
	f = add_family(c, name);
	if (!f)
		return bad(c, "out of memory");
	if (f->sampled)
		return bad(c, "# %s for %s after its samples", help ? "HELP" : "TYPE", name);
	if (*open && *open != f)
		(*open)->closed = (*open)->sampled;
	*open = f;
	if (help) {
		if (f->help)
			return bad(c, "second # HELP for %s", name);
		if (*l != ' ' || !l[1])
			return bad(c, "# HELP for %s has no text", name);
		for (l++; *l; l++)
			if (*l == '\\' && l[1] != '\\' && l[1] != 'n')
				return bad(c, "# HELP for %s: bad escape", name);
			else if (*l == '\\')
				l++;
		f->help = true;
		return 0;
	}
	if (f->type)
		return bad(c, "second # TYPE for %s", name);
	if (!strcmp(l, " counter"))
		f->counter = true;
	else if (strcmp(l, " gauge"))
		return bad(c, "# TYPE for %s is not counter or gauge", name);
	if (f->counter && !ends_with(name, "_total"))
		return bad(c, "counter %s does not end in _total", name);
	if (!f->counter && ends_with(name, "_total"))
		return bad(c, "gauge %s ends in _total", name);
	f->type = true;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int sample_line(struct checker *c, const char *l, struct family **open)
{
	char name[MAX_NAME], key[4096], *labels[MAX_LABELS];
	size_t n = name_len(l, true), klen, nl = 0;
	struct family *f;
	char lbuf[MAX_LABELS][1024];
	int rc = 0;

	if (!n || n >= sizeof(name))
		return bad(c, "sample without a valid metric name");
	memcpy(name, l, n);
	name[n] = '\0';
	l += n;
	f = find_family(c, name);
	if (!f || !f->help || !f->type)
		return bad(c, "sample of %s without # HELP and # TYPE before it", name);
	if (f->closed)
		return bad(c, "samples of %s are not together", name);
	if (*open && *open != f)
		(*open)->closed = true;
	*open = f;
	f->sampled = true;

	if (*l == '{') {
		l++;
		while (*l != '}') {
			size_t ln = name_len(l, false), o;

			if (!ln || ln > 200)
				return bad(c, "%s: invalid label name", name);
			if (l[0] == '_' && l[1] == '_')
				return bad(c, "%s: reserved label name", name);
			if (nl == MAX_LABELS)
				return bad(c, "%s: too many labels", name);
			o = (size_t)snprintf(lbuf[nl], sizeof(lbuf[nl]), "%.*s=\"", (int)ln, l);
			l += ln;
			if (l[0] != '=' || l[1] != '"')
				return bad(c, "%s: label without =\"value\"", name);
			for (l += 2; *l != '"'; l++) {
				if (!*l || *l == '\n')
					return bad(c, "%s: unterminated label value", name);
				if (*l == '\\') {
					if (l[1] != '\\' && l[1] != '"' && l[1] != 'n')
						return bad(c, "%s: bad escape in a label value", name);
					if (o < sizeof(lbuf[nl]) - 3)
						lbuf[nl][o++] = *l;
					l++;
				}
				if (o < sizeof(lbuf[nl]) - 3)
					lbuf[nl][o++] = *l;
			}
			lbuf[nl][o++] = '"';
			lbuf[nl][o] = '\0';
			for (size_t i = 0; i < nl; i++)
				if (!strncmp(labels[i], lbuf[nl], ln + 1))
					return bad(c, "%s: label %.*s twice", name, (int)ln, lbuf[nl]);
			labels[nl] = lbuf[nl];
			nl++;
			l++;
			if (*l == ',')
				l++;
			else if (*l != '}')
				return bad(c, "%s: expected , or } after a label", name);
		}
		l++;
	}
	if (*l != ' ')
		return bad(c, "%s: no value", name);
	l++;
	if (!*l)
		return bad(c, "%s: no value", name);
	for (const char *v = l; *v; v++)
		if (*v < '0' || *v > '9')
			return bad(c, "%s: value '%s' is not a non-negative integer "
				      "(or has a timestamp)", name, l);
	errno = 0;
	(void)strtoull(l, NULL, 10);
	if (errno)
		return bad(c, "%s: value '%s' out of range", name, l);

	/* the series: name and the sorted label set */
	qsort(labels, nl, sizeof(labels[0]), cmp_str);
	klen = (size_t)snprintf(key, sizeof(key), "%s", name);
	for (size_t i = 0; i < nl && klen < sizeof(key); i++)
		klen += (size_t)snprintf(key + klen, sizeof(key) - klen, ",%s", labels[i]);
	if (c->nseries == c->capseries) {
		size_t cap = c->capseries ? 2 * c->capseries : 256;
		char **s = realloc(c->series, cap * sizeof(*s));

		if (!s)
			return bad(c, "out of memory");
		c->series = s;
		c->capseries = cap;
	}
	c->series[c->nseries] = strdup(key);
	if (!c->series[c->nseries])
		return bad(c, "out of memory");
	c->nseries++;
	return rc;
}

int promcheck(const char *text, size_t *nsamples, char *err, size_t errlen)
{
	struct checker c = { .err = err, .errlen = errlen };
	struct family *open = NULL;
	const char *p = text;
	int rc = 0;

	if (errlen)
		err[0] = '\0';
	if (!*text) {
		c.line = 1;
		rc = bad(&c, "empty");
	}
	while (!rc && *p) {
		const char *nl = strchr(p, '\n');
		char *l;

		c.line++;
		if (!nl) {
			rc = bad(&c, "no newline at the end");
			break;
		}
		l = strndup(p, nl - p);
		if (!l) {
			rc = bad(&c, "out of memory");
			break;
		}
		if (!*l)
			rc = bad(&c, "blank line");
		else if (l[0] == '#')
			rc = meta_line(&c, l, &open);
		else
			rc = sample_line(&c, l, &open);
		free(l);
		p = nl + 1;
	}
	for (size_t i = 0; !rc && i < c.nfams; i++)
		if (!c.fams[i].help || !c.fams[i].type) {
			c.line = 0;
			rc = bad(&c, "family %s lacks # %s", c.fams[i].name,
				 c.fams[i].help ? "TYPE" : "HELP");
		}
	if (!rc && c.nseries > 1) {
		qsort(c.series, c.nseries, sizeof(c.series[0]), cmp_str);
		for (size_t i = 1; i < c.nseries; i++)
			if (!strcmp(c.series[i - 1], c.series[i])) {
				c.line = 0;
				rc = bad(&c, "series %s twice", c.series[i]);
				break;
			}
	}
	if (nsamples)
		*nsamples = c.nseries;
	for (size_t i = 0; i < c.nseries; i++)
		free(c.series[i]);
	free(c.series);
	free(c.fams);
	return rc;
}

/* Calls fn(labels, value) for each sample line of name; labels is the
 * text between the braces ("" if none). */
static void each_sample(const char *text, const char *name,
			void (*fn)(const char *labels, size_t len, uint64_t v, void *arg), void *arg)
{
	size_t n = strlen(name);

	for (const char *p = text; *p; ) {
		const char *nl = strchr(p, '\n');
		const char *e = nl ? nl : p + strlen(p);

		if (!strncmp(p, name, n) && (p[n] == '{' || p[n] == ' ')) {
			const char *sp = e;

			while (sp > p && sp[-1] != ' ')
				sp--;
			if (p[n] == '{')
				fn(p + n + 1, (size_t)(sp - 2 - (p + n + 1)), strtoull(sp, NULL, 10), arg);
			else
				fn("", 0, strtoull(sp, NULL, 10), arg);
		}
		p = nl ? nl + 1 : e;
	}
}

static void add_value(const char *labels, size_t len, uint64_t v, void *arg)
{
	*(uint64_t *)arg += v;
}

uint64_t promcheck_sum(const char *text, const char *name)
{
	uint64_t sum = 0;

	each_sample(text, name, add_value, &sum);
	return sum;
}

struct want {
	const char *labels;
	int64_t v;
};

static void match_value(const char *labels, size_t len, uint64_t v, void *arg)
{
	struct want *w = arg;

	if (strlen(w->labels) == len && !strncmp(labels, w->labels, len))
		w->v = (int64_t)v;
}

int64_t promcheck_value(const char *text, const char *name, const char *labels)
{
	struct want w = { labels, -1 };

	each_sample(text, name, match_value, &w);
	return w.v;
}
