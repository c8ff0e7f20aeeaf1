/* Per-CPU merging and interval differences. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "merge.h"

static void sum_u64_with_stride(void **state)
{
	/* 3 CPUs, 2 counters each, stride of 3 u64 (padding ignored) */
	uint64_t vals[9] = { 1, 10, 999, 2, 20, 999, 3, 30, 999 };
	uint64_t out[2];

	merge_sum_u64(vals, 3, 3 * sizeof(uint64_t), 2, out);
	assert_int_equal(out[0], 6);
	assert_int_equal(out[1], 60);
}

static void counters_sum(void **state)
{
	int ncpus = 4;
	size_t stride = percpu_stride(sizeof(struct gt_cpu));
	char *buf = calloc(ncpus, stride);
	struct gt_counters out;

	for (int cpu = 0; cpu < ncpus; cpu++) {
		struct gt_cpu *v = (void *)(buf + cpu * stride);
		struct gt_counters *c = &v->c;

		/* the rest of the CPU's state is not summed */
		v->gfp[0].key = ~0ull;
		v->proc[0].key = 5;
		v->irq.hardirq = 1;

		c->order[GT_OOM][3].count = cpu + 1;	/* 1+2+3+4 */
		c->hist[GT_NONE].neg[5] = 10;
		c->depth[GT_NO_LEVEL][GD_37] = cpu;		/* 0+1+2+3 */
		c->pcp_highatomic[GT_NONE].pages = 2;
		c->stat[GS_PROC_DROPPED] = cpu == 2 ? 7 : 0;
	}
	merge_counters(buf, ncpus, &out);
	assert_int_equal(out.order[GT_OOM][3].count, 10);
	assert_int_equal(out.order[GT_OOM][2].count, 0);
	assert_int_equal(out.hist[GT_NONE].neg[5], 40);
	assert_int_equal(out.depth[GT_NO_LEVEL][GD_37], 6);
	assert_int_equal(out.pcp_highatomic[GT_NONE].pages, 8);
	assert_int_equal(out.stat[GS_PROC_DROPPED], 7);
	free(buf);
}

static void ha_level_latest_wins(void **state)
{
	struct gt_ha_level l[3] = {
		{ .ts = 100, .last_nr_reserved = 512, .max_nr_reserved = 1024 },
		{ .ts = 300, .last_nr_reserved = 0, .max_nr_reserved = 512 },
		{ .ts = 0, .last_nr_reserved = 9999, .max_nr_reserved = 9999 }, /* no event */
	};
	struct gt_ha_level out;

	merge_ha_level(l, 3, &out);
	assert_int_equal(out.ts, 300);
	assert_int_equal(out.last_nr_reserved, 0);
	assert_int_equal(out.max_nr_reserved, 1024);
}

static void proc_comm_and_sum(void **state)
{
	struct gt_proc p[2];
	struct gt_proc out;

	memset(p, 0, sizeof(p));
	/* CPU 0 never saw the process, CPU 1 did */
	strcpy(p[1].comm, "stress-ng");
	p[1].tier[GT_MIN_RESERVE].count = 3;
	p[1].tier[GT_MIN_RESERVE].pages = 24;
	p[0].tier[GT_NONE].count = 1;
	merge_proc(p, 2, &out);
	assert_string_equal(out.comm, "stress-ng");
	assert_int_equal(out.tier[GT_MIN_RESERVE].count, 3);
	assert_int_equal(out.tier[GT_MIN_RESERVE].pages, 24);
	assert_int_equal(out.tier[GT_NONE].count, 1);

	/* the name after the latest exec() wins, wherever it is */
	strcpy(p[0].comm, "sh");
	p[0].exec_id = 4;
	p[1].exec_id = 5;
	merge_proc(p, 2, &out);
	assert_string_equal(out.comm, "stress-ng");
	p[0].exec_id = 6;
	merge_proc(p, 2, &out);
	assert_string_equal(out.comm, "sh");
	/* of equal ones (not known: 0), the first CPU's */
	p[0].exec_id = p[1].exec_id = 0;
	merge_proc(p, 2, &out);
	assert_string_equal(out.comm, "sh");
}

static void diff_intervals(void **state)
{
	static struct gt_counters a, b, d;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.zone[GT_NONE][1].count = 10;
	b.zone[GT_NONE][1].count = 25;
	a.stat[GS_RESERVE_FAIL] = 5;
	b.stat[GS_RESERVE_FAIL] = 3;	/* went backwards: 0, not a huge number */
	counters_diff(&b, &a, &d);
	assert_int_equal(d.zone[GT_NONE][1].count, 15);
	assert_int_equal(d.stat[GS_RESERVE_FAIL], 0);
}

/* The layout BPF relies on: tier indices masked with GT_NR - 1, and one
 * per-CPU array value of at most 32 KiB (the kernel's per-CPU allocation
 * limit for a map value, PCPU_MIN_UNIT_SIZE). */
static void layout_limits(void **state)
{
	assert_int_equal(GT_NR, 16);
	assert_int_equal(GT_NR & (GT_NR - 1), 0);
	assert_true(GT_NR_TIERS <= GT_NR);
	assert_int_equal(GT_UNKNOWN, GT_NR_TIERS - 1);
	assert_true(sizeof(struct gt_cpu) <= 32768);
	assert_int_equal(offsetof(struct gt_cpu, c), 0);	/* merge_counters() */
	assert_int_equal(sizeof(struct gt_counters) % 8, 0);	/* all __u64 */
}

static void stride_rounding(void **state)
{
	assert_int_equal(percpu_stride(12), 16);
	assert_int_equal(percpu_stride(16), 16);
	assert_int_equal(percpu_stride(sizeof(struct gt_proc)), sizeof(struct gt_proc));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sum_u64_with_stride),
		cmocka_unit_test(counters_sum),
		cmocka_unit_test(ha_level_latest_wins),
		cmocka_unit_test(proc_comm_and_sum),
		cmocka_unit_test(diff_intervals),
		cmocka_unit_test(stride_rounding),
		cmocka_unit_test(layout_limits),
	};
	return cmocka_run_group_tests_name("merge", tests, NULL, NULL);
}
