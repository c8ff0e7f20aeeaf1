/* Which BPF programs each source loads, checked against the programs
 * of the built BPF object (opened, never loaded), and how auto/
 * tracepoint/probe/both resolve on kernels with and without the
 * tracepoints. */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <bpf/libbpf.h>

#include "source.h"

/* the programs of bpf/gfptop.bpf.c */
/* The programs of the built BPF object (what the skeleton embeds), with
 * their sections: opened, never loaded. */
#define MAX_PROGS 64
static char *progs[MAX_PROGS], *secs[MAX_PROGS];
static size_t nprogs;

static int read_object(void **state)
{
	struct bpf_object *obj = bpf_object__open_file(TEST_BPF_OBJ, NULL);
	struct bpf_program *prog;

	if (!obj)
		return -1;
	bpf_object__for_each_program(prog, obj) {
		if (nprogs == MAX_PROGS)
			return -1;
		progs[nprogs] = strdup(bpf_program__name(prog));
		secs[nprogs++] = strdup(bpf_program__section_name(prog));
	}
	bpf_object__close(obj);
	return nprogs ? 0 : -1;
}

/* the loaded programs, space-separated */
static const char *loaded(const struct source_plan *p)
{
	static char buf[2048];

	buf[0] = 0;
	for (size_t i = 0; i < nprogs; i++) {
		if (source_wants_prog(p, progs[i])) {
			strcat(buf, progs[i]);
			strcat(buf, " ");
		}
	}
	return buf;
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/*
 * What a plan must load, from a program's section alone (what it attaches
 * to), independent of the name fragments source.c goes by: tp_btf or
 * raw_tp (as the plan says) for the interrupt tracepoints always and for
 * gfptop's own with the tracepoint; fentry/fexit or kprobe/kretprobe for
 * the probe; local_timer_* and unreserve_highatomic_pageblock only where
 * the kernel has them.
 */
static bool must_load(const struct source_plan *p, const char *sec)
{
	bool tp = p->src == SRC_TRACEPOINT || p->src == SRC_BOTH;
	bool probe = p->src == SRC_PROBE || p->src == SRC_BOTH;
	const char *target = strchr(sec, '/') + 1;
	bool irq = starts(target, "irq_handler_") || starts(target, "softirq_") ||
		   starts(target, "local_timer_");

	if (starts(target, "local_timer_") && !p->have_timer)
		return false;
	if (!strcmp(target, "unreserve_highatomic_pageblock") && !p->have_unreserve)
		return false;
	if (starts(sec, "tp_btf/"))
		return (irq || tp) && !p->raw;
	if (starts(sec, "raw_tp/"))
		return (irq || tp) && p->raw;
	if (starts(sec, "fentry/") || starts(sec, "fexit/"))
		return probe && !p->kprobe;
	if (starts(sec, "kprobe/") || starts(sec, "kretprobe/"))
		return probe && p->kprobe;
	fail_msg("section %s: a kind of program this test does not know", sec);
	return false;
}

/* Every plan loads exactly what its sections say, and every program of
 * the object is loaded by some plan: a program added to gfptop.bpf.c
 * under a name source.c does not recognise fails here, instead of never
 * being loaded. */
static void test_every_program_by_section(void **state)
{
	static const enum gt_source srcs[] = { SRC_TRACEPOINT, SRC_PROBE, SRC_BOTH };
	bool used[MAX_PROGS] = { false };

	for (size_t s = 0; s < sizeof(srcs) / sizeof(srcs[0]); s++) {
		for (int bits = 0; bits < 16; bits++) {
			struct source_plan p = {
				.src = srcs[s], .raw = bits & 1, .kprobe = bits & 2,
				.have_timer = bits & 4, .have_unreserve = bits & 8,
			};

			for (size_t i = 0; i < nprogs; i++) {
				bool want = source_wants_prog(&p, progs[i]);

				if (want != must_load(&p, secs[i]))
					fail_msg("%s (%s), source %s raw %d kprobe %d timer %d "
						 "unreserve %d: source_wants_prog says %d",
						 progs[i], secs[i], source_name(p.src), p.raw, p.kprobe,
						 p.have_timer, p.have_unreserve, want);
				used[i] |= want;
			}
		}
	}
	for (size_t i = 0; i < nprogs; i++)
		if (!used[i])
			fail_msg("%s (%s) is loaded by no source", progs[i], secs[i]);
}

/* gfptop attaches the interrupt exits first (gfptop.c): exactly the
 * programs on a *_exit tracepoint */
static void test_exits_first(void **state)
{
	for (size_t i = 0; i < nprogs; i++) {
		const char *target = strchr(secs[i], '/') + 1;
		size_t n = strlen(target);
		bool exit = (starts(secs[i], "tp_btf/") || starts(secs[i], "raw_tp/")) &&
			    n > 5 && !strcmp(target + n - 5, "_exit");

		if (source_attach_first(progs[i]) != exit)
			fail_msg("%s (%s): attached first %d, an exit %d", progs[i], secs[i],
				 source_attach_first(progs[i]), exit);
	}
}

/* spot checks by name, for the reader */
static void test_named_sets(void **state)
{
	struct source_plan p = { .src = SRC_TRACEPOINT, .have_timer = true, .have_unreserve = true };
	const char *s = loaded(&p);

	assert_non_null(strstr(s, "tier_btf "));
	assert_non_null(strstr(s, "local_timer_exit_btf "));
	assert_null(strstr(s, "_raw"));
	assert_null(strstr(s, "gpff_"));
	p = (struct source_plan){ .src = SRC_PROBE, .kprobe = true };
	s = loaded(&p);
	assert_non_null(strstr(s, "gpff_return_kretprobe "));
	assert_non_null(strstr(s, "softirq_exit_btf "));
	assert_null(strstr(s, "unreserve_probe_"));
	assert_null(strstr(s, "tier_"));
	p = (struct source_plan){ .src = SRC_BOTH, .have_unreserve = true };
	s = loaded(&p);
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
		cmocka_unit_test(test_every_program_by_section),
		cmocka_unit_test(test_exits_first),
		cmocka_unit_test(test_named_sets),
		cmocka_unit_test(test_resolve),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, read_object, NULL);
}
