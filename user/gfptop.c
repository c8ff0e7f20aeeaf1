// SPDX-License-Identifier: GPL-2.0
/*
 * gfptop: which page-allocator reserve tier satisfied each allocation.
 * main(): options, the kernel checks (ksetup.c), skeleton open/load/
 * attach, the interval loop, and a clean exit (everything detached) on
 * Ctrl-C.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "gfptop_abi.h"
#include "gfptop_rules.h"
#include "gfptop.skel.h"
#include "collect.h"
#include "gfpclass.h"
#include "krules.h"
#include "ksetup.h"
#include "options.h"
#include "output.h"
#include "progs.h"
#include "report.h"
#include "source.h"

static volatile sig_atomic_t exiting;
static bool verbose;

static void on_signal(int sig)
{
	(void)sig;
	if (exiting) {
		/* second signal while finishing: give up, leave no half file */
		output_abort_signal();
		_exit(130);
	}
	exiting = 1;
}

/* libbpf's warnings always (they say why a load or attach failed), its
 * info and debug messages (the verifier log among them) only with -v */
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	if (level != LIBBPF_WARN && !verbose)
		return 0;
	return vfprintf(stderr, fmt, args);
}

static double now_real(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Sleep until the monotonic deadline or a signal. */
static void sleep_until(double deadline)
{
	while (!exiting) {
		double left = deadline - now_mono();
		struct timespec ts;

		if (left <= 0)
			return;
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - ts.tv_sec) * 1e9);
		nanosleep(&ts, NULL); /* EINTR on a signal: loop checks exiting */
	}
}

static void die_usage(const char *msg)
{
	fprintf(stderr, "gfptop: %s\n%s\n", msg, options_usage());
	exit(2);
}

/* Open and load the skeleton with the programs of the plan (source.h),
 * the filters and, for the probe, the kernel's ALLOC_* rules. */
static struct gfptop_bpf *open_and_load(const struct options *o, int cgfd,
					const struct source_plan *plan, const struct krules *kr,
					int *err)
{
	struct gfptop_bpf *skel = gfptop_bpf__open();
	struct bpf_program *prog;

	if (!skel) {
		*err = -errno;
		return NULL;
	}
	skel->rodata->filter_tgid = o->pid;
	skel->rodata->filter_cgroup = cgfd >= 0;
	skel->rodata->filter_min_order = o->min_order;
	skel->rodata->filter_tier_mask = o->tier_mask;
	skel->rodata->probe_shadow = plan->src == SRC_BOTH;
	/* the kernel's rule set, a row of common/rule_sets.c (the probe's) */
	skel->rodata->rules = kr->set->rules;
	skel->rodata->zone_nr_free_highatomic_off = kr->nr_free_highatomic_off;
	skel->rodata->migrate_cma = kr->migrate_cma;
	skel->rodata->zone_head_fits = kr->zone_head_fits;
	skel->rodata->snap_nr_free_highatomic_off = kr->snap_nr_free_highatomic_off;
	memcpy(skel->rodata->tier_of_kernel, kr->tier_of_kernel, sizeof(kr->tier_of_kernel));

	bpf_object__for_each_program(prog, skel->obj)
		bpf_program__set_autoload(prog, progs_load(plan, prog));

	*err = gfptop_bpf__load(skel);
	if (!*err && cgfd >= 0) {
		__u32 k = 0;

		if (bpf_map_update_elem(bpf_map__fd(skel->maps.cgroup_filter), &k, &cgfd, BPF_ANY))
			*err = -errno;
	}
	if (*err) {
		gfptop_bpf__destroy(skel);
		return NULL;
	}
	return skel;
}

/*
 * The interrupt depths (gt_cpu.irq; see irq_track() in count.bpf.h) need every
 * *_exit program attached before its *_entry: an interrupt that began
 * between the two attaches would leave its depth at 1 for the whole
 * session, and every task allocation on that CPU would count as softirq
 * or hardirq. An exit without its entry is harmless (the depth never goes
 * below 0). So the exits are attached by hand first, then the skeleton
 * attaches the rest.
 */
#define MAX_EXIT_LINKS 8
static struct bpf_link *exit_links[MAX_EXIT_LINKS];
static int nr_exit_links;

