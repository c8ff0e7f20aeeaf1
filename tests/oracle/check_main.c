/*
 * Host-side checks of one oracle guest run (tests/oracle/host.sh):
 *
 *   build/oracle/check KIND OUTDIR EXPECT_FILE
 *
 * Reads what tests/oracle/guest.sh left in OUTDIR (the module's
 * records.txt, the tracefs dumps trace.txt, rfail-trace.txt and
 * oom-trace.txt, gfptop's JSON lines campaign.json, campaign-probe.json,
 * rfail.json and oom.json, held.txt, hog.pid, hog.rc, oom-dmesg.txt) and
 * prints one "PASS name" / "FAIL name: why" line per check. It exits 0
 * whatever the checks found: tests/run counts the lines. It exits 1 only
 * when an input is malformed and the run cannot be judged (a message on
 * stderr), and the caller then adds a FAIL line.
 *
 * On a kernel without the tier tracepoints (guest.sh writes traced.txt
 * "0": Debian's own kernels) nothing is traced: each row's success or
 * failure is checked against its expectation, the tier of each valid
 * row is the expectation's, and gfptop's probe source (fentry/fexit in
 * campaign-probe.json, kprobes in campaign-kprobe.json) must count
 * exactly those tiers and contexts.
 *
 * Every input is machine-written (the module, tracefs, gfptop, our own
 * expect files): whitespace-separated words and key=value pairs are all
 * the parsing there is. What one check reads of a trace is freed after
 * it; everything else is allocated for the run and lives until exit.
 *
 * This file: the order of the checks and main(). The checks are in
 * check_rows.c, check_counts.c, check_reserve.c and check_oom.c, the
 * reading of the inputs in check_input.c, the helpers in check_util.c,
 * the shared types in check.h.
 */
#include "check.h"

/* ---- the module campaign */

/* false if there was no campaign to check (records.txt missing) */
static bool check_campaign(struct run *r)
{
	FILE *f = open_out(r, "records.txt");
	const char *pid;

	if (!f) {
		fail("campaign produced records", "records.txt missing");
		return false;
	}
	parse_records(r, f);
	fclose(f);
	pass("campaign ran (%zu allocations, zone %s min=%s boost=%s, min during the campaign %s)",
	     r->nrecs, hdr_get(r, "zone"), hdr_get(r, "min"), hdr_get(r, "boost"),
	     campaign_wmins(r));

	pid = kv_get(r->hdr, "camp_pid");
	if (!pid)
		die("records.txt: no camp_pid= in the header");
	r->camp_pid = to_int(pid, 10, "camp_pid");
	/* the series' allocations (if one did not fail) follow in time */
	read_events(&r->tier_evs, r, "trace.txt", "mm_page_alloc_tier", r->camp_pid);
	read_events(&r->tier_evs, r, "rfail-trace.txt", "mm_page_alloc_tier", r->camp_pid);
	match_records(r);

	check_rows(r);
	check_counts(r);
	if (!r->phase1) {
		check_rfail(r);
		check_reserve(r);
	}
	check_held(r);
	return true;
}
int main(int argc, char **argv)
{
	struct run r = { 0 };
	const char *slash;

	char *traced;
	int i;

	if (argc < 4) {
		fputs("usage: check KIND OUTDIR EXPECT_FILE...\n", stderr);
		return 1;
	}
	prefix = xasprintf("oracle %s", argv[1]);
	r.out = argv[2];
	/* a later file's (CASE, LEVEL) overrides an earlier one's */
	for (i = 3; i < argc; i++) {
		slash = strrchr(argv[i], '/');
		r.expect_base = slash ? slash + 1 : argv[i];
		parse_expect(&r, argv[i]);
	}
	traced = read_text(&r, "traced.txt");
	r.traced = !traced || strcmp(strip(traced), "0");
	r.phase1 = read_text(&r, "phase1.txt") != NULL;

	if (check_campaign(&r) && !r.phase1)
		check_oom(&r);
	if (fflush(stdout) || ferror(stdout)) {
		perror("check: stdout");
		return 1;
	}
	return 0;
}
