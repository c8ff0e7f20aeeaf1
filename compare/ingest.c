/* JSON results -> runs in memory (runs.h): the gfptop -j lines,
 * meta.json, zoneinfo and dmesg of every run guest/compare left, laid
 * out as RESULTS/<kernel>/<workload>/rep-<N>/. A run without meta.json or
 * without a JSON line counts as failed. */
#include "runs.h"

#include <dirent.h>
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levels.h"
#include "util.h"

static struct workload *find_wl(struct results *res, const char *name, int create)
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
static void read_workloads(struct results *res, const char *path)
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

/* ---- tiers and depth buckets, as the JSON names them ---- */

static int tier_find(const struct results *res, const char *name)
{
	int i;

	for (i = 0; i < res->ntiers; i++)
		if (!strcmp(res->tiers[i].name, name))
			return i;
	return -1;
}

/* the tier's index, added if new; -1 (and a warning once) when full */
static int tier_index(struct results *res, const char *name)
{
	static int warned;
	int i = tier_find(res, name), k;

	if (i >= 0)
		return i;
	if (res->ntiers == MAXT) {
		if (!warned++)
			fprintf(stderr, "gfpcompare: tier '%s' ignored: more than %d tiers\n", name, MAXT);
		return -1;
	}
	memset(&res->tiers[res->ntiers], 0, sizeof(res->tiers[0]));
	res->tiers[res->ntiers].name = xstrdup(name);
	res->tiers[res->ntiers].gt = tier_from_name(name);
	for (k = 0; k < NK; k++)
		res->tiers[res->ntiers].level[k] = -1;
	return res->ntiers++;
}

/* ">100%", "75-100%", "<=25%": the bounds in % of min; NAN if not */
static void parse_bucket(const char *s, double *lo, double *hi)
{
	char *end;
	double a, b;

	*lo = *hi = NAN;
	if (s[0] == '>') {
		a = strtod(s + 1, &end);
		if (end != s + 1 && *end == '%') {
			*lo = a;
			*hi = INFINITY;
		}
	} else if (s[0] == '<' && s[1] == '=') {
		a = strtod(s + 2, &end);
		if (end != s + 2 && *end == '%') {
			*lo = -INFINITY;
			*hi = a;
		}
	} else {
		a = strtod(s, &end);
		if (end != s && *end == '-') {
			const char *p = end + 1;

			b = strtod(p, &end);
			if (end != p && *end == '%') {
				*lo = a;
				*hi = b;
			}
		}
	}
}

static int bucket_index_of(struct results *res, const char *name)
{
	static int warned;
	int i;

	for (i = 0; i < res->nbuckets; i++)
		if (!strcmp(res->buckets[i].name, name))
			return i;
	if (res->nbuckets == MAXB || strlen(name) >= sizeof(res->buckets[0].name)) {
		if (!warned++)
			fprintf(stderr, "gfpcompare: depth bucket '%s' ignored: more than %d buckets\n", name, MAXB);
		return -1;
	}
	snprintf(res->buckets[res->nbuckets].name, sizeof(res->buckets[0].name), "%s", name);
	parse_bucket(name, &res->buckets[res->nbuckets].lo, &res->buckets[res->nbuckets].hi);
	return res->nbuckets++;
}

/* index of a gfp class or context name in gfptop's table (common/names.c);
 * a name this gfpcompare does not know is left out, said once */
static int known_name(const char *const *names, int n, const char *what, const char *name)
{
	static char warned[8][48];
	int i = names_index(names, n, name), w;

	if (i >= 0)
		return i;
	for (w = 0; w < 8 && warned[w][0]; w++)
		if (!strcmp(warned[w], name))
			return -1;
	if (w < 8)
		snprintf(warned[w], sizeof(warned[w]), "%s", name);
	fprintf(stderr, "gfpcompare: %s '%s' is not in gfptop's names (common/names.c): left out\n",
		what, name);
	return -1;
}

static double jnum(json_object *o, const char *key)
{
	json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v))
		return 0;
	return json_object_get_double(v);
}

