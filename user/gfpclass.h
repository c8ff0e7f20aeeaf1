/* GFP class of an allocation (GFP_ATOMIC, GFP_NOWAIT, GFP_KERNEL, ...),
 * decided from the gfp flag values the running kernel prints in its
 * tracepoint format file, never from one kernel's ___GFP_* bits. */
#ifndef GFPTOP_GFPCLASS_H
#define GFPTOP_GFPCLASS_H
#include <stdbool.h>
#include <stdint.h>
#include "names.h" /* enum gfp_class */
#include "tpformat.h"

#define GFPC_MAX_DEFS 8

struct gfp_classifier {
	/* the bits that tell the classes apart: the union of the class
	 * definitions (reclaim, IO, FS, HIGH, HARDWALL, ATOMIC if any) */
	uint64_t relevant;
	int ndefs;
	struct {
		enum gfp_class cls;
		uint64_t value;	/* the composite's value & relevant */
	} defs[GFPC_MAX_DEFS];
	bool has_gfp_atomic_flag; /* __GFP_ATOMIC exists: before-series kernel */
	bool valid;
};

/* Build from a gfp flag table (tpfmt_table(..., "__print_flags",
 * "gfp_flags", ...)). Returns 0, or -1 naming in *missing (if non-NULL)
 * the first composite that the table lacks; the classifier then puts
 * everything in GFPC_OTHER. */
int gfpclass_init(struct gfp_classifier *gc, const struct tpfmt_sym *syms, int n,
		  const char **missing);

/* Convenience: from a format file's text. */
int gfpclass_init_from_format(struct gfp_classifier *gc, const char *text,
			      const char **missing);

enum gfp_class gfpclass_classify(const struct gfp_classifier *gc, uint64_t gfp_flags);

/* Stable names: "GFP_ATOMIC", "GFP_NOWAIT", "GFP_KERNEL",
 * "GFP_NOFS_NOIO", "GFP_USER", "other". */
const char *gfpclass_name(enum gfp_class c);

#endif
