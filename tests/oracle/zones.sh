#!/usr/bin/env bash
# The oracle with ZONE_NORMAL: Debian's own image booted with 4.5 GB (on
# x86-64 Normal starts at 4 GB; at 2 GB a guest has only DMA and DMA32),
# the first phase of the campaign twice (tests/oracle/zones-guest.sh):
# decided in Normal (DMA and DMA32 held), and decided in DMA32 with
# Normal held, where every row's zonelist starts in Normal and DMA32's
# check adds lowmem_reserve[ZONE_NORMAL]; that one also runs rows whose
# tier depends on DMA32's free lists (a highatomic page off them, their
# last order-5 block), which the probe source must read at entry. Each set-up is checked by
# build/oracle/check like the main campaign (untraced: gfptop --source
# probe, on fentry/fexit and on kprobes, must count per tier and context
# exactly what the rows got), and gfptop's per-zone counts must put every
# campaign allocation in the set-up's zone, in more than one tier.
#
#   tests/oracle/zones.sh debian-6.1|debian-6.12|debian-7.2
set -euo pipefail
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

kind=${1:-}
case "$kind" in
debian-6.1) expect=(tests/oracle/expect.after tests/oracle/expect.debian-6.1) ;;
debian-6.12) expect=(tests/oracle/expect.6.12) ;;
debian-7.2) expect=(tests/oracle/expect.6.12 tests/oracle/expect.debian-7.2) ;;
*) die "usage: tests/oracle/zones.sh debian-6.1|debian-6.12|debian-7.2" ;;
esac
out=$BUILD/oracle-run/zones-$kind

rc=0
msg=$(tests/oracle/build-debian "$kind" 2>&1) || rc=$?
if [ "$rc" -eq 3 ]; then
	skip "oracle $kind zones" "$(echo "$msg" | tail -n 1)"
	exit 0
elif [ "$rc" -ne 0 ]; then
	fail "oracle $kind zones: module builds against $kind's linux-headers" "$(echo "$msg" | grep -m1 -iE 'error' || echo "$msg" | tail -n 1)"
	exit 0
fi
# A held zone is held by taking its free pages; a page freed there later
# (reclaim, a per-cpu list drained) can serve a row that has a reserve
# right, and rows retried three times can all take it: seen once in the
# walk set-up, six cases at min_low served from one Normal page (pfn
# 1062574). Such a run says nothing about gfptop: when the module's only
# failures are rows that did not reach their level, run both set-ups
# again, at most three times, as tests/oracle/host.sh does; every other
# failure counts at once.
for attempt in 1 2 3; do
	rm -rf "$out"
	mkdir -p "$out"
	rc=0
	guest/run -k "$kind" -m 4608 -c 1 -t 600 -q -o "$out" -- sh /host/tests/oracle/zones-guest.sh "$kind" || rc=$?
	if [ "$rc" -ne 0 ]; then
		fail "oracle $kind zones: guest runs both set-ups (4608 MB)" "guest/run exited $rc; see ${out#"$GFPTOP_ROOT"/}/console.log"
		exit 0
	fi
	unreached=0 others=0
	for name in normal walk; do
		crc=0
		"$BUILD/oracle/check" "$kind $name" "$out/$name" "${expect[@]}" >"$out/$name/check.txt" 2>&1 || crc=$?
		echo "$crc" >"$out/$name/check.rc"
		unreached=$((unreached + $(grep -c '^FAIL .*: level not reached' "$out/$name/check.txt" || true)))
		others=$((others + $(grep '^FAIL ' "$out/$name/check.txt" | grep -vc ': level not reached' || true)))
	done
	if [ "$attempt" -eq 3 ] || [ "$others" -gt 0 ] || [ "$unreached" -eq 0 ]; then
		break
	fi
	echo "oracle $kind zones: run $attempt: $unreached rows not at their level (a held zone's page, or its state), running both set-ups again"
done
pass "oracle $kind zones: guest runs both set-ups (4608 MB, run $attempt)"

# the campaign's allocations by zone, summed over the intervals: "ZONE
# COUNT TIERS" with TIERS the tiers (count > 0) of that zone. Not
# no_watermarks: such a request takes a page in the first zone that has
# one, which in the walk set-up is Normal whenever something freed a
# page there (the module keeps those rows: their tier is the same)
by_zone() {
	jq -rs '[.[].tier_zone | to_entries[] | select(.key != "no_watermarks") |
		.key as $t | .value | to_entries[] |
		{z: .key, t: $t, n: .value.count}] | group_by(.z)[] |
		"\(.[0].z) \(map(.n) | add) \([.[] | select(.n > 0) | .t] | unique | join(","))"' "$1"
}
for setup in normal:Normal walk:DMA32; do
	name=${setup%%:*} zone=${setup#*:}
	dir=$out/$name
	crc=$(cat "$dir/check.rc")
	cat "$dir/check.txt"
	[ "$crc" -eq 0 ] || fail "oracle $kind $name: host checks" "build/oracle/check exited $crc"
	check "oracle $kind $name: the campaign ran in $zone ($(sed -n '1s/^# \(zone=[^ ]* min=[0-9]*\).*/\1/p' "$dir/records.txt" 2>/dev/null))" \
		grep -q "^# zone=$zone " "$dir/records.txt"
	for src in probe kprobe; do
		z=$(by_zone "$dir/campaign-$src.json" 2>/dev/null || true)
		how="--source probe" && [ "$src" = probe ] || how="$how --kprobe"
		echo "oracle $kind $name: gfptop $how by zone: $(echo "$z" | tr '\n' ';')"
		total=$(echo "$z" | awk '{ s += $2 } END { print s + 0 }')
		# shellcheck disable=SC2016 # awk's own fields
		check "oracle $kind $name ($src): every campaign allocation gfptop counted is in $zone (no_watermarks aside), in more than one tier" \
			awk -v z="$zone" -v t="$total" '$1 == z && $2 == t && t > 0 && $3 ~ /,/ { ok = 1 } END { exit !ok }' <<<"$z"
	done
done
# the walk set-up's rows decided by DMA32's free lists (zones-guest.sh):
# they ran in band and allocated as expected; the per-tier counts that
# build/oracle/check compares with gfptop's above include their tiers (a
# highatomic page taken off DMA32's lists; DMA32's last order-5 block,
# none)
for row in "atomic_o4/ha at over_ha" "kernel_o5 at last"; do
	check "oracle $kind walk: $row rows ran in band in DMA32" \
		grep -q "^PASS oracle $kind walk: $row: " "$out/walk/check.txt"
done
# the walk set-up: DMA32's check for Normal's requests adds a reserve
lowmem=$(sed -n '1s/.* lowmem_reserve=\([0-9]*\).*/\1/p' "$out/walk/records.txt" 2>/dev/null || true)
check "oracle $kind walk: DMA32 keeps lowmem_reserve[ZONE_NORMAL] from the rows' requests (${lowmem:-?} pages)" \
	test "${lowmem:-0}" -gt 0
check_dmesg "oracle $kind zones: dmesg has no WARN/BUG/oops/allocation-failure report" "$out/dmesg" 'page allocation failure'
