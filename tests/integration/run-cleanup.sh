#!/bin/sh
# `vmdiskcmp cleanup DIR` after a crash: what the journal lists is removed
# (also what --keep left)
# (image, loop device over it, mount, mount point, control disk), newest
# first, and nothing else (a file beside it, a loop device not in the
# journal, a malformed journal); a second cleanup has nothing to do.
# Real loop devices and a real ext4 mount.  Run time: a few seconds.
. "$top_srcdir/tests/lib.sh"
need_root
need_cmd losetup
need_cmd mkfs.ext4
[ -x "$VMDISKCMP" ] || fail "no $VMDISKCMP"
[ -e /dev/loop-control ] || skip "no loop devices on this machine"

work=$(mktemp -d)
other=
cleanup() {
    grep -qF " $work/out/mnt-dom0 " /proc/self/mountinfo && umount "$work/out/mnt-dom0"
    for l in $(losetup -j "$work/img.raw" | cut -d: -f1); do losetup -d "$l"; done
    [ -n "$other" ] && losetup -d "$other"
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

mkdir -p "$work/out/mnt-dom0"
truncate -s 64M "$work/img.raw"
truncate -s 16M "$work/other.raw"
echo keep > "$work/keep-me"
loop=$(losetup -f --show "$work/img.raw") || fail "losetup failed"
other=$(losetup -f --show "$work/other.raw") || fail "losetup failed"
mkfs.ext4 -q -F "$loop" || fail "mkfs.ext4 failed"
mount "$loop" "$work/out/mnt-dom0" || fail "mount failed"
: > "$work/out/control-0.img"

# a run that crashed in its dom0 step: as src/run/run.c journals it
esc() { printf '%s' "$1" | sed 's|/|%2F|g'; }
cat > "$work/out/journal" <<EOF
vmdiskcmp-journal 1
add 1 image path=$(esc "$work/img.raw")
done 1
kept 1
add 2 loop file=$(esc "$work/img.raw")
done 2
add 3 file path=$(esc "$work/out/control-0.img")
done 3
add 4 domain driver=mock uri= name=vmdiskcmp-crashed-run
done 4
add 5 dir path=$(esc "$work/out/mnt-dom0")
done 5
add 6 mount dir=$(esc "$work/out/mnt-dom0") source=$loop
done 6
EOF

"$VMDISKCMP" cleanup "$work/out" > "$work/log" 2>&1 || { cat "$work/log"; fail "cleanup failed"; }
grep -qF "6 object(s) pending, 0 left" "$work/log" || { cat "$work/log"; fail "cleanup did not report 6 removed"; }
grep -qF " $work/out/mnt-dom0 " /proc/self/mountinfo && fail "mount left"
[ -e "$work/out/mnt-dom0" ] && fail "mount point left"
losetup -j "$work/img.raw" | grep -q . && fail "loop device left"
[ -e "$work/img.raw" ] && fail "image left"
[ -e "$work/out/control-0.img" ] && fail "control disk left"
[ "$(cat "$work/keep-me")" = keep ] || fail "a file not in the journal was touched"
losetup "$other" >/dev/null 2>&1 || fail "a loop device not in the journal was detached"
# newest first
[ "$(sed -n 's/^undone //p' "$work/out/journal" | tr '\n' ' ')" = "6 5 4 3 2 1 " ] ||
    fail "teardown order: $(sed -n 's/^undone //p' "$work/out/journal" | tr '\n' ' ')"

# idempotent
"$VMDISKCMP" cleanup "$work/out" > "$work/log" 2>&1 || fail "second cleanup failed"
grep -qF "0 object(s) pending, 0 left" "$work/log" || fail "second cleanup found work"

# a malformed journal is refused, nothing touched
printf 'vmdiskcmp-journal 1\nadd 1 image path=%s\nundone 9\n' "$(esc "$work/keep-me")" > "$work/out/journal"
rc=0
"$VMDISKCMP" cleanup "$work/out" > "$work/log" 2>&1 || rc=$?
[ "$rc" = 1 ] || fail "malformed journal: exit status $rc, expected 1"
grep -q "journal.*:3: malformed line" "$work/log" || fail "malformed journal: $(cat "$work/log")"
[ -e "$work/keep-me" ] || fail "malformed journal: a file was removed"

# --all: every journal under --results, nothing else
mkdir -p "$work/results/r1" "$work/results/r2"
: > "$work/results/r1/control-0.img"
: > "$work/results/r2/control-0.img"        # r2 has no journal: not ours to judge
printf 'vmdiskcmp-journal 1\nadd 1 file path=%s\ndone 1\n' "$(esc "$work/results/r1/control-0.img")" \
    > "$work/results/r1/journal"
"$VMDISKCMP" cleanup --all --results "$work/results" > "$work/log" 2>&1 || { cat "$work/log"; fail "cleanup --all failed"; }
[ -e "$work/results/r1/control-0.img" ] && fail "cleanup --all: r1's control disk left"
[ -e "$work/results/r2/control-0.img" ] || fail "cleanup --all: removed a file no journal lists"

# bad input
rc=0; "$VMDISKCMP" cleanup > /dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "cleanup without a directory: exit status $rc, expected 2"
echo ok
