/* Option parsing: defaults, each option, and the errors (exit 2 in main). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "options.h"

static char err[256];

#define PARSE(o, ...) ({ char *argv_[] = { "gfptop", __VA_ARGS__, NULL }; \
	options_parse(sizeof(argv_) / sizeof(argv_[0]) - 1, argv_, (o), err, sizeof(err)); })

static void defaults(void **state)
{
	struct options o;
	char *argv[] = { "gfptop", NULL };

	assert_int_equal(options_parse(1, argv, &o, err, sizeof(err)), OPT_OK);
	assert_int_equal(o.mode, MODE_LIVE);
	assert_true(o.interval == 1.0);
	assert_int_equal(o.count, 0);
	assert_int_equal(o.rows, 20);
	assert_int_equal(o.sort, SORT_RESERVE);
	assert_int_equal(o.tier_mask, (1u << GT_NR) - 1);
	assert_null(o.output);
	assert_int_equal(o.source, SRC_AUTO);
	assert_false(o.kprobe);
}

static void sources(void **state)
{
	struct options o;

	assert_int_equal(PARSE(&o, "--source", "probe", "--kprobe"), OPT_OK);
	assert_int_equal(o.source, SRC_PROBE);
	assert_true(o.kprobe);
	assert_int_equal(PARSE(&o, "--source=both", "-j"), OPT_OK);
	assert_int_equal(o.source, SRC_BOTH);
	assert_int_equal(PARSE(&o, "--source", "kprobe"), OPT_ERROR);
	assert_non_null(strstr(err, "'kprobe'"));
	assert_int_equal(PARSE(&o, "--source", "tracepoint", "--kprobe"), OPT_ERROR);
	assert_non_null(strstr(err, "--kprobe"));
}

static void modes_and_positionals(void **state)
{
	struct options o;

	assert_int_equal(PARSE(&o, "-H", "5", "2"), OPT_OK);
	assert_int_equal(o.mode, MODE_HIST);
	assert_true(o.interval == 5.0);
	assert_int_equal(o.count, 2);
	assert_int_equal(PARSE(&o, "-j", "-o", "/tmp/x.json", "0.5"), OPT_OK);
	assert_int_equal(o.mode, MODE_JSON);
	assert_string_equal(o.output, "/tmp/x.json");
	assert_true(o.interval == 0.5);
	assert_int_equal(PARSE(&o, "--csv"), OPT_OK);
	assert_int_equal(o.mode, MODE_CSV);
	assert_int_equal(PARSE(&o, "--prom", "-o", "/tmp/g.prom", "15"), OPT_OK);
	assert_int_equal(o.mode, MODE_PROM);
	assert_string_equal(o.output, "/tmp/g.prom");
	assert_true(o.interval == 15.0);
	assert_int_equal(PARSE(&o, "-d", "10", "3"), OPT_OK);
	assert_int_equal(o.count, 4);	/* ceil(10 / 3) */
	assert_int_equal(PARSE(&o, "-h"), OPT_HELP);
}

/* Every output mode is one line of out_modes[] (output.h): a mode added
 * to the enum but not the table, or given no way to write a report, no
 * option, no help, fails here; and each mode's option selects it, is in
 * the usage line, in -h and in the one-mode-only message. */
static void each_mode_from_the_table(void **state)
{
	int with_option = 0;

	for (int m = 0; m < MODE_NR; m++) {
		const struct out_mode_def *d = &out_modes[m];
		char opt[32], flag[8];
		struct options o;

		assert_non_null(d->emit);
		if (m == MODE_LIVE) {
			assert_null(d->option);	/* the default: no option */
			continue;
		}
		with_option++;
		assert_non_null(d->option);
		assert_non_null(d->help);
		snprintf(opt, sizeof(opt), "--%s", d->option);
		assert_int_equal(PARSE(&o, opt), OPT_OK);
		assert_int_equal(o.mode, m);
		assert_non_null(strstr(options_help(), opt));
		snprintf(flag, sizeof(flag), "-%c", d->short_option);
		if (d->short_option) {
			assert_int_equal(PARSE(&o, flag), OPT_OK);
			assert_int_equal(o.mode, m);
		}
		assert_non_null(strstr(options_usage(), d->short_option ? flag : opt));
		assert_non_null(strstr(out_mode_list(), d->short_option ? flag : opt));
		/* any other mode with it is refused, naming them all */
		for (int n = 0; n < MODE_NR; n++) {
			char other[32];

			if (n == m || !out_modes[n].option)
				continue;
			snprintf(other, sizeof(other), "--%s", out_modes[n].option);
			assert_int_equal(PARSE(&o, opt, other), OPT_ERROR);
			assert_non_null(strstr(err, out_mode_list()));
		}
	}
	assert_int_equal(with_option, MODE_NR - 1);
}

