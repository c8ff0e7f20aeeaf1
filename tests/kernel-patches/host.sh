#!/usr/bin/env bash
# The patch series: each series applies in order, with no fuzz, to the
# kernel source Debian ships (linux-source-6.1 for before/after/stock,
# linux-source-6.12 for 6.12), checkpatch --strict (each tree's own) finds
# nothing but what checkpatch_clean() below accepts, and the events'
# definition in include/trace/events/kmem.h is one definition: the same
# lines in every series, but for 6.12's nr_free_highatomic, each enum
# written once.
set -euo pipefail
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

tmp=$(mktemp -d "$BUILD/patchtest.XXXXXX")
trap 'rm -rf "$tmp" "$tmp".*' EXIT
# pristine KIND: the directory of a fresh extract of KIND's tarball
# (kernel_tarball, as guest/build-kernel picks it), made on first use and
# shared by the kinds built from the same tarball
pristine() {
	local tarball dir
	tarball=$(kernel_tarball "$1")
	dir=$tmp/$(basename "$tarball" .tar.xz)
	if [ ! -d "$dir" ]; then
		mkdir -p "$dir.tmp"
		tar -xJf "$tarball" -C "$dir.tmp" --strip-components=1
		mv "$dir.tmp" "$dir"
	fi
	echo "$dir"
}

# the same apply_series (guest/lib.sh) guest/build-kernel uses, on a
# fresh copy of the pristine tree
applies() {
	local kind=$1 bad rc=0 base
	base=$(pristine "$kind")
	rm -rf "$tmp.$kind" && cp -a "$base" "$tmp.$kind"
	bad=$(apply_series "$kind" "$tmp.$kind" 2>/dev/null) ||
		{ echo "$bad does not apply to $(make -s -C "$base" kernelversion)"; rc=1; }
	rm -rf "$tmp.$kind"
	return "$rc"
}
for kind in before after 6.12; do
	check "series.$kind applies in order to Linux $(make -s -C "$(pristine "$kind")" kernelversion) with no fuzz" \
		applies "$kind"
done

