#!/usr/bin/env bash
# The before/after report (compare/) on hand-written results:
# tests/compare/fixtures/results, laid out as guest/compare leaves them
# (two kernels x the workload vm-fifo x two runs, and one failed before
# run), and its statistics (test_stats.c, cmocka). Host only, no guest.
# One PASS/FAIL line per check (tests/lib.sh). make test runs it as the
# suite "report (gfpcompare)".
#
# The expected numbers are computed here from the fixtures with jq and
# awk, not by gfpcompare's code: every tier the JSON names is in the
# report, in the order of tier_values; the depth table has the fixtures'
# shares; the pcp-without-the-right and reserve_fail rows have their
# means; the plots are written, with each kernel's levels drawn; JSON of
# schema gfptop-interval/1 (no depth, pcp, tier_meaning or tier_levels) still works.
set -euo pipefail
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/lib.sh
. tests/lib.sh

fix=tests/compare/fixtures
res=$fix/results
out=$BUILD/test/compare
rm -rf "$out"
mkdir -p "$out"
md=$out/report/report.md
html=$out/report/report.html
# the fixtures' workload list in guest/workloads' format, as guest/compare
# hands it to gfpcompare
wl=$out/workloads.tsv
check "compare: the fixtures' workload list parses (workloads_table)" \
	bash -c ". guest/lib.sh && workloads_table '$fix/workloads' >'$wl'"

# the statistics against values computed independently: one line per
# cmocka test, as tests/run does for the unit tests
if make --no-print-directory -f compare/compare.mk BUILD="$BUILD" "$BUILD/unit/test_stats" >"$out/stats.log" 2>&1; then
	"$BUILD/unit/test_stats" >>"$out/stats.log" 2>&1 || true
	awk '/^\[       OK \] / { print "PASS compare: statistics: " $4 }
	     /^\[  FAILED  \] [a-z_]/ { print "FAIL compare: statistics: " $4 " (see '"$out"'/stats.log)" }' "$out/stats.log"
	grep -q '^\[==========\] .* run\.' "$out/stats.log" ||
		fail "compare: statistics test runs" "$(tail -n 1 "$out/stats.log")"
else
	fail "compare: statistics test builds (-Wall -Werror)" "$(tail -n 1 "$out/stats.log")"
fi

if ! make --no-print-directory -f compare/compare.mk BUILD="$BUILD" "$BUILD/gfpcompare" >"$out/build.log" 2>&1; then
	fail "compare: gfpcompare builds (-Wall -Werror)" "$(tail -n 1 "$out/build.log")"
	exit 0
fi
pass "compare: gfpcompare builds (-Wall -Werror)"

command -v jq >/dev/null || {
	fail "compare: jq is installed" "run make deps"
	exit 0
}

if ! "$BUILD/gfpcompare" -w "$wl" -o "$out/report" "$res" >"$out/run.log" 2>&1; then
	fail "compare: report from the fixtures" "gfpcompare exited non-zero: $(tail -n 1 "$out/run.log")"
	exit 0
fi
check "compare: report from the fixtures writes report.md, report.html, summary.json" \
	test -s "$md" -a -s "$html" -a -s "$out/report/summary.json"

# markdown cell text as gfpcompare escapes it
mdesc() { sed 's/[|_*<]/\\&/g'; }

jsons() { find "$res" -name gfptop.json | sort; }

# every tier any run names, in tier_values order, then those without a value
# (unknown) in first-seen order
expected_tiers() {
	# shellcheck disable=SC2046
	jq -rs '(map(.tier_values // {}) | add | to_entries | map(select(.value != null))
		| sort_by(.value) | map(.key)) as $known
		| (map(.tiers | keys_unsorted) | add | unique) as $all
		| $known + ($all - $known) | .[]' $(jsons)
}
mapfile -t tiers < <(expected_tiers)

missing=''
for t in "${tiers[@]}"; do
	e=$(printf '%s' "$t" | mdesc)
	grep -qF "| $e |" "$md" || missing="$missing $t"
	grep -qF "<td>$t</td>" "$html" || missing="$missing $t(html)"
done
if [ "${#tiers[@]}" -ge 9 ] && [ -z "$missing" ]; then
	pass "compare: all ${#tiers[@]} tiers of the fixtures are in report.md and report.html"
else
	fail "compare: all tiers of the fixtures are in report.md and report.html" "missing:${missing:- (only ${#tiers[@]} tiers found in the fixtures)}"
fi

# the "% tier" rows, in the report's order, against tier_values' order
got=$(grep -o '^| % [^|]*|' "$md" | sed 's/^| % //; s/ |$//; s/\\//g' | grep -v '^reserve (all but none)$' | tr '\n' ' ')
want=$(printf '%s ' "${tiers[@]}")
if [ "$got" = "$want" ]; then
	pass "compare: tiers in the order of tier_values, unknown last (the fixtures' JSON keys are shuffled)"
else
	fail "compare: tiers in the order of tier_values" "got '$got', want '$want'"
fi

