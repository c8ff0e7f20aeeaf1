/* For the unit tests of files: a fresh directory per test (cmocka
 * setup/teardown, the path in *state) and how many entries it has.
 * Include after cmocka.h. */
#ifndef GFPTOP_TEST_TMPDIR_H
#define GFPTOP_TEST_TMPDIR_H
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static int setup(void **state)
{
	char *dir = strdup("/tmp/gfptop-unit-XXXXXX");

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

#endif
