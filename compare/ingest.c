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

/* the report's two columns: RESULTS/<kernel>/ directories (-k) */
const char *kernels[NK] = { "before", "after" };

struct tier tiers[MAXT];
int ntiers;
struct bucket buckets[MAXB];
int nbuckets;
struct workload *wls;
int nwl;

static struct workload *find_wl(const char *name, int create)
{
	int i;

	for (i = 0; i < nwl; i++)
		if (!strcmp(wls[i].name, name))
			return &wls[i];
	if (!create)
		return NULL;
	wls = xrealloc(wls, sizeof(*wls) * (size_t)(nwl + 1));
	memset(&wls[nwl], 0, sizeof(*wls));
	snprintf(wls[nwl].name, sizeof(wls[nwl].name), "%s", name);
	return &wls[nwl++];
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
void read_workloads(const char *path)
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
		w = find_wl(trim(fld[0]), 1);
		w->mem = atoi(trim(fld[1]));
		snprintf(w->desc, sizeof(w->desc), "%s", trim(fld[3]));
	}
	fclose(f);
}

/* ---- tiers and depth buckets, as the JSON names them ---- */

static int tier_find(const char *name)
{
	int i;

	for (i = 0; i < ntiers; i++)
		if (!strcmp(tiers[i].name, name))
			return i;
	return -1;
}

