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
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

/* Where FILE is to be replaced: a directory the kernel's own walk
 * opened, and a name in it. */
struct target {
	int dirfd;	/* O_PATH */
	char *dir;	/* the directory's path, for messages */
	char *name;
};

static void target_free(struct target *t)
{
	if (t->dirfd >= 0)
		close(t->dirfd);
	free(t->dir);
	free(t->name);
	t->dirfd = -1;
	t->dir = t->name = NULL;
}

/* PATH split into T's directory (opened O_PATH: the kernel walks it,
 * with its symlink rules) and name. 0, or -1 with errno. */
static int target_at(const char *path, struct target *t)
{
	char *d = strdup(path), *b = strdup(path);

	if (d && b) {
		t->dir = strdup(dirname(d));
		t->name = strdup(basename(b));
	}
	free(d);
	free(b);
	if (!t->dir || !t->name) {
		errno = ENOMEM;
		return -1;
	}
	t->dirfd = open(t->dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return t->dirfd < 0 ? -1 : 0;
}

/* The path of what FD (O_PATH) is open on: the kernel's own name for it
 * (/proc), or, without /proc, realpath() of PATH; the caller checks
 * that the name found is still FD's file. malloc'ed, or NULL. */
static char *opened_path(int fd, const char *path)
{
	char link[64], buf[4096];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, sizeof(buf) - 1);
	if (n > 0 && buf[0] == '/') {
		buf[n] = 0;
		return strdup(buf);
	}
	return realpath(path, NULL);
}

/* Why the kernel refused to open PATH (errno E): a symlink it would not
 * follow is named as such; else NULL (strerror says it). */
static const char *refusal(const char *path, int e)
{
	struct stat st;

	if (lstat(path, &st) || !S_ISLNK(st.st_mode))
		return NULL;
	if (e == ENOENT)
		return "a symlink to a file that does not exist";
	if (e == EACCES)
		return "a symlink the kernel will not follow for this user "
		       "(fs.protected_symlinks: another user's link in a sticky "
		       "world-writable directory); refused";
	return NULL;
}

/* What may be replaced, only ever a regular file: a rename over
 * /dev/null would put a regular file in the device's place. */
static int regular_only(const struct stat *st, const char **why)
{
	if (S_ISREG(st->st_mode))
		return 0;
	if (S_ISDIR(st->st_mode)) {
		errno = EISDIR;
		*why = "a directory";
	} else {
		errno = EINVAL;
		*why = "not a regular file (a device, pipe or socket): gfptop replaces FILE "
		       "by a rename, so -o is for regular files; redirect stdout instead";
	}
	return -1;
}

/*
 * Where PATH is replaced. The kernel resolves PATH (an O_PATH open, so
 * fs.protected_symlinks and every other rule of its walk apply to a
 * root gfptop as to `echo >PATH`), and gfptop works from what it
 * opened: a symlink's target is the file replaced, in the target's
 * directory (renaming over the link would replace the link, not write
 * its target), and the name it renames over must be, when checked, the
 * very file the kernel opened. Nothing there yet: PATH's name in PATH's
 * directory. -1 with errno and, for a refused target, *why.
 */
static int resolve_target(const char *path, struct target *t, const char **why)
{
	struct stat st, at;
	char *real = NULL;
	int fd, rc = -1, e;

	memset(t, 0, sizeof(*t));
	t->dirfd = -1;
	*why = NULL;
	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		*why = refusal(path, e);
		errno = e;
		if (e != ENOENT || *why)
			return -1;
		if (path[0] && path[strlen(path) - 1] == '/') {
			*why = "names a directory that does not exist";
			return -1;
		}
		return target_at(path, t) ? (target_free(t), -1) : 0;
	}
	if (fstat(fd, &st) || regular_only(&st, why))
		goto out;
	if (lstat(path, &at))
		goto out;
	/* A symlink: its target's directory, by the kernel's name for what
	 * it opened. Anything else: PATH's directory by PATH's own words,
	 * not by that name: the kernel applies fs.protected_symlinks only
	 * to a walk's last component, so opening "/tmp/link" here is what
	 * refuses another user's link to a directory in /tmp/link/FILE,
	 * which the open of PATH itself let through. */
	if (S_ISLNK(at.st_mode) && !(real = opened_path(fd, path)))
		goto out;
	if (target_at(real ? real : path, t))
		goto out;
	if (fstatat(t->dirfd, t->name, &at, AT_SYMLINK_NOFOLLOW) ||
	    at.st_dev != st.st_dev || at.st_ino != st.st_ino) {
		errno = ESTALE;
		*why = "changed while gfptop resolved it; refused";
		goto out;
	}
	rc = 0;
out:
	e = errno;
	if (rc)
		target_free(t);
	free(real);
	close(fd);
	errno = e;
	return rc;
}

/* mkstemp's six characters, in DIRFD: O_EXCL and O_NOFOLLOW, so the
 * name is always a new file of ours. */
