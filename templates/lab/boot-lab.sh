#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# vmdiskcmp emulated Xen lab: boot the built lab once under QEMU (TCG), let
# dom0 run the job found in the input tar, bring the output back, tear down.
#
# usage: boot-lab.sh LAB_DIR IN_TAR OUT_DIR JOB_TIMEOUT_S
#   LAB_DIR      a directory made by build-dom0.sh (xen, vmlinuz, initrd.img, dom0.img)
#   IN_TAR       tar archive handed to dom0 as the read-only disk "vdc-in"
#                (must hold job.sh; see dom0/vdc-lab-job for the protocol)
#   OUT_DIR      existing directory; receives the output tar's contents and
#                OUT_DIR/lab/{serial.log,stages.txt,qemu.cmd}
#   JOB_TIMEOUT_S  seconds the job may take inside dom0
# Stages and their timeouts (lab.conf): xen (QEMU start -> Xen hands over
# to the dom0 kernel), dom0 (-> "VDC-LAB: dom0-ready"), job (-> "VDC-LAB: job-exit=N"),
# poweroff (-> QEMU exits).  A failing stage prints one line naming it, kills
# QEMU and exits 1.  Nothing is left on the host but OUT_DIR: the per-run
# qcow2 overlay of dom0.img, the VG disk and the output disk live in a work
# directory removed on exit, also on SIGINT/SIGTERM.  No loop device and no
# mount are used on the host.
# Exit status: the job's exit status if the lab ran (0..255), 1 if a lab
# stage failed, 2 on bad usage.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lab.conf"
# dom0's memory for this boot: LAB_DOM0_MEM_MIB from the request (lab.sh
# exports it: `vmdiskcmp lab run --dom0-memory`), else lab.conf's
LAB_DOM0_MEM_MIB=${LAB_BOOT_DOM0_MEM_MIB:-$LAB_DOM0_MEM_MIB}
# A panic that ends the lab: Xen's, or dom0's kernel's, at the start of a
# line.  A domU's console reaches the serial log too, each line prefixed
# "[guest-NAME.log] " (lab.sh), and so does the job's output, which may quote
# a guest's console: a domU that panics fails its boot (vmdiskcmp names it),
# never the lab.
LAB_PANIC_RE='^\(XEN\) Panic on CPU|^(\[ *[0-9]+\.[0-9]+\] )?Kernel panic - not syncing'

[ $# -eq 4 ] || { echo "usage: boot-lab.sh LAB_DIR IN_TAR OUT_DIR JOB_TIMEOUT_S" >&2; exit 2; }
lab=$1 intar=$2 outdir=$3 job_timeout=$4
qemu=${QEMU_SYSTEM:-qemu-system-x86_64}
for f in xen vmlinuz initrd.img dom0.img; do
    [ -r "$lab/$f" ] || { echo "vmdiskcmp lab: boot: $lab/$f missing (run the lab build)" >&2; exit 2; }
done
case "$lab" in *,*) echo "vmdiskcmp lab: boot: lab dir '$lab' contains a comma (QEMU multiboot modules are comma-separated)" >&2; exit 2 ;; esac
[ -r "$intar" ] || { echo "vmdiskcmp lab: boot: input tar '$intar' not readable" >&2; exit 2; }
[ -d "$outdir" ] || { echo "vmdiskcmp lab: boot: output dir '$outdir' does not exist" >&2; exit 2; }
case "$job_timeout" in ''|*[!0-9]*) echo "vmdiskcmp lab: boot: job timeout '$job_timeout' is not a number of seconds" >&2; exit 2 ;; esac
command -v "$qemu" >/dev/null || { echo "vmdiskcmp lab: boot: $qemu not found" >&2; exit 2; }

mkdir -p "$outdir/lab"
serial=$outdir/lab/serial.log
stages=$outdir/lab/stages.txt
work=$(mktemp -d "$lab/../.run-XXXXXX")
qpid=
teardown() {
    if [ -n "$qpid" ] && kill -0 "$qpid" 2>/dev/null; then
        kill "$qpid" 2>/dev/null
        for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$qpid" 2>/dev/null || break; sleep 1; done
        kill -9 "$qpid" 2>/dev/null
        wait "$qpid" 2>/dev/null
    fi
    qpid=
    rm -rf "$work"
}
trap teardown EXIT
trap 'echo "vmdiskcmp lab: interrupted, tearing down" >&2; exit 130' INT TERM

qemu-img create -q -f qcow2 -F raw -b "$lab/dom0.img" "$work/root.qcow2" || exit 1
truncate -s "${LAB_VG_MIB}M" "$work/vg.img" || exit 1
truncate -s "${LAB_OUT_MIB}M" "$work/out.img" || exit 1
: >"$serial"

