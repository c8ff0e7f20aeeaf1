/* Atomic -o output: complete file on commit, nothing on abort, the old
 * file untouched until the rename, no temporary left behind; a SIGKILLed
 * writer's temporary file removed by the next run, a live one's not. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "outfile.h"

static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	static char buf[256];
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static int setup(void **state)
{
	char *dir = strdup("/tmp/gfptop-outfile-XXXXXX");

	if (!mkdtemp(dir))
		return -1;
	*state = dir;
	return 0;
}

static int teardown(void **state)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", (char *)*state);
	if (system(cmd) != 0)
		return -1;
	free(*state);
	return 0;
}

static void commit_replaces(void **state)
{
	const char *dir = *state;
	char path[256];
	struct outfile o;

	snprintf(path, sizeof(path), "%s/out.json", dir);
	FILE *f = fopen(path, "w");
	fputs("old\n", f);
	fclose(f);

	assert_int_equal(outfile_open(&o, path), 0);
	fputs("new line 1\n", o.f);
	fflush(o.f);
	/* before commit: the old contents, and a temp next to it */
	assert_string_equal(slurp(path), "old\n");
	assert_int_equal(entries(dir), 2);
	assert_int_equal(strncmp(o.tmp, dir, strlen(dir)), 0);
	assert_int_equal(outfile_commit(&o), 0);
	assert_string_equal(slurp(path), "new line 1\n");
	assert_int_equal(entries(dir), 1);
}

static void abort_leaves_nothing(void **state)
{
	const char *dir = *state;
	char path[256];
	struct outfile o;

	snprintf(path, sizeof(path), "%s/never.json", dir);
	assert_int_equal(outfile_open(&o, path), 0);
	fputs("half a line", o.f);
	outfile_abort(&o);
	assert_null(slurp(path));
	assert_int_equal(entries(dir), 0);
	assert_null(o.tmp);
}

static void signal_abort_removes_temp(void **state)
{
	const char *dir = *state;
	char path[256];
	struct outfile o;

	snprintf(path, sizeof(path), "%s/sig.json", dir);
	assert_int_equal(outfile_open(&o, path), 0);
	fputs("partial", o.f);
	outfile_abort_signal(&o);	/* what the handler does on a 2nd signal */
	assert_int_equal(entries(dir), 0);
	outfile_abort(&o);
}

static void touch(const char *dir, const char *name)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
}

/* A writer killed by SIGKILL (no handler runs) leaves its temporary
 * file; the next run's clean-up removes it and nothing else. */
static void killed_writer_cleaned(void **state)
{
	const char *dir = *state;
	char path[256];
	int status;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/k.json", dir);
	touch(dir, "k.json");
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct outfile o;

		if (outfile_open(&o, path) == 0) {
			fputs("partial", o.f);
			fflush(o.f);
			raise(SIGKILL);
		}
		_exit(1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	assert_int_equal(entries(dir), 2);	/* k.json and the orphan */
	assert_int_equal(outfile_clean_stale(path), 1);
	assert_int_equal(entries(dir), 1);
	assert_non_null(slurp(path));
	assert_int_equal(outfile_clean_stale(path), 0);
}

/* Only unlocked files named .NAME.tmp.XXXXXX go: a live writer's
 * temporary file, other files' and other names stay. */
static void live_and_foreign_kept(void **state)
{
	const char *dir = *state;
	char path[256];
	struct outfile live;

	snprintf(path, sizeof(path), "%s/s.json", dir);
	assert_int_equal(outfile_open(&live, path), 0);
	touch(dir, ".s.json.tmp.ABC123");	/* a dead writer's */
	touch(dir, ".other.json.tmp.ABC123");	/* another FILE's */
	touch(dir, ".s.json.tmp.ABC1234");	/* not a mkstemp name */
	touch(dir, "s.json.tmp.ABC123");
	assert_int_equal(entries(dir), 5);
	assert_int_equal(outfile_clean_stale(path), 1);
	assert_int_equal(entries(dir), 4);
	assert_int_equal(access(live.tmp, F_OK), 0);
	/* and the live writer still commits */
	fputs("done\n", live.f);
	assert_int_equal(outfile_commit(&live), 0);
	assert_string_equal(slurp(path), "done\n");
	assert_int_equal(outfile_clean_stale("/nonexistent-dir-gfptop/x.json"), -1);
}

static void bad_directory(void **state)
{
	struct outfile o;

	assert_int_equal(outfile_open(&o, "/nonexistent-dir-gfptop/x.json"), -1);
	assert_null(o.tmp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(commit_replaces, setup, teardown),
		cmocka_unit_test_setup_teardown(abort_leaves_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(signal_abort_removes_temp, setup, teardown),
		cmocka_unit_test_setup_teardown(killed_writer_cleaned, setup, teardown),
		cmocka_unit_test_setup_teardown(live_and_foreign_kept, setup, teardown),
		cmocka_unit_test(bad_directory),
	};
	return cmocka_run_group_tests_name("outfile", tests, NULL, NULL);
}
