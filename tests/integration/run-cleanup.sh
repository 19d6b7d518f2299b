#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `vmdiskcmp cleanup DIR` after a crash: what the journal lists is removed
# (also what --keep left)
# (image, loop device over it, mount, mount point, control disk), newest
# first, and nothing else (a file beside it, a loop device not in the
# journal, a malformed journal, an identity that is not one: ino=, uuid=);
# a second cleanup has nothing to do.
# A journal whose run still holds its lock is left alone (cleanup DIR
# fails, --all skips it); a directory the journal names but records no
# identity for (not made by the run) is left alone.
# Each journal written here as a crashed run leaves it gets the run record
# that run would have left (vouch_journal); journals without one, or
# copied, or replaced, are refused whole (bad input, nothing touched):
# the fake image entry DIR/vmdiskcmp-x-image.raw with DIR's identity
# recorded kept DIR.  --all also removes the temporary folders of a prepare
# that was killed (their lock free), not a live one's.
# Real loop devices and a real ext4 mount, in a mount namespace of its own
# (private propagation: no namespace made meanwhile by anyone else copies
# the mount and keeps the loop device busy).  Run time: a few seconds.
. "$top_srcdir/tests/lib.sh"
need_root
need_cmd losetup
need_cmd mkfs.ext4
need_cmd unshare
if [ -z "${VDC_CLEANUP_NS:-}" ]; then
    unshare -m true 2>/dev/null || skip "unshare -m does not work here"
    VDC_CLEANUP_NS=1 exec unshare -m --propagation private sh "$0" "$@"
fi
[ -x "$VMDISKCMP" ] || fail "no $VMDISKCMP"
[ -e /dev/loop-control ] || skip "no loop devices on this machine"