static int create_at(int dirfd, char *name6)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	size_t len = strlen(name6);

	for (int tries = 0; tries < 100; tries++) {
		unsigned char r[6];
		int fd;

		if (getrandom(r, sizeof(r), 0) != sizeof(r))
			return -1;
		for (int i = 0; i < 6; i++)
			name6[len - 6 + i] = set[r[i] % (sizeof(set) - 1)];
		fd = openat(dirfd, name6, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	errno = EEXIST;
	return -1;
}

/* A new temporary file, locked: the lock says a live writer owns it
 * (outfile_clean_stale). A cleaner may unlink the file between its
 * creation and flock; then it has no name left, so make another.
 * Returns the fd, or -1 with errno. */
static int create_locked(int dirfd, char *name6)
{
	for (int tries = 0; tries < 8; tries++) {
		struct stat st;
		int fd = create_at(dirfd, name6);

		if (fd < 0)
			return -1;
		if (flock(fd, LOCK_EX | LOCK_NB) == 0 && fstat(fd, &st) == 0 && st.st_nlink > 0)
			return fd;
		close(fd);
	}
	errno = EAGAIN;
	return -1;
}

static void outfile_free(struct outfile *o)
{
	if (o->name)	/* set with dirfd: a zeroed outfile holds no fd */
		close(o->dirfd);
	free(o->name);
	free(o->tmp);
	memset(o, 0, sizeof(*o));
	o->dirfd = -1;
}

/* outfile_open(), saying why it failed: -1 (*why set, or errno) when
 * PATH is refused or cannot be resolved, -2 (errno) when no temporary
 * file could be made beside its target. */
static int open_temp(struct outfile *o, const char *path, const char **why)
{
	struct target t;
	int fd, e;

	memset(o, 0, sizeof(*o));
	o->dirfd = -1;
	if (resolve_target(path, &t, why))
		return -1;
	/* the target's directory, so renameat() is atomic */
	o->dirfd = t.dirfd;
	o->name = t.name;
	if (asprintf(&o->tmp, "%s/.%s.tmp.XXXXXX", t.dir, t.name) < 0)
		o->tmp = NULL;
	free(t.dir);
	if (!o->tmp) {
		errno = ENOMEM;
		goto fail;
	}
	o->tmp_name = strrchr(o->tmp, '/') + 1;
	fd = create_locked(o->dirfd, o->tmp_name);
	if (fd < 0)
		goto fail;
	/* created 0600; give it the mode a plain open would */
	mode_t um = umask(0);
	umask(um);
	fchmod(fd, 0666 & ~um);
	o->f = fdopen(fd, "w");
	if (!o->f) {
		e = errno;
		unlinkat(o->dirfd, o->tmp_name, 0);
		close(fd);
		errno = e;
		goto fail;
	}
	return 0;
fail:
	e = errno;
	outfile_free(o);
	errno = e;
	return -2;
}

int outfile_open(struct outfile *o, const char *path)
{
	const char *why;

	return open_temp(o, path, &why) ? -1 : 0;
}

int outfile_check(const char *path, char *msg, size_t len)
{
	struct outfile o;
	const char *why = NULL;
	int rc = open_temp(&o, path, &why);

	if (rc == -1)
		snprintf(msg, len, "-o %s: %s", path, why ? why : strerror(errno));
	else if (rc)	/* the directory must take a temporary file */
		snprintf(msg, len, "-o %s: cannot create a temporary file next to it: %s", path,
			 strerror(errno));
	else
		outfile_abort(&o);
	return rc ? -1 : 0;
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
	if (!rc && renameat(o->dirfd, o->tmp_name, o->dirfd, o->name))
		rc = -1, e = errno;
	if (rc)
		unlinkat(o->dirfd, o->tmp_name, 0);
	if (fclose(o->f) && !rc)
		rc = -1, e = errno;
	o->f = NULL;
	outfile_free(o);
	errno = e;
	return rc;
}

void outfile_abort(struct outfile *o)
{
	if (o->tmp)
		unlinkat(o->dirfd, o->tmp_name, 0);
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	outfile_free(o);
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
	struct dirent *de;
	struct target t;
	const char *why;
	char *prefix;
	size_t plen;
	int fd, n = 0;
	DIR *d;

	/* the temporary files are next to the file a symlink leads to */
	if (resolve_target(path, &t, &why))
		return -1;
	fd = openat(t.dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	d = fd < 0 ? NULL : fdopendir(fd);
	if (!d || asprintf(&prefix, ".%s.tmp.", t.name) < 0) {
		if (d)
			closedir(d);
		else if (fd >= 0)
			close(fd);
		target_free(&t);
		return -1;
	}
	plen = strlen(prefix);
	/* only the names create_at() makes for this FILE: the prefix and
	 * six characters */
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, prefix, plen) && strlen(de->d_name) == plen + 6)
			n += remove_if_unlocked(t.dirfd, de->d_name);
	closedir(d);
	free(prefix);
	target_free(&t);
	return n;
}

void outfile_abort_signal(const struct outfile *o)
{
	if (o->tmp)
		unlinkat(o->dirfd, o->tmp_name, 0);
}
