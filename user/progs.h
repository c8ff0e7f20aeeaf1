/* Which of bpf/gfptop.bpf.c's programs a plan (source.h) loads, and which
 * of them attach first, decided in this one place from what each program
 * attaches to: its section (kind and target) and the program type and
 * expected attach type libbpf gave it. Never from its name: the names
 * are for bpftool and make bench. tests/unit/test_source.c requires every
 * program of the built object to be classified here. */
#ifndef GFPTOP_PROGS_H
#define GFPTOP_PROGS_H
#include <stdbool.h>
#include <bpf/libbpf.h>

#include "source.h"

/* What a program is for (which source loads it). */
enum prog_role {
	PROG_IRQ,		/* interrupt context tracking: loaded with either source */
	PROG_TRACEPOINT,	/* the tracepoint source */
	PROG_PROBE,		/* the probe source */
};

/* How it attaches: one of each pair is loaded, as the plan says (raw,
 * kprobe). */
enum prog_kind {
	PROG_TP_BTF,
	PROG_RAW_TP,
	PROG_FENTRY,
	PROG_FEXIT,
	PROG_KPROBE,
	PROG_KRETPROBE,
};

/* What the kernel must have for the program to load (source_plan). */
enum prog_need {
	NEED_NOTHING,
	NEED_TIMER,		/* the local_timer_entry/exit tracepoints */
	NEED_UNRESERVE,		/* unreserve_highatomic_pageblock() in BTF */
};

struct prog_class {
	enum prog_role role;
	enum prog_kind kind;
	enum prog_need need;
	bool first;		/* an interrupt exit: attached before the rest */
	const char *target;	/* the tracepoint or function, in sec */
};

/* Classify a program by its section, type and expected attach type:
 * 0, or -1 for a kind or target gfptop does not know (never loaded). */
int progs_classify(const char *sec, enum bpf_prog_type type, enum bpf_attach_type attach,
		   struct prog_class *c);
/* The same, of a program of an opened object. */
int progs_classify_prog(const struct bpf_program *prog, struct prog_class *c);

/* Whether plan p loads a program of class c. */
bool progs_wanted(const struct source_plan *p, const struct prog_class *c);

/* Whether plan p loads prog; false for one progs_classify() does not know. */
bool progs_load(const struct source_plan *p, const struct bpf_program *prog);

/* Whether prog is one of the interrupt exits, which gfptop.c attaches
 * before everything else (see attach_programs there). */
bool progs_attach_first(const struct bpf_program *prog);

#endif
