#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `vmdiskcmp --dry-run --lvm --vg VG` checks the VG's free space through
# libblockdev (bd_lvm_vginfo) as the real run does, for all the LVs of the
# plan together (the domU's "lvm" LV, then the dom0 baseline LV), and
# refuses a shortfall with the message the create would give, exit 2,
# creating nothing.  Without --vg (the command as users type it) it
# chooses the VG with the most room and states it, or refuses in one line.
# A real VG on a loop device: pvcreate and vgcreate need no device-mapper
# (only LV activation does), so this runs on the build host.  Run time
# here: about 3-5 s.
set -eu
. "$top_srcdir/tests/lib.sh"
need_root
need_cmd losetup
need_cmd pvcreate
need_cmd vgcreate
[ -x "$VMDISKCMP" ] || fail "no vmdiskcmp binary at $VMDISKCMP"
export LVM_SUPPRESS_FD_WARNINGS=1

tmp=$(mktemp -d /tmp/vdc-dryrun-vg.XXXXXX)
vg="vdcdry$$"
loop=
cleanup() {
    if [ -n "$loop" ]; then
        vgremove -f -y "$vg" > /dev/null 2>&1 || :
        pvremove -f -y "$loop" > /dev/null 2>&1 || :
        losetup -d "$loop" || :
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

truncate -s 256M "$tmp/pv.img"
loop=$(losetup -f --show "$tmp/pv.img") || skip "no free loop device"
pvcreate -q "$loop" > "$tmp/lvm.log" 2>&1 || fail "pvcreate $loop: $(cat "$tmp/lvm.log")"
vgcreate -q -s 4M "$vg" "$loop" > "$tmp/lvm.log" 2>&1 || fail "vgcreate: $(cat "$tmp/lvm.log")"
# 256 MiB PV: 252 MiB of 4 MiB extents free
free=$(vgs --noheadings --units b --nosuffix -o vg_free "$vg" | tr -d ' ')
[ "$free" = 264241152 ] || fail "VG $vg: $free bytes free, expected 264241152"

dry() {
    "$VMDISKCMP" --dry-run --hypervisor libvirt --connect qemu:///system --guest-image /g.img \
        --out "$tmp/out" "$@" > "$tmp/stdout" 2> "$tmp/stderr"
}
lvs_now() { lvs --noheadings -o lv_name "$vg" | tr -d ' '; }

# fits: lvm 32M+25%+64M = 104 MiB, dom0 the same: 208 of 252 MiB
dry --lvm --vg "$vg" --dom0 --size 32M --dom0-size 32M || fail "fitting plan refused: $(cat "$tmp/stderr")"
grep -q '"format" : "vmdiskcmp-plan"' "$tmp/stdout" || fail "fitting plan: no plan printed"

# together too big: lvm 144 MiB fits alone, dom0 144 MiB then meets 108 MiB
set +e
dry --lvm --vg "$vg" --dom0 --size 64M --dom0-size 64M; rc=$?
set -e
[ "$rc" = 2 ] || fail "lvm+dom0 shortfall: exit $rc, expected 2: $(cat "$tmp/stderr")"
[ "$(cat "$tmp/stderr")" = "vmdiskcmp: storage dom0: VG $vg has 108 MiB free, the LV needs 144 MiB (36 MiB more)" ] ||
    fail "lvm+dom0 shortfall: message: $(cat "$tmp/stderr")"
[ ! -s "$tmp/stdout" ] || fail "lvm+dom0 shortfall: the plan was printed anyway"

# one LV too big (--lv-size 300M > 252 MiB): the create's own message
set +e
dry --lvm --vg "$vg" --size 64M --lv-size 300M; rc=$?
set -e
[ "$rc" = 2 ] || fail "--lv-size shortfall: exit $rc, expected 2"
[ "$(cat "$tmp/stderr")" = "vmdiskcmp: storage lvm: VG $vg has 252 MiB free, the LV needs 300 MiB (48 MiB more)" ] ||
    fail "--lv-size shortfall: message: $(cat "$tmp/stderr")"

# LVM rounds up to whole extents: 250M needs 252 MiB (fits exactly), 253M 256
dry --lvm --vg "$vg" --size 64M --lv-size 250M || fail "250M in 252 MiB refused: $(cat "$tmp/stderr")"
set +e
dry --lvm --vg "$vg" --size 64M --lv-size 253M; rc=$?
set -e
[ "$rc" = 2 ] && grep -q "the LV needs 256 MiB (4 MiB more)" "$tmp/stderr" || fail "253M: rc $rc: $(cat "$tmp/stderr")"

# stripes over more PVs than the VG has; a VG that does not exist
set +e
dry --lvm --vg "$vg" --size 32M --stripes 2; rc=$?
set -e
[ "$rc" = 2 ] && grep -q "2 stripes but VG $vg has 1 PVs" "$tmp/stderr" || fail "stripes: rc $rc: $(cat "$tmp/stderr")"
set +e
dry --lvm --vg "${vg}none" --size 32M; rc=$?
set -e
[ "$rc" = 2 ] && grep -q "storage lvm: VG ${vg}none: .*not found" "$tmp/stderr" ||
    fail "missing VG: rc $rc: $(cat "$tmp/stderr")"
[ "$(wc -l < "$tmp/stderr")" -eq 1 ] || fail "missing VG: expected one line: $(cat "$tmp/stderr")"

# No --vg: the command as users type it.  Off a Xen dom0 without
# --hypervisor the VG is not chosen (one line, exit 2).
if ! grep -qs control_d /proc/xen/capabilities; then
    set +e
    "$VMDISKCMP" --image --lvm --dom0 --dry-run --out "$tmp/out" > "$tmp/stdout" 2> "$tmp/stderr"; rc=$?
    set -e
    [ "$rc" = 2 ] && [ "$(wc -l < "$tmp/stderr")" -eq 1 ] &&
        grep -q -e "--lvm: expected --vg VG (a VG is chosen only in a Xen dom0" "$tmp/stderr" ||
        fail "bare command off a dom0: rc $rc: $(cat "$tmp/stderr")"
fi
# With the hypervisor named, vmdiskcmp lists the VGs through libblockdev
# and chooses.  LVM sees only this test's PV (LVM_SYSTEM_DIR: an lvm.conf
# whose filter accepts only $loop), so VGs of others on this shared
# machine do not take part.
mkdir -p "$tmp/lvm"
printf 'devices {\n    global_filter = [ "a|^%s$|", "r|.*|" ]\n}\n' "$loop" > "$tmp/lvm/lvm.conf"
auto() {
    LVM_SYSTEM_DIR=$tmp/lvm "$VMDISKCMP" --dry-run --hypervisor libvirt --connect qemu:///system \
        --image --lvm --dom0 --out "$tmp/out" "$@" > "$tmp/stdout" 2> "$tmp/stderr"
}
auto --size 32M --dom0-size 32M || fail "VG choice refused: $(cat "$tmp/stderr")"
grep -q "^  --vg $vg: the VG with the most free space that holds the plan's LVs (208 MiB together; VGs: $vg 252 MiB free)" \
    "$tmp/stdout" || fail "the chosen VG is not stated: $(head -n 8 "$tmp/stdout")"
grep -q "\"value\" : \"$vg\"" "$tmp/stdout" || fail "plan.json does not record the chosen VG"
grep -q "^  lvm .* /dev/$vg/vmdiskcmp-" "$tmp/stdout" && grep -q "^  dom0 .* /dev/$vg/vmdiskcmp-.*(on lvm)" "$tmp/stdout" ||
    fail "the LVs are not planned on the chosen VG: $(grep '^  ' "$tmp/stdout")"
grep -q "^  --guest-image " "$tmp/stdout" || fail "the guest template choice is not stated"
set +e
auto --size 64M --dom0-size 64M; rc=$?
set -e
[ "$rc" = 2 ] && [ "$(cat "$tmp/stderr")" = "vmdiskcmp: --lvm: expected --vg VG: no VG holds the plan's LVs (VG $vg has the most free space, 252 MiB; they need 288 MiB, 36 MiB more): name a VG, or give a smaller --size" ] ||
    fail "no VG with room: rc $rc: $(cat "$tmp/stderr")"
printf 'devices {\n    global_filter = [ "r|.*|" ]\n}\n' > "$tmp/lvm/lvm.conf"
set +e
auto --size 32M --dom0-size 32M; rc=$?
set -e
[ "$rc" = 2 ] && [ "$(cat "$tmp/stderr")" = "vmdiskcmp: --lvm: expected --vg VG: this host has no LVM volume group" ] ||
    fail "no VG: rc $rc: $(cat "$tmp/stderr")"

# nothing was created by any of these
[ -z "$(lvs_now)" ] || fail "an LV was created: $(lvs_now)"
[ ! -e "$tmp/out" ] || fail "--dry-run created $tmp/out"
echo "dry-run VG room checks: ok (VG $vg on $loop)"
