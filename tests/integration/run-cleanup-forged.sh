#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Forged journals against a live run of someone else (bugs
# cleanup-kills-live-run, cleanup-destroys-live-domain): while a real dom0
# run lives (its agent running, its controller holding its journal and its
# run record), a journal written by hand names that run's agent (pid, start
# time, executable and boot copied from the live run's journal) and a live
# libvirt QEMU domain carrying that run's id in its <metadata>:
#  - not vouched for by a run record: refused whole, exit 2, nothing touched;
#  - with a record forged as root would (the proof circumvented): the agent
#    is left alone (its parent is a live run's controller), the domain too
#    (its metadata names the live run, not the journal's), exit 1;
#  - a journal claiming the live run's id: its record is locked, nothing
#    touched.
# Then the live run is let go on and must end well (exit 0, its result
# complete).  Real processes, loop device, ext4, libvirtd and QEMU (TCG, a
# diskless 32 MiB domain).  Run time: ~30 s (libvirtd's first connection).
. "$top_srcdir/tests/lib.sh"
need_root
need_cmd losetup
need_cmd mkfs.ext4
need_cmd unshare
need_cmd virsh
need_cmd uuidgen
[ -x "$VMDISKCMP" ] || fail "no $VMDISKCMP"
[ -x "$VDC_AGENT" ] || fail "no agent at $VDC_AGENT"
[ -e /dev/loop-control ] || skip "no loop devices on this machine"
virsh -c qemu:///system uri >/dev/null 2>&1 || skip "libvirtd (qemu:///system) is not running"
if [ -z "${VDC_FORGED_NS:-}" ]; then
    unshare -m true 2>/dev/null || skip "unshare -m does not work here"
    VDC_FORGED_NS=1 exec unshare -m --propagation private sh "$0" "$@"
fi

