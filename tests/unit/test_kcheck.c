/* Kernel checks on BTF files, never the running kernel's: a file that is
 * there but is not BTF is said so in one line, apart from one that
 * cannot be read. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <bpf/btf.h>

#include "kcheck.h"

static char msg[512];

static void invalid_btf_file(void **state)
{
	char path[] = "/tmp/gfptop-btf-XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "not BTF at all\n", 15), 15);
	close(fd);
	msg[0] = 0;
	assert_null(kcheck_load_btf_file(path, msg, sizeof(msg)));
	unlink(path);
	assert_non_null(strstr(msg, "is not valid BTF"));
	assert_non_null(strstr(msg, path));
	assert_null(strchr(msg, '\n'));
}

static void missing_btf_file(void **state)
{
	assert_null(kcheck_load_btf_file("/nonexistent-gfptop/vmlinux", msg, sizeof(msg)));
	assert_non_null(strstr(msg, "cannot read kernel BTF"));
	assert_non_null(strstr(msg, "No such file or directory"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(invalid_btf_file),
		cmocka_unit_test(missing_btf_file),
	};
	return cmocka_run_group_tests_name("kcheck", tests, NULL, NULL);
}
