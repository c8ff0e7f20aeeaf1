/* See ksetup.h. */
#define _GNU_SOURCE
#include "ksetup.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>

#include "kcheck.h"

/* The upstream version of the running kernel (krules.h). */
static void kernel_version(const struct utsname *uts, char *buf, size_t len)
{
	char sig[256] = "";
	FILE *f = fopen("/proc/version_signature", "r");

	if (f) {
		if (!fgets(sig, sizeof(sig), f))
			sig[0] = 0;
		fclose(f);
	}
	krules_kernel_version(uts->release, uts->version, sig[0] ? sig : NULL, buf, len);
}

/* what the kernel must have, most basic first; fills ks->plan */
static int check_kernel(struct ksetup *ks, const struct options *o, bool *has_tp,
			int64_t tier_values[GT_NR], char *msg, size_t len)
{
	char tp_msg[512];

	if (kcheck_btf(msg, len) || !(ks->btf = kcheck_load_btf(msg, len)))
		return -1;
	*has_tp = kcheck_tracepoints(ks->btf, tier_values, tp_msg, sizeof(tp_msg)) == 0;
	ks->plan.src = o->source;
	ks->plan.kprobe = o->kprobe;
	ks->plan.have_timer = kcheck_has_tracepoint(ks->btf, "local_timer_entry") &&
			      kcheck_has_tracepoint(ks->btf, "local_timer_exit");
	ks->plan.have_unreserve = kcheck_has_func(ks->btf, "unreserve_highatomic_pageblock");
	if (source_resolve(&ks->plan, *has_tp, tp_msg,
			   kcheck_has_func(ks->btf, "get_page_from_freelist"), msg, len) ||
	    kcheck_privileges(msg, len))
		return -1;
	/* gfp flag values from a format file: ours, or where the kernel has
	 * none of ours, mm_page_alloc's (every kernel has it) */
	ks->fmt_text = kcheck_read_format(*has_tp ? "mm_page_alloc_tier" : "mm_page_alloc", msg,
					  len);
	if (!ks->fmt_text || (o->cgroup && kcheck_cgroup_fd(o->cgroup, &ks->cgfd, msg, len)))
		return -1;
	/* a pid that does not exist now would only ever match whatever
	 * process the kernel hands that number to later, by chance: refuse
	 * rather than count nothing (EPERM: it exists, not ours) */
	if (o->pid && kill((pid_t)o->pid, 0) && errno == ESRCH) {
		snprintf(msg, len, "-p %u: no such process", o->pid);
		return -1;
	}
	return 0;
}

/* A fact of the row (ROW_HAS) against the kernel's BTF (BTF_HAS): a
 * kernel and a row that disagree are refused, not followed. */
static int btf_disagrees(const struct ksetup *ks, const char *what, bool row_has, bool btf_has,
			 char *msg, size_t len)
{
	if (row_has == btf_has)
		return 0;
	snprintf(msg, len, "the kernel's BTF %s %s, but the rule set gfptop chose (%s: %s) says %s",
		 btf_has ? "has" : "lacks", what, ks->kr.set->id, ks->kr.basis,
		 row_has ? "it has it" : "it has not");
	return -1;
}

/* The kernel's rule set (common/rule_sets.c): the probe derives tiers
 * with it, and every source says with it what the tiers mean. A patched
 * kernel's tier event must carry what its row says. A patched kernel
 * outside the table still has its own tiers: the tracepoint source goes
 * on with the words of the rows its __GFP_ATOMIC points to. */
static int rules_of_kernel(struct ksetup *ks, bool has_tp, char *msg, size_t len)
{
	if (!krules_detect(ks->version, has_tp, ks->gc.has_gfp_atomic_flag, &ks->kr, msg, len))
		return has_tp ? btf_disagrees(ks, "the tier event's nr_free_highatomic",
					      ks->kr.set->events & RS_EV_SNAP_FREE_HIGHATOMIC,
					      ks->kr.snap_nr_free_highatomic_off > 0, msg, len) : 0;
	if (source_uses_probe(&ks->plan))
		return -1;
	ks->kr.set = &rule_sets[ks->gc.has_gfp_atomic_flag ? RS_6_1_BEFORE : RS_6_1_AFTER];
	ks->kr.basis = "a patched kernel outside gfptop's table: the words of 6.1's rules";
	return 0;
}

