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
	if ((p->src == SRC_TRACEPOINT || p->src == SRC_BOTH) && !has_tp) {
		snprintf(msg, len, "%s", tp_msg);
		return -1;
	}
	if ((p->src == SRC_PROBE || p->src == SRC_BOTH) && !has_probe) {
		snprintf(msg, len, "this kernel's BTF lacks get_page_from_freelist(): the probe "
			 "source cannot attach (is it inlined on this build?)");
		return -1;
	}
	return 0;
}

static bool has_suffix(const char *name, const char *suffix)
{
	size_t n = strlen(name), s = strlen(suffix);

	return n > s && !strcmp(name + n - s, suffix);
}

static bool has_prefix(const char *name, const char *prefix)
{
	return !strncmp(name, prefix, strlen(prefix));
}

bool source_wants_prog(const struct source_plan *p, const char *name)
{
	bool tp = p->src == SRC_TRACEPOINT || p->src == SRC_BOTH;
	bool probe = p->src == SRC_PROBE || p->src == SRC_BOTH;
	bool irq = has_prefix(name, "irq_handler_") || has_prefix(name, "softirq_") ||
		   has_prefix(name, "local_timer_");

	if (has_prefix(name, "local_timer_") && !p->have_timer)
		return false;
	if (has_prefix(name, "unreserve_probe_") && !p->have_unreserve)
		return false;
	if (has_suffix(name, "_btf") || has_suffix(name, "_raw"))
		return (irq || tp) && has_suffix(name, p->raw ? "_raw" : "_btf");
	if (has_suffix(name, "_fentry") || has_suffix(name, "_fexit"))
		return probe && !p->kprobe;
	if (has_suffix(name, "_kprobe") || has_suffix(name, "_kretprobe"))
		return probe && p->kprobe;
	return false;
}

bool source_attach_first(const char *name)
{
	return strstr(name, "_exit_") != NULL;
}