static json_object *jobj(json_object *o, const char *key)
{
	json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

static void jstr(json_object *o, const char *key, char *buf, size_t len)
{
	json_object *v = jobj(o, key);

	snprintf(buf, len, "%s", v ? json_object_get_string(v) : "?");
}

/* o if it is an object, else an empty one: json-c's foreach dereferences
 * what it is given, and older or damaged JSON may lack a section */
static json_object *asobj(json_object *o)
{
	static json_object *empty;

	if (json_object_is_type(o, json_type_object))
		return o;
	if (!empty)
		empty = json_object_new_object();
	return empty;
}

/* margin bucket -> index: 0 for {0,0}, k+1 for [2^k, 2^(k+1)-1], -(k+1) below */
static int bucket_index(long long low, long long high)
{
	long long v;
	int k = 0;

	if (low == 0 && high == 0)
		return 0;
	v = low > 0 ? low : -high;
	while (v > 1 && k < 63) {
		v >>= 1;
		k++;
	}
	return low > 0 ? k + 1 : -(k + 1);
}

/* the tier names and enum values, and what each tier permits on this kernel */
static void add_tier_info(struct results *res, int k, json_object *o)
{
	json_object *x = jobj(o, "tier_values");

	json_object_object_foreach(asobj(x), vname, vv) {
		int ti = tier_index(res, vname);
		long long v;

		if (ti < 0 || !vv || !json_object_is_type(vv, json_type_int))
			continue;
		v = json_object_get_int64(vv);
		/* the same name should have the same value on every run of a
		 * kernel; keep the smallest if not */
		if (!res->tiers[ti].hasval[k] || v < res->tiers[ti].val[k])
			res->tiers[ti].val[k] = v;
		res->tiers[ti].hasval[k] = 1;
	}
	x = jobj(o, "tier_meaning");
	json_object_object_foreach(asobj(x), mname, mv) {
		int ti = tier_index(res, mname);

		if (ti < 0 || res->tiers[ti].meaning[k] || !mv || !json_object_is_type(mv, json_type_string))
			continue;
		res->tiers[ti].meaning[k] = xstrdup(json_object_get_string(mv));
	}
}

static void add_interval(struct results *res, struct run *r, int k, json_object *o)
{
	json_object *t = jobj(o, "tiers"), *x, *ha;
	double sum = 0;

	if (!r->intervals)
		jstr(o, "schema", r->schema, sizeof(r->schema));
	r->intervals++;
	r->secs += jnum(o, "interval_s");
	add_tier_info(res, k, o);
	json_object_object_foreach(asobj(t), tname, tv) {
		int ti = tier_index(res, tname);

		if (ti < 0)
			continue;
		r->td[ti].cnt += jnum(tv, "count");
		r->td[ti].pages += jnum(tv, "pages");
		r->total += jnum(tv, "count");
	}
	x = jobj(o, "tier_gfp_class");
	json_object_object_foreach(asobj(x), cname, cv) {
		int ti = tier_index(res, cname);

		if (ti < 0)
			continue;
		json_object_object_foreach(asobj(cv), clname, clv) {
			int ci = known_name(gfp_class_names, GFPC_NR, "gfp class", clname);

			if (ci >= 0)
				r->td[ti].cls[ci] += jnum(clv, "count");
		}
	}
	x = jobj(o, "tier_context");
	json_object_object_foreach(asobj(x), xname, xv) {
		int ti = tier_index(res, xname);

		if (ti < 0)
			continue;
		json_object_object_foreach(asobj(xv), ctxname, ctxv) {
			int ci = known_name(context_names, GC_NR, "context", ctxname);

			if (ci >= 0)
				r->td[ti].ctx[ci] += jnum(ctxv, "count");
		}
	}
	x = jobj(o, "tier_order");
	json_object_object_foreach(asobj(x), oname, ov) {
		int ti = tier_index(res, oname);

		if (ti < 0)
			continue;
		json_object_object_foreach(asobj(ov), ord, ordv) {
			if (strcmp(ord, "0"))
				r->td[ti].hiord += jnum(ordv, "count");
		}
	}
	x = jobj(o, "margin_histograms");
	json_object_object_foreach(asobj(x), hname, hv) {
		int ti = tier_index(res, hname);
		size_t i, n;

		if (ti < 0 || !json_object_is_type(hv, json_type_array))
			continue;
		n = json_object_array_length(hv);
		for (i = 0; i < n; i++) {
			json_object *b = json_object_array_get_idx(hv, i);
			int bi = bucket_index((long long)jnum(b, "low"), (long long)jnum(b, "high"));

			if (bi < -64)
				bi = -64;
			if (bi > 64)
				bi = 64;
			r->td[ti].hist[bi + 64] += jnum(b, "count");
		}
	}
	/* depth: {tier: {bucket: count}} */
	x = jobj(o, "depth_histograms");
	if (x)
		r->has_depth = 1;
	json_object_object_foreach(asobj(x), dname, dv) {
		int ti = tier_index(res, dname);

		if (ti < 0)
			continue;
		json_object_object_foreach(asobj(dv), bname, bv) {
			int bi = bucket_index_of(res, bname);

			if (bi >= 0)
				r->td[ti].depth[bi] += bv ? json_object_get_double(bv) : 0;
		}
	}
	/* highatomic pageblock pages handed out from per-cpu lists */
	x = jobj(o, "pcp_highatomic");
	if (x) {
		json_object *pt = jobj(x, "tiers");

		r->has_pcp = 1;
		r->pcp_cnt += jnum(x, "count");
		r->pcp_pages += jnum(x, "pages");
		json_object_object_foreach(asobj(pt), pname, pv) {
			int ti = tier_index(res, pname);

			if (ti < 0)
				continue;
			r->td[ti].pcp_cnt += jnum(pv, "count");
			r->td[ti].pcp_pages += jnum(pv, "pages");
		}
	}
	ha = jobj(o, "highatomic");
	r->ha_res += jnum(ha, "reserve");
	r->ha_unres += jnum(ha, "unreserve");
	r->ha_forced += jnum(ha, "unreserve_forced");
	x = jobj(ha, "zones");
	json_object_object_foreach(asobj(x), zname, zv) {
		(void)zname;
		sum += jnum(zv, "nr_reserved_max");
	}
	if (sum > r->ha_max)
		r->ha_max = sum;
	r->rfail += jnum(jobj(o, "reserve_fail"), "count");
	r->lost += jnum(jobj(o, "lost"), "process_map_full") + jnum(jobj(o, "lost"), "gfp_map_full");
}

static int load_run(struct results *res, const char *dir, int k, struct run *r)
{
	char path[8300], *line = NULL;
	size_t cap = 0;
	json_object *m;
	FILE *f;
	int lines = 0;

	snprintf(path, sizeof(path), "%s/meta.json", dir);
	m = json_object_from_file(path);
	if (!m)
		return -1;
	snprintf(path, sizeof(path), "%s/gfptop.json", dir);
	f = fopen(path, "r");
	if (!f) {
		json_object_put(m);
		return -1;
	}
	while (getline(&line, &cap, f) > 0) {
		json_object *o = json_tokener_parse(line);

		if (!o)
			continue;
		add_interval(res, r, k, o);
		json_object_put(o);
		lines++;
	}
	free(line);
	line = NULL;
	cap = 0;
	fclose(f);
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
	json_object_put(m);
	/* zoneinfo: the min watermark of the biggest zone */
	snprintf(path, sizeof(path), "%s/zoneinfo", dir);
	f = fopen(path, "r");
	if (f) {
		double zmin = 0, best = 0;
		char key[64];
		double val;

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
		line = NULL;
		cap = 0;
		fclose(f);
	}
	/* the guest kernels have no CONFIG_VM_EVENT_COUNTERS: count the OOM
	 * killer's reports in the run's dmesg (only the workload runs there) */
	snprintf(path, sizeof(path), "%s/dmesg", dir);
	f = fopen(path, "r");
	if (f) {
		while (getline(&line, &cap, f) > 0)
			if (strstr(line, "Out of memory: Killed process"))
				r->oom_kill++;
		free(line);
		fclose(f);
	}
	return lines > 0 ? 0 : -1;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
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
		while ((de = readdir(d))) {
			char wdir[4096 + 256];
			struct workload *w;
			struct dirent *re;
			char **names = NULL;
			int nn = 0, i;
			DIR *rd;

			if (de->d_name[0] == '.')
				continue;
			snprintf(wdir, sizeof(wdir), "%s/%s", kdir, de->d_name);
			rd = opendir(wdir);
			if (!rd)
				continue;
			while ((re = readdir(rd))) {
				if (strncmp(re->d_name, "rep-", 4))
					continue;
				names = xrealloc(names, sizeof(*names) * (size_t)(nn + 1));
				names[nn++] = xstrdup(re->d_name);
			}
			closedir(rd);
			qsort(names, (size_t)nn, sizeof(*names), cmp_name);
			w = find_wl(res, de->d_name, 1);
			for (i = 0; i < nn; i++) {
				char rdir[8192];
				struct group *g = &w->g[k];
				struct run *r = xrealloc(NULL, sizeof(*r));

				snprintf(rdir, sizeof(rdir), "%s/%s", wdir, names[i]);
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
				free(names[i]);
			}
			free(names);
		}
		closedir(d);
	}
}

