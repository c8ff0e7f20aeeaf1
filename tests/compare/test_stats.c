/* compare/stats.c: summaries, the regularized incomplete beta function and
 * Welch's t-test, against values computed independently (closed forms and
 * numerical integration of the densities). Built and run by
 * tests/compare/host.sh (make -f compare/compare.mk BUILD/unit/test_stats). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "stats.h"

#define near(a, b, eps) assert_true(fabs((a) - (b)) <= (eps))

static void test_summary(void **state)
{
	const double x[] = { 4, 1, 3, 2 };
	struct stats_summary s;

	stats_summarize(x, 4, &s);
	assert_int_equal(s.n, 4);
	near(s.mean, 2.5, 1e-12);
	near(s.sd, sqrt(5.0 / 3), 1e-12);
	near(s.median, 2.5, 1e-12);
	near(s.min, 1, 0);
	near(s.max, 4, 0);
	stats_summarize(x, 3, &s);
	near(s.median, 3, 1e-12);
	stats_summarize(x, 1, &s);
	near(s.sd, 0, 0);
	stats_summarize(x, 0, &s);
	assert_int_equal(s.n, 0);
	assert_true(isnan(s.mean));
}

static void test_betai(void **state)
{
	/* integer a, b: binomial sum; I_0.4(2,3) = 0.5248 */
	near(stats_betai(2, 3, 0.4), 0.5248, 1e-12);
	/* I_x(1,1) = x; symmetry I_x(a,b) = 1 - I_(1-x)(b,a) */
	near(stats_betai(1, 1, 0.37), 0.37, 1e-12);
	near(stats_betai(3.5, 1.25, 0.8), 1 - stats_betai(1.25, 3.5, 0.2), 1e-12);
	/* Simpson integration of the Beta(2.5, 5) density to 0.3 */
	near(stats_betai(2.5, 5, 0.3), 0.4589966166928922, 1e-9);
	near(stats_betai(2, 3, 0), 0, 0);
	near(stats_betai(2, 3, 1), 1, 0);
	assert_true(isnan(stats_betai(0, 3, 0.5)));
	assert_true(isnan(stats_betai(2, 3, 1.5)));
}

static void test_t_two_sided(void **state)
{
	/* df 1 is Cauchy: P(|T| >= 1) = 1/2 */
	near(stats_t_two_sided(1, 1), 0.5, 1e-12);
	/* df 2: p = 1 - |t| / sqrt(2 + t^2) */
	near(stats_t_two_sided(2, 2), 1 - 2 / sqrt(6), 1e-12);
	near(stats_t_two_sided(-2, 2), 1 - 2 / sqrt(6), 1e-12);
	/* the 97.5% quantile of t(10) */
	near(stats_t_two_sided(2.228138852, 10), 0.05, 1e-8);
	near(stats_t_two_sided(0, 5), 1, 1e-12);
	near(stats_t_two_sided(INFINITY, 5), 0, 0);
	assert_true(isnan(stats_t_two_sided(1, 0)));
}

static void test_welch(void **state)
{
	const double a[] = { 1, 2, 3, 4 }, b[] = { 2, 4, 6, 8 };
	const double c[] = { 5, 5, 5 }, d[] = { 7, 7, 7 };
	struct stats_welch w;

	assert_int_equal(stats_welch_test(a, 4, b, 4, &w), 0);
	near(w.t, sqrt(3), 1e-12);
	near(w.df, 4.411764705882353, 1e-12);
	near(w.p, 0.15158050484529684, 1e-8);
	/* swapping the samples flips t only */
	assert_int_equal(stats_welch_test(b, 4, a, 4, &w), 0);
	near(w.t, -sqrt(3), 1e-12);
	near(w.p, 0.15158050484529684, 1e-8);
	/* zero variance on both sides */
	assert_int_equal(stats_welch_test(c, 3, c, 3, &w), 0);
	near(w.p, 1, 0);
	assert_int_equal(stats_welch_test(c, 3, d, 3, &w), 0);
	near(w.p, 0, 0);
	assert_true(isinf(w.t) && w.t > 0);
	/* one sample with variance, the other without: still defined */
	assert_int_equal(stats_welch_test(a, 4, c, 3, &w), 0);
	near(w.df, 3, 1e-12);
	/* too few values */
	assert_int_equal(stats_welch_test(a, 1, b, 4, &w), -1);
	assert_true(isnan(w.p));
}

/* A sample of unequal sizes and variances with a non-integer df. The
 * values were computed once, independently of stats.c, with python3:
 * statistics.mean/stdev/median; t and the Welch-Satterthwaite df from
 * statistics.variance; p = 1 - 2 * (Simpson's rule, 400000 intervals, on
 * the t(df) density from math.lgamma, from 0 to t). */
static void test_welch_known(void **state)
{
	const double a[] = { 12.1, 14.3, 13.8, 15.2, 12.9 };
	const double b[] = { 16.4, 18.1, 15.9, 17.7, 19.3, 16.8 };
	/* the vm-fifo fixture's non_block allocs per run (tests/compare/fixtures):
	 * df = 2, so p = 1 - t / sqrt(2 + t^2) in closed form as well */
	const double fb[] = { 30, 26 }, fa[] = { 40, 44 };
	struct stats_summary s;
	struct stats_welch w;

	stats_summarize(a, 5, &s);
	near(s.mean, 13.66, 1e-12);
	near(s.sd, 1.2054044964243331, 1e-12);
	near(s.median, 13.8, 1e-12);
	stats_summarize(b, 6, &s);
	near(s.mean, 17.366666666666667, 1e-12);
	near(s.sd, 1.248465725066839, 1e-12);
	near(s.median, 17.25, 1e-12);
	assert_int_equal(stats_welch_test(a, 5, b, 6, &w), 0);
	near(w.t, 4.9963526891737535, 1e-12);
	near(w.df, 8.752515143527134, 1e-12);
	near(w.p, 0.0008077052988660904, 1e-9);

	assert_int_equal(stats_welch_test(fb, 2, fa, 2, &w), 0);
	near(w.t, 4.949747468305833, 1e-12);
	near(w.df, 2, 1e-12);
	near(w.p, 1 - w.t / sqrt(2 + w.t * w.t), 1e-12);
	near(w.p, 0.03847605235916174, 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_betai),
		cmocka_unit_test(test_t_two_sided),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_welch_known),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
