/* Atomic -o output: complete file on commit, nothing on abort, the old
 * file untouched until the rename, no temporary left behind; a SIGKILLed
 * writer's temporary file removed by the next run, a live one's not; a
 * symlink's target written, a hard link's other name untouched, and a
 * device, FIFO or directory never replaced. (Another user's symlink
 * that fs.protected_symlinks refuses is tested in the guest, where the
 * sysctl can be set: tests/gfptop/guest-o.sh.) */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "outfile.h"
#include "tmpdir.h"

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

/* -o link: the link stays a link, its target gets the contents, and
 * the temporary file was next to the target, not the link */
static void symlink_writes_target(void **state)
{
	const char *dir = *state;
	char sub[128], target[256], link[256], buf[256];
	struct outfile o;
	ssize_t n;

	snprintf(sub, sizeof(sub), "%s/real", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(target, sizeof(target), "%s/t.json", sub);
	touch(sub, "t.json");
	snprintf(link, sizeof(link), "%s/link.json", dir);
	assert_int_equal(symlink(target, link), 0);

	assert_int_equal(outfile_open(&o, link), 0);
	assert_int_equal(strncmp(o.tmp, sub, strlen(sub)), 0);
	fputs("via link\n", o.f);
	assert_int_equal(outfile_commit(&o), 0);
	n = readlink(link, buf, sizeof(buf) - 1);
	assert_true(n > 0);
	buf[n] = 0;
	assert_string_equal(buf, target);
	assert_string_equal(slurp(target), "via link\n");
	assert_int_equal(entries(sub), 1);
	assert_int_equal(outfile_clean_stale(link), 0);
}

/* -o NAME where NAME is a hard link: the name given is replaced, the
 * file's other name keeps its contents; a new name ending in '/' is
 * refused, not made a file */
static void hardlink_name_replaced(void **state)
{
	const char *dir = *state;
	char other[256], name[256], slash[256], msg[256];
	struct outfile o;

	snprintf(other, sizeof(other), "%s/other", dir);
	snprintf(name, sizeof(name), "%s/hl.json", dir);
	FILE *f = fopen(other, "w");
	assert_non_null(f);
	fputs("old\n", f);
	fclose(f);
	assert_int_equal(link(other, name), 0);
	assert_int_equal(outfile_open(&o, name), 0);
	fputs("new\n", o.f);
	assert_int_equal(outfile_commit(&o), 0);
	assert_string_equal(slurp(other), "old\n");
	assert_string_equal(slurp(name), "new\n");
	assert_int_equal(entries(dir), 2);

	snprintf(slash, sizeof(slash), "%s/newdir/", dir);
	assert_int_equal(outfile_check(slash, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "directory"));
	assert_int_equal(entries(dir), 2);
}

/* what rename() must never replace: a device, a FIFO, a directory, and
 * a symlink to nothing; each refused with one line saying what it is */
static void non_regular_refused(void **state)
{
	const char *dir = *state;
	char fifo[256], sub[256], dangling[256], msg[256];
	struct stat st;
	struct outfile o;

	assert_int_equal(outfile_open(&o, "/dev/null"), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(outfile_check("/dev/null", msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "not a regular file"));
	assert_int_equal(stat("/dev/null", &st), 0);
	assert_true(S_ISCHR(st.st_mode));

	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(outfile_check(fifo, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "not a regular file"));

	snprintf(sub, sizeof(sub), "%s/d", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	assert_int_equal(outfile_open(&o, sub), -1);
	assert_int_equal(errno, EISDIR);
	assert_int_equal(outfile_check(sub, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "a directory"));

	snprintf(dangling, sizeof(dangling), "%s/dangling", dir);
	assert_int_equal(symlink("/nonexistent-dir-gfptop/x", dangling), 0);
	assert_int_equal(outfile_check(dangling, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "does not exist"));
	/* nothing was made or replaced: fifo, d, dangling */
	assert_int_equal(entries(dir), 3);
	assert_int_equal(lstat(fifo, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
}

/* the check a run makes before attaching: a new file in a writable
 * directory passes and leaves nothing behind; a missing directory fails */
static void check_before_work(void **state)
{
	const char *dir = *state;
	char path[256], msg[256];

	snprintf(path, sizeof(path), "%s/new.json", dir);
	assert_int_equal(outfile_check(path, msg, sizeof(msg)), 0);
	assert_int_equal(entries(dir), 0);
	assert_int_equal(outfile_check("/nonexistent-dir-gfptop/x.json", msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "No such file or directory"));
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
		cmocka_unit_test_setup_teardown(symlink_writes_target, setup, teardown),
		cmocka_unit_test_setup_teardown(non_regular_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(hardlink_name_replaced, setup, teardown),
		cmocka_unit_test_setup_teardown(check_before_work, setup, teardown),
	};
	return cmocka_run_group_tests_name("outfile", tests, NULL, NULL);
}
