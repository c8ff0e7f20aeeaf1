/* See outfile.h. */
#define _GNU_SOURCE
#include "outfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* FILE's directory and the prefix of its temporary files, ".BASE.tmp.";
 * both malloc'ed, or -1 */
static int tmp_prefix(const char *path, char **dir, char **prefix)
{
	char *d = strdup(path), *b = strdup(path);
	int rc = -1;

	*dir = *prefix = NULL;
	if (d && b && asprintf(prefix, ".%s.tmp.", basename(b)) >= 0) {
		*dir = strdup(dirname(d));
		rc = *dir ? 0 : -1;
	}
	free(d);
	free(b);
	if (rc) {
		free(*prefix);
		*prefix = NULL;
	}
	return rc;
}

/* A new temporary file for TMPL (...XXXXXX), locked: the lock says a
 * live writer owns it (outfile_clean_stale). A cleaner may unlink the
 * file between mkstemp and flock; then it has no name left, so make
 * another. Returns the fd, or -1 with errno. */
static int create_locked(char *tmpl)
{
	size_t len = strlen(tmpl);

	for (int tries = 0; tries < 8; tries++) {
		struct stat st;
		int fd;

		memcpy(tmpl + len - 6, "XXXXXX", 6);
		fd = mkstemp(tmpl);
		if (fd < 0)
			return -1;
		if (flock(fd, LOCK_EX | LOCK_NB) == 0 && fstat(fd, &st) == 0 && st.st_nlink > 0)
			return fd;
		close(fd);
	}
	errno = EAGAIN;
	return -1;
}

/*
 * The name to rename over, malloc'ed in *out: PATH itself if nothing is
 * there yet, the file a symlink leads to (renaming over the link would
 * replace the link, not write its target), and only ever a regular file:
 * a rename over /dev/null would put a regular file in the device's place.
 * -1 with errno and, for a refused target, *why.
 */
static int resolve_target(const char *path, char **out, const char **why)
{
	struct stat st;

	*out = NULL;
	*why = NULL;
	if (lstat(path, &st)) {
		if (errno != ENOENT)
			return -1;
		*out = strdup(path);
		return *out ? 0 : -1;
	}
	if (S_ISLNK(st.st_mode)) {
		*out = realpath(path, NULL);
		if (!*out) {
			if (errno == ENOENT)
				*why = "a symlink to a file that does not exist";
			return -1;
		}
		if (stat(*out, &st))
			goto fail;
	} else {
		*out = strdup(path);
		if (!*out)
			return -1;
	}
	if (S_ISREG(st.st_mode))
		return 0;
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		*why = "a directory";
	} else {
		errno = EINVAL;
		*why = "not a regular file (a device, pipe or socket): gfptop replaces FILE "
		       "by a rename, so -o is for regular files; redirect stdout instead";
	}
fail:
	free(*out);
	*out = NULL;
	return -1;
}

int outfile_check(const char *path, char *msg, size_t len)
{
	struct outfile o;
	const char *why;
	char *target;

	if (resolve_target(path, &target, &why)) {
		if (why)
			snprintf(msg, len, "-o %s: %s", path, why);
		else
			snprintf(msg, len, "-o %s: %s", path, strerror(errno));
		return -1;
	}
	free(target);
	/* the directory must take a temporary file: make one, remove it */
	if (outfile_open(&o, path)) {
		snprintf(msg, len, "-o %s: cannot create a temporary file next to it: %s", path,
			 strerror(errno));
		return -1;
	}
	outfile_abort(&o);
	return 0;
}

int outfile_open(struct outfile *o, const char *path)
{
	char *dir, *prefix;
	const char *why;
	int fd, e;

	memset(o, 0, sizeof(*o));
	if (resolve_target(path, &o->path, &why))
		return -1;
	/* same directory as the target, so rename() is atomic */
	if (tmp_prefix(o->path, &dir, &prefix))
		goto fail;
	if (asprintf(&o->tmp, "%s/%sXXXXXX", dir, prefix) < 0)
		o->tmp = NULL;
	free(dir);
	free(prefix);
	if (!o->tmp)
		goto fail;
	fd = create_locked(o->tmp);
	if (fd < 0)
		goto fail;
	/* mkstemp makes it 0600; give it the mode a plain open would */
	mode_t um = umask(0);
	umask(um);
	fchmod(fd, 0666 & ~um);
	o->f = fdopen(fd, "w");
	if (!o->f) {
		e = errno;
		unlink(o->tmp);
		close(fd);
		errno = e;
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
	/* rename while the file is still open and locked: once closed, a
	 * starting run could take it for a dead run's and remove it */
	if (!rc && rename(o->tmp, o->path))
		rc = -1, e = errno;
	if (rc)
		unlink(o->tmp);
	if (fclose(o->f) && !rc)
		rc = -1, e = errno;
	o->f = NULL;
	free(o->tmp);
	o->tmp = NULL;
	free(o->path);
	o->path = NULL;
	errno = e;
	return rc;
}

void outfile_abort(struct outfile *o)
{
	if (o->tmp)
		unlink(o->tmp);
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	free(o->tmp);
	o->tmp = NULL;
	free(o->path);
	o->path = NULL;
}

/* Remove DIR/NAME if no writer holds its lock; the name is checked to
 * still be the file that was locked. 1 if removed, else 0. */
static int remove_if_unlocked(int dirfd, const char *name)
{
	struct stat held, now;
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	int removed = 0;

	if (fd < 0)
		return 0;
	if (fstat(fd, &held) == 0 && S_ISREG(held.st_mode) &&
	    flock(fd, LOCK_EX | LOCK_NB) == 0 &&
	    fstatat(dirfd, name, &now, AT_SYMLINK_NOFOLLOW) == 0 &&
	    now.st_dev == held.st_dev && now.st_ino == held.st_ino)
		removed = unlinkat(dirfd, name, 0) == 0;
	close(fd);	/* drops the lock */
	return removed;
}

int outfile_clean_stale(const char *path)
{
	char *dir, *prefix;
	struct dirent *de;
	DIR *d;
	int n = 0;
	size_t plen;
	const char *why;
	char *target;

	/* the temporary files are next to the file a symlink leads to */
	if (resolve_target(path, &target, &why))
		return -1;
	n = tmp_prefix(target, &dir, &prefix);
	free(target);
	if (n)
		return -1;
	d = opendir(dir);
	free(dir);
	if (!d) {
		free(prefix);
		return -1;
	}
	plen = strlen(prefix);
	/* only mkstemp's names for this FILE: the prefix and six characters */
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, prefix, plen) && strlen(de->d_name) == plen + 6)
			n += remove_if_unlocked(dirfd(d), de->d_name);
	closedir(d);
	free(prefix);
	return n;
}

void outfile_abort_signal(const struct outfile *o)
{
	if (o->tmp)
		unlink(o->tmp);
}
