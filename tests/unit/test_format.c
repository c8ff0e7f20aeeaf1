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
	/* columns NONBLK MINRES MINRES+NB OOM NOWMARK HIGHATOM HA_COUNT NOLEVEL */
	assert_non_null(strstr(out, "PID COMM                 ALLOCS    RESERVE    NONBLK    MINRES MINRES+NB       OOM   NOWMARK  HIGHATOM  HA_COUNT   NOLEVEL\n"));
	assert_non_null(strstr(out, "\n     42 kswapd0                   2          2         0         0         0         2         0         0         0         0\n"));
	/* every known tier has a rate line, even at 0 */
	assert_non_null(strstr(out, "\nhighatomic_counted              0.0          0.0    0.00%\n"));
	assert_non_null(strstr(out, "\nno_level                        0.0          0.0    0.00%\n"));
	/* the pcp highatomic section, with its total even when empty */
	assert_non_null(strstr(out, "\nhighatomic pageblock pages from per-cpu lists, used without the right (by watermark tier):\n"
				    "  total                         0.0          0.0\n"));
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
	r->c.depth[GT_OOM][GD_50] = 2;
	r->c.depth[GT_NONE][GD_ABOVE] = 6;
	r->c.pcp_highatomic[GT_NON_BLOCK] = (struct gt_cnt){ 5, 5 };
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
	assert_non_null(strstr(out, "\n0.000,2.000,tier,highatomic_counted,all,0,0\n"));
	assert_non_null(strstr(out, "\n0.000,2.000,tier,no_level,all,0,0\n"));
	assert_non_null(strstr(out, "\n0.000,2.000,depth,oom,50-62.5%,2,0\n"));
	assert_non_null(strstr(out, "\n0.000,2.000,depth,none,>100%,6,0\n"));
	assert_non_null(strstr(out, "\n0.000,2.000,pcp_highatomic,,all,5,5\n"));
	assert_non_null(strstr(out, "\n0.000,2.000,pcp_highatomic,non_block,all,5,5\n"));
	assert_null(strstr(out, "pcp_highatomic,none,"));
	assert_null(strstr(out, "depth,none,<=25%"));
	assert_null(strstr(out, "order,none,1,"));	/* zero rows left out */
	assert_null(strstr(out, "tier,unknown,"));
	free(c.buf);
	free(r);
}

/* What the depth buckets hold: intervals open below, closed above. */
static void depth_buckets(void **state)
{
	assert_int_equal(gt_depth_bucket(1001, 1000), GD_ABOVE);
	assert_int_equal(gt_depth_bucket(1000, 1000), GD_75);	/* 100% is not > 100% */
	assert_int_equal(gt_depth_bucket(751, 1000), GD_75);
	assert_int_equal(gt_depth_bucket(750, 1000), GD_62);
	assert_int_equal(gt_depth_bucket(626, 1000), GD_62);
	assert_int_equal(gt_depth_bucket(625, 1000), GD_50);
	assert_int_equal(gt_depth_bucket(501, 1000), GD_50);
	assert_int_equal(gt_depth_bucket(500, 1000), GD_37);
	assert_int_equal(gt_depth_bucket(376, 1000), GD_37);
	assert_int_equal(gt_depth_bucket(375, 1000), GD_25);
	assert_int_equal(gt_depth_bucket(251, 1000), GD_25);
	assert_int_equal(gt_depth_bucket(250, 1000), GD_BELOW_25);
	assert_int_equal(gt_depth_bucket(0, 1000), GD_BELOW_25);
	assert_int_equal(gt_depth_bucket(-5, 1000), GD_BELOW_25);
	/* eighths without rounding: 8 * 3 = 24 > 5 * 4 = 20, 24 <= 6 * 4 = 24 */
	assert_int_equal(gt_depth_bucket(3, 4), GD_62);
	assert_int_equal(gt_depth_bucket(1, 0), GD_ABOVE);
	assert_int_equal(gt_depth_bucket(0, 0), GD_BELOW_25);
	assert_string_equal(depth_bucket_names[GD_ABOVE], ">100%");
	assert_string_equal(depth_bucket_names[GD_62], "62.5-75%");
	assert_string_equal(depth_bucket_names[GD_BELOW_25], "<=25%");
}