struct sortkey {
	int idx;
	long long val;
	int hasval;
	int gfptop; /* index in gfptop's tier table (common/names.c); -1 not there */
};

static int cmp_tier(const void *a, const void *b)
{
	const struct sortkey *x = a, *y = b;

	if (x->hasval != y->hasval)
		return x->hasval ? -1 : 1;
	if (x->hasval && x->val != y->val)
		return x->val < y->val ? -1 : 1;
	/* no kernel value: gfptop's order, then names gfptop does not know */
	if ((x->gfptop >= 0) != (y->gfptop >= 0))
		return x->gfptop >= 0 ? -1 : 1;
	if (x->gfptop != y->gfptop)
		return x->gfptop - y->gfptop;
	return x->idx - y->idx; /* first seen first */
}

/* a bucket and where it was first seen */
struct bucketkey {
	struct bucket b;
	int idx;
};

static int cmp_bucket(const void *a, const void *b)
{
	const struct bucketkey *x = a, *y = b;

	if (isnan(x->b.hi) != isnan(y->b.hi))
		return isnan(x->b.hi) ? 1 : -1;
	if (!isnan(x->b.hi) && x->b.hi != y->b.hi)
		return x->b.hi > y->b.hi ? -1 : 1;
	return x->idx - y->idx;
}

