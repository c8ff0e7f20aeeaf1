/* gfpcompare: before/after report from the gfptop -j results of
 * guest/compare, in the style of mmtests' compare-kernels.
 *
 *   gfpcompare [-w WORKLOADS] [-o OUTDIR] [-a ALPHA] RESULTS
 *
 * RESULTS/<kernel>/<workload>/rep-<N>/ holds gfptop.json (gfptop -j lines),
 * meta.json (guest/compare-guest.sh) and host.json (guest/compare). Writes
 * OUTDIR/report.md, OUTDIR/report.html, OUTDIR/summary.json and, if
 * gnuplot is found, OUTDIR/tiers.png, OUTDIR/reserve.png,
 * OUTDIR/depth-<workload>.png and OUTDIR/margins-<workload>.png. Every file
 * is written to a temporary name and renamed. See docs/compare.md.
 *
 * Nothing about the tiers is built in but their colours and, for JSON
 * without "tier_meaning", the levels of kernel-patches/README.md: the
 * tiers are the keys the runs' JSON has, in the order of the kernel's
 * enum ("tier_values"), and the depth buckets are the keys of
 * "depth_histograms", ordered by the share of min they stand for. */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "stats.h"

#define MAXT 16 /* tiers (gfptop has 16 slots) */
#define MAXB 12 /* depth buckets (gfptop has 7) */
#define NCLS 6
#define NCTX 3
#define HB 129 /* margin buckets -64..64 */
#define NK 2

static const char *const cls_names[NCLS] = { "GFP_ATOMIC", "GFP_NOWAIT", "GFP_KERNEL",
	"GFP_NOFS_NOIO", "GFP_USER", "other" };
static const char *const ctx_names[NCTX] = { "task", "softirq", "hardirq" };
static const char *const kernels[NK] = { "before", "after" };

/* one tier, as the runs' JSON names it */
struct tier {
	char *name;
	long long val[NK]; /* tier_values: the kernel's enum value */
	int hasval[NK];
	char *meaning[NK]; /* tier_meaning, first seen; NULL if absent */
	double level[NK];  /* % of min the level must leave free; < 0: not a level */
	int level_json[NK]; /* level read from tier_meaning (else built in) */
};

static struct tier tiers[MAXT];
static int ntiers;
/* indices of the tiers the report's checks name; -1 if absent */
static int t_none = -1, t_non_block = -1, t_min_reserve = -1, t_mrnb = -1, t_oom = -1;

/* one depth bucket: free pages as a share of min, lo < free <= hi (%) */
struct bucket {
	char name[32];
	double lo, hi; /* NAN if the name does not parse */
};

static struct bucket buckets[MAXB];
static int nbuckets;

/* per run and tier */
struct tierrun {
	double cnt, pages, hiord, cls[NCLS], ctx[NCTX];
	double hist[HB];
	double depth[MAXB];
	double pcp_cnt, pcp_pages; /* highatomic pageblock pages via pcp, at this watermark tier */
};

struct run {
	int rep;
	struct tierrun td[MAXT];
	double total, secs, intervals;
	double ha_res, ha_unres, ha_forced, ha_max;
	double rfail, lost, pcp_cnt, pcp_pages;
	int has_depth, has_pcp; /* the JSON had depth_histograms, pcp_highatomic */
	double zmin; /* min watermark (pages) of the zone with most managed pages; 0 unknown */
	double oom_kill, gfptop_cpu, maxrss, cmd_wall;
	char release[80], gfpver[64], sha[40], accel[16], qemu[96], schema[40];
	int mem_mb, cpus, min_free;
};

struct group {
	struct run *runs;
	int n, cap, failed;
};

struct workload {
	char name[64], desc[512];
	int mem;
	struct group g[NK];
};

static struct workload *wls;
static int nwl;
static double alpha = 0.05;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("gfpcompare: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		die("out of memory");
	return p;
}

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
static void read_workloads(const char *path)
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
			p = i < 4 ? strchr(p, '|') : NULL;
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
	tiers[ntiers].name = strdup(name);
	if (!tiers[ntiers].name)
		die("out of memory");
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

