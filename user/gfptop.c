// SPDX-License-Identifier: GPL-2.0
/*
 * gfptop: which page-allocator reserve tier satisfied each allocation.
 * main(): options, kernel checks, skeleton open/load/attach, the
 * interval loop, and a clean exit (everything detached) on Ctrl-C.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "gfptop.h"
#include "gfptop.skel.h"
#include "collect.h"
#include "format.h"
#include "gfpclass.h"
#include "json.h"
#include "kcheck.h"
#include "options.h"
#include "outfile.h"
#include "prom.h"
#include "report.h"
#include "tpformat.h"

static volatile sig_atomic_t exiting;
static struct outfile out_file;	/* -o; read by the signal handler */
static bool verbose;

static void on_signal(int sig)
{
	(void)sig;
	if (exiting) {
		/* second signal while finishing: give up, leave no half file */
		outfile_abort_signal(&out_file);
		_exit(130);
	}
	exiting = 1;
}

/* libbpf's messages only with -v: without it, our own one-line errors
 * say what failed */
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	(void)level;
	if (!verbose)
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
	fprintf(stderr, "gfptop: %s\n%s\n", msg, options_usage_line);
	exit(2);
}

/* Open and load the skeleton with either the tp_btf or the raw_tp set. */
static struct gfptop_bpf *open_and_load(const struct options *o, uint64_t cgid, bool raw,
					bool have_local_timer, int *err)
{
	struct gfptop_bpf *skel = gfptop_bpf__open();
	struct bpf_program *prog;

	if (!skel) {
		*err = -errno;
		return NULL;
	}
	skel->rodata->filter_tgid = o->pid;
	skel->rodata->filter_cgroup_id = cgid;
	skel->rodata->filter_min_order = o->min_order;
	skel->rodata->filter_tier_mask = o->tier_mask;

	/* Each program exists as NAME_btf and NAME_raw: load one set. The
	 * local_timer events are x86 extras; without them the APIC timer's
	 * interrupts count as the context they interrupted. */
	bpf_object__for_each_program(prog, skel->obj) {
		const char *name = bpf_program__name(prog);
		size_t len = strlen(name);
		bool want = len > 4 && !strcmp(name + len - 4, raw ? "_raw" : "_btf");

		if (!strncmp(name, "local_timer_", 12) && !have_local_timer)
			want = false;
		bpf_program__set_autoload(prog, want);
	}

	*err = gfptop_bpf__load(skel);
	if (*err) {
		gfptop_bpf__destroy(skel);
		return NULL;
	}
	return skel;
}

/*
 * The irq_ctx depth counters (see irq_track() in gfptop.bpf.c) need every
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

static void detach_programs(struct gfptop_bpf *skel)
{
	gfptop_bpf__destroy(skel);
	while (nr_exit_links > 0)
		bpf_link__destroy(exit_links[--nr_exit_links]);
}

static int attach_programs(struct gfptop_bpf *skel)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, skel->obj) {
		struct bpf_link *link;

		if (!bpf_program__autoload(prog) || !strstr(bpf_program__name(prog), "_exit_"))
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

/* --prom: the totals since the start, on stdout or, with -o, as a new
 * FILE each time (node_exporter may read it at any moment) */
static int emit_prom(const struct options *o, const struct report *r)
{
	static struct report totals;

	prom_accumulate(&totals, r);
	if (!o->output)
		return prom_write(stdout, &totals);
	if (outfile_open(&out_file, o->output))
		return -1;
	if (prom_write(out_file.f, &totals)) {
		outfile_abort(&out_file);
		return -1;
	}
	return outfile_commit(&out_file);
}

