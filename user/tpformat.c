/* See tpformat.h. */
#include "tpformat.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>

/* The __print_flags/__print_symbolic of FIELD anywhere in the print fmt
 * arguments: they sit inside operators ("(REC->gfp_flags) ?
 * __print_flags(...) : \"none\""), casts and function arguments. */
static struct tep_print_arg *find_table(struct tep_print_arg *a, enum tep_print_arg_type type,
					const char *field)
{
	for (; a; a = a->next) {
		struct tep_print_arg *f = NULL, *sub[2] = { NULL, NULL }, *r;

		switch (a->type) {
		case TEP_PRINT_FLAGS:
			f = a->flags.field;
			break;
		case TEP_PRINT_SYMBOL:
			f = a->symbol.field;
			break;
		case TEP_PRINT_OP:
			sub[0] = a->op.left;
			sub[1] = a->op.right;
			break;
		case TEP_PRINT_TYPE:
			sub[0] = a->typecast.item;
			break;
		case TEP_PRINT_FUNC:
			sub[0] = a->func.args;
			break;
		default:
			break;
		}
		if (a->type == type && f && f->type == TEP_PRINT_FIELD && f->field.name &&
		    !strcmp(f->field.name, field))
			return a;
		for (int i = 0; i < 2; i++)
			if (sub[i] && (r = find_table(sub[i], type, field)))
				return r;
	}
	return NULL;
}

/* libtraceevent keeps each value as text: the literal as written
 * ("0x1u") or the evaluated expression in decimal, negative when bit 63
 * is set (strtoull takes that back to the same 64 bits). */
static bool parse_value(const char *s, uint64_t *v)
{
	char *end;

	if (!s || !*s)
		return false;
	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || end == s)
		return false;
	end += strspn(end, "uUlL");
	return *end == 0;
}

int tpfmt_table(const char *text, const char *kind, const char *field,
		struct tpfmt_sym *out, int max)
{
	enum tep_print_arg_type type;
	struct tep_print_flag_sym *s;
	struct tep_print_arg *table;
	struct tep_handle *tep;
	struct tep_event *event;
	int n = -1;

	if (!strcmp(kind, "__print_flags"))
		type = TEP_PRINT_FLAGS;
	else if (!strcmp(kind, "__print_symbolic"))
		type = TEP_PRINT_SYMBOL;
	else
		return -1;
	/* its parse errors would go to stderr: the caller says what failed */
	tep_set_loglevel(TEP_LOG_NONE);
	tep = tep_alloc();
	if (!tep)
		return -1;
	if (tep_parse_event(tep, text, strlen(text), "tpformat") != 0)
		goto out;
	event = tep_get_event(tep, 0);
	if (!event || (event->flags & TEP_EVENT_FL_FAILED))
		goto out;
	table = find_table(event->print_fmt.args, type, field);
	if (!table)
		goto out;
	n = 0;
	for (s = type == TEP_PRINT_FLAGS ? table->flags.flags : table->symbol.symbols; s;
	     s = s->next) {
		uint64_t v;

		if (!parse_value(s->value, &v) || !s->str) {
			n = -1;
			goto out;
		}
		if (n < max) {
			out[n].value = v;
			snprintf(out[n].name, TPFMT_NAME_LEN, "%s", s->str);
		}
		n++;
	}
	if (n > max)
		n = max;
out:
	tep_free(tep);
	return n;
}

int tpfmt_lookup(const struct tpfmt_sym *syms, int n, const char *name, uint64_t *value)
{
	for (int i = 0; i < n; i++) {
		if (!strcmp(syms[i].name, name)) {
			*value = syms[i].value;
			return 0;
		}
	}
	return -1;
}

char *tpfmt_read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, got;

	if (!f)
		return NULL;
	/* tracefs files report size 0: read until EOF */
	do {
		if (cap - len < 4096) {
			char *nb = realloc(buf, cap + 8192);

			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
			cap += 8192;
		}
		got = fread(buf + len, 1, cap - len - 1, f);
		len += got;
	} while (got > 0);
	fclose(f);
	buf[len] = 0;
	return buf;
}