static int name_index(const char *const *names, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return i;
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
		tiers[ti].meaning[k] = strdup(json_object_get_string(mv));
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
			int ci = name_index(cls_names, NCLS, clname);

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
			int ci = name_index(ctx_names, NCTX, ctxname);

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

static void load_results(const char *root)
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
				names[nn++] = strdup(re->d_name);
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

/* What each level lets free pages go down to, in % of the unboosted min,
 * per kernel: kernel-patches/README.md ("How the tier is defined"). Used
 * only when the JSON has no tier_meaning (gfptop-interval/1). */
static const struct {
	const char *name;
	double level[NK];
} builtin_levels[] = {
	{ "none", { 100, 100 } },
	{ "non_block", { 75, 100 } },
	{ "min_reserve", { 50, 50 } },
	{ "min_reserve_non_block", { 37.5, 37.5 } },
	{ "oom", { 50, 50 } },
};

/* "ALLOC_MIN_RESERVE: > 50% of min" -> 50; -1 if the meaning names no level */
static double parse_level(const char *m)
{
	const char *p;

	for (p = m; (p = strstr(p, "> ")); p += 2) {
		char *end;
		double v = strtod(p + 2, &end);

		if (end != p + 2 && !strncmp(end, "% of min", 8))
			return v;
	}
	return -1;
}

struct sortkey {
	int idx;
	long long val;
	int hasval;
};

static int cmp_tier(const void *a, const void *b)
{
	const struct sortkey *x = a, *y = b;

	if (x->hasval != y->hasval)
		return x->hasval ? -1 : 1;
	if (x->hasval && x->val != y->val)
		return x->val < y->val ? -1 : 1;
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
 * "unknown", last, as first seen) and the depth buckets from shallow to
 * deep; permute every run's per-tier data to match; find each tier's level. */
static void order_tiers(void)
{
	struct sortkey key[MAXT];
	struct tier old[MAXT];
	int tperm[MAXT], bperm[MAXB], i, j, k, b;

	for (i = 0; i < ntiers; i++) {
		key[i].idx = i;
		key[i].hasval = 0;
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
	for (i = 0; i < ntiers; i++) {
		for (k = 0; k < NK; k++) {
			tiers[i].level[k] = -1;
			if (tiers[i].meaning[k]) {
				tiers[i].level[k] = parse_level(tiers[i].meaning[k]);
				tiers[i].level_json[k] = 1;
				continue;
			}
			for (j = 0; j < (int)(sizeof(builtin_levels) / sizeof(builtin_levels[0])); j++)
				if (!strcmp(builtin_levels[j].name, tiers[i].name))
					tiers[i].level[k] = builtin_levels[j].level[k];
		}
	}
	t_none = tier_find("none");
	t_non_block = tier_find("non_block");
	t_min_reserve = tier_find("min_reserve");
	t_mrnb = tier_find("min_reserve_non_block");
	t_oom = tier_find("oom");
}

static int is_reserve(int t)
{
	return t != t_none;
}

/* ---- metrics ---- */

typedef double (*getter)(const struct run *r, int arg);

static double g_total(const struct run *r, int a) { return r->total; }
static double g_rate(const struct run *r, int a) { return r->secs > 0 ? r->total / r->secs : 0; }
static double g_count(const struct run *r, int t) { return t >= 0 ? r->td[t].cnt : 0; }
static double g_share(const struct run *r, int t)
{
	return r->total > 0 ? 100 * g_count(r, t) / r->total : 0;
}
static double g_hiord(const struct run *r, int t) { return t >= 0 ? r->td[t].hiord : 0; }
static double g_blocking(const struct run *r, int t)
{
	return t >= 0 ? r->td[t].cls[2] + r->td[t].cls[3] + r->td[t].cls[4] : 0;
}
static double g_reserve(const struct run *r, int a)
{
	return r->total - g_count(r, t_none);
}
static double g_reserve_share(const struct run *r, int a)
{
	return r->total > 0 ? 100 * g_reserve(r, 0) / r->total : 0;
}
static double g_res_cls(const struct run *r, int c)
{
	double s = 0;
	int t;

	for (t = 0; t < ntiers; t++)
		if (is_reserve(t))
			s += r->td[t].cls[c];
	return s;
}
static double g_res_ctx(const struct run *r, int c)
{
	double s = 0;
	int t;

	for (t = 0; t < ntiers; t++)
		if (is_reserve(t))
			s += r->td[t].ctx[c];
	return s;
}
static double g_res_hiord(const struct run *r, int a)
{
	double s = 0;
	int t;

	for (t = 0; t < ntiers; t++)
		if (is_reserve(t))
			s += r->td[t].hiord;
	return s;
}
static double g_below(const struct run *r, int a)
{
	/* allocations satisfied with free pages below the checked watermark */
	double s = 0;
	int t, b;

	for (t = 0; t < ntiers; t++)
		for (b = 0; b < 64; b++)
			s += r->td[t].hist[b];
	return s;
}
static double g_ha_res(const struct run *r, int a) { return r->ha_res; }
static double g_ha_unres(const struct run *r, int a) { return r->ha_unres; }
static double g_ha_max(const struct run *r, int a) { return r->ha_max; }
static double g_rfail(const struct run *r, int a) { return r->rfail; }
static double g_pcp_pages(const struct run *r, int a) { return r->pcp_pages; }
static double g_oom(const struct run *r, int a) { return r->oom_kill; }
static double g_lost(const struct run *r, int a) { return r->lost; }
static double g_cpu(const struct run *r, int a) { return r->gfptop_cpu; }

#define PCP_ROW "highatomic pages used without the right, via pcp"
#define RFAIL_ROW "failed allocations with a reserve right (reserve_fail)"

struct row {
	char label[96];
	struct stats_summary s[NK];
	struct stats_welch w;
	int tested;
	double *v[NK];
};

static void values(const struct group *g, getter f, int arg, double *out)
{
	int i;

	for (i = 0; i < g->n; i++)
		out[i] = f(&g->runs[i], arg);
}

/* compute one row; returns 0 if both kernels are all zero (row omitted
 * unless keep) */
static int make_row(const struct workload *w, struct row *row, const char *label, getter f,
		    int arg, int keep)
{
	int k, nz = 0, i;

	memset(row, 0, sizeof(*row));
	snprintf(row->label, sizeof(row->label), "%s", label);
	for (k = 0; k < NK; k++) {
		row->v[k] = xrealloc(NULL, sizeof(double) * (size_t)(w->g[k].n + 1));
		values(&w->g[k], f, arg, row->v[k]);
		stats_summarize(row->v[k], w->g[k].n, &row->s[k]);
		for (i = 0; i < w->g[k].n; i++)
			nz |= row->v[k][i] != 0;
	}
	row->tested = stats_welch_test(row->v[0], w->g[0].n, row->v[1], w->g[1].n, &row->w) == 0;
	if (!nz && !keep) {
		free(row->v[0]);
		free(row->v[1]);
		return 0;
	}
	return 1;
}

struct rowset {
	struct row *r;
	int n;
};

static void rs_add(struct rowset *rs, const struct workload *w, const char *label, getter f,
		   int arg, int keep)
{
	struct row row;

	if (!make_row(w, &row, label, f, arg, keep))
		return;
	rs->r = xrealloc(rs->r, sizeof(*rs->r) * (size_t)(rs->n + 1));
	rs->r[rs->n++] = row;
}

/* some run of the workload had this section in its JSON */
static int wl_has(const struct workload *w, int pcp)
{
	int k, i;

	for (k = 0; k < NK; k++)
		for (i = 0; i < w->g[k].n; i++)
			if (pcp ? w->g[k].runs[i].has_pcp : w->g[k].runs[i].has_depth)
				return 1;
	return 0;
}

static void build_rows(const struct workload *w, struct rowset *rs)
{
	char lab[96];
	int t, c;

	rs->r = NULL;
	rs->n = 0;
	rs_add(rs, w, "allocations (events)", g_total, 0, 1);
	rs_add(rs, w, "allocations/s", g_rate, 0, 1);
	for (t = 0; t < ntiers; t++) {
		snprintf(lab, sizeof(lab), "%% %s", tiers[t].name);
		rs_add(rs, w, lab, g_share, t, t == t_none);
	}
	rs_add(rs, w, "% reserve (all but none)", g_reserve_share, 0, 1);
	for (t = 0; t < ntiers; t++) {
		if (!is_reserve(t))
			continue;
		snprintf(lab, sizeof(lab), "%s allocs", tiers[t].name);
		rs_add(rs, w, lab, g_count, t, 0);
	}
	for (t = 0; t < ntiers; t++) {
		if (!is_reserve(t))
			continue;
		snprintf(lab, sizeof(lab), "%s allocs order>0", tiers[t].name);
		rs_add(rs, w, lab, g_hiord, t, 0);
	}
	rs_add(rs, w, "reserve allocs", g_reserve, 0, 1);
	for (c = 0; c < NCLS; c++) {
		snprintf(lab, sizeof(lab), "reserve %s", cls_names[c]);
		rs_add(rs, w, lab, g_res_cls, c, 0);
	}
	for (c = 1; c < NCTX; c++) {
		snprintf(lab, sizeof(lab), "reserve in %s", ctx_names[c]);
		rs_add(rs, w, lab, g_res_ctx, c, 0);
	}
	rs_add(rs, w, "reserve order>0", g_res_hiord, 0, 0);
	rs_add(rs, w, "allocs below checked mark", g_below, 0, 1);
	rs_add(rs, w, "highatomic reserve events", g_ha_res, 0, 1);
	rs_add(rs, w, "highatomic unreserve events", g_ha_unres, 0, 0);
	rs_add(rs, w, "highatomic max reserved (pages)", g_ha_max, 0, 1);
	/* kept even when zero, where gfptop reported it */
	rs_add(rs, w, PCP_ROW, g_pcp_pages, 0, wl_has(w, 1));
	rs_add(rs, w, RFAIL_ROW, g_rfail, 0, 1);
	rs_add(rs, w, "OOM kills (dmesg)", g_oom, 0, 1);
	rs_add(rs, w, "lost events (gfptop maps)", g_lost, 0, 1);
	rs_add(rs, w, "gfptop CPU s (with start-up)", g_cpu, 0, 1);
}

static void free_rows(struct rowset *rs)
{
	int i;

	for (i = 0; i < rs->n; i++) {
		free(rs->r[i].v[0]);
		free(rs->r[i].v[1]);
	}
	free(rs->r);
}

static const struct row *find_row(const struct rowset *rs, const char *label)
{
	int i;

	for (i = 0; i < rs->n; i++)
		if (!strcmp(rs->r[i].label, label))
			return &rs->r[i];
	return NULL;
}

/* depth of tier t over a group's runs: the share (%) of its allocations
 * in each bucket (pooled over the runs) into sh[]; returns the number of
 * allocations the depth histograms counted */
static double depth_shares(const struct group *g, int t, double *sh)
{
	double n = 0;
	int i, b;

	for (b = 0; b < nbuckets; b++)
		sh[b] = 0;
	if (t < 0)
		return 0;
	for (i = 0; i < g->n; i++)
		for (b = 0; b < nbuckets; b++) {
			sh[b] += g->runs[i].td[t].depth[b];
			n += g->runs[i].td[t].depth[b];
		}
	for (b = 0; b < nbuckets; b++)
		sh[b] = n > 0 ? 100 * sh[b] / n : 0;
	return n;
}

/* the share (%) of sh[] in buckets at or below level (% of min): free pages
 * that did not stay above the level; NAN if no level */
static double at_or_below(const double *sh, double level)
{
	double s = 0;
	int b;

	if (level < 0)
		return NAN;
	for (b = 0; b < nbuckets; b++)
		if (!isnan(buckets[b].hi) && buckets[b].hi <= level + 1e-9)
			s += sh[b];
	return s;
}

/* ---- formatting ---- */

static const char *num(char *buf, size_t n, double x)
{
	double a = fabs(x);

	if (isnan(x))
		snprintf(buf, n, "-");
	else if (a == 0)
		snprintf(buf, n, "0");
	else if (a >= 1000)
		snprintf(buf, n, "%.0f", x);
	else if (a >= 10)
		snprintf(buf, n, "%.1f", x);
	else if (a >= 0.1)
		snprintf(buf, n, "%.2f", x);
	else
		snprintf(buf, n, "%.3f", x);
	return buf;
}

static const char *diffpct(char *buf, size_t n, const struct row *r)
{
	double b = r->s[0].mean, a = r->s[1].mean;

	if (isnan(a) || isnan(b))
		snprintf(buf, n, "-");
	else if (b == 0)
		snprintf(buf, n, a == 0 ? "0%%" : "new");
	else
		snprintf(buf, n, "%+.1f%%", 100 * (a - b) / b);
	return buf;
}

static const char *pval(char *buf, size_t n, const struct row *r)
{
	if (!r->tested || isnan(r->w.p))
		snprintf(buf, n, "n/a");
	else if (r->w.p < 0.001)
		snprintf(buf, n, "<0.001");
	else
		snprintf(buf, n, "%.3f", r->w.p);
	return buf;
}

static const char *mark(const struct row *r)
{
	if (!r->tested || isnan(r->w.p))
		return "";
	if (r->w.p < alpha / 5)
		return "**";
	if (r->w.p < alpha)
		return "*";
	return "";
}

static int significant(const struct row *r)
{
	return r->tested && !isnan(r->w.p) && r->w.p < alpha;
}

/* both documents are built as one stream of blocks */
struct doc {
	FILE *md, *html;
};

static void html_esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else
			fputc(*s, f);
	}
}

static void md_esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|' || *s == '_' || *s == '*' || *s == '<')
			fputc('\\', f);
		fputc(*s, f);
	}
}

static void heading(struct doc *d, int level, const char *text)
{
	fprintf(d->md, "\n%.*s ", level, "######");
	fputs(text, d->md);
	fputs("\n\n", d->md);
	fprintf(d->html, "<h%d>", level);
	html_esc(d->html, text);
	fprintf(d->html, "</h%d>\n", level);
}

/* plain text to html, `...` spans as <code> */
static void html_text(struct doc *d, const char *text)
{
	int code = 0;

	for (const char *p = text; *p; p++) {
		if (*p == '`') {
			fputs(code ? "</code>" : "<code>", d->html);
			code = !code;
		} else {
			char c[2] = { *p, 0 };

			html_esc(d->html, c);
		}
	}
}

