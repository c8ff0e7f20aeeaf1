/* See plots.h. */
#include "plots.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levels.h"
#include "metrics.h"
#include "util.h"

int have_gnuplot(void)
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

/* a colour per tier of gfptop's table (common/gfptop_tiers.h); a tier
 * without one, e.g. one gfptop does not know, takes the next of a
 * fallback palette */
static const char *known_color(const struct results *res, int t)
{
	return res->tiers[t].gt >= 0 ? tier_colours[res->tiers[t].gt] : NULL;
}

static const char *tier_color(const struct results *res, int t)
{
	static const char *const extra[] = { "#009988", "#cc3311", "#33bbee", "#ee3377", "#997700",
		"#6699cc" };
	int n = 0, u;

	if (known_color(res, t))
		return known_color(res, t);
	/* the how-many-th tier without a colour this is */
	for (u = 0; u < t; u++)
		if (!known_color(res, u))
			n++;
	return extra[n % (int)(sizeof(extra) / sizeof(extra[0]))];
}

/* stacked bars per workload and kernel: tiers.png, the share of every
 * tier; reserve.png, the reserve tiers as shares of the reserve
 * allocations (each bar 100%), labelled with the reserve share of all */
int plot_tiers(const struct results *res)
{
	char tmp[4096];
	const char *pngs[] = { "tiers.png", "reserve.png" };
	const char *dats[] = { "tiers.dat", "reserve.dat" };
	FILE *f;
	int i, k, t, p, nbar = 0;

	for (p = 0; p < 2; p++) {
		f = open_tmp(dats[p], tmp, sizeof(tmp));
		fprintf(f, "# label");
		for (t = 0; t < res->ntiers; t++)
			fprintf(f, " %s", res->tiers[t].name);
		fputc('\n', f);
		nbar = 0;
		for (i = 0; i < res->nwl; i++) {
			if (!res->wls[i].g[0].n && !res->wls[i].g[1].n)
				continue;
			if (nbar) {
				fprintf(f, "\"\"");
				for (t = 0; t < res->ntiers; t++)
					fprintf(f, " 0");
				fputc('\n', f);
			}
			for (k = 0; k < NK; k++) {
				double reserve = mean_of(res, &res->wls[i].g[k], g_reserve, 0);

				if (p)
					fprintf(f, "\"%s %s (%.3g%%)\"", res->wls[i].name, res->kernels[k],
						mean_of(res, &res->wls[i].g[k], g_reserve_share, 0));
				else
					fprintf(f, "\"%s %s\"", res->wls[i].name, res->kernels[k]);
				for (t = 0; t < res->ntiers; t++) {
					double v = p ? (is_reserve(res, t) && reserve > 0
								? 100 * mean_of(res, &res->wls[i].g[k], g_count, t) / reserve
								: 0)
						     : mean_of(res, &res->wls[i].g[k], g_share, t);

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
		for (t = 0; t < res->ntiers; t++) {
			if (p && !is_reserve(res, t))
				continue;
			fprintf(f, "%s'%s' using %d%s title '%s' lc rgb '%s'", first ? "" : ", ", dats[p],
				t + 2, first ? ":xtic(1)" : "", res->tiers[t].name, tier_color(res, t));
			first = 0;
		}
		fprintf(f, "\nunset output\n");
	}
	close_rename(f, tmp, "tiers.gp");
	return run_gnuplot("tiers.gp", pngs, 2);
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
int plot_margins(const struct results *res, const struct workload *w, char *png, size_t pnglen)
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
		fprintf(f, "# %s: bucket index, then mean allocations per run for each tier\n", res->kernels[k]);
		for (b = 0; b < HB; b++) {
			double row[MAXT];
			int nz = 0;

			for (t = 0; t < res->ntiers; t++) {
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
			for (t = 0; t < res->ntiers; t++)
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

		fprintf(f, "set title '%s'\nplot ", res->kernels[k]);
		for (t = 0; t < res->ntiers; t++) {
			if (!any[t])
				continue;
			fprintf(f, "%s'%s' index %d using 1:($%d > 0 ? $%d : NaN) with linespoints pt 7 ps 0.6 "
				   "lc rgb '%s' title '%s'",
				first ? "" : ", ", dat, k, t + 2, t + 2, tier_color(res, t), res->tiers[t].name);
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
static double depth_x(const struct results *res, double pct)
{
	int b;

	for (b = 0; b < res->nbuckets; b++) {
		double lo = res->buckets[b].lo, hi = res->buckets[b].hi;

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

static int levels_of(const struct results *res, int k, struct levelmark *lm, int max)
{
	int n = 0, t, i;

	for (t = 0; t < res->ntiers; t++) {
		double l = res->tiers[t].level[k];

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
			 lm[i].text[0] ? ", " : "", res->tiers[t].name);
	}
	qsort(lm, (size_t)n, sizeof(*lm), cmp_levelmark);
	return n;
}

/* depth-<workload>.dat: per kernel a block, per bucket a line with the
 * share of each listed tier's allocations */
static void write_depth_dat(const struct results *res, const struct workload *w, const int *list, int n,
			    const char *dat)
{
	char tmp[4096];
	FILE *f = open_tmp(dat, tmp, sizeof(tmp));
	int k, b, i;

	for (k = 0; k < NK; k++) {
		double sh[MAXT][MAXB];

		fprintf(f, "# %s: bucket, then %% of each tier's allocations:", res->kernels[k]);
		for (i = 0; i < n; i++) {
			depth_shares(res, &w->g[k], list[i], sh[i]);
			fprintf(f, " %s", res->tiers[list[i]].name);
		}
		fputc('\n', f);
		for (b = 0; b < res->nbuckets; b++) {
			fprintf(f, "\"%s\"", res->buckets[b].name);
			for (i = 0; i < n; i++)
				fprintf(f, " %.4f", sh[i][b]);
			fputc('\n', f);
		}
		fprintf(f, "\n\n");
	}
	close_rename(f, tmp, dat);
}

/* the bucket names as x tics: a tic label is a format for the tic's
 * value, so % is doubled (and ' for gnuplot's quoting) */
static void depth_xtics(FILE *f, const struct results *res)
{
	int b;

	fputs("set xtics (", f);
	for (b = 0; b < res->nbuckets; b++) {
		const char *c;

		fputs(b ? ", '" : "'", f);
		for (c = res->buckets[b].name; *c; c++)
			fputs(*c == '%' ? "%%" : *c == '\'' ? "''" : (char[]){ *c, 0 }, f);
		fprintf(f, "' %d", b);
	}
	fputs(")\n", f);
}

/* kernel k's panel: the bucket bounds, its levels, the listed tiers' bars */
static void depth_panel(FILE *f, const struct results *res, const struct workload *w, int k,
			const int *list, int n, const char *dat)
{
	struct levelmark lm[MAXT];
	int nl = levels_of(res, k, lm, MAXT), b, i, j;

	fputs("unset arrow\nunset label\n", f);
	/* every bucket bound, faint */
	for (b = 0; b + 1 < res->nbuckets; b++)
		fprintf(f, "set arrow from %g, graph 0 to %g, first 100 nohead dt 3 lc rgb '#aaaaaa'\n",
			b + 0.5, b + 0.5);
	/* the levels: a line and which tiers must stay above it */
	for (j = 0; j < nl; j++) {
		double x = depth_x(res, lm[j].pct);

		if (isnan(x))
			continue;
		fprintf(f, "set arrow from %g, graph 0 to %g, first 128 nohead lw 2 lc rgb '#333333'\n", x, x);
		fprintf(f, "set label \"%s: > %g%%\" at %g, %d left boxed font ',8'\n", lm[j].text, lm[j].pct,
			x + 0.04, 104 + 8 * (j % 3));
	}
	fprintf(f, "set title '%s: lines = the level each tier must stay above on this kernel%s'\n",
		res->kernels[k],
		levels_from_json(res, k) ? " (gfptop''s tier_levels)" : " (gfptop''s rule set)");
	fputs("plot ", f);
	for (i = 0; i < n; i++) {
		char cnt[32];
		double c = mean_of(res, &w->g[k], g_count, list[i]);

		snprintf(cnt, sizeof(cnt), "%.3g", c);
		fprintf(f, "%s'%s' index %d using %d title '%s (%s/run)' lc rgb '%s'", i ? ", " : "", dat, k,
			i + 2, res->tiers[list[i]].name, cnt, tier_color(res, list[i]));
	}
	fputc('\n', f);
}

/* depth of one workload, one panel per kernel: the share of each reserve
 * tier's allocations per depth bucket, with the kernel's levels drawn */
int plot_depth(const struct results *res, const struct workload *w, char *png, size_t pnglen)
{
	char tmp[4096], dat[128], gp[128];
	const char *pngs[1];
	int list[MAXT], n = depth_tiers(res, w, list), k;
	FILE *f;

	snprintf(dat, sizeof(dat), "depth-%s.dat", w->name);
	snprintf(gp, sizeof(gp), "depth-%s.gp", w->name);
	snprintf(png, pnglen, "depth-%s.png", w->name);
	if (!n || !res->nbuckets)
		return -1;
	write_depth_dat(res, w, list, n, dat);

	f = open_tmp(gp, tmp, sizeof(tmp));
	fprintf(f, "set terminal pngcairo noenhanced size 1000,940 font 'sans,9'\nset output '.%s.tmp'\n", png);
	fprintf(f, "set multiplot layout 2,1 title 'Depth, %s: free pages when each page was taken, as %% of the "
		   "unboosted min watermark (deeper to the right)'\n", w->name);
	fprintf(f, "set style data histograms\nset style histogram clustered gap 1\n"
		   "set style fill solid 0.9 border -1\nset boxwidth 0.9\n"
		   "set yrange [0:135]\nset ytics 0,20,100\nset grid y\nset key below horizontal maxcols 5\n"
		   "set ylabel '%% of the tier''s allocations'\nset xrange [-0.5:%d.5]\n"
		   "set style textbox opaque noborder\n", res->nbuckets - 1);
	depth_xtics(f, res);
	for (k = 0; k < NK; k++)
		depth_panel(f, res, w, k, list, n, dat);
	fputs("unset multiplot\nunset output\n", f);
	close_rename(f, tmp, gp);
	pngs[0] = png;
	return run_gnuplot(gp, pngs, 1);
}
