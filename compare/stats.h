/* Small statistics for gfpcompare: sample summaries and Welch's t-test.
 * No dependencies beyond libm. */
#ifndef GFPCOMPARE_STATS_H
#define GFPCOMPARE_STATS_H

struct stats_summary {
	int n;
	double mean;
	double sd;      /* sample standard deviation (n - 1); 0 if n < 2 */
	double min, max, median;
};

struct stats_welch {
	double t;       /* (mean_b - mean_a) / sqrt(var_a/n_a + var_b/n_b) */
	double df;      /* Welch-Satterthwaite degrees of freedom */
	double p;       /* two-sided p value; NAN if undefined */
};

/* Summary of x[0..n-1]; n may be 0 (then everything is NAN, n = 0). */
void stats_summarize(const double *x, int n, struct stats_summary *s);

/* Regularized incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1.
 * Returns NAN for arguments out of range. */
double stats_betai(double a, double b, double x);

/* Two-sided tail probability of Student's t distribution with df degrees
 * of freedom: P(|T| >= |t|) = I_{df/(df+t^2)}(df/2, 1/2). */
double stats_t_two_sided(double t, double df);

/* Welch's unequal-variance t-test of samples a (na) and b (nb).
 * Returns 0 and fills w, or -1 if either sample has fewer than 2 values
 * (w->p = NAN). If both variances are 0: p = 1 when the means are equal,
 * p = 0 when they differ (t = +-INFINITY, df = na + nb - 2). */
int stats_welch_test(const double *a, int na, const double *b, int nb,
		     struct stats_welch *w);

#endif
