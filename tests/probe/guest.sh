#!/bin/sh
# Inside a guest, for tests/probe/host.sh: gfptop's probe source (tiers
# derived from fentry/fexit on get_page_from_freelist()). It only
# collects into /out (the cwd); the host decides what passes. A step that
# fails leaves its exit status in NAME.rc.
#
# On a kernel with the gfptop tracepoints: `gfptop --source both` under
# each workload of the compare matrix's default set, so that every
# allocation's derived tier is compared with the tracepoint's for the
# same page (both-WORKLOAD.json, its "agreement" section); once more with
# kprobes instead of fentry/fexit. On a kernel without them: the probe
# source under stress-ng (each workload of PROBE_WORKLOADS if set, else
# vm-fifo), and --source tracepoint's refusal.
set -u
# shellcheck source=guest/vm/lib.sh
. /host/guest/vm/lib.sh
SECS=${PROBE_SECONDS:-8}

# run NAME CMD...: stdout+stderr to NAME.txt, exit status to NAME.rc
run() {
	name=$1
	shift
	"$@" >"$name.txt" 2>&1
	echo $? >"$name.rc"
}

# record NAME SOURCE-ARGS WORKLOAD-COMMAND: gfptop -j with those source
# arguments, one interval over the whole workload, into NAME.json
record() {
	name=$1 args=$2 cmd=$3
	# shellcheck disable=SC2086 # args: several options
	gfptop $args -j -o "/out/$name.json" 600 1 2>"$name.err" &
	gp=$!
	if ! wait_ready "$name.err" 60; then
		kill "$gp" 2>/dev/null
		echo 1 >"$name.rc"
		return
	fi
	DUR=$SECS SEED=1 timeout $((SECS + 60)) sh -c "$cmd" >"$name.workload" 2>&1
	# the programs' counters while attached: recursion_misses counts
	# the runs the kernel skipped because the program was already
	# running on that CPU (an interrupt's allocation inside fentry).
	# Not NAME.*.json: the host reads every both-*.json as gfptop's.
	bpftool -j prog show >"$name.bpftool-progs" 2>/dev/null
	kill -INT "$gp"
	wait "$gp"
	echo $? >"$name.rc"
}

# the compare workload's command, by name (workloads.tsv: tests/probe/host.sh
# wrote it with workloads_table)
workload() {
	awk -F'\t' -v w="$1" '$1 == w { print $5 }' /out/workloads.tsv
}

# the compare runs' baseline (guest/vm/compare.sh)
echo 16384 >/proc/sys/vm/min_free_kbytes
ip link set lo mtu 65536
uname -r >uname.txt
# for the zone header's check: managed pages and the watermarks, set
# just above, stay as they are for the whole guest
cat /proc/zoneinfo >zoneinfo.txt

if [ -d /sys/kernel/tracing/events/kmem/mm_page_alloc_tier ]; then
	for w in vm-pressure net-pressure vm-fifo hiorder-atomic; do
		record "both-$w" "--source both" "$(workload "$w")"
	done
	record both-kprobe "--source both --kprobe" "$(workload vm-pressure)"
else
	# the SCHED_FIFO churn: RT tasks hold ALLOC_MIN_RESERVE, so every
	# run reaches a reserve tier (vm-pressure reaches one only when the
	# OOM killer strikes in time)
	# PROBE_WORKLOADS (the Debian kernels, tests/probe/host.sh): each
	# named compare workload in a run of its own, probe-NAME.json
	if [ -n "${PROBE_WORKLOADS:-}" ]; then
		for w in $PROBE_WORKLOADS; do
			record "probe-$w" "" "$(workload "$w")"
		done
	else
		record probe "" "$(workload vm-fifo)"
	fi
	record probe-kprobe "--source probe --kprobe" "$(workload vm-fifo)"
	run refuse-tracepoint gfptop --source tracepoint -j 1 1
	run refuse-both gfptop --source both -j 1 1
fi
dmesg >dmesg.txt
exit 0
