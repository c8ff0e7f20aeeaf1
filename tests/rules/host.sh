#!/usr/bin/env bash
# Every kernel rule set (a row of common/rule_sets.c) has its proofs: a
# guest kind that has it (guest/lib.sh's kernel_rule_set), so the gfptop
# suites check the JSON names it there; the tier checker's own
# arithmetic for it (tests/tiercheck/tiercheck.c -L); and an oracle
# expectation file for one of its kinds (tests/oracle/expect.KIND). A
# row added in one place only fails here. Host only, no kernel.
#
#   tests/rules/host.sh
set -euo pipefail
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
cd "$GFPTOP_ROOT"

list=$BUILD/rule-sets-list
mkdir -p "$BUILD"
check "rule sets: the table's lister builds" \
	cc -std=gnu11 -Wall -Werror -Icommon -o "$list" tests/rules/list.c common/rule_sets.c common/names.c
check "tier checker builds" make --no-print-directory -s -f tests/tiercheck/tiercheck.mk "$BUILD/tiercheck"
[ -x "$list" ] && [ -x "$BUILD/tiercheck" ] || exit 0

# the guest kinds check_kind knows, from its own case line
kinds=$(sed -n '/^check_kind()/,/^}/s/^[[:space:]]*\([a-z0-9. |-]*\)) ;;$/\1/p' guest/lib.sh | tr -d ' ' | tr '|' ' ')
# kinds_of ROW: the kinds whose kernel has rule set ROW
kinds_of() {
	local k
	for k in $kinds; do
		[ "$(kernel_rule_set "$k" 2>/dev/null)" = "$1" ] && echo "$k"
	done
	return 0
}
check "rule sets: guest/lib.sh's check_kind lists the kinds ($(echo "$kinds" | wc -w))" test -n "$kinds"
checked=$("$BUILD/tiercheck" -L)
while read -r id series; do
	ks=$(kinds_of "$id" | tr '\n' ' ')
	check "rule set $id ($series): some guest kind has it (${ks:-none})" test -n "$ks"
	check "rule set $id: the tier checker re-derives tiers with its own arithmetic for it" \
		grep -qx -- "$id" <<<"$checked"
	oracle=
	for k in $ks; do
		[ -f "tests/oracle/expect.$k" ] && oracle="$oracle $k"
	done
	check "rule set $id: the oracle has expectations for one of its kinds (${oracle# })" test -n "$oracle"
done < <("$list")
