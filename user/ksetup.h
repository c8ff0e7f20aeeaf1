/* What gfptop learns about the running kernel before it loads anything:
 * its BTF, which source and programs (source.h), the gfp flag values of
 * its format files, the ALLOC_* rules the probe derives tiers with, and
 * the -c/-p targets. Every check that can refuse a run happens here, so
 * gfptop.c's main() only loads, attaches and reports. */
#ifndef GFPTOP_KSETUP_H
#define GFPTOP_KSETUP_H
#include <stdbool.h>
#include <stddef.h>
#include <sys/utsname.h>

#include "gfpclass.h"
#include "krules.h"
#include "options.h"
#include "report.h"
#include "source.h"

struct ksetup {
	struct utsname uts;
	char version[64];		/* upstream version (krules.h) */
	struct btf *btf;
	struct source_plan plan;
	struct krules kr;
	struct gfp_classifier gc;
	char *fmt_text;			/* the format file gc was built from */
	int cgfd;			/* -c: the cgroup's fd, else -1 */
};

/* Run the checks, most basic first, and fill r's kernel fields (release,
 * semantics, tier values, zone names, source). 0, or -1 with one line in
 * msg. verbose: say what was found on stderr. ksetup_free() either way. */
int ksetup_run(struct ksetup *ks, const struct options *o, struct report *r, bool verbose,
	       char *msg, size_t len);
void ksetup_free(struct ksetup *ks);

#endif