/* The kernel-patches/README.md table, per kernel. */
static void tier_meanings(void **state)
{
	struct report r;

	memset(&r, 0, sizeof(r));
	r.rules = &rule_sets[RS_6_1_AFTER];
	assert_string_equal(tier_meaning(&r, GT_NONE),
			    "no reserve right: > 100% of min, highatomic reserve subtracted");
	assert_string_equal(tier_meaning(&r, GT_NON_BLOCK),
			    "ALLOC_NON_BLOCK: > 100% of min, highatomic reserve not subtracted");
	assert_string_equal(tier_meaning(&r, GT_MIN_RESERVE), "ALLOC_MIN_RESERVE: > 50% of min");
	assert_string_equal(tier_meaning(&r, GT_MIN_RESERVE_NON_BLOCK),
			    "ALLOC_MIN_RESERVE|ALLOC_NON_BLOCK: > 37.5% of min");
	assert_string_equal(tier_meaning(&r, GT_OOM), "ALLOC_OOM: > 50% of min");
	r.rules = &rule_sets[RS_6_1_BEFORE];
	assert_string_equal(tier_meaning(&r, GT_NON_BLOCK), "ALLOC_HARDER: > 75% of min");
	assert_string_equal(tier_meaning(&r, GT_MIN_RESERVE),
			    "ALLOC_HIGH: > 50% of min, highatomic reserve subtracted");
	assert_string_equal(tier_meaning(&r, GT_MIN_RESERVE_NON_BLOCK),
			    "ALLOC_HIGH|ALLOC_HARDER: > 37.5% of min");
	assert_string_equal(tier_meaning(&r, GT_OOM), "ALLOC_OOM: > 50% of min");
	/* the same on both kernels */
	assert_string_equal(tier_meaning(&r, GT_NO_WATERMARKS), "ALLOC_NO_WATERMARKS: no watermark check");
	assert_non_null(strstr(tier_meaning(&r, GT_HIGHATOMIC), "MIGRATE_HIGHATOMIC free list"));
	assert_non_null(strstr(tier_meaning(&r, GT_HIGHATOMIC_COUNTED), "free highatomic blocks"));
	assert_non_null(strstr(tier_meaning(&r, GT_NO_LEVEL), "counters moved"));
	for (int t = 0; t < GT_NR_TIERS; t++)
		assert_true(tier_meaning(&r, t)[0]);
	assert_string_equal(tier_meaning(&r, GT_NR_TIERS), "");
	assert_string_equal(tier_name(GT_HIGHATOMIC_COUNTED), "highatomic_counted");
	assert_string_equal(tier_name(GT_NO_LEVEL), "no_level");
	assert_string_equal(tier_name(GT_NR_TIERS), "?");
	assert_int_equal(tier_from_name("no_level"), GT_NO_LEVEL);
	assert_int_equal(tier_from_name("bogus"), -1);
}

static void depth_table(void **state)
{
	struct report *r = sample();
	struct cap c;

	r->c.depth[GT_NONE][GD_ABOVE] = 6;
	r->c.depth[GT_OOM][GD_62] = 1;
	r->c.depth[GT_OOM][GD_BELOW_25] = 1;
	cap_open(&c);
	fmt_depth_table(c.f, r);
	const char *want =
		"depth: allocations by free pages as a share of the unboosted watermark checked (min for every reserve right)\n"
		"TIER                       >100%   75-100%  62.5-75%  50-62.5%  37.5-50%  25-37.5%     <=25%\n"
		"none                           6         0         0         0         0         0         0\n"
		"oom                            0         0         1         0         0         0         1\n";
	assert_string_equal(cap_close(&c), want);
	free(c.buf);
	free(r);
}

static void histogram_mode(void **state)
{
	struct report *r = sample();
	struct cap c;

	r->rules = &rule_sets[RS_6_1_BEFORE];
	r->c.hist[GT_OOM].neg[2] = 2;
	r->c.depth[GT_OOM][GD_50] = 2;
	r->c.pcp_highatomic[GT_NONE] = (struct gt_cnt){ 3, 3 };
	r->c.stat[GS_RESERVE_FAIL] = 4;
	cap_open(&c);
	fmt_histogram_mode(c.f, r, false);
	const char *out = cap_close(&c);
	assert_non_null(strstr(out, "gfptop: kernel 6.1.192-test, before-series semantics (ALLOC_HARDER/ALLOC_HIGH), interval 2.00s\n"
				    "TIER \\ ORDER "));
	/* the legend: only the tiers with allocations, this kernel's meaning */
	assert_non_null(strstr(out, "\nwhat each tier permits on this before kernel (how far free pages may go, as a share of the unboosted min watermark):\n"
				    "  none                   no reserve right: > 100% of min, highatomic reserve subtracted\n"
				    "  oom                    ALLOC_OOM: > 50% of min\n\n"));
	assert_null(strstr(out, "ALLOC_HARDER: > 75%"));
	assert_non_null(strstr(out, "\noom                            0         0         0         2         0         0         0\n"));
	assert_non_null(strstr(out, "\nhighatomic pageblock pages from per-cpu lists, used without the right (by watermark tier):\n"
				    "                             ALLOCS        PAGES\n"
				    "  total                           3            3\n"
				    "  none                            3            3\n"));
	assert_non_null(strstr(out, "\ntier oom: watermark margin (free_pages - unboosted watermark, pages), 2 allocations\n"));
	assert_non_null(strstr(out, "\n         -7 -> -4          : 2          |" ST40 "|\n"));
	assert_non_null(strstr(out, "\nreserve_fail 4  highatomic reserve 0 unreserve 0 (forced 0)\n"));
	free(c.buf);
	free(r);
}

static void histogram_mode_empty(void **state)
{
	struct report r;
	struct cap c;

	memset(&r, 0, sizeof(r));
	r.interval_s = 1;
	cap_open(&c);
	fmt_histogram_mode(c.f, &r, false);
	const char *out = cap_close(&c);
	/* no legend, no margin histogram, one blank line between sections */
	assert_null(strstr(out, "what each tier permits"));
	assert_null(strstr(out, "watermark margin"));
	assert_null(strstr(out, "\n\n\n"));
	assert_non_null(strstr(out, "ALLOCS       PAGES\n\ndepth: "));
	assert_non_null(strstr(out, "<=25%\n\nhighatomic pageblock pages"));
	free(c.buf);
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
		cmocka_unit_test(depth_buckets),
		cmocka_unit_test(tier_meanings),
		cmocka_unit_test(depth_table),
		cmocka_unit_test(histogram_mode),
		cmocka_unit_test(histogram_mode_empty),
		cmocka_unit_test(sorting),
	};
	return cmocka_run_group_tests_name("format", tests, NULL, NULL);
}
