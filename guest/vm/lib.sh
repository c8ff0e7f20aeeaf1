# shellcheck shell=sh
# Helpers for scripts that run inside a guest (busybox sh). Source it:
#   . /host/guest/vm/lib.sh

# wait_ready ERRFILE SECONDS [PID]: wait until gfptop, started with its
# stderr in ERRFILE, has printed its one readiness line ("gfptop: ready:
# ...": programs attached and the baseline read, so every allocation from
# now on is counted). Returns 1, saying so on stderr with what gfptop
# printed, on timeout or, given its PID, as soon as gfptop has exited
# without getting ready (a start-up error: no point waiting out SECONDS).
# _wr_alive PID: the process exists and is not a zombie (the shell reaps
# a background job only when it waits for it, so kill -0 alone would
# still succeed after gfptop exited)
_wr_alive() {
	kill -0 "$1" 2>/dev/null && ! grep -q ') Z ' "/proc/$1/stat" 2>/dev/null
}

wait_ready() {
	_wr_file=$1 _wr_left=$(($2 * 5)) _wr_pid=${3:-}
	while ! grep -q '^gfptop: ready: ' "$_wr_file" 2>/dev/null; do
		_wr_why=
		if [ -n "$_wr_pid" ] && ! _wr_alive "$_wr_pid"; then
			_wr_why="gfptop (pid $_wr_pid) exited before it was ready"
		elif [ "$_wr_left" -le 0 ]; then
			_wr_why="gfptop not ready after $2 s"
		fi
		if [ -n "$_wr_why" ]; then
			# it may have got ready just before exiting
			grep -q '^gfptop: ready: ' "$_wr_file" 2>/dev/null && return 0
			echo "wait_ready: $_wr_why; its stderr ($_wr_file):" >&2
			cat "$_wr_file" >&2
			return 1
		fi
		_wr_left=$((_wr_left - 1))
		sleep 0.2
	done
}