# checkpatch --strict at mm's 80 columns. UNKNOWN_COMMIT_ID is ignored:
# there is no upstream git tree here to look the reverted commits up in.
# Two kinds of finding are accepted, and only these:
#  - in include/trace/events/, checkpatch's known false positives on the
#    TRACE_EVENT() macros ("Lines should not end with a '('", "Alignment
#    should match open parenthesis"), and on the EM()/EMe() pattern of
#    mmflags.h, which checkpatch -f flags in mmflags.h itself: a list
#    "#define LIST \" whose next line is an EM(...) ("Macros with complex
#    values should be enclosed in parentheses"), and "#define EM(a, b)"/
#    "#define EMe(a, b)" ("macros should not use a trailing semicolon" for
#    TRACE_DEFINE_ENUM(a);, "Argument 'b' is not used");
#  - in patches whose code is upstream's (the rebased seed patch 6/6 and
#    the reverts of seed patches 5/6..1/6, which must stay exact
#    reverses), anything but an ERROR: those lines are upstream's.
upstream_code="after/0001-* before/0003-* before/0004-* before/0005-* before/0006-* before/0007-*"
checkpatch_clean() {
	local p=$1 rel=${1#"$GFPTOP_ROOT"/kernel-patches/} out bad glob
	# each series' own tree's checkpatch: 6.12/ patches are 6.12's
	local tree
	if [[ $rel == 6.12/* ]]; then tree=$(pristine 6.12); else tree=$(pristine after); fi
	out=$(cd "$tree" && { scripts/checkpatch.pl --strict --max-line-length=80 --no-tree \
		--ignore UNKNOWN_COMMIT_ID --show-types --no-summary "$p" 2>&1 || true; })
	bad=$(echo "$out" | awk '
		# a finding, its "#N: FILE: path:line:" and the code line it
		# names; a list definition is judged on the line after that
		function judge(next_line) {
			if (file ~ /^include\/trace\/events\// &&
			    (finding ~ /OPEN_ENDED_LINE|PARENTHESIS_ALIGNMENT/ ||
			     (finding ~ /TRAILING_SEMICOLON|MACRO_ARG_UNUSED/ &&
			      code ~ /^\+#define EMe?\(a, b\)\t/) ||
			     (finding ~ /COMPLEX_MACRO/ &&
			      code ~ /^\+#define [A-Z_]+[ \t]*\\$/ &&
			      next_line ~ /^\+\t+EMe?\(/)))
				return
			print finding " (" file ")"
		}
		function flush(next_line) {
			if (finding != "" && file != "") judge(next_line)
			else if (finding != "") print finding
			finding = ""
		}
		/^(ERROR|WARNING|CHECK):/ { flush(""); finding = $0; file = code = ""; next }
		finding != "" && file == "" && $1 ~ /^#[0-9]+:$/ && $2 == "FILE:" { file = $3; next }
		finding != "" && file != "" && code == "" { code = $0; next }
		{ flush($0) }
		END { flush("") }')
	for glob in $upstream_code; do
		# shellcheck disable=SC2053 # glob match on purpose
		[[ $rel == $glob ]] && bad=$(echo "$bad" | grep "^ERROR" || true)
	done
	[ -z "$bad" ] || { echo "$bad" | head -n 1; return 1; }
}
# (a cover letter has no code: it is read, not applied or checked)
for p in "$GFPTOP_ROOT"/kernel-patches/*/*.patch; do
	[[ $p == */0000-cover-letter.patch ]] && continue
	check "checkpatch --strict: ${p#"$GFPTOP_ROOT"/} is clean" checkpatch_clean "$p"
done

# no patch file is left out of every series
listed() {
	local p=${1#"$GFPTOP_ROOT"/kernel-patches/}
	grep -qxF "$p" "$GFPTOP_ROOT"/kernel-patches/series.* ||
		{ echo "$p is in no series"; return 1; }
}
for p in "$GFPTOP_ROOT"/kernel-patches/*/*.patch; do
	[[ $p == */0000-cover-letter.patch ]] && continue
	check "${p#"$GFPTOP_ROOT"/} is in a series" listed "$p"
done

# One definition of the events (kernel-patches/README.md): the '+' lines
# a patch adds to include/trace/events/kmem.h, per patch. The 6.1 copies
# (before/0008, after/0002) must be identical, and 6.12's equal to them
# once its nr_free_highatomic lines (the field, its assignment and its
# printk argument, and "free_highatomic=%lu " in the format) are taken
# out; the highatomic reserve events likewise (common/0001, 6.12/0001).
kmem_added() {
	awk '/^diff --git / { on = ($3 == "a/include/trace/events/kmem.h") }
	     on && /^\+/ && !/^\+\+\+ / { print }' "$1"
}
without_612_field() { grep -v 'nr_free_highatomic' | sed 's/ free_highatomic=%lu//'; }
same_kmem() {
	local a=$1 b=$2 filter=${3:-cat}
	if ! diff <(kmem_added "$a") <(kmem_added "$b" | $filter) >"$tmp/kmem.diff"; then
		echo "$(grep -c '^[<>]' "$tmp/kmem.diff") lines differ, first: $(grep -m1 '^[<>]' "$tmp/kmem.diff")"
		return 1
	fi
	[ -n "$(kmem_added "$a")" ] || { echo "no kmem.h lines in $a"; return 1; }
}
kp=$GFPTOP_ROOT/kernel-patches
tier_61=$kp/after/0002-mm-page_alloc-trace-the-reserve-tier-of-each-allocat.patch
tier_before=$kp/before/0008-mm-page_alloc-trace-the-reserve-tier-of-each-allocat.patch
tier_612=$kp/6.12/0002-mm-page_alloc-trace-the-reserve-tier-of-each-allocat.patch
check "kmem.h: the tier events are one definition in before/0008 and after/0002" \
	same_kmem "$tier_61" "$tier_before"
check "kmem.h: the tier events of 6.12/0002 are after/0002's plus nr_free_highatomic only" \
	same_kmem "$tier_61" "$tier_612" without_612_field
check "kmem.h: the highatomic reserve events of 6.12/0001 are common/0001's" \
	same_kmem "$kp/common/0001-mm-page_alloc-trace-highatomic-pageblock-reserve-and.patch" \
	"$kp/6.12/0001-mm-page_alloc-trace-highatomic-pageblock-reserve-and.patch"
check "kmem.h: 6.12/0002 does add nr_free_highatomic (the field, its copy, its printk)" \
	test "$(kmem_added "$tier_612" | grep -c 'nr_free_highatomic')" -eq 4
# the tier list is written once: one EM()/EMe() list per enum, the enum,
# its TRACE_DEFINE_ENUM()s and its __print_symbolic() names made from it
one_list() {
	local added
	added=$(kmem_added "$1")
	[ "$(echo "$added" | grep -c 'PAGE_ALLOC_TIER_NONE')" -eq 1 ] ||
		{ echo "PAGE_ALLOC_TIER_NONE is spelled more than once"; return 1; }
	[ "$(echo "$added" | grep -c 'PAGE_ALLOC_SOURCE_PCP')" -eq 1 ] ||
		{ echo "PAGE_ALLOC_SOURCE_PCP is spelled more than once"; return 1; }
	if ! echo "$added" | grep -qx '+	PAGE_ALLOC_TIERS,' ||
		! echo "$added" | grep -qx '+	__print_symbolic(tier, PAGE_ALLOC_TIERS)'; then
		echo "the enum or __print_symbolic() does not use the list"
		return 1
	fi
}
for p in "$tier_61" "$tier_before" "$tier_612"; do
	check "kmem.h: ${p#"$kp"/} writes the tier and source lists once (EM()/EMe())" one_list "$p"
done
