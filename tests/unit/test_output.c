/* An output's life (output.h): -o FILE appears only when the run ends
 * well (and not at all when it fails), --prom -o FILE exists from the
 * start and is replaced after each report, stdout needs no file, and a
 * fatal signal's path removes the half-written file. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "output.h"
#include "tmpdir.h"

static char msg[256];
static const struct out_view view = { .rows = 5 };

/* lines in FILE that start with PREFIX */
static int lines_with(const char *file, const char *prefix)
{
	char line[512];
	int n = 0;
	FILE *f = fopen(file, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n += !strncmp(line, prefix, strlen(prefix));
	fclose(f);
	return n;
}

static void file_per_run(void **state)
{
	const char *dir = *state;
	struct report r = { 0 };
	struct output out;
	char path[256];

	snprintf(path, sizeof(path), "%s/run.csv", dir);
	assert_int_equal(output_check(MODE_CSV, path, msg, sizeof(msg)), 0);
	assert_int_equal(entries(dir), 0);
	assert_int_equal(output_open(&out, MODE_CSV, path, &view, &r, msg, sizeof(msg)), 0);
	assert_int_equal(output_report(&out, &r, msg, sizeof(msg)), 0);
	assert_int_equal(output_report(&out, &r, msg, sizeof(msg)), 0);
	assert_int_equal(access(path, F_OK), -1);	/* not before the end */
	assert_int_equal(output_close(&out, true, msg, sizeof(msg)), 0);
	assert_int_equal(lines_with(path, "timestamp,"), 1);	/* the header, once */
	assert_int_equal(entries(dir), 1);

	/* a run that failed leaves the old FILE as it was */
	assert_int_equal(output_open(&out, MODE_CSV, path, &view, &r, msg, sizeof(msg)), 0);
	assert_int_equal(output_report(&out, &r, msg, sizeof(msg)), 0);
	assert_int_equal(output_close(&out, false, msg, sizeof(msg)), 0);
	assert_int_equal(lines_with(path, "timestamp,"), 1);
	assert_int_equal(entries(dir), 1);
}

static void file_per_report(void **state)
{
	const char *dir = *state;
	struct report r = { 0 };
	struct output out;
	char path[256];
	struct stat a, b;

	snprintf(path, sizeof(path), "%s/g.prom", dir);
	assert_int_equal(output_open(&out, MODE_PROM, path, &view, &r, msg, sizeof(msg)), 0);
	assert_int_equal(stat(path, &a), 0);	/* there from the start */
	assert_true(lines_with(path, "# TYPE gfptop_") > 0);
	assert_int_equal(output_report(&out, &r, msg, sizeof(msg)), 0);
	assert_int_equal(stat(path, &b), 0);
	assert_true(a.st_ino != b.st_ino);	/* a new file, renamed over */
	assert_int_equal(output_close(&out, true, msg, sizeof(msg)), 0);
	assert_int_equal(entries(dir), 1);
}

static void signal_path(void **state)
{
	const char *dir = *state;
	struct report r = { 0 };
	struct output out;
	char path[256];

	snprintf(path, sizeof(path), "%s/s.json", dir);
	assert_int_equal(output_open(&out, MODE_JSON, path, &view, &r, msg, sizeof(msg)), 0);
	assert_int_equal(entries(dir), 1);	/* its temporary file */
	output_abort_signal();
	assert_int_equal(entries(dir), 0);
	assert_int_equal(output_close(&out, false, msg, sizeof(msg)), 0);
	output_abort_signal();	/* nothing open: nothing to do */
}

static void refused_before_work(void **state)
{
	assert_int_equal(output_check(MODE_JSON, "/dev/null", msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "not a regular file"));
	assert_int_equal(output_check(MODE_LIVE, NULL, msg, sizeof(msg)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(file_per_run, setup, teardown),
		cmocka_unit_test_setup_teardown(file_per_report, setup, teardown),
		cmocka_unit_test_setup_teardown(signal_path, setup, teardown),
		cmocka_unit_test(refused_before_work),
	};
	return cmocka_run_group_tests_name("output", tests, NULL, NULL);
}
