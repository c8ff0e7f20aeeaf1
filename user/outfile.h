/* -o FILE: output goes to a temporary file in FILE's directory and is
 * renamed over FILE only when the run completes, so FILE is either the
 * old one or a complete new one, never half written. The temporary
 * file (.FILE.tmp.XXXXXX) is flock()ed while it is open: a run killed
 * by SIGKILL leaves it behind unlocked, and the next run removes it. */
#ifndef GFPTOP_OUTFILE_H
#define GFPTOP_OUTFILE_H
#include <stdio.h>

struct outfile {
	int dirfd;	/* the directory FILE is replaced in (O_PATH) */
	char *name;	/* FILE's name in it */
	char *tmp;	/* the temporary file's path (for messages), NULL
			 * once committed or aborted */
	char *tmp_name;	/* its name in dirfd, inside tmp */
	FILE *f;
};

/* The kernel resolves PATH, with the rules it applies to any open by
 * this user: a symlink it follows is followed (its target is the file
 * replaced, and the temporary file goes next to the target), one it
 * refuses (fs.protected_symlinks) is refused. PATH must be a regular
 * file or not exist: anything else is refused (EISDIR, EINVAL), never
 * replaced. Returns 0, or -1 with errno set (the message is the
 * caller's). */
int outfile_open(struct outfile *o, const char *path);
/* Before any work is done: can PATH be written? Makes and removes a
 * temporary file. 0, or -1 with one line in MSG saying why not. */
int outfile_check(const char *path, char *msg, size_t len);
/* flush, fsync, rename over path. Returns 0 or -1 (temp removed). */
int outfile_commit(struct outfile *o);
/* close and remove the temporary file. */
void outfile_abort(struct outfile *o);
/* Remove the temporary files of earlier runs for PATH that nobody holds
 * any more (their writer died without cleaning up: SIGKILL, a crash).
 * Files other writers still hold, and every other name, are left alone.
 * Returns how many it removed, or -1 with errno if the directory could
 * not be read. */
int outfile_clean_stale(const char *path);
/* Async-signal-safe: remove the temporary file (for a fatal signal). */
void outfile_abort_signal(const struct outfile *o);

#endif