cmd=("$qemu" -accel tcg -cpu "$LAB_CPU" -m "$LAB_MEM_MIB" -smp "$LAB_SMP"
     -display none -monitor none -no-reboot -serial "file:$serial"
     -kernel "$lab/xen"
     -append "console=com1 com1=115200,8n1 dom0_mem=${LAB_DOM0_MEM_MIB}M,max:${LAB_DOM0_MEM_MIB}M dom0_max_vcpus=$LAB_DOM0_VCPUS"
     -initrd "$lab/vmlinuz root=/dev/vda rw console=hvc0 quiet systemd.show_status=1,$lab/initrd.img"
     -drive "file=$work/root.qcow2,if=none,id=root,format=qcow2,cache=unsafe"
     -device virtio-blk-pci,drive=root,serial=vdc-root
     -drive "file=$work/vg.img,if=none,id=vg,format=raw,cache=unsafe"
     -device virtio-blk-pci,drive=vg,serial=vdc-vg
     -drive "file=$intar,if=none,id=in,format=raw,readonly=on"
     -device virtio-blk-pci,drive=in,serial=vdc-in
     -drive "file=$work/out.img,if=none,id=out,format=raw"
     -device virtio-blk-pci,drive=out,serial=vdc-out)
printf '%q ' "${cmd[@]}" >"$outdir/lab/qemu.cmd"; echo >>"$outdir/lab/qemu.cmd"

t0=$(date +%s)
"${cmd[@]}" </dev/null >"$outdir/lab/qemu.stderr" 2>&1 &
qpid=$!
echo "qemu-pid=$qpid cpu=$LAB_CPU mem=${LAB_MEM_MIB}M smp=$LAB_SMP dom0_mem=${LAB_DOM0_MEM_MIB}M" >"$stages"

# wait_for STAGE TIMEOUT PATTERN: poll the serial log until PATTERN shows up
wait_for() {
    local stage=$1 limit=$2 pat=$3 s0 now
    s0=$(date +%s)
    echo "vmdiskcmp lab: [progress] stage $stage (timeout ${limit} s)" >&2
    while :; do
        if grep -a -q -E "$pat" "$serial"; then
            now=$(date +%s)
            echo "stage=$stage seconds=$((now - s0)) at=$((now - t0))" >>"$stages"
            return 0
        fi
        if grep -a -q -E "$LAB_PANIC_RE" "$serial"; then
            echo "vmdiskcmp lab: stage '$stage' failed: panic of Xen or dom0 on the serial console (serial log: $serial)" >&2
            grep -a -m3 -E -A3 "$LAB_PANIC_RE" "$serial" >&2
            return 1
        fi
        if ! kill -0 "$qpid" 2>/dev/null; then
            if [ "$stage" = poweroff ]; then
                now=$(date +%s)
                echo "stage=$stage seconds=$((now - s0)) at=$((now - t0))" >>"$stages"
                return 0
            fi
            echo "vmdiskcmp lab: stage '$stage' failed: QEMU exited early (serial log: $serial; $(tail -c 300 "$outdir/lab/qemu.stderr" | tr '\n' ' '))" >&2
            return 1
        fi
        now=$(date +%s)
        if [ $((now - s0)) -ge "$limit" ]; then
            echo "vmdiskcmp lab: stage '$stage' timed out after $limit s (serial log: $serial)" >&2
            echo "stage=$stage timeout=$limit" >>"$stages"
            return 1
        fi
        sleep 2
    done
}

wait_for xen "$LAB_T_XEN" 'about to get started|Linux version' || exit 1
wait_for dom0 "$LAB_T_DOM0" 'VDC-LAB: (dom0-ready|error: disks|error: input)' || exit 1
if grep -a -q -E 'VDC-LAB: error: (disks|input)' "$serial"; then
    echo "vmdiskcmp lab: stage 'dom0' failed: $(grep -a -m1 -o 'VDC-LAB: error: .*' "$serial")" >&2
    exit 1
fi
wait_for job "$((job_timeout + 120))" 'VDC-LAB: job-exit=' || exit 1
wait_for poweroff "$LAB_T_POWEROFF" '^$NEVER' || exit 1
wait "$qpid" 2>/dev/null
qpid=
echo "total seconds=$(( $(date +%s) - t0 ))" >>"$stages"
grep -a -q 'VDC-LAB: out-written' "$serial" || {
    echo "vmdiskcmp lab: stage 'output' failed: $(grep -a -m1 -o 'VDC-LAB: error: output.*' "$serial" || echo 'dom0 wrote no output') (serial log: $serial)" >&2
    exit 1; }
# the output disk is a tar written by dom0: untrusted, extracted without
# owners and never above OUT_DIR (GNU tar refuses '..' and strips '/')
tar -xf "$work/out.img" -C "$outdir" --no-same-owner --no-same-permissions || {
    echo "vmdiskcmp lab: stage 'output' failed: cannot extract the output tar" >&2; exit 1; }
rc=$(grep -a -o 'VDC-LAB: job-exit=[0-9]*' "$serial" | head -n1 | sed 's/.*=//')
echo "job-exit=$rc" >>"$stages"
exit "${rc:-1}"