static void filters_and_view(void **state)
{
	struct options o;

	assert_int_equal(PARSE(&o, "-p", "123", "-c", "system.slice", "-m", "3", "-t",
			       "oom,highatomic", "-s", "min_reserve", "-r", "0", "-C", "-T", "-v"),
			 OPT_OK);
	assert_int_equal(o.pid, 123);
	assert_string_equal(o.cgroup, "system.slice");
	assert_int_equal(o.min_order, 3);
	assert_int_equal(o.tier_mask, (1u << GT_OOM) | (1u << GT_HIGHATOMIC));
	assert_int_equal(o.sort, SORT_TIER);
	assert_int_equal(o.sort_tier, GT_MIN_RESERVE);
	assert_int_equal(o.rows, 0);
	assert_true(o.no_clear && o.timestamps && o.verbose);
	assert_int_equal(PARSE(&o, "--tiers", "reserve", "--sort", "pages"), OPT_OK);
	assert_int_equal(o.tier_mask, ((1u << GT_NR) - 1) & ~1u);
	assert_int_equal(o.sort, SORT_PAGES);
	assert_int_equal(PARSE(&o, "-t", "highatomic_counted,no_level", "-s", "no_level"), OPT_OK);
	assert_int_equal(o.tier_mask, (1u << GT_HIGHATOMIC_COUNTED) | (1u << GT_NO_LEVEL));
	assert_int_equal(o.sort, SORT_TIER);
	assert_int_equal(o.sort_tier, GT_NO_LEVEL);
	assert_int_equal(PARSE(&o, "-t", "unknown"), OPT_OK);
	assert_int_equal(o.tier_mask, 1u << GT_UNKNOWN);
}

static void errors(void **state)
{
	struct options o;

	assert_int_equal(PARSE(&o, "-x"), OPT_ERROR);
	assert_string_equal(err, "unknown option '-x'");
	assert_int_equal(PARSE(&o, "--bogus"), OPT_ERROR);
	assert_string_equal(err, "unknown option '--bogus'");
	/* a long option given an argument is named as typed, not by its
	 * short letter */
	assert_int_equal(PARSE(&o, "--histogram=1"), OPT_ERROR);
	assert_string_equal(err, "option '--histogram' takes no argument");
	assert_int_equal(PARSE(&o, "--json", "-x"), OPT_ERROR);
	assert_string_equal(err, "unknown option '-x'");
	assert_int_equal(PARSE(&o, "--json", "-jx"), OPT_ERROR);
	assert_string_equal(err, "unknown option '-x'");
	assert_int_equal(PARSE(&o, "-p"), OPT_ERROR);
	assert_string_equal(err, "option '-p' needs an argument");
	assert_int_equal(PARSE(&o, "-p", "abc"), OPT_ERROR);
	assert_string_equal(err, "invalid PID 'abc'");
	assert_int_equal(PARSE(&o, "-p", "0"), OPT_ERROR);
	assert_int_equal(PARSE(&o, "0"), OPT_ERROR);
	assert_string_equal(err, "invalid interval '0'");
	assert_int_equal(PARSE(&o, "1", "-3"), OPT_ERROR);
	assert_int_equal(PARSE(&o, "1", "2", "3"), OPT_ERROR);
	assert_string_equal(err, "unexpected argument '3'");
	assert_int_equal(PARSE(&o, "-H", "-j"), OPT_ERROR);
	assert_string_equal(err, "-H, -j, --csv and --prom are mutually exclusive");
	assert_int_equal(PARSE(&o, "--csv", "--prom"), OPT_ERROR);
	assert_string_equal(err, "-H, -j, --csv and --prom are mutually exclusive");
	assert_int_equal(PARSE(&o, "-m", "16"), OPT_ERROR);
	assert_int_equal(PARSE(&o, "-t", "oom,bogus"), OPT_ERROR);
	assert_string_equal(err, "invalid tier list 'oom,bogus'");
	assert_int_equal(PARSE(&o, "-s", "size"), OPT_ERROR);
	assert_int_equal(PARSE(&o, "-d", "5", "1", "3"), OPT_ERROR);
	assert_string_equal(err, "-d and count are mutually exclusive");
	assert_int_equal(PARSE(&o, "-r", "-1"), OPT_ERROR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults),
		cmocka_unit_test(sources),
		cmocka_unit_test(modes_and_positionals),
		cmocka_unit_test(each_mode_from_the_table),
		cmocka_unit_test(filters_and_view),
		cmocka_unit_test(errors),
	};
	return cmocka_run_group_tests_name("options", tests, NULL, NULL);
}
