#!/bin/sh
# make demo, inside the after guest: stress-ng drives the guest below its
# watermarks while gfptop shows, every 5 s, which reserve tier satisfied
# the allocations and who made them; at the end, gfptop's histogram of
# the whole run (tier x order and watermark margins).
set -eu
# shellcheck source=guest/vm/lib.sh
. /host/guest/vm/lib.sh
echo 16384 >/proc/sys/vm/min_free_kbytes	# a min watermark worth digging into

gfptop -H 3600 1 >/tmp/whole-run.txt 2>/tmp/hist.err &
hist=$!
wait_ready /tmp/hist.err 60 "$hist"
gfptop -C -r 8 5 2>/tmp/live.err &
live=$!
wait_ready /tmp/live.err 60 "$live"

echo "== stress-ng: anonymous memory to the guest's size, loopback UDP (20 s)"
stress-ng --vm 2 --vm-bytes 100% --vm-keep --udp 2 -t 20 --metrics-brief || true

# Ctrl-C's signal: each prints its final interval and detaches
kill -INT "$live" "$hist"
wait "$live" "$hist" || true
echo
echo "== gfptop -H over the whole run"
cat /tmp/whole-run.txt
