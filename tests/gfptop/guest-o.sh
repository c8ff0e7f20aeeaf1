# Sourced by tests/gfptop/guest.sh (its run() and cwd /out): -o FILE the
# ways a user, and a local attacker, would give it to a root gfptop.
# It only collects; tests/gfptop/host-o.sh decides what passes.
# shellcheck shell=sh

# never replaced, whatever it is not a regular file: /dev/null, a
# directory, a FIFO; each refused before anything is attached
run onull gfptop -j -o /dev/null 1 1
ls -l /dev/null >devnull-after.txt
mkdir -p /tmp/odir
run odir gfptop -j -o /tmp/odir 1 1
mkfifo /tmp/ofifo
run ofifo gfptop -j -o /tmp/ofifo 1 1

# the caller's own symlink: its target is written, the link stays a link
mkdir -p /tmp/olink-real
: >/tmp/olink-real/t.json
ln -sf /tmp/olink-real/t.json /tmp/olink.json
run olink gfptop -j -o /tmp/olink.json 1 1
readlink /tmp/olink.json >olink-readlink.txt
cp /tmp/olink-real/t.json olink-target.json
ls -a /tmp/olink-real >olink-listing.txt

# Another user's symlinks, with Debian's defaults for the kernel's link
# rules: where the kernel refuses a root shell's `>`, gfptop -o must
# refuse too, and where it follows, gfptop follows.
echo 1 >/proc/sys/fs/protected_symlinks
echo 1 >/proc/sys/fs/protected_hardlinks
# a local user, uid 1000 (busybox su, as root, asks no password)
grep -q '^gtuser:' /etc/passwd 2>/dev/null ||
	echo 'gtuser:x:1000:1000:gfptop test user:/tmp:/bin/sh' >>/etc/passwd
as_user() { su -s /bin/sh gtuser -c "$*"; }
echo victim >/etc/victim
# (1) uid 1000's link to /etc/victim in the sticky, world-writable /tmp
as_user ln -s /etc/victim /tmp/evil.json
ls -ln /tmp/evil.json >evil-link.txt
(echo x >/tmp/evil.json) 2>shell-evil.txt
echo $? >shell-evil.rc
run oevil gfptop -j -o /tmp/evil.json 1 1
# (2) the same through a directory: uid 1000's link to /etc
as_user ln -s /etc /tmp/evildir
run oevildir gfptop -j -o /tmp/evildir/victim 1 1
cp /etc/victim victim-after.txt
ls -a /etc /tmp >evil-listing.txt
# (3) uid 1000's link in a world-writable directory that is not sticky:
# the kernel follows it (the rule is for sticky directories), so -o
# writes its target and keeps the link
mkdir -m 0777 /tmp/open
mkdir -p /tmp/open-real
: >/tmp/open-real/t.json
as_user ln -s /tmp/open-real/t.json /tmp/open/link.json
(echo x >/tmp/open/link.json) 2>shell-open.txt
echo $? >shell-open.rc
run oopen gfptop -j -o /tmp/open/link.json 1 1
readlink /tmp/open/link.json >oopen-readlink.txt
cp /tmp/open-real/t.json oopen-target.json
ls -a /tmp/open /tmp/open-real >oopen-listing.txt
# (4) a hard link to root's file: -o replaces the name given, and the
# file's other name keeps its contents (uid 1000 could not even make
# the link: protected_hardlinks)
echo victim >/etc/victim-hl
ln /etc/victim-hl /tmp/hl.json
as_user ln /etc/victim /tmp/user-hl.json 2>user-hl.txt
echo $? >user-hl.rc
run ohl gfptop -j -o /tmp/hl.json 1 1
cp /etc/victim-hl victim-hl-after.txt
cp /tmp/hl.json hl-after.json
ls -a /etc /tmp >hl-listing.txt

# after a SIGKILLed -o run: the dead run's temporary file is there, and
# the next run for the same FILE removes it
gfptop -j -o /out/killed.json 1 >/dev/null 2>killed.err &
kpid=$!
if wait_ready killed.err 60 "$kpid"; then
	kill -KILL "$kpid"
	wait "$kpid"
fi
ls -a /out >killed-listing.txt
run killed2 gfptop -j -o /out/killed.json 1 1
ls -a /out >killed2-listing.txt
