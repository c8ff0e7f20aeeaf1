/* See util.h. */
#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *outdir = "report";

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("gfpcompare: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		die("out of memory");
	return p;
}

char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		die("out of memory");
	return d;
}

FILE *open_tmp(const char *name, char *tmp, size_t n)
{
	FILE *f;

	snprintf(tmp, n, "%s/.%s.tmp", outdir, name);
	f = fopen(tmp, "w");
	if (!f)
		die("%s: %s", tmp, strerror(errno));
	return f;
}

void close_rename(FILE *f, const char *tmp, const char *name)
{
	char dst[4096];

	if (fclose(f))
		die("%s: write error", tmp);
	snprintf(dst, sizeof(dst), "%s/%s", outdir, name);
	if (rename(tmp, dst))
		die("rename %s: %s", dst, strerror(errno));
}
