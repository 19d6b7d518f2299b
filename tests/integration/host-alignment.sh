#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Alignment read back (src/host/alignment.c) on targets made misaligned on
# purpose, against the numbers computed here: a loop device with 4096-byte
# sectors (physical block size 4096, read from sysfs) and
#  - a second loop device over it at --offset 1536 (a --block target whose
#    data starts 1536 bytes into a disk of 4 KiB blocks): partition
#    misaligned by 1536; at --offset 8192 aligned;
#  - a PV on it whose data area starts 3584 bytes late (pvcreate
#    --dataalignmentoffset 7s: pe_start 1 MiB + 3584) and an LV in its VG:
#    pv_data and lv_extent misaligned by 3584; a PV made without the offset
#    is aligned.
# LVs are never activated (activation = 0: no device-mapper here); lvm2
# runs with LVM_SYSTEM_DIR in the scratch folder and --devices on the loop
# device only.  Root; two loop devices.  About 3 s.
. "$top_srcdir/tests/integration/host-lib.sh"
host_test_setup vdc-align pvcreate lvcreate
l4= lo= o= vg=vdcalign$$
cleanup() {
    [ -n "$o" ] && vgremove $o -f "$vg" >/dev/null 2>&1
    [ -n "$lo" ] && losetup -d "$lo"
    [ -n "$l4" ] && losetup -d "$l4"
    rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

truncate -s 128M "$scratch/disk.img"
l4=$(losetup -f --show --sector-size 4096 "$scratch/disk.img") || skip "losetup --sector-size 4096 failed"
pbs=$(cat "/sys/block/${l4#/dev/}/queue/physical_block_size")
[ "$pbs" = 4096 ] || skip "a 4096-byte-sector loop device reports physical_block_size $pbs"

# a block target 1536 bytes into the 4 KiB disk
lo=$(losetup -f --show -o 1536 "$l4") || fail "losetup -o 1536 $l4"
out=$("$TOOL" alignment "$lo") || fail "alignment $lo"
printf '%s\n' "$out" | sed 's/^/sampler: /'
printf '%s\n' "$out" | grep -qx "disk=${l4#/dev/} physical=4096 minimum=4096 optimal=0 alignment_offset=0 source=sysfs" \
    || fail "the disk under $lo and its sizes"
printf '%s\n' "$out" | grep -q "^layer=partition offset=1536 size=0 misaligned=1 why=partition at 1536 bytes is 1536 bytes past a multiple of the physical block size 4096$" \
    || fail "the offset loop device is not flagged misaligned by 1536"
losetup -d "$lo"
lo=$(losetup -f --show -o 8192 "$l4") || fail "losetup -o 8192 $l4"
"$TOOL" alignment "$lo" | grep -q "^layer=partition offset=8192 size=0 misaligned=0$" \
    || fail "an offset of 8192 is flagged: $("$TOOL" alignment "$lo")"
losetup -d "$lo"
lo=

# a PV whose data starts 3584 bytes late, an LV in it
export LVM_SYSTEM_DIR=$scratch/lvm LVM_SUPPRESS_FD_WARNINGS=1
mkdir -p "$LVM_SYSTEM_DIR" && printf 'global {\n    activation = 0\n}\n' > "$LVM_SYSTEM_DIR/lvm.conf"
o="--devices $l4"
pvcreate $o -q -y --dataalignmentoffset 7s "$l4" >/dev/null 2>"$scratch/err" ||
    skip "pvcreate --dataalignmentoffset failed here: $(tail -1 "$scratch/err")"
vgcreate $o -q -s 4m "$vg" "$l4" >/dev/null || fail "vgcreate"
lvcreate $o -q -an -Zn -y -L 12m -n lv "$vg" >/dev/null 2>"$scratch/err" ||
    skip "lvcreate -an failed here: $(tail -1 "$scratch/err")"
pe_start=$(pvs $o --noheadings --units b --nosuffix -o pe_start "$l4" | tr -d ' ')
[ "$pe_start" = $((1048576 + 3584)) ] || fail "pe_start is $pe_start, expected 1 MiB + 3584"
out=$("$TOOL" lv-alignment "$vg" lv $o) || fail "lv-alignment"
printf '%s\n' "$out" | sed 's/^/sampler: /'
printf '%s\n' "$out" | grep -q "^layer=pv_data offset=$pe_start size=0 misaligned=1 why=pv_data at $pe_start bytes is 3584 bytes past a multiple of the physical block size 4096$" \
    || fail "pv_data not flagged misaligned by 3584"
printf '%s\n' "$out" | grep -q "^layer=lv_extent offset=$pe_start size=4194304 misaligned=1 " \
    || fail "the LV's first extent not flagged at $pe_start"
vgremove $o -f "$vg" >/dev/null 2>&1
pvremove $o -y "$l4" >/dev/null 2>&1
pvcreate $o -q -y "$l4" >/dev/null || fail "pvcreate"
vgcreate $o -q -s 4m "$vg" "$l4" >/dev/null || fail "vgcreate"
lvcreate $o -q -an -Zn -y -L 12m -n lv "$vg" >/dev/null || fail "lvcreate"
out=$("$TOOL" lv-alignment "$vg" lv $o) || fail "lv-alignment"
printf '%s\n' "$out" | grep -q "misaligned=1" && fail "a default PV flagged: $out"
printf '%s\n' "$out" | grep -q "^layer=pv_data offset=1048576 size=0 misaligned=0$" || fail "pv_data: $out"
exit 0
