#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's main job: image against LV (and each against the bare host)
# on whatever machine this is, ending in the report's headline.  From a
# fresh Debian 12 machine, as root:
#   1. install the dependencies (scripts/packages.d/), build in ./_build;
#   2. build the default guest template and prepare it (agent + runner put
#      in with libguestfs, on this machine, cached);
#   3. decide where the job runs (one line says which and why):
#      - a Xen dom0 (/proc/xen/capabilities says control_d): here, libxl,
#        `vmdiskcmp --image --lvm --dom0 --workload randread-4k-qd32`, the
#        VG from $VDC_VG else the one vmdiskcmp chooses (most free space
#        that fits);
#      - a KVM host: here, through libvirt qemu:///system with KVM, the
#        same job; the VG as on a dom0; with no VG at all the image and the
#        host only (said so).  "KVM works" means the guest template's kernel
#        booted to its userspace under `qemu -accel kvm` within
#        $VDC_KVM_PROBE_TIMEOUT seconds (default 30): /dev/kvm existing
#        proves nothing (a kernel can hang under it);
#      - otherwise the emulated Xen lab (doc/lab.md): Xen 4.17 and a Debian
#        dom0 under QEMU, image against LV inside it, sized so every test
#        file is twice the RAM of whoever runs it (the domU at the guest's
#        least memory, its manifest's min_memory_mib), the image with and
#        without dom0's page cache (--image-cache host,none; dom0 booted
#        with $VDC_LAB_DOM0_MEMORY MiB, default 384, the least it boots in),
#        the bonnie++ block, rewrite and seek tests (no per-char, no
#        small-file tests: one syscall per byte under two levels of
#        emulation takes hours) and the lab-sized randread-4k-qd32
#        (templates/lab/randread-4k-qd32.fio); and the dom0 baseline with
#        its agent in a memory cgroup of the guest's least memory
#        (--dom0-memory-max: dom0 itself boots in no less than 384 MiB):
#        the cgroup bounds the agent and the page cache it fills as the
#        domU's RAM bounds the domU's, so dom0 writes the same files, twice
#        that bound, and its ceiling compares (one line says so);
#   4. print where the report is.
# `sh scripts/main-job.sh --plan-only` does steps 2-3 without running the
# job (no dependency install, no build: the build tree must exist): it
# prints the decision and the command it would run (and, when KVM was
# there but did not boot the guest, the KVM command it would have run),
# creates nothing but the cached guest template, boots nothing but the
# 30 s KVM probe of step 2 (where /dev/kvm is there), exits 0.
# Runs: $VDC_RUNS, `auto` by default (repeat until every headline ratio is
# precise: doc/statistics.md), or a count of at least 3; `auto` stops at
# $VDC_MAX_RUNS repetitions (default: vmdiskcmp's 40 on a host, 3 in the
# lab, to fit about half an hour).  Extra vmdiskcmp arguments may follow
# on the command line, e.g. `sh scripts/main-job.sh --image-backend auto,qdisk`.
# Results: results/DATE-HOST/ (a host) or results/lab-DATE/ (the lab;
# DIR/result/ holds the report, DIR/lab/ the serial log).  Exit status:
# vmdiskcmp's (2 on bad input here).
# VDC_BUILDDIR: the build tree (default ./_build).
# Test-only settings: VDC_KVM_PROBE_ACCEL (default kvm; the tests boot the
# probe under tcg to take the KVM branch on a machine without KVM).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
plan_only=0
case "${1:-}" in
-h|--help)
    cat <<'USAGE'
usage: sh scripts/main-job.sh [--plan-only] [VMDISKCMP_RUN_ARGS...]

The README's main job: image against LV, each against the bare host, on
this machine (a Xen dom0: libxl; a KVM host: libvirt; else the emulated
Xen lab).  As root: installs the dependencies, builds in ./_build,
prepares the guest, runs, and prints where the report is.

  --plan-only   print where the job would run and the exact command, run
                no benchmark (the build tree must exist); to decide, it
                builds the cached guest template and, where /dev/kvm is
                there, boots it under KVM for up to 30 s (the probe); exit 0
  -h, --help    this text

