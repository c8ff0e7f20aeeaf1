#!/bin/sh
# Guest side of guest/bench: the cost of observing the page allocator.
#   sh /host/guest/vm/bench.sh MODES ROUNDS SECONDS [PERF_DIR [FLOOR_GFPTOP]]
# MODES is a comma list of
#   off     nothing attached
#   gfptop  gfptop -j 1 attached (BPF, in-kernel aggregation)
#   gfpstat the same with kernel.bpf_stats_enabled=1: each program's
#           run_time_ns and run_cnt (bpftool -j prog show) just before and
#           just after the stressor, in /out/gfpstat-<round>.{0,1}.json
#   probe   gfptop --source probe -j 1: tiers derived at fentry/fexit on
#           get_page_from_freelist() (docs/probe.md)
#   probestat the same with kernel.bpf_stats_enabled=1 (as gfpstat)
#   floor   FLOOR_GFPTOP -j 1: gfptop built with -DGFPTOP_BENCH_FLOOR, its
#           tier program counting events and nothing else (what any BPF
#           counter of the event pays)
#   pfloor  FLOOR_GFPTOP --source probe -j 1: the fentry/fexit pair on
#           get_page_from_freelist() attached, counting calls and
#           nothing else (what any BPF counter of that pair pays)
#   perf    perf record -e kmem:mm_page_alloc_tier -a (every event to a file)
#   tp      the event enabled in tracefs (ftrace ring buffer, no reader)
# and the first-interval modes: gfptop started fresh, the stressor run as
# soon as it is ready (no waiting for its CPU time to settle):
#   probe1  gfptop --source probe -j 1
#   gfptop1 gfptop -j 1 (tracepoint source)
#   probe1stat  probe1 with kernel.bpf_stats_enabled=1 (as probestat)
#   probe1q probe1 with an interval longer than the run (-j 3600): no
#           user-space work at all between the ready line and the end
#           of the stressor
# PERF_DIR (under /host) holds perf and its libraries as a root tree, staged
# by guest/bench; it is copied into the guest's / before the first round.
# After a warm-up run (with gfptop attached if a gfptop mode is asked
# for), each round runs the stressor once per mode, the mode order
# rotating by one each round, every run from dropped caches, compacted
# memory and a quiet CPU (quiet()). Writes the stressor's command line to
# /out/bench.stressor and appends to /out/bench.tsv one line per run:
#   kernel round mode bogo_ops_per_s tool_cpu_s tool_maxrss_kb events lost other_cpu_s
# (events/lost: what the tool saw/dropped; -1 if not applicable;
# other_cpu_s: CPU time during the stressor of every process but the
# stressor's and the tool's, kernel threads included) and keeps the
# tools' stderr in /out/<mode>-<round>.err and who used the CPU during
# the stressor in /out/<mode>-<round>.cpu ("ticks pid comm", the busiest
# first, after a "total" line of /proc/stat's busy ticks).
set -eu
# shellcheck source=guest/vm/lib.sh
. /host/guest/vm/lib.sh
modes=$1 rounds=$2 secs=$3 perfdir=${4:-} floor=${5:-}
cd /out
kernel=$(uname -r)
E=/sys/kernel/tracing/events/kmem/mm_page_alloc_tier
PERF=''
if [ -n "$perfdir" ] && [ -x "$perfdir/usr/bin/perf" ]; then
	# Debian's perf and its libraries (not in the shared rootfs: they
	# are ~33 MB of RAM in every guest)
	cp -a "$perfdir/." /
	PERF=/usr/bin/perf
