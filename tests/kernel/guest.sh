#!/bin/sh
# Runs inside the guest (guest/run ... sh /host/tests/kernel/guest.sh):
# records into /out what tests/kernel/host.sh checks on the host.
set -eu
T=/sys/kernel/tracing
E=$T/events/kmem/mm_page_alloc_tier

uname -r >uname.txt
cat "$E/format" >tier.format

# A short, light stress-ng run with the event counted by a hist trigger.
echo 'hist:keys=tier:vals=hitcount' >"$E/trigger"
stress-ng --vm 1 --vm-bytes 16M --vm-ops 2000 -t 5 --quiet
cat "$E/hist" >light.hist
echo '!hist:keys=tier:vals=hitcount' >"$E/trigger"

# Memory pressure: anonymous memory up to the guest's size (no swap, so
# the allocator runs at its watermarks and the OOM killer fires; stress-ng
# restarts killed workers) while loopback UDP traffic runs. A larger
# min_free_kbytes widens the band below min that reserve users dig into.
echo 16384 >/proc/sys/vm/min_free_kbytes
# On a slow (TCG, busy host) guest one run may never fill memory
# (seen once: 125,000 events, all tier 0, with three guests and a kernel
# build beside it), so it runs again, up to three times, until the
# histogram has an event in a tier other than none: the check needs
# pressure, not a lucky run.
echo 'hist:keys=tier,order:vals=hitcount' >"$E/trigger"
for round in 1 2 3; do
	stress-ng --vm 2 --vm-bytes 100% --vm-keep --udp 2 \
		-t "${PRESSURE_SECONDS:-15}" --quiet || true
	grep -Eq '^\{ tier: +[1-9]' "$E/hist" && break
done
echo "$round" >pressure-rounds.txt
cat "$E/hist" >pressure.hist
echo '!hist:keys=tier,order:vals=hitcount' >"$E/trigger"
