# Test helpers: every check prints one "PASS name" or "FAIL name: why" line;
# tests/run counts those lines. Source it; do not run it.
# shellcheck shell=bash

# shellcheck source=guest/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../guest/lib.sh"

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; }

# check NAME CONDITION-COMMAND... : PASS if the command succeeds, else FAIL
# with the last line it printed.
check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		pass "$name"
	else
		fail "$name" "$(echo "$out" | tail -n 1)"
	fi
}

# silent COMMAND...: succeeds if the command exits 0 and prints nothing
# (promtool check metrics prints its lint problems, and exits 3); else
# prints its exit status and first line, for check's FAIL line.
silent() {
	local said rc=0
	said=$("$@" 2>&1) || rc=$?
	[ "$rc" -eq 0 ] && [ -z "$said" ] && return 0
	echo "exit $rc: $(echo "$said" | head -n 1)"
	return 1
}

# boot_guest_checks NAME KIND OUTDIR GUEST_SCRIPT: boot KIND (256 MB, 2
# CPUs) running /host/GUEST_SCRIPT with its files in OUTDIR (emptied
# first). PASS/FAIL line "NAME: guest boots and runs the checks"; returns
# non-zero if it did not, so the caller can stop.
boot_guest_checks() {
	local name=$1 kind=$2 out=$3 script=$4 rc=0
	rm -rf "$out"
	mkdir -p "$out"
	guest/run -k "$kind" -m 256 -c 2 -t 900 -q -o "$out" -- sh "/host/$script" || rc=$?
	if [ "$rc" -ne 0 ]; then
		fail "$name: guest boots and runs the checks" "guest/run exited $rc; see ${out#"$GFPTOP_ROOT"/}/console.log"
		return 1
	fi
	pass "$name: guest boots and runs the checks"
}

# check_dmesg NAME FILE [PATTERN]: PASS if a guest's dmesg shows no kernel
# problem (an OOM kill prints a stack trace by design and is not one) and
# no line matching the extended regex PATTERN; the FAIL line quotes the
# first offending line and says how many there were and where.
check_dmesg() {
	local name=$1 file=$2 bad
	bad=$(grep -E "WARNING:|BUG:|Oops|general protection fault|Kernel panic|RCU stall|soft lockup${3:+|$3}" "$file" || true)
	if [ -z "$bad" ]; then
		pass "$name"
	else
		fail "$name" "$(echo "$bad" | wc -l) lines, the first: $(echo "$bad" | head -n 1) (all in ${file#"$GFPTOP_ROOT"/})"
	fi
}
