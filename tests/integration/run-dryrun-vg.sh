#!/bin/sh
# `vmdiskcmp --dry-run --lvm --vg VG` checks the VG's free space through
# libblockdev (bd_lvm_vginfo) as the real run does, for all the LVs of the
# plan together (the domU's "lvm" LV, then the dom0 baseline LV), and
# refuses a shortfall with the message the create would give, exit 2,
# creating nothing.  A real VG on a loop device: pvcreate and vgcreate
# need no device-mapper (only LV activation does), so this runs on the
# build host.  Run time here: about 2-4 s.
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
[ "$(cat "$tmp/stderr")" = "vmdiskcmp: storage dom0: VG $vg has 113246208 bytes free, the LV needs 150994944" ] ||
    fail "lvm+dom0 shortfall: message: $(cat "$tmp/stderr")"
[ ! -s "$tmp/stdout" ] || fail "lvm+dom0 shortfall: the plan was printed anyway"

# one LV too big (--lv-size 300M > 252 MiB): the create's own message
set +e
dry --lvm --vg "$vg" --size 64M --lv-size 300M; rc=$?
set -e
[ "$rc" = 2 ] || fail "--lv-size shortfall: exit $rc, expected 2"
[ "$(cat "$tmp/stderr")" = "vmdiskcmp: storage lvm: VG $vg has 264241152 bytes free, the LV needs 314572800" ] ||
    fail "--lv-size shortfall: message: $(cat "$tmp/stderr")"

# LVM rounds up to whole extents: 250M needs 252 MiB (fits exactly), 253M 256
dry --lvm --vg "$vg" --size 64M --lv-size 250M || fail "250M in 252 MiB refused: $(cat "$tmp/stderr")"
set +e
dry --lvm --vg "$vg" --size 64M --lv-size 253M; rc=$?
set -e
[ "$rc" = 2 ] && grep -q "the LV needs 268435456" "$tmp/stderr" || fail "253M: rc $rc: $(cat "$tmp/stderr")"

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

# nothing was created by any of these
[ -z "$(lvs_now)" ] || fail "an LV was created: $(lvs_now)"
[ ! -e "$tmp/out" ] || fail "--dry-run created $tmp/out"
echo "dry-run VG room checks: ok (VG $vg on $loop)"