/*
 * Detaching unlinks the programs but does not wait for one already
 * running on another CPU. Every kind gfptop attaches runs inside an RCU
 * read-side section, so the end of a grace period is the end of them
 * all, and membarrier(MEMBARRIER_CMD_GLOBAL) waits for one
 * (synchronize_rcu()). Where it cannot (no CONFIG_MEMBARRIER, nohz_full
 * CPUs), a few milliseconds, far longer than a program runs.
 */
static void wait_running_programs(void)
{
	const struct timespec ms10 = { .tv_nsec = 10 * 1000 * 1000 };

	if (syscall(__NR_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0))
		nanosleep(&ms10, NULL);
}

/* Stop counting, keep the maps: before the final read, so that it reads
 * totals nothing changes any more. The per-CPU map is copied one word
 * after another while programs count, so a read taken meanwhile can
 * hold an allocation in its order counter and not yet in its zone
 * counter; and a process slot taken over while the maps are read can
 * make a total come out short (user/procs.h). After the final read
 * nothing would make up for either. */
static void stop_counting(struct gfptop_bpf *skel)
{
	gfptop_bpf__detach(skel);
	while (nr_exit_links > 0)
		bpf_link__destroy(exit_links[--nr_exit_links]);
	wait_running_programs();
}

static void detach_programs(struct gfptop_bpf *skel)
{
	stop_counting(skel);
	gfptop_bpf__destroy(skel);
}

static int attach_programs(struct gfptop_bpf *skel)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, skel->obj) {
		struct bpf_link *link;

		if (!bpf_program__autoload(prog) || !progs_attach_first(prog))
			continue;
		if (nr_exit_links == MAX_EXIT_LINKS)
			return -E2BIG;
		link = bpf_program__attach(prog);
		if (!link)
			return -errno;
		exit_links[nr_exit_links++] = link;
		bpf_program__set_autoattach(prog, false);
	}
	return gfptop_bpf__attach(skel);
}

/*
 * Load and attach the plan's programs. Falls back from fentry/fexit to
 * kprobe/kretprobe for the probe (a kernel without ftrace's direct calls)
 * and from tp_btf to raw_tp for the tracepoint. 0, or -errno of the last
 * attempt.
 */
static int load_and_attach(const struct options *o, int cgfd, struct source_plan *plan,
			   const struct krules *kr, struct gfptop_bpf **out)
{
	for (;;) {
		struct gfptop_bpf *skel;
		int err;

		skel = open_and_load(o, cgfd, plan, kr, &err);
		if (skel) {
			err = attach_programs(skel);
			if (!err) {
				*out = skel;
				return 0;
			}
			detach_programs(skel);
		}
		if (source_uses_probe(plan) && !plan->kprobe) {
			fprintf(stderr, "gfptop: fentry/fexit did not %s (%s), trying kprobes\n",
				skel ? "attach" : "load", strerror(-err));
			plan->kprobe = true;
		} else if (plan->src == SRC_TRACEPOINT && !plan->raw) {
			if (verbose)
				fprintf(stderr, "gfptop: tp_btf programs did not %s (%s), trying "
					"raw_tp\n", skel ? "attach" : "load", strerror(-err));
			plan->raw = true;
		} else {
			return err;
		}
	}
}

/* What the one readiness line says about the source. */
static void print_ready(const struct source_plan *p, const struct krules *kr)
{
	const char *probe = p->kprobe ? "kprobe/kretprobe" : "fentry/fexit";

	switch (p->src) {
	case SRC_PROBE:
		fprintf(stderr, "gfptop: ready: source probe (%s on get_page_from_freelist): "
			"tiers are derived from zone counters with the rules of %s, not "
			"reported by the kernel\n", probe, kr->basis);
		break;
	case SRC_BOTH:
		fprintf(stderr, "gfptop: ready: source both (%s tracepoints count; %s on "
			"get_page_from_freelist derive each tier again for the JSON "
			"\"agreement\")\n", p->raw ? "raw_tp" : "tp_btf", probe);
		break;
	default:
		fprintf(stderr, "gfptop: ready: source tracepoint (%s on kmem:mm_page_alloc_tier)\n",
			p->raw ? "raw_tp" : "tp_btf");
		break;
	}
}

