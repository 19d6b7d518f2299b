#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Storage kinds for real (root): image files (raw sparse/falloc/full; qcow2
# through qemu-img with each preallocation and a cluster size, read back
# with qemu-img info and map; refusal to overwrite; idempotent destroy) and
# the block kind on a loop device this test attaches (consent, blank device
# accepted, ext4 / partition table / LVM PV signatures refused unless
# forced, a mounted device refused as in use, destroy leaves the data).
# LVM through the real libblockdev plugin on a VG made on a loop PV, up to
# lvcreate, which needs device-mapper (absent here): missing VG, no room,
# stripes over PVs, a failed lvcreate leaving nothing.  Creating LVs is
# unit-tested with a mock (tests/unit/test_storage) and runs for real in the
# emulated Xen lab (`guest-storagetool lvm VG LV SIZE` there).
# Run time here: a few seconds.
set -eu
. "$top_srcdir/tests/lib.sh"
need_root
need_cmd losetup
need_cmd blkid
need_cmd qemu-img
need_cmd sfdisk
need_cmd pvcreate
TOOL="$top_builddir/tests/guest-storagetool"
[ -x "$TOOL" ] || fail "no $TOOL"

tmp=$(mktemp -d /tmp/vdc-guest-storage.XXXXXX)
loop=
cleanup() {
    mountpoint -q "$tmp/mnt" 2>/dev/null && umount "$tmp/mnt"
    [ -n "$loop" ] && losetup -d "$loop"
    rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
MiB=1048576

# ---- images ---------------------------------------------------------------------
"$TOOL" image "$tmp/sparse.img" 64M raw sparse > "$tmp/out" || fail "sparse image"
grep -q '"format":"raw"' "$tmp/out" && grep -q '"alloc":"sparse"' "$tmp/out" || fail "describe: $(cat "$tmp/out")"
[ "$(stat -c %s "$tmp/sparse.img")" = $((64 * MiB)) ] || fail "sparse size"
[ "$(stat -c %b "$tmp/sparse.img")" -lt 2048 ] || fail "sparse image has blocks allocated"
"$TOOL" image "$tmp/full.img" 16M raw full > /dev/null || fail "full image"
[ "$(($(stat -c %b "$tmp/full.img") * 512))" -ge $((16 * MiB)) ] || fail "full image not allocated"
"$TOOL" image "$tmp/falloc.img" 16M raw falloc > /dev/null || fail "falloc image"
[ "$(($(stat -c %b "$tmp/falloc.img") * 512))" -ge $((16 * MiB)) ] || fail "falloc image not allocated"
"$TOOL" image "$tmp/q.qcow2" 32M qcow2 sparse > "$tmp/out" || fail "qcow2 image"
qemu-img info --output=json "$tmp/q.qcow2" > "$tmp/info"
grep -q '"format": "qcow2"' "$tmp/info" && grep -q "\"virtual-size\": $((32 * MiB))" "$tmp/info" \
    || fail "qcow2: $(cat "$tmp/info")"
grep -q '"qcow2":{"cluster_size":65536,"l2_cache_size":null,"preallocation":"off","virtual_size":33554432' "$tmp/out" \
    && grep -q '"mapped_bytes":0,' "$tmp/out" || fail "qcow2 sparse read back: $(cat "$tmp/out")"
# qcow2's preallocations and a cluster size, each read back from the image
for p in metadata:metadata:33554432 falloc:falloc:33554432 full:full:33554432; do
    alloc=${p%%:*} rest=${p#*:} prealloc=${rest%%:*} mapped=${rest#*:}
    "$TOOL" image "$tmp/q-$alloc.qcow2" 32M qcow2 "$alloc" 128k > "$tmp/out" || fail "qcow2 $alloc"
    grep -q "\"alloc\":\"$alloc\",\"qcow2\":{\"cluster_size\":131072,\"l2_cache_size\":null,\"preallocation\":\"$prealloc\"" "$tmp/out" \
        && grep -q "\"mapped_bytes\":$mapped," "$tmp/out" && grep -q '"source":"qemu-img info"' "$tmp/out" \
        || fail "qcow2 $alloc read back: $(cat "$tmp/out")"
    qemu-img info --output=json "$tmp/q-$alloc.qcow2" | grep -q '"cluster-size": 131072' \
        || fail "qcow2 $alloc: the header's cluster size is not 128 KiB"
done
"$TOOL" image "$tmp/q-bad.qcow2" 32M qcow2 sparse 3000 2> "$tmp/err" && fail "accepted a 3000-byte cluster"
grep -q 'cluster size 3000: expected' "$tmp/err" || fail "cluster refusal: $(cat "$tmp/err")"
[ ! -e "$tmp/q-bad.qcow2" ] || fail "a refused qcow2 left its file"
"$TOOL" image "$tmp/r-meta.img" 32M raw metadata 2> "$tmp/err" && fail "accepted raw metadata"
grep -q "allocation metadata is qcow2's" "$tmp/err" || fail "raw metadata refusal: $(cat "$tmp/err")"
# never overwrite: the file keeps its content
echo precious > "$tmp/keep.img"
"$TOOL" image "$tmp/keep.img" 1M raw sparse 2> "$tmp/err" && fail "overwrote an existing file"
grep -q 'already exists' "$tmp/err" || fail "overwrite refusal: $(cat "$tmp/err")"
[ "$(cat "$tmp/keep.img")" = precious ] || fail "existing file changed"
"$TOOL" image "$tmp/q2.qcow2" 1000 raw sparse 2> "$tmp/err" && fail "accepted an unaligned size"
# destroy, twice (idempotent), as cleanup does from a journal
"$TOOL" image-destroy "$tmp/sparse.img" || fail "destroy"
[ ! -e "$tmp/sparse.img" ] || fail "image still there after destroy"
"$TOOL" image-destroy "$tmp/sparse.img" || fail "destroy of a gone image must succeed"

# ---- block device: a loop device we attach ---------------------------------------
truncate -s 64M "$tmp/disk.img"
loop=$(losetup -f --show "$tmp/disk.img") || fail "no free loop device"
"$TOOL" block "$loop" 2> "$tmp/err" && fail "block device used without consent"
grep -q 'consent' "$tmp/err" || fail "consent refusal: $(cat "$tmp/err")"
"$TOOL" block "$loop" consent > "$tmp/out" || fail "blank loop device refused: $(cat "$tmp/out")"
grep -q "\"device\":\"$loop\"" "$tmp/out" && grep -q '"signature":null' "$tmp/out" \
    && grep -q "\"size_bytes\":$((64 * MiB))" "$tmp/out" || fail "describe: $(cat "$tmp/out")"

mkfs.ext4 -q -F "$loop"
"$TOOL" block "$loop" consent 2> "$tmp/err" && fail "ext4 device accepted without force"
grep -q 'signature (ext4)' "$tmp/err" || fail "ext4 refusal: $(cat "$tmp/err")"
"$TOOL" block "$loop" consent force > "$tmp/out" || fail "forced ext4 device refused"
grep -q '"signature":"ext4"' "$tmp/out" || fail "describe: $(cat "$tmp/out")"
# destroy left the data alone
blkid -p -o value -s TYPE "$loop" | grep -qx ext4 || fail "block destroy touched the device"
mkdir "$tmp/mnt"
mount "$loop" "$tmp/mnt"
"$TOOL" block "$loop" consent force 2> "$tmp/err" && fail "mounted device accepted"
grep -q 'in use' "$tmp/err" || fail "in-use refusal: $(cat "$tmp/err")"
umount "$tmp/mnt"

wipefs -q -a "$loop"
echo 'type=83' | sfdisk -q "$loop" >/dev/null 2>&1
"$TOOL" block "$loop" consent 2> "$tmp/err" && fail "partitioned device accepted"
grep -q 'partition table dos' "$tmp/err" || fail "partition refusal: $(cat "$tmp/err")"

wipefs -q -a "$loop"
LVM_SUPPRESS_FD_WARNINGS=1 timeout 60 pvcreate -q -ff -y "$loop" >/dev/null 2>&1 || fail "pvcreate on $loop"
"$TOOL" block "$loop" consent 2> "$tmp/err" && fail "LVM PV accepted"
grep -q 'LVM2_member' "$tmp/err" || fail "PV refusal: $(cat "$tmp/err")"
wipefs -q -a "$loop"

"$TOOL" block "$tmp/disk.img" consent 2> "$tmp/err" && fail "regular file accepted as a block device"
grep -q 'not a block device' "$tmp/err" || fail "regular file: $(cat "$tmp/err")"
losetup -d "$loop"
loop=

# ---- lvm through the real libblockdev, up to device-mapper ----------------------
# A VG on a loop PV works without device-mapper; lvcreate needs it (absent
# here), so this checks the real plugin's init, vginfo, lvs, the room check
# and that a failing lvcreate leaves nothing.  LVM_SYSTEM_DIR keeps LVM's
# backup/archive files in our folder, not in /etc/lvm.
export LVM_SYSTEM_DIR="$tmp/lvm" LVM_SUPPRESS_FD_WARNINGS=1
mkdir -p "$LVM_SYSTEM_DIR"
printf 'backup {\n backup = 0\n archive = 0\n}\n' > "$LVM_SYSTEM_DIR/lvm.conf"
vg="vdctest$$"
truncate -s 64M "$tmp/pv.img"
loop=$(losetup -f --show "$tmp/pv.img") || fail "no free loop device"
timeout 60 pvcreate -q -y "$loop" >/dev/null 2>&1 || fail "pvcreate $loop"
timeout 60 vgcreate -q "$vg" "$loop" >/dev/null 2>&1 || fail "vgcreate $vg"
vgcleanup() { timeout 60 vgremove -q -f "$vg" >/dev/null 2>&1; timeout 60 pvremove -q "$loop" >/dev/null 2>&1; }
"$TOOL" lvm "nosuchvg$$" lv1 8M 2> "$tmp/err" && fail "LV in a missing VG"
grep -q "VG nosuchvg$$: .*not found" "$tmp/err" || { vgcleanup; fail "missing VG: $(cat "$tmp/err")"; }
[ "$(wc -l < "$tmp/err")" = 1 ] || { vgcleanup; fail "libblockdev error not one line: $(cat "$tmp/err")"; }
"$TOOL" lvm "$vg" lv1 80M 2> "$tmp/err" && fail "LV larger than the VG"
grep -q "VG $vg has [0-9.]* [KMG]iB free, the LV needs 80 MiB (" "$tmp/err" || { vgcleanup; fail "room: $(cat "$tmp/err")"; }
"$TOOL" lvm "$vg" lv1 8M 3 2> "$tmp/err" && fail "3 stripes on 1 PV"
grep -q "3 stripes but VG $vg has 1 PVs" "$tmp/err" || { vgcleanup; fail "stripes: $(cat "$tmp/err")"; }
"$TOOL" lvm "$vg" lv1 8M 2> "$tmp/err" && fail "lvcreate worked without device-mapper?"
grep -q "lvcreate $vg/lv1: " "$tmp/err" || { vgcleanup; fail "lvcreate: $(cat "$tmp/err")"; }
[ -z "$(lvs --noheadings -o lv_name "$vg" 2>/dev/null)" ] || { vgcleanup; fail "a failed lvcreate left an LV"; }
vgcleanup
echo "PASS: guest-storage"
