/* Which BPF programs each source loads, and how auto/tracepoint/probe/
 * both resolve on kernels with and without the tracepoints. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "source.h"

/* the programs of bpf/gfptop.bpf.c */
static const char *const progs[] = {
	"irq_handler_entry_btf", "irq_handler_entry_raw", "irq_handler_exit_btf",
	"irq_handler_exit_raw", "local_timer_entry_btf", "local_timer_entry_raw",
	"local_timer_exit_btf", "local_timer_exit_raw",
	"softirq_entry_btf", "softirq_entry_raw", "softirq_exit_btf", "softirq_exit_raw",
	"tier_btf", "tier_raw", "reserve_fail_btf", "reserve_fail_raw", "reserve_ha_btf",
	"reserve_ha_raw", "unreserve_ha_btf", "unreserve_ha_raw",
	"gpff_entry_fentry", "gpff_return_fexit", "unreserve_probe_fexit",
	"gpff_entry_kprobe", "gpff_return_kretprobe", "unreserve_probe_kretprobe",
};
#define NPROGS (sizeof(progs) / sizeof(progs[0]))

/* the loaded programs, space-separated */
static const char *loaded(const struct source_plan *p)
{
	static char buf[1024];

	buf[0] = 0;
	for (size_t i = 0; i < NPROGS; i++) {
		if (source_wants_prog(p, progs[i])) {
			strcat(buf, progs[i]);
			strcat(buf, " ");
		}
	}
	return buf;
}

static void test_tracepoint_set(void **state)
{
	struct source_plan p = { .src = SRC_TRACEPOINT, .have_timer = true, .have_unreserve = true };

	assert_string_equal(loaded(&p),
			    "irq_handler_entry_btf irq_handler_exit_btf local_timer_entry_btf "
			    "local_timer_exit_btf softirq_entry_btf softirq_exit_btf tier_btf reserve_fail_btf "
			    "reserve_ha_btf unreserve_ha_btf ");
	p.raw = true;
	p.have_timer = false;
	assert_string_equal(loaded(&p),
			    "irq_handler_entry_raw irq_handler_exit_raw softirq_entry_raw "
			    "softirq_exit_raw tier_raw reserve_fail_raw reserve_ha_raw "
			    "unreserve_ha_raw ");
}

static void test_probe_set(void **state)
{
	struct source_plan p = { .src = SRC_PROBE, .have_unreserve = true };

	assert_string_equal(loaded(&p),
			    "irq_handler_entry_btf irq_handler_exit_btf softirq_entry_btf "
			    "softirq_exit_btf gpff_entry_fentry gpff_return_fexit "
			    "unreserve_probe_fexit ");
	p.kprobe = true;
	p.have_unreserve = false;
	assert_string_equal(loaded(&p),
			    "irq_handler_entry_btf irq_handler_exit_btf softirq_entry_btf "
			    "softirq_exit_btf gpff_entry_kprobe gpff_return_kretprobe ");
}

static void test_both_set(void **state)
{
	struct source_plan p = { .src = SRC_BOTH, .have_unreserve = true };
	const char *s = loaded(&p);

	assert_non_null(strstr(s, "tier_btf "));
	assert_non_null(strstr(s, "gpff_return_fexit "));
	assert_null(strstr(s, "_raw"));
	assert_null(strstr(s, "kprobe"));
}

static void test_resolve(void **state)
{
	struct source_plan p = { .src = SRC_AUTO };
	char msg[256];

	assert_int_equal(source_resolve(&p, true, "no tp", true, msg, sizeof(msg)), 0);
	assert_int_equal(p.src, SRC_TRACEPOINT);
	p.src = SRC_AUTO;
	assert_int_equal(source_resolve(&p, false, "no tp", true, msg, sizeof(msg)), 0);
	assert_int_equal(p.src, SRC_PROBE);
	assert_true(source_derived(&p));
	/* asked for the tracepoint where there is none: its own error */
	p.src = SRC_TRACEPOINT;
	assert_int_equal(source_resolve(&p, false, "no tp", true, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "no tp");
	p.src = SRC_BOTH;
	assert_int_equal(source_resolve(&p, false, "no tp", true, msg, sizeof(msg)), -1);
	p.src = SRC_PROBE;
	assert_int_equal(source_resolve(&p, true, "no tp", false, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "get_page_from_freelist"));
}

static void test_names(void **state)
{
	enum gt_source s;

	assert_int_equal(source_parse("probe", &s), 0);
	assert_int_equal(s, SRC_PROBE);
	assert_string_equal(source_name(SRC_BOTH), "both");
	assert_int_equal(source_parse("kprobe", &s), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tracepoint_set),
		cmocka_unit_test(test_probe_set),
		cmocka_unit_test(test_both_set),
		cmocka_unit_test(test_resolve),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
