#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/main-job.sh decides where the README's main job runs, without
# running it (--plan-only; the guest template is built, cached):
# 1. as the machine is: a Xen dom0 is not tested here; with /dev/kvm the
#    guest kernel is booted under KVM for at most VDC_KVM_PROBE_TIMEOUT s.
#    Where it does not boot (this machine: guest kernels hang under its
#    KVM), the job falls back to the emulated Xen lab with one line saying
#    why, and prints the libvirt qemu:///system command with KVM it would
#    have run (with no VG on the host, one line saying it has no --lvm);
#    without /dev/kvm the line says so; where KVM boots the guest, the KVM
#    command is the one it would run.
# 2. the KVM branch itself, with the probe booted under TCG
#    (VDC_KVM_PROBE_ACCEL=tcg, a test-only setting): the libvirt
#    qemu:///system command, and with no VG on the host one line saying the
#    LV side is left out.
#    In the lab, the dom0 baseline runs in a memory cgroup of the guest's
#    memory (--dom0-memory-max = --guest-memory), said in one line.
# Each case boots one guest kernel at most (seconds under TCG).
. "$top_srcdir/tests/lib.sh"
need_root
[ -n "${QEMU_SYSTEM:-}" ] && [ -x "$QEMU_SYSTEM" ] || skip "needs qemu-system-x86_64"
need_cmd mke2fs
[ -x "$VMDISKCMP" ] || fail "vmdiskcmp not built at $VMDISKCMP"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
job() { VDC_BUILDDIR=$top_builddir sh "$top_srcdir/scripts/main-job.sh" --plan-only >"$out" 2>&1; }

# 0. --help prints its usage and runs nothing (it must not start the job)
VDC_BUILDDIR=/nonexistent sh "$top_srcdir/scripts/main-job.sh" --help >"$out" 2>&1 ||
    { cat "$out"; fail "main-job.sh --help exited $?"; }
grep -q '^usage: sh scripts/main-job.sh \[--plan-only\]' "$out" || { cat "$out"; fail "main-job.sh --help: no usage"; }
grep -q '^main-job.sh: ' "$out" && { cat "$out"; fail "main-job.sh --help did more than print its usage"; }

# 1. the machine as it is
VDC_KVM_PROBE_TIMEOUT=15 job; rc=$?
[ "$rc" = 0 ] || { cat "$out"; fail "main-job.sh --plan-only exited $rc"; }
cat "$out"
[ "$(grep -c '^main-job.sh: would run: ' "$out")" = 1 ] || fail "expected one 'would run' line"
if grep -qs control_d /proc/xen/capabilities; then
    grep -q '^main-job.sh: this host is a Xen dom0' "$out" || fail "a dom0 not named as such"
elif grep -q '^main-job.sh: not a Xen dom0, and no usable KVM (' "$out"; then
    grep -q "^main-job.sh: would run: .* 'lab' 'run' .* '--image' '--image-cache' 'host,none' '--lvm' " "$out" ||
        fail "the lab fallback does not run the lab job with the image with and without dom0's cache"
    grep -q '^main-job.sh: in the lab the dom0 baseline.s agent runs in a memory cgroup of [0-9]* MiB ' "$out" ||
        fail "the lab job does not say how its dom0 baseline is bounded"
    grep -q "^main-job.sh: would run: .* '--lvm' '--dom0' '--dom0-memory-max' '[0-9]*' .* '--guest-memory' '[0-9]*' " "$out" ||
        fail "the lab job does not run the dom0 baseline in a memory cgroup"
    m=$(sed -n "s/^main-job.sh: would run: .* '--dom0-memory-max' '\([0-9]*\)' .*/\1/p" "$out")
    g=$(sed -n "s/^main-job.sh: would run: .* '--guest-memory' '\([0-9]*\)' .*/\1/p" "$out")
    [ -n "$m" ] && [ "$m" = "$g" ] || fail "dom0's cgroup ($m MiB) is not the guest's memory ($g MiB)"
    if [ -c /dev/kvm ]; then
        grep -q '^main-job.sh: not a Xen dom0, and no usable KVM (/dev/kvm is there but ' "$out" ||
            fail "the fallback line does not say that the guest did not boot under KVM"
        grep -q "^main-job.sh: with a KVM that boots the guest it would have run: '[^']*/vmdiskcmp' '--hypervisor' 'libvirt' '--connect' 'qemu:///system' '--accel' 'kvm' '--image' .*'--dom0' " "$out" ||
            fail "the KVM command it would have run is not printed"
        if [ -z "$(vgs --noheadings -o vg_name 2>/dev/null | tr -d ' ')" ]; then
            grep -q '^main-job.sh: no LVM volume group on this host: that KVM command has the image and the host only, no --lvm ' "$out" ||
                fail "no VG: the KVM command it would have run leaves --lvm out without saying so"
            grep -q "^main-job.sh: with a KVM that boots .*'--lvm'" "$out" && fail "no VG, yet --lvm in the KVM command"
        fi
    else
        grep -q '(no /dev/kvm)' "$out" || fail "the fallback does not say there is no /dev/kvm"
    fi
    [ "$(grep -c '^main-job.sh: not a Xen dom0' "$out")" = 1 ] || fail "expected one line saying why"
else
    grep -q '^main-job.sh: the guest booted under kvm in a probe: the main job runs on this KVM host' "$out" ||
        fail "neither the lab nor KVM decided"
    grep -q "^main-job.sh: would run: .* '--connect' 'qemu:///system' '--accel' 'kvm' " "$out" || fail "no KVM command"
fi
echo "PASS: the machine as it is"

# 2. the KVM branch, the probe under TCG
VDC_KVM_PROBE_ACCEL=tcg VDC_KVM_PROBE_TIMEOUT=240 job; rc=$?
[ "$rc" = 0 ] || { cat "$out"; fail "main-job.sh --plan-only (tcg probe) exited $rc"; }
cat "$out"
grep -q '^main-job.sh: the guest booted under tcg in a probe: the main job runs on this KVM host, through libvirt qemu:///system$' "$out" ||
    fail "the probe under TCG did not take the KVM branch"
grep -q "^main-job.sh: would run: '[^']*/vmdiskcmp' '--hypervisor' 'libvirt' '--connect' 'qemu:///system' '--accel' 'tcg' '--image' .*'--dom0' '--runs' 'auto' '--prepared-image' '/var/lib/libvirt/images/" "$out" ||
    fail "the KVM branch's command is not the libvirt qemu:///system job"
if [ -n "$(vgs --noheadings -o vg_name 2>/dev/null | tr -d ' ')" ]; then
    grep -q "^main-job.sh: would run: .* '--image' '--lvm' .*'--dom0' " "$out" || fail "a VG is there: expected --lvm"
else
    grep -q '^main-job.sh: no LVM volume group on this host: the image and the host only' "$out" ||
        fail "no VG: the LV side left out without saying so"
    grep -q -- "'--lvm'" "$out" && fail "no VG, yet --lvm in the command"
fi
echo "PASS: the KVM branch (probe under TCG)"
