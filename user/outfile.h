/* -o FILE: output goes to a temporary file in FILE's directory and is
 * renamed over FILE only when the run completes, so FILE is either the
 * old one or a complete new one, never half written. */
#ifndef GFPTOP_OUTFILE_H
#define GFPTOP_OUTFILE_H
#include <stdio.h>

struct outfile {
	char *path;	/* final name */
	char *tmp;	/* temporary name, NULL once committed or aborted */
	FILE *f;
};

/* Returns 0, or -1 with errno set (the message is the caller's). */
int outfile_open(struct outfile *o, const char *path);
/* flush, fsync, rename over path. Returns 0 or -1 (temp removed). */
int outfile_commit(struct outfile *o);
/* close and remove the temporary file. */
void outfile_abort(struct outfile *o);
/* Async-signal-safe: remove the temporary file (for a fatal signal). */
void outfile_abort_signal(const struct outfile *o);

#endif
