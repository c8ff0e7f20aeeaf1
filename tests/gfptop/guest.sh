#!/bin/sh
# Inside a guest, for tests/gfptop/host.sh: run gfptop the ways a user
# would and leave everything the host-side checks need in /out (the cwd).
# It only collects; the host decides what passes. Never stops early: a
# step that fails leaves its exit status in NAME.rc for the host to see.
set -u
# shellcheck source=guest/vm/lib.sh
. /host/guest/vm/lib.sh

# run NAME CMD...: stdout+stderr to NAME.txt, exit status to NAME.rc
run() {
	name=$1
	shift
	"$@" >"$name.txt" 2>&1
	echo $? >"$name.rc"
}

run help gfptop -h
run badopt gfptop --no-such-option
run badint gfptop 0

E=/sys/kernel/tracing/events/kmem/mm_page_alloc_tier
if [ ! -d "$E" ]; then
	# a kernel without the patches: the tracepoint source must refuse in
	# one line (tests/probe/ runs the probe source there)
	run stock gfptop --source tracepoint -j 1 1
	exit 0
fi

# The reference count: the kernel's own hist trigger on the same event,
# every event keyed by pid and tier.
echo 16384 >/proc/sys/vm/min_free_kbytes
echo 'hist:keys=common_pid,tier:vals=hitcount:size=8192' >"$E/trigger"
# and the highatomic pageblock pages handed out from per-cpu lists
# (source 0 is pcp), which gfptop counts apart, by watermark tier
# (appended: opening the trigger file with O_TRUNC removes every trigger)
echo 'hist:keys=watermark_tier:vals=hitcount:size=128 if source == 0 && highatomic_block == 1' >>"$E/trigger"

gfptop -j -r 0 -o /out/gfptop.json 1 2>gfptop.err &
gpid=$!
# its own start-up (the BPF maps it allocates) precedes its window
echo "$gpid" >gfptop.pid
wait_ready gfptop.err 60 "$gpid" || echo "wait_ready failed" >wait-ready.failed
bpftool prog show >progs-during.txt 2>&1

# --prom beside it, inside its window: the file appears (every counter
# 0) once it is attached, then is replaced every second. Snapshots: at
# the start, in the middle of the stress and at the end.
gfptop --prom -o /out/gfptop.prom 1 2>gfptop-prom.err &
prompid=$!
wait_ready gfptop-prom.err 60 "$prompid" || echo "wait_ready failed (--prom)" >>wait-ready.failed
cp /out/gfptop.prom prom-start.prom

# below the watermarks: anonymous memory to the guest's size, plus
# loopback traffic for softirq allocations. On a slow (TCG, busy host)
# guest one 12 s run may never fill memory, so it runs again, up to
# three times, until the kernel's own histogram has an event in a tier
# other than none: the host's checks need pressure, not a lucky run.
round=1
while :; do
	stress-ng --vm 2 --vm-bytes 95% --vm-keep --udp 1 -t 12 >>stress.txt 2>&1 &
	spid=$!
	[ "$round" = 1 ] && sleep 6 && cp /out/gfptop.prom prom-mid.prom
	wait "$spid"
	echo $? >stress.rc
	grep -Eq 'tier: +[1-9][0-9]* \}' "$E/hist" && break
	[ "$round" = 3 ] && break
	round=$((round + 1))
done
echo "$round" >stress-rounds.txt
# the programs' counters while still attached: recursion_misses counts
# the runs the kernel skipped because the program was already running
# on that CPU (an interrupt's allocation inside tier_btf), which the
# tracefs trigger still counts (not *.json: the host reads those as
# gfptop's)
bpftool -j prog show >progs-end.bpftool 2>/dev/null || true

kill -INT "$prompid"
wait "$prompid"
echo $? >gfptop-prom.rc
kill -INT "$gpid"
wait "$gpid"
echo $? >gfptop.rc
bpftool prog show >progs-after.txt 2>&1
ls -a /out >out-listing.txt
cat "$E/hist" >tracefs.hist

# the human views, briefly, on an idle guest
run histmode gfptop -H 1 2
# (stderr apart: the ready line is not CSV)
gfptop --csv 1 1 >csv.txt 2>csv.err
echo $? >csv.rc
gfptop --prom 1 1 >promstdout.prom 2>promstdout.err
echo $? >promstdout.rc
gfptop -C -r 3 1 1 >live.txt 2>live.err
echo $? >live.rc

# the zone header against the kernel's own numbers: /proc/zoneinfo read
# while a -j run is attached, a second or two before gfptop reads it at
# the end of its interval (the guest idle, so free pages barely move)
gfptop -j 2 1 >zones.json 2>zones.err &
zpid=$!
wait_ready zones.err 60 "$zpid" && cat /proc/zoneinfo >zoneinfo.txt
wait "$zpid"
echo $? >zones.rc

# -p with a pid no process has: one line, exit 1 (pid_max is 2^22)
run nopid gfptop -j -p 99999999 1 1

# -o: what it may replace and what it must refuse
# shellcheck source=tests/gfptop/guest-o.sh
. /host/tests/gfptop/guest-o.sh

# a kernel BTF file that is there but is not BTF: one line saying so
echo 'not BTF' >/tmp/bad-btf
if mount --bind /tmp/bad-btf /sys/kernel/btf/vmlinux; then
	run badbtf gfptop -j 1 1
	umount /sys/kernel/btf/vmlinux
fi
# a long option given an argument: named as typed
run badlong gfptop --histogram=1

# -c CGROUP counts the allocations of tasks in that cgroup and in the
# ones below it (a stressor in gt/child is counted under -c gt), and no
# others
mkdir -p /sys/fs/cgroup/gt/child
gfptop -c gt -j -r 0 -o /out/cgroup.json 600 1 2>cgroup.err &
cpid=$!
if wait_ready cgroup.err 60 "$cpid"; then
	sh -c 'echo $$ >/sys/fs/cgroup/gt/child/cgroup.procs && exec stress-ng --vm 1 --vm-bytes 16M -t 3' \
		>cgroup-stress.txt 2>&1
	sleep 1
	kill -INT "$cpid"
fi
wait "$cpid"
echo $? >cgroup.rc
# whatever ran above, /dev/null is still the device
ls -l /dev/null >devnull-end.txt
exit 0
