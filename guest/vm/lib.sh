# shellcheck shell=sh
# Helpers for scripts that run inside a guest (busybox sh). Source it:
#   . /host/guest/vm/lib.sh

# wait_ready ERRFILE SECONDS: wait until gfptop, started with its stderr
# in ERRFILE, has printed its one readiness line ("gfptop: ready: ...":
# programs attached and the baseline read, so every allocation from now
# on is counted). On timeout, or if gfptop printed an error first, says
# so on stderr with what gfptop printed, and returns 1.
wait_ready() {
	_wr_file=$1 _wr_left=$(($2 * 5))
	while ! grep -q '^gfptop: ready: ' "$_wr_file" 2>/dev/null; do
		if [ "$_wr_left" -le 0 ]; then
			echo "wait_ready: gfptop not ready after $2 s; it printed:" >&2
			cat "$_wr_file" >&2
			return 1
		fi
		_wr_left=$((_wr_left - 1))
		sleep 0.2
	done
}
