# Shared by the guest/ scripts: paths and messages. Source it; do not run it.
# shellcheck shell=bash

GFPTOP_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$GFPTOP_ROOT/build}
# the Debian linux-source tarballs the guest kernels are built from:
# 6.1.y for before/after/stock, 6.12.y for the 6.12 kind
KERNEL_TARBALL=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
KERNEL_TARBALL_6_12=${KERNEL_TARBALL_6_12:-/usr/src/linux-source-6.12.tar.xz}
# The 7.2 kind is built from Debian unstable's linux-source-7.2 at this
# exact version, fetched by guest/fetch-unstable (the image packages of
# the same version likewise). The next 7.2.y is this line and a rebase
# of kernel-patches/7.2/.
LINUX_7_2_DEBIAN=7.2.13-1
# unstable's release in the image packages' names (7.2.13+deb14-amd64)
# shellcheck disable=SC2034 # used by the scripts that source this
UNSTABLE_DEB=deb14
# guest/fetch-unstable's status when a pinned version is nowhere to be
# had (the tests say SKIP)
# shellcheck disable=SC2034 # used by the scripts that source this
FETCH_UNSTABLE_MISSING=3

die() {
	echo "${0##*/}: error: $*" >&2
	exit 1
}

note() {
	echo "${0##*/}: $*" >&2
}

# check_kind KIND: the guest kernels gfptop knows (stock: only for tests;
# 6.12: the after semantics on 6.12.y, with the same tracepoints; 7.2:
# likewise on Debian unstable's 7.2.y;
# debian-*: Debian's own image, fetched by guest/fetch-debian-kernel).
check_kind() {
	case "$1" in
	before | after | stock | 6.12 | 7.2 | debian-6.1 | debian-6.12 | debian-7.2) ;;
	*) die "unknown kernel '$1' (want before, after, stock, 6.12, 7.2, debian-6.1, debian-6.12 or debian-7.2)" ;;
	esac
}

# kernel_tarball KIND: the linux-source tarball KIND is built from (7.2:
# taken out of the fetched package by fetch_kernel_tarball)
kernel_tarball() {
	case "$1" in
	6.12) echo "$KERNEL_TARBALL_6_12" ;;
	7.2) echo "$BUILD/src/linux-source-7.2-$LINUX_7_2_DEBIAN/linux-source-7.2.tar.xz" ;;
	*) echo "$KERNEL_TARBALL" ;;
	esac
}

# deb_user_cache: where guest/fetch-unstable keeps .debs outside the
# clone, for every clone on this machine
deb_user_cache() { echo "${XDG_CACHE_HOME:-$HOME/.cache}/gfptop/debs"; }

# fetch_kernel_tarball KIND: make kernel_tarball KIND exist. The 6.x
# tarballs are installed packages (make deps); 7.2's comes out of
# linux-source-7.2 from guest/fetch-unstable. Returns fetch-unstable's
# status (FETCH_UNSTABLE_MISSING when the pinned version is nowhere).
fetch_kernel_tarball() {
	local tarball deb rc=0
	tarball=$(kernel_tarball "$1")
	[ -r "$tarball" ] && return 0
	case "$1" in
	7.2) ;;
	*) return 0 ;;
	esac
	deb=$("$GFPTOP_ROOT/guest/fetch-unstable" "linux-source-7.2=$LINUX_7_2_DEBIAN") || rc=$?
	[ "$rc" -eq 0 ] || return "$rc"
	mkdir -p "$(dirname "$tarball")"
	dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$(basename "$tarball")" >"$tarball.tmp"
	mv "$tarball.tmp" "$tarball"
}

# kernel_semantics KIND: which reserve rules a guest kernel has, as
# gfptop's JSON names them ("before" or "after")
kernel_semantics() {
	case "$1" in
	before) echo before ;;
	*) echo after ;;
	esac
}

# kernel_rule_set KIND: the row of common/rule_sets.c a guest kernel
# has, as gfptop's JSON names it ("rule_set"); every row is some kind's
# (tests/rules/host.sh)
kernel_rule_set() {
	case "$1" in
	before) echo 6.1-before ;;
	after | stock | debian-6.1) echo 6.1-after ;;
	6.12 | debian-6.12) echo 6.12 ;;
	7.2 | debian-7.2) echo 7.2 ;;
	*) die "no rule set for kernel '$1'" ;;
	esac
}