work=$(mktemp -d)
VDC_STATE_DIR="$work/state"
export VDC_STATE_DIR
other=
cleanup() {
    grep -qF " $work/victim-mnt " /proc/self/mountinfo && umount "$work/victim-mnt"
    grep -qF " $work/out/mnt-dom0 " /proc/self/mountinfo && umount "$work/out/mnt-dom0"
    for l in $(losetup -j "$work/vmdiskcmp-crashed-image.raw" | cut -d: -f1); do losetup -d "$l"; done
    [ -n "$other" ] && losetup -d "$other"
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

mkdir -p "$work/out/mnt-dom0"
mntino=$(stat -c %d:%i "$work/out/mnt-dom0")     # before the mount, as a run records it
truncate -s 64M "$work/vmdiskcmp-crashed-image.raw"
truncate -s 16M "$work/other.raw"
echo keep > "$work/keep-me"
loop=$(losetup -f --show "$work/vmdiskcmp-crashed-image.raw") || fail "losetup failed"
other=$(losetup -f --show "$work/other.raw") || fail "losetup failed"
mkfs.ext4 -q -F "$loop" || fail "mkfs.ext4 failed"
mount "$loop" "$work/out/mnt-dom0" || fail "mount failed"
: > "$work/out/control-0.img"

# a run that crashed in its dom0 step: as src/run/run.c journals it
esc() { printf '%s' "$1" | sed 's|/|%2F|g'; }
cat > "$work/out/journal" <<EOF
vmdiskcmp-journal 2
run id=crashed-run pid=1 started=2026-01-01T00:00:00Z
add 1 image path=$(esc "$work/vmdiskcmp-crashed-image.raw")
done 1
kept 1
add 2 loop file=$(esc "$work/vmdiskcmp-crashed-image.raw")
done 2
add 3 file path=$(esc "$work/out/control-0.img")
done 3
add 4 domain driver=mock uri= name=vmdiskcmp-crashed-run uuid=6b1c0d52-7a4e-4d43-9a50-1f7f3c2b9e01
done 4
add 5 dir path=$(esc "$work/out/mnt-dom0")
done 5 ino=$mntino
add 6 mount dir=$(esc "$work/out/mnt-dom0") source=$loop
done 6
EOF

# not vouched for by its run's record: refused whole, nothing touched
rc=0
"$VMDISKCMP" cleanup "$work/out" > "$work/log" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "journal without its record: exit status $rc, expected 2: $(cat "$work/log")"
grep -qF "journal $work/out/journal: not proven the one run crashed-run wrote ($VDC_STATE_DIR/crashed-run): no record of that run" "$work/log" ||
    fail "journal without its record: $(cat "$work/log")"
grep -qF " $work/out/mnt-dom0 " /proc/self/mountinfo || fail "journal without its record: unmounted"
[ -e "$work/out/control-0.img" ] || fail "journal without its record: control disk removed"
vouch_journal "$work/out"
# the same text in a file that replaced the run's journal: refused
mv "$work/out/journal" "$work/journal.orig"
cp "$work/journal.orig" "$work/out/journal"
rc=0
"$VMDISKCMP" cleanup "$work/out" > "$work/log" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "replaced journal: exit status $rc, expected 2: $(cat "$work/log")"
grep -qF "the file is not the one the run created (replaced?); nothing touched" "$work/log" || fail "replaced journal: $(cat "$work/log")"
mv "$work/journal.orig" "$work/out/journal"
[ -e "$work/out/control-0.img" ] || fail "replaced journal: control disk removed"
echo "ok: a journal its run's record does not vouch for is refused"

"$VMDISKCMP" cleanup "$work/out" > "$work/log" 2>&1 || { cat "$work/log"; fail "cleanup failed"; }
grep -qF "6 object(s) pending, 0 left" "$work/log" || { cat "$work/log"; fail "cleanup did not report 6 removed"; }
grep -qF " $work/out/mnt-dom0 " /proc/self/mountinfo && fail "mount left"
[ -e "$work/out/mnt-dom0" ] && fail "mount point left"
losetup -j "$work/vmdiskcmp-crashed-image.raw" | grep -q . && fail "loop device left"
[ -e "$work/vmdiskcmp-crashed-image.raw" ] && fail "image left"
[ -e "$work/out/control-0.img" ] && fail "control disk left"
[ "$(cat "$work/keep-me")" = keep ] || fail "a file not in the journal was touched"
losetup "$other" >/dev/null 2>&1 || fail "a loop device not in the journal was detached"
# newest first
[ "$(sed -n 's/^undone //p' "$work/out/journal" | tr '\n' ' ')" = "6 5 4 3 2 1 " ] ||
    fail "teardown order: $(sed -n 's/^undone //p' "$work/out/journal" | tr '\n' ' ')"
[ -e "$VDC_STATE_DIR/crashed-run" ] && fail "everything removed, but the run record stays"

# idempotent
"$VMDISKCMP" cleanup "$work/out" > "$work/log" 2>&1 || fail "second cleanup failed"
grep -qF "0 object(s) pending, 0 left" "$work/log" || fail "second cleanup found work"

# a mount still in use (a process outside the journal works in it) is not
# unmounted lazily behind its back: cleanup says so and exits 1, the loop
# device and the image stay; once the user is gone a second cleanup
# removes them all
truncate -s 64M "$work/vmdiskcmp-crashed-image.raw"
loop=$(losetup -f --show "$work/vmdiskcmp-crashed-image.raw") || fail "losetup failed"
mkfs.ext4 -q -F "$loop" || fail "mkfs.ext4 failed"
mkdir -p "$work/out/mnt-dom0"
mount "$loop" "$work/out/mnt-dom0" || fail "mount failed"
(cd "$work/out/mnt-dom0" && exec sleep 300) &
user=$!
rm -f "$work/out/journal"
cat > "$work/out/journal" <<EOF
vmdiskcmp-journal 2
run id=crashed-run pid=1 started=2026-01-01T00:00:00Z
add 1 image path=$(esc "$work/vmdiskcmp-crashed-image.raw")
done 1
add 2 loop file=$(esc "$work/vmdiskcmp-crashed-image.raw")
done 2
add 3 mount dir=$(esc "$work/out/mnt-dom0") source=$loop
done 3
EOF
vouch_journal "$work/out"
rc=0
"$VMDISKCMP" cleanup "$work/out" > "$work/log" 2>&1 || rc=$?
[ "$rc" = 1 ] || fail "mount in use: exit status $rc, expected 1: $(cat "$work/log")"
grep -q "mount $work/out/mnt-dom0: cannot unmount: .*busy" "$work/log" || fail "mount in use: $(cat "$work/log")"
grep -qF "3 object(s) pending, 3 left" "$work/log" || fail "mount in use: $(cat "$work/log")"
grep -qF " $work/out/mnt-dom0 " /proc/self/mountinfo || fail "mount in use: unmounted (lazily?) anyway"
kill "$user"; wait "$user" 2>/dev/null
"$VMDISKCMP" cleanup "$work/out" > "$work/log" 2>&1 || { cat "$work/log"; fail "mount no longer in use: cleanup failed"; }
grep -qF "3 object(s) pending, 0 left" "$work/log" || fail "mount no longer in use: $(cat "$work/log")"
losetup -j "$work/vmdiskcmp-crashed-image.raw" | grep -q . && fail "mount no longer in use: loop device left"
[ -e "$work/vmdiskcmp-crashed-image.raw" ] && fail "mount no longer in use: image left"
rmdir "$work/out/mnt-dom0" 2>/dev/null
echo "ok: a mount in use is reported, not detached lazily"

# a malformed journal is refused, nothing touched
printf 'vmdiskcmp-journal 1\nadd 1 image path=%s\nundone 9\n' "$(esc "$work/keep-me")" > "$work/out/journal"
rc=0
"$VMDISKCMP" cleanup "$work/out" > "$work/log" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "malformed journal: exit status $rc, expected 2"
grep -q "journal.*:3: malformed line" "$work/log" || fail "malformed journal: $(cat "$work/log")"
[ -e "$work/keep-me" ] || fail "malformed journal: a file was removed"

# bug cleanup-trusts-foreign-journal: a journal naming what vmdiskcmp
# never creates (a file, a mount or a directory outside the result
# directory, an image not named vmdiskcmp-*, a loop device over another
# file, a relative path) is refused whole: exit 2, one line, nothing
# touched.  (It used to unlink /etc/hostname and unmount /proc.)
mkdir -p "$work/victim/sub" "$work/out/mnt-dom0"
echo keep > "$work/victim/file"
cp "$work/victim/file" "$work/victim/vmdiskcmp-x.raw"
: > "$work/out/control-0.img"
ln -sfn "$work/victim" "$work/out/link"
foreign() {
    printf 'vmdiskcmp-journal 1\nadd 1 file path=%s\ndone 1\n%s\n' \
        "$(esc "$work/out/control-0.img")" "$1" > "$work/out/journal"
    rc=0
    "$VMDISKCMP" cleanup "$work/out" > "$work/stdout" 2> "$work/log" || rc=$?
    [ "$rc" = 2 ] || fail "foreign journal entry '$1': exit status $rc, expected 2"
    [ "$(wc -l < "$work/log")" = 1 ] || fail "foreign journal entry '$1': not one line: $(cat "$work/log")"
    grep -q "$2" "$work/log" || fail "foreign journal entry '$1': message: $(cat "$work/log")"
    [ -e "$work/out/control-0.img" ] || fail "foreign journal entry '$1': the journal's own file was removed"
    [ "$(cat "$work/victim/file")" = keep ] || fail "foreign journal entry '$1': a foreign file was removed"
    [ -e "$work/victim/vmdiskcmp-x.raw" ] || fail "foreign journal entry '$1': a foreign image was removed"
    [ -d "$work/victim/sub" ] || fail "foreign journal entry '$1': a foreign directory was removed"
}
foreign "add 2 file path=$(esc "$work/victim/file")" "not created by vmdiskcmp: expected a path inside the result directory"
foreign "add 2 file path=$(esc "$work/out/../victim/file")" "expected a path inside the result directory"
foreign "add 2 file path=$(esc "$work/out/link/file")" "expected a path inside the result directory"
foreign "add 2 image path=$(esc "$work/victim/file")" "expected an image named vmdiskcmp-"
foreign "add 2 dir path=$(esc "$work/victim/sub")" "expected a directory inside the result directory or of an image"
# (a mount point outside that is not mounted: the old code would have
# unmounted whatever was there, /proc included)
foreign "add 2 mount dir=$(esc "$work/victim/sub") source=proc" "(mount $work/victim/sub): not created by vmdiskcmp"
foreign "add 2 loop file=$(esc "$work/victim/file")" "expected the backing file to be an image of this journal"
foreign "add 2 lv vg=vg0 lv=root" "expected a VG and an LV named vmdiskcmp-"
foreign "add 2 domain driver=mock uri= name=production-db" "expected a driver and a domain named vmdiskcmp-"
foreign "add 2 proc pid=1 start=0 exe=$(esc /sbin/init)" "expected a pid, a start time and a vmdiskcmp executable"
foreign "add 2 proc pid=$$ start=0 exe=$(esc /bin/sh)" "expected a pid, a start time and a vmdiskcmp executable"
foreign "add 2 file path=control-0.img" "expected an absolute path"
# an identity of another shape than the run writes: refused, not taken as
# "not ours" (the journal, the line, the value and what was expected)
foreign "done 1 ino=garbage" "journal $work/out/journal:4: file ino 'garbage': expected DEV:INO"
foreign "add 2 domain driver=mock uri= name=vmdiskcmp-x uuid=zz" \
    "journal $work/out/journal:4: domain uuid 'zz': expected a UUID (8-4-4-4-12 hex digits)"
# bug cleanup-mount-symlink: the mount point replaced by a symlink to a
# foreign mount (think /proc) was unmounted through the symlink; here a
# tmpfs of the test's own stands for it
mkdir -p "$work/victim-mnt"
mount -t tmpfs -o size=1m vdc-cleanup-victim "$work/victim-mnt" || fail "mount tmpfs"
rmdir "$work/out/mnt-dom0"
ln -s "$work/victim-mnt" "$work/out/mnt-dom0"
foreign "add 2 mount dir=$(esc "$work/out/mnt-dom0") source=vdc-cleanup-victim" \
    "(mount $work/out/mnt-dom0): not created by vmdiskcmp: expected a path inside the result directory"
grep -q " $work/victim-mnt " /proc/self/mountinfo || fail "a foreign mount behind a symlink was unmounted"
umount "$work/victim-mnt"
rm -f "$work/out/mnt-dom0"
rm -rf "$work/victim" "$work/out/link"
echo "ok: foreign journal entries refused"

# a journaled process group is killed only while its leader is the process
# the journal names: another process now holding the pid (another start
# time) is left alone and counts as ours gone; one with the journaled start
# time that runs another executable is refused (exit 1), left alone too
boot=$(cat /proc/sys/kernel/random/boot_id)
run_started=$(date -u -d "@$(( $(date +%s) - 60 ))" +%Y-%m-%dT%H:%M:%SZ)
sleep 300 &
sleeper=$!
start=$(sed 's/.*) //' "/proc/$sleeper/stat" | cut -d' ' -f20)
# proc_journal START [PID [BOOT]]: a version 2 journal whose run started a
# minute ago, with one proc entry
proc_journal() {
    rm -f "$work/out/journal"
    printf 'vmdiskcmp-journal 2\nrun id=crashed-run pid=1 started=%s\nadd 1 proc pid=%s start=%s exe=%s boot=%s\ndone 1\n' \
        "$run_started" "${2:-$sleeper}" "$1" "$(esc "$VMDISKCMP")" "${3:-$boot}" > "$work/out/journal"
    vouch_journal "$work/out"
}
proc_journal $((start + 1))
"$VMDISKCMP" cleanup "$work/out" > "$work/log" 2>&1 || { cat "$work/log"; fail "proc of another start time: cleanup failed"; }
grep -qF "1 object(s) pending, 0 left" "$work/log" || fail "proc of another start time: $(cat "$work/log")"
kill -0 "$sleeper" || fail "proc of another start time: the process was killed"
proc_journal "$start"
rc=0
"$VMDISKCMP" cleanup "$work/out" > "$work/log" 2>&1 || rc=$?
[ "$rc" = 1 ] || fail "proc running another executable: exit status $rc, expected 1: $(cat "$work/log")"
grep -q "process $sleeper: started when the journal says, but runs .*sleep, not $VMDISKCMP: not touched" "$work/log" ||
    fail "proc running another executable: $(cat "$work/log")"
kill -0 "$sleeper" || fail "proc running another executable: the process was killed"
# an entry journaled in an earlier boot: that group ended with the boot
proc_journal "$start" "$sleeper" 00000000-0000-0000-0000-000000000000
"$VMDISKCMP" cleanup "$work/out" > "$work/log" 2>&1 || { cat "$work/log"; fail "proc of an earlier boot: cleanup failed"; }
kill -0 "$sleeper" || fail "proc of an earlier boot: the process was killed"
kill "$sleeper"
wait "$sleeper" 2>/dev/null
# a group whose leader is gone: its members are ours only when they
# started after the journaled leader, and the leader after the run
setsid sh -c 'sleep 300 & echo $! > "$1"; exit 0' sh "$work/orphan.pid"
while [ ! -s "$work/orphan.pid" ]; do sleep 0.1; done
orphan=$(cat "$work/orphan.pid")
group=$(sed 's/.*) //' "/proc/$orphan/stat" | cut -d' ' -f3)
ostart=$(sed 's/.*) //' "/proc/$orphan/stat" | cut -d' ' -f20)
proc_journal 0 "$group"         # "started" at boot: before its run
rc=0
"$VMDISKCMP" cleanup "$work/out" > "$work/log" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "leaderless group, start before the run: exit status $rc, expected 2: $(cat "$work/log")"
grep -q "expected a process started after its run did" "$work/log" || fail "leaderless group, start before the run: $(cat "$work/log")"
kill -0 "$orphan" || fail "leaderless group, start before the run: a foreign process was killed"
proc_journal $((ostart + 1)) "$group"   # a member older than the leader
rc=0
"$VMDISKCMP" cleanup "$work/out" > "$work/log" 2>&1 || rc=$?
[ "$rc" = 1 ] || fail "leaderless group, older member: exit status $rc, expected 1: $(cat "$work/log")"
grep -q "process group $group: its leader is gone and member $orphan started before the journaled leader: not ours, not touched" \
    "$work/log" || fail "leaderless group, older member: $(cat "$work/log")"
kill -0 "$orphan" || fail "leaderless group, older member: a foreign process was killed"
kill "$orphan"
echo "ok: journaled processes checked before they are killed"

# --all: every journal under --results, nothing else
mkdir -p "$work/results/r1" "$work/results/r2"
: > "$work/results/r1/control-0.img"
: > "$work/results/r2/control-0.img"        # r2 has no journal: not ours to judge
printf 'vmdiskcmp-journal 2\nrun id=r1-run pid=1 started=2026-01-01T00:00:00Z\nadd 1 file path=%s\ndone 1\n' \
    "$(esc "$work/results/r1/control-0.img")" > "$work/results/r1/journal"
vouch_journal "$work/results/r1"
"$VMDISKCMP" cleanup --all --results "$work/results" > "$work/log" 2>&1 || { cat "$work/log"; fail "cleanup --all failed"; }
[ -e "$work/results/r1/control-0.img" ] && fail "cleanup --all: r1's control disk left"
[ -e "$work/results/r2/control-0.img" ] || fail "cleanup --all: removed a file no journal lists"

# a live run: its journal locked (flock, as a run holds it); here a sleep
# of the test's own holds it
: > "$work/results/r1/control-0.img"
rm -f "$work/results/r1/journal"
printf 'vmdiskcmp-journal 2\nrun id=live-run pid=%s started=2026-01-01T00:00:00Z\nadd 1 file path=%s\ndone 1\n' \
    $$ "$(esc "$work/results/r1/control-0.img")" > "$work/results/r1/journal"
( flock 9 && : > "$work/locked" && exec sleep 60 ) 9>> "$work/results/r1/journal" &
holder=$!
while [ ! -e "$work/locked" ]; do sleep 0.1; done
"$VMDISKCMP" cleanup --all --results "$work/results" > "$work/log" 2>&1 || { cat "$work/log"; fail "cleanup --all with a live run failed"; }
grep -qF "$work/results/r1: run live-run (pid $$, started 2026-01-01T00:00:00Z) is still running (its journal is locked): skipped, nothing touched" "$work/log" ||
    fail "cleanup --all did not name the live run: $(cat "$work/log")"
[ -e "$work/results/r1/control-0.img" ] || fail "cleanup --all touched a live run's file"
rc=0; "$VMDISKCMP" cleanup "$work/results/r1" > "$work/log" 2>&1 || rc=$?
[ "$rc" = 1 ] || fail "cleanup of a live run: exit status $rc, expected 1"
[ -e "$work/results/r1/control-0.img" ] || fail "cleanup DIR touched a live run's file"
kill "$holder"; wait "$holder" 2>/dev/null
vouch_journal "$work/results/r1"
# the holder gone (a crash), the lock is free: cleaned
"$VMDISKCMP" cleanup "$work/results/r1" > "$work/log" 2>&1 || { cat "$work/log"; fail "cleanup after the run died failed"; }
grep -qF "run live-run (pid $$, started 2026-01-01T00:00:00Z) is not running" "$work/log" || fail "stale lock: $(cat "$work/log")"
[ -e "$work/results/r1/control-0.img" ] && fail "cleanup after the run died left its file"
echo "ok: a live run's journal is left alone, a dead one's is cleaned"

# a directory the journal names beside an image but records no identity
# for (the run did not make it): left alone
mkdir -p "$work/imgdir"
rm -f "$work/results/r1/journal"
printf 'vmdiskcmp-journal 2\nrun id=r1-run pid=1 started=2026-01-01T00:00:00Z\nadd 1 dir path=%s\ndone 1\nadd 2 image path=%s\ndone 2\n' \
    "$(esc "$work/imgdir")" "$(esc "$work/imgdir/vmdiskcmp-x-image.raw")" > "$work/results/r1/journal"
vouch_journal "$work/results/r1"
"$VMDISKCMP" cleanup "$work/results/r1" > "$work/log" 2>&1 || { cat "$work/log"; fail "cleanup with a foreign directory failed"; }
[ -d "$work/imgdir" ] || fail "cleanup removed a directory the run did not make"
grep -qF "directory $work/imgdir: the journal records no identity for it: not made by this run, left alone" "$work/log" ||
    fail "foreign directory: $(cat "$work/log")"
# bug cleanup-removes-image-dir: a fake image entry (the file need not
# exist) beside a dir entry recording the directory's identity as it is
# now made cleanup remove a directory vmdiskcmp never made; a journal
# nobody vouches for is refused whole, the directory kept
rm -f "$work/results/r1/journal"
printf 'vmdiskcmp-journal 2\nrun id=forged-run pid=1 started=2026-01-01T00:00:00Z\nadd 1 dir path=%s\ndone 1 ino=%s\nadd 2 image path=%s\ndone 2\n' \
    "$(esc "$work/imgdir")" "$(stat -c %d:%i "$work/imgdir")" "$(esc "$work/imgdir/vmdiskcmp-x-image.raw")" \
    > "$work/results/r1/journal"
rc=0
"$VMDISKCMP" cleanup "$work/results/r1" > "$work/log" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "fake image entry: exit status $rc, expected 2: $(cat "$work/log")"
[ -d "$work/imgdir" ] || fail "fake image entry: cleanup removed a directory vmdiskcmp never made"
grep -qF "not proven the one run forged-run wrote" "$work/log" || fail "fake image entry: $(cat "$work/log")"
echo "ok: a directory vmdiskcmp did not make is kept"

# cleanup --all removes what a prepare killed with SIGKILL left (the
# cache's .tmp-* entry, TMPDIR's vmdiskcmp-guestfs-* session folder), but
# not what a live prepare holds (its lock: flock here), nor a symlink of
# that name, nor what a leftover links to
rm -f "$work/results/r1/journal"
mkdir -p "$work/cache/.tmp-dead01/sub" "$work/cache/.tmp-live01" "$work/tmp/vmdiskcmp-guestfs-dead01" \
    "$work/tmp/victim"
echo keep > "$work/tmp/victim/keep"
truncate -s 16M "$work/cache/.tmp-dead01/guest.img"
ln -s "$work/tmp/victim" "$work/tmp/vmdiskcmp-guestfs-dead01/link"
ln -s "$work/tmp/victim" "$work/tmp/vmdiskcmp-guestfs-link01"
( flock 9 && : > "$work/prep-locked" && exec sleep 60 ) 9< "$work/cache/.tmp-live01" &
prep=$!
while [ ! -e "$work/prep-locked" ]; do sleep 0.1; done
TMPDIR="$work/tmp" "$VMDISKCMP" cleanup --all --results "$work/results" --cache-dir "$work/cache" > "$work/log" 2>&1 ||
    { cat "$work/log"; fail "cleanup --all with prepare leftovers failed"; }
[ -e "$work/cache/.tmp-dead01" ] && fail "cleanup --all left a dead prepare's cache entry"
[ -e "$work/tmp/vmdiskcmp-guestfs-dead01" ] && fail "cleanup --all left a dead prepare's session folder"
grep -qF "$work/cache/.tmp-dead01: left by a prepare that did not finish: removed" "$work/log" ||
    fail "prepare leftovers: $(cat "$work/log")"
[ -d "$work/cache/.tmp-live01" ] || fail "cleanup --all removed a live prepare's cache entry"
[ "$(cat "$work/tmp/victim/keep")" = keep ] || fail "cleanup --all followed a symlink in a leftover"
[ -L "$work/tmp/vmdiskcmp-guestfs-link01" ] || fail "cleanup --all removed a symlink"
kill "$prep"; wait "$prep" 2>/dev/null
echo "ok: a dead prepare's temporary folders are removed, a live one's kept"

# bad input
rc=0; "$VMDISKCMP" cleanup > /dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "cleanup without a directory: exit status $rc, expected 2"
rc=0; "$VMDISKCMP" cleanup --all --results "$work/nonexistent" > /dev/null 2> "$work/log" || rc=$?
[ "$rc" = 2 ] || fail "cleanup --all --results of no directory: exit status $rc, expected 2"
grep -qF "cleanup: --results $work/nonexistent: expected a directory of result directories" "$work/log" ||
    fail "cleanup --all --results of no directory: $(cat "$work/log")"
echo ok
