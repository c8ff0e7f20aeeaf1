/* See gfpclass.h.
 *
 * A gfp value belongs to class C when it agrees with C's composite on the
 * "relevant" bits, i.e. on all bits that some class composite sets, and
 * may carry any other modifier (__GFP_ZERO, __GFP_NOWARN, __GFP_COMP,
 * __GFP_ACCOUNT, zone and mobility bits). So GFP_KERNEL_ACCOUNT is
 * GFP_KERNEL, GFP_HIGHUSER_MOVABLE is GFP_USER, and on the before kernel
 * GFP_ATOMIC must include __GFP_ATOMIC because its composite does.
 * Anything else, e.g. GFP_TRANSHUGE(_LIGHT) or bare __GFP_HIGH, is other.
 */
#include "gfpclass.h"
#include "names.h"

#include <string.h>

static const struct {
	const char *composite;
	enum gfp_class cls;
} class_defs[] = {
	{ "GFP_ATOMIC", GFPC_ATOMIC },
	{ "GFP_NOWAIT", GFPC_NOWAIT },
	{ "GFP_KERNEL", GFPC_KERNEL },
	{ "GFP_NOFS", GFPC_NOFS_NOIO },
	{ "GFP_NOIO", GFPC_NOFS_NOIO },
	{ "GFP_USER", GFPC_USER },
};

const char *gfpclass_name(enum gfp_class c)
{
	return (unsigned)c < GFPC_NR ? gfp_class_names[c] : "?";
}

int gfpclass_init(struct gfp_classifier *gc, const struct tpfmt_sym *syms, int n,
		  const char **missing)
{
	uint64_t v;
	size_t i;

	memset(gc, 0, sizeof(*gc));
	gc->has_gfp_atomic_flag = tpfmt_lookup(syms, n, "__GFP_ATOMIC", &v) == 0;
	for (i = 0; i < sizeof(class_defs) / sizeof(class_defs[0]); i++) {
		if (tpfmt_lookup(syms, n, class_defs[i].composite, &v)) {
			if (missing)
				*missing = class_defs[i].composite;
			gc->ndefs = 0;
			return -1;
		}
		gc->relevant |= v;
		gc->defs[gc->ndefs].cls = class_defs[i].cls;
		gc->defs[gc->ndefs].value = v;
		gc->ndefs++;
	}
	for (i = 0; i < (size_t)gc->ndefs; i++)
		gc->defs[i].value &= gc->relevant;
	gc->valid = true;
	return 0;
}

int gfpclass_init_from_format(struct gfp_classifier *gc, const char *text,
			      const char **missing)
{
	struct tpfmt_sym syms[128];
	int n = tpfmt_table(text, "__print_flags", "gfp_flags", syms, 128);

	if (n < 0) {
		memset(gc, 0, sizeof(*gc));
		if (missing)
			*missing = "the gfp_flags __print_flags table";
		return -1;
	}
	return gfpclass_init(gc, syms, n, missing);
}

enum gfp_class gfpclass_classify(const struct gfp_classifier *gc, uint64_t gfp_flags)
{
	uint64_t r;

	if (!gc->valid)
		return GFPC_OTHER;
	r = gfp_flags & gc->relevant;
	for (int i = 0; i < gc->ndefs; i++)
		if (r == gc->defs[i].value)
			return gc->defs[i].cls;
	return GFPC_OTHER;
}
