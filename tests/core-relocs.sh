#!/usr/bin/env bash
# Does every CO-RE relocation of a BPF object resolve against a kernel's
# BTF? gfptop's BPF code compiles against bpf/kernel_types.h, a hand-kept
# subset of the kernel's types; a misspelt field or enumerator there only
# shows when libbpf relocates at load time. This finds it on the host,
# without loading anything: `bpftool -d gen min_core_btf` runs libbpf's
# relocation matching for each relocation and logs "no matching targets
# found" for one that resolves to nothing.
#
#   tests/core-relocs.sh OBJECT VMLINUX
#
# Relocations on CO-RE flavors (a type named NAME___SUFFIX: what only
# some kernels have, always guarded by bpf_core_*_exists()) may stay
# unresolved; any other may not. Prints the unresolved ones and exits 1.
set -euo pipefail

[ $# -eq 2 ] || { echo "usage: $0 OBJECT VMLINUX" >&2; exit 2; }
obj=$1 vmlinux=$2
[ -r "$obj" ] || { echo "core-relocs: $obj missing" >&2; exit 1; }
[ -r "$vmlinux" ] || { echo "core-relocs: $vmlinux missing" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! bpftool -d gen min_core_btf "$vmlinux" "$tmp/min.btf" "$obj" >"$tmp/log" 2>&1; then
	echo "core-relocs: bpftool gen min_core_btf failed: $(tail -n 1 "$tmp/log")" >&2
	exit 1
fi

# libbpf logs "prog 'P': relo #N: <kind> [id] SPEC" and then, for one
# without a target, "prog 'P': relo #N: no matching targets found".
awk '
	match($0, /prog .[^ ]+. relo #[0-9]+: /) {
		key = substr($0, RSTART, RLENGTH)
		rest = substr($0, RSTART + RLENGTH)
		if (rest ~ /^</) { spec[key] = rest; total++ }
		else if (rest ~ /^no matching targets found/) print spec[key]
	}
	END { if (!total) print "NO RELOCATIONS SEEN" }
' "$tmp/log" | sort -u >"$tmp/unresolved"

# a flavor: "[id] struct|union|enum|typedef NAME___SUFFIX" (the type's
# name, before any ".field" or "::ENUMERATOR")
bad=$(grep -Ev '\] (struct|union|enum|typedef) [A-Za-z0-9_]+___[A-Za-z0-9_]+([.:]|$| )' "$tmp/unresolved" || true)
if [ -n "$bad" ]; then
	echo "core-relocs: $(echo "$bad" | wc -l) relocation(s) of ${obj##*/} resolve to nothing in $vmlinux:"
	echo "$bad"
	exit 1
fi
echo "core-relocs: every relocation of ${obj##*/} resolves in $vmlinux ($(grep -c . "$tmp/unresolved" || true) on flavors may not)"
