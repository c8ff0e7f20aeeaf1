/* See options.h. getopt_long, with our own messages (opterr = 0). */
#include "options.h"
#include "names.h" /* tier_from_name */

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char options_usage_line[] =
	"usage: gfptop [-H | -j | --csv | --prom] [-o FILE] [-p PID] [-c CGROUP] [-m ORDER]\n"
	"              [-t TIERS] [-s KEY] [-r ROWS] [-C] [-T] [-d SECONDS] [-v]\n"
	"              [--source tracepoint|probe|both|auto] [--kprobe] [interval [count]]";

const char options_help_text[] =
	"Show which page-allocator reserve tier satisfied each allocation\n"
	"From kmem:mm_page_alloc_tier and friends (the gfptop kernel patches), or on\n"
	"any other kernel derived from fentry/fexit on get_page_from_freelist()\n"
	"(docs/probe.md).\n"
	"\n"
	"  interval            seconds between reports (default 1, may be fractional)\n"
	"  count               number of reports (default: until Ctrl-C)\n"
	"  -H, --histogram     tier x order table, what each tier permits, depth below the\n"
	"                      min watermark, highatomic pages via pcp, margin histograms\n"
	"  -j, --json          one JSON object per interval (docs/json-schema.md)\n"
	"      --csv           CSV, long format: timestamp,interval_s,section,tier,key,count,pages\n"
	"      --prom          Prometheus text: counters since the start, every interval;\n"
	"                      with -o, FILE is replaced each interval (docs/prometheus.md)\n"
	"  -o, --output FILE   write to FILE atomically (temp file + rename when done;\n"
	"                      with --prom, after every interval)\n"
	"  -p, --pid PID       only allocations made by process PID (tgid; it must exist)\n"
	"  -c, --cgroup PATH   only allocations made in cgroup v2 PATH or below it\n"
	"                      (absolute, or relative to /sys/fs/cgroup)\n"
	"  -m, --min-order N   only allocations of order >= N\n"
	"  -t, --tiers LIST    only these tiers: comma list of none, non_block, min_reserve,\n"
	"                      min_reserve_non_block, oom, no_watermarks, highatomic,\n"
	"                      highatomic_counted, no_level, unknown;\n"
	"                      'reserve' = all but none, 'all'\n"
	"  -s, --sort KEY      process table order: reserve (default), allocs, pages, pid,\n"
	"                      or a tier name\n"
	"  -r, --rows N        process table rows (default 20, 0 = all)\n"
	"  -C, --noclear       do not clear the screen between live reports\n"
	"  -T, --timestamp     print a timestamp with each report\n"
	"  -d, --duration S    stop after S seconds\n"
	"      --source S      where tiers come from: tracepoint (the kernel's own), probe\n"
	"                      (derived from zone counters), both (tracepoint counts, the\n"
	"                      probe is compared with it per page: JSON \"agreement\"), or\n"
	"                      auto (default: tracepoint if the kernel has it, else probe)\n"
	"      --kprobe        probe source on kprobe/kretprobe instead of fentry/fexit\n"
	"  -v, --verbose       libbpf debug messages and load details on stderr\n"
	"  -h, --help          this help\n"
	"\n"
	"Once its programs are attached (its counts start there, at 0), gfptop prints\n"
	"one line on stderr, in every mode: \"gfptop: ready: source SOURCE (...)\";\n"
	"from then on every allocation counts. Scripts wait for that line.\n"
	"\n"
	"Examples:\n"
	"  gfptop                        live view, 1 s refresh, until Ctrl-C\n"
	"  gfptop -H 5 2                 two 5 s reports of tier x order, depth and margin histograms\n"
	"  gfptop -j -o /tmp/g.json 2 3  three 2 s JSON lines into /tmp/g.json\n"
	"  gfptop --csv -d 60 10         CSV every 10 s for a minute\n"
	"  gfptop --prom -o /var/lib/node_exporter/textfile/gfptop.prom 15\n"
	"                                metrics for node_exporter's textfile collector\n"
	"  gfptop -t reserve -m 1 -s oom only reserve-tier allocations of order >= 1\n"
	"  gfptop -p 1234 -c system.slice/foo.service  one process in one cgroup\n";

static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return OPT_ERROR;
}

static int parse_ulong(const char *s, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

static int parse_seconds(const char *s, double *out)
{
	char *end;
	double v;

	if (!*s)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v <= 0 || v > 86400.0 * 365)
		return -1;
	*out = v;
	return 0;
}

int options_parse_tiers(const char *s, uint32_t *mask)
{
	char buf[256], *tok, *save = NULL;

	if (!*s || strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	*mask = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int t;

		if (!strcmp(tok, "all")) {
			*mask |= (1u << GT_NR) - 1;
		} else if (!strcmp(tok, "reserve")) {
			*mask |= ((1u << GT_NR) - 1) & ~(1u << GT_NONE);
		} else if ((t = tier_from_name(tok)) >= 0) {
			*mask |= 1u << t;
		} else {
			return -1;
		}
	}
	return *mask ? 0 : -1;
}

/* ARG is "--NAME=..." for a long option (or its abbreviation) whose
 * value is VAL and that takes no argument */
static bool takes_no_argument(const struct option *longopts, const char *arg, int val)
{
	size_t len = strcspn(arg, "=");

	if (strncmp(arg, "--", 2) || !arg[len] || len <= 2)
		return false;
	for (const struct option *l = longopts; l->name; l++)
		if (l->val == val && l->has_arg == no_argument &&
		    !strncmp(l->name, arg + 2, len - 2))
			return true;
	return false;
}