/* Order the tiers by the kernel's enum value (tiers without one, e.g.
 * "unknown", last, in gfptop's order, then as first seen) and the depth buckets from shallow to
 * deep; permute every run's per-tier data to match; find each tier's level. */
static void order_tiers(struct results *res)
{
	struct sortkey key[MAXT];
	struct tier old[MAXT];
	struct bucketkey bkey[MAXB];
	int tperm[MAXT], bperm[MAXB], i, j, k, b;

	for (i = 0; i < res->ntiers; i++) {
		key[i].idx = i;
		key[i].hasval = 0;
		key[i].gfptop = res->tiers[i].gt;
		for (k = NK - 1; k >= 0; k--) {
			if (res->tiers[i].hasval[k] && (!key[i].hasval || res->tiers[i].val[k] < key[i].val)) {
				key[i].val = res->tiers[i].val[k];
				key[i].hasval = 1;
			}
		}
	}
	qsort(key, (size_t)res->ntiers, sizeof(key[0]), cmp_tier);
	for (i = 0; i < res->ntiers; i++)
		tperm[i] = key[i].idx;
	for (b = 0; b < res->nbuckets; b++) {
		bkey[b].b = res->buckets[b];
		bkey[b].idx = b;
	}
	qsort(bkey, (size_t)res->nbuckets, sizeof(bkey[0]), cmp_bucket);

	memcpy(old, res->tiers, sizeof(old));
	for (i = 0; i < res->ntiers; i++)
		res->tiers[i] = old[tperm[i]];
	for (b = 0; b < res->nbuckets; b++) {
		res->buckets[b] = bkey[b].b;
		bperm[b] = bkey[b].idx;
	}
	for (i = 0; i < res->nwl; i++) {
		for (k = 0; k < NK; k++) {
			for (j = 0; j < res->wls[i].g[k].n; j++) {
				struct run *r = &res->wls[i].g[k].runs[j];
				struct tierrun otd[MAXT];
				int t;

				memcpy(otd, r->td, sizeof(otd));
				for (t = 0; t < res->ntiers; t++) {
					r->td[t] = otd[tperm[t]];
					for (b = 0; b < res->nbuckets; b++)
						r->td[t].depth[b] = otd[tperm[t]].depth[bperm[b]];
				}
			}
		}
	}
	for (i = 0; i < res->ntiers; i++)
		for (k = 0; k < NK; k++)
			find_level(&res->tiers[i], k);
}

struct results *load_results(const char *root, const char *const kernels[NK], const char *workloads)
{
	struct results *res = xrealloc(NULL, sizeof(*res));
	int i;

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

int tier_of(const struct results *res, int gt)
{
	int t;

	for (t = 0; t < res->ntiers; t++)
		if (res->tiers[t].gt == gt)
			return t;
	return -1;
}

int is_reserve(const struct results *res, int t)
{
	return res->tiers[t].gt != GT_NONE;
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
