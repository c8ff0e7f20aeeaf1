# Shared by the guest/ scripts: paths and messages. Source it; do not run it.
# shellcheck shell=bash

GFPTOP_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$GFPTOP_ROOT/build}
KERNEL_TARBALL=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}

die() {
	echo "${0##*/}: error: $*" >&2
	exit 1
}

note() {
	echo "${0##*/}: $*" >&2
}

# check_kind KIND: the guest kernels gfptop knows (stock: only for tests).
check_kind() {
	case "$1" in
	before | after | stock) ;;
	*) die "unknown kernel '$1' (want before, after or stock)" ;;
	esac
}

# Where a kernel's tree and its products live.
kernel_tree() { echo "$BUILD/linux-$1"; }
kernel_image() { echo "$BUILD/linux-$1/arch/x86/boot/bzImage"; }
