/* gfpcompare: before/after report from the gfptop -j results of
 * guest/compare, in the style of mmtests' compare-kernels.
 *
 *   gfpcompare [-w WORKLOADS] [-o OUTDIR] [-a ALPHA] RESULTS
 *
 * RESULTS/<kernel>/<workload>/rep-<N>/ holds gfptop.json (gfptop -j lines),
 * meta.json (guest/compare-guest.sh) and host.json (guest/compare). Writes
 * OUTDIR/report.md, OUTDIR/report.html, OUTDIR/summary.json and, if
 * gnuplot is found, OUTDIR/tiers.png, OUTDIR/reserve.png and
 * OUTDIR/margins-<workload>.png. Every file is written to a temporary name
 * and renamed. See docs/compare.md. */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "stats.h"

#define NT 7
#define NCLS 6
#define NCTX 3
#define HB 129 /* margin buckets -64..64 */
#define NK 2

static const char *const tier_names[NT] = { "none", "non_block", "min_reserve",
	"min_reserve_non_block", "oom", "no_watermarks", "highatomic" };
static const char *const cls_names[NCLS] = { "GFP_ATOMIC", "GFP_NOWAIT", "GFP_KERNEL",
	"GFP_NOFS_NOIO", "GFP_USER", "other" };
static const char *const ctx_names[NCTX] = { "task", "softirq", "hardirq" };
static const char *const kernels[NK] = { "before", "after" };

enum { T_NONE, T_NON_BLOCK, T_MIN_RESERVE, T_MRNB, T_OOM, T_NOWMARK, T_HIGHATOMIC };

struct run {
	int rep;
	double cnt[NT], pages[NT], cls[NT][NCLS], ctx[NT][NCTX], hiord[NT];
	double hist[NT][HB];
	double total, secs, intervals;
	double ha_res, ha_unres, ha_forced, ha_max;
	double rfail, lost;
	double zmin; /* min watermark (pages) of the zone with most managed pages; 0 unknown */
	double oom_kill, gfptop_cpu, maxrss, cmd_wall;
	char release[80], gfpver[64], sha[40], accel[16], qemu[96];
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

static int tier_index(const char *name)
{
	int i;

	for (i = 0; i < NT; i++)
		if (!strcmp(tier_names[i], name))
			return i;
	return -1;
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

static void add_interval(struct run *r, json_object *o)
{
	json_object *t = jobj(o, "tiers"), *x, *ha;
	double sum = 0;

	r->intervals++;
	r->secs += jnum(o, "interval_s");
	json_object_object_foreach(t, tname, tv) {
		int ti = tier_index(tname);

		if (ti < 0)
			continue;
		r->cnt[ti] += jnum(tv, "count");
		r->pages[ti] += jnum(tv, "pages");
		r->total += jnum(tv, "count");
	}
	x = jobj(o, "tier_gfp_class");
	json_object_object_foreach(x, cname, cv) {
		int ti = tier_index(cname);

		if (ti < 0)
			continue;
		json_object_object_foreach(cv, clname, clv) {
			int ci = name_index(cls_names, NCLS, clname);

			if (ci >= 0)
				r->cls[ti][ci] += jnum(clv, "count");
		}
	}
	x = jobj(o, "tier_context");
	json_object_object_foreach(x, xname, xv) {
		int ti = tier_index(xname);

		if (ti < 0)
			continue;
		json_object_object_foreach(xv, ctxname, ctxv) {
			int ci = name_index(ctx_names, NCTX, ctxname);

			if (ci >= 0)
				r->ctx[ti][ci] += jnum(ctxv, "count");
		}
	}
	x = jobj(o, "tier_order");
	json_object_object_foreach(x, oname, ov) {
		int ti = tier_index(oname);

		if (ti < 0)
			continue;
		json_object_object_foreach(ov, ord, ordv) {
			if (strcmp(ord, "0"))
				r->hiord[ti] += jnum(ordv, "count");
		}
	}
	x = jobj(o, "margin_histograms");
	json_object_object_foreach(x, hname, hv) {
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
			r->hist[ti][bi + 64] += jnum(b, "count");
		}
	}
	ha = jobj(o, "highatomic");
	r->ha_res += jnum(ha, "reserve");
	r->ha_unres += jnum(ha, "unreserve");
	r->ha_forced += jnum(ha, "unreserve_forced");
	x = jobj(ha, "zones");
	json_object_object_foreach(x, zname, zv) {
		(void)zname;
		sum += jnum(zv, "nr_reserved_max");
	}
	if (sum > r->ha_max)
		r->ha_max = sum;
	r->rfail += jnum(jobj(o, "reserve_fail"), "count");
	r->lost += jnum(jobj(o, "lost"), "process_map_full") + jnum(jobj(o, "lost"), "gfp_map_full");
}

static int load_run(const char *dir, struct run *r)
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
		add_interval(r, o);
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
				struct run r;

