/* See tpformat.h. */
#include "tpformat.h"
#include "cexpr.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *skip_ws(const char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	return p;
}

int tpfmt_table(const char *text, const char *kind, const char *field,
		struct tpfmt_sym *out, int max)
{
	char head[128];
	const char *p;
	int n = 0;

	snprintf(head, sizeof(head), "%s(REC->%s,", kind, field);
	p = strstr(text, head);
	if (!p)
		return -1;
	p += strlen(head);
	/* __print_flags has a delimiter string before the table */
	p = skip_ws(p);
	if (*p == '"') {
		p = strchr(p + 1, '"');
		if (!p)
			return -1;
		p = skip_ws(p + 1);
		if (*p != ',')
			return -1;
		p++;
	}
	for (;;) {
		uint64_t v;
		const char *e;
		size_t len;

		p = skip_ws(p);
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == ')')
			return n;
		if (*p != '{')
			return -1;
		if (cexpr_eval(p + 1, &v, &e) || *e != ',')
			return -1;
		p = skip_ws(e + 1);
		if (*p != '"')
			return -1;
		e = strchr(p + 1, '"');
		if (!e)
			return -1;
		len = e - (p + 1);
		if (n < max) {
			if (len >= TPFMT_NAME_LEN)
				len = TPFMT_NAME_LEN - 1;
			out[n].value = v;
			memcpy(out[n].name, p + 1, len);
			out[n].name[len] = 0;
			n++;
		}
		p = skip_ws(e + 1);
		if (*p != '}')
			return -1;
		p++;
	}
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
