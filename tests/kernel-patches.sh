#!/usr/bin/env bash
# The patch series: each series applies in order, with no fuzz, to the
# kernel source Debian ships, and checkpatch finds no error in any patch.
set -euo pipefail
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d "$BUILD/patchtest.XXXXXX")
trap 'rm -rf "$tmp" "$tmp".*' EXIT
tar -xJf "$KERNEL_TARBALL" -C "$tmp" --strip-components=1
version=$(make -s -C "$tmp" kernelversion)

apply_series() {
	local kind=$1 line
	rm -rf "$tmp.$kind" && mkdir -p "$tmp.$kind"
	tar -xJf "$KERNEL_TARBALL" -C "$tmp.$kind" --strip-components=1
	while read -r line; do
		line=${line%%#*}
		[ -n "${line// /}" ] || continue
		patch -d "$tmp.$kind" -p1 -N -F0 -s --no-backup-if-mismatch \
			<"$GFPTOP_ROOT/kernel-patches/$line" >/dev/null ||
			{ echo "$line does not apply to $version"; rm -rf "$tmp.$kind"; return 1; }
	done <"$GFPTOP_ROOT/kernel-patches/series.$kind"
	rm -rf "$tmp.$kind"
}
for kind in before after; do
	check "series.$kind applies in order to Linux $version with no fuzz" apply_series "$kind"
done

checkpatch_clean() {
	local out
	out=$("$tmp/scripts/checkpatch.pl" --no-tree --terse --no-summary "$1" 2>&1 || true)
	if echo "$out" | grep -q "ERROR:"; then
		echo "$out" | grep "ERROR:" | head -n 1
		return 1
	fi
}
for p in "$GFPTOP_ROOT"/kernel-patches/*/*.patch; do
	check "checkpatch: no errors in ${p#"$GFPTOP_ROOT"/}" checkpatch_clean "$p"
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
