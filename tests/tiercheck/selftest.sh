#!/usr/bin/env bash
# The tier checker on its committed fixtures (no kernel needed): it passes
# the hand-derived good trace of KIND, rejects exactly the events of the bad
# trace that a "## bad: CHECK:" comment marks (no more, no fewer) and its
# overrun header, and the other kernel's rules reject the good trace (for
# 6.12: the 6.1 after rules, on the trace without its free_highatomic=).
#
#   tests/tiercheck/selftest.sh before|after|6.12 [TIERCHECK]
set -euo pipefail
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

kind=${1:-}
case "$kind" in
before) other=after ;;
after) other=before ;;
6.12) other=after ;;
*) die "usage: tests/tiercheck/selftest.sh before|after|6.12 [TIERCHECK]" ;;
esac
tc=${2:-$BUILD/tiercheck}
fix=$GFPTOP_ROOT/tests/tiercheck/fixtures
good=$fix/$kind-good.trace bad=$fix/$kind-bad.trace
out=$BUILD/test/tiercheck-selftest-$kind
mkdir -p "$out"

# the good trace: exit 0, every check PASS, no MISMATCH
rc=0
"$tc" -l "$kind-good" -m 10 "$kind" "$good" >"$out/good.out" 2>&1 || rc=$?
n=$(grep -c '^PASS ' "$out/good.out" || true)
if [ "$rc" -eq 0 ] && ! grep -qE '^(FAIL|MISMATCH) ' "$out/good.out" && [ "$n" -eq 9 ]; then
	pass "tiercheck $kind fixture: the hand-derived good trace passes all 9 checks"
else
	fail "tiercheck $kind fixture: the hand-derived good trace passes all 9 checks" \
		"exit $rc, $n PASS; see ${out#"$GFPTOP_ROOT"/}/good.out"
fi

# the bad trace: the MISMATCH lines are exactly the marked events
rc=0
"$tc" -l "$kind-bad" "$kind" "$bad" >"$out/bad.out" 2>&1 || rc=$?
awk '/^## bad: / { sub(":", "", $3); want = $3; next }
     /^#/ { next }
     want != "" { print want " " NR; want = "" }' "$bad" | sort >"$out/bad.want"
sed -n 's/^MISMATCH \([a-z_]*\) [^ ]*:\([0-9]*\): .*/\1 \2/p' "$out/bad.out" | sort >"$out/bad.got"
nwant=$(wc -l <"$out/bad.want")
if [ "$rc" -eq 1 ] && [ "$nwant" -ge 8 ] && cmp -s "$out/bad.want" "$out/bad.got"; then
	pass "tiercheck $kind fixture: the bad trace's $nwant marked events are rejected, nothing else"
else
	fail "tiercheck $kind fixture: the bad trace's $nwant marked events are rejected, nothing else" \
		"exit $rc; $(diff "$out/bad.want" "$out/bad.got" | grep -c '^[<>]') differences (< missed, > extra): $(diff "$out/bad.want" "$out/bad.got" | grep '^[<>]' | head -n 3 | tr '\n' ' ')"
fi
# every kind of check fails somewhere in the bad trace, the header's too
missing=''
for c in parse alloc_flags watermark_tier tier source_highatomic source_highatomic_fallback watermark_constant; do
	grep -q "^$c " "$out/bad.want" || missing="$missing $c"
done
grep -q '^FAIL .*trace complete' "$out/bad.out" || missing="$missing trace-complete"
if [ -z "$missing" ]; then
	pass "tiercheck $kind fixture: the bad trace makes every check fail, the completeness check too"
else
	fail "tiercheck $kind fixture: the bad trace makes every check fail, the completeness check too" \
		"never failed:$missing"
fi

# the other kernel's rules do not accept this kernel's good trace (a 6.1
# event has no free_highatomic=, so 6.12's loses it first: what differs
# is then the arithmetic only)
rc=0
sed 's/ free_highatomic=[0-9]*//' "$good" >"$out/good-as-$other.trace"
"$tc" -l "$kind-good-as-$other" "$other" "$out/good-as-$other.trace" >"$out/cross.out" 2>&1 || rc=$?
n=$(grep -c '^MISMATCH watermark_tier ' "$out/cross.out" || true)
check "tiercheck $kind fixture: checked with the $other kernel's rules it fails ($n watermark tiers differ)" \
	test "$rc" -eq 1 -a "$n" -gt 0
