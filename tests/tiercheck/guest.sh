#!/bin/sh
# Runs inside the guest: guest/run ... sh /host/tests/tiercheck/guest.sh
# Traces kmem:mm_page_alloc_tier (and the reserve-fail and highatomic
# events) under short pressure workloads with watermark boosting left at
# its default, and leaves in /out, per workload NAME:
#   NAME.trace  a copy of /sys/kernel/tracing/trace (tracing stopped first)
#   NAME.stats  the per-CPU ring buffer stats after the run
# and lost.txt ("NAME overrun=N commit_overrun=N dropped=N", one line per
# workload: events the ring buffer lost), window.txt (how long each was
# traced), boost.txt (watermark_boost_factor), uname.txt,
# extra-workloads.txt (reruns made for want of a boosted zone).
# tests/tiercheck/host.sh checks them on the host with build/tiercheck.
#
# Environment: TIERCHECK_SECONDS (each workload's length, default 12),
# TIERCHECK_BUFFER_KB (ring buffer per CPU, default 32768).
set -eu
T=/sys/kernel/tracing
K=$T/events/kmem
DUR=${TIERCHECK_SECONDS:-12}
BUF=${TIERCHECK_BUFFER_KB:-32768}
EVENTS="mm_page_alloc_tier mm_page_alloc_reserve_fail mm_reserve_highatomic mm_unreserve_highatomic"

uname -r >uname.txt
# Boosting stays ON: watermark_boost_factor is left at the kernel's default.
wbf=$(cat /proc/sys/vm/watermark_boost_factor)
echo "$wbf" >boost.txt
echo "tiercheck guest: watermark_boost_factor $wbf (left at its default)"
# the same baseline as guest/vm/compare.sh: a wider band below min and
# large loopback packets (ICMP echoes of 30-60 kB: order-3 skb frags)
echo 16384 >/proc/sys/vm/min_free_kbytes
ip link set lo mtu 65536

echo 0 >$T/tracing_on
echo "$BUF" >$T/buffer_size_kb
for e in $EVENTS; do
	echo 1 >"$K/$e/enable"
done
cat /proc/zoneinfo >zoneinfo-start.txt
: >lost.txt
: >window.txt
mkfifo /tmp/tick

# stat_sum FILE KEY: the sum over CPUs of "KEY: N" in the per_cpu stats
stat_sum() {
	awk -v k="$2:" 'substr($0, 1, length(k)) == k { s += $NF } END { print s + 0 }' "$1"
}

# fill_guard: while /tmp/tracing exists, stop tracing as soon as one CPU's
# buffer is 3/4 full, so that it never wraps (a faster guest would
# otherwise overrun it); a stopped trace is complete, only shorter. It
# waits on a FIFO nobody writes instead of forking sleep: a fork is an
# allocation that could set off the OOM killer and end a workload early.
fill_guard() {
	limit=$((BUF * 768)) # 3/4 of BUF kB in bytes
	exec 3<>/tmp/tick
	while [ -f /tmp/tracing ]; do
		for s in "$T"/per_cpu/cpu*/stats; do
			while read -r k v; do
				if [ "$k" = bytes: ] && [ "$v" -gt "$limit" ] && [ ! -f /tmp/full ]; then
					echo 0 >$T/tracing_on
					date +%s >/tmp/full
				fi
			done <"$s"
		done
		# shellcheck disable=SC3045 # busybox ash has read -t and -u
		read -r -t 0.25 -u 3 _ || true
	done
}

# workload NAME COMMAND: trace COMMAND (run by sh, its exit status ignored)
# from an empty buffer, then save the trace and the ring buffer's stats
workload() {
	name=$1
	rm -f /tmp/full
	: >$T/trace
	t0=$(date +%s)
	touch /tmp/tracing
	echo 1 >$T/tracing_on
	fill_guard &
	guard=$!
	sh -c "$2" >"$name.out" 2>&1 || true
	echo 0 >$T/tracing_on
	rm /tmp/tracing
	wait $guard
	t1=$(date +%s)
	traced="$((t1 - t0)) s"
	[ ! -f /tmp/full ] || traced="$(($(cat /tmp/full) - t0)) s of $((t1 - t0)) s (buffer 3/4 full)"
	for s in "$T"/per_cpu/cpu*/stats; do
		echo "== $s"
		cat "$s"
	done >"$name.stats"
	cat $T/trace >"$name.trace"
	echo "$name overrun=$(stat_sum "$name.stats" overrun) commit_overrun=$(stat_sum "$name.stats" 'commit overrun') dropped=$(stat_sum "$name.stats" 'dropped events')" >>lost.txt
	echo "$name traced $traced" >>window.txt
	echo "tiercheck guest: $name: traced $traced, $(grep -c 'mm_page_alloc_tier:' "$name.trace") tier events, $(tail -n 1 lost.txt)"
}

# anonymous memory churn to all of RAM: below the min watermark, OOM kills
workload vm "stress-ng --vm 2 --vm-bytes 100% -t $DUR --quiet"
# the same churn from a SCHED_FIFO task (RT tasks: ALLOC_HARDER before,
# ALLOC_MIN_RESERVE after)
workload vm-fifo "stress-ng --vm 1 --vm-bytes 100% --sched fifo --sched-prio 10 -t $DUR --quiet"
# Watermark boosting needs fallbacks that steal from a pageblock of
# another migratetype below pageblock order; kswapd clears the boost when
# it finishes a pass. Threads (kernel stacks, task structs: unmovable)
# created and freed, then movable churn to all of RAM beside more of them,
# make such steals in both directions. Not first, so that vm and vm-fifo
# usually run unboosted (a boost can last across workloads) and the next
# one usually boosted: before, an RT task may go to 75% of the boosted min
# only, which a boost of 2048 pages puts above the unboosted min.
workload mixed "stress-ng --pthread 2 --pthread-max 1000 -t 4 --quiet; stress-ng --vm 2 --vm-bytes 100% --pthread 1 --pthread-max 500 -t $((DUR - 4)) --quiet"
# 64 kB and 32 kB ICMP echoes over lo (order-3 GFP_ATOMIC skb frags:
# high-order atomic requests, highatomic reserves) and a UDP flood to
# closed ports (GFP_ATOMIC on the ICMP error path) while the SCHED_FIFO
# churn holds free memory near its own floor (50% of min after, 75%
# before), with clones coming and going (unmovable, so more steals)
hiorder="ping -A -q -s 60000 -w $DUR 127.0.0.1 >/dev/null & ping -A -q -s 30000 -w $DUR 127.0.0.1 >/dev/null & stress-ng --vm 1 --vm-bytes 100% --sched fifo --sched-prio 10 --udp-flood 1 -t $DUR --quiet & stress-ng --clone 1 --clone-max 1000 -t $DUR --quiet; wait"
workload hiorder-atomic "$hiorder"
# The host requires boost > 0 in some event. A boost needs a fallback
# that steals from another migratetype's pageblock, which the workloads
# make likely, not certain (one CI run on after had none in any of the
# four): then hiorder-atomic, the one that boosts most, runs again, up
# to twice, each run traced and checked like the others (named in
# extra-workloads.txt).
: >extra-workloads.txt
n=1
while [ "$n" -le 2 ] && ! grep -q ' boost=[1-9]' ./*.trace; do
	workload "hiorder-atomic-$n" "$hiorder"
	echo "hiorder-atomic-$n" >>extra-workloads.txt
	n=$((n + 1))
done


for e in $EVENTS; do
	echo 0 >"$K/$e/enable"
done
cat /proc/zoneinfo >zoneinfo-end.txt