Environment: VDC_RUNS (auto, or a count of at least 3), VDC_MAX_RUNS,
VDC_VG (the volume group), VDC_LAB_DOM0_MEMORY (MiB, the lab's dom0),
VDC_KVM_PROBE_TIMEOUT (s, default 30: how long the KVM probe waits for
the guest), VDC_BUILDDIR (default ./_build).  Extra arguments go to `vmdiskcmp run`,
e.g. --image-backend auto,qdisk.  Details: the comment at the top of
this script, README.md and doc/lab.md.
USAGE
    exit 0 ;;
--plan-only) plan_only=1; shift ;;
esac
[ "$(id -u)" = 0 ] || { echo "main-job.sh: run as root" >&2; exit 2; }
runs=${VDC_RUNS:-auto}
[ "$runs" = auto ] || [ "$runs" -ge 3 ] 2>/dev/null ||
    { echo "main-job.sh: VDC_RUNS=$runs: expected auto or a count of at least 3" >&2; exit 2; }
max_runs=${VDC_MAX_RUNS:-}
[ -z "$max_runs" ] || [ "$max_runs" -ge 3 ] 2>/dev/null ||
    { echo "main-job.sh: VDC_MAX_RUNS=$max_runs: expected at least 3" >&2; exit 2; }
probe_timeout=${VDC_KVM_PROBE_TIMEOUT:-30}
[ "$probe_timeout" -ge 5 ] 2>/dev/null ||
    { echo "main-job.sh: VDC_KVM_PROBE_TIMEOUT=$probe_timeout: expected whole seconds, at least 5" >&2; exit 2; }
probe_accel=${VDC_KVM_PROBE_ACCEL:-kvm}
case $probe_accel in kvm|tcg) ;; *)
    echo "main-job.sh: VDC_KVM_PROBE_ACCEL=$probe_accel: expected kvm or tcg" >&2; exit 2 ;; esac
lab_dom0_mem=${VDC_LAB_DOM0_MEMORY:-384}
[ "$lab_dom0_mem" -ge 256 ] 2>/dev/null ||
    { echo "main-job.sh: VDC_LAB_DOM0_MEMORY=$lab_dom0_mem: expected MiB, at least 256" >&2; exit 2; }

b=${VDC_BUILDDIR:-$top/_build}
if [ "$plan_only" = 0 ]; then
    sh scripts/install-deps.sh
    [ -x configure ] || ./autogen.sh
    mkdir -p "$b"
    (cd "$b" && { [ -f Makefile ] || "$top/configure"; } && make -j"$(nproc)")
fi
vmdiskcmp=$b/src/vmdiskcmp
agent=$b/guest-agent/vmdiskcmp-agent
runner=$b/guest-agent/vmdiskcmp-runner
stamp=$(date -u +%Y%m%dT%H%M%SZ)
tdir=$b/guest-template
sh templates/guest/build-template.sh "$tdir" >/dev/null
qemu=${QEMU_SYSTEM:-qemu-system-x86_64}

