#!/bin/sh
# Runs inside a guest with ZONE_NORMAL (tests/oracle/zones.sh: about 4.5
# GB, where Normal starts at 4 GB): the oracle's first phase (the
# order-0 rows at every level and the boost rows) in two zone set-ups,
# each in a directory of /out of its own with what build/oracle/check
# reads (phase1.txt, traced.txt 0: the probe source counts):
#   normal/  target=normal, "run1": the rows decided in ZONE_NORMAL; DMA
#            and DMA32 held
#   walk/    target=dma32 hold_higher=1, "runwalk": DMA and Normal held,
#            so every row's zonelist starts in an empty Normal and the
#            row is decided in DMA32, against its marks plus
#            lowmem_reserve[ZONE_NORMAL]; and after phase 1 the rows
#            decided by DMA32's free lists: order-4 GFP_ATOMIC served
#            off DMA32's highatomic lists, an order-5 GFP_KERNEL taking
#            DMA32's last block of that order
#   guest/run ... sh /host/tests/oracle/zones-guest.sh KIND
set -eu
# shellcheck source=guest/vm/lib.sh
. /host/guest/vm/lib.sh
# shellcheck source=tests/oracle/guest-lib.sh
. /host/tests/oracle/guest-lib.sh
kind=$1
D=/sys/kernel/debug/gfptop_oracle

# as guest.sh: no boost but the module's; a wider band below min (Normal
# gets about 1/3 of min_free_kbytes here, DMA32 2/3)
echo 0 >/proc/sys/vm/watermark_boost_factor
echo 32768 >/proc/sys/vm/min_free_kbytes

for setup in "normal run1 target=normal" "walk runwalk target=dma32 hold_higher=1"; do
	name=${setup%% *}
	cmd=${setup#* } cmd=${cmd%% *}
	params=${setup#* * }
	mkdir -p "/out/$name"
	cd "/out/$name"
	uname -r >uname.txt
	echo 0 >traced.txt
	echo "$name $params" >phase1.txt
	cat /proc/zoneinfo >zoneinfo-before.txt
	# shellcheck disable=SC2086 # the module's parameters, several words
	insmod "/host/build/oracle/$kind/gfptop_oracle.ko" $params
	read -r camp hold <$D/pid
	echo "$camp $hold" >pids.txt
	gfptop --source probe -j -p "$camp" 1 >campaign-probe.json 2>campaign-probe.err &
	gp_probe=$!
	gfptop --source probe --kprobe -j -p "$camp" 1 >campaign-kprobe.json 2>campaign-gfptop.err &
	gp_kprobe=$!
	gpid="$gp_probe $gp_kprobe"
	wait_ready campaign-probe.err 120 "$gp_probe"
	wait_ready campaign-gfptop.err 120 "$gp_kprobe"
	stop_gfptop
	echo "$cmd" >$D/control
	cat $D/held >held.txt
	cont_gfptop
	cat $D/records >records.txt
	rmmod gfptop_oracle
	cat /proc/zoneinfo >zoneinfo-after-rmmod.txt
done
