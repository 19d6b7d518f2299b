#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A target misaligned on purpose, through a real `vmdiskcmp run`: the dom0
# baseline on a loop device whose data starts 1536 bytes into a disk of
# 4 KiB physical blocks (a loop device with 4096-byte sectors: sysfs says
# physical_block_size 4096), the layout of a partition made at a 512-byte
# sector offset that is not a multiple of 8.  The run reads the alignment
# back (src/host/alignment.c through the recorder): result.json's
# targets[].alignment names the disk, its sizes and the partition layer at
# 1536 bytes, misaligned; the report flags every test of the target
# (its values marked ‡, a warning per test naming the rule and the
# numbers, the artefact legend) and prints the layer's
# numbers in "Backend, cache and placement".  The same device at an offset
# of 8192 bytes is recorded aligned and flagged nowhere.  Real loop
# devices, ext4 and the agent, on a tmpfs in a mount namespace of our own;
# no device-mapper, no guest.  Root; two loop devices.  About 10 s.
. "$top_srcdir/tests/lib.sh"
need_root
need_cmd losetup
need_cmd mkfs.ext4
need_cmd unshare
need_cmd python3
[ -x "$VMDISKCMP" ] || fail "no $VMDISKCMP"
[ -x "$VDC_AGENT" ] || fail "no agent at $VDC_AGENT"
[ -e /dev/loop-control ] || skip "no loop devices on this machine"
if [ -z "$VDC_MISALIGNED_NS" ]; then
    unshare -m true 2>/dev/null || skip "unshare -m does not work here"
    VDC_MISALIGNED_NS=1 exec unshare -m --propagation private sh "$0" "$@"
fi

work=$(mktemp -d)
l4= lo=
cleanup() {
    [ -n "$VDC_KEEP" ] && cp -r "$work"/out-* "$VDC_KEEP"/ 2>/dev/null
    for o in "$work"/out-*; do
        [ -f "$o/journal" ] && "$VMDISKCMP" cleanup "$o" >/dev/null 2>&1
    done
    [ -n "$lo" ] && losetup -d "$lo"
    [ -n "$l4" ] && losetup -d "$l4"
    umount "$work" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
mount -t tmpfs -o size=160m vdc-misaligned "$work" || fail "mount tmpfs on $work"

truncate -s 96M "$work/disk.img"
l4=$(losetup -f --show --sector-size 4096 "$work/disk.img") || skip "losetup --sector-size 4096 failed"
pbs=$(cat "/sys/block/${l4#/dev/}/queue/physical_block_size")
[ "$pbs" = 4096 ] || skip "a 4096-byte-sector loop device reports physical_block_size $pbs"

# run_on OFFSET NAME: a dom0-only run on a loop device OFFSET bytes into $l4
run_on() {
    lo=$(losetup -f --show -o "$1" "$l4") || fail "losetup -o $1 $l4"
    rc=0
    "$VMDISKCMP" --dom0 --dom0-on "$lo" --destroy-data --runs 1 --seed 7 --dom0-size 8M \
        --agent "$VDC_AGENT" --out "$work/out-$2" > "$work/$2.out" 2> "$work/$2.err" || rc=$?
    [ "$rc" = 0 ] || { cat "$work/$2.err" >&2; fail "run on $lo at offset $1: exit status $rc"; }
    losetup -d "$lo"
    lo=
}

# ---- misaligned: 1536 bytes into the 4 KiB disk ----
run_on 1536 off
python3 - "$work/out-off/result.json" "${l4#/dev/}" <<'EOF' || fail "result.json: the misaligned partition layer not recorded"
import json, sys
d = json.load(open(sys.argv[1]))
(t,) = [t for t in d["targets"] if t["name"] == "dom0"]
al = t["alignment"]
assert al["disk"] == sys.argv[2] and al["physical_block_size"] == 4096 and al["source"] == "sysfs", al
(l,) = al["layers"]
assert l["layer"] == "partition" and l["offset"] == 1536, l
assert l["why"] == "partition at 1536 bytes is 1536 bytes past a multiple of the physical block size 4096", l
assert al["misaligned"] == ["partition"], al
assert all(r["status"] == "ok" for r in d["runs"]), [r["status"] for r in d["runs"]]
EOF
[ -f "$work/out-off/report.txt" ] || fail "no report.txt"
# its folded lines joined: the greps below read whole lines
unfold "$work/out-off/report.txt" >"$work/out-off/report.unfolded"
r=$work/out-off/report.unfolded
grep -q "^  dom0: alignment: on ${l4#/dev/} (physical block 4096, .*MISALIGNED: partition at 1536 bytes is 1536 bytes past a multiple of the physical block size 4096 (read from sysfs)$" "$r" ||
    fail "the report's Backend, cache and placement block does not give the misaligned layer: $(grep -n 'alignment' "$r")"
grep -q "^WARNING: ‡ target dom0 on Sequential output, block, misaligned: the target's storage is misaligned on ${l4#/dev/} (partition at 1536 bytes is 1536 bytes past" "$r" ||
    fail "the report does not flag the target's tests as misaligned"
grep -q "^dom0 .*‡" "$r" || fail "the report's table does not mark the target's values ‡"
grep -q "^‡ may be an artefact .*misaligned" "$r" || fail "the artefact legend does not name the misaligned rule"

# ---- aligned: 8192 bytes in ----
run_on 8192 on
python3 - "$work/out-on/result.json" <<'EOF' || fail "result.json: the aligned partition layer"
import json, sys
d = json.load(open(sys.argv[1]))
(t,) = [t for t in d["targets"] if t["name"] == "dom0"]
(l,) = t["alignment"]["layers"]
assert l["layer"] == "partition" and l["offset"] == 8192 and "why" not in l, l
assert t["alignment"].get("misaligned", []) == [], t["alignment"]
EOF
grep -q "misaligned:\|MISALIGNED\|‡" "$work/out-on/report.txt" && fail "an aligned target flagged: $(grep -n 'misaligned:\|MISALIGNED\|‡' "$work/out-on/report.txt" | head -3)"
unfold "$work/out-on/report.txt" | grep -q "^  dom0: alignment: .* partition at 8192; all aligned (read from sysfs)$" ||
    fail "the aligned layer is not in the report: $(grep -n 'alignment' "$work/out-on/report.txt")"
echo "ok"
