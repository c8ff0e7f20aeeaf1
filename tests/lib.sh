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