				snprintf(rdir, sizeof(rdir), "%s/%s", wdir, names[i]);
				memset(&r, 0, sizeof(r));
				if (load_run(rdir, &r) < 0) {
					g->failed++;
				} else {
					if (g->n == g->cap) {
						g->cap = g->cap ? 2 * g->cap : 8;
						g->runs = xrealloc(g->runs, sizeof(*g->runs) * (size_t)g->cap);
					}
					g->runs[g->n++] = r;
				}
				free(names[i]);
			}
			free(names);
		}
		closedir(d);
	}
}

/* ---- metrics ---- */

typedef double (*getter)(const struct run *r, int arg);

static double g_total(const struct run *r, int a) { return r->total; }
static double g_rate(const struct run *r, int a) { return r->secs > 0 ? r->total / r->secs : 0; }
static double g_share(const struct run *r, int t) { return r->total > 0 ? 100 * r->cnt[t] / r->total : 0; }
static double g_count(const struct run *r, int t) { return r->cnt[t]; }
static double g_hiord(const struct run *r, int t) { return r->hiord[t]; }
static double g_blocking(const struct run *r, int t)
{
	return r->cls[t][2] + r->cls[t][3] + r->cls[t][4];
}
static double g_reserve(const struct run *r, int a)
{
	return r->total - r->cnt[T_NONE];
}
static double g_reserve_share(const struct run *r, int a)
{
	return r->total > 0 ? 100 * g_reserve(r, 0) / r->total : 0;
}
static double g_res_cls(const struct run *r, int c)
{
	double s = 0;
	int t;

	for (t = 1; t < NT; t++)
		s += r->cls[t][c];
	return s;
}
static double g_res_ctx(const struct run *r, int c)
{
	double s = 0;
	int t;

	for (t = 1; t < NT; t++)
		s += r->ctx[t][c];
	return s;
}
static double g_res_hiord(const struct run *r, int a)
{
	double s = 0;
	int t;

	for (t = 1; t < NT; t++)
		s += r->hiord[t];
	return s;
}
static double g_below(const struct run *r, int a)
{
	/* allocations satisfied with free pages below the checked watermark */
	double s = 0;
	int t, b;

	for (t = 0; t < NT; t++)
		for (b = 0; b < 64; b++)
			s += r->hist[t][b];
	return s;
}
static double g_ha_res(const struct run *r, int a) { return r->ha_res; }
static double g_ha_unres(const struct run *r, int a) { return r->ha_unres; }
static double g_ha_max(const struct run *r, int a) { return r->ha_max; }
static double g_rfail(const struct run *r, int a) { return r->rfail; }
static double g_oom(const struct run *r, int a) { return r->oom_kill; }
static double g_lost(const struct run *r, int a) { return r->lost; }
static double g_cpu(const struct run *r, int a) { return r->gfptop_cpu; }

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

