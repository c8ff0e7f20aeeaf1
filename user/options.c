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

static const char usage_head[] = "usage: gfptop [";
static const char usage_tail[] =
	"] [-o FILE] [-p PID] [-c CGROUP] [-m ORDER]\n"
	"              [-t TIERS] [-s KEY] [-r ROWS] [-C] [-T] [-d SECONDS] [-v]\n"
	"              [--source tracepoint|probe|both|auto] [--kprobe] [interval [count]]";

static const char help_head[] =
	"Show which page-allocator reserve tier satisfied each allocation\n"
	"From kmem:mm_page_alloc_tier and friends (the gfptop kernel patches), or on\n"
	"any other kernel derived from fentry/fexit on get_page_from_freelist()\n"
	"(docs/probe.md).\n"
	"\n"
	"  interval            seconds between reports (default 1, may be fractional)\n"
	"  count               number of reports (default: until Ctrl-C)\n";
/* (the output modes' lines go between) */
static const char help_tail[] =
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

/* "-H | -j | --csv | --prom" */
const char *options_usage(void)
{
	static char buf[512];
	size_t n = snprintf(buf, sizeof(buf), "%s", usage_head);

	for (int m = 0, k = 0; m < MODE_NR && n < sizeof(buf); m++) {
		const struct out_mode_def *d = &out_modes[m];

		if (!d->option)
			continue;
		if (d->short_option)
			n += snprintf(buf + n, sizeof(buf) - n, "%s-%c", k++ ? " | " : "",
				      d->short_option);
		else
			n += snprintf(buf + n, sizeof(buf) - n, "%s--%s", k++ ? " | " : "",
				      d->option);
	}
	if (n < sizeof(buf))
		snprintf(buf + n, sizeof(buf) - n, "%s", usage_tail);
	return buf;
}

/* one mode's -h lines: the option column, then its help, each further
 * line of which is indented to that column */
static size_t help_mode(char *buf, size_t len, const struct out_mode_def *d)
{
	char opt[32];
	size_t n;

	snprintf(opt, sizeof(opt), "--%s", d->option);
	if (d->short_option)
		n = snprintf(buf, len, "  -%c, %-16s", d->short_option, opt);
	else
		n = snprintf(buf, len, "      %-16s", opt);
	for (const char *p = d->help; *p && n < len; p++) {
		buf[n++] = *p;
		if (*p == '\n' && n < len)
			n += snprintf(buf + n, len - n, "%22s", "");
	}
	if (n < len)
		n += snprintf(buf + n, len - n, "\n");
	return n;
}

const char *options_help(void)
{
	static char buf[8192];
	size_t n = snprintf(buf, sizeof(buf), "%s", help_head);

	for (int m = 0; m < MODE_NR && n < sizeof(buf); m++)
		if (out_modes[m].option)
			n += help_mode(buf + n, sizeof(buf) - n, &out_modes[m]);
	if (n < sizeof(buf))
		snprintf(buf + n, sizeof(buf) - n, "%s", help_tail);
	return buf;
}

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

/* long-only options' values; an output mode's is OPT_MODE + its index
 * when it has no short option */
enum { OPT_SOURCE = 0x100, OPT_KPROBE, OPT_MODE = 0x200 };

static const struct option base_longopts[] = {
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
	{ "source", required_argument, NULL, OPT_SOURCE },
	{ "kprobe", no_argument, NULL, OPT_KPROBE },
};
#define NR_BASE (sizeof(base_longopts) / sizeof(base_longopts[0]))
static const char base_shortopts[] = "o:p:c:m:t:s:r:CTd:vh";

/* getopt's tables: the options above and the output modes' */
static void getopt_tables(struct option *lo, char *so, size_t solen)
{
	size_t n = 0, k = 1;

	memcpy(lo, base_longopts, sizeof(base_longopts));
	so[0] = ':';	/* a missing argument is ':', not '?' */
	for (int m = 0; m < MODE_NR; m++) {
		const struct out_mode_def *d = &out_modes[m];

		if (!d->option)
			continue;
		lo[NR_BASE + n++] = (struct option){ d->option, no_argument, NULL,
						     d->short_option ? d->short_option : OPT_MODE + m };
		if (d->short_option && k + 1 < solen)
			so[k++] = d->short_option;
	}
	lo[NR_BASE + n] = (struct option){ NULL, 0, NULL, 0 };
	snprintf(so + k, solen - k, "%s", base_shortopts);
}

/* the output mode option C selects, or -1 */
static int mode_of(int c)
{
	for (int m = 0; m < MODE_NR; m++)
		if (out_modes[m].option &&
		    (c == OPT_MODE + m || (out_modes[m].short_option && c == out_modes[m].short_option)))
			return m;
	return -1;
}

static int parse_sort(const char *arg, struct options *o)
{
	static const struct { const char *name; enum sort_key key; } keys[] = {
		{ "reserve", SORT_RESERVE }, { "allocs", SORT_ALLOCS },
		{ "pages", SORT_PAGES }, { "pid", SORT_PID },
	};
	int t;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(arg, keys[i].name)) {
			o->sort = keys[i].key;
			return 0;
		}
	if ((t = tier_from_name(arg)) < 0)
		return -1;
	o->sort = SORT_TIER;
	o->sort_tier = t;
	return 0;
}