# the depth table: per kernel and reserve tier, the share of each bucket
# over both runs, from the fixtures
mapfile -t buckets < <(head -n 1 "$(jsons | head -n 1)" | jq -r '.depth_histograms.none | keys_unsorted[]')
# the lines of report.md's depth tables
depth_rows() { sed -n '/^### Depth:/,/^### Where/p' "$md" | grep -E '^\| (before|after) \| '; }
head=$(printf ' %s |' "${buckets[@]}" | mdesc | sed 's/\\|/|/g')
if grep -qF "| allocs/run |$head level | at or below level |" "$md"; then
	pass "compare: depth table has a column per depth bucket of the JSON, shallow to deep"
else
	fail "compare: depth table has a column per depth bucket" "no header with$head"
fi
bad='' rows=0
for k in before after; do
	for t in "${tiers[@]}"; do
		[ "$t" = none ] && continue
		# bucket totals over this kernel's runs, then shares formatted as the report does
		# shellcheck disable=SC2046
		cells=$(jq -r --arg t "$t" '.depth_histograms[$t] // {} | to_entries[] | "\(.key)\t\(.value)"' \
			$(jsons | grep "/$k/") | awk -F'\t' -v order="${buckets[*]}" '
			{ s[$1] += $2; n += $2 }
			END {
				if (!n) exit
				split(order, b, " ")
				for (i = 1; i in b; i++) printf " %.1f |", 100 * s[b[i]] / n
			}')
		[ -n "$cells" ] || continue
		rows=$((rows + 1))
		e=$(printf '%s' "$t" | mdesc)
		line=$(depth_rows | grep -F "| $k | $e | " | head -n 1)
		# the bucket cells follow the allocs/run cell
		case "$line" in
		"| $k | $e | "*" |$cells "*) ;;
		*) bad="$bad $k/$t(want$cells got '${line:-no row}')" ;;
		esac
	done
done
if [ "$rows" -ge 12 ] && [ -z "$bad" ]; then
	pass "compare: depth table has the fixtures' shares for all $rows kernel x tier rows"
else
	fail "compare: depth table has the fixtures' shares" "${bad:- only $rows rows expected}"
fi
# a watermark tier cannot be at or below its level: the column is 0 for
# every level in these fixtures, and each kernel has its own levels
if depth_rows | grep -F '| > ' |
	awk -F'|' '{ if ($(NF-1) + 0 != 0) bad = 1; n++ } END { exit bad || n < 8 }'; then
	pass "compare: depth table: 'at or below level' is 0.0 for every tier with a level"
else
	fail "compare: depth table: 'at or below level' is 0.0" "see $md"
fi
nb=$(printf '%s' non_block | mdesc)
if depth_rows | grep -F "| before | $nb | " | grep -qF "| > 75% | 0.0 |" &&
	depth_rows | grep -F "| after | $nb | " | grep -qF "| > 100% | 0.0 |"; then
	pass "compare: depth table: non_block's level is > 75% before and > 100% after (tier_meaning)"
else
	fail "compare: depth table: non_block's level per kernel" "no before '> 75%' / after '> 100%' rows"
fi