fi
# the page-allocation-heavy stressor: one worker maps, touches and unmaps
# 64 kB (16 pages) per bogo op, ~250 ops per guest second under
# -icount shift=1; prints bogo ops per second of (guest) real time
STRESSOR="stress-ng --mmap 1 --mmap-bytes 64K --seed 1"
stressor() {
	$STRESSOR -t "$secs" --metrics-brief 2>&1 |
		awk '$2 == "metrc:" && $4 == "mmap" {print $9}'
}
tick() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
hwm() { awk '/^VmHWM/ {print $2}' "/proc/$1/status" 2>/dev/null || echo -1; }
has_perf_fd() {
	for fd in "/proc/$1/fd/"*; do
		case $(readlink "$fd" 2>/dev/null) in
		*perf_event*) return 0 ;;
		esac
	done
	return 1
}
# procs_ticks: "pid ticks comm" of every process now (utime + stime)
procs_ticks() {
	cat /proc/[0-9]*/stat 2>/dev/null | awk '{
		o = index($0, " ("); c = length($0); while (c > 0 && substr($0, c, 1) != ")") c--
		comm = substr($0, o + 2, c - o - 2); split(substr($0, c + 2), f, " ")
		gsub(/ /, "_", comm); print $1, f[12] + f[13], comm }'
	awk '$1 == "cpu" {print "total", $2 + $3 + $4 + $7 + $8 + $9, "total"}' /proc/stat
}
# cpu_report BEFORE AFTER: the per-process ticks between two procs_ticks
# files (by pid: a kworker's comm names its current work), busiest first,
# into stdout; "total" first
cpu_report() {
	awk 'NR == FNR {t0[$1] = $2; next}
		{d = $2 - t0[$1]; if (d > 0) print d, $1, $3}' "$1" "$2" | sort -rn
}
# other_ticks REPORT TOOLPID: ticks of everything but the stressor and
# the tool
other_ticks() {
	awk -v tool="${2:-none}" '$2 != "total" && $2 != tool && $3 !~ /^stress-ng/ {s += $1} END {print s + 0}' "$1"
}
# quiet: wait until the CPU is idle (at most 1 tick busy in 0.5 s): work
# an earlier run left behind (a gfptop's programs and maps being freed)
# is over before the next run starts (GFPTOP_BENCH_NOQUIET=1: not
# waited for, to measure what it costs the next run)
busy() { awk '$1 == "cpu" {print $2 + $3 + $4 + $7 + $8 + $9}' /proc/stat; }
quiet() {
	[ -z "${GFPTOP_BENCH_NOQUIET:-}" ] || return 0
	w=0
	while [ "$w" -lt 60 ]; do
		t0=$(busy)
		sleep 0.5
		[ $(($(busy) - t0)) -gt 1 ] || return 0
		w=$((w + 1))
	done
}
# wait until the tool's start-up is over: its CPU time stops growing
# (gfptop before json_prepare(): the first gfptop -j of a boot of our
# kernels spent ~0.45 s of CPU after its ready line, in json-c's read of
# /dev/urandom before the CRNG was ready; the probe1 modes show what
# remains without this wait)
settle() {
	w=0
	while [ "$w" -lt 60 ]; do
		t0=$(tick "$1")
		sleep 0.5
		[ "$(tick "$1")" -ne "$t0" ] || return 0
		w=$((w + 1))
	done
}

# the stressor run with observer $1 attached (its start-up over, unless
# $3 is "first"): its CPU time (ticks) and peak RSS over the run in cpu
# and rss; then Ctrl-C it and wait. With $2, the BPF programs' statistics
# before and after the stressor in $2.0.json and $2.1.json
observe() {
	[ "${3:-}" = first ] || settle "$1"
	[ -z "${2:-}" ] || bpftool -j prog show >"$2.0.json"
	procs_ticks >/tmp/ticks.0
	t0=$(tick "$1")
	ops=$(stressor)
	cpu=$(($(tick "$1") - t0))
	procs_ticks >/tmp/ticks.1
	[ -z "${2:-}" ] || bpftool -j prog show >"$2.1.json"
	rss=$(hwm "$1")
	kill -INT "$1"
	wait "$1" || true
}

# (POSIX sh has no local variables: the functions use w, fd, pid, t0,
# ops, cpu, rss, ev, lost, other; the main loop uses idx, j, m, r)
run_mode() { # mode round
	m=$1 cpu=-1 rss=-1 ev=-1 lost=-1 pid=none
	case $m in
	off)
		procs_ticks >/tmp/ticks.0
		ops=$(stressor)
		procs_ticks >/tmp/ticks.1
		;;
	tp)
		echo 1 >"$E/enable"
		procs_ticks >/tmp/ticks.0
		ops=$(stressor)
		procs_ticks >/tmp/ticks.1
		echo 0 >"$E/enable"
		ev=$(awk '/^# entries-in-buffer/ {split($3, a, "/"); print a[2]}' /sys/kernel/tracing/trace 2>/dev/null || echo -1)
		echo >/sys/kernel/tracing/trace
		;;
	gfptop | gfpstat | probe | probestat | floor | pfloor | gfptop1 | probe1 | probe1stat | probe1q)
		stats='' src=tracepoint bin=gfptop when='' every=1
		case $m in
		floor | pfloor)
			[ -x "$floor" ] || { echo "no floor gfptop at '$floor'" >&2; return 1; }
			bin=$floor
			;;
		esac
		case $m in
		*stat)
			echo 1 >/proc/sys/kernel/bpf_stats_enabled
			stats=/out/$m-$2
			;;
		esac
		case $m in probe* | pfloor) src=probe ;; esac
		case $m in *1*) when=first ;; esac
		[ "$m" != probe1q ] || every=3600
		"$bin" --source "$src" -j -o /tmp/bench.json "$every" >/dev/null 2>"/out/$m-$2.err" &
		pid=$!
		# start-up is over when gfptop says it is ready (attached,
		# baseline read, -o's temporary file open)
		wait_ready "/out/$m-$2.err" 60 "$pid" || { kill "$pid"; return 1; }
		observe "$pid" "$stats" "$when"
		echo 0 >/proc/sys/kernel/bpf_stats_enabled
		ev=$(sed 's/.*"events":{"seen":\([0-9]*\).*/\1/' /tmp/bench.json | awk '{s += $1} END {print s + 0}')
		lost=$(sed 's/.*"lost":{"process_map_full":\([0-9]*\),"gfp_map_full":\([0-9]*\)}.*/\1 \2/' /tmp/bench.json |
			awk '{s += $1 + $2} END {print s + 0}')
		cp /tmp/bench.json "/out/$m-$2.json"
		rm -f /tmp/bench.json
		;;
	perf)
		[ -n "$PERF" ] || { echo "perf not staged" >&2; return 1; }
		"$PERF" record -e kmem:mm_page_alloc_tier -a -o /tmp/perf.data >/dev/null 2>"/out/$m-$2.err" &
		pid=$!
		# perf is ready when the event is open: wait for its fd on perf_event
		w=0
		while ! has_perf_fd "$pid"; do
			w=$((w + 1))
			[ "$w" -le 150 ] || { kill "$pid"; return 1; }
			sleep 0.2
		done
		observe "$pid" '' ''
		ev=$(sed -n 's/.*(\([0-9]*\) samples).*/\1/p' "/out/$m-$2.err" | tail -1)
		lost=$(sed -n 's/.*lost \([0-9]*\) chunks.*/\1/p' "/out/$m-$2.err" | awk '{s += $1} END {print s + 0}')
		ls -l /tmp/perf.data >>"/out/$m-$2.err"
		rm -f /tmp/perf.data
		;;
	*) echo "unknown mode $m" >&2; return 1 ;;
	esac
	# ticks are 1/100 s (CONFIG_HZ of the guests' USER_HZ)
	cpu=$(awk -v t="$cpu" 'BEGIN {if (t < 0) print -1; else printf "%.2f", t / 100}')
	cpu_report /tmp/ticks.0 /tmp/ticks.1 >"/out/$m-$2.cpu"
	other=$(other_ticks "/out/$m-$2.cpu" "$pid" | awk '{printf "%.2f", $1 / 100}')
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$kernel" "$2" "$m" "${ops:-0}" "$cpu" "$rss" "${ev:--1}" "$lost" "$other" >>/out/bench.tsv
}

