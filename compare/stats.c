/* Welch's t-test with the regularized incomplete beta function evaluated
 * by its continued fraction (modified Lentz's method), as in e.g.
 * Abramowitz & Stegun 26.5.8 and 26.7.1. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void stats_summarize(const double *x, int n, struct stats_summary *s)
{
	double sum = 0, ss = 0, *sorted;
	int i;

	memset(s, 0, sizeof(*s));
	s->n = n > 0 ? n : 0;
	if (n <= 0) {
		s->mean = s->sd = s->min = s->max = s->median = NAN;
		return;
	}
	for (i = 0; i < n; i++)
		sum += x[i];
	s->mean = sum / n;
	for (i = 0; i < n; i++)
		ss += (x[i] - s->mean) * (x[i] - s->mean);
	s->sd = n > 1 ? sqrt(ss / (n - 1)) : 0;
	sorted = malloc(sizeof(*sorted) * (size_t)n);
	if (!sorted) {
		s->min = s->max = s->median = NAN;
		return;
	}
	memcpy(sorted, x, sizeof(*sorted) * (size_t)n);
	qsort(sorted, (size_t)n, sizeof(*sorted), cmp_double);
	s->min = sorted[0];
	s->max = sorted[n - 1];
	s->median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	free(sorted);
}

/* one step of Lentz's method: the next convergent factor for the
 * continued-fraction coefficient aa, updating the running c and d */
static double lentz_step(double aa, double *c, double *d)
{
	const double tiny = 1e-300;

	*d = 1 + aa * *d;
	if (fabs(*d) < tiny)
		*d = tiny;
	*c = 1 + aa / *c;
	if (fabs(*c) < tiny)
		*c = tiny;
	*d = 1 / *d;
	return *d * *c;
}

/* continued fraction of I_x(a,b) (without the prefactor) */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap, h;
	int m;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 10000; m++) {
		int m2 = 2 * m;
		double del;

		/* even step, then odd step (Numerical Recipes' betacf) */
		h *= lentz_step(m * (b - m) * x / ((qam + m2) * (a + m2)), &c, &d);
		del = lentz_step(-(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)), &c, &d);
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

double stats_betai(double a, double b, double x)
{
	double front;

	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	/* the fraction converges fast for x < (a+1)/(a+b+2); else use symmetry */
	if (x < (a + 1) / (a + b + 2))
		return front * betacf(a, b, x) / a;
	return 1 - front * betacf(b, a, 1 - x) / b;
}

double stats_t_two_sided(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0;
	return stats_betai(df / 2, 0.5, df / (df + t * t));
}

int stats_welch_test(const double *a, int na, const double *b, int nb,
		     struct stats_welch *w)
{
	struct stats_summary sa, sb;
	double va, vb, se2;

	w->t = w->df = w->p = NAN;
	if (na < 2 || nb < 2)
		return -1;
	stats_summarize(a, na, &sa);
	stats_summarize(b, nb, &sb);
	va = sa.sd * sa.sd / na;
	vb = sb.sd * sb.sd / nb;
	se2 = va + vb;
	if (se2 == 0) {
		w->df = na + nb - 2;
		if (sa.mean == sb.mean) {
			w->t = 0;
			w->p = 1;
		} else {
			w->t = sb.mean > sa.mean ? INFINITY : -INFINITY;
			w->p = 0;
		}
		return 0;
	}
	w->t = (sb.mean - sa.mean) / sqrt(se2);
	w->df = se2 * se2 / (va * va / (na - 1) + vb * vb / (nb - 1));
	w->p = stats_t_two_sided(w->t, w->df);
	return 0;
}
