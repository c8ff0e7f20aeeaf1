/* Which BPF programs each plan loads (user/progs.c), checked against the
 * programs of the built BPF object (opened, never loaded), and how auto/
 * tracepoint/probe/both resolve on kernels with and without the
 * tracepoints (user/source.c). */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <bpf/libbpf.h>

#include "progs.h"
#include "source.h"

/* The built BPF object (what the skeleton embeds): opened, never loaded. */
static struct bpf_object *obj;

static int open_object(void **state)
{
	obj = bpf_object__open_file(TEST_BPF_OBJ, NULL);
	return obj && bpf_object__next_program(obj, NULL) ? 0 : -1;
}

static int close_object(void **state)
{
	bpf_object__close(obj);
	return 0;
}

static void must_classify(const struct bpf_program *prog, struct prog_class *c)
{
	if (progs_classify_prog(prog, c))
		fail_msg("%s (section %s, type %d, attach type %d): user/progs.c does not know "
			 "it, so no source would load it", bpf_program__name(prog),
			 bpf_program__section_name(prog), bpf_program__type(prog),
			 bpf_program__expected_attach_type(prog));
}

/* Every program of the object is classified, by its section and type:
 * a program added to gfptop.bpf.c on a kind or target progs.c does not
 * know fails here, instead of never being loaded. */
static void test_every_program_classified(void **state)
{
	struct bpf_program *prog;
	struct prog_class c;

	bpf_object__for_each_program(prog, obj)
		must_classify(prog, &c);
}

/* One program per attachment (two on the same section would count every
 * event twice), and each tp_btf program has its raw_tp twin and the
 * reverse: the loader falls back from the one to the other. */
static void test_one_program_per_attachment(void **state)
{
	struct bpf_program *a, *b;

	bpf_object__for_each_program(a, obj) {
		const char *sec = bpf_program__section_name(a);
		char twin[128];
		bool twin_found = false;
		struct prog_class c;

		must_classify(a, &c);
		snprintf(twin, sizeof(twin), "%s%s", c.kind == PROG_TP_BTF ? "raw_tp/" : "tp_btf/",
			 c.target);
		bpf_object__for_each_program(b, obj) {
			if (b != a && !strcmp(sec, bpf_program__section_name(b)))
				fail_msg("%s and %s both on %s", bpf_program__name(a),
					 bpf_program__name(b), sec);
			twin_found |= !strcmp(twin, bpf_program__section_name(b));
		}
		if ((c.kind == PROG_TP_BTF || c.kind == PROG_RAW_TP) && !twin_found)
			fail_msg("%s (%s) has no twin %s", bpf_program__name(a), sec, twin);
	}
}

/* Where a plan loads a program of an attachment: the tracepoint itself,
 * or the function's entry or return. */
static void attachment(const struct prog_class *c, char *buf, size_t len)
{
	bool ret = c->kind == PROG_FEXIT || c->kind == PROG_KRETPROBE;

	snprintf(buf, len, "%s%s", c->target, ret ? " (return)" : "");
}

/* How many programs plan p loads on the attachment of program a. */
static int loaded_on(const struct source_plan *p, const struct bpf_program *a)
{
	struct bpf_program *b;
	struct prog_class ca, cb;
	char at_a[128], at_b[128];
	int n = 0;

	must_classify(a, &ca);
	attachment(&ca, at_a, sizeof(at_a));
	bpf_object__for_each_program(b, obj) {
		must_classify(b, &cb);
		attachment(&cb, at_b, sizeof(at_b));
		n += !strcmp(at_a, at_b) && progs_load(p, b);
	}
	return n;
}

/* Over every plan: no attachment is loaded twice (tp_btf and raw_tp,
 * fentry and kprobe), every program is loaded by some plan, and a plan
 * for both sources on a kernel with everything loads every attachment,
 * whichever of the twins it takes. */
static void test_each_plan_attaches_once(void **state)
{
	static const enum gt_source srcs[] = { SRC_TRACEPOINT, SRC_PROBE, SRC_BOTH };
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, obj) {
		bool used = false;

		for (size_t s = 0; s < sizeof(srcs) / sizeof(srcs[0]); s++) {
			for (int bits = 0; bits < 16; bits++) {
				struct source_plan p = {
					.src = srcs[s], .raw = bits & 1, .kprobe = bits & 2,
					.have_timer = bits & 4, .have_unreserve = bits & 8,
				};
				int n = loaded_on(&p, prog);
				bool all = p.src == SRC_BOTH && p.have_timer && p.have_unreserve;

				if (n > 1 || (all && n != 1))
					fail_msg("%s (%s): source %s raw %d kprobe %d timer %d "
						 "unreserve %d loads %d on its attachment",
						 bpf_program__name(prog), bpf_program__section_name(prog),
						 source_name(p.src), p.raw, p.kprobe, p.have_timer,
						 p.have_unreserve, n);
				used |= progs_load(&p, prog);
			}
		}
		if (!used)
			fail_msg("%s (%s) is loaded by no plan", bpf_program__name(prog),
				 bpf_program__section_name(prog));
	}
}