/* The interval loop, until the count or a signal; the final interval is
 * read after counting stopped. 0, or -1 with msg. */
static int run_intervals(const struct options *o, struct gfptop_bpf *skel, struct collector *col,
			 struct report *r, struct output *out, char *msg, size_t len)
{
	double start = now_mono(), last = start;

	for (long i = 1; ; i++) {
		sleep_until(start + i * o->interval);
		/* an interrupted interval is still reported: it is the final one */
		bool last_one = exiting || (o->count && i >= o->count);

		if (last_one)
			stop_counting(skel);
		double t = now_mono();

		if (collect_interval(col, o, r)) {
			snprintf(msg, len, "reading the BPF maps failed: %s", strerror(errno));
			return -1;
		}
		r->interval_s = t - last;
		r->timestamp = now_real();
		last = t;
		if (output_report(out, r, msg, len))
			return -1;
		if (last_one)
			return 0;
	}
}

static void on_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: interrupt the sleep */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* Load and attach the plan's programs, with one line in MSG if that
 * fails. */
static int attach_or_say(const struct options *o, struct ksetup *ks, struct gfptop_bpf **skel,
			 char *msg, size_t len)
{
	int err = load_and_attach(o, ks->cgfd, &ks->plan, &ks->kr, skel);

	if (!err)
		return 0;
	if (err == -EPERM || err == -EACCES)
		snprintf(msg, len, "not allowed to load BPF programs (%s): run as root",
			 strerror(-err));
	else
		snprintf(msg, len, "loading or attaching the %s programs failed (%s): "
			 "run with -v for the verifier log", source_name(ks->plan.src),
			 strerror(-err));
	return -1;
}

int main(int argc, char **argv)
{
	struct options o;
	char msg[512];
	struct ksetup ks;
	struct collector col;
	struct gfptop_bpf *skel = NULL;
	struct report r;
	struct output out = { 0 };
	int rc = 1;

	switch (options_parse(argc, argv, &o, msg, sizeof(msg))) {
	case OPT_HELP:
		printf("%s\n\n%s", options_usage(), options_help());
		return 0;
	case OPT_ERROR:
		die_usage(msg);
	}
	verbose = o.verbose;
	libbpf_set_print(libbpf_print);
	memset(&col, 0, sizeof(col));
	memset(&r, 0, sizeof(r));

	/* the output is checked and prepared before attaching: nothing of
	 * that inside the first interval, and no run's data collected for
	 * a FILE that cannot be written */
	if (ksetup_run(&ks, &o, &r, verbose, msg, sizeof(msg)) ||
	    output_check(o.mode, o.output, msg, sizeof(msg)) ||
	    attach_or_say(&o, &ks, &skel, msg, sizeof(msg)))
		goto fail_msg;
	/* no baseline to subtract: the maps are this run's own, created 0 at
	 * load, and a baseline read while the programs count could be torn
	 * (stop_counting()) and carry that into every total */
	if (collector_init(&col, skel, &ks.gc)) {
		snprintf(msg, sizeof(msg), "reading the BPF maps failed: %s", strerror(errno));
		goto fail_msg;
	}
	/* r holds no counts yet: a --prom FILE exists from the start, all 0 */
	if (output_open(&out, o.mode, o.output,
			&(struct out_view){ .rows = o.rows, .clear = !o.no_clear,
					    .timestamps = o.timestamps },
			&r, msg, sizeof(msg)))
		goto fail_msg;
	on_signals();
	/* attached: every allocation since the first program attached counts */
	print_ready(&ks.plan, &ks.kr);
	if (run_intervals(&o, skel, &col, &r, &out, msg, sizeof(msg)))
		goto fail_msg;
	rc = 0;
	goto out;

fail_msg:
	fprintf(stderr, "gfptop: %s\n", msg);
	rc = 1;
out:
	/* detach before committing the file: nothing keeps running after us */
	if (skel)
		detach_programs(skel);
	collector_free(&col);
	if (output_close(&out, rc == 0, msg, sizeof(msg))) {
		fprintf(stderr, "gfptop: %s\n", msg);
		rc = 1;
	}
	ksetup_free(&ks);
	return rc;
}
