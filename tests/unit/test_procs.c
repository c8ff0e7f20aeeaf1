/* user/procs.c: per-process rows from the process map and the per-CPU
 * slots, with the BPF side's moves (claim, count, flush on takeover)
 * played by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "merge.h"
#include "procs.h"

#define NCPUS 2

/* The BPF side, in miniature: NCPUS gt_cpu copies and the process map. */
struct world {
	struct gt_cpu cpu[NCPUS];
	struct proc_sample map[64];
	size_t nmap;
};

static struct proc_sample *map_entry(struct world *w, __u32 tgid)
{
	for (size_t i = 0; i < w->nmap; i++)
		if (w->map[i].tgid == tgid)
			return &w->map[i];
	memset(&w->map[w->nmap], 0, sizeof(w->map[0]));
	w->map[w->nmap].tgid = tgid;
	return &w->map[w->nmap++];
}

static bool has_entry(const struct world *w, __u32 tgid)
{
	for (size_t i = 0; i < w->nmap; i++)
		if (w->map[i].tgid == tgid)
			return true;
	return false;
}

/* count_proc() of count.bpf.h */
static void alloc(struct world *w, int cpu, __u32 tgid, int tier, unsigned int order)
{
	struct gt_proc_slot *s = &w->cpu[cpu].proc[gt_proc_slot_index(tgid)];

	if (s->key != tgid + 1) {
		if (s->key) {
			struct proc_sample *e = map_entry(w, s->key - 1);

			memcpy(e->p.comm, s->p.comm, GT_COMM_LEN);
			for (int t = 0; t < GT_NR; t++) {
				e->p.tier[t].count += s->p.tier[t].count;
				e->p.tier[t].pages += s->p.tier[t].pages;
			}
		}
		memset(&s->p, 0, sizeof(s->p));
		s->key = tgid + 1;
	}
	snprintf(s->p.comm, GT_COMM_LEN, "p%u", tgid);
	s->p.tier[tier].count++;
	s->p.tier[tier].pages += 1ull << order;
}

/* What the world's processes are: alive unless dead[tgid] */
static bool dead[256];

static bool alive_unless_dead(__u32 tgid)
{
	return tgid >= 256 || !dead[tgid];
}

/*
 * user/collect.c's read_all() on the world, with hooks: between, after
 * the map read and before the slot read (where a flush can come in);
 * racing, after the slot read and before the lookup-and-deletes, whose
 * flushes into an entry that is then deleted are lost (they found the
 * element before the delete and wrote into it after: a freed element).
 */
static size_t interval_full(struct world *w, struct proc_acct *a, struct proc_row *rows,
			    void (*between)(struct world *w), proc_alive_fn alive,
			    void (*racing)(struct world *w))
{
	struct proc_sample map[2 * 64], slots[NCPUS * GT_PROC_SLOTS], before[64];
	size_t nmap = w->nmap, nslots, ndrain;
	__u32 drain[2 * 64 + NCPUS * GT_PROC_SLOTS];

	memcpy(map, w->map, nmap * sizeof(map[0]));
	procs_sort(map, nmap);
	if (between)
		between(w);
	nslots = procs_from_slots(w->cpu, NCPUS, sizeof(struct gt_cpu), slots);
	ndrain = procs_to_drain(a, map, nmap, slots, nslots, alive, drain);
	for (size_t i = 1; i < ndrain; i++)
		assert_true(drain[i - 1] < drain[i]);
	memcpy(before, w->map, w->nmap * sizeof(before[0]));
	if (racing)
		racing(w);
	/* lookup-and-delete: the entry's value now, added or replaced */
	for (size_t i = 0; i < ndrain; i++) {
		struct proc_sample *e = NULL;
		size_t k;

		for (k = 0; k < w->nmap && w->map[k].tgid != drain[i]; k++)
			;
		if (k == w->nmap)
			continue;
		/* a racing flush into an entry that existed is lost */
		for (size_t j = 0; racing && j < 64; j++)
			if (before[j].tgid == drain[i]) {
				w->map[k] = before[j];
				break;
			}
		for (size_t j = 0; j < nmap && !e; j++)
			if (map[j].tgid == drain[i])
				e = &map[j];
		if (!e)
			e = &map[nmap++];
		*e = w->map[k];
		w->map[k] = w->map[--w->nmap];
	}
	procs_sort(map, nmap);
	return procs_account(a, map, nmap, slots, nslots, drain, ndrain, rows);
}

static size_t interval_with(struct world *w, struct proc_acct *a, struct proc_row *rows,
			    void (*between)(struct world *w))
{
	return interval_full(w, a, rows, between, NULL, NULL);
}

