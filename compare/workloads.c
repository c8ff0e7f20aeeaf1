/* See ingest.h: the workloads of the results, found by name, in the
 * order of the workload list (-w) where there is one. */
#include "ingest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

struct workload *find_wl(struct results *res, const char *name, int create)
{
	int i;

	for (i = 0; i < res->nwl; i++)
		if (!strcmp(res->wls[i].name, name))
			return &res->wls[i];
	if (!create)
		return NULL;
	res->wls = xrealloc(res->wls, sizeof(*res->wls) * (size_t)(res->nwl + 1));
	memset(&res->wls[res->nwl], 0, sizeof(*res->wls));
	snprintf(res->wls[res->nwl].name, sizeof(res->wls[res->nwl].name), "%s", name);
	return &res->wls[res->nwl++];
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n'))
		*--e = 0;
	return s;
}

/* name|mem|set|description|command: names and descriptions, file order */
void read_workloads(struct results *res, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[4096];

	if (!f)
		die("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char *fld[5], *p = line, *s;
		struct workload *w;
		int i;

		s = trim(line);
		if (!*s || *s == '#')
			continue;
		for (i = 0; i < 5; i++) {
			fld[i] = p;
			p = i < 4 ? strchr(p, '\t') : NULL;
			if (i < 4 && !p)
				break;
			if (p)
				*p++ = 0;
		}
		if (i < 5)
			continue;
		w = find_wl(res, trim(fld[0]), 1);
		w->mem = atoi(trim(fld[1]));
		snprintf(w->desc, sizeof(w->desc), "%s", trim(fld[3]));
	}
	fclose(f);
}

/* some run of the workload had this section in its JSON */
int wl_has(const struct workload *w, int pcp)
{
	int k, i;

	for (k = 0; k < NK; k++)
		for (i = 0; i < w->g[k].n; i++)
			if (pcp ? w->g[k].runs[i].has_pcp : w->g[k].runs[i].has_depth)
				return 1;
	return 0;
}
