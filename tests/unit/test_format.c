/* Histogram, table, live and CSV text. Expected strings are written
 * out from the documented formats, not captured from the program. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "format.h"

#define SP10 "          "
#define SP20 SP10 SP10
#define ST10 "**********"
#define ST20 ST10 ST10
#define ST40 ST20 ST20

struct cap {
	char *buf;
	size_t len;
	FILE *f;
};

static void cap_open(struct cap *c)
{
	c->f = open_memstream(&c->buf, &c->len);
	assert_non_null(c->f);
}

static const char *cap_close(struct cap *c)
{
	fclose(c->f);
	return c->buf;
}

static void bucket_ranges(void **state)
{
	long long lo, hi;

	hist_bucket_range(GT_HIST_SLOTS, &lo, &hi);		/* zero */
	assert_true(lo == 0 && hi == 0);
	hist_bucket_range(GT_HIST_SLOTS + 1, &lo, &hi);		/* pos[0] */
	assert_true(lo == 1 && hi == 1);
	hist_bucket_range(GT_HIST_SLOTS + 4, &lo, &hi);		/* pos[3] */
	assert_true(lo == 8 && hi == 15);
	hist_bucket_range(GT_HIST_SLOTS - 1, &lo, &hi);		/* neg[0] */
	assert_true(lo == -1 && hi == -1);
	hist_bucket_range(GT_HIST_SLOTS - 3, &lo, &hi);		/* neg[2] */
	assert_true(lo == -7 && hi == -4);
}

static void hist_signed(void **state)
{
	struct gt_hist h;
	struct cap c;

	memset(&h, 0, sizeof(h));
	h.neg[0] = 1;	/* margin -1 */
	h.pos[1] = 2;	/* margins 2..3 */
	cap_open(&c);
	fmt_hist(c.f, &h);
	const char *want =
		"     margin                : count       distribution\n"
		"         -1 -> -1          : 1          |" ST20 SP20 "|\n"
		"          0 -> 0           : 0          |" SP20 SP20 "|\n"
		"          1 -> 1           : 0          |" SP20 SP20 "|\n"
		"          2 -> 3           : 2          |" ST40 "|\n";
	assert_string_equal(cap_close(&c), want);
	free(c.buf);
}

static void hist_empty_prints_nothing(void **state)
{
	struct gt_hist h;
	struct cap c;

	memset(&h, 0, sizeof(h));
	cap_open(&c);
	fmt_hist(c.f, &h);
	assert_string_equal(cap_close(&c), "");
	free(c.buf);
}

static struct report *sample(void)
{
	struct report *r = calloc(1, sizeof(*r));

	r->c.order[GT_NONE][0] = (struct gt_cnt){ 5, 5 };
	r->c.order[GT_NONE][2] = (struct gt_cnt){ 1, 4 };
	r->c.order[GT_OOM][0] = (struct gt_cnt){ 2, 2 };
	r->interval_s = 2;
	r->timestamp = 0;
	r->kernel_release = "6.1.192-test";
	strcpy(r->zone_names[1], "Normal");
	return r;
}

static void tier_order_table(void **state)
{
	struct report *r = sample();
	struct cap c;

	cap_open(&c);
	fmt_tier_order_table(c.f, r);
	const char *want =
		"TIER \\ ORDER                   0         1         2      ALLOCS       PAGES\n"
		"none                           5         0         1           6           9\n"
		"oom                            2         0         0           2           2\n";
	assert_string_equal(cap_close(&c), want);
	free(c.buf);
	free(r);
}

