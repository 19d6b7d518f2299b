#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The controller killed (SIGKILL) while the dom0 agent runs, then
# `vmdiskcmp cleanup OUT`: no process of the run, no mount, no loop device
# left, and the image's space freed.  Twice: once as it happens (the
# agent's group dies with the controller), once with a member of the
# agent's group that outlives both the controller and the group's
# supervisor (killed first), holding the mount: cleanup must find it
# through the journal ("proc": pid, start time, exe), kill it, then
# unmount and detach.  Real loop devices, ext4 and the
# real agent, on a tmpfs of our own in a mount namespace of our own.
# Run time: ~10 s.
. "$top_srcdir/tests/lib.sh"
need_root
need_cmd losetup
need_cmd mkfs.ext4
need_cmd unshare
need_cmd python3
need_cmd ps
[ -x "$VMDISKCMP" ] || fail "no $VMDISKCMP"
[ -x "$VDC_AGENT" ] || fail "no agent at $VDC_AGENT"
[ -e /dev/loop-control ] || skip "no loop devices on this machine"
if [ -z "$VDC_DOM0_KILL_NS" ]; then
    unshare -m true 2>/dev/null || skip "unshare -m does not work here"
    VDC_DOM0_KILL_NS=1 exec unshare -m --propagation private sh "$0" "$@"
fi

work=$(mktemp -d)
ctl=
cleanup() {
    [ -n "$ctl" ] && kill -9 "$ctl" 2>/dev/null
    for o in "$work"/out-*; do
        [ -f "$o/journal" ] && "$VMDISKCMP" cleanup "$o" >/dev/null 2>&1
    done
    for l in $(losetup -a | grep -F "$work/" | cut -d: -f1); do losetup -d "$l"; done
    umount "$work" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
mount -t tmpfs -o size=256m vdc-dom0-kill "$work" || fail "mount tmpfs on $work"

# running members (not zombies) of process group $1
group_running() {
    ps -e -o pid=,pgid=,stat= | awk -v g="$1" '$2 == g && $3 !~ /^[ZX]/ { print $1 }'
}

# journal_proc OUT: the pid of the newest proc entry not undone
journal_proc() {
    python3 - "$1/journal" <<'PY'
import sys
live = {}
for line in open(sys.argv[1]).read().splitlines()[1:]:
    f = line.split(" ")
    if f[0] == "add" and f[2] == "proc":
        live[f[1]] = dict(kv.split("=", 1) for kv in f[3:])["pid"]
    elif f[0] == "undone":
        live.pop(f[1], None)
print(list(live.values())[-1] if live else "")
PY
}

used_kib() { df -k --output=used "$work" | tail -1 | tr -d ' '; }

kill_during_agent() {
    name=$1 stop_supervisor=$2
    out="$work/out-$name"
    base=$(used_kib)
    "$VMDISKCMP" --dom0 --dom0-on image --dom0-size 32 --runs 1 --no-drop-caches \
        --agent "$VDC_AGENT" --image-dir "$work/img-$name" --out "$out" \
        > "$work/$name.log" 2>&1 &
    ctl=$!
    # the agent runs once a proc entry follows the mount entry
    group=
    for i in $(seq 1 300); do
        if [ -f "$out/journal" ] && grep -q " mount " "$out/journal"; then
            group=$(journal_proc "$out")
            [ -n "$group" ] && sed -n '/ mount /,$p' "$out/journal" | grep -q "add .* proc pid=$group " && break
            group=
        fi
        kill -0 "$ctl" 2>/dev/null || { cat "$work/$name.log"; fail "$name: the run ended before its dom0 agent ran"; }
        sleep 0.1
    done
    [ -n "$group" ] || fail "$name: no dom0 agent in the journal after 30 s"
    sleep 1
    [ -n "$(group_running "$group")" ] || fail "$name: the agent's group $group is not running"
    if [ "$stop_supervisor" = 1 ]; then
        # a member of the group that neither its supervisor nor the
        # controller can stop any more: it joins the agent's group, holds
        # the mount (its working directory) and ignores SIGHUP; the
        # controller is frozen, the supervisor killed (the agent goes with
        # it), then the controller
        python3 -c 'import os, signal, sys
os.setpgid(0, int(sys.argv[1])); os.chdir(sys.argv[2]); signal.signal(signal.SIGHUP, signal.SIG_IGN)
os.execvp("sleep", ["sleep", "600"])' "$group" "$out/mnt-dom0" &
        sleep 0.5
        kill -STOP "$ctl"
        kill -9 "$group"
    fi
    kill -9 "$ctl"
    wait "$ctl" 2>/dev/null
    ctl=
    if [ "$stop_supervisor" = 1 ]; then
        sleep 0.5
        [ -n "$(group_running "$group")" ] || { ps -e -o pid,ppid,pgid,stat,comm | awk -v g="$group" '$3 == g'; cat "$out/journal" "$work/$name.log"; fail "$name: the agent did not survive its stopped supervisor"; }
    else
        for i in $(seq 1 30); do
            [ -z "$(group_running "$group")" ] && break
            sleep 0.1
        done
        [ -z "$(group_running "$group")" ] ||
            fail "$name: the agent's group outlived the controller: $(group_running "$group" | tr '\n' ' ')"
    fi
    grep -qF " $out/mnt-dom0 " /proc/self/mountinfo || fail "$name: the dom0 mount is not there to clean up"

    "$VMDISKCMP" cleanup "$out" > "$work/$name.cleanup" 2>&1 ||
        { cat "$work/$name.cleanup"; fail "$name: cleanup failed"; }
    grep -q "object(s) pending, 0 left" "$work/$name.cleanup" || fail "$name: $(cat "$work/$name.cleanup")"
    [ -z "$(group_running "$group")" ] || fail "$name: processes left: $(group_running "$group" | tr '\n' ' ')"
    grep -F " $work/" /proc/self/mountinfo && fail "$name: mount left"
    losetup -a | grep -F "$work/" && fail "$name: loop device left"
    ls "$work/img-$name" 2>/dev/null | grep -q . && fail "$name: image left: $(ls "$work/img-$name")"
    [ "$stop_supervisor" = 1 ] && ! grep -q "outlived its run: killing it" "$work/$name.cleanup" &&
        fail "$name: cleanup did not say it killed the survivor: $(cat "$work/$name.cleanup")"
    # the image's 32+ MiB are back (a loop device still bound to the
    # deleted file would hold them)
    now=$(used_kib)
    [ $((now - base)) -lt 4096 ] || fail "$name: $((now - base)) KiB still used after cleanup"
    echo "ok: $name"
}

kill_during_agent with-controller 0
kill_during_agent survivor 1
wait
echo ok
