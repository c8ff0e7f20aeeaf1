#!/usr/bin/env bash
# The patch series: each series applies in order, with no fuzz, to the
# kernel source Debian ships, and checkpatch --strict finds nothing but
# what checkpatch_clean() below accepts.
set -euo pipefail
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

tmp=$(mktemp -d "$BUILD/patchtest.XXXXXX")
trap 'rm -rf "$tmp" "$tmp".*' EXIT
tar -xJf "$KERNEL_TARBALL" -C "$tmp" --strip-components=1
version=$(make -s -C "$tmp" kernelversion)

# the same apply_series (guest/lib.sh) guest/build-kernel uses, on a
# fresh extract
applies() {
	local kind=$1 bad rc=0
	rm -rf "$tmp.$kind" && mkdir -p "$tmp.$kind"
	tar -xJf "$KERNEL_TARBALL" -C "$tmp.$kind" --strip-components=1
	bad=$(apply_series "$kind" "$tmp.$kind" 2>/dev/null) || { echo "$bad does not apply to $version"; rc=1; }
	rm -rf "$tmp.$kind"
	return "$rc"
}
for kind in before after; do
	check "series.$kind applies in order to Linux $version with no fuzz" applies "$kind"
done

# checkpatch --strict at mm's 80 columns. UNKNOWN_COMMIT_ID is ignored:
# there is no upstream git tree here to look the reverted commits up in.
# Two kinds of finding are accepted, and only these:
#  - in include/trace/events/, checkpatch's known false positives on the
#    TRACE_EVENT() macros ("Lines should not end with a '('", "Alignment
#    should match open parenthesis");
#  - in patches whose code is upstream's (the rebased seed patch 6/6 and
#    the reverts of seed patches 5/6..1/6, which must stay exact
#    reverses), anything but an ERROR: those lines are upstream's.
upstream_code="after/0001-* before/0003-* before/0004-* before/0005-* before/0006-* before/0007-*"
checkpatch_clean() {
	local p=$1 rel=${1#"$GFPTOP_ROOT"/kernel-patches/} out bad glob
	out=$(cd "$tmp" && { scripts/checkpatch.pl --strict --max-line-length=80 --no-tree \
		--ignore UNKNOWN_COMMIT_ID --show-types --no-summary "$p" 2>&1 || true; })
	bad=$(echo "$out" | awk '
		/^(ERROR|WARNING|CHECK):/ { finding = $0; next }
		finding != "" && /^#[0-9]+: FILE:/ {
			if (!($2 == "FILE:" && $3 ~ /^include\/trace\/events\// &&
			      finding ~ /OPEN_ENDED_LINE|PARENTHESIS_ALIGNMENT/))
				print finding " (" $3 ")"
			finding = ""; next
		}
		finding != "" { print finding; finding = "" }')
	for glob in $upstream_code; do
		# shellcheck disable=SC2053 # glob match on purpose
		[[ $rel == $glob ]] && bad=$(echo "$bad" | grep "^ERROR" || true)
	done
	[ -z "$bad" ] || { echo "$bad" | head -n 1; return 1; }
}
for p in "$GFPTOP_ROOT"/kernel-patches/*/*.patch; do
	check "checkpatch --strict: ${p#"$GFPTOP_ROOT"/} is clean" checkpatch_clean "$p"
done

# no patch file is left out of both series
listed() {
	local p=${1#"$GFPTOP_ROOT"/kernel-patches/}
	grep -qxF "$p" "$GFPTOP_ROOT"/kernel-patches/series.before "$GFPTOP_ROOT"/kernel-patches/series.after ||
		{ echo "$p is in no series"; return 1; }
}
for p in "$GFPTOP_ROOT"/kernel-patches/*/*.patch; do
	check "${p#"$GFPTOP_ROOT"/} is in a series" listed "$p"
done
