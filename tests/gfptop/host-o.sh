# Sourced by tests/gfptop/host.sh ($kind, $out, check, one_line): what
# tests/gfptop/guest-o.sh collected about -o FILE. gfptop replaces FILE
# by a rename as root, so it must never replace what is not a regular
# file, and never reach a file through a link the kernel would not follow
# for a root shell's `>`.
# shellcheck shell=bash disable=SC2154 # kind and out are host.sh's

# json_once FILE: FILE holds exactly one gfptop -j interval
json_once() { jq -se 'length == 1 and .[0].schema == "gfptop-interval/2"' "$1" >/dev/null; }
# no_tmp LISTING: no gfptop temporary file in an `ls -a` listing
no_tmp() { ! grep -q '\.tmp\.' "$1"; }
# (exported: the checks below run them in bash -c)
export -f json_once no_tmp

check "gfptop $kind: -o /dev/null is refused in one line, exit 1, before attaching" \
	one_line "$out" onull '^gfptop: -o /dev/null: not a regular file'
check "gfptop $kind: /dev/null is still a character device after -o /dev/null and at the end" \
	bash -c "grep -q '^c' '$out/devnull-after.txt' && grep -q '^c' '$out/devnull-end.txt'"
check "gfptop $kind: -o DIR is refused in one line, exit 1, before attaching" \
	one_line "$out" odir '^gfptop: -o /tmp/odir: a directory$'
check "gfptop $kind: -o FIFO is refused in one line, exit 1, before attaching" \
	one_line "$out" ofifo '^gfptop: -o /tmp/ofifo: not a regular file'
check "gfptop $kind: -o LINK (the caller's own) writes the link's target and keeps the link" \
	bash -c "[ \"\$(cat '$out/olink.rc')\" = 0 ] && [ \"\$(cat '$out/olink-readlink.txt')\" = /tmp/olink-real/t.json ] &&
		json_once '$out/olink-target.json' && no_tmp '$out/olink-listing.txt'"

# another user's links (fs.protected_symlinks=1, protected_hardlinks=1)
check "gfptop $kind: set-up: uid 1000 owns /tmp/evil.json and the kernel refuses root's > through it" \
	bash -c "grep -q '^l.* 1000 *1000 .*/tmp/evil.json -> /etc/victim' '$out/evil-link.txt' && [ \"\$(cat '$out/shell-evil.rc')\" != 0 ]"
check "gfptop $kind: -o through another user's symlink in sticky /tmp is refused in one line, exit 1" \
	one_line "$out" oevil '^gfptop: -o /tmp/evil.json: a symlink the kernel will not follow'
check "gfptop $kind: -o through another user's symlink to a directory in sticky /tmp is refused in one line, exit 1" \
	one_line "$out" oevildir '^gfptop: -o /tmp/evildir/victim: Permission denied'
check "gfptop $kind: the refused links' target keeps its contents, and no temporary file is left in /etc or /tmp" \
	bash -c "[ \"\$(cat '$out/victim-after.txt')\" = victim ] && no_tmp '$out/evil-listing.txt'"
check "gfptop $kind: another user's symlink in a non-sticky directory: the kernel follows it, and -o writes its target, keeping the link" \
	bash -c "[ \"\$(cat '$out/shell-open.rc')\" = 0 ] && [ \"\$(cat '$out/oopen.rc')\" = 0 ] &&
		[ \"\$(cat '$out/oopen-readlink.txt')\" = /tmp/open-real/t.json ] &&
		json_once '$out/oopen-target.json' && no_tmp '$out/oopen-listing.txt'"
check "gfptop $kind: -o HARDLINK replaces that name only: root's file keeps its contents (and uid 1000 could not make such a link)" \
	bash -c "[ \"\$(cat '$out/user-hl.rc')\" != 0 ] && [ \"\$(cat '$out/ohl.rc')\" = 0 ] &&
		[ \"\$(cat '$out/victim-hl-after.txt')\" = victim ] &&
		json_once '$out/hl-after.json' && no_tmp '$out/hl-listing.txt'"

check "gfptop $kind: a SIGKILLed -o run leaves its temporary file, the next run removes it" \
	bash -c "grep -q '^\\.killed\\.json\\.tmp\\.' '$out/killed-listing.txt' &&
		[ \"\$(cat '$out/killed2.rc')\" = 0 ] && ! grep -q '\\.tmp\\.' '$out/killed2-listing.txt' &&
		grep -q '^gfptop: removed 1 temporary file of an earlier run' '$out/killed2.txt'"
