/* Command line of gfptop. Parsing is separate from main so that it is
 * unit tested: it never prints or exits, it returns a status and a
 * message. */
#ifndef GFPTOP_OPTIONS_H
#define GFPTOP_OPTIONS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "output.h"
#include "report.h"
#include "source.h"

struct options {
	enum out_mode mode;
	double interval;	/* seconds */
	long count;		/* intervals, 0: until interrupted */
	double duration;	/* -d, 0: none */
	uint32_t pid;		/* -p, 0: any */
	const char *cgroup;	/* -c path, NULL: any */
	uint32_t min_order;	/* -m */
	uint32_t tier_mask;	/* -t, bit per enum gfptop_tier */
	enum sort_key sort;	/* -s */
	int sort_tier;		/* -s TIERNAME */
	int rows;		/* -r */
	bool no_clear;		/* -C */
	bool timestamps;	/* -T */
	bool verbose;		/* -v */
	const char *output;	/* -o FILE */
	enum gt_source source;	/* --source, default auto */
	bool kprobe;		/* --kprobe: probe source on kprobes, not fentry */
};

enum { OPT_OK = 0, OPT_HELP = 1, OPT_ERROR = 2 };

/* Returns OPT_OK, OPT_HELP (-h) or OPT_ERROR with a message in err. */
int options_parse(int argc, char **argv, struct options *o, char *err, size_t errlen);

/* Parse a -t list ("oom,highatomic", "reserve" = all but none, "all"). */
int options_parse_tiers(const char *s, uint32_t *mask);

/* The usage line and -h's text; the output modes' parts come from
 * out_modes[] (output.h). */
const char *options_usage(void);
const char *options_help(void);

#endif
