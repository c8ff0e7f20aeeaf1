/* See outfile.h. */
#define _GNU_SOURCE
#include "outfile.h"

#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int outfile_open(struct outfile *o, const char *path)
{
	char *dup = strdup(path), *dir, *base;
	int fd, e;

	memset(o, 0, sizeof(*o));
	if (!dup)
		return -1;
	/* same directory as the target, so rename() is atomic */
	dir = dirname(dup);
	base = basename((char *)path);
	if (asprintf(&o->tmp, "%s/.%s.tmp.XXXXXX", dir, base) < 0) {
		o->tmp = NULL;
		free(dup);
		return -1;
	}
	free(dup);
	o->path = strdup(path);
	fd = mkstemp(o->tmp);
	if (fd < 0 || !o->path)
		goto fail;
	/* mkstemp makes it 0600; give it the mode a plain open would */
	mode_t um = umask(0);
	umask(um);
	fchmod(fd, 0666 & ~um);
	o->f = fdopen(fd, "w");
	if (!o->f) {
		close(fd);
		unlink(o->tmp);
		goto fail;
	}
	return 0;
fail:
	e = errno;
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
	errno = e;
	return -1;
}

int outfile_commit(struct outfile *o)
{
	int rc = 0, e = 0;

	if (!o->tmp)
		return -1;
	if (fflush(o->f) || fsync(fileno(o->f)))
		rc = -1, e = errno;
	if (fclose(o->f) && !rc)
		rc = -1, e = errno;
	o->f = NULL;
	if (!rc && rename(o->tmp, o->path))
		rc = -1, e = errno;
	if (rc)
		unlink(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
	free(o->path);
	o->path = NULL;
	errno = e;
	return rc;
}

void outfile_abort(struct outfile *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
	free(o->path);
	o->path = NULL;
}

void outfile_abort_signal(const struct outfile *o)
{
	if (o->tmp)
		unlink(o->tmp);
}
