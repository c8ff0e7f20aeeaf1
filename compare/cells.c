/* See cells.h. */
#include "cells.h"

#include <math.h>
#include <stdio.h>

const char *num(char *buf, size_t n, double x)
{
	double a = fabs(x);

	if (isnan(x))
		snprintf(buf, n, "-");
	else if (a == 0)
		snprintf(buf, n, "0");
	else if (a >= 1000)
		snprintf(buf, n, "%.0f", x);
	else if (a >= 10)
		snprintf(buf, n, "%.1f", x);
	else if (a >= 0.1)
		snprintf(buf, n, "%.2f", x);
	else
		snprintf(buf, n, "%.3f", x);
	return buf;
}

const char *diffpct(char *buf, size_t n, const struct row *r)
{
	double b = r->s[0].mean, a = r->s[1].mean;

	if (isnan(a) || isnan(b))
		snprintf(buf, n, "-");
	else if (b == 0)
		snprintf(buf, n, a == 0 ? "0%%" : "new");
	else
		snprintf(buf, n, "%+.1f%%", 100 * (a - b) / b);
	return buf;
}

const char *pval(char *buf, size_t n, const struct row *r)
{
	if (!r->tested || isnan(r->w.p))
		snprintf(buf, n, "n/a");
	else if (r->w.p < 0.001)
		snprintf(buf, n, "<0.001");
	else
		snprintf(buf, n, "%.3f", r->w.p);
	return buf;
}

const char *mark(const struct row *r)
{
	if (!r->tested || isnan(r->w.p))
		return "";
	if (r->w.p < alpha / 5)
		return "**";
	if (r->w.p < alpha)
		return "*";
	return "";
}

const char *fmt_row(char *buf, size_t n, const struct row *r)
{
	char a[32], b[32], df[32], p[32];

	snprintf(buf, n, "`%s`: %s -> %s (%s, p %s)", r->label, num(b, sizeof(b), r->s[0].mean),
		 num(a, sizeof(a), r->s[1].mean), diffpct(df, sizeof(df), r), pval(p, sizeof(p), r));
	return buf;
}