/* the tier's index, added if new; -1 (and a warning once) when full */
static int tier_index(const char *name)
{
	static int warned;
	int i = tier_find(name), k;

	if (i >= 0)
		return i;
	if (ntiers == MAXT) {
		if (!warned++)
			fprintf(stderr, "gfpcompare: tier '%s' ignored: more than %d tiers\n", name, MAXT);
		return -1;
	}
	memset(&tiers[ntiers], 0, sizeof(tiers[0]));
	tiers[ntiers].name = xstrdup(name);
	tiers[ntiers].gt = tier_from_name(name);
	for (k = 0; k < NK; k++)
		tiers[ntiers].level[k] = -1;
	return ntiers++;
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

static int bucket_index_of(const char *name)
{
	static int warned;
	int i;

	for (i = 0; i < nbuckets; i++)
		if (!strcmp(buckets[i].name, name))
			return i;
	if (nbuckets == MAXB || strlen(name) >= sizeof(buckets[0].name)) {
		if (!warned++)
			fprintf(stderr, "gfpcompare: depth bucket '%s' ignored: more than %d buckets\n", name, MAXB);
		return -1;
	}
	snprintf(buckets[nbuckets].name, sizeof(buckets[0].name), "%s", name);
	parse_bucket(name, &buckets[nbuckets].lo, &buckets[nbuckets].hi);
	return nbuckets++;
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
static void add_tier_info(int k, json_object *o)
{
	json_object *x = jobj(o, "tier_values");

	json_object_object_foreach(asobj(x), vname, vv) {
		int ti = tier_index(vname);
		long long v;

		if (ti < 0 || !vv || !json_object_is_type(vv, json_type_int))
			continue;
		v = json_object_get_int64(vv);
		/* the same name should have the same value on every run of a
		 * kernel; keep the smallest if not */
		if (!tiers[ti].hasval[k] || v < tiers[ti].val[k])
			tiers[ti].val[k] = v;
		tiers[ti].hasval[k] = 1;
	}
	x = jobj(o, "tier_meaning");
	json_object_object_foreach(asobj(x), mname, mv) {
		int ti = tier_index(mname);

		if (ti < 0 || tiers[ti].meaning[k] || !mv || !json_object_is_type(mv, json_type_string))
			continue;
		tiers[ti].meaning[k] = xstrdup(json_object_get_string(mv));
	}
}

static void add_interval(struct run *r, int k, json_object *o)
{
	json_object *t = jobj(o, "tiers"), *x, *ha;
	double sum = 0;

	if (!r->intervals)
		jstr(o, "schema", r->schema, sizeof(r->schema));
	r->intervals++;
	r->secs += jnum(o, "interval_s");
	add_tier_info(k, o);
	json_object_object_foreach(asobj(t), tname, tv) {
		int ti = tier_index(tname);

		if (ti < 0)
			continue;
		r->td[ti].cnt += jnum(tv, "count");
		r->td[ti].pages += jnum(tv, "pages");
		r->total += jnum(tv, "count");
	}
	x = jobj(o, "tier_gfp_class");
	json_object_object_foreach(asobj(x), cname, cv) {
		int ti = tier_index(cname);

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
		int ti = tier_index(xname);

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
		int ti = tier_index(oname);

		if (ti < 0)
			continue;
		json_object_object_foreach(asobj(ov), ord, ordv) {
			if (strcmp(ord, "0"))
				r->td[ti].hiord += jnum(ordv, "count");
		}
	}
	x = jobj(o, "margin_histograms");
	json_object_object_foreach(asobj(x), hname, hv) {
		int ti = tier_index(hname);
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
		int ti = tier_index(dname);

		if (ti < 0)
			continue;
		json_object_object_foreach(asobj(dv), bname, bv) {
			int bi = bucket_index_of(bname);

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
			int ti = tier_index(pname);

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

static int load_run(const char *dir, int k, struct run *r)
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
		add_interval(r, k, o);
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

static void load_dirs(const char *root)
{
	int k;

	for (k = 0; k < NK; k++) {
		char kdir[4096];
		struct dirent *de;
		DIR *d;

		snprintf(kdir, sizeof(kdir), "%s/%s", root, kernels[k]);
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
			w = find_wl(de->d_name, 1);
			for (i = 0; i < nn; i++) {
				char rdir[8192];
				struct group *g = &w->g[k];
				struct run *r = xrealloc(NULL, sizeof(*r));

				snprintf(rdir, sizeof(rdir), "%s/%s", wdir, names[i]);
				memset(r, 0, sizeof(*r));
				if (load_run(rdir, k, r) < 0) {
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

static int cmp_bucket(const void *a, const void *b)
{
	const struct bucket *x = &buckets[*(const int *)a], *y = &buckets[*(const int *)b];

	if (isnan(x->hi) != isnan(y->hi))
		return isnan(x->hi) ? 1 : -1;
	if (!isnan(x->hi) && x->hi != y->hi)
		return x->hi > y->hi ? -1 : 1;
	return *(const int *)a - *(const int *)b;
}

/* Order the tiers by the kernel's enum value (tiers without one, e.g.
 * "unknown", last, in gfptop's order, then as first seen) and the depth buckets from shallow to
 * deep; permute every run's per-tier data to match; find each tier's level. */
static void order_tiers(void)
{
	struct sortkey key[MAXT];
	struct tier old[MAXT];
	int tperm[MAXT], bperm[MAXB], i, j, k, b;

	for (i = 0; i < ntiers; i++) {
		key[i].idx = i;
		key[i].hasval = 0;
		key[i].gfptop = tiers[i].gt;
		for (k = NK - 1; k >= 0; k--) {
			if (tiers[i].hasval[k] && (!key[i].hasval || tiers[i].val[k] < key[i].val)) {
				key[i].val = tiers[i].val[k];
				key[i].hasval = 1;
			}
		}
	}
	qsort(key, (size_t)ntiers, sizeof(key[0]), cmp_tier);
	for (i = 0; i < ntiers; i++)
		tperm[i] = key[i].idx;
	for (b = 0; b < nbuckets; b++)
		bperm[b] = b;
	qsort(bperm, (size_t)nbuckets, sizeof(bperm[0]), cmp_bucket);

	memcpy(old, tiers, sizeof(old));
	for (i = 0; i < ntiers; i++)
		tiers[i] = old[tperm[i]];
	{
		struct bucket ob[MAXB];

		memcpy(ob, buckets, sizeof(ob));
		for (b = 0; b < nbuckets; b++)
			buckets[b] = ob[bperm[b]];
	}
	for (i = 0; i < nwl; i++) {
		for (k = 0; k < NK; k++) {
			for (j = 0; j < wls[i].g[k].n; j++) {
				struct run *r = &wls[i].g[k].runs[j];
				struct tierrun otd[MAXT];
				int t;

				memcpy(otd, r->td, sizeof(otd));
				for (t = 0; t < ntiers; t++) {
					r->td[t] = otd[tperm[t]];
					for (b = 0; b < nbuckets; b++)
						r->td[t].depth[b] = otd[tperm[t]].depth[bperm[b]];
				}
			}
		}
	}
	for (i = 0; i < ntiers; i++)
		for (k = 0; k < NK; k++)
			find_level(&tiers[i], k);
}

int load_results(const char *root)
{
	int i;

	load_dirs(root);
	/* drop workloads of the list that have no results */
	for (i = 0; i < nwl;) {
		if (!wls[i].g[0].n && !wls[i].g[1].n && !wls[i].g[0].failed && !wls[i].g[1].failed) {
			memmove(&wls[i], &wls[i + 1], sizeof(*wls) * (size_t)(nwl - i - 1));
			nwl--;
		} else {
			i++;
		}
	}
	order_tiers();
	return nwl;
}

int tier_of(int gt)
{
	int t;

	for (t = 0; t < ntiers; t++)
		if (tiers[t].gt == gt)
			return t;
	return -1;
}

int is_reserve(int t)
{
	return tiers[t].gt != GT_NONE;
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
