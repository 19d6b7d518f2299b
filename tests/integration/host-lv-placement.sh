#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# An LV's placement (src/host/placement.c, vdc_lv_placement_read) against
# lvm2's own report: a VG on a scratch loop device, an LV in two segments
# around another LV; the sampler's byte ranges on the PV's disk must be
# pe_start + PE x extent size of `lvs -o seg_pe_ranges`, computed here.
# LVs are never activated (activation = 0, -an): no device-mapper is needed.  lvm2 runs
# with LVM_SYSTEM_DIR in the scratch directory and --devices on the loop
# device only: the host's LVM configuration and other devices are never
# touched.  Root; uses a loop device: heavy lock.  About 3 s.
. "$top_srcdir/tests/integration/host-lib.sh"
host_test_setup vdc-lvplace lvcreate
loop=
o=
vg=vdcplace$$
cleanup() {
    [ -n "$o" ] && vgremove $o -f "$vg" >/dev/null 2>&1
    [ -n "$loop" ] && losetup -d "$loop"
    rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
export LVM_SYSTEM_DIR=$scratch/lvm LVM_SUPPRESS_FD_WARNINGS=1
# activation = 0: lvm2 neither needs nor touches device-mapper (this host
# kernel may have none); LVs stay metadata, which is all a report needs
mkdir -p "$LVM_SYSTEM_DIR" && printf 'global {\n    activation = 0\n}\n' > "$LVM_SYSTEM_DIR/lvm.conf"
truncate -s 64M "$scratch/pv.img"
loop=$(losetup -f --show "$scratch/pv.img") || fail "losetup"
o="--devices $loop"
pvcreate $o -q -y "$loop" >/dev/null || fail "pvcreate $loop"
vgcreate $o -q -s 4m "$vg" "$loop" >/dev/null || fail "vgcreate"
lvcreate $o -q -an -Zn -y -L 12m -n lv1 "$vg" >/dev/null 2>"$scratch/err" ||
    skip "lvcreate -an failed here: $(tail -1 "$scratch/err")"
lvcreate $o -q -an -Zn -y -L 8m -n lv2 "$vg" >/dev/null || fail "lvcreate lv2"
lvextend $o -q -L 20m "$vg/lv1" >/dev/null || fail "lvextend lv1"

out=$("$TOOL" lv-placement "$vg" lv1 --devices "$loop") || fail "lv-placement"
printf '%s\n' "$out" | sed 's/^/sampler: /'
ext=$(vgs $o --noheadings --units b --nosuffix -o vg_extent_size "$vg" | tr -d ' ')
pe_start=$(pvs $o --noheadings --units b --nosuffix -o pe_start "$loop" | tr -d ' ')
want=$(lvs $o --noheadings -o seg_pe_ranges "$vg/lv1" | tr ' ' '\n' | grep . |
    awk -F: -v ext="$ext" -v ps="$pe_start" '{ split($NF, r, "-");
        printf "range start=%.0f length=%.0f\n", ps + r[1] * ext, (r[2] - r[1] + 1) * ext }' | sort -t= -k2 -n)
echo "lvm2: extent size $ext, pe_start $pe_start"
printf '%s\n' "$want" | sed 's/^/lvm2: /'
[ "$(printf '%s\n' "$want" | wc -l)" -ge 2 ] || fail "expected lv1 in two segments"
got=$(printf '%s\n' "$out" | grep '^range ')
[ "$got" = "$want" ] || fail "the sampler's ranges differ from lvm2's"
case $out in *" disk=${loop#/dev/} "*" mapped_bytes=20971520 "*) ;; *) fail "expected 20 MiB mapped on ${loop#/dev/}: $out" ;; esac
echo PASS
