/* JSON results -> runs in memory (runs.h): the gfptop -j lines,
 * meta.json, zoneinfo and dmesg of every run guest/compare left, laid
 * out as RESULTS/<kernel>/<workload>/rep-<N>/. A run without meta.json or
 * without a JSON line counts as failed. This file walks the directories;
 * ingest.h lists the files that read what is in them. */
#include "ingest.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "levels.h"
#include "util.h"

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the rep-<N> entries of a workload directory, sorted; their number */
static int rep_names(const char *wdir, char ***names)
{
	struct dirent *re;
	DIR *rd = opendir(wdir);
	int nn = 0;

	*names = NULL;
	if (!rd)
		return -1;
	while ((re = readdir(rd))) {
		if (strncmp(re->d_name, "rep-", 4))
			continue;
		*names = xrealloc(*names, sizeof(**names) * (size_t)(nn + 1));
		(*names)[nn++] = xstrdup(re->d_name);
	}
	closedir(rd);
	qsort(*names, (size_t)nn, sizeof(**names), cmp_name);
	return nn;
}

/* a run into the group: used, or counted as failed */
static void add_run(struct results *res, struct group *g, const char *rdir, int k)
{
	struct run *r = xrealloc(NULL, sizeof(*r));

	memset(r, 0, sizeof(*r));
	if (load_run(res, rdir, k, r) < 0) {
		g->failed++;
	} else {
		if (g->n == g->cap) {
			g->cap = g->cap ? 2 * g->cap : 8;
			g->runs = xrealloc(g->runs, sizeof(*g->runs) * (size_t)g->cap);
		}
		g->runs[g->n++] = *r;
	}
	free(r);
}

/* KDIR/WORKLOAD/rep-<N>/ of kernel k, in rep order */
static void load_workload(struct results *res, const char *kdir, const char *name, int k)
{
	char wdir[4096 + 256];
	struct workload *w;
	char **names;
	int nn, i;

	snprintf(wdir, sizeof(wdir), "%s/%s", kdir, name);
	nn = rep_names(wdir, &names);
	if (nn < 0)
		return;
	w = find_wl(res, name, 1);
	for (i = 0; i < nn; i++) {
		char rdir[8192];

		snprintf(rdir, sizeof(rdir), "%s/%s", wdir, names[i]);
		add_run(res, &w->g[k], rdir, k);
		free(names[i]);
	}
	free(names);
}

static void load_dirs(struct results *res, const char *root)
{
	int k;

	for (k = 0; k < NK; k++) {
		char kdir[4096];
		struct dirent *de;
		DIR *d;

		snprintf(kdir, sizeof(kdir), "%s/%s", root, res->kernels[k]);
		d = opendir(kdir);
		if (!d)
			continue;
		while ((de = readdir(d)))
			if (de->d_name[0] != '.')
				load_workload(res, kdir, de->d_name, k);
		closedir(d);
	}
}

struct results *load_results(const char *root, const char *const kernels[NK], const char *workloads)
{
	struct results *res = xrealloc(NULL, sizeof(*res));
	int i, k;

	memset(res, 0, sizeof(*res));
	for (i = 0; i < NK; i++)
		res->kernels[i] = kernels[i];
	if (workloads)
		read_workloads(res, workloads);
	load_dirs(res, root);
	/* drop workloads of the list that have no results */
	for (i = 0; i < res->nwl;) {
		if (!res->wls[i].g[0].n && !res->wls[i].g[1].n && !res->wls[i].g[0].failed && !res->wls[i].g[1].failed) {
			memmove(&res->wls[i], &res->wls[i + 1], sizeof(*res->wls) * (size_t)(res->nwl - i - 1));
			res->nwl--;
		} else {
			i++;
		}
	}
	order_tiers(res);
	for (i = 0; i < res->ntiers; i++)
		for (k = 0; k < NK; k++)
			find_level(&res->tiers[i], res->rules[k], k);
	return res;
}

void free_results(struct results *res)
{
	int i, k;

	for (i = 0; i < res->nwl; i++)
		for (k = 0; k < NK; k++)
			free(res->wls[i].g[k].runs);
	for (i = 0; i < res->ntiers; i++) {
		free(res->tiers[i].name);
		for (k = 0; k < NK; k++)
			free(res->tiers[i].meaning[k]);
	}
	free(res->wls);
	free(res);
}
