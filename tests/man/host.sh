#!/usr/bin/env bash
# The man page, docs/gfptop.8 (man ./docs/gfptop.8): mandoc -T lint finds
# nothing in it at any level (style included), and every option gfptop -h
# prints is a tag of its OPTIONS section, short and long name together as
# -h prints them ("-m, --min-order"), so a new option without its entry,
# or a renamed one, fails. Host only: gfptop -h needs no kernel. One
# PASS/FAIL line per check (tests/lib.sh); make test runs it as the suite
# "man page".
set -euo pipefail
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/lib.sh
. tests/lib.sh

page=docs/gfptop.8
# dir, not out: check() has a local of that name, which the checks would see
dir=$BUILD/test/man
rm -rf "$dir"
mkdir -p "$dir"

if ! command -v mandoc >/dev/null; then
	fail "man: mandoc is installed" "no mandoc: guest/install-deps installs it"
	exit 0
fi
check "man: mandoc -T lint -W all $page: nothing to say" silent mandoc -T lint -W all "$page"

if ! make --no-print-directory -f user/gfptop.mk BUILD="$BUILD" "$BUILD/gfptop" >"$dir/build.log" 2>&1 ||
	! "$BUILD/gfptop" -h >"$dir/help.txt" 2>&1; then
	fail "man: gfptop -h runs" "see ${dir#"$GFPTOP_ROOT"/}/build.log and help.txt"
	exit 0
fi
# -h's option lines: "  -m, --min-order N   ..." or "      --csv   ..."
grep -oE '^ {2,6}(-[A-Za-z], )?--[a-z][a-z-]*' "$dir/help.txt" | sed 's/^ *//' >"$dir/options.txt"
# the page as text, without the overstrike of bold, and its OPTIONS
# section's tags (indented 7, starting with a dash)
mandoc -T ascii "$page" | sed 's/.\x08//g' >"$dir/page.txt"
sed -n '/^OPTIONS$/,/^[A-Z]/p' "$dir/page.txt" | grep -E '^ {7}-' | sed 's/^ *//' >"$dir/tags.txt"

documented() {
	local opt missing=()
	[ -s "$dir/options.txt" ] || { echo "no option found in gfptop -h"; return 1; }
	while read -r opt; do
		# a tag is the option, then its argument or the end of the line
		grep -qE "^$opt( |\$)" "$dir/tags.txt" || missing+=("$opt")
	done <"$dir/options.txt"
	[ ${#missing[@]} -eq 0 ] || { echo "not in $page's OPTIONS: ${missing[*]}"; return 1; }
}
check "man: every option of gfptop -h ($(wc -l <"$dir/options.txt")) is in $page's OPTIONS" documented