static size_t interval(struct world *w, struct proc_acct *a, struct proc_row *rows)
{
	return interval_with(w, a, rows, NULL);
}

static const struct proc_row *row_of(const struct proc_row *rows, size_t n, __u32 pid)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i].pid == pid)
			return &rows[i];
	return NULL;
}

/* Two tgids with the same slot index on a CPU, for takeovers. */
static __u32 pa, pb;

static void colliding(__u32 *a, __u32 *b)
{
	*a = 100;
	for (*b = *a + 1; gt_proc_slot_index(*b) != gt_proc_slot_index(*a); (*b)++)
		;
}

static void rows_are_growth(void **state)
{
	static struct world w;
	struct proc_row rows[64];
	struct proc_acct a = {};
	const struct proc_row *r;
	size_t n;

	alloc(&w, 0, 7, GT_NONE, 0);
	alloc(&w, 0, 7, GT_OOM, 2);
	alloc(&w, 1, 7, GT_NONE, 0);	/* the same process on the other CPU */
	n = interval(&w, &a, rows);
	assert_int_equal(n, 1);
	r = row_of(rows, n, 7);
	assert_non_null(r);
	assert_string_equal(r->comm, "p7");
	assert_int_equal(r->tier[GT_NONE].count, 2);
	assert_int_equal(r->tier[GT_OOM].pages, 4);
	assert_int_equal(r->reserve_count, 1);

	/* nothing new: no row; then only the growth */
	assert_int_equal(interval(&w, &a, rows), 0);
	alloc(&w, 1, 7, GT_NONE, 0);
	n = interval(&w, &a, rows);
	assert_int_equal(n, 1);
	assert_int_equal(rows[0].count, 1);
	procs_acct_free(&a);
}

static void takeover_keeps_totals(void **state)
{
	static struct world w;
	struct proc_row rows[64];
	struct proc_acct a = {};
	uint64_t sum_a = 0, sum_b = 0;
	size_t n;

	colliding(&pa, &pb);
	/* a and b take the slot from each other, within and across
	 * intervals; every allocation shows exactly once */
	for (int round = 0; round < 5; round++) {
		for (int i = 0; i < round + 1; i++)
			alloc(&w, 0, pa, GT_NONE, 0);
		alloc(&w, 0, pb, GT_MIN_RESERVE, 0);
		if (round % 2)
			alloc(&w, 0, pa, GT_NON_BLOCK, 0);
		n = interval(&w, &a, rows);
		for (size_t i = 0; i < n; i++) {
			if (rows[i].pid == pa)
				sum_a += rows[i].count;
			else if (rows[i].pid == pb)
				sum_b += rows[i].count;
			else
				fail_msg("row for pid %u", rows[i].pid);
		}
	}
	assert_int_equal(sum_a, 1 + 2 + 3 + 4 + 5 + 2);
	assert_int_equal(sum_b, 5);
	/* what is not held left the map; what is held stayed */
	assert_true(w.nmap <= 1);
	procs_acct_free(&a);
}

/* Between the map read and the slot read, in short_read_deferred() and
 * flush_before_slot_read(): b takes a's slot on CPU 0 (a flush creates
 * or grows a's map entry); a allocates on CPU 1 */
static void takeover_cpu0(struct world *w)
{
	alloc(w, 0, pb, GT_NONE, 0);
}

static void takeover_cpu0_a_on_cpu1(struct world *w)
{
	takeover_cpu0(w);
	alloc(w, 1, pa, GT_NONE, 0);
}

/* The flush the map read missed, while a still holds a slot on CPU 1:
 * a's total comes out short, its row is not negative, and the next
 * interval has the rest. */
static void short_read_deferred(void **state)
{
	static struct world w;
	struct proc_row rows[64];
	struct proc_acct a = {};
	size_t n;

	colliding(&pa, &pb);
	alloc(&w, 0, pa, GT_NONE, 0);
	alloc(&w, 0, pa, GT_NONE, 0);
	alloc(&w, 1, pa, GT_NONE, 0);
	assert_int_equal(interval(&w, &a, rows), 1);

	n = interval_with(&w, &a, rows, takeover_cpu0_a_on_cpu1);
	/* seen: 2 on CPU 1 < 3 reported: no row, not -1 */
	assert_null(row_of(rows, n, pa));
	n = interval(&w, &a, rows);
	assert_non_null(row_of(rows, n, pa));
	assert_int_equal(row_of(rows, n, pa)->count, 1);	/* 2 + 2, 3 reported */
	procs_acct_free(&a);
}

/* The same flush when it frees a's last slot: a's entry did not exist
 * at the map read, yet a is drained with it, once, in this interval. */