# mean over a kernel's runs of a per-run sum (jq path summed over lines),
# printed with the report's digits (num() in gfpcompare.c)
run_mean() {
	local k=$1 expr=$2 f
	for f in $(jsons | grep "/$k/"); do
		jq -s "map($expr // 0) | add" "$f"
	done | awk '{ s += $1; n++ }
		END {
			m = s / n; a = m < 0 ? -m : m
			if (a == 0) print "0"
			else if (a >= 1000) printf "%.0f", m
			else if (a >= 10) printf "%.1f", m
			else if (a >= 0.1) printf "%.2f", m
			else printf "%.3f", m
		}'
}
row_means() { # LABEL: "before-mean after-mean" as printed
	grep -F "| $1 |" "$md" | head -n 1 | awk -F'|' '{ gsub(/[ *]/, "", $3); gsub(/[ *]/, "", $5); print $3, $5 }'
}
for r in "highatomic pages used without the right, via pcp|.pcp_highatomic.pages" \
	"failed allocations with a reserve right (reserve\\_fail)|.reserve_fail.count"; do
	label=${r%%|*} expr=${r#*|}
	want="$(run_mean before "$expr") $(run_mean after "$expr")"
	got=$(row_means "$label")
	if [ "$got" = "$want" ]; then
		pass "compare: row '${label//\\/}': before/after means $want"
	else
		fail "compare: row '${label//\\/}'" "got '${got:-no row}', want '$want'"
	fi
done
check "compare: pcp table: after pages by watermark tier" \
	grep -qF "| after | 18.0 | 18.0 | none 14.0, non\\_block 4.00 |" "$md"
check "compare: the failed before run is counted" grep -qF "before: kernel \`6.1.192-gfptop-before\`, 2 runs used, 1 failed" "$md"

# summary.json carries the depth shares (each tier's sum to 100)
check "compare: summary.json: depth shares of every tier sum to 100" \
	jq -e '[.workloads[].depth[][] | .shares_pct | add] | length >= 12 and all(. > 99.9 and . < 100.1)' \
	"$out/report/summary.json"

# the plots
if ! command -v gnuplot >/dev/null; then
	fail "compare: plots" "gnuplot is not installed (make deps)"
else
	badpng=''
	for p in tiers reserve depth-vm-fifo margins-vm-fifo; do
		f=$out/report/$p.png
		[ "$(head -c 4 "$f" 2>/dev/null | od -An -c | tr -d ' ')" = '211PNG' ] || badpng="$badpng $p.png"
		grep -qF "($p.png)" "$md" || badpng="$badpng $p.png(not in report.md)"
	done
	if [ -z "$badpng" ]; then
		pass "compare: tiers, reserve, depth and margin plots written and linked"
	else
		fail "compare: plots written and linked" "bad or missing:$badpng"
	fi
	# each panel draws that kernel's levels (the before panel comes first)
	gp=$out/report/depth-vm-fifo.gp
	# labels are set before each panel's plot command: panel 1 before, 2 after
	if awk '/^set label/ { cur = cur "|" $0 }
		/^plot / { n++; l[n == 1 ? "b" : "a"] = cur; cur = "" }
		END { exit !(l["b"] ~ /"none: > 100%"/ && l["b"] ~ /"non_block: > 75%"/ &&
			     l["b"] ~ /"min_reserve, oom: > 50%"/ && l["b"] ~ /"min_reserve_non_block: > 37.5%"/ &&
			     l["a"] ~ /"none, non_block: > 100%"/ && l["a"] ~ /"min_reserve, oom: > 50%"/ &&
			     l["a"] ~ /"min_reserve_non_block: > 37.5%"/ && l["a"] !~ /75%"/) }' "$gp" 2>/dev/null; then
		pass "compare: depth plot draws each kernel's levels (before non_block 75%, after 100%)"
	else
		fail "compare: depth plot draws each kernel's levels" "see $gp"
	fi
fi

# results of gfptop-interval/1: no depth, pcp or meaning sections
old=$out/old
mkdir -p "$old"
cp -r "$res" "$old/results"
find "$old/results" -name gfptop.json | while read -r f; do
	jq -c '.schema = "gfptop-interval/1" |
		del(.depth_histograms, .pcp_highatomic, .tier_meaning, .tier_levels, .rule_set)' "$f" >"$f.new" &&
		mv "$f.new" "$f"
done
nb_old="| $(printf non_block | mdesc) | 1 | > 75% of min (rule set) | > 100% of min (rule set) |"
if "$BUILD/gfpcompare" -o "$old/report" "$old/results" >"$old/run.log" 2>&1 &&
	grep -qF "no \`depth_histograms\`" "$old/report/report.md" &&
	grep -qF "$nb_old" "$old/report/report.md"; then
	pass "compare: JSON of gfptop-interval/1 still gives a report (levels from the rule sets, no depth section)"
else
	fail "compare: JSON of gfptop-interval/1 still gives a report" "see $old/run.log and $old/report/report.md"
fi

# Golden files: the whole report.md, report.html and summary.json of the
# fixtures, committed under tests/compare/golden/ and compared with diff.
# A golden is a regression test: any change to the report's text or
# numbers shows here. The checks above say the numbers are right; the
# goldens were made by running gfpcompare and then read by eye (tiers in
# tier_values order, unknown last, the depth shares and means the checks
# above compute, the failed run counted, both kernels' levels).
# Regenerate after an intended change, then review the diff by eye:
#   GOLDEN_UPDATE=1 tests/compare/host.sh && git diff tests/compare/golden
# The date is fixed (SOURCE_DATE_EPOCH) and the results path relative, so
# the output depends on nothing but the fixtures. The plots are linked
# only where gnuplot ran, so the goldens assume gnuplot (make deps).
golden=tests/compare/golden
gout=$out/golden
if ! command -v gnuplot >/dev/null; then
	fail "compare: golden files" "gnuplot is not installed (make deps)"
elif ! SOURCE_DATE_EPOCH=0 "$BUILD/gfpcompare" -w "$wl" -o "$gout" "$res" >"$out/golden.log" 2>&1; then
	fail "compare: golden files" "gfpcompare exited non-zero: $(tail -n 1 "$out/golden.log")"
else
	for f in report.md report.html summary.json; do
		if [ -n "${GOLDEN_UPDATE:-}" ]; then
			mkdir -p "$golden"
			cp "$gout/$f" "$golden/$f"
			echo "updated $golden/$f: review it (git diff) before committing"
		fi
		if diff -u "$golden/$f" "$gout/$f" >"$out/golden-$f.diff" 2>&1; then
			pass "compare: $f of the fixtures is the golden $golden/$f"
		else
			fail "compare: $f of the fixtures is the golden $golden/$f" \
				"differs, see ${out#"$GFPTOP_ROOT"/}/golden-$f.diff (GOLDEN_UPDATE=1 to accept)"
		fi
	done
fi