/* a paragraph; text is plain (code spans with `...` rendered in html) */
static void para(struct doc *d, const char *fmt, ...)
{
	char buf[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(d->md, "%s\n\n", buf);
	fputs("<p>", d->html);
	html_text(d, buf);
	fputs("</p>\n", d->html);
}

static void bullet_start(struct doc *d) { fputs("<ul>\n", d->html); }
static void bullet_end(struct doc *d)
{
	fputs("</ul>\n", d->html);
	fputc('\n', d->md);
}

static void bullet(struct doc *d, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(d->md, "- %s\n", buf);
	fputs("<li>", d->html);
	html_text(d, buf);
	fputs("</li>\n", d->html);
}

static void table_head(struct doc *d, int n, const char *const *cols)
{
	int i;

	fputs("|", d->md);
	for (i = 0; i < n; i++) {
		fputc(' ', d->md);
		md_esc(d->md, cols[i]);
		fputs(" |", d->md);
	}
	fputs("\n|", d->md);
	for (i = 0; i < n; i++)
		fputs(i ? " ---: |" : " --- |", d->md);
	fputc('\n', d->md);
	fputs("<table>\n<tr>", d->html);
	for (i = 0; i < n; i++) {
		fputs("<th>", d->html);
		html_esc(d->html, cols[i]);
		fputs("</th>", d->html);
	}
	fputs("</tr>\n", d->html);
}

static void table_row(struct doc *d, int n, const char *const *cells, int strong)
{
	int i;

	fputs("|", d->md);
	for (i = 0; i < n; i++) {
		fputc(' ', d->md);
		if (strong && *cells[i])
			fputs("**", d->md);
		md_esc(d->md, cells[i]);
		if (strong && *cells[i])
			fputs("**", d->md);
		fputs(" |", d->md);
	}
	fputc('\n', d->md);
	fputs(strong ? "<tr class=\"sig\">" : "<tr>", d->html);
	for (i = 0; i < n; i++) {
		fputs(i ? "<td class=\"n\">" : "<td>", d->html);
		html_esc(d->html, cells[i]);
		fputs("</td>", d->html);
	}
	fputs("</tr>\n", d->html);
}

static void table_end(struct doc *d)
{
	fputc('\n', d->md);
	fputs("</table>\n", d->html);
}

static void image(struct doc *d, const char *file, const char *alt)
{
	fprintf(d->md, "![%s](%s)\n\n", alt, file);
	fprintf(d->html, "<p><img src=\"%s\" alt=\"", file);
	html_esc(d->html, alt);
	fputs("\"></p>\n", d->html);
}

/* ---- plots ---- */

static const char *outdir;

static FILE *open_tmp(const char *name, char *tmp, size_t n)
{
	FILE *f;

	snprintf(tmp, n, "%s/.%s.tmp", outdir, name);
	f = fopen(tmp, "w");
	if (!f)
		die("%s: %s", tmp, strerror(errno));
	return f;
}

static void close_rename(FILE *f, const char *tmp, const char *name)
{
	char dst[4096];

	if (fclose(f))
		die("%s: write error", tmp);
	snprintf(dst, sizeof(dst), "%s/%s", outdir, name);
	if (rename(tmp, dst))
		die("rename %s: %s", dst, strerror(errno));
}

static double mean_of(const struct group *g, getter f, int arg)
{
	double s = 0;
	int i;

	for (i = 0; i < g->n; i++)
		s += f(&g->runs[i], arg);
	return g->n ? s / g->n : 0;
}

static int have_gnuplot(void)
{
	return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

static int run_gnuplot(const char *script, const char *const *pngs, int npng)
{
	char cmd[8192], tmp[4096], dst[4096];
	int i, rc;

	snprintf(cmd, sizeof(cmd), "cd '%s' && gnuplot '%s' 2>'%s.err'", outdir, script, script);
	rc = system(cmd);
	if (rc) {
		fprintf(stderr, "gfpcompare: gnuplot %s failed, see %s/%s.err\n", script, outdir, script);
		return -1;
	}
	for (i = 0; i < npng; i++) {
		snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", outdir, pngs[i]);
		snprintf(dst, sizeof(dst), "%s/%s", outdir, pngs[i]);
		if (rename(tmp, dst))
			return -1;
	}
	return 0;
}

/* a colour per tier name; tiers gfpcompare does not know take the next
 * of a fallback palette */
static const char *tier_color(int t)
{
	static const struct {
		const char *name, *rgb;
	} known[] = {
		{ "none", "#bbbbbb" },
		{ "non_block", "#4477aa" },
		{ "min_reserve", "#ee6677" },
		{ "min_reserve_non_block", "#aa3377" },
		{ "oom", "#228833" },
		{ "no_watermarks", "#ccbb44" },
		{ "highatomic", "#66ccee" },
		{ "highatomic_counted", "#ee7733" },
		{ "no_level", "#555555" },
		{ "unknown", "#000000" },
	};
	static const char *const extra[] = { "#009988", "#cc3311", "#33bbee", "#ee3377", "#997700",
		"#6699cc" };
	size_t i;
	int n = 0, u;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(known[i].name, tiers[t].name))
			return known[i].rgb;
	/* the how-many-th unknown name this is */
	for (u = 0; u < t; u++) {
		for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
			if (!strcmp(known[i].name, tiers[u].name))
				break;
		if (i == sizeof(known) / sizeof(known[0]))
			n++;
	}
	return extra[n % (int)(sizeof(extra) / sizeof(extra[0]))];
}

/* stacked bars per workload and kernel: tiers.png, the share of every
 * tier; reserve.png, the reserve tiers as shares of the reserve
 * allocations (each bar 100%), labelled with the reserve share of all */
static int plot_tiers(void)
{
	char tmp[4096];
	const char *pngs[] = { "tiers.png", "reserve.png" };
	const char *dats[] = { "tiers.dat", "reserve.dat" };
	FILE *f;
	int i, k, t, p, nbar = 0;

	for (p = 0; p < 2; p++) {
		f = open_tmp(dats[p], tmp, sizeof(tmp));
		fprintf(f, "# label");
		for (t = 0; t < ntiers; t++)
			fprintf(f, " %s", tiers[t].name);
		fputc('\n', f);
		nbar = 0;
		for (i = 0; i < nwl; i++) {
			if (!wls[i].g[0].n && !wls[i].g[1].n)
				continue;
			if (nbar) {
				fprintf(f, "\"\"");
				for (t = 0; t < ntiers; t++)
					fprintf(f, " 0");
				fputc('\n', f);
			}
			for (k = 0; k < NK; k++) {
				double res = mean_of(&wls[i].g[k], g_reserve, 0);

				if (p)
					fprintf(f, "\"%s %s (%.3g%%)\"", wls[i].name, kernels[k],
						mean_of(&wls[i].g[k], g_reserve_share, 0));
				else
					fprintf(f, "\"%s %s\"", wls[i].name, kernels[k]);
				for (t = 0; t < ntiers; t++) {
					double v = p ? (is_reserve(t) && res > 0
								? 100 * mean_of(&wls[i].g[k], g_count, t) / res
								: 0)
						     : mean_of(&wls[i].g[k], g_share, t);

					fprintf(f, " %.6f", v);
				}
				fputc('\n', f);
				nbar++;
			}
		}
		close_rename(f, tmp, dats[p]);
	}
	f = open_tmp("tiers.gp", tmp, sizeof(tmp));
	for (p = 0; p < 2; p++) {
		int first = 1;

		fprintf(f, "set terminal pngcairo noenhanced size %d,560 font 'sans,9'\n",
			nbar < 8 ? 760 : 360 + 50 * nbar);
		fprintf(f, "set output '.%s.tmp'\n", pngs[p]);
		fprintf(f, "set title '%s'\n", p ? "Reserve allocations by tier (bar = 100%; label: reserve % of all)"
						  : "Share of allocations per reserve tier (mean over repetitions)");
		fprintf(f, "set style data histograms\nset style histogram rowstacked\n"
			   "set style fill solid 0.9 border -1\nset boxwidth 0.8\n"
			   "set ylabel '%s'\nset key outside right top\n"
			   "set xtics rotate by -60 font ',8'\nset grid y\nset yrange [0:100]\n",
			p ? "% of reserve allocations" : "% of allocations");
		fprintf(f, "plot ");
		for (t = 0; t < ntiers; t++) {
			if (p && !is_reserve(t))
				continue;
			fprintf(f, "%s'%s' using %d%s title '%s' lc rgb '%s'", first ? "" : ", ", dats[p],
				t + 2, first ? ":xtic(1)" : "", tiers[t].name, tier_color(t));
			first = 0;
		}
		fprintf(f, "\nunset output\n");
	}
	close_rename(f, tmp, "tiers.gp");
	return run_gnuplot("tiers.gp", pngs, 2);
}

static double mean_hist(const struct group *g, int t, int b)
{
	double s = 0;
	int i;

	for (i = 0; i < g->n; i++)
		s += g->runs[i].td[t].hist[b];
	return g->n ? s / g->n : 0;
}

/* the bucket's bound nearest zero: 0, 1, 2, 4 ... 512, 1k ... */
static void bucket_label(char *buf, size_t n, int idx)
{
	int j = abs(idx) - 1;
	const char *sign = idx < 0 ? "-" : "";

	if (idx == 0)
		snprintf(buf, n, "0");
	else if (j >= 20)
		snprintf(buf, n, "%s%lldM", sign, 1LL << (j - 20));
	else if (j >= 10)
		snprintf(buf, n, "%s%lldk", sign, 1LL << (j - 10));
	else
		snprintf(buf, n, "%s%lld", sign, 1LL << j);
}

/* margin histograms of one workload, one panel per kernel */
static int plot_margins(const struct workload *w, char *png, size_t pnglen)
{
	char tmp[4096], dat[128], gp[128], lab[32];
	const char *pngs[1];
	int k, t, b, lo = 64, hi = -64, any[MAXT] = { 0 };
	FILE *f;

	snprintf(dat, sizeof(dat), "margins-%s.dat", w->name);
	snprintf(gp, sizeof(gp), "margins-%s.gp", w->name);
	snprintf(png, pnglen, "margins-%s.png", w->name);
	f = open_tmp(dat, tmp, sizeof(tmp));
	for (k = 0; k < NK; k++) {
		fprintf(f, "# %s: bucket index, then mean allocations per run for each tier\n", kernels[k]);
		for (b = 0; b < HB; b++) {
			double row[MAXT];
			int nz = 0;

			for (t = 0; t < ntiers; t++) {
				row[t] = mean_hist(&w->g[k], t, b);
				if (row[t] > 0)
					nz = any[t] = 1;
			}
			if (!nz)
				continue;
			if (b - 64 < lo)
				lo = b - 64;
			if (b - 64 > hi)
				hi = b - 64;
			fprintf(f, "%d", b - 64);
			for (t = 0; t < ntiers; t++)
				fprintf(f, " %.4f", row[t]);
			fputc('\n', f);
		}
		fprintf(f, "\n\n");
	}
	close_rename(f, tmp, dat);
	if (lo > hi)
		return -1;
	f = open_tmp(gp, tmp, sizeof(tmp));
	fprintf(f, "set terminal pngcairo noenhanced size 1100,440 font 'sans,9'\nset output '.%s.tmp'\n", png);
	fprintf(f, "set multiplot layout 1,2 title 'Watermark margin (free pages - checked watermark), %s'\n",
		w->name);
	fprintf(f, "set logscale y\nset grid\nset xrange [%d:%d]\nset ylabel 'allocations per run'\n"
		   "set xlabel 'margin (pages, log2 buckets; < 0: below the mark)'\nset key top left\n",
		lo - 1, hi + 1);
	fputs("set xtics (", f);
	for (b = lo; b <= hi; b++) {
		if ((hi - lo) > 16 && b % 2)
			continue;
		bucket_label(lab, sizeof(lab), b);
		fprintf(f, "%s'%s' %d", b == lo || ((hi - lo) > 16 && b == lo + 1) ? "" : ", ", lab, b);
	}
	fputs(") rotate by -45\nset arrow from 0, graph 0 to 0, graph 1 nohead dt 2\n", f);
	for (k = 0; k < NK; k++) {
		int first = 1;

		fprintf(f, "set title '%s'\nplot ", kernels[k]);
		for (t = 0; t < ntiers; t++) {
			if (!any[t])
				continue;
			fprintf(f, "%s'%s' index %d using 1:($%d > 0 ? $%d : NaN) with linespoints pt 7 ps 0.6 "
				   "lc rgb '%s' title '%s'",
				first ? "" : ", ", dat, k, t + 2, t + 2, tier_color(t), tiers[t].name);
			first = 0;
		}
		fputc('\n', f);
	}
	fputs("unset multiplot\nunset output\n", f);
	close_rename(f, tmp, gp);
	pngs[0] = png;
	return run_gnuplot(gp, pngs, 1);
}

/* x position of a share of min (%) on the depth plot: bucket b is centred
 * at x = b (shallowest first), so the bound between b and b+1 is at
 * b + 0.5; inside a bucket linear, the open ends one bucket wide */
static double depth_x(double pct)
{
	int b;

	for (b = 0; b < nbuckets; b++) {
		double lo = buckets[b].lo, hi = buckets[b].hi;

		if (isnan(lo) || isnan(hi) || !(pct > lo && pct <= hi))
			continue;
		if (isinf(hi))
			return b;
		if (isinf(lo))
			return hi > 0 && pct >= 0 ? b - 0.5 + (hi - pct) / hi : b;
		return b - 0.5 + (hi - pct) / (hi - lo);
	}
	return NAN;
}

/* the levels of kernel k, each bound once: "none, non_block: > 100%" */
struct levelmark {
	double pct;
	char text[256];
};

static int cmp_levelmark(const void *a, const void *b)
{
	const struct levelmark *x = a, *y = b;

	return x->pct > y->pct ? -1 : x->pct < y->pct;
}

static int levels_of(int k, struct levelmark *lm, int max)
{
	int n = 0, t, i;

	for (t = 0; t < ntiers; t++) {
		double l = tiers[t].level[k];

		if (l < 0)
			continue;
		for (i = 0; i < n; i++)
			if (lm[i].pct == l)
				break;
		if (i == n) {
			if (n == max)
				continue;
			lm[n].pct = l;
			lm[n].text[0] = 0;
			n++;
		}
		snprintf(lm[i].text + strlen(lm[i].text), sizeof(lm[i].text) - strlen(lm[i].text), "%s%s",
			 lm[i].text[0] ? ", " : "", tiers[t].name);
	}
	qsort(lm, (size_t)n, sizeof(*lm), cmp_levelmark);
	return n;
}

/* the levels of kernel k come from gfptop's tier_meaning (not built in) */
static int levels_from_json(int k)
{
	int t;

	for (t = 0; t < ntiers; t++)
		if (tiers[t].level_json[k])
			return 1;
	return 0;
}

/* the reserve tiers to show in a workload's depth plot and table: those
 * with depth counts on either kernel */
static int depth_tiers(const struct workload *w, int *list)
{
	double sh[MAXB];
	int t, k, n = 0;

	for (t = 0; t < ntiers; t++) {
		if (!is_reserve(t))
			continue;
		for (k = 0; k < NK; k++)
			if (depth_shares(&w->g[k], t, sh) > 0)
				break;
		if (k < NK)
			list[n++] = t;
	}
	return n;
}

/* depth of one workload, one panel per kernel: the share of each reserve
 * tier's allocations per depth bucket, with the kernel's levels drawn */
static int plot_depth(const struct workload *w, char *png, size_t pnglen)
{
	char tmp[4096], dat[128], gp[128];
	const char *pngs[1];
	int list[MAXT], n = depth_tiers(w, list), k, b, i;
	FILE *f;

	snprintf(dat, sizeof(dat), "depth-%s.dat", w->name);
	snprintf(gp, sizeof(gp), "depth-%s.gp", w->name);
	snprintf(png, pnglen, "depth-%s.png", w->name);
	if (!n || !nbuckets)
		return -1;
	f = open_tmp(dat, tmp, sizeof(tmp));
	for (k = 0; k < NK; k++) {
		double sh[MAXT][MAXB];

		fprintf(f, "# %s: bucket, then %% of each tier's allocations:", kernels[k]);
		for (i = 0; i < n; i++) {
			depth_shares(&w->g[k], list[i], sh[i]);
			fprintf(f, " %s", tiers[list[i]].name);
		}
		fputc('\n', f);
		for (b = 0; b < nbuckets; b++) {
			fprintf(f, "\"%s\"", buckets[b].name);
			for (i = 0; i < n; i++)
				fprintf(f, " %.4f", sh[i][b]);
			fputc('\n', f);
		}
		fprintf(f, "\n\n");
	}
	close_rename(f, tmp, dat);

	f = open_tmp(gp, tmp, sizeof(tmp));
	fprintf(f, "set terminal pngcairo noenhanced size 1000,940 font 'sans,9'\nset output '.%s.tmp'\n", png);
	fprintf(f, "set multiplot layout 2,1 title 'Depth, %s: free pages when each page was taken, as %% of the "
		   "unboosted min watermark (deeper to the right)'\n", w->name);
	fprintf(f, "set style data histograms\nset style histogram clustered gap 1\n"
		   "set style fill solid 0.9 border -1\nset boxwidth 0.9\n"
		   "set yrange [0:135]\nset ytics 0,20,100\nset grid y\nset key below horizontal maxcols 5\n"
		   "set ylabel '%% of the tier''s allocations'\nset xrange [-0.5:%d.5]\n"
		   "set style textbox opaque noborder\n", nbuckets - 1);
	/* a tic label is a format for the tic's value: % doubled */
	fputs("set xtics (", f);
	for (b = 0; b < nbuckets; b++) {
		const char *c;

		fputs(b ? ", '" : "'", f);
		for (c = buckets[b].name; *c; c++)
			fputs(*c == '%' ? "%%" : *c == '\'' ? "''" : (char[]){ *c, 0 }, f);
		fprintf(f, "' %d", b);
	}
	fputs(")\n", f);
	for (k = 0; k < NK; k++) {
		struct levelmark lm[MAXT];
		int nl = levels_of(k, lm, MAXT), j;

		fputs("unset arrow\nunset label\n", f);
		/* every bucket bound, faint */
		for (b = 0; b + 1 < nbuckets; b++)
			fprintf(f, "set arrow from %g, graph 0 to %g, first 100 nohead dt 3 lc rgb '#aaaaaa'\n",
				b + 0.5, b + 0.5);
		/* the levels: a line and which tiers must stay above it */
		for (j = 0; j < nl; j++) {
			double x = depth_x(lm[j].pct);

			if (isnan(x))
				continue;
			fprintf(f, "set arrow from %g, graph 0 to %g, first 128 nohead lw 2 lc rgb '#333333'\n", x, x);
			fprintf(f, "set label \"%s: > %g%%\" at %g, %d left boxed font ',8'\n", lm[j].text, lm[j].pct,
				x + 0.04, 104 + 8 * (j % 3));
		}
		fprintf(f, "set title '%s: lines = the level each tier must stay above on this kernel%s'\n",
			kernels[k], levels_from_json(k) ? " (gfptop''s tier_meaning)" : " (built in: kernel-patches/README.md)");
		fputs("plot ", f);
		for (i = 0; i < n; i++) {
			char cnt[32];
			double c = mean_of(&w->g[k], g_count, list[i]);

			snprintf(cnt, sizeof(cnt), "%.3g", c);
			fprintf(f, "%s'%s' index %d using %d title '%s (%s/run)' lc rgb '%s'", i ? ", " : "", dat, k,
				i + 2, tiers[list[i]].name, cnt, tier_color(list[i]));
		}
		fputc('\n', f);
	}
	fputs("unset multiplot\nunset output\n", f);
	close_rename(f, tmp, gp);
	pngs[0] = png;
	return run_gnuplot(gp, pngs, 1);
}

/* ---- report ---- */

static double tier_at(const double *a, int t) { return t >= 0 ? a[t] : 0; }

/* the tiers, their enum values and what each permits on each kernel */
static void tier_legend(struct doc *d)
{
	const char *cols[] = { "tier", "enum value", "before: what it permits", "after: what it permits" };
	int t, k, json = 0;

	for (k = 0; k < NK; k++)
		json |= levels_from_json(k);
	heading(d, 2, "Tiers");
	para(d, "The tiers are those the runs' JSON names (every key of any run), in the order of the "
		"kernel's `enum page_alloc_tier` (gfptop's `tier_values`): the order the levels are tried "
		"in, not their depth. A tier without an enum value (`unknown`: a value gfptop does not "
		"know) comes last. A watermark level is defined by how far below the zone's unboosted min "
		"watermark it lets free pages go (kernel-patches/README.md, \"How the tier is defined\"); "
		"the series changed those depths, which the depth plots and tables of each workload show. "
		"%s",
	     json ? "What each tier permits is gfptop's `tier_meaning` for that kernel."
		  : "These results have no `tier_meaning` (gfptop before gfptop-interval/2): the levels "
		    "below are built into gfpcompare from kernel-patches/README.md.");
	table_head(d, 4, cols);
	for (t = 0; t < ntiers; t++) {
		char c[4][512];
		const char *cp[4];

		snprintf(c[0], sizeof(c[0]), "%s", tiers[t].name);
		if (tiers[t].hasval[0] && tiers[t].hasval[1] && tiers[t].val[0] != tiers[t].val[1])
			snprintf(c[1], sizeof(c[1]), "%lld / %lld", tiers[t].val[0], tiers[t].val[1]);
		else if (tiers[t].hasval[0] || tiers[t].hasval[1])
			snprintf(c[1], sizeof(c[1]), "%lld", tiers[t].hasval[1] ? tiers[t].val[1] : tiers[t].val[0]);
		else
			snprintf(c[1], sizeof(c[1]), "-");
		for (k = 0; k < NK; k++) {
			if (tiers[t].meaning[k])
				snprintf(c[2 + k], sizeof(c[0]), "%s", tiers[t].meaning[k]);
			else if (tiers[t].level[k] >= 0)
				snprintf(c[2 + k], sizeof(c[0]), "> %g%% of min (built in)", tiers[t].level[k]);
			else
				snprintf(c[2 + k], sizeof(c[0]), "-");
		}
		for (k = 0; k < 4; k++)
			cp[k] = c[k];
		table_row(d, 4, cp, 0);
	}
	table_end(d);
}

static void describe_sources(struct doc *d, const struct workload *w)
{
	const char *cols[] = { "kernel", "tier", "allocs/run", "order>0", "gfp classes",
		"contexts" };
	int k, t, c, rows = 0, impossible = 0;

	for (k = 0; k < NK; k++) {
		for (t = 0; t < ntiers; t++) {
			char cells[6][512], *cp[6];
			double n = mean_of(&w->g[k], g_count, t), cl[NCLS] = { 0 }, cx[NCTX] = { 0 };
			size_t len;
			int i;

			if (!is_reserve(t) || n <= 0)
				continue;
			if (!rows++)
				table_head(d, 6, cols);
			for (i = 0; i < w->g[k].n; i++) {
				for (c = 0; c < NCLS; c++)
					cl[c] += w->g[k].runs[i].td[t].cls[c];
				for (c = 0; c < NCTX; c++)
					cx[c] += w->g[k].runs[i].td[t].ctx[c];
			}
			snprintf(cells[0], sizeof(cells[0]), "%s", kernels[k]);
			snprintf(cells[1], sizeof(cells[1]), "%s", tiers[t].name);
			num(cells[2], sizeof(cells[2]), n);
			num(cells[3], sizeof(cells[3]), mean_of(&w->g[k], g_hiord, t));
			cells[4][0] = cells[5][0] = 0;
			for (c = 0; c < NCLS; c++) {
				double p = 100 * cl[c] / (n * w->g[k].n);

				len = strlen(cells[4]);
				if (p >= 0.5)
					snprintf(cells[4] + len, sizeof(cells[4]) - len, "%s%s %.0f%%",
						 len ? ", " : "", cls_names[c], p);
			}
			for (c = 0; c < NCTX; c++) {
				double p = 100 * cx[c] / (n * w->g[k].n);

				len = strlen(cells[5]);
				if (p >= 0.5)
					snprintf(cells[5] + len, sizeof(cells[5]) - len, "%s%s %.0f%%",
						 len ? ", " : "", ctx_names[c], p);
			}
			for (i = 0; i < 6; i++)
				cp[i] = cells[i];
			table_row(d, 6, (const char *const *)cp, 0);
			/* blocking classes cannot allocate in interrupt context */
			if ((cl[2] + cl[3] + cl[4] + cx[1] + cx[2]) > 1.01 * n * w->g[k].n)
				impossible = 1;
		}
	}
	if (rows)
		table_end(d);
	else
		para(d, "No allocation in either kernel needed a reserve tier.");
	if (impossible)
		para(d, "Caution: in this workload blocking gfp classes (GFP_KERNEL, GFP_NOFS_NOIO, "
			"GFP_USER) plus interrupt contexts add up to more than 100%% of a tier, which cannot "
			"be: blocking allocations do not happen in softirq or hardirq. gfptop's per-CPU irq "
			"depth (bpf/gfptop.bpf.c, from irq/softirq entry and exit events) seems to have been "
			"left non-zero on some CPU in some runs (an entry seen without its exit), so the "
			"context columns are not reliable here.");
}

/* highatomic pageblock pages handed out from per-cpu lists, by watermark tier */
static void pcp_table(struct doc *d, const struct workload *w)
{
	const char *cols[] = { "kernel", "allocs/run", "pages/run", "pages/run by watermark tier" };
	int k, t, i, any = 0;

	heading(d, 3, "Highatomic pages used without the right, via pcp (mean per run)");
	if (!wl_has(w, 1)) {
		para(d, "These runs' JSON has no `pcp_highatomic` (gfptop before gfptop-interval/2): "
			"not counted.");
		return;
	}
	for (k = 0; k < NK; k++)
		any |= mean_of(&w->g[k], g_pcp_pages, 0) > 0;
	if (!any) {
		para(d, "No page of a MIGRATE_HIGHATOMIC pageblock was handed out from a per-cpu list "
			"in either kernel.");
		return;
	}
	para(d, "Pages of a MIGRATE_HIGHATOMIC pageblock that a per-cpu list handed out (the event's "
		"`source=pcp highatomic_block=1`: freed there earlier, kept on the MOVABLE list), i.e. "
		"reserved high-order atomic pages used by requests that did not need a reserve right for "
		"them. Their tier is their watermark tier, not `highatomic`.");
	table_head(d, 4, cols);
	for (k = 0; k < NK; k++) {
		char c[4][1024], by[1024] = "";
		const char *cp[4];
		double cnt = 0;

		for (i = 0; i < w->g[k].n; i++)
			cnt += w->g[k].runs[i].pcp_cnt;
		snprintf(c[0], sizeof(c[0]), "%s", kernels[k]);
		num(c[1], sizeof(c[1]), w->g[k].n ? cnt / w->g[k].n : 0);
		num(c[2], sizeof(c[2]), mean_of(&w->g[k], g_pcp_pages, 0));
		for (t = 0; t < ntiers; t++) {
			double p = 0;
			char v[32];
			size_t len = strlen(by);

			for (i = 0; i < w->g[k].n; i++)
				p += w->g[k].runs[i].td[t].pcp_pages;
			if (p <= 0)
				continue;
			snprintf(by + len, sizeof(by) - len, "%s%s %s", len ? ", " : "", tiers[t].name,
				 num(v, sizeof(v), p / w->g[k].n));
		}
		snprintf(c[3], sizeof(c[3]), "%s", *by ? by : "-");
		for (i = 0; i < 4; i++)
			cp[i] = c[i];
		table_row(d, 4, cp, 0);
	}
	table_end(d);
}

/* the depth plot and table of one workload */
static void depth_section(struct doc *d, const struct workload *w, int gp)
{
	const char *cols[3 + MAXB + 2];
	char png[160];
	int list[MAXT], n = depth_tiers(w, list), k, i, b, ncol;

	heading(d, 3, "Depth: where free pages stood when each reserve tier was used");
	if (!wl_has(w, 0)) {
		para(d, "These runs' JSON has no `depth_histograms` (gfptop before gfptop-interval/2).");
		return;
	}
	if (!n) {
		para(d, "No reserve tier has allocations in either kernel.");
		return;
	}
	para(d, "For each reserve tier, the share of its allocations (pooled over the runs) by the free "
		"pages of the zone when the page was taken, as a share of the unboosted watermark the "
		"allocator checked: the min watermark for every request that holds a reserve right "
		"(`no_level` allocations of the fast path are against the low watermark). A tier's level "
		"is how far it may go: its allocations must lie above it (`at or below level` must be 0), "
		"and they fall between it and the next shallower level the request holds. The plot shows "
		"the same numbers, with the levels as solid lines named by the tiers whose level each is "
		"on that kernel; the series moved `non_block` from 75%% to 100%% of min.");
	if (gp && plot_depth(w, png, sizeof(png)) == 0)
		image(d, png, "depth histograms per tier, before and after");
	cols[0] = "kernel";
	cols[1] = "tier";
	cols[2] = "allocs/run";
	for (b = 0; b < nbuckets; b++)
		cols[3 + b] = buckets[b].name;
	cols[3 + nbuckets] = "level";
	cols[4 + nbuckets] = "at or below level";
	ncol = 5 + nbuckets;
	table_head(d, ncol, cols);
	for (k = 0; k < NK; k++) {
		for (i = 0; i < n; i++) {
			int t = list[i];
			char c[3 + MAXB + 2][64];
			const char *cp[3 + MAXB + 2];
			double sh[MAXB], below;

			if (depth_shares(&w->g[k], t, sh) <= 0)
				continue;
			below = at_or_below(sh, tiers[t].level[k]);
			snprintf(c[0], sizeof(c[0]), "%s", kernels[k]);
			snprintf(c[1], sizeof(c[1]), "%s", tiers[t].name);
			num(c[2], sizeof(c[2]), mean_of(&w->g[k], g_count, t));
			for (b = 0; b < nbuckets; b++)
				snprintf(c[3 + b], sizeof(c[0]), "%.1f", sh[b]);
			if (tiers[t].level[k] >= 0)
				snprintf(c[3 + nbuckets], sizeof(c[0]), "> %g%%", tiers[t].level[k]);
			else
				snprintf(c[3 + nbuckets], sizeof(c[0]), "-");
			if (isnan(below))
				snprintf(c[4 + nbuckets], sizeof(c[0]), "-");
			else
				snprintf(c[4 + nbuckets], sizeof(c[0]), "%.1f", below);
			for (b = 0; b < ncol; b++)
				cp[b] = c[b];
			table_row(d, ncol, cp, !isnan(below) && below > 0);
		}
	}
	table_end(d);
}

static void compare_table(struct doc *d, const struct rowset *rs)
{
	const char *cols[] = { "metric", "before mean", "before sd", "after mean", "after sd",
		"diff", "p (Welch)", "sig" };
	int i;

	table_head(d, 8, cols);
	for (i = 0; i < rs->n; i++) {
		const struct row *r = &rs->r[i];
		char c[8][128];
		const char *cp[8];
		int j;

		snprintf(c[0], sizeof(c[0]), "%s", r->label);
		num(c[1], sizeof(c[1]), r->s[0].mean);
		num(c[2], sizeof(c[2]), r->s[0].sd);
		num(c[3], sizeof(c[3]), r->s[1].mean);
		num(c[4], sizeof(c[4]), r->s[1].sd);
		diffpct(c[5], sizeof(c[5]), r);
		pval(c[6], sizeof(c[6]), r);
		snprintf(c[7], sizeof(c[7]), "%s", mark(r));
		for (j = 0; j < 8; j++)
			cp[j] = c[j];
		table_row(d, 8, cp, significant(r));
	}
	table_end(d);
}

static const char *fmt_row(char *buf, size_t n, const struct row *r)
{
	char a[32], b[32], df[32], p[32];

	snprintf(buf, n, "`%s`: %s -> %s (%s, p %s)", r->label, num(b, sizeof(b), r->s[0].mean),
		 num(a, sizeof(a), r->s[1].mean), diffpct(df, sizeof(df), r), pval(p, sizeof(p), r));
	return buf;
}

static void depth_check(struct doc *d);

/* the cover letter's predictions, checked against each workload */
static void predictions(struct doc *d, struct rowset *all)
{
	char buf[512];
	int i, any;

	heading(d, 2, "What the series predicts, and what the data shows");
	para(d, "Each check below takes a statement from the cover letter or a patch of \"Discard "
		"__GFP_ATOMIC\" (../shared/seeds/) and the tier semantics of kernel-patches/README.md, "
		"and looks at every workload where the relevant tiers have allocations. The verdict is "
		"mechanical (means over repetitions and the Welch test); read it with the tables.");

	heading(d, 3, "1. RT tasks: ALLOC_HARDER before, ALLOC_MIN_RESERVE after (patch 2/6)");
	para(d, "Before, a SCHED_FIFO task's blocking allocations get ALLOC_HARDER (tier `non_block`, "
		"75%% of the min watermark); after they get ALLOC_MIN_RESERVE like __GFP_HIGH (tier "
		"`min_reserve`, 50%% of min): deeper access, not less.");
	bullet_start(d);
	for (i = 0, any = 0; i < nwl; i++) {
		/* blocking classes only: GFP_ATOMIC/NOWAIT reach these tiers for
		 * other reasons */
		double bn = mean_of(&wls[i].g[0], g_blocking, t_non_block);
		double bm = mean_of(&wls[i].g[0], g_blocking, t_min_reserve);
		double an = mean_of(&wls[i].g[1], g_blocking, t_non_block);
		double am = mean_of(&wls[i].g[1], g_blocking, t_min_reserve);
		const char *verdict;

		if (!wls[i].g[0].n || !wls[i].g[1].n || (bn == 0 && am == 0 && an == 0 && bm == 0))
			continue;
		any = 1;
		if (bn > 0 && am > 0 && bm == 0 && an == 0)
			verdict = "as predicted: blocking allocations that got non_block (ALLOC_HARDER) before get min_reserve after";
		else if (bn > 0 && am == 0)
			verdict = "not reproduced: before used non_block, after shows no min_reserve";
		else
			verdict = "mixed";
		bullet(d, "%s: blocking-class (GFP_KERNEL/NOFS_NOIO/USER) allocs/run: before non_block %.1f, "
			  "min_reserve %.1f; after non_block %.1f, min_reserve %.1f: %s",
		       wls[i].name, bn, bm, an, am, verdict);
	}
	if (!any)
		bullet(d, "no workload used either tier");
	bullet_end(d);

	heading(d, 3, "2. GFP_ATOMIC keeps its reserves (ALLOC_MIN_RESERVE|ALLOC_NON_BLOCK = ALLOC_HIGH|ALLOC_HARDER)");
	para(d, "Both kernels give GFP_ATOMIC the same 37.5%% of min (`min_reserve_non_block`); "
		"the series should not change how much GFP_ATOMIC dips into reserves. The tier is the least "
		"privileged level that suffices, and the levels changed meaning: a GFP_ATOMIC request that "
		"needs part of min shows as `non_block` before (ALLOC_HARDER alone grants 25%% of min) and "
		"as `min_reserve` after (ALLOC_NON_BLOCK alone grants none), with the same rights. So "
		"compare the GFP_ATOMIC totals, not the tier labels.");
	bullet_start(d);
	for (i = 0, any = 0; i < nwl; i++) {
		const struct row *r = find_row(&all[i], "reserve GFP_ATOMIC");
		const struct row *m = find_row(&all[i], "min_reserve_non_block allocs");

		if (!r || !wls[i].g[0].n || !wls[i].g[1].n)
			continue;
		any = 1;
		bullet(d, "%s: %s; min_reserve_non_block allocs %.1f -> %.1f: %s", wls[i].name,
		       fmt_row(buf, sizeof(buf), r), m ? m->s[0].mean : 0, m ? m->s[1].mean : 0,
		       significant(r) ? "DIFFERS significantly: see the workload's source table for "
						"the tiers those GFP_ATOMIC allocations used"
				      : "no significant difference, as predicted");
	}
	if (!any)
		bullet(d, "no GFP_ATOMIC allocation needed a reserve tier in any workload");
	bullet_end(d);

	heading(d, 3, "3. GFP_NOWAIT gets no reserve access (v3 changelog)");
	para(d, "After, GFP_NOWAIT holds only ALLOC_NON_BLOCK, which grants no part of the min "
		"reserve (it only stops the highatomic reserve being subtracted); before it held "
		"nothing. GFP_NOWAIT in `min_reserve`, `min_reserve_non_block` would contradict it; "
		"`oom` (OOM victims), `highatomic`, `highatomic_counted` and `no_level` are expected "
		"exceptions.");
	bullet_start(d);
	for (i = 0, any = 0; i < nwl; i++) {
		int k;

		for (k = 0; k < NK; k++) {
			double per[MAXT] = { 0 };
			const struct group *g = &wls[i].g[k];
			int t, r;
			char s[1024] = "";

			for (r = 0; r < g->n; r++)
				for (t = 0; t < ntiers; t++)
					if (is_reserve(t))
						per[t] += g->runs[r].td[t].cls[1] / g->n;
			for (t = 0; t < ntiers; t++) {
				size_t len = strlen(s);

				if (per[t] > 0)
					snprintf(s + len, sizeof(s) - len, "%s%s %.1f", len ? ", " : "",
						 tiers[t].name, per[t]);
			}
			if (!*s)
				continue;
			any = 1;
			bullet(d, "%s, %s: GFP_NOWAIT reserve allocs/run by tier: %s: %s", wls[i].name,
			       kernels[k], s,
			       tier_at(per, t_min_reserve) + tier_at(per, t_mrnb) > 0 ? "CONTRADICTS the prediction"
			       : k == 1 && tier_at(per, t_non_block) > 0
				       ? "no min reserve, as predicted, but the non_block ones passed the "
					 "watermark only because ALLOC_NON_BLOCK stops the highatomic reserve "
					 "being subtracted from the free pages (before it was subtracted for "
					 "GFP_NOWAIT): a small reserve benefit \"no reserve access\" does not mention"
			       : k == 0 && tier_at(per, t_non_block) > 0
				       ? "non_block before = ALLOC_HARDER, which only RT tasks get for GFP_NOWAIT"
				       : "consistent");
		}
	}
	if (!any)
		bullet(d, "no GFP_NOWAIT allocation needed a reserve tier in any workload");
	bullet_end(d);

	heading(d, 3, "4. High-order atomic reserves (patches 3/6, 5/6)");
	para(d, "Before, any order>0 request with ALLOC_HARDER (GFP_ATOMIC, but also RT tasks) may "
		"take MIGRATE_HIGHATOMIC pages and reserve pageblocks; after only ALLOC_HIGHATOMIC "
		"(order>0, __GFP_HIGH, non-blocking) does, and 6.1.y's 281dd25c1a01 lets order-0 "
		"GFP_ATOMIC fall back to them. Predicted: no more RT or non-atomic users of the "
		"highatomic reserve after. `highatomic` counts pages taken off a MIGRATE_HIGHATOMIC "
		"free list by such a right; `highatomic_counted`, high-order requests admitted only "
		"because free highatomic blocks counted for them; pages of highatomic pageblocks that "
		"per-cpu lists hand out to anyone are counted apart (without the right, via pcp).");
	bullet_start(d);
	for (i = 0, any = 0; i < nwl; i++) {
		const struct row *ha = find_row(&all[i], "highatomic allocs");
		const struct row *hc = find_row(&all[i], "highatomic_counted allocs");
		const struct row *hr = find_row(&all[i], "highatomic reserve events");
		const struct row *hm = find_row(&all[i], "highatomic max reserved (pages)");
		const struct row *pc = find_row(&all[i], PCP_ROW);

		if (!wls[i].g[0].n || !wls[i].g[1].n || !hr ||
		    (hr->s[0].mean == 0 && hr->s[1].mean == 0 && !ha && !hc && !(pc && (pc->s[0].mean || pc->s[1].mean))))
			continue;
		any = 1;
		if (pc) {
			char a[32], b[32], df[32], p[32];

			snprintf(buf, sizeof(buf), "%s -> %s (%s, p %s)", num(b, sizeof(b), pc->s[0].mean),
				 num(a, sizeof(a), pc->s[1].mean), diffpct(df, sizeof(df), pc),
				 pval(p, sizeof(p), pc));
		} else {
			snprintf(buf, sizeof(buf), "not recorded (older gfptop)");
		}
		bullet(d, "%s: highatomic-tier allocs %.1f -> %.1f/run; highatomic_counted %.1f -> %.1f; "
			  "reserve events %.1f -> %.1f; max reserved %.0f -> %.0f pages; highatomic pages "
			  "used without the right, via pcp: %s%s",
		       wls[i].name, ha ? ha->s[0].mean : 0, ha ? ha->s[1].mean : 0, hc ? hc->s[0].mean : 0,
		       hc ? hc->s[1].mean : 0, hr->s[0].mean, hr->s[1].mean, hm ? hm->s[0].mean : 0,
		       hm ? hm->s[1].mean : 0, buf,
		       ha && significant(ha) ? " (highatomic-tier difference significant)" : "");
	}
	if (!any)
		bullet(d, "no workload reserved highatomic pageblocks or used them");
	bullet_end(d);
	depth_check(d);
}

/* deepest margin bucket of tier t over a group's runs: the bucket's bound
 * nearest zero (pages, <= 0), or 1 if the tier never went below its mark */
static double deepest(const struct group *g, int t, double *zmin)
{
	int i, b;
	double d = 1;

	*zmin = 0;
	for (i = 0; i < g->n; i++) {
		if (g->runs[i].zmin > *zmin)
			*zmin = g->runs[i].zmin;
		for (b = 0; b < 64; b++) {
			if (g->runs[i].td[t].hist[b] > 0) {
				double near = -(double)(1LL << (63 - b)); /* index b-64 = -(k+1): bound -2^k */

				if (near < d)
					d = near;
				break;
			}
		}
	}
	return d;
}

/* what the cover letter's text says a tier keeps free on the after
 * kernel, where it differs from the code (% of min); -1 if not */
static double letter_level(int t)
{
	if (t >= 0 && t == t_non_block)
		return 75;
	if (t >= 0 && t == t_oom)
		return 25;
	return -1;
}

/* results without depth histograms: the margin histograms against the
 * zone's min from /proc/zoneinfo */
static void depth_check_margins(struct doc *d)
{
	int i, k, t, any = 0;

	para(d, "These results have no depth histograms (gfptop before gfptop-interval/2). For each "
		"reserve tier, the deepest margin bucket seen (its bound nearest zero, so the true depth "
		"is up to twice that) is compared with the min watermark of the guest's biggest zone "
		"(from /proc/zoneinfo). A tier may go down to -(1 - level) x min. Margins are read "
		"without the zone lock and the watermark check also adds lowmem_reserve, so treat a "
		"bucket beyond the limit as a question, not a proof.");
	bullet_start(d);
	for (i = 0; i < nwl; i++) {
		for (k = 0; k < NK; k++) {
			for (t = 0; t < ntiers; t++) {
				double zmin, dp, lim;
				char letter[96];
				const char *v;

				if (!is_reserve(t) || tiers[t].level[k] < 0)
					continue;
				dp = deepest(&wls[i].g[k], t, &zmin);
				if (mean_of(&wls[i].g[k], g_count, t) <= 0 || zmin <= 0)
					continue;
				any = 1;
				lim = -(1 - tiers[t].level[k] / 100) * zmin;
				if (dp > 0)
					v = "never below its mark";
				else if (dp < lim - 0.5)
					v = "DEEPER than the code allows";
				else
					v = "within the code's limit";
				if (k == 1 && letter_level(t) >= 0 && letter_level(t) != tiers[t].level[k])
					snprintf(letter, sizeof(letter), "; the cover letter's text: %.0f%%",
						 -(100 - letter_level(t)));
				else
					letter[0] = 0;
				if (dp > 0)
					bullet(d, "%s, %s, %s: %s (min %.0f pages)", wls[i].name, kernels[k],
					       tiers[t].name, v, zmin);
				else
					bullet(d, "%s, %s, %s: down to at least %.0f pages = %.0f%% of min "
						  "(min %.0f; code limit %.0f%%%s): %s",
					       wls[i].name, kernels[k], tiers[t].name, dp, 100 * dp / zmin, zmin,
					       100 * lim / zmin, letter, v);
			}
		}
	}
	if (!any)
		bullet(d, "no reserve tier with allocations, or no zoneinfo in the results (older runs)");
	bullet_end(d);
}

static void depth_check(struct doc *d)
{
	int i, k, t, b, any = 0, have = 0;

	heading(d, 3, "5. How deep below the min watermark each tier went");
	for (i = 0; i < nwl; i++)
		have |= wl_has(&wls[i], 0);
	if (!have) {
		depth_check_margins(d);
		return;
	}
	para(d, "The cover letter says \"ALLOC_NON_BLOCK (no direct reclaim) on its own allows 25%% of "
		"the min reserve ... ALLOC_OOM allows access to 75%%\"; its v3 changelog and the code "
		"(kernel-patches/README.md) say NON_BLOCK alone gets none of it after (75%% of min must "
		"stay free before, ALLOC_HARDER) and ALLOC_OOM half. gfptop's depth histograms give, per "
		"tier, the free pages when the page was taken as a share of the unboosted min watermark. "
		"A watermark tier passed its level's check on the same snapshot, so none of its "
		"allocations can be at or below its level: a share there means gfptop's arithmetic and "
		"the kernel's disagree. The deepest bucket shows how much of the level was used.");
	bullet_start(d);
	for (i = 0; i < nwl; i++) {
		for (k = 0; k < NK; k++) {
			for (t = 0; t < ntiers; t++) {
				double sh[MAXB], below, lev = tiers[t].level[k];
				char letter[128];
				int deep = -1;

				if (!is_reserve(t) || lev < 0 || depth_shares(&wls[i].g[k], t, sh) <= 0)
					continue;
				any = 1;
				for (b = 0; b < nbuckets; b++)
					if (sh[b] > 0)
						deep = b;
				below = at_or_below(sh, lev);
				if (k == 1 && letter_level(t) >= 0 && letter_level(t) != lev)
					snprintf(letter, sizeof(letter), "; the cover letter's text: > %g%%",
						 letter_level(t));
				else
					letter[0] = 0;
				bullet(d, "%s, %s, %s (level > %g%% of min%s): deepest bucket %s, %.1f%% of its "
					  "allocations there; at or below its level: %.1f%%: %s",
				       wls[i].name, kernels[k], tiers[t].name, lev, letter,
				       deep >= 0 ? buckets[deep].name : "-", deep >= 0 ? sh[deep] : 0, below,
				       below > 0 ? "DEEPER than its level: gfptop and the kernel disagree"
						 : "within its level");
			}
		}
	}
	if (!any)
		bullet(d, "no watermark tier with allocations");
	bullet_end(d);
}

static json_object *jdbl(double x)
{
	return json_object_new_double(isnan(x) ? 0 : x);
}

static void write_summary_json(struct rowset *all)
{
	char tmp[4096];
	json_object *root = json_object_new_object(), *ws = json_object_new_array();
	json_object *tl = json_object_new_array();
	FILE *f;
	int i, j, k, t, b;

	json_object_object_add(root, "schema", json_object_new_string("gfpcompare-summary/1"));
	json_object_object_add(root, "alpha", json_object_new_double(alpha));
	for (t = 0; t < ntiers; t++) {
		json_object *o = json_object_new_object(), *v = json_object_new_object();
		json_object *m = json_object_new_object(), *l = json_object_new_object();

		json_object_object_add(o, "tier", json_object_new_string(tiers[t].name));
		for (k = 0; k < NK; k++) {
			json_object_object_add(v, kernels[k],
					       tiers[t].hasval[k] ? json_object_new_int64(tiers[t].val[k]) : NULL);
			json_object_object_add(m, kernels[k],
					       tiers[t].meaning[k] ? json_object_new_string(tiers[t].meaning[k]) : NULL);
			json_object_object_add(l, kernels[k],
					       tiers[t].level[k] >= 0 ? json_object_new_double(tiers[t].level[k]) : NULL);
		}
		json_object_object_add(o, "value", v);
		json_object_object_add(o, "meaning", m);
		json_object_object_add(o, "level_pct_of_min", l);
		json_object_array_add(tl, o);
	}
	json_object_object_add(root, "tiers", tl);
	for (i = 0; i < nwl; i++) {
		json_object *w = json_object_new_object(), *rows = json_object_new_array();
		json_object *depth = json_object_new_object(), *pcp = json_object_new_object();

		json_object_object_add(w, "workload", json_object_new_string(wls[i].name));
		for (j = 0; j < all[i].n; j++) {
			const struct row *r = &all[i].r[j];
			json_object *o = json_object_new_object();

			json_object_object_add(o, "metric", json_object_new_string(r->label));
			for (k = 0; k < NK; k++) {
				json_object *s = json_object_new_object();

				json_object_object_add(s, "n", json_object_new_int(r->s[k].n));
				json_object_object_add(s, "mean", jdbl(r->s[k].mean));
				json_object_object_add(s, "sd", jdbl(r->s[k].sd));
				json_object_object_add(o, kernels[k], s);
			}
			if (r->tested && !isnan(r->w.p))
				json_object_object_add(o, "p", json_object_new_double(r->w.p));
			json_object_object_add(o, "significant", json_object_new_boolean(significant(r)));
			json_object_array_add(rows, o);
		}
		json_object_object_add(w, "rows", rows);
		/* depth: {kernel: {tier: {allocs_per_run, shares_pct: {bucket: %}}}} */
		for (k = 0; k < NK; k++) {
			json_object *kd = json_object_new_object(), *kp = json_object_new_object();
			json_object *kpt = json_object_new_object();
			const struct group *g = &wls[i].g[k];
			double cnt = 0;

			for (t = 0; t < ntiers; t++) {
				double sh[MAXB], p = 0;

				for (j = 0; j < g->n; j++)
					p += g->runs[j].td[t].pcp_pages;
				if (p > 0)
					json_object_object_add(kpt, tiers[t].name, jdbl(p / g->n));
				if (depth_shares(g, t, sh) > 0) {
					json_object *o = json_object_new_object(), *s = json_object_new_object();

					json_object_object_add(o, "allocs_per_run", jdbl(mean_of(g, g_count, t)));
					for (b = 0; b < nbuckets; b++)
						json_object_object_add(s, buckets[b].name, jdbl(sh[b]));
					json_object_object_add(o, "shares_pct", s);
					json_object_object_add(kd, tiers[t].name, o);
				}
			}
			for (j = 0; j < g->n; j++)
				cnt += g->runs[j].pcp_cnt;
			json_object_object_add(kp, "allocs_per_run", jdbl(g->n ? cnt / g->n : 0));
			json_object_object_add(kp, "pages_per_run", jdbl(mean_of(g, g_pcp_pages, 0)));
			json_object_object_add(kp, "pages_per_run_by_tier", kpt);
			json_object_object_add(depth, kernels[k], kd);
			json_object_object_add(pcp, kernels[k], kp);
		}
		if (wl_has(&wls[i], 0))
			json_object_object_add(w, "depth", depth);
		else
			json_object_put(depth);
		if (wl_has(&wls[i], 1))
			json_object_object_add(w, "pcp_highatomic", pcp);
		else
			json_object_put(pcp);
		json_object_array_add(ws, w);
	}
	json_object_object_add(root, "workloads", ws);
	f = open_tmp("summary.json", tmp, sizeof(tmp));
	fprintf(f, "%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY));
	close_rename(f, tmp, "summary.json");
	json_object_put(root);
}

static const struct run *any_run(int k)
{
	int i;

	for (i = 0; i < nwl; i++)
		if (wls[i].g[k].n)
			return &wls[i].g[k].runs[0];
	return NULL;
}

static void usage(void)
{
	fprintf(stderr, "usage: gfpcompare [-w WORKLOADS] [-o OUTDIR] [-a ALPHA] RESULTS\n"
			"       gfpcompare -W 'A1 A2 ...' 'B1 B2 ...'   (Welch's test of two samples: t df p)\n");
	exit(2);
}

/* -W: the test alone, for guest/bench */
static int welch_cli(const char *as, const char *bs)
{
	double a[256], b[256];
	int na = 0, nb = 0;
	struct stats_welch w;
	char *end;

	for (const char *p = as; na < 256; p = end) {
		double x = strtod(p, &end);

		if (end == p)
			break;
		a[na++] = x;
	}
	for (const char *p = bs; nb < 256; p = end) {
		double x = strtod(p, &end);

		if (end == p)
			break;
		b[nb++] = x;
	}
	if (stats_welch_test(a, na, b, nb, &w)) {
		printf("nan nan nan\n");
		return 0;
	}
	printf("%.6g %.6g %.6g\n", w.t, w.df, w.p);
	return 0;
}

int main(int argc, char **argv)
{
	const char *wfile = NULL, *results;
	char tmpmd[4096], tmphtml[4096], stamp[64];
	struct rowset *all;
	struct doc d;
	time_t now = time(NULL);
	int opt, i, k, gp, nruns[NK] = { 0 }, nfail[NK] = { 0 };

	outdir = "report";
	if (argc == 4 && !strcmp(argv[1], "-W"))
		return welch_cli(argv[2], argv[3]);
	while ((opt = getopt(argc, argv, "w:o:a:h")) != -1) {
		switch (opt) {
		case 'w': wfile = optarg; break;
		case 'o': outdir = optarg; break;
		case 'a':
			alpha = atof(optarg);
			if (!(alpha > 0 && alpha < 1))
				die("alpha must be in (0, 1)");
			break;
		default: usage();
		}
	}
	if (optind != argc - 1)
		usage();
	results = argv[optind];
	if (wfile)
		read_workloads(wfile);
	load_results(results);
	/* drop workloads of the list that have no results */
	for (i = 0; i < nwl;) {
		if (!wls[i].g[0].n && !wls[i].g[1].n && !wls[i].g[0].failed && !wls[i].g[1].failed) {
			memmove(&wls[i], &wls[i + 1], sizeof(*wls) * (size_t)(nwl - i - 1));
			nwl--;
		} else {
			i++;
		}
	}
	if (!nwl)
		die("no results under %s", results);
	order_tiers();
	if (mkdir(outdir, 0755) && errno != EEXIST)
		die("%s: %s", outdir, strerror(errno));

	all = xrealloc(NULL, sizeof(*all) * (size_t)nwl);
	for (i = 0; i < nwl; i++) {
		build_rows(&wls[i], &all[i]);
		for (k = 0; k < NK; k++) {
			nruns[k] += wls[i].g[k].n;
			nfail[k] += wls[i].g[k].failed;
		}
	}

	d.md = open_tmp("report.md", tmpmd, sizeof(tmpmd));
	d.html = open_tmp("report.html", tmphtml, sizeof(tmphtml));
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>gfptop: before vs after"
	      "</title>\n<style>body{font-family:sans-serif;max-width:75em;margin:auto;padding:1em}"
	      "table{border-collapse:collapse;margin:0.5em 0}td,th{border:1px solid #ccc;padding:2px 6px}"
	      "td.n{text-align:right;font-family:monospace}tr.sig td{background:#fff3c4;font-weight:bold}"
	      "th{background:#eee}code{background:#f4f4f4}</style></head><body>\n", d.html);
	strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M UTC", gmtime(&now));
	heading(&d, 1, "gfptop: reserve tiers before vs after \"Discard __GFP_ATOMIC\"");
	para(&d, "Generated by `gfpcompare` on %s from the gfptop -j results in `%s` "
		 "(regenerate: `guest/compare -n`). How to read it: docs/compare.md.", stamp, results);
	{
		const struct run *rb = any_run(0), *ra = any_run(1);
		const struct run *r = ra ? ra : rb;

		bullet_start(&d);
		for (k = 0; k < NK; k++) {
			const struct run *x = k ? ra : rb;

			bullet(&d, "%s: kernel `%s`, %d runs used, %d failed or incomplete", kernels[k],
			       x ? x->release : "?", nruns[k], nfail[k]);
		}
		if (r)
			bullet(&d, "gfptop `%s` (binary sha256 %s..., JSON `%s`), QEMU %s, accelerator `%s`, "
				   "guests of %d vCPUs with vm.min_free_kbytes=%d; stress-ng seed 1000+repetition",
			       r->gfpver, r->sha, r->schema, r->qemu, r->accel, r->cpus, r->min_free);
		if (r && !strcmp(r->accel, "tcg"))
			bullet(&d, "TCG (no KVM): the guests run several times slower than hardware and share "
				   "the host's cores with other jobs; rates (allocations/s) are noisy, the tier "
				   "shares less so");
		bullet_end(&d);
	}

	heading(&d, 2, "Method");
	para(&d, "Each workload runs in a fresh guest per kernel and repetition, interleaved (for each "
		 "repetition: each workload on both kernels, the kernel order alternating). gfptop -j "
		 "records the whole run at 1 s intervals; a run's value of a metric is the sum over its "
		 "intervals. The tables give the mean and sample standard deviation over repetitions, "
		 "`diff` = (after - before) / before, and the two-sided p value of Welch's unequal-variance "
		 "t-test (t = (mean_a - mean_b) / sqrt(s_a^2/n_a + s_b^2/n_b), Welch-Satterthwaite degrees "
		 "of freedom, p from the regularized incomplete beta function, user/stats.c). `*` marks "
		 "p < %.3g, `**` p < %.3g; marked rows are bold. If both kernels have zero variance, "
		 "p is 1 for equal and 0 for different means. Rows that are zero in every run are left "
		 "out. With a few repetitions the test only finds large effects, and many rows are tested "
		 "at once: expect about one false mark in 1/alpha tested rows.",
	     alpha, alpha / 5);
	para(&d, "Not like for like: `reserve_fail` counts each failed allocation that held a reserve "
		 "right (any alloc_flags bit that lets a request below min: after ALLOC_RESERVES or "
		 "ALLOC_NO_WATERMARKS, before ALLOC_HARDER, ALLOC_HIGH, ALLOC_OOM or ALLOC_NO_WATERMARKS) "
		 "once, when __alloc_pages_slowpath() gives up. After, every non-blocking request "
		 "(GFP_NOWAIT included) holds ALLOC_NON_BLOCK; before, only __GFP_ATOMIC and RT-task "
		 "requests held ALLOC_HARDER. So the after kernel counts failures of GFP_NOWAIT requests "
		 "that the before kernel does not: a rise of reserve_fail in after is partly that "
		 "definition. Likewise `non_block` means ALLOC_HARDER (> 75%% of min) before and "
		 "ALLOC_NON_BLOCK (> 100%% of min, only the highatomic reserve counted as free) after: "
		 "see the Tiers table.");

	tier_legend(&d);

	gp = have_gnuplot();
	heading(&d, 2, "Tier shares");
	if (gp && plot_tiers() == 0) {
		image(&d, "tiers.png", "share of allocations per tier");
		image(&d, "reserve.png", "reserve allocations by tier");
	} else {
		para(&d, "(gnuplot not available: no plots)");
	}

	heading(&d, 2, "Summary of significant differences");
	bullet_start(&d);
	for (i = 0; i < nwl; i++) {
		int j, n = 0;
		char buf[512], list[8192] = "";

		for (j = 0; j < all[i].n; j++) {
			size_t len = strlen(list);

			if (!significant(&all[i].r[j]))
				continue;
			snprintf(list + len, sizeof(list) - len, "%s%s", n++ ? "; " : "",
				 fmt_row(buf, sizeof(buf), &all[i].r[j]));
		}
		bullet(&d, "%s (%d/%d runs): %s", wls[i].name, wls[i].g[0].n, wls[i].g[1].n,
		       n ? list : "no significant difference");
	}
	bullet_end(&d);

	predictions(&d, all);

	for (i = 0; i < nwl; i++) {
		char png[160], title[160];

		snprintf(title, sizeof(title), "Workload %s", wls[i].name);
		heading(&d, 2, title);
		para(&d, "%s. Guest %d MB; %d before and %d after runs (%d + %d failed).",
		     *wls[i].desc ? wls[i].desc : "(not in the workload list)", wls[i].mem,
		     wls[i].g[0].n, wls[i].g[1].n, wls[i].g[0].failed, wls[i].g[1].failed);
		compare_table(&d, &all[i]);
		depth_section(&d, &wls[i], gp);
		heading(&d, 3, "Where the reserve allocations came from (mean per run)");
		describe_sources(&d, &wls[i]);
		pcp_table(&d, &wls[i]);
		if (gp && plot_margins(&wls[i], png, sizeof(png)) == 0)
			image(&d, png, "watermark margin histograms");
	}
	fputs("</body></html>\n", d.html);
	close_rename(d.md, tmpmd, "report.md");
	close_rename(d.html, tmphtml, "report.html");
	write_summary_json(all);
	for (i = 0; i < nwl; i++)
		free_rows(&all[i]);
	free(all);
	fprintf(stderr, "gfpcompare: wrote %s/report.md, report.html, summary.json\n", outdir);
	return 0;
}