# kvm_boots: 0 when the guest template's kernel reaches its userspace under
# QEMU with $probe_accel within $probe_timeout s; else 1 with $why set.
# The guest's root is a throw-away overlay (-snapshot): nothing is written.
kvm_boots() {
    if [ "$probe_accel" = kvm ] && [ ! -c /dev/kvm ]; then
        why="no /dev/kvm"; return 1
    fi
    command -v "$qemu" >/dev/null 2>&1 || { why="no $qemu to boot a guest with"; return 1; }
    plog=$(mktemp) perr=$(mktemp)
    # QEMU's default CPU model, as libvirt's domain (no <cpu> element) gets
    "$qemu" -accel "$probe_accel" -m 256 -smp 1 -display none -monitor none -no-reboot -snapshot \
        -serial "file:$plog" -kernel "$tdir/vmlinuz" -initrd "$tdir/initrd.img" \
        -append "console=ttyS0 root=/dev/vda ro panic=-1" \
        -drive "file=$tdir/guest.img,if=virtio,format=raw" </dev/null >/dev/null 2>"$perr" &
    qpid=$!
    i=0 state=timeout
    while [ "$i" -lt "$probe_timeout" ]; do
        if grep -a -q 'vmdiskcmp guest: userspace up' "$plog"; then state=up; break; fi
        kill -0 "$qpid" 2>/dev/null || { state=exited; break; }
        sleep 1
        i=$((i + 1))
    done
    kill "$qpid" 2>/dev/null
    wait "$qpid" 2>/dev/null || true
    last=$(tr -d '\r' <"$plog" | grep -a -v '^[[:space:]]*$' | tail -n 1 | cut -c1-80)
    err=$(grep -a -v -i 'warning' "$perr" | tail -n 1 | cut -c1-120)
    rm -f "$plog" "$perr"
    name=$([ "$probe_accel" = kvm ] && echo KVM || echo "$probe_accel")
    case $state in
    up) return 0 ;;
    exited) why="QEMU stopped before the guest kernel reached its userspace under $name (${err:-no error printed}; last console line: ${last:-none})" ;;
    *) why="the guest kernel did not reach its userspace under $name within $probe_timeout s (last console line: ${last:-none}; on a busy host, VDC_KVM_PROBE_TIMEOUT=120 waits longer)" ;;
    esac
    [ "$probe_accel" = kvm ] && why="/dev/kvm is there but $why"
    return 1
}

# the VG for the LV side: $VDC_VG, else vmdiskcmp chooses among the host's
# (none at all: no LV side, said so)
vg_args() {
    if [ -n "${VDC_VG:-}" ]; then
        echo "--lvm --vg $VDC_VG"
    elif [ -n "$(vgs --noheadings -o vg_name 2>/dev/null | tr -d ' ')" ]; then
        echo "--lvm"
    fi
}

# where: dom0, kvm or lab; one line says which and why
why=
if grep -qs control_d /proc/xen/capabilities; then
    where=dom0
    echo "main-job.sh: this host is a Xen dom0 (/proc/xen/capabilities: control_d): the main job runs here, through libxl"
elif kvm_boots; then
    where=kvm
    echo "main-job.sh: the guest booted under $probe_accel in a probe: the main job runs on this KVM host, through libvirt qemu:///system"
else
    where=lab
    echo "main-job.sh: not a Xen dom0, and no usable KVM ($why): the main job runs in the emulated Xen lab (doc/lab.md)"
fi

# q WORD...: the words quoted for sh, space-separated (what is printed is
# what runs: eval)
q() {
    for w in "$@"; do
        printf "'%s' " "$(printf %s "$w" | sed "s/'/'\\\\''/g")"
    done
}
# the commands, printed and run as they are
[ "$runs" = auto ] && runs="auto${max_runs:+ --max-runs $max_runs}"
host_out=results/$stamp-$(hostname)
extra=$(q "$@")
case $where in
kvm) prepared=/var/lib/libvirt/images/vmdiskcmp-main-job/guest.img ;;  # QEMU (libvirt-qemu) reads it there
*) prepared=$b/main-job-guest/guest.img ;;
esac
# shellcheck disable=SC2086
kvm_cmd="$(q "$vmdiskcmp" --hypervisor libvirt --connect qemu:///system --accel "$probe_accel" \
    --image $(vg_args) --dom0 --runs $runs --prepared-image /var/lib/libvirt/images/vmdiskcmp-main-job/guest.img \
    --agent "$agent" --runner "$runner" --workload randread-4k-qd32 --out "$host_out")$extra"
# shellcheck disable=SC2086
dom0_cmd="$(q "$vmdiskcmp" --image --lvm --dom0 ${VDC_VG:+--vg "$VDC_VG"} --runs $runs --guest-image "$prepared" \
    --agent "$agent" --runner "$runner" --workload randread-4k-qd32 --out "$host_out")$extra"
