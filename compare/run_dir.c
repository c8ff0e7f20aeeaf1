/* See ingest.h: one rep-<N>/ directory of guest/compare into a run. */
#include "ingest.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_get.h"

/* DIR/NAME for reading; NULL if it is not there */
static FILE *open_in(const char *dir, const char *name)
{
	char path[8300];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return fopen(path, "r");
}

/* gfptop.json: one interval a line; the number of lines that parsed */
static int read_intervals(struct results *res, FILE *f, int k, struct run *r)
{
	char *line = NULL;
	size_t cap = 0;
	int lines = 0;

	while (getline(&line, &cap, f) > 0) {
		json_object *o = json_tokener_parse(line);

		if (!o)
			continue;
		add_interval(res, r, k, o);
		json_object_put(o);
		lines++;
	}
	free(line);
	return lines;
}

/* meta.json (gfpcompare-run/1): where and how the run ran */
static void read_meta(json_object *m, struct run *r)
{
	r->rep = (int)jnum(m, "rep");
	jstr(m, "kernel_release", r->release, sizeof(r->release));
	jstr(m, "gfptop_version", r->gfpver, sizeof(r->gfpver));
	jstr(m, "gfptop_sha256", r->sha, sizeof(r->sha));
	jstr(m, "accel", r->accel, sizeof(r->accel));
	jstr(m, "qemu", r->qemu, sizeof(r->qemu));
	r->mem_mb = (int)jnum(m, "guest_mem_mb");
	r->cpus = (int)jnum(m, "cpus");
	r->min_free = (int)jnum(m, "min_free_kbytes");
	r->gfptop_cpu = jnum(m, "gfptop_cpu_s");
	r->maxrss = jnum(m, "gfptop_maxrss_kb");
	r->cmd_wall = jnum(m, "cmd_wall_s");
}

/* zoneinfo: the min watermark of the biggest zone (most managed pages),
 * what check 5 measures margins against when there are no depth counts */
static void read_zoneinfo(FILE *f, struct run *r)
{
	double zmin = 0, best = 0, val;
	char *line = NULL, key[64];
	size_t cap = 0;

	while (getline(&line, &cap, f) > 0) {
		if (sscanf(line, " %63s %lf", key, &val) != 2)
			continue;
		if (!strcmp(key, "min"))
			zmin = val;
		else if (!strcmp(key, "managed") && val > best) {
			best = val;
			r->zmin = zmin;
		}
	}
	free(line);
}

/* the guest kernels have no CONFIG_VM_EVENT_COUNTERS: count the OOM
 * killer's reports in the run's dmesg (only the workload runs there) */
static void count_oom_kills(FILE *f, struct run *r)
{
	char *line = NULL;
	size_t cap = 0;

	while (getline(&line, &cap, f) > 0)
		if (strstr(line, "Out of memory: Killed process"))
			r->oom_kill++;
	free(line);
}

int load_run(struct results *res, const char *dir, int k, struct run *r)
{
	char path[8300];
	json_object *m;
	FILE *f;
	int lines;

	snprintf(path, sizeof(path), "%s/meta.json", dir);
	m = json_object_from_file(path);
	if (!m)
		return -1;
	f = open_in(dir, "gfptop.json");
	if (!f) {
		json_object_put(m);
		return -1;
	}
	lines = read_intervals(res, f, k, r);
	fclose(f);
	read_meta(m, r);
	json_object_put(m);
	f = open_in(dir, "zoneinfo");
	if (f) {
		read_zoneinfo(f, r);
		fclose(f);
	}
	f = open_in(dir, "dmesg");
	if (f) {
		count_oom_kills(f, r);
		fclose(f);
	}
	return lines > 0 ? 0 : -1;
}
