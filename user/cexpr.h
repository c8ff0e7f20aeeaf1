/* Tiny evaluator for the constant C expressions tracefs prints in a
 * format file's "print fmt" (flag tables): hex/decimal literals with
 * u/l suffixes, casts such as "( unsigned long)" and "(__force gfp_t)",
 * parentheses, "~", "&", "|" (and "^", "<<", ">>" for good measure). */
#ifndef GFPTOP_CEXPR_H
#define GFPTOP_CEXPR_H
#include <stdint.h>

/* Evaluate the expression starting at s. On success returns 0, stores the
 * value (as an unsigned long would hold it) in *val and the first
 * character after the expression in *end (a ',' '}' or end of string at
 * nesting depth 0 stops it). On error returns -1 and *end points at the
 * offending character. */
int cexpr_eval(const char *s, uint64_t *val, const char **end);

#endif
