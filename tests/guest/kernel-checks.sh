#!/bin/sh
# Runs inside the guest (guest/run ... sh /host/tests/guest/kernel-checks.sh):
# records into /out what tests/kernel-guest.sh checks on the host.
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
# the allocator runs at its watermarks) while loopback UDP traffic makes
# GFP_ATOMIC allocations in softirq.
echo 'hist:keys=tier,order:vals=hitcount' >"$E/trigger"
stress-ng --vm 2 --vm-bytes 95% --vm-keep --oomable \
	--udp 1 --udp-domain ipv4 -t "${PRESSURE_SECONDS:-20}" --quiet || true
cat "$E/hist" >pressure.hist
echo '!hist:keys=tier,order:vals=hitcount' >"$E/trigger"