static void live_rates_and_rows(void **state)
{
	struct report *r = sample();
	struct proc_row rows[2];
	struct cap c;

	memset(rows, 0, sizeof(rows));
	rows[0].pid = 42;
	strcpy(rows[0].comm, "kswapd0");
	rows[0].tier[GT_OOM].count = 2;
	proc_row_totals(&rows[0]);
	rows[1].pid = 7;
	strcpy(rows[1].comm, "sh");
	rows[1].tier[GT_NONE].count = 6;
	proc_row_totals(&rows[1]);
	r->procs = rows;
	r->nprocs = 2;
	r->nprocs_total = 3;
	cap_open(&c);
	fmt_live(c.f, r, 20, false, false);
	const char *out = cap_close(&c);
	/* 6 allocations / 2 s = 3.0/s, 9 pages / 2 s = 4.5/s, 6 of 8 = 75% */
	assert_non_null(strstr(out, "\nnone                            3.0          4.5   75.00%\n"));
	assert_non_null(strstr(out, "\noom                             1.0          1.0   25.00%\n"));
	assert_null(strstr(out, "unknown"));
	assert_non_null(strstr(out, "\n     42 kswapd0                   2          2         0         0         0         2         0         0\n"));
	assert_non_null(strstr(out, "(3 processes in this interval, 2 shown)\n"));
	assert_non_null(strstr(out, "after-series semantics (ALLOC_NON_BLOCK/ALLOC_MIN_RESERVE), interval 2.00s\n"));
	free(c.buf);
	free(r);
}

static void csv_lines(void **state)
{
	struct report *r = sample();
	struct cap c;

	r->c.zone[GT_OOM][1] = (struct gt_cnt){ 2, 2 };
	r->gfp[GT_OOM][GFPC_KERNEL] = (struct gt_cnt){ 2, 2 };
	cap_open(&c);
	fmt_csv_header(c.f);
	fmt_csv(c.f, r);
	const char *out = cap_close(&c);
	assert_memory_equal(out, "timestamp,interval_s,section,tier,key,count,pages\n", 50);
	assert_non_null(strstr(out, "\n0.000,2.000,tier,none,all,6,9\n"));
	assert_non_null(strstr(out, "\n0.000,2.000,order,none,2,1,4\n"));
	assert_non_null(strstr(out, "\n0.000,2.000,tier,highatomic,all,0,0\n"));
	assert_non_null(strstr(out, "\n0.000,2.000,zone,oom,Normal,2,2\n"));
	assert_non_null(strstr(out, "\n0.000,2.000,gfp_class,oom,GFP_KERNEL,2,2\n"));
	assert_non_null(strstr(out, "\n0.000,2.000,lost,,process_map_full,0,0\n"));
	assert_null(strstr(out, "order,none,1,"));	/* zero rows left out */
	free(c.buf);
	free(r);
}

static void sorting(void **state)
{
	struct proc_row rows[3];

	memset(rows, 0, sizeof(rows));
	rows[0].pid = 1; rows[0].tier[GT_NONE].count = 100;
	rows[1].pid = 2; rows[1].tier[GT_OOM].count = 5;
	rows[2].pid = 3; rows[2].tier[GT_MIN_RESERVE].count = 9; rows[2].tier[GT_NONE].count = 1;
	for (int i = 0; i < 3; i++)
		proc_row_totals(&rows[i]);
	proc_rows_sort(rows, 3, SORT_RESERVE, 0);
	assert_int_equal(rows[0].pid, 3);
	assert_int_equal(rows[1].pid, 2);
	assert_int_equal(rows[2].pid, 1);
	proc_rows_sort(rows, 3, SORT_ALLOCS, 0);
	assert_int_equal(rows[0].pid, 1);
	proc_rows_sort(rows, 3, SORT_TIER, GT_OOM);
	assert_int_equal(rows[0].pid, 2);
	proc_rows_sort(rows, 3, SORT_PID, 0);
	assert_int_equal(rows[0].pid, 1);
	assert_int_equal(rows[2].pid, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bucket_ranges),
		cmocka_unit_test(hist_signed),
		cmocka_unit_test(hist_empty_prints_nothing),
		cmocka_unit_test(tier_order_table),
		cmocka_unit_test(live_rates_and_rows),
		cmocka_unit_test(csv_lines),
		cmocka_unit_test(sorting),
	};
	return cmocka_run_group_tests_name("format", tests, NULL, NULL);
}
