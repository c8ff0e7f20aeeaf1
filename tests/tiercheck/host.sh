#!/usr/bin/env bash
# The tier checker against one guest kernel: build/tiercheck
# (tests/tiercheck/tiercheck.c) re-derives, with its own code, the tier of
# every kmem:mm_page_alloc_tier event traced in a QEMU guest under short
# pressure workloads with watermark boosting on
# (tests/tiercheck/guest.sh), and every event must agree. First the
# checker has to prove on its fixtures that it can fail
# (tests/tiercheck/selftest.sh). The traces must not be trivially easy:
# enough events per workload, no lost events, reserve tiers below none
# reached; how many events had boost > 0 is reported (and checked).
#
#   tests/tiercheck/host.sh before|after|6.12|7.2
#
# 7.2 is checked with the checker's 7.2 rules, which are its 6.12
# arithmetic: 7.2.13's __zone_watermark_ok(), ALLOC_* bits and
# gfp_to_alloc_flags() are 6.12.118's (kernel-patches/README.md, "7.2").
#
# TIERCHECK_SECONDS (per workload, default 12) and TIERCHECK_MIN_EVENTS
# (per workload, default 10000) override the defaults.
set -euo pipefail
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
cd "$GFPTOP_ROOT"

kind=${1:-}
case "$kind" in
before | after | 6.12) rules=$kind fixtures=$kind ;;
# the checker's own 7.2 rules are 6.12's arithmetic: its 6.12 fixtures
# prove it can fail
7.2) rules=7.2 fixtures=6.12 ;;
*) die "usage: tests/tiercheck/host.sh before|after|6.12|7.2" ;;
esac
seconds=${TIERCHECK_SECONDS:-12}
min_events=${TIERCHECK_MIN_EVENTS:-10000}
workloads="vm vm-fifo mixed hiorder-atomic"
tc=$BUILD/tiercheck
out=$BUILD/test/tiercheck-$kind

if ! msg=$(make -s --no-print-directory -f tests/tiercheck/tiercheck.mk BUILD="$BUILD" "$tc" 2>&1); then
	fail "tiercheck $kind: checker builds (build/tiercheck)" "$(echo "$msg" | grep -m1 -i error || echo "$msg" | tail -n 1)"
	exit 0
fi
pass "tiercheck $kind: checker builds (build/tiercheck)"

tests/tiercheck/selftest.sh "$fixtures" "$tc"

rm -rf "$out"
mkdir -p "$out"
rc=0 t0=$SECONDS
guest/run -k "$kind" -m 512 -c 2 -t 480 -q -o "$out" -- \
	"TIERCHECK_SECONDS=$seconds sh /host/tests/tiercheck/guest.sh" || rc=$?
secs=$((SECONDS - t0))
if [ "$rc" -ne 0 ]; then
	fail "tiercheck $kind: guest runs the pressure workloads" "guest/run exited $rc after ${secs}s; see ${out#"$GFPTOP_ROOT"/}/console.log"
	exit 0
fi
# the reruns the guest made for want of a boosted zone (guest.sh)
extra=$(tr '\n' ' ' <"$out/extra-workloads.txt" 2>/dev/null || true)
workloads="$workloads${extra:+ $extra}"
pass "tiercheck $kind: guest runs the pressure workloads ($workloads, ${seconds}s each; ${secs}s in QEMU)"

want="$(cat "$(kernel_tree "$kind")/.gfptop-version")-gfptop-$kind"
check "tiercheck $kind: guest runs kernel $want" test "$(cat "$out/uname.txt")" = "$want"
wbf=$(cat "$out/boost.txt")
check "tiercheck $kind: watermark boosting on (watermark_boost_factor $wbf, the default)" test "$wbf" -gt 0

for w in $workloads; do
	# "NAME overrun=N commit_overrun=N dropped=N"
	lost=$(grep "^$w " "$out/lost.txt" || echo "$w missing")
	check "tiercheck $kind $w: the ring buffer lost no events (${lost#"$w "})" \
		test "${lost#"$w "}" = "overrun=0 commit_overrun=0 dropped=0"
	rc=0
	"$tc" -l "tiercheck $kind $w" -m "$min_events" "$rules" "$out/$w.trace" >"$out/$w.check" 2>&1 || rc=$?
	[ "$rc" -le 1 ] || fail "tiercheck $kind $w: the checker runs" "exit $rc: $(tail -n 1 "$out/$w.check")"
	grep -v '^MISMATCH ' "$out/$w.check" | grep -v '^STATS '
	n=$(grep -c '^MISMATCH ' "$out/$w.check" || true)
	if [ "$n" -gt 0 ]; then
		echo "tiercheck $kind $w: $n mismatches, the first 20 (all in ${out#"$GFPTOP_ROOT"/}/$w.check):"
		grep '^MISMATCH ' "$out/$w.check" | head -n 20
	fi
done

# sums over the workloads of the checker's "STATS label key=value..." lines
total() {
	cat "$out"/*.check | awk -v k="$1" '/^STATS / { for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) s += kv[2] } } END { print s + 0 }'
}
events=$(total events)
deep=0
summary=''
for t in none non_block min_reserve min_reserve_non_block oom no_watermarks highatomic highatomic_counted no_level; do
	n=$(total "$t")
	summary="$summary $t $n"
	case "$t" in none | no_watermarks | no_level) ;; *) deep=$((deep + n)) ;; esac
done
echo "tiercheck $kind: all workloads: $events events; tiers:$summary"
echo "tiercheck $kind: boost > 0 in $(total boosted) events ($(total boosted_deep) of them with a tier other than none; the boosted mark would give another level in $(total boost_changed)); source=pcp highatomic_block=1: $(total pcp_highatomic_block); no_level: $(total no_level); reserve_fail $(total reserve_fail), reserve_highatomic $(total reserve_highatomic), unreserve_highatomic $(total unreserve_highatomic)"
check "tiercheck $kind: the traces reach reserve tiers below none ($deep events of non_block..oom, highatomic, highatomic_counted)" \
	test "$deep" -gt 0
check "tiercheck $kind: zones were boosted while traced (boost > 0 in $(total boosted) events)" \
	test "$(total boosted)" -gt 0

check_dmesg "tiercheck $kind: dmesg has no WARN/BUG/oops" "$out/dmesg"
