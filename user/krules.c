/* See krules.h. */
#include "krules.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/*
 * Releases and their rule sets (common/rule_sets.c). 6.1.116 backported
 * patches 1-5 of the series (as dependencies of a stable fix), so 6.1.y
 * from there has the after rules while it still has __GFP_ATOMIC (patch
 * 6 was not backported): __GFP_ATOMIC alone cannot tell.
 */
static const struct {
	int major, minor, from_patch, to_patch;	/* inclusive */
	enum rule_set_id set;
	const char *basis;
} table[] = {
	{ 6, 1, 0, 115, RS_6_1_BEFORE, "Linux 6.1.0-6.1.115: before the series" },
	{ 6, 1, 116, 9999, RS_6_1_AFTER, "Linux 6.1.116+: series patches 1-5 backported" },
	{ 6, 12, 0, 9999, RS_6_12, "Linux 6.12.y: after the series" },
	{ 7, 2, 0, 9999, RS_7_2, "Linux 7.2.y: after the series, the highatomic reserve "
				 "taken in rmqueue_buddy()" },
};
#define NR_TABLE (sizeof(table) / sizeof(table[0]))

const char *krules_known(void)
{
	static char buf[128];
	size_t n = 0;

	buf[0] = 0;
	for (size_t i = 0; i < NR_TABLE && n < sizeof(buf); i++) {
		bool dup = i && table[i - 1].major == table[i].major &&
			   table[i - 1].minor == table[i].minor;

		if (dup)
			continue;
		n += snprintf(buf + n, sizeof(buf) - n, "%s%d.%d.y",
			      !n ? "" : table[i].minor == table[NR_TABLE - 1].minor &&
					table[i].major == table[NR_TABLE - 1].major ? " and " : ", ",
			      table[i].major, table[i].minor);
	}
	return buf;
}

bool krules_reaches(enum rule_set_id id)
{
	for (size_t i = 0; i < NR_TABLE; i++)
		if (table[i].set == id)
			return true;
	return false;
}

int krules_detect(const char *release, bool patched, bool gfp_atomic, struct krules *k,
		  char *msg, size_t len)
{
	int major, minor, patch = 0;

	if (patched && gfp_atomic) {
		k->set = &rule_sets[RS_6_1_BEFORE];
		k->basis = "gfptop's before kernel (series reverted)";
		return 0;
	}
	if (!release || sscanf(release, "%d.%d.%d", &major, &minor, &patch) < 2) {
		snprintf(msg, len, "cannot read the kernel version from '%s'",
			 release ? release : "");
		return -1;
	}
	for (size_t i = 0; i < NR_TABLE; i++) {
		const struct rule_set *rs = &rule_sets[table[i].set];

		if (table[i].major != major || table[i].minor != minor)
			continue;
		/* a patched kernel has the whole series: its release's after
		 * row, whatever its patch level */
		if (patched ? strcmp(rs->series, "after") :
			      patch < table[i].from_patch || patch > table[i].to_patch)
			continue;
		k->set = rs;
		k->basis = patched ? "gfptop's after kernel (whole series)" : table[i].basis;
		return 0;
	}
	snprintf(msg, len, "the probe source knows the page allocator's ALLOC_* rules of "
		 "Linux %s only, not %s: deriving tiers there would be a guess", krules_known(),
		 release);
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
