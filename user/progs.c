/* See progs.h. */
#include "progs.h"

#include <string.h>

/* The kinds of section gfptop uses, with the type and expected attach
 * type libbpf gives each: a program must match all three, so that a
 * variant libbpf treats otherwise (fentry.s/, a multi-kprobe) is not
 * taken for one of these. */
static const struct kind {
	const char *prefix;		/* of the section, up to the target */
	enum bpf_prog_type type;
	enum bpf_attach_type attach;
	enum prog_kind kind;
} kinds[] = {
	{ "tp_btf/", BPF_PROG_TYPE_TRACING, BPF_TRACE_RAW_TP, PROG_TP_BTF },
	/* raw_tp and kprobes have no expected attach type: libbpf leaves 0 */
	{ "raw_tp/", BPF_PROG_TYPE_RAW_TRACEPOINT, 0, PROG_RAW_TP },
	{ "fentry/", BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY, PROG_FENTRY },
	{ "fexit/", BPF_PROG_TYPE_TRACING, BPF_TRACE_FEXIT, PROG_FEXIT },
	/* the same type: only the section tells libbpf to attach at return */
	{ "kprobe/", BPF_PROG_TYPE_KPROBE, 0, PROG_KPROBE },
	{ "kretprobe/", BPF_PROG_TYPE_KPROBE, 0, PROG_KRETPROBE },
};

/* What gfptop attaches to, and what for. A tracepoint target takes
 * tp_btf/raw_tp programs, a function target the other kinds. */
static const struct target {
	const char *name;
	enum prog_role role;
	enum prog_need need;
	bool first;	/* the interrupt depths need each exit before its entry */
} targets[] = {
	{ "irq_handler_entry", PROG_IRQ, NEED_NOTHING, false },
	{ "irq_handler_exit", PROG_IRQ, NEED_NOTHING, true },
	{ "local_timer_entry", PROG_IRQ, NEED_TIMER, false },
	{ "local_timer_exit", PROG_IRQ, NEED_TIMER, true },
	{ "softirq_entry", PROG_IRQ, NEED_NOTHING, false },
	{ "softirq_exit", PROG_IRQ, NEED_NOTHING, true },
	{ "mm_page_alloc_tier", PROG_TRACEPOINT, NEED_NOTHING, false },
	{ "mm_page_alloc_reserve_fail", PROG_TRACEPOINT, NEED_NOTHING, false },
	{ "mm_reserve_highatomic", PROG_TRACEPOINT, NEED_NOTHING, false },
	{ "mm_unreserve_highatomic", PROG_TRACEPOINT, NEED_NOTHING, false },
	{ "get_page_from_freelist", PROG_PROBE, NEED_NOTHING, false },
	{ "unreserve_highatomic_pageblock", PROG_PROBE, NEED_UNRESERVE, false },
};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static bool on_tracepoint(enum prog_kind k)
{
	return k == PROG_TP_BTF || k == PROG_RAW_TP;
}

int progs_classify(const char *sec, enum bpf_prog_type type, enum bpf_attach_type attach,
		   struct prog_class *c)
{
	const struct kind *k = NULL;

	for (size_t i = 0; i < ARRAY_LEN(kinds) && !k; i++) {
		size_t n = strlen(kinds[i].prefix);

		if (!strncmp(sec, kinds[i].prefix, n) && type == kinds[i].type &&
		    attach == kinds[i].attach)
			k = &kinds[i];
	}
	if (!k)
		return -1;
	c->kind = k->kind;
	c->target = sec + strlen(k->prefix);
	for (size_t i = 0; i < ARRAY_LEN(targets); i++) {
		const struct target *t = &targets[i];

		if (strcmp(c->target, t->name))
			continue;
		/* a tracepoint's program on a function, or the reverse */
		if (on_tracepoint(c->kind) != (t->role != PROG_PROBE))
			return -1;
		c->role = t->role;
		c->need = t->need;
		c->first = t->first;
		return 0;
	}
	return -1;
}

int progs_classify_prog(const struct bpf_program *prog, struct prog_class *c)
{
	return progs_classify(bpf_program__section_name(prog), bpf_program__type(prog),
			      bpf_program__expected_attach_type(prog), c);
}

bool progs_wanted(const struct source_plan *p, const struct prog_class *c)
{
	bool role = c->role == PROG_IRQ || (c->role == PROG_TRACEPOINT && source_uses_tp(p)) ||
		    (c->role == PROG_PROBE && source_uses_probe(p));
	bool kind;

	switch (c->kind) {
	case PROG_TP_BTF:
	case PROG_RAW_TP:
		kind = p->raw == (c->kind == PROG_RAW_TP);
		break;
	default:
		kind = p->kprobe == (c->kind == PROG_KPROBE || c->kind == PROG_KRETPROBE);
		break;
	}
	if ((c->need == NEED_TIMER && !p->have_timer) ||
	    (c->need == NEED_UNRESERVE && !p->have_unreserve))
		return false;
	return role && kind;
}

bool progs_load(const struct source_plan *p, const struct bpf_program *prog)
{
	struct prog_class c;

	return !progs_classify_prog(prog, &c) && progs_wanted(p, &c);
}

bool progs_attach_first(const struct bpf_program *prog)
{
	struct prog_class c;

	return !progs_classify_prog(prog, &c) && c.first;
}