# the lab: the guest at its least memory (its manifest), dom0 at the least
# it boots in with its agent in a memory cgroup of the guest's memory, the
# test files vmdiskcmp's defaults (2x the guest's RAM, 2x the cgroup's); a
# boot (three targets) took 1035 s on this machine kind under load 14: an
# hour each, 2.5 hours in all, before the lab gives up
guest_min=$(sed -n 's/^min_memory_mib=//p' "$tdir/guest.img.manifest")
[ -n "$guest_min" ] || { echo "main-job.sh: $tdir/guest.img.manifest states no min_memory_mib" >&2; exit 1; }
lab_out=results/lab-$stamp
lab_runs=$runs
[ "$lab_runs" = auto ] && lab_runs="auto --max-runs 3"
# shellcheck disable=SC2086
lab_cmd="$(q "$vmdiskcmp" lab run --out "$lab_out" --prepared "$prepared" --dom0-memory "$lab_dom0_mem" \
    --timeout 9000 --file "$top/templates/lab/randread-4k-qd32.fio" -- \
    --image --image-cache host,none --lvm --dom0 --dom0-memory-max "$guest_min" --runs $lab_runs \
    --guest-memory "$guest_min" \
    --agent-options "-n 0 --per-char-size 0" --timeout 3600 --workload /lab/in/files/randread-4k-qd32.fio)$extra"

if [ "$where" = lab ] && [ -c /dev/kvm ]; then
    echo "main-job.sh: with a KVM that boots the guest it would have run: $kvm_cmd"
    [ -n "$(vg_args)" ] ||
        echo "main-job.sh: no LVM volume group on this host: that KVM command has the image and the host only, no --lvm (create a VG, or set VDC_VG, for image against LV; the lab job has a VG of its own)"
fi
if [ "$where" = lab ]; then
    echo "main-job.sh: in the lab the dom0 baseline's agent runs in a memory cgroup of $guest_min MiB (--dom0-memory-max; dom0 boots in no less than $lab_dom0_mem MiB): the cgroup bounds it and the page cache it fills as the domU's $guest_min MiB bound the domU's, so both write files of twice that and dom0's ceiling compares"
fi
if [ "$where" = kvm ] && [ -z "$(vg_args)" ]; then
    echo "main-job.sh: no LVM volume group on this host: the image and the host only, no LV side (create a VG, or set VDC_VG, for image against LV)"
fi
case $where in
dom0) cmd=$dom0_cmd out=$host_out report=$host_out ;;
kvm) cmd=$kvm_cmd out=$host_out report=$host_out ;;
lab) cmd=$lab_cmd out=$lab_out report=$lab_out/result ;;
esac
if [ "$plan_only" = 1 ]; then
    echo "main-job.sh: would run: $cmd"
    exit 0
fi
echo "main-job.sh: runs: $cmd"

# the guest: prepared on this machine (never inside the lab); libguestfs
# emulates unless KVM or Xen can run its appliance (the probe said so);
# LIBGUESTFS_BACKEND_SETTINGS from the environment wins
if [ "$where" = lab ]; then
    export LIBGUESTFS_BACKEND=${LIBGUESTFS_BACKEND:-direct}
    export LIBGUESTFS_BACKEND_SETTINGS=${LIBGUESTFS_BACKEND_SETTINGS:-force_tcg}
fi
mkdir -p "${LIBGUESTFS_CACHEDIR:-/var/tmp}"
# prepare is cached by (template, agent, runner): a repeat launches no
# appliance and only copies the prepared image out again
rm -f "$prepared" "$prepared.manifest" "$prepared.vmlinuz" "$prepared.initrd"
mkdir -p "$(dirname "$prepared")"
timeout 1200 "$vmdiskcmp" prepare -q --guest-image "$tdir/guest.img" \
    --agent "$agent" --runner "$runner" --cache-dir "$b/prepare-cache" --out "$prepared" >/dev/null

mkdir -p results
[ "$where" = kvm ] && sh scripts/start-services.sh
export VDC_WORKLOAD_DIR="$top/templates/workloads"
set +e
eval "$cmd"
rc=$?
set -e
if [ -f "$report/report.txt" ]; then
    echo "main-job.sh: report in $top/$report/ (report.txt, report.html, result.json)"
else
    echo "main-job.sh: no report was written (exit $rc)${out:+$([ -d "$out" ] && echo "; logs in $top/$out/")}" >&2
fi
exit $rc
