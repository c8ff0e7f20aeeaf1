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