static void flush_before_slot_read(void **state)
{
	static struct world w;
	struct proc_row rows[64];
	struct proc_acct a = {};
	uint64_t sum = 0;
	size_t n;

	colliding(&pa, &pb);
	alloc(&w, 0, pa, GT_NONE, 0);
	assert_int_equal(interval(&w, &a, rows), 1);
	alloc(&w, 0, pa, GT_OOM, 0);
	n = interval_with(&w, &a, rows, takeover_cpu0);
	assert_non_null(row_of(rows, n, pa));
	assert_int_equal(row_of(rows, n, pa)->count, 1);
	assert_int_equal(row_of(rows, n, pa)->tier[GT_OOM].count, 1);
	for (int i = 0; i < 3; i++) {
		n = interval(&w, &a, rows);
		if (row_of(rows, n, pa))
			sum += row_of(rows, n, pa)->count;
	}
	assert_int_equal(sum, 0);
	assert_int_equal(w.nmap, 0);	/* pb holds its slot, nothing in the map */
	procs_acct_free(&a);
}

/* count of pid's rows */
static uint64_t count_of(const struct proc_row *rows, size_t n, __u32 pid)
{
	const struct proc_row *r = row_of(rows, n, pid);

	return r ? r->count : 0;
}

/* A live process's entry stays in the map while no slot holds it, its
 * rows are the growth, and it leaves once the process has exited. */
static void live_entries_stay(void **state)
{
	static struct world w;
	struct proc_row rows[64];
	struct proc_acct a = {};
	uint64_t sum_a = 0, sum_b = 0;
	size_t n;

	memset(dead, 0, sizeof(dead));
	colliding(&pa, &pb);
	for (int round = 0; round < 4; round++) {
		alloc(&w, 0, pa, GT_NONE, 0);
		alloc(&w, 0, pb, GT_NONE, 0);	/* flushes a: its entry */
		n = interval_full(&w, &a, rows, NULL, alive_unless_dead, NULL);
		sum_a += count_of(rows, n, pa);
		sum_b += count_of(rows, n, pb);
		assert_true(has_entry(&w, pa));	/* kept, not drained */
		assert_int_equal(w.nmap, round ? 2 : 1);
	}
	assert_int_equal(sum_a, 4);
	assert_int_equal(sum_b, 4);
	/* nothing new, no row; then a exits: its entry goes, with no row */
	n = interval_full(&w, &a, rows, NULL, alive_unless_dead, NULL);
	assert_int_equal(n, 0);
	dead[pa] = true;
	n = interval_full(&w, &a, rows, NULL, alive_unless_dead, NULL);
	assert_int_equal(n, 0);
	assert_false(has_entry(&w, pa));
	procs_acct_free(&a);
}

/* After the slot read: a (no slot, an entry) allocates on CPU 1 and
 * loses the slot to b, whose flush grows a's entry as it is deleted */
static void a_claims_and_loses(struct world *w)
{
	alloc(w, 1, pa, GT_NONE, 0);
	alloc(w, 1, pb, GT_NONE, 0);
}

/* That race loses a's allocation when a live process's entry is
 * drained (alive unknown), and nothing when it stays (alive known). */
static void racing_flush(void **state)
{
	for (int known = 0; known < 2; known++) {
		static struct world w;
		struct proc_row rows[64];
		struct proc_acct a = {};
		uint64_t sum = 0;
		size_t n;

		memset(&w, 0, sizeof(w));
		memset(dead, 0, sizeof(dead));
		colliding(&pa, &pb);
		alloc(&w, 0, pa, GT_NONE, 0);
		alloc(&w, 0, pb, GT_NONE, 0);	/* a: an entry, no slot */
		n = interval(&w, &a, rows);
		sum += count_of(rows, n, pa);
		alloc(&w, 0, pa, GT_NONE, 0);
		alloc(&w, 0, pb, GT_NONE, 0);
		n = interval_full(&w, &a, rows, NULL, known ? alive_unless_dead : NULL,
				  a_claims_and_loses);
		sum += count_of(rows, n, pa);
		dead[pa] = true;
		for (int i = 0; i < 2; i++) {
			n = interval_full(&w, &a, rows, NULL, alive_unless_dead, NULL);
			sum += count_of(rows, n, pa);
		}
		/* three allocations by a */
		assert_int_equal(sum, known ? 3 : 2);
		procs_acct_free(&a);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_are_growth),
		cmocka_unit_test(takeover_keeps_totals),
		cmocka_unit_test(short_read_deferred),
		cmocka_unit_test(flush_before_slot_read),
		cmocka_unit_test(live_entries_stay),
		cmocka_unit_test(racing_flush),
	};
	return cmocka_run_group_tests_name("procs", tests, NULL, NULL);
}