static void build_rows(const struct workload *w, struct rowset *rs)
{
	char lab[96];
	int t, c;

	rs->r = NULL;
	rs->n = 0;
	rs_add(rs, w, "allocations (events)", g_total, 0, 1);
	rs_add(rs, w, "allocations/s", g_rate, 0, 1);
	for (t = 0; t < NT; t++) {
		snprintf(lab, sizeof(lab), "%% %s", tier_names[t]);
		rs_add(rs, w, lab, g_share, t, t == T_NONE);
	}
	rs_add(rs, w, "% reserve (all but none)", g_reserve_share, 0, 1);
	for (t = 1; t < NT; t++) {
		snprintf(lab, sizeof(lab), "%s allocs", tier_names[t]);
		rs_add(rs, w, lab, g_count, t, 0);
	}
	for (t = 1; t < NT; t++) {
		snprintf(lab, sizeof(lab), "%s allocs order>0", tier_names[t]);
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
	rs_add(rs, w, "reserve_fail events", g_rfail, 0, 1);
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

static const char *const tier_colors[NT] = { "#bbbbbb", "#4477aa", "#ee6677", "#aa3377",
	"#228833", "#ccbb44", "#66ccee" };

/* stacked bars: share of each tier, per workload and kernel */
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
		for (t = 0; t < NT; t++)
			fprintf(f, " %s", tier_names[t]);
		fputc('\n', f);
		nbar = 0;
		for (i = 0; i < nwl; i++) {
			if (!wls[i].g[0].n && !wls[i].g[1].n)
				continue;
			if (nbar)
				fprintf(f, "\"\" 0 0 0 0 0 0 0\n");
			for (k = 0; k < NK; k++) {
				double res = mean_of(&wls[i].g[k], g_reserve, 0);

				if (p)
					fprintf(f, "\"%s %s (%.3g%%)\"", wls[i].name, kernels[k],
						mean_of(&wls[i].g[k], g_reserve_share, 0));
				else
					fprintf(f, "\"%s %s\"", wls[i].name, kernels[k]);
				for (t = 0; t < NT; t++) {
					double v = p ? (t && res > 0 ? 100 * mean_of(&wls[i].g[k], g_count, t) / res : 0)
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
		fprintf(f, "set terminal pngcairo noenhanced size %d,560 font 'sans,9'\n", 320 + 50 * nbar);
		fprintf(f, "set output '.%s.tmp'\n", pngs[p]);
		fprintf(f, "set title '%s'\n", p ? "Reserve allocations by tier (bar = 100%; label: reserve % of all)"
						  : "Share of allocations per reserve tier (mean over repetitions)");
		fprintf(f, "set style data histograms\nset style histogram rowstacked\n"
			   "set style fill solid 0.9 border -1\nset boxwidth 0.8\n"
			   "set ylabel '%s'\nset key outside right top\n"
			   "set xtics rotate by -60 font ',8'\nset grid y\nset yrange [0:100]\n",
			p ? "% of reserve allocations" : "% of allocations");
		fprintf(f, "plot ");
		for (t = p; t < NT; t++)
			fprintf(f, "%s'%s' using %d%s title '%s' lc rgb '%s'", t > p ? ", " : "", dats[p],
				t + 2, t == p ? ":xtic(1)" : "", tier_names[t], tier_colors[t]);
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
		s += g->runs[i].hist[t][b];
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
	int k, t, b, lo = 64, hi = -64, any[NT] = { 0 };
	FILE *f;

	snprintf(dat, sizeof(dat), "margins-%s.dat", w->name);
	snprintf(gp, sizeof(gp), "margins-%s.gp", w->name);
	snprintf(png, pnglen, "margins-%s.png", w->name);
	f = open_tmp(dat, tmp, sizeof(tmp));
	for (k = 0; k < NK; k++) {
		fprintf(f, "# %s: bucket index, then mean allocations per run for each tier\n", kernels[k]);
		for (b = 0; b < HB; b++) {
			double row[NT];
			int nz = 0;

			for (t = 0; t < NT; t++) {
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
			for (t = 0; t < NT; t++)
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
		for (t = 0; t < NT; t++) {
			if (!any[t])
				continue;
			fprintf(f, "%s'%s' index %d using 1:($%d > 0 ? $%d : NaN) with linespoints pt 7 ps 0.6 "
				   "lc rgb '%s' title '%s'",
				first ? "" : ", ", dat, k, t + 2, t + 2, tier_colors[t], tier_names[t]);
			first = 0;
		}
		fputc('\n', f);
	}
	fputs("unset multiplot\nunset output\n", f);
	close_rename(f, tmp, gp);
	pngs[0] = png;
	return run_gnuplot(gp, pngs, 1);
}

/* ---- report ---- */

static void describe_sources(struct doc *d, const struct workload *w)
{
	const char *cols[] = { "kernel", "tier", "allocs/run", "order>0", "gfp classes",
		"contexts" };
	int k, t, c, rows = 0, impossible = 0;

	for (k = 0; k < NK; k++) {
		for (t = 1; t < NT; t++) {
			char cells[6][512], *cp[6];
			double n = mean_of(&w->g[k], g_count, t), cl[NCLS] = { 0 }, cx[NCTX] = { 0 };
			size_t len;
			int i;

			if (n <= 0)
				continue;
			if (!rows++)
				table_head(d, 6, cols);
			for (i = 0; i < w->g[k].n; i++) {
				for (c = 0; c < NCLS; c++)
					cl[c] += w->g[k].runs[i].cls[t][c];
				for (c = 0; c < NCTX; c++)
					cx[c] += w->g[k].runs[i].ctx[t][c];
			}
			snprintf(cells[0], sizeof(cells[0]), "%s", kernels[k]);
			snprintf(cells[1], sizeof(cells[1]), "%s", tier_names[t]);
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

static void compare_table(struct doc *d, const struct rowset *rs)
{
	const char *cols[] = { "metric", "before mean", "before sd", "after mean", "after sd",
		"diff", "p (Welch)", "sig" };
	int i;

	table_head(d, 8, cols);
	for (i = 0; i < rs->n; i++) {
		const struct row *r = &rs->r[i];
		char c[8][64];
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
		double bn = mean_of(&wls[i].g[0], g_blocking, T_NON_BLOCK);
		double bm = mean_of(&wls[i].g[0], g_blocking, T_MIN_RESERVE);
		double an = mean_of(&wls[i].g[1], g_blocking, T_NON_BLOCK);
		double am = mean_of(&wls[i].g[1], g_blocking, T_MIN_RESERVE);
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
		"`oom` (OOM victims) and `highatomic` are expected exceptions.");
	bullet_start(d);
	for (i = 0, any = 0; i < nwl; i++) {
		int k;

		for (k = 0; k < NK; k++) {
			double per[NT] = { 0 };
			const struct group *g = &wls[i].g[k];
			int t, r;
			char s[512] = "";

			for (r = 0; r < g->n; r++)
				for (t = 1; t < NT; t++)
					per[t] += g->runs[r].cls[t][1] / g->n;
			for (t = 1; t < NT; t++) {
				size_t len = strlen(s);

				if (per[t] > 0)
					snprintf(s + len, sizeof(s) - len, "%s%s %.1f", len ? ", " : "",
						 tier_names[t], per[t]);
			}
			if (!*s)
				continue;
			any = 1;
			bullet(d, "%s, %s: GFP_NOWAIT reserve allocs/run by tier: %s: %s", wls[i].name,
			       kernels[k], s,
			       per[T_MIN_RESERVE] + per[T_MRNB] > 0 ? "CONTRADICTS the prediction"
			       : k == 1 && per[T_NON_BLOCK] > 0
				       ? "no min reserve, as predicted, but the non_block ones passed the "
					 "watermark only because ALLOC_NON_BLOCK stops the highatomic reserve "
					 "being subtracted from the free pages (before it was subtracted for "
					 "GFP_NOWAIT): a small reserve benefit \"no reserve access\" does not mention"
			       : k == 0 && per[T_NON_BLOCK] > 0
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
		"highatomic reserve after.");
	bullet_start(d);
	for (i = 0, any = 0; i < nwl; i++) {
		const struct row *ha = find_row(&all[i], "highatomic allocs");
		const struct row *hr = find_row(&all[i], "highatomic reserve events");
		const struct row *hm = find_row(&all[i], "highatomic max reserved (pages)");

		if (!wls[i].g[0].n || !wls[i].g[1].n || !hr || (hr->s[0].mean == 0 && hr->s[1].mean == 0 && !ha))
			continue;
		any = 1;
		bullet(d, "%s: highatomic-tier allocs %.1f -> %.1f/run; reserve events %.1f -> %.1f; "
			  "max reserved %.0f -> %.0f pages%s",
		       wls[i].name, ha ? ha->s[0].mean : 0, ha ? ha->s[1].mean : 0, hr->s[0].mean,
		       hr->s[1].mean, hm ? hm->s[0].mean : 0, hm ? hm->s[1].mean : 0,
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
			if (g->runs[i].hist[t][b] > 0) {
				double near = -(double)(1LL << (63 - b)); /* index b-64 = -(k+1): bound -2^k */

				if (near < d)
					d = near;
				break;
			}
		}
	}
	return d;
}

static void depth_check(struct doc *d)
{
	/* fraction of min a tier must leave free: kernel-patches/README.md,
	 * and what the cover letter's text says for the after kernel */
	static const double keep_code[NK][NT] = {
		{ 1, 0.75, 0.5, 0.375, 0.5, 0, 0 },
		{ 1, 1.0, 0.5, 0.375, 0.5, 0, 0 },
	};
	static const double keep_letter[NT] = { 1, 0.75, 0.5, 0.375, 0.25, 0, 0 };
	int i, k, t, any = 0;

	heading(d, 3, "5. How deep below the min watermark each tier went");
	para(d, "The cover letter says \"ALLOC_NON_BLOCK (no direct reclaim) on its own allows 25%% of "
		"the min reserve ... ALLOC_OOM allows access to 75%%\"; its v3 changelog and the code "
		"(kernel-patches/README.md) say NON_BLOCK alone gets none of it after (75%% of min must "
		"stay free before, ALLOC_HARDER) and ALLOC_OOM half. For each reserve tier, the deepest "
		"margin bucket seen (its bound nearest zero, so the true depth is up to twice that) is "
		"compared with the min watermark of the guest's biggest zone (from /proc/zoneinfo). "
		"A tier may go down to -(1 - kept) x min. Margins are read without the zone lock and "
		"the watermark check also adds lowmem_reserve, so treat a bucket beyond the limit as a "
		"question, not a proof.");
	bullet_start(d);
	for (i = 0; i < nwl; i++) {
		for (k = 0; k < NK; k++) {
			for (t = 1; t <= T_OOM; t++) {
				double zmin, dp = deepest(&wls[i].g[k], t, &zmin), lim;
				char letter[96];
				const char *v;

				if (mean_of(&wls[i].g[k], g_count, t) <= 0 || zmin <= 0)
					continue;
				any = 1;
				lim = -(1 - keep_code[k][t]) * zmin;
				if (dp > 0)
					v = "never below its mark";
				else if (dp < lim - 0.5)
					v = "DEEPER than the code allows";
				else
					v = "within the code's limit";
				if (k == 1 && keep_letter[t] != keep_code[1][t])
					snprintf(letter, sizeof(letter), "; the cover letter's text: %.0f%%",
						 -100 * (1 - keep_letter[t]));
				else
					letter[0] = 0;
				if (dp > 0)
					bullet(d, "%s, %s, %s: %s (min %.0f pages)", wls[i].name, kernels[k],
					       tier_names[t], v, zmin);
				else
					bullet(d, "%s, %s, %s: down to at least %.0f pages = %.0f%% of min "
						  "(min %.0f; code limit %.0f%%%s): %s",
					       wls[i].name, kernels[k], tier_names[t], dp, 100 * dp / zmin, zmin,
					       100 * lim / zmin, letter, v);
			}
		}
	}
	if (!any)
		bullet(d, "no reserve tier with allocations, or no zoneinfo in the results (older runs)");
	bullet_end(d);
}

static void write_summary_json(struct rowset *all)
{
	char tmp[4096];
	json_object *root = json_object_new_object(), *ws = json_object_new_array();
	FILE *f;
	int i, j, k;

	json_object_object_add(root, "schema", json_object_new_string("gfpcompare-summary/1"));
	json_object_object_add(root, "alpha", json_object_new_double(alpha));
	for (i = 0; i < nwl; i++) {
		json_object *w = json_object_new_object(), *rows = json_object_new_array();

		json_object_object_add(w, "workload", json_object_new_string(wls[i].name));
		for (j = 0; j < all[i].n; j++) {
			const struct row *r = &all[i].r[j];
			json_object *o = json_object_new_object();

			json_object_object_add(o, "metric", json_object_new_string(r->label));
			for (k = 0; k < NK; k++) {
				json_object *s = json_object_new_object();

				json_object_object_add(s, "n", json_object_new_int(r->s[k].n));
				json_object_object_add(s, "mean", json_object_new_double(isnan(r->s[k].mean) ? 0 : r->s[k].mean));
				json_object_object_add(s, "sd", json_object_new_double(isnan(r->s[k].sd) ? 0 : r->s[k].sd));
				json_object_object_add(o, kernels[k], s);
			}
			if (r->tested && !isnan(r->w.p))
				json_object_object_add(o, "p", json_object_new_double(r->w.p));
			json_object_object_add(o, "significant", json_object_new_boolean(significant(r)));
			json_object_array_add(rows, o);
		}
		json_object_object_add(w, "rows", rows);
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
			bullet(&d, "gfptop `%s` (binary sha256 %s...), QEMU %s, accelerator `%s`, guests of %d vCPUs "
				   "with vm.min_free_kbytes=%d; stress-ng seed 1000+repetition",
			       r->gfpver, r->sha, r->qemu, r->accel, r->cpus, r->min_free);
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
	para(&d, "Not like for like: `reserve_fail` counts failed requests that held any reserve flag. "
		 "After, every non-blocking request (GFP_NOWAIT included) holds ALLOC_NON_BLOCK; before, "
		 "only __GFP_ATOMIC and RT-task requests held ALLOC_HARDER. So the after kernel counts "
		 "failures of GFP_NOWAIT requests that the before kernel does not: a rise of reserve_fail "
		 "in after is partly that definition. Likewise `non_block` means ALLOC_HARDER (75%% of "
		 "min) before and ALLOC_NON_BLOCK (no part of min, only the highatomic reserve counted "
		 "as free) after.");

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
		heading(&d, 3, "Where the reserve allocations came from (mean per run)");
		describe_sources(&d, &wls[i]);
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