static int semantics(struct ksetup *ks, bool has_tp, struct report *r, char *msg, size_t len)
{
	long long cma;
	long off;

	/* the zone header's nr_free_highatomic from the tier event (6.12) */
	off = kcheck_member_offset(ks->btf, "page_alloc_tier_snapshot", "nr_free_highatomic");
	ks->kr.snap_nr_free_highatomic_off = off > 0 ? (uint32_t)off : 0;
	off = kcheck_member_offset(ks->btf, "zone", "nr_free_highatomic");
	ks->kr.nr_free_highatomic_off = off > 0 ? (uint32_t)off : 0;
	if (rules_of_kernel(ks, has_tp, msg, len))
		return -1;
	r->rules = ks->kr.set;
	if (!source_uses_probe(&ks->plan))
		return 0;
	/* a zone's unusable highatomic pages come from nr_free_highatomic
	 * exactly where the row says so */
	if (btf_disagrees(ks, "struct zone's nr_free_highatomic",
			  ks->kr.set->rules.ha_unusable == GT_HA_FREE,
			  ks->kr.nr_free_highatomic_off > 0, msg, len))
		return -1;
	r->rules_basis = ks->kr.basis;
	ks->kr.zone_head_fits = kcheck_zone_head_fits(ks->btf);
	ks->kr.migrate_cma = kcheck_enum_value(ks->btf, "migratetype", "MIGRATE_CMA", &cma) ? -1 :
			     (int)cma;
	return 0;
}

int ksetup_run(struct ksetup *ks, const struct options *o, struct report *r, bool verbose,
	       char *msg, size_t len)
{
	int64_t tier_values[GT_NR];
	const char *missing = NULL;
	bool has_tp = false;

	memset(ks, 0, sizeof(*ks));
	ks->cgfd = -1;
	uname(&ks->uts);
	if (check_kernel(ks, o, &has_tp, tier_values, msg, len))
		return -1;
	r->kernel_release = ks->uts.release;
	if (gfpclass_init_from_format(&ks->gc, ks->fmt_text, &missing))
		fprintf(stderr, "gfptop: warning: gfp flag table lacks %s; every allocation's "
			"GFP class will be 'other'\n", missing);
	kernel_version(&ks->uts, ks->version, sizeof(ks->version));
	if (semantics(ks, has_tp, r, msg, len))
		return -1;
	for (int t = 0; t < GT_NR; t++)
		r->tier_values[t] = has_tp ? tier_values[t] : -1;
	kcheck_tier_map(r->tier_values, ks->kr.tier_of_kernel);
	/* the names the kmem tracepoints print, from enum zone_type */
	kcheck_zone_names(ks->btf, r->zone_names, GT_NR_ZONES);
	r->source = source_name(ks->plan.src);
	r->tiers_derived = source_derived(&ks->plan);
	r->have_agreement = ks->plan.src == SRC_BOTH;
	if (verbose) {
		fprintf(stderr, "gfptop: kernel %s (version %s), %s-series semantics (%s)\n",
			ks->uts.release, ks->version, report_semantics(r),
			report_semantics_flags(r));
		for (int t = 0; t < GT_UNKNOWN; t++)
			fprintf(stderr, "gfptop: tier %s = kernel enum value %lld\n", tier_name(t),
				(long long)r->tier_values[t]);
	}
	return 0;
}

void ksetup_free(struct ksetup *ks)
{
	free(ks->fmt_text);
	ks->fmt_text = NULL;
	btf__free(ks->btf);
	ks->btf = NULL;
	if (ks->cgfd >= 0)
		close(ks->cgfd);
	ks->cgfd = -1;
}
