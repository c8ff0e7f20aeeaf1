/* See output.h. */
#define _GNU_SOURCE
#include "output.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "format.h"
#include "json.h"
#include "prom.h"

static int written(FILE *f)
{
	return ferror(f) ? -1 : 0;
}

static int emit_live(FILE *f, const struct report *r, const struct out_view *v)
{
	fmt_live(f, r, v->rows, v->clear, v->timestamps);
	return written(f);
}

static int emit_hist(FILE *f, const struct report *r, const struct out_view *v)
{
	fmt_histogram_mode(f, r, v->timestamps);
	return written(f);
}

static int emit_json(FILE *f, const struct report *r, const struct out_view *v)
{
	return json_write_report(f, r);
}

static int emit_csv(FILE *f, const struct report *r, const struct out_view *v)
{
	fmt_csv(f, r);
	return written(f);
}

/* the counters since the start: node_exporter may read at any moment */
static int emit_prom(FILE *f, const struct report *r, const struct out_view *v)
{
	static struct report totals;

	prom_accumulate(&totals, r);
	return prom_write(f, &totals);
}

const struct out_mode_def out_modes[MODE_NR] = {
	[MODE_LIVE] = { .emit = emit_live },
	[MODE_HIST] = {
		.option = "histogram", .short_option = 'H', .emit = emit_hist,
		.help = "tier x order table, what each tier permits, depth below the\n"
			"min watermark, highatomic pages via pcp, margin histograms",
	},
	[MODE_JSON] = {
		.option = "json", .short_option = 'j', .emit = emit_json,
		.prepare = json_prepare,
		.help = "one JSON object per interval (docs/json-schema.md)",
	},
	[MODE_CSV] = {
		.option = "csv", .emit = emit_csv, .header = fmt_csv_header,
		.help = "CSV, long format: timestamp,interval_s,section,tier,key,count,pages",
	},
	[MODE_PROM] = {
		.option = "prom", .emit = emit_prom, .file_per_report = true,
		.help = "Prometheus text: counters since the start, every interval;\n"
			"with -o, FILE is replaced each interval (docs/prometheus.md)",
	},
};

const char *out_mode_list(void)
{
	static char buf[128];
	size_t n = 0, k = 0, have = 0;

	for (int m = 0; m < MODE_NR; m++)
		have += out_modes[m].option != NULL;
	buf[0] = 0;
	for (int m = 0; m < MODE_NR && n < sizeof(buf); m++) {
		const struct out_mode_def *d = &out_modes[m];

		if (!d->option)
			continue;
		k++;
		n += snprintf(buf + n, sizeof(buf) - n, "%s", k == 1 ? "" : k == have ? " and " : ", ");
		if (n >= sizeof(buf))
			break;
		if (d->short_option)
			n += snprintf(buf + n, sizeof(buf) - n, "-%c", d->short_option);
		else
			n += snprintf(buf + n, sizeof(buf) - n, "--%s", d->option);
	}
	return buf;
}

/* the output open now, for output_abort_signal() */
static struct outfile *volatile signal_file;

static int open_file(struct output *out)
{
	if (outfile_open(&out->file, out->path))
		return -1;
	signal_file = &out->file;
	return 0;
}

static int commit_file(struct output *out)
{
	signal_file = NULL;
	return outfile_commit(&out->file);
}

static void abort_file(struct output *out)
{
	signal_file = NULL;
	outfile_abort(&out->file);
}

int output_check(enum out_mode mode, const char *path, char *msg, size_t len)
{
	int n;

	if (path) {
		if ((n = outfile_clean_stale(path)) > 0)
			fprintf(stderr, "gfptop: removed %d temporary file%s of an earlier run "
				"that was killed\n", n, n > 1 ? "s" : "");
		if (outfile_check(path, msg, len))
			return -1;
	}
	if (out_modes[mode].prepare)
		out_modes[mode].prepare();
	return 0;
}

/* --prom -o: one new FILE per report, replacing the last */
static int report_to_new_file(struct output *out, const struct report *r)
{
	if (open_file(out))
		return -1;
	if (out->def->emit(out->file.f, r, &out->view)) {
		abort_file(out);
		return -1;
	}
	return commit_file(out);
}

int output_open(struct output *out, enum out_mode mode, const char *path,
		const struct out_view *view, const struct report *empty, char *msg, size_t len)
{
	memset(out, 0, sizeof(*out));
	out->def = &out_modes[mode];
	out->path = path;
	out->view = *view;
	out->view.clear = view->clear && !path && isatty(STDOUT_FILENO);
	out->f = stdout;
	if (path && out->def->file_per_report) {
		out->f = NULL;
		if (report_to_new_file(out, empty)) {
			snprintf(msg, len, "cannot write %s: %s", path, strerror(errno));
			return -1;
		}
		return 0;
	}
	if (path) {
		if (open_file(out)) {
			snprintf(msg, len, "cannot create a temporary file next to %s: %s", path,
				 strerror(errno));
			return -1;
		}
		out->f = out->file.f;
	}
	if (out->def->header)
		out->def->header(out->f);
	return 0;
}

int output_report(struct output *out, const struct report *r, char *msg, size_t len)
{
	int rc = out->f ? out->def->emit(out->f, r, &out->view) : report_to_new_file(out, r);

	if (rc)
		snprintf(msg, len, "write error%s%s: %s", out->path ? " on " : "",
			 out->path ? out->path : "", strerror(errno));
	return rc;
}

int output_close(struct output *out, bool ok, char *msg, size_t len)
{
	if (!out->def)		/* never opened */
		return 0;
	if (!out->path || !out->f) {	/* stdout, or --prom's files are all committed */
		if (!out->path)
			fflush(stdout);
		return 0;
	}
	if (!ok) {
		abort_file(out);
		return 0;
	}
	if (commit_file(out)) {
		snprintf(msg, len, "writing %s failed: %s", out->path, strerror(errno));
		return -1;
	}
	return 0;
}

void output_abort_signal(void)
{
	struct outfile *f = signal_file;

	if (f)
		outfile_abort_signal(f);
}
