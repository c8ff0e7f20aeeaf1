#!/usr/bin/env bash
# The Prometheus rules of prometheus/ and the --prom exposition, checked
# by Prometheus's own promtool (guest/fetch-promtool: Debian's, unpacked
# into build/tools, not installed). Host only, no guest, no kernel. One
# PASS/FAIL line per check (tests/lib.sh); make test runs it as the suite
# "prometheus rules".
#
#   - promtool check rules, with every lint and lint problems fatal
#   - promtool test rules prometheus/gfptop.rules.test.yml: each rule's
#     value, each alert firing when it should and silent when it should not
#   - promtool check metrics, silent, on an exposition prom_write()
#     wrote (tests/unit/test_prom.c with GFPTOP_PROM_SAMPLE)
#   - every gfptop_* metric the rules and their tests name is a family of
#     that exposition: a metric renamed in user/prom.c, or misspelt in a
#     rule, fails here (promtool accepts a rule on any name)
set -euo pipefail
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/lib.sh
. tests/lib.sh

rules=prometheus/gfptop.rules.yml
tests=prometheus/gfptop.rules.test.yml
out=$BUILD/test/prom-rules
rm -rf "$out"
mkdir -p "$out"

if ! promtool=$(guest/fetch-promtool 2>"$out/fetch.log"); then
	fail "prom-rules: promtool fetched (guest/fetch-promtool)" "$(tail -n 1 "$out/fetch.log")"
	exit 0
fi
pass "prom-rules: promtool fetched ($(cat "$BUILD/tools/prometheus/version"))"

check "prom-rules: promtool check rules $rules (--lint=all, fatal)" \
	"$promtool" check rules --lint=all --lint-fatal "$rules"
check "prom-rules: promtool test rules $tests" "$promtool" test rules "$tests"

# test_prom's exit status is the unit suite's business: a rename that
# breaks its other tests must still reach the checks below
sample=$out/sample.prom
if make --no-print-directory -f user/gfptop.mk BUILD="$BUILD" "$BUILD/unit/test_prom" >"$out/build.log" 2>&1; then
	GFPTOP_PROM_SAMPLE=$sample "$BUILD/unit/test_prom" >"$out/test_prom.log" 2>&1 || true
fi
if [ -s "$sample" ]; then
	pass "prom-rules: test_prom writes a sample exposition"
else
	fail "prom-rules: test_prom writes a sample exposition" "see ${out#"$GFPTOP_ROOT"/}/build.log and test_prom.log"
	exit 0
fi
check "prom-rules: promtool check metrics on the sample exposition: no warning" \
	silent "$promtool" check metrics <"$sample"

# The gfptop_* names of FILE, outside comments. One after a colon is part
# of a recording rule's name (instance:gfptop_allocations:rate5m), not a
# metric of gfptop's; "gfptop_gfp_class_*" in a description is a prefix,
# kept with its star.
names_in() {
	grep -v '^[[:space:]]*#' "$1" |
		grep -oE '(^|[^:A-Za-z0-9_])gfptop_[a-z0-9_]*[a-z0-9_*]' |
		sed -E 's/^[^g]//' | sort -u
}
# every name (or prefix*) of FILE is a # TYPE line of the sample
names_exported() {
	local file=$1 n missing=()
	for n in $(names_in "$file"); do
		if [[ $n == *'*' ]]; then
			grep -q "^# TYPE ${n%\*}" "$sample" || missing+=("$n")
		else
			grep -q "^# TYPE $n " "$sample" || missing+=("$n")
		fi
	done
	[ -n "$(names_in "$file")" ] || { echo "no gfptop_* name found in $file"; return 1; }
	[ ${#missing[@]} -eq 0 ] || { echo "not exported by user/prom.c: ${missing[*]}"; return 1; }
}
check "prom-rules: every gfptop_* metric of $rules is one --prom exports" names_exported "$rules"
check "prom-rules: every gfptop_* metric of $tests is one --prom exports" names_exported "$tests"
