/* Pull the symbol tables out of a tracepoint format file (tracefs
 * events/SYSTEM/EVENT/format): the entries of
 * __print_flags(REC->FIELD, "|", {value, "NAME"}, ...) and of
 * __print_symbolic(REC->FIELD, {value, "NAME"}, ...), with each value
 * being a C constant expression evaluated by cexpr. */
#ifndef GFPTOP_TPFORMAT_H
#define GFPTOP_TPFORMAT_H
#include <stddef.h>
#include <stdint.h>

#define TPFMT_NAME_LEN 48

struct tpfmt_sym {
	uint64_t value;
	char name[TPFMT_NAME_LEN];
};

/* kind: "__print_flags" or "__print_symbolic"; field: e.g. "gfp_flags".
 * Fills up to max entries; returns the number found, or -1 if the table
 * is absent or malformed. */
int tpfmt_table(const char *text, const char *kind, const char *field,
		struct tpfmt_sym *out, int max);

/* Value of NAME in a table; returns 0 and sets *value, or -1 if absent. */
int tpfmt_lookup(const struct tpfmt_sym *syms, int n, const char *name, uint64_t *value);

/* Read a whole (small) file into a malloc'ed NUL-terminated string. */
char *tpfmt_read_file(const char *path);

#endif