static int emit(FILE *f, const struct options *o, const struct report *r, bool clear)
{
	switch (o->mode) {
	case MODE_PROM:
		return emit_prom(o, r);
	case MODE_JSON:
		return json_write_report(f, r);
	case MODE_CSV:
		fmt_csv(f, r);
		break;
	case MODE_HIST:
		fmt_histogram_mode(f, r, o->timestamps);
		break;
	default:
		fmt_live(f, r, o->rows, clear, o->timestamps);
		break;
	}
	return ferror(f) ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct options o;
	char msg[512];
	int64_t tier_values[GT_NR];
	struct gfp_classifier gc;
	struct collector col;
	struct gfptop_bpf *skel;
	struct report r;
	struct utsname uts;
	struct sigaction sa;
	const char *missing = NULL;
	uint64_t cgid = 0;
	char *fmt_text;
	FILE *out = stdout;
	bool clear, raw = false, have_timer;
	int err, rc = 0;

	switch (options_parse(argc, argv, &o, msg, sizeof(msg))) {
	case OPT_HELP:
		printf("%s\n\n%s", options_usage_line, options_help_text);
		return 0;
	case OPT_ERROR:
		die_usage(msg);
	}
	verbose = o.verbose;
	libbpf_set_print(libbpf_print);

	/* what the kernel must have, most basic first */
	if (kcheck_btf(msg, sizeof(msg)) || kcheck_tracepoints(tier_values, msg, sizeof(msg)) ||
	    kcheck_privileges(msg, sizeof(msg))) {
		fprintf(stderr, "gfptop: %s\n", msg);
		return 1;
	}
	fmt_text = kcheck_read_format("mm_page_alloc_tier", msg, sizeof(msg));
	if (!fmt_text) {
		fprintf(stderr, "gfptop: %s\n", msg);
		return 1;
	}
	if (o.cgroup && kcheck_cgroup_id(o.cgroup, &cgid, msg, sizeof(msg))) {
		fprintf(stderr, "gfptop: %s\n", msg);
		return 1;
	}

	memset(&r, 0, sizeof(r));
	uname(&uts);
	r.kernel_release = uts.release;
	memcpy(r.tier_values, tier_values, sizeof(tier_values));
	if (gfpclass_init_from_format(&gc, fmt_text, &missing))
		fprintf(stderr, "gfptop: warning: gfp flag table lacks %s; every allocation's "
			"GFP class will be 'other'\n", missing);
	r.before_semantics = gc.has_gfp_atomic_flag;
	{
		struct tpfmt_sym zs[GT_NR_ZONES * 2];
		int nz = tpfmt_table(fmt_text, "__print_symbolic", "zone_idx", zs, GT_NR_ZONES * 2);

		for (int i = 0; i < nz; i++)
			if (zs[i].value < GT_NR_ZONES)
				snprintf(r.zone_names[zs[i].value], REPORT_ZONE_NAME_LEN, "%s", zs[i].name);
	}
	free(fmt_text);
	if (verbose) {
		fprintf(stderr, "gfptop: kernel %s, %s-series semantics (%s)\n", uts.release,
			report_semantics(&r), report_semantics_flags(&r));
		for (int t = 0; t < GT_UNKNOWN; t++)
			fprintf(stderr, "gfptop: tier %s = kernel enum value %lld\n", tier_name(t),
				(long long)tier_values[t]);
	}

	have_timer = kcheck_has_tracepoint("local_timer_entry") &&
		     kcheck_has_tracepoint("local_timer_exit");
	skel = open_and_load(&o, cgid, false, have_timer, &err);
	if (!skel) {
		if (verbose)
			fprintf(stderr, "gfptop: tp_btf programs did not load (%s), trying raw_tp\n",
				strerror(-err));
		raw = true;
		skel = open_and_load(&o, cgid, true, have_timer, &err);
	}
	if (!skel) {
		if (err == -EPERM || err == -EACCES)
			fprintf(stderr, "gfptop: not allowed to load BPF programs (%s): run as root\n",
				strerror(-err));
		else
			fprintf(stderr, "gfptop: loading the BPF programs failed (%s): run with -v "
				"for the verifier log\n", strerror(-err));
		return 1;
	}
	err = attach_programs(skel);
	if (err) {
		fprintf(stderr, "gfptop: attaching to the kmem tracepoints failed (%s)\n",
			strerror(-err));
		detach_programs(skel);
		return 1;
	}
	if (verbose)
		fprintf(stderr, "gfptop: attached (%s programs)\n", raw ? "raw_tp" : "tp_btf");

	if (collector_init(&col, skel, &gc) || collector_baseline(&col)) {
		fprintf(stderr, "gfptop: reading the BPF maps failed: %s\n", strerror(errno));
		detach_programs(skel);
		return 1;
	}

	if (o.output && o.mode == MODE_PROM) {
		/* r holds no counts yet: FILE exists from the start, all 0 */
		if (emit_prom(&o, &r)) {
			fprintf(stderr, "gfptop: cannot write %s: %s\n", o.output, strerror(errno));
			collector_free(&col);
			detach_programs(skel);
			return 1;
		}
	} else if (o.output) {
		if (outfile_open(&out_file, o.output)) {
			fprintf(stderr, "gfptop: cannot create a temporary file next to %s: %s\n",
				o.output, strerror(errno));
			collector_free(&col);
			detach_programs(skel);
			return 1;
		}
		out = out_file.f;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: interrupt the sleep */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	clear = o.mode == MODE_LIVE && !o.no_clear && !o.output && isatty(STDOUT_FILENO);
	if (o.mode == MODE_CSV)
		fmt_csv_header(out);
	if (o.mode == MODE_LIVE && !clear && !o.output)
		fprintf(stderr, "gfptop: tracing reserve tiers... Ctrl-C to end.\n");

	double start = now_mono(), last = start;
	for (long i = 1; ; i++) {
		sleep_until(start + i * o.interval);
		/* an interrupted interval is still reported: it is the final one */
		double t = now_mono();

		if (collect_interval(&col, &o, &r)) {
			fprintf(stderr, "gfptop: reading the BPF maps failed: %s\n", strerror(errno));
			rc = 1;
			break;
		}
		r.interval_s = t - last;
		r.timestamp = now_real();
		last = t;
		if (emit(out, &o, &r, clear)) {
			fprintf(stderr, "gfptop: write error: %s\n", strerror(errno));
			rc = 1;
			break;
		}
		if (exiting || (o.count && i >= o.count))
			break;
	}

	/* detach before committing the file: nothing keeps running after us */
	detach_programs(skel);
	collector_free(&col);
	if (o.output) {
		if (rc) {
			outfile_abort(&out_file);
		} else if (o.mode != MODE_PROM && outfile_commit(&out_file)) {
			fprintf(stderr, "gfptop: writing %s failed: %s\n", o.output, strerror(errno));
			rc = 1;
		}
	} else {
		fflush(stdout);
	}
	return rc;
}
