/* Which rule set (common/rule_sets.h) the running kernel has: which
 * ALLOC_* bits mean what and which __zone_watermark_ok() arithmetic
 * applies. ALLOC_* are #defines in mm/internal.h, not in BTF, so the row
 * comes from a table keyed by what can be detected, and a kernel outside
 * it is refused rather than guessed. */
#ifndef GFPTOP_KRULES_H
#define GFPTOP_KRULES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gfptop_abi.h"
#include "rule_sets.h"

struct krules {
	const struct rule_set *set;	/* the kernel's row (common/rule_sets.c) */
	const char *basis;	/* how it was chosen, for the user */
	/* from the kernel's BTF, not the table (ksetup.c sets them) */
	uint32_t nr_free_highatomic_off; /* 6.12's zone member; 0: none */
	/* 6.12's page_alloc_tier_snapshot member (any source); 0: none */
	uint32_t snap_nr_free_highatomic_off;
	int migrate_cma;	/* MIGRATE_CMA, -1: no CONFIG_CMA */
	bool zone_head_fits;	/* kcheck_zone_head_fits() */
	/* the tracepoint's tier values: gfptop's tier by the kernel's enum
	 * page_alloc_tier value (kcheck_tier_map()) */
	uint8_t tier_of_kernel[GT_NR];
};

/*
 * The rule set of a kernel. patched: it has the gfptop tracepoints
 * (kernel-patches/), whose before kernel keeps __GFP_ATOMIC and whose
 * after kernels drop it, so gfp_atomic tells the 6.1 before kernel
 * apart. Otherwise the upstream version (krules_kernel_version())
 * decides, from the table in krules.c.
 * Returns 0, or -1 with a one-line reason in msg.
 */
int krules_detect(const char *release, bool patched, bool gfp_atomic, struct krules *k,
		  char *msg, size_t len);

/*
 * The upstream version of the running kernel, "X.Y.Z", into buf.
 * Distributions hide it: Debian's release is "6.1.0-28-amd64" for 6.1.119
 * and says "Debian 6.1.119-1" in the version (uname -v); Ubuntu's is in
 * /proc/version_signature ("Ubuntu 5.15.0-91.101-generic 5.15.131"), as
 * libbpf does it. version and signature may be NULL.
 */
void krules_kernel_version(const char *release, const char *version, const char *signature,
			   char *buf, size_t len);

/* The releases the table knows, "6.1.y and 6.12.y", for messages. */
const char *krules_known(void);

/* Whether some release of the table has rule set ID (tests: every row
 * is reachable). */
bool krules_reaches(enum rule_set_id id);

#endif