int options_parse(int argc, char **argv, struct options *o, char *err, size_t errlen)
{
	static const struct option longopts[] = {
		{ "histogram", no_argument, NULL, 'H' },
		{ "json", no_argument, NULL, 'j' },
		{ "csv", no_argument, NULL, 'S' },
		{ "prom", no_argument, NULL, 'P' },
		{ "output", required_argument, NULL, 'o' },
		{ "pid", required_argument, NULL, 'p' },
		{ "cgroup", required_argument, NULL, 'c' },
		{ "min-order", required_argument, NULL, 'm' },
		{ "tiers", required_argument, NULL, 't' },
		{ "sort", required_argument, NULL, 's' },
		{ "rows", required_argument, NULL, 'r' },
		{ "noclear", no_argument, NULL, 'C' },
		{ "timestamp", no_argument, NULL, 'T' },
		{ "duration", required_argument, NULL, 'd' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "source", required_argument, NULL, 'U' },
		{ "kprobe", no_argument, NULL, 'K' },
		{ NULL, 0, NULL, 0 },
	};
	bool mode_set = false;
	unsigned long v;
	int c, t;

	memset(o, 0, sizeof(*o));
	o->mode = MODE_LIVE;
	o->interval = 1;
	o->tier_mask = (1u << GT_NR) - 1;
	o->sort = SORT_RESERVE;
	o->rows = 20;

	optind = 0;	/* glibc: full re-initialisation, so tests can call us again */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":Hjo:p:c:m:t:s:r:CTd:vh", longopts, NULL)) != -1) {
		enum out_mode m;

		switch (c) {
		case 'H': m = MODE_HIST; goto set_mode;
		case 'j': m = MODE_JSON; goto set_mode;
		case 'S': m = MODE_CSV; goto set_mode;
		case 'P': m = MODE_PROM;
		set_mode:
			if (mode_set && o->mode != m)
				return fail(err, errlen, "-H, -j, --csv and --prom are mutually exclusive");
			o->mode = m;
			mode_set = true;
			break;
		case 'o':
			if (!*optarg)
				return fail(err, errlen, "-o needs a file name");
			o->output = optarg;
			break;
		case 'p':
			if (parse_ulong(optarg, 0x7fffffff, &v) || !v)
				return fail(err, errlen, "invalid PID '%s'", optarg);
			o->pid = v;
			break;
		case 'c':
			if (!*optarg)
				return fail(err, errlen, "-c needs a cgroup path");
			o->cgroup = optarg;
			break;
		case 'm':
			if (parse_ulong(optarg, GT_MAX_ORDER, &v))
				return fail(err, errlen, "invalid minimum order '%s' (0-%d)", optarg,
					    GT_MAX_ORDER);
			o->min_order = v;
			break;
		case 't':
			if (options_parse_tiers(optarg, &o->tier_mask))
				return fail(err, errlen, "invalid tier list '%s'", optarg);
			break;
		case 's':
			if (!strcmp(optarg, "reserve"))
				o->sort = SORT_RESERVE;
			else if (!strcmp(optarg, "allocs"))
				o->sort = SORT_ALLOCS;
			else if (!strcmp(optarg, "pages"))
				o->sort = SORT_PAGES;
			else if (!strcmp(optarg, "pid"))
				o->sort = SORT_PID;
			else if ((t = tier_from_name(optarg)) >= 0)
				o->sort = SORT_TIER, o->sort_tier = t;
			else
				return fail(err, errlen, "invalid sort key '%s'", optarg);
			break;
		case 'r':
			if (parse_ulong(optarg, 100000, &v))
				return fail(err, errlen, "invalid row count '%s'", optarg);
			o->rows = v;
			break;
		case 'C': o->no_clear = true; break;
		case 'T': o->timestamps = true; break;
		case 'v': o->verbose = true; break;
		case 'U':
			if (source_parse(optarg, &o->source))
				return fail(err, errlen, "--source: '%s' is not tracepoint, probe, "
					    "both or auto", optarg);
			break;
		case 'K': o->kprobe = true; break;
		case 'd':
			if (parse_seconds(optarg, &o->duration))
				return fail(err, errlen, "invalid duration '%s'", optarg);
			break;
		case 'h':
			return OPT_HELP;
		case ':':
			return fail(err, errlen, "option '%s' needs an argument", argv[optind - 1]);
		default:
			/* a long option given an argument it does not take
			 * (--histogram=1) sets optopt to its short letter,
			 * as a bad short option would: name it as typed */
			if (takes_no_argument(longopts, argv[optind - 1], optopt))
				return fail(err, errlen, "option '%.*s' takes no argument",
					    (int)strcspn(argv[optind - 1], "="), argv[optind - 1]);
			if (optopt)
				return fail(err, errlen, "unknown option '-%c'", optopt);
			return fail(err, errlen, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc) {
		if (parse_seconds(argv[optind], &o->interval))
			return fail(err, errlen, "invalid interval '%s'", argv[optind]);
		optind++;
	}
	if (optind < argc) {
		if (parse_ulong(argv[optind], 1000000000, &v) || !v)
			return fail(err, errlen, "invalid count '%s'", argv[optind]);
		o->count = v;
		optind++;
	}
	if (optind < argc)
		return fail(err, errlen, "unexpected argument '%s'", argv[optind]);
	if (o->duration && o->count)
		return fail(err, errlen, "-d and count are mutually exclusive");
	if (o->kprobe && o->source == SRC_TRACEPOINT)
		return fail(err, errlen, "--kprobe is for the probe source, not --source tracepoint");
	if (o->duration) {
		o->count = (long)ceil(o->duration / o->interval - 1e-9);
		if (o->count < 1)
			o->count = 1;
	}
	return OPT_OK;
}
