#!/bin/sh
# Runs inside the guest: guest/run ... sh /host/tests/oracle/guest.sh KIND
# Loads the oracle module, runs its campaign with the tier events traced
# and gfptop counting the campaign thread, then its reserve-failure
# series with a trace and a gfptop of its own, then makes a process get
# OOM-killed while allocating. Leaves in /out what tests/oracle/host.sh
# checks on the host.
set -eu
# shellcheck source=guest/vm/lib.sh
. /host/guest/vm/lib.sh
kind=$1
T=/sys/kernel/tracing
K=$T/events/kmem
D=/sys/kernel/debug/gfptop_oracle

uname -r >uname.txt
# Debian's own kernels have no tier events: nothing is traced there, and
# the two gfptops of the campaign are the probe source on fentry/fexit
# and on kprobes (tests/oracle/check.c's untraced checks)
traced=0
[ -d $K/mm_page_alloc_tier ] && traced=1
echo "$traced" >traced.txt
# No watermark boosting by the kernel: only the module's boost rows set a
# boost (and take it off again).
echo 0 >/proc/sys/vm/watermark_boost_factor
# A wider band below min (4096 pages in DMA32 on a 256 MB guest).
echo 16384 >/proc/sys/vm/min_free_kbytes
echo 8192 >$T/buffer_size_kb

# stop_gfptop / cont_gfptop (gfptop stopped while a phase runs)
# shellcheck source=tests/oracle/guest-lib.sh
. /host/tests/oracle/guest-lib.sh

trace_on() { # PID
	[ "$traced" = 1 ] || return 0
	echo "common_pid == $1" >$K/mm_page_alloc_tier/filter
	echo "common_pid == $1" >$K/mm_page_alloc_reserve_fail/filter
	for e in mm_page_alloc_tier mm_page_alloc_reserve_fail mm_reserve_highatomic mm_unreserve_highatomic; do
		echo 1 >$K/$e/enable
	done
	: >$T/trace
}

trace_off() {
	[ "$traced" = 1 ] || return 0
	for e in mm_page_alloc_tier mm_page_alloc_reserve_fail mm_reserve_highatomic mm_unreserve_highatomic; do
		echo 0 >$K/$e/enable
	done
}

# the trace so far into FILE (empty untraced)
cat_trace() {
	if [ "$traced" = 1 ]; then cat $T/trace >"$1"; else : >"$1"; fi
}

# --- the module campaign
cat /proc/meminfo >meminfo-before.txt
cat /proc/zoneinfo >zoneinfo-before.txt
insmod "/host/build/oracle/$kind/gfptop_oracle.ko"
read -r camp hold <$D/pid
echo "$camp $hold" >pids.txt
trace_on "$camp"
if [ "$traced" = 1 ]; then
	gfptop -j -p "$camp" 1 >campaign.json 2>campaign-gfptop.err &
else
	gfptop --source probe --kprobe -j -p "$camp" 1 >campaign-kprobe.json 2>campaign-gfptop.err &
fi
gp_tp=$!
# the same, with the tiers derived by the probe source
gfptop --source probe -j -p "$camp" 1 >campaign-probe.json 2>campaign-probe.err &
gp_probe=$!
gpid="$gp_tp $gp_probe"
wait_ready campaign-gfptop.err 120 "$gp_tp"
wait_ready campaign-probe.err 120 "$gp_probe"
stop_gfptop
date +%s >campaign.start
echo run >$D/control
cat $D/held >held.txt
# phase 3: with min lowered to 0 what is free of the 1024-page highatomic
# reserve the campaign made is above min on its own. How much of it is
# free varies from run to run (19 to 264 pages seen on these kernels; the
# earlier rows' use of the reserve differs), and the rows need free >
# min + 16 (tests/oracle/host.sh reruns a campaign that missed it).
echo 0 >/proc/sys/vm/min_free_kbytes
echo fallback >$D/control
cat $D/held >>held.txt
echo 16384 >/proc/sys/vm/min_free_kbytes
date +%s >campaign.end
cont_gfptop
cat_trace trace.txt
# phase 4: allocations that fail while holding a reserve right, traced
# and counted by gfptop on their own
: >$T/trace
gfptop -j -p "$camp" 1 >rfail.json 2>rfail-gfptop.err &
gpid=$!
wait_ready rfail-gfptop.err 120 "$gpid"
stop_gfptop
echo rfail >$D/control
cat $D/held >>held.txt
cont_gfptop
trace_off
cat_trace rfail-trace.txt
cat $D/records >records.txt
rmmod gfptop_oracle
cat /proc/meminfo >meminfo-after-rmmod.txt
cat /proc/zoneinfo >zoneinfo-after-rmmod.txt

# --- an OOM victim: global OOM in this small guest
mkfifo /tmp/go
/host/build/oracle/hog </tmp/go &
hog=$!
echo 1000 >/proc/$hog/oom_score_adj
echo "$hog" >hog.pid
trace_on "$hog"
gfptop -j -p "$hog" 1 >oom.json 2>oom-gfptop.err &
gpid=$!
wait_ready oom-gfptop.err 120 "$gpid"
echo go >/tmp/go
rc=0
wait $hog || rc=$?
echo "$rc" >hog.rc
sleep 2
kill -INT "$gpid" || true
wait "$gpid" || true
trace_off
cat_trace oom-trace.txt
dmesg | grep -E 'Killed process|oom-kill:' >oom-dmesg.txt || true
