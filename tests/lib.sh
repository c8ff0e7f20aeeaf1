# Test helpers: every check prints one "PASS name" or "FAIL name: why" line
# (or "SKIP name: why" when what it needs cannot be had here: the pinned
# Debian unstable version is neither cached nor in the archive); tests/run
# counts those lines. Source it; do not run it.
# shellcheck shell=bash

# shellcheck source=guest/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../guest/lib.sh"

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; }
skip() { echo "SKIP $1: $2"; }

# check NAME CONDITION-COMMAND... : PASS if the command succeeds, else FAIL
# with the last line it printed.
check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		pass "$name"
	else
		fail "$name" "$(echo "$out" | tail -n 1)"
	fi
}

# check_or_skip NAME COMMAND...: as check, but a command that exits
# FETCH_UNSTABLE_MISSING (a pinned Debian unstable version neither cached
# nor in the archive) gives a SKIP line with the last line it printed.
check_or_skip() {
	local name=$1 out rc=0
	shift
	out=$("$@" 2>&1) || rc=$?
	if [ "$rc" -eq 0 ]; then
		pass "$name"
	elif [ "$rc" -eq "$FETCH_UNSTABLE_MISSING" ]; then
		skip "$name" "$(echo "$out" | tail -n 1)"
	else
		fail "$name" "$(echo "$out" | tail -n 1)"
	fi
}

# silent COMMAND...: succeeds if the command exits 0 and prints nothing
# (promtool check metrics prints its lint problems, and exits 3); else
# prints its exit status and first line, for check's FAIL line.
silent() {
	local said rc=0
	said=$("$@" 2>&1) || rc=$?
	[ "$rc" -eq 0 ] && [ -z "$said" ] && return 0
	echo "exit $rc: $(echo "$said" | head -n 1)"
	return 1
}

# boot_guest_checks NAME KIND OUTDIR GUEST_SCRIPT: boot KIND (256 MB, 2
# CPUs) running /host/GUEST_SCRIPT with its files in OUTDIR (emptied
# first). PASS/FAIL line "NAME: guest boots and runs the checks"; returns
# non-zero if it did not, so the caller can stop.
boot_guest_checks() {
	local name=$1 kind=$2 out=$3 script=$4 rc=0
	rm -rf "$out"
	mkdir -p "$out"
	guest/run -k "$kind" -m 256 -c 2 -t 900 -q -o "$out" -- sh "/host/$script" || rc=$?
	if [ "$rc" -ne 0 ]; then
		fail "$name: guest boots and runs the checks" "guest/run exited $rc; see ${out#"$GFPTOP_ROOT"/}/console.log"
		return 1
	fi
	pass "$name: guest boots and runs the checks"
}

# check_dmesg NAME FILE [PATTERN]: PASS if a guest's dmesg shows no kernel
# problem (an OOM kill prints a stack trace by design and is not one) and
# no line matching the extended regex PATTERN; the FAIL line quotes the
# first offending line and says how many there were and where.
check_dmesg() {
	local name=$1 file=$2 bad
	bad=$(grep -E "WARNING:|BUG:|Oops|general protection fault|Kernel panic|RCU stall|soft lockup${3:+|$3}" "$file" || true)
	if [ -z "$bad" ]; then
		pass "$name"
	else
		fail "$name" "$(echo "$bad" | wc -l) lines, the first: $(echo "$bad" | head -n 1) (all in ${file#"$GFPTOP_ROOT"/})"
	fi
}

# zoneinfo_populated FILE: the populated zones (managed > 0) of a
# /proc/zoneinfo copy, one "node zone managed min low high free boost"
# line each, min/low/high without the boost (zoneinfo prints
# min_wmark_pages() etc., which add watermark_boost on 6.1 and 6.12).
# Written apart from gfptop's parser (user/zoneinfo.c), to check it.
zoneinfo_populated() {
	awk '/^Node [0-9]+, zone/ { node = $2; sub(/,$/, "", node); zone = $4; inb = 0; next }
	     $1 == "pages" && $2 == "free" { free = $3; inb = 1; next }
	     inb && $1 ~ /^(boost|min|low|high|managed)$/ { v[$1] = $2; next }
	     inb && $1 == "protection:" {
		inb = 0
		if (v["managed"] > 0)
			print node, zone, v["managed"], v["min"] - v["boost"], v["low"] - v["boost"],
			      v["high"] - v["boost"], free, v["boost"]
	     }' "$1"
}

# json_zone_rows FILE: the same fields of the "zones" (gfptop's zone
# header) of every -j line in FILE, in order
json_zone_rows() {
	jq -r '.zones[] | "\(.node) \(.zone) \(.managed) \(.min) \(.low) \(.high) \(.free) \(.boost)"' "$1"
}

# zone_marks_match ZONEINFO JSON: every zone row of every -j line in
# JSON has ZONEINFO's managed pages and unboosted watermarks, and every
# populated zone of ZONEINFO is there
zone_marks_match() {
	diff <(zoneinfo_populated "$1" | cut -d' ' -f1-6 | sort -u) <(json_zone_rows "$2" | cut -d' ' -f1-6 | sort -u)
}

# jq: zone_allocs, an interval's allocations per zone name (its
# tier_zone counts summed over the tiers)
# shellcheck disable=SC2034 # used by the scripts that source this
JQ_ZONE_ALLOCS='def zone_allocs: .tier_zone | [.[]] | map(to_entries[]) | group_by(.key) |
	map({key: .[0].key, value: (map(.value.count) | add)}) | from_entries;'

# zones_ha_known JSON FREE: in every -j line of JSON, each zone that had
# allocations in the interval has the nr_reserved_highatomic of an
# allocation's snapshot, within what reserve_highatomic_pageblock()
# allows (1% of managed + 2 pageblocks of 512 pages); FREE 1:
# nr_free_highatomic too (6.12), 0: it is null (6.1 has no such counter)
zones_ha_known() {
	jq -se --argjson free "$2" "$JQ_ZONE_ALLOCS"'[.[] | zone_allocs as $n |
		.zones[] | select(($n[.zone] // 0) > 0)] |
		length > 0 and all(.nr_reserved_highatomic != null and
			.nr_reserved_highatomic <= .managed / 100 + 1024 and
			if $free == 1 then .nr_free_highatomic != null and
				.nr_free_highatomic <= .managed / 100 + 1024
			else .nr_free_highatomic == null end)' "$1"
}