IFS=,
# shellcheck disable=SC2086 # split the comma list
set -- $modes
unset IFS

n=$#
echo "$STRESSOR" >/out/bench.stressor
# The same memory state before every run, whatever ran before it: the
# ftrace ring buffer grows to its full size when an event is first
# enabled (do that now, with an event every kernel has), and each run
# starts from dropped caches and compacted memory (fresh()).
echo 1 >/sys/kernel/tracing/events/kmem/mm_page_alloc/enable
echo 0 >/sys/kernel/tracing/events/kmem/mm_page_alloc/enable
echo >/sys/kernel/tracing/trace
fresh() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	echo 1 >/proc/sys/vm/compact_memory
}
# warm up: page cache and first-touch effects (one stressor run), then
# gfptop's first start in the boot (the probe source, which every kernel
# has), measured as the "probe1boot" row of round 0: the first interval
# of the boot's first gfptop, whatever the kernel does once per boot
stressor >/dev/null
case ",$modes," in
*,gfptop*,* | *,gfpstat,* | *,probe*,* | *,*floor,*)
	fresh
	quiet
	procs_ticks >/tmp/ticks.0
	gfptop --source probe -j -o /tmp/warm.json 1 >/dev/null 2>/out/warm.err &
	pid=$!
	wait_ready /out/warm.err 60 "$pid" || exit 1
	t0=$(tick "$pid")
	ops=$(stressor)
	cpu=$(awk -v t="$(($(tick "$pid") - t0))" 'BEGIN {printf "%.2f", t / 100}')
	procs_ticks >/tmp/ticks.1
	rss=$(hwm "$pid")
	kill -INT "$pid"
	wait "$pid" || true
	cpu_report /tmp/ticks.0 /tmp/ticks.1 >/out/probe1boot-0.cpu
	other=$(other_ticks /out/probe1boot-0.cpu "$pid" | awk '{printf "%.2f", $1 / 100}')
	ev=$(sed 's/.*"events":{"seen":\([0-9]*\).*/\1/' /tmp/warm.json | awk '{s += $1} END {print s + 0}')
	printf '%s\t0\tprobe1boot\t%s\t%s\t%s\t%s\t0\t%s\n' "$kernel" "${ops:-0}" "$cpu" "$rss" "$ev" "$other" >>/out/bench.tsv
	rm -f /tmp/warm.json
	;;
esac
r=1
while [ "$r" -le "$rounds" ]; do
	# rotate the mode order by one each round
	idx=0
	while [ "$idx" -lt "$n" ]; do
		j=$(((idx + r - 1) % n + 1))
		eval "m=\${$j}"
		fresh
		quiet
		run_mode "$m" "$r" || { echo "vm/bench.sh: mode $m failed" >&2; exit 1; }
		idx=$((idx + 1))
	done
	r=$((r + 1))
done
