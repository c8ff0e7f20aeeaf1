#!/bin/sh
# make demo, inside the after guest: stress-ng drives the guest to its
# watermarks and the kernel's own tracefs histogram shows which reserve
# tier satisfied the allocations. (The gfptop loader is not built yet;
# until it is, this shows the raw kmem:mm_page_alloc_tier event.)
set -eu
E=/sys/kernel/tracing/events/kmem/mm_page_alloc_tier
echo 16384 >/proc/sys/vm/min_free_kbytes
echo 'hist:keys=tier,order:vals=hitcount:sort=tier,order' >"$E/trigger"
echo "== stress-ng: anonymous memory to the guest's size, loopback UDP (20 s)"
stress-ng --vm 2 --vm-bytes 100% --vm-keep --udp 2 -t 20 --metrics-brief || true
echo "== allocations by reserve tier and order (kmem:mm_page_alloc_tier)"
sed -n 's/^\(.*tier:\) *\([0-9]*\)/\1 \2/p;/Totals/,$p' "$E/hist"
echo "== tier values:"
sed -n 's/.*__print_symbolic(REC->tier, \(.*\))$/\1/p' "$E/format"
