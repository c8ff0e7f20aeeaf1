# Sourced by the oracle's guest scripts (guest.sh, zones-guest.sh).
# shellcheck shell=sh
# The caller sets gpid (the gfptops to stop and continue).
# shellcheck disable=SC2154

# stop_gfptop / cont_gfptop: gfptop is stopped (SIGSTOP) while the module
# holds the zone below min: a stopped process allocates nothing, so it
# cannot be sent into reclaim and then to the OOM killer there, while
# its BPF programs go on counting in the kernel; continued, it reports
# the intervals it missed. If the OOM killer took it anyway the kills
# fail, and the host checks say that gfptop printed nothing.
# $gpid may name several gfptops (the campaign runs one per source).
# kill returns before the signal is taken: wait until each gfptop is
# stopped (state T), or it may stop only once the zone is below min,
# where the SIGCHLD to its parent is a GFP_ATOMIC allocation that fails
# with a warning (seen on 6.12: __sigqueue_alloc from do_signal_stop).
stop_gfptop() {
	for p in $gpid; do kill -STOP "$p" || true; done
	for p in $gpid; do
		i=0
		# gone (empty) counts as stopped: the host checks say so
		while [ "$(cut -d' ' -f3 "/proc/$p/stat" 2>/dev/null || true)" != T ] &&
			[ -e "/proc/$p" ] && [ "$i" -lt 500 ]; do
			i=$((i + 1))
			sleep 0.01
		done
	done
}
cont_gfptop() {
	for p in $gpid; do kill -CONT "$p" || true; done
	sleep 2
	for p in $gpid; do kill -INT "$p" || true; done
	for p in $gpid; do wait "$p" || true; done
}
