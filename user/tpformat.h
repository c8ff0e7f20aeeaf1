/* The symbol tables of a tracepoint format file (tracefs
 * events/SYSTEM/EVENT/format): the entries of
 * __print_flags(REC->FIELD, "|", {value, "NAME"}, ...) and of
 * __print_symbolic(REC->FIELD, {value, "NAME"}, ...). The file is parsed
 * and each value (a C constant expression such as
 * "( unsigned long)((( gfp_t)0x400u) | ...)") evaluated by libtraceevent,
 * the parser perf and trace-cmd use, linked statically; no plugins. */
#ifndef GFPTOP_TPFORMAT_H
#define GFPTOP_TPFORMAT_H
#include <stddef.h>
#include <stdint.h>

#define TPFMT_NAME_LEN 48

struct tpfmt_sym {
	uint64_t value;
	char name[TPFMT_NAME_LEN];
};

/* text: a whole format file; kind: "__print_flags" or
 * "__print_symbolic"; field: e.g. "gfp_flags". Fills up to max entries,
 * in the table's order, and returns how many it filled; -1 if the file
 * does not parse, has no such table, or a value is not a number. */
int tpfmt_table(const char *text, const char *kind, const char *field,
		struct tpfmt_sym *out, int max);

/* Value of NAME in a table; returns 0 and sets *value, or -1 if absent. */
int tpfmt_lookup(const struct tpfmt_sym *syms, int n, const char *name, uint64_t *value);

/* Read a whole (small) file into a malloc'ed NUL-terminated string. */
char *tpfmt_read_file(const char *path);

#endif