work=$(mktemp -d)
VDC_STATE_DIR="$work/state"
export VDC_STATE_DIR
ctl= group= dom="vmdiskcmp-forged-victim-$$"
cleanup() {
    [ -n "$group" ] && kill -CONT "-$group" 2>/dev/null
    [ -n "$ctl" ] && { kill -CONT "$ctl"; kill -9 "$ctl"; } 2>/dev/null
    virsh -c qemu:///system destroy "$dom" >/dev/null 2>&1
    [ -f "$work/victim/journal" ] && "$VMDISKCMP" cleanup "$work/victim" >/dev/null 2>&1
    for l in $(losetup -a | grep -F "$work/" | cut -d: -f1); do losetup -d "$l"; done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
esc() { printf '%s' "$1" | sed 's|/|%2F|g'; }

# the live run: a dom0 baseline, frozen while its agent runs
"$VMDISKCMP" --dom0 --dom0-on image --dom0-size 32 --runs 1 --no-drop-caches \
    --agent "$VDC_AGENT" --image-dir "$work/img" --out "$work/victim" > "$work/victim.log" 2>&1 &
ctl=$!
for i in $(seq 1 300); do
    if [ -f "$work/victim/journal" ] && grep -q " mount " "$work/victim/journal"; then
        entry=$(sed -n '/ mount /,$p' "$work/victim/journal" | grep "^add [0-9]* proc " | tail -1)
        [ -n "$entry" ] && break
    fi
    kill -0 "$ctl" 2>/dev/null || { cat "$work/victim.log"; fail "the live run ended before its agent ran"; }
    sleep 0.1
done
[ -n "$entry" ] || fail "no agent in the live run's journal after 30 s"
kill -STOP "$ctl"
group=$(printf '%s\n' "$entry" | sed 's/.* pid=\([0-9]*\).*/\1/')
kill -STOP "-$group" || fail "the live run's agent (group $group) is gone already"
victim_id=$(sed -n '2s/^run id=\([^ ]*\).*/\1/p' "$work/victim/journal")
[ -n "$victim_id" ] || fail "the live run's journal has no run line"
[ -f "$VDC_STATE_DIR/$victim_id" ] || fail "the live run wrote no run record in $VDC_STATE_DIR"

# a live domain of that run (as vmdiskcmp creates one: its run id in <metadata>)
uuid=$(uuidgen)
cat > "$work/dom.xml" <<EOF
<domain type='qemu'>
  <name>$dom</name>
  <uuid>$uuid</uuid>
  <metadata>
    <vmdiskcmp:run xmlns:vmdiskcmp='https://vmdiskcmp.org/xmlns/run/1' id='$victim_id'/>
  </metadata>
  <memory unit='MiB'>32</memory>
  <vcpu>1</vcpu>
  <os><type arch='x86_64'>hvm</type></os>
  <devices><memballoon model='none'/></devices>
</domain>
EOF
virsh -c qemu:///system create "$work/dom.xml" > "$work/virsh.log" 2>&1 || fail "virsh create: $(cat "$work/virsh.log")"

alive() {
    kill -0 "$group" 2>/dev/null || fail "$1: the live run's agent (pid $group) was killed"
    kill -0 "$ctl" 2>/dev/null || fail "$1: the live run's controller was killed"
    virsh -c qemu:///system domstate "$dom" 2>/dev/null | grep -q running || fail "$1: the live run's domain was destroyed"
    grep -qF " $work/victim/mnt-dom0 " /proc/self/mountinfo || fail "$1: the live run's mount is gone"
}

# forged ID: a journal of run ID in $work/forged-ID naming the live run's
# agent and domain
forged() {
    mkdir -p "$work/forged-$1"
    rm -f "$work/forged-$1/journal"
    printf 'vmdiskcmp-journal 2\nrun id=%s pid=1 started=2026-01-01T00:00:00Z\n' "$1" > "$work/forged-$1/journal"
    printf 'add 1 domain driver=libvirt uri=%s name=%s uuid=%s\ndone 1\n' "$(esc qemu:///system)" "$dom" "$uuid" \
        >> "$work/forged-$1/journal"
    printf '%s\ndone 2\n' "$(printf '%s\n' "$entry" | sed 's/^add [0-9]* /add 2 /')" >> "$work/forged-$1/journal"
}

forged forger-run
rc=0
"$VMDISKCMP" cleanup "$work/forged-forger-run" > "$work/log" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "forged journal: exit status $rc, expected 2: $(cat "$work/log")"
grep -qF "not proven the one run forger-run wrote" "$work/log" || fail "forged journal: $(cat "$work/log")"
alive "forged journal"
echo "ok: a forged journal is refused whole"

vouch_journal "$work/forged-forger-run"
rc=0
"$VMDISKCMP" cleanup "$work/forged-forger-run" > "$work/log" 2>&1 || rc=$?
[ "$rc" = 1 ] || fail "vouched forged journal: exit status $rc, expected 1: $(cat "$work/log")"
grep -q "proc entry 2: process $group belongs to run $victim_id (controller pid $ctl): not touched" "$work/log" ||
    fail "vouched forged journal: the agent: $(cat "$work/log")"
grep -qF "domain $dom (UUID $uuid): its metadata names run $victim_id, not run forger-run: not made by that run, left alone" "$work/log" ||
    fail "vouched forged journal: the domain: $(cat "$work/log")"
alive "vouched forged journal"
echo "ok: a live run's agent and domain are left alone even when the journal is vouched for"

forged "$victim_id"
rc=0
"$VMDISKCMP" cleanup "$work/forged-$victim_id" > "$work/log" 2>&1 || rc=$?
[ "$rc" = 1 ] || fail "journal claiming the live run: exit status $rc, expected 1: $(cat "$work/log")"
grep -qF "is still running (its run record is locked): nothing touched" "$work/log" ||
    fail "journal claiming the live run: $(cat "$work/log")"
alive "journal claiming the live run"
echo "ok: a journal claiming a live run's id touches nothing"

# the live run goes on and ends well
virsh -c qemu:///system destroy "$dom" >/dev/null 2>&1
kill -CONT "-$group"
kill -CONT "$ctl"
rc=0
wait "$ctl" || rc=$?
ctl= group=
[ "$rc" = 0 ] || { cat "$work/victim.log"; fail "the live run: exit status $rc, expected 0"; }
[ -s "$work/victim/result.json" ] || fail "the live run wrote no result.json"
[ -e "$VDC_STATE_DIR/$victim_id" ] && fail "the live run ended with everything removed, but its record stays"
echo ok
