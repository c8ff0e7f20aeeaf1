/* What every part of gfpcompare needs: dying with a message, memory that
 * cannot fail, and output files written atomically under the report
 * directory. */
#ifndef GFPCOMPARE_UTIL_H
#define GFPCOMPARE_UTIL_H
#include <stddef.h>
#include <stdio.h>

/* "gfpcompare: ..." on stderr, exit 1 */
void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* the report directory (-o); every output file goes there */
extern const char *outdir;

/* Open outdir/.NAME.tmp for writing (its path into tmp); dies on error. */
FILE *open_tmp(const char *name, char *tmp, size_t n);
/* Close it and rename it to outdir/NAME; dies on error. */
void close_rename(FILE *f, const char *tmp, const char *name);

#endif