/* what a filter option (-p, -c, -m, -t) sets */
static int parse_filter(int c, const char *arg, struct options *o, char *err, size_t len)
{
	unsigned long v;

	switch (c) {
	case 'p':
		if (parse_ulong(arg, 0x7fffffff, &v) || !v)
			return fail(err, len, "invalid PID '%s'", arg);
		o->pid = v;
		break;
	case 'c':
		if (!*arg)
			return fail(err, len, "-c needs a cgroup path");
		o->cgroup = arg;
		break;
	case 'm':
		if (parse_ulong(arg, GT_MAX_ORDER, &v))
			return fail(err, len, "invalid minimum order '%s' (0-%d)", arg, GT_MAX_ORDER);
		o->min_order = v;
		break;
	default:	/* 't' */
		if (options_parse_tiers(arg, &o->tier_mask))
			return fail(err, len, "invalid tier list '%s'", arg);
	}
	return OPT_OK;
}

/* what any other option sets; OPT_HELP for -h */
static int parse_option(int c, const char *arg, struct options *o, char *err, size_t len)
{
	unsigned long v;

	switch (c) {
	case 'p': case 'c': case 'm': case 't':
		return parse_filter(c, arg, o, err, len);
	case 'o':
		if (!*arg)
			return fail(err, len, "-o needs a file name");
		o->output = arg;
		break;
	case 's':
		if (parse_sort(arg, o))
			return fail(err, len, "invalid sort key '%s'", arg);
		break;
	case 'r':
		if (parse_ulong(arg, 100000, &v))
			return fail(err, len, "invalid row count '%s'", arg);
		o->rows = v;
		break;
	case 'd':
		if (parse_seconds(arg, &o->duration))
			return fail(err, len, "invalid duration '%s'", arg);
		break;
	case OPT_SOURCE:
		if (source_parse(arg, &o->source))
			return fail(err, len, "--source: '%s' is not tracepoint, probe, both or auto",
				    arg);
		break;
	case 'C': o->no_clear = true; break;
	case 'T': o->timestamps = true; break;
	case 'v': o->verbose = true; break;
	case OPT_KPROBE: o->kprobe = true; break;
	default: return OPT_HELP;	/* 'h' */
	}
	return OPT_OK;
}

/* getopt's complaint C ('?' or ':') about ARG, in our words */
static int bad_option(const struct option *lo, int c, const char *arg, char *err, size_t len)
{
	if (c == ':')
		return fail(err, len, "option '%s' needs an argument", arg);
	/* a long option given an argument it does not take (--histogram=1)
	 * sets optopt to its short letter, as a bad short option would:
	 * name it as typed */
	if (takes_no_argument(lo, arg, optopt))
		return fail(err, len, "option '%.*s' takes no argument", (int)strcspn(arg, "="), arg);
	if (optopt)
		return fail(err, len, "unknown option '-%c'", optopt);
	return fail(err, len, "unknown option '%s'", arg);
}

/* [interval [count]] and the checks across options */
static int parse_rest(int argc, char **argv, struct options *o, char *err, size_t len)
{
	unsigned long v;

	if (optind < argc) {
		if (parse_seconds(argv[optind], &o->interval))
			return fail(err, len, "invalid interval '%s'", argv[optind]);
		optind++;
	}
	if (optind < argc) {
		if (parse_ulong(argv[optind], 1000000000, &v) || !v)
			return fail(err, len, "invalid count '%s'", argv[optind]);
		o->count = v;
		optind++;
	}
	if (optind < argc)
		return fail(err, len, "unexpected argument '%s'", argv[optind]);
	if (o->duration && o->count)
		return fail(err, len, "-d and count are mutually exclusive");
	if (o->kprobe && o->source == SRC_TRACEPOINT)
		return fail(err, len, "--kprobe is for the probe source, not --source tracepoint");
	if (o->duration) {
		o->count = (long)ceil(o->duration / o->interval - 1e-9);
		if (o->count < 1)
			o->count = 1;
	}
	return OPT_OK;
}

int options_parse(int argc, char **argv, struct options *o, char *err, size_t errlen)
{
	struct option lo[NR_BASE + MODE_NR + 1];
	char so[sizeof(base_shortopts) + MODE_NR + 2];
	bool mode_set = false;
	int c, m, rc;

	memset(o, 0, sizeof(*o));
	o->mode = MODE_LIVE;
	o->interval = 1;
	o->tier_mask = (1u << GT_NR) - 1;
	o->sort = SORT_RESERVE;
	o->rows = 20;
	getopt_tables(lo, so, sizeof(so));

	optind = 0;	/* glibc: full re-initialisation, so tests can call us again */
	opterr = 0;
	while ((c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		if (c == '?' || c == ':')
			return bad_option(lo, c, argv[optind - 1], err, errlen);
		if ((m = mode_of(c)) >= 0) {
			if (mode_set && o->mode != (enum out_mode)m)
				return fail(err, errlen, "%s are mutually exclusive", out_mode_list());
			o->mode = m;
			mode_set = true;
		} else if ((rc = parse_option(c, optarg, o, err, errlen)) != OPT_OK) {
			return rc;
		}
	}
	return parse_rest(argc, argv, o, err, errlen);
}
