#!/bin/sh
# Inside a guest, for tests/gfptop-guest.sh: run gfptop the ways a user
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
wait_ready gfptop.err 60 || echo "wait_ready failed" >wait-ready.failed
bpftool prog show >progs-during.txt 2>&1

# --prom beside it, inside its window: the file appears (every counter
# 0) once it is attached, then is replaced every second. Snapshots: at
# the start, in the middle of the stress and at the end.
gfptop --prom -o /out/gfptop.prom 1 2>gfptop-prom.err &
prompid=$!
wait_ready gfptop-prom.err 60 || echo "wait_ready failed (--prom)" >>wait-ready.failed
cp /out/gfptop.prom prom-start.prom

# below the watermarks: anonymous memory to the guest's size, plus
# loopback traffic for softirq allocations
stress-ng --vm 2 --vm-bytes 95% --vm-keep --udp 1 -t 12 >stress.txt 2>&1 &
spid=$!
sleep 6
cp /out/gfptop.prom prom-mid.prom
wait "$spid"
echo $? >stress.rc

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
exit 0
