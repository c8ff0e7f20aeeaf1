#!/usr/bin/env bash
# One guest kernel, booted under QEMU: it reports the release it was built
# as, its mm_page_alloc_tier event records allocations under stress-ng,
# memory pressure shows tiers other than none, dmesg is free of warnings,
# and its gfp flag names match its semantics.
#
#   tests/kernel/host.sh before|after|6.12|7.2
set -euo pipefail
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

kind=$1
check_kind "$kind"
out=$BUILD/test/kernel-$kind
boot_guest_checks "$kind" "$kind" "$out" tests/kernel/guest.sh || exit 0

want="$(cat "$(kernel_tree "$kind")/.gfptop-version")-gfptop-$kind"
check "$kind: guest runs kernel $want" test "$(cat "$out/uname.txt")" = "$want"

# hist trigger totals: "    Hits: N"
hits() { awk '/^ *Hits:/ {print $2}' "$1"; }
check "$kind: mm_page_alloc_tier records events during a short stress-ng run" \
	test "$(hits "$out/light.hist")" -gt 0

# entries look like "{ tier:          3, order:          0 } hitcount:         12"
deep_tiers() { grep -E '^\{ tier: +[1-9]' "$out/pressure.hist" | sed -E 's/ +/ /g'; }
check "$kind: memory pressure gives allocations with a tier other than none" test -n "$(deep_tiers)"
deep_tiers >"$out/deep-tiers.txt" || true

# An OOM kill prints a stack trace by design; warnings, BUGs and oopses do not belong.
check_dmesg "$kind: dmesg has no WARN/BUG/oops" "$out/dmesg"

if [ "$kind" = before ]; then
	check "before: __GFP_ATOMIC is among the gfp flag names" grep -q '"__GFP_ATOMIC"' "$out/tier.format"
else
	check "$kind: __GFP_ATOMIC is gone from the gfp flag names" bash -c "! grep -q '__GFP_ATOMIC' '$out/tier.format'"
fi
