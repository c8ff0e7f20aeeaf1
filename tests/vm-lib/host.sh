#!/usr/bin/env bash
# shellcheck disable=SC2016 # the scripts in single quotes are the guest shell's
# guest/vm/lib.sh's wait_ready, on the host under busybox sh (the guest's
# shell; plain sh if busybox is missing): it returns once the ready line
# is there, and fails loudly, rather than waiting on, when gfptop never
# gets ready or exits first.
set -euo pipefail
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

tmp=$(mktemp -d "$BUILD/vm-lib.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
shell=(sh)
if command -v busybox >/dev/null; then shell=(busybox sh); fi

# wr SCRIPT: run SCRIPT in the guest's shell with wait_ready defined and
# $f an empty stderr file; its stdout+stderr, status as the shell's
wr() {
	: >"$tmp/err"
	"${shell[@]}" -c ". '$GFPTOP_ROOT/guest/vm/lib.sh'; f='$tmp/err'; $1" 2>&1
}

check "wait_ready: returns 0 once the ready line appears" \
	wr '( sleep 0.5; echo "gfptop: ready: source tracepoint (tp_btf)" >>"$f"; sleep 3 ) & wait_ready "$f" 10 $!'
# timeout_fails: wait_ready on a file with only a warning in it fails
# within its timeout, with a message naming the timeout and what gfptop
# printed
timeout_fails() {
	local out start=$SECONDS
	if out=$(wr 'echo "gfptop: warning: something" >"$f"; wait_ready "$f" 2'); then
		echo "returned 0 without a ready line"
		return 1
	fi
	[ $((SECONDS - start)) -le 4 ] || { echo "took $((SECONDS - start)) s for a 2 s timeout"; return 1; }
	grep -q '^wait_ready: gfptop not ready after 2 s' <<<"$out" || { echo "no timeout message: $out"; return 1; }
	grep -q '^gfptop: warning: something' <<<"$out" || { echo "gfptop's stderr not shown: $out"; return 1; }
}
check "wait_ready: on timeout says so on stderr, with gfptop's stderr, and returns non-zero" timeout_fails
# exit_fails: a gfptop that exits before it is ready fails at once, not
# after the whole timeout
exit_fails() {
	local out start=$SECONDS
	if out=$(wr '( echo "gfptop: kernel BTF missing" >"$f"; exit 1 ) & wait_ready "$f" 30 $!'); then
		echo "returned 0 without a ready line"
		return 1
	fi
	[ $((SECONDS - start)) -le 5 ] || { echo "waited $((SECONDS - start)) s for a process that had exited"; return 1; }
	grep -q 'exited before it was ready' <<<"$out" || { echo "no message: $out"; return 1; }
}
check "wait_ready: with gfptop's pid, fails as soon as gfptop exits unready" exit_fails