# Where a kernel's tree and its products live. A Debian kind has no
# tree: its package unpacked under build/debian-*/root, the image's
# path fixed by guest/fetch-debian-kernel (a symlink) so that nothing
# here has to know the package's version.
kernel_tree() { echo "$BUILD/linux-$1"; }
kernel_image() {
	case "$1" in
	debian-*) echo "$BUILD/$1/vmlinuz" ;;
	*) echo "$BUILD/linux-$1/arch/x86/boot/bzImage" ;;
	esac
}
# debian_abi KIND: a Debian kind's kernel release, the ABI in its
# packages' names (6.1.0-57-amd64, 7.2.13+deb14-amd64): 7.2's from the
# pinned version, 6.x's from the image guest/fetch-debian-kernel fetched
debian_abi() {
	local image
	case "$1" in
	debian-7.2) echo "${LINUX_7_2_DEBIAN%-*}+$UNSTABLE_DEB-amd64" ;;
	*)
		read -r image _ <"$BUILD/$1/version"
		image=${image#linux-image-}
		echo "${image%-unsigned}"
		;;
	esac
}
# kernel_modules_cpio KIND: the extra initramfs with the modules /init
# loads (Debian kinds only; our kernels have them built in)
kernel_modules_cpio() { echo "$BUILD/$1/modules.cpio.gz"; }
# promtool_bin: where guest/fetch-promtool puts promtool (a symlink into
# the unpacked prometheus package; nothing is installed)
promtool_bin() { echo "$BUILD/tools/promtool"; }

# kernel_make TREE ARGS...: make in a guest kernel tree the way the
# kernels are built: ccache if installed, keyed relative to the tree so a
# clone in another directory reuses the cache, and a fixed build user and
# host so the objects do not depend on the machine.
kernel_make() {
	local tree=$1 cc="ccache gcc"
	shift
	command -v ccache >/dev/null || cc=gcc
	CCACHE_BASEDIR=$tree CCACHE_NOHASHDIR=true KBUILD_BUILD_USER=gfptop KBUILD_BUILD_HOST=gfptop \
		make -C "$tree" -s -j"$(nproc)" CC="$cc" HOSTCC="$cc" "$@"
}

# copy_with_libs PROG STAGE DEST: a dynamically linked program into
# STAGE/DEST, with the shared libraries ldd says it loads at their own
# paths under STAGE.
copy_with_libs() {
	local prog=$1 stage=$2 dest=$3 lib
	mkdir -p "$stage/$(dirname "$dest")"
	cp "$prog" "$stage/$dest"
	for lib in $(ldd "$prog" | grep -o '/[^ ]*'); do
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib"
	done
}

# series_patches KIND: the patch files of kernel-patches/series.KIND, one
# path per line, in order (comments and blank lines skipped)
series_patches() {
	local line
	while read -r line; do
		line=${line%%#*}
		[ -z "${line// /}" ] || echo "$GFPTOP_ROOT/kernel-patches/$line"
	done <"$GFPTOP_ROOT/kernel-patches/series.$1"
}

# apply_series KIND DIR: apply series.KIND to the kernel tree in DIR in
# order, with no fuzz. On a patch that does not apply: patch's output on
# stderr, the patch's name on stdout, status 1, DIR left part-patched.
apply_series() {
	local p out
	while read -r p; do
		if ! out=$(patch -d "$2" -p1 -N -F0 --dry-run <"$p" 2>&1) ||
			! patch -d "$2" -p1 -N -F0 -s --no-backup-if-mismatch <"$p" >&2; then
			echo "$out" >&2
			echo "${p#"$GFPTOP_ROOT"/}"
			return 1
		fi
	done < <(series_patches "$1")
}

# workloads_table [FILE]: guest/workloads (or FILE), validated, as one
# tab-separated line per workload: name, guest MB, set, description,
# command. The only parser of that file's format: guest/compare runs
# from it, gfpcompare reads descriptions from it (-w), tests/probe takes
# commands from it. Fails naming the first bad line.
workloads_table() {
	awk -F'|' -v file="${1:-guest/workloads}" '
		/^[ \t]*(#|$)/ { next }
		NF < 5 { printf "%s:%d: want 5 |-separated fields\n", file, NR > "/dev/stderr"; bad = 1; next }
		{
			for (i = 1; i <= 4; i++) gsub(/^[ \t]+|[ \t]+$/, "", $i)
			if ($1 !~ /^[a-z0-9-]+$/) { printf "%s:%d: bad name %s\n", file, NR, $1 > "/dev/stderr"; bad = 1; next }
			if ($2 !~ /^[1-9][0-9]*$/) { printf "%s:%d: bad size %s\n", file, NR, $2 > "/dev/stderr"; bad = 1; next }
			if ($0 ~ /\t/) { printf "%s:%d: no tabs, please\n", file, NR > "/dev/stderr"; bad = 1; next }
			cmd = $5; for (i = 6; i <= NF; i++) cmd = cmd "|" $i
			print $1 "\t" $2 "\t" $3 "\t" $4 "\t" cmd
		}
		END { exit bad }' "${1:-$GFPTOP_ROOT/guest/workloads}"
}
