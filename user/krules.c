/* See krules.h. */
#include "krules.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/*
 * mm/internal.h of the two rule sets. The bit values are the same on
 * both sides of the series in 6.1.y (ALLOC_HARDER became ALLOC_NON_BLOCK
 * at 0x10, ALLOC_HIGH became ALLOC_MIN_RESERVE at 0x20); ALLOC_HIGHATOMIC
 * (0x200) came with the series. Read off Debian's 6.1.192 source (after)
 * and the same tree with the series reverted (kernel-patches/before/).
 */
static const struct krules rules_after = {
	.before = false, .wmark_mask = 0x03, .no_watermarks = 0x04, .oom = 0x08,
	.non_block = 0x10, .min_reserve = 0x20, .cma = 0x80, .highatomic = 0x200,
};

static const struct krules rules_before = {
	.before = true, .wmark_mask = 0x03, .no_watermarks = 0x04, .oom = 0x08,
	.non_block = 0x10, .min_reserve = 0x20, .cma = 0x80, .highatomic = 0,
};

/*
 * Releases whose rules are known. 6.1.116 backported patches 1-5 of the
 * series (as dependencies of a stable fix), so 6.1.y from there has the
 * after rules while it still has __GFP_ATOMIC (patch 6 was not
 * backported): __GFP_ATOMIC alone cannot tell.
 */
static const struct {
	int major, minor, from_patch, to_patch;	/* inclusive */
	const struct krules *rules;
	const char *basis;
} table[] = {
	{ 6, 1, 0, 115, &rules_before, "Linux 6.1.0-6.1.115: before the series" },
	{ 6, 1, 116, 9999, &rules_after, "Linux 6.1.116+: series patches 1-5 backported" },
	/* read off Debian's linux-source-6.12 (6.12.118): the same bits and
	 * arithmetic; the unusable highatomic pages are nr_free_highatomic
	 * (probe.bpf.h reads whichever the kernel has) */
	{ 6, 12, 0, 9999, &rules_after, "Linux 6.12.y: after the series" },
};

int krules_detect(const char *release, bool patched, bool gfp_atomic, struct krules *k,
		  char *msg, size_t len)
{
	int major, minor, patch = 0;

	if (patched) {
		*k = gfp_atomic ? rules_before : rules_after;
		k->basis = gfp_atomic ? "gfptop's before kernel (series reverted)" :
					"gfptop's after kernel (whole series)";
		return 0;
	}
	if (!release || sscanf(release, "%d.%d.%d", &major, &minor, &patch) < 2) {
		snprintf(msg, len, "cannot read the kernel version from '%s'",
			 release ? release : "");
		return -1;
	}
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		if (table[i].major == major && table[i].minor == minor &&
		    patch >= table[i].from_patch && patch <= table[i].to_patch) {
			*k = *table[i].rules;
			k->basis = table[i].basis;
			return 0;
		}
	}
	snprintf(msg, len, "the probe source knows the page allocator's ALLOC_* rules of "
		 "Linux 6.1.y and 6.12.y only, not %s: deriving tiers there would be a guess", release);
	return -1;
}

void krules_kernel_version(const char *release, const char *version, const char *signature,
			   char *buf, size_t len)
{
	const char *p;
	int n = 0;

	if (version && (p = strstr(version, "Debian ")) && isdigit((unsigned char)p[7])) {
		p += 7;
		while (p[n] && (isdigit((unsigned char)p[n]) || p[n] == '.'))
			n++;
		snprintf(buf, len, "%.*s", n, p);
		return;
	}
	if (signature && (p = strrchr(signature, ' ')) && isdigit((unsigned char)p[1])) {
		p++;
		while (p[n] && (isdigit((unsigned char)p[n]) || p[n] == '.'))
			n++;
		snprintf(buf, len, "%.*s", n, p);
		return;
	}
	snprintf(buf, len, "%s", release ? release : "");
}