/* the loaded programs, space-separated */
static const char *loaded(const struct source_plan *p)
{
	static char buf[2048];
	struct bpf_program *prog;

	buf[0] = 0;
	bpf_object__for_each_program(prog, obj) {
		if (progs_load(p, prog)) {
			strcat(buf, bpf_program__name(prog));
			strcat(buf, " ");
		}
	}
	return buf;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/* gfptop attaches the interrupt exits first (gfptop.c): exactly the
 * programs on a *_exit tracepoint */
static void test_exits_first(void **state)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, obj) {
		const char *sec = bpf_program__section_name(prog);
		bool exit = (!strncmp(sec, "tp_btf/", 7) || !strncmp(sec, "raw_tp/", 7)) &&
			    ends_with(sec, "_exit");

		if (progs_attach_first(prog) != exit)
			fail_msg("%s (%s): attached first %d, an exit %d", bpf_program__name(prog),
				 sec, progs_attach_first(prog), exit);
	}
}

/* What the classification refuses: kinds, targets and pairs of the two
 * gfptop does not use, and a section whose type says otherwise. */
static void test_classify_refuses(void **state)
{
	struct prog_class c;

	assert_int_equal(progs_classify("tp_btf/mm_page_alloc_tier", BPF_PROG_TYPE_TRACING,
					BPF_TRACE_RAW_TP, &c), 0);
	assert_int_equal(c.role, PROG_TRACEPOINT);
	assert_string_equal(c.target, "mm_page_alloc_tier");
	assert_int_equal(progs_classify("tracepoint/irq/irq_handler_entry",
					BPF_PROG_TYPE_TRACEPOINT, 0, &c), -1);
	assert_int_equal(progs_classify("tp_btf/sched_switch", BPF_PROG_TYPE_TRACING,
					BPF_TRACE_RAW_TP, &c), -1);
	assert_int_equal(progs_classify("fentry/irq_handler_entry", BPF_PROG_TYPE_TRACING,
					BPF_TRACE_FENTRY, &c), -1);
	assert_int_equal(progs_classify("kprobe/mm_page_alloc_tier", BPF_PROG_TYPE_KPROBE, 0,
					&c), -1);
	assert_int_equal(progs_classify("tp_btf/mm_page_alloc_tier",
					BPF_PROG_TYPE_RAW_TRACEPOINT, 0, &c), -1);
	assert_int_equal(progs_classify("fentry.s/get_page_from_freelist",
					BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY, &c), -1);
}

/* spot checks by name, for the reader: which source and which twin */
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
	assert_null(strstr(s, "local_timer_"));
	assert_null(strstr(s, "unreserve_probe_"));
	assert_null(strstr(s, "tier_"));
	assert_null(strstr(s, "fentry"));
	p = (struct source_plan){ .src = SRC_BOTH, .have_unreserve = true };
	s = loaded(&p);
	assert_non_null(strstr(s, "tier_btf "));
	assert_non_null(strstr(s, "gpff_return_fexit "));
	assert_non_null(strstr(s, "unreserve_probe_fexit "));
	assert_null(strstr(s, "_raw"));
	assert_null(strstr(s, "kprobe"));
	p = (struct source_plan){ .src = SRC_TRACEPOINT, .raw = true };
	s = loaded(&p);
	assert_non_null(strstr(s, "tier_raw "));
	assert_non_null(strstr(s, "irq_handler_entry_raw "));
	assert_null(strstr(s, "_btf"));
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
		cmocka_unit_test(test_every_program_classified),
		cmocka_unit_test(test_one_program_per_attachment),
		cmocka_unit_test(test_each_plan_attaches_once),
		cmocka_unit_test(test_exits_first),
		cmocka_unit_test(test_classify_refuses),
		cmocka_unit_test(test_named_sets),
		cmocka_unit_test(test_resolve),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, open_object, close_object);
}
