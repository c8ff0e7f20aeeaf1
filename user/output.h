/* Where and how gfptop's reports go: the output mode (the live view,
 * -H, -j, --csv or --prom) and -o FILE. This module owns an output's
 * whole life: the check before anything is attached, the file (one per
 * run, or with --prom one per report), each report, commit or abort at
 * exit, and the removal of a half-written file on a fatal signal. A
 * mode is one line of out_modes[]: option parsing, the help text and
 * the one-mode-only message are made from that table. */
#ifndef GFPTOP_OUTPUT_H
#define GFPTOP_OUTPUT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "outfile.h"
#include "report.h"

enum out_mode { MODE_LIVE, MODE_HIST, MODE_JSON, MODE_CSV, MODE_PROM, MODE_NR };

/* what a report needs besides the counts */
struct out_view {
	int rows;		/* -r: process table rows */
	bool clear;		/* clear the screen first (live view on a tty) */
	bool timestamps;	/* -T */
};

struct out_mode_def {
	const char *option;	/* long option ("json"); NULL: the default */
	char short_option;	/* 'j', or 0: long option only */
	const char *help;	/* its -h text, after the option column */
	/* -o FILE replaced after every report (the counters since the
	 * start), not written once at the end */
	bool file_per_report;
	void (*prepare)(void);	/* before attaching, or NULL */
	void (*header)(FILE *f);	/* once before the first report, or NULL */
	int (*emit)(FILE *f, const struct report *r, const struct out_view *v);
};

extern const struct out_mode_def out_modes[MODE_NR];

/* "-H, -j, --csv and --prom" (the modes with an option), for messages */
const char *out_mode_list(void);

struct output {
	const struct out_mode_def *def;
	const char *path;	/* -o FILE, or NULL: stdout */
	struct out_view view;
	struct outfile file;	/* -o's file while it is being written */
	FILE *f;		/* where reports go, NULL for file_per_report */
};

/* Before anything is attached: remove what an earlier run killed by
 * SIGKILL left for PATH (saying so on stderr), refuse a PATH that
 * cannot be written, and the mode's own preparation. 0, or -1 with one
 * line in MSG. */
int output_check(enum out_mode mode, const char *path, char *msg, size_t len);
/* Once attached: stdout, or -o's file (with --prom, made now with
 * EMPTY's counts, all 0, and replaced after each report). The view's
 * clear is decided here. 0, or -1 with MSG. */
int output_open(struct output *out, enum out_mode mode, const char *path,
		const struct out_view *view, const struct report *empty, char *msg, size_t len);
/* One interval's report. 0, or -1 with MSG. */
int output_report(struct output *out, const struct report *r, char *msg, size_t len);
/* At exit: OK commits -o's file (0, or -1 with MSG), !OK removes it. */
int output_close(struct output *out, bool ok, char *msg, size_t len);
/* Async-signal-safe, for a fatal signal: remove the half-written file
 * of the output open now, if any. */
void output_abort_signal(void);

#endif
