/* See source.h. */
#include "source.h"

#include <stdio.h>
#include <string.h>

static const char *const names[] = {
	[SRC_AUTO] = "auto",
	[SRC_TRACEPOINT] = "tracepoint",
	[SRC_PROBE] = "probe",
	[SRC_BOTH] = "both",
};

const char *source_name(enum gt_source s)
{
	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : NULL;
}

int source_parse(const char *s, enum gt_source *out)
{
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i])) {
			*out = i;
			return 0;
		}
	}
	return -1;
}

int source_resolve(struct source_plan *p, bool has_tp, const char *tp_msg, bool has_probe,
		   char *msg, size_t len)
{
	if (p->src == SRC_AUTO)
		p->src = has_tp ? SRC_TRACEPOINT : SRC_PROBE;
	if (source_uses_tp(p) && !has_tp) {
		snprintf(msg, len, "%s", tp_msg);
		return -1;
	}
	if (source_uses_probe(p) && !has_probe) {
		snprintf(msg, len, "this kernel's BTF lacks get_page_from_freelist(): the probe "
			 "source cannot attach (is it inlined on this build?)");
		return -1;
	}
	return 0;
}
