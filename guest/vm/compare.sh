#!/bin/sh
# Guest side of guest/compare: one workload run with gfptop -j recording.
# Run by guest/run in /out, which guest/compare filled with params.sh
# (WORKLOAD REP SEED DUR KIND ACCEL QEMU GITREV MEM_MB CPUS) and
# workload.sh (the workload's command). Leaves in /out:
#   gfptop.json  gfptop -j, one line per second (docs/json-schema.md)
#   meta.json    what ran where: kernel release, gfptop version, guest size,
#                accelerator, exit status, gfptop's CPU time and RSS, OOM kills
#   workload.log the command's output
#   zoneinfo     /proc/zoneinfo at the start (the zones' watermarks)
# Exit status: 0 if gfptop recorded, 1 if not (the command's own status is
# in meta.json; OOM kills are expected in some workloads).
set -eu
# shellcheck source=guest/vm/lib.sh
. /host/guest/vm/lib.sh
cd /out
# shellcheck source=/dev/null
. ./params.sh

export DUR SEED
echo 16384 >/proc/sys/vm/min_free_kbytes
ip link set lo mtu 65536
# the watermarks after min_free_kbytes (the report relates margins to min)
cat /proc/zoneinfo >/out/zoneinfo

now() { cut -d' ' -f1 /proc/uptime; }
# the guest kernels have no VM event counters (/proc/vmstat has no
# oom_kill): count the OOM killer's reports instead
ooms() { dmesg | grep -c 'Out of memory: Killed process' || true; }
oom0=$(ooms)

rm -f gfptop.json gfptop.err
gfptop -j -o /out/gfptop.json 1 >/dev/null 2>/out/gfptop.err &
gp=$!
echo -1000 >"/proc/$gp/oom_score_adj" 2>/dev/null || true
wait_ready /out/gfptop.err 60 "$gp" || exit 1

t0=$(now)
set +e
timeout $((DUR + 60)) sh /out/workload.sh >/out/workload.log 2>&1
rc=$?
set -e
t1=$(now)
sleep 1

# gfptop's own cost: utime+stime (clock ticks) and peak RSS
hz=100
cpu_ticks=$(awk '{print $14 + $15}' "/proc/$gp/stat" 2>/dev/null || echo -1)
hwm=$(awk '/^VmHWM/ {print $2}' "/proc/$gp/status" 2>/dev/null || echo -1)
kill -INT "$gp"
set +e
wait "$gp"
grc=$?
set -e
oom1=$(ooms)

{
	printf '{"schema":"gfpcompare-run/1","workload":"%s","rep":%s,"seed":%s,"dur_s":%s,' \
		"$WORKLOAD" "$REP" "$SEED" "$DUR"
	printf '"kernel":"%s","kernel_release":"%s","gfptop_version":"%s","gfptop_sha256":"%s",' \
		"$KIND" "$(uname -r)" "$GITREV" "$(sha256sum /usr/bin/gfptop | cut -c1-16)"
	printf '"accel":"%s","qemu":"%s","guest_mem_mb":%s,"guest_mem_total_kb":%s,"cpus":%s,' \
		"$ACCEL" "$QEMU" "$MEM_MB" "$(awk '/MemTotal/ {print $2}' /proc/meminfo)" "$(nproc)"
	printf '"min_free_kbytes":%s,"cmd_rc":%s,"cmd_wall_s":%s,"gfptop_rc":%s,' \
		"$(cat /proc/sys/vm/min_free_kbytes)" "$rc" "$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", b - a}')" "$grc"
	printf '"gfptop_cpu_s":%s,"gfptop_maxrss_kb":%s,"oom_kills":%d}\n' \
		"$(awk -v t="$cpu_ticks" -v hz="$hz" 'BEGIN {printf "%.2f", t / hz}')" "$hwm" $((oom1 - oom0))
} >/out/meta.json.tmp
mv /out/meta.json.tmp /out/meta.json
[ -s /out/gfptop.json ]
