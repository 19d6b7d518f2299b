#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's main-job command: from a fresh Debian 12 machine,
# as root:
#   1. install the dependencies (scripts/packages.d/), build in ./_build;
#   2. build the default guest template and prepare it (agent + runner put
#      in with libguestfs, on this machine, cached);
#   3. on a Xen dom0 (/proc/xen/capabilities says control_d): run
#      `vmdiskcmp --image --lvm --dom0 --workload randread-4k-qd32` here,
#      with the VG from $VDC_VG (else vmdiskcmp chooses the VG with the most
#      free space that fits): the bonnie++ tests, then 4 KiB random reads at
#      queue depth 32 (IOPS and p99 per backend in the report);
#      elsewhere: build the emulated Xen lab if needed (doc/lab.md) and run
#      the same job inside it with only sizes that fit the lab (the lab's
#      vmdiskcmp chooses the VG and the guest itself, as on a dom0; the
#      workload lab-sized: templates/lab/randread-4k-qd32.fio, 16 MiB, 3 s);
#   4. print where the report is.
# Runs: $VDC_RUNS, `auto` by default (repeat until every headline ratio is
# precise: doc/statistics.md), or a count of at least 3; `auto` stops at
# $VDC_MAX_RUNS repetitions (default: vmdiskcmp's 40 on a dom0, 8 in the
# lab, to fit its timeout).  Extra vmdiskcmp arguments may
# follow on the command line, e.g. `sh scripts/main-job.sh --image-backend auto,qdisk`, or
# `--workload-on raw,file` to run randread-4k-qd32 on each target's raw device (before mkfs:
# how a guest database sees the LV or image VBD) as well as on a file.
# Results: results/DATE-HOST/ (dom0) or results/lab-DATE/ (lab; DIR/result/
# holds the report, DIR/lab/ the serial log).  Lab time on this kind of
# machine: see doc/lab.md.  Exit status: vmdiskcmp's.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
[ "$(id -u)" = 0 ] || { echo "main-job.sh: run as root" >&2; exit 2; }
runs=${VDC_RUNS:-auto}
[ "$runs" = auto ] || [ "$runs" -ge 3 ] 2>/dev/null ||
    { echo "main-job.sh: VDC_RUNS=$runs: expected auto or a count of at least 3" >&2; exit 2; }
max_runs=${VDC_MAX_RUNS:-}
[ -z "$max_runs" ] || [ "$max_runs" -ge 3 ] 2>/dev/null ||
    { echo "main-job.sh: VDC_MAX_RUNS=$max_runs: expected at least 3" >&2; exit 2; }

sh scripts/install-deps.sh
[ -x configure ] || ./autogen.sh
mkdir -p _build
(cd _build && { [ -f Makefile ] || ../configure; } && make -j"$(nproc)")
b=$top/_build
vmdiskcmp=$b/src/vmdiskcmp
stamp=$(date -u +%Y%m%dT%H%M%SZ)

# the guest: template + prepare on this machine (never inside the lab)
sh templates/guest/build-template.sh "$b/guest-template" >/dev/null
if ! grep -qs control_d /proc/xen/capabilities || [ ! -e /dev/kvm ]; then
    # no Xen dom0 (the emulated lab) or no KVM: libguestfs emulates, as the
    # lab does everywhere (/dev/kvm may exist and still hang a guest here);
    # LIBGUESTFS_BACKEND_SETTINGS from the environment wins
    export LIBGUESTFS_BACKEND=${LIBGUESTFS_BACKEND:-direct}
    export LIBGUESTFS_BACKEND_SETTINGS=${LIBGUESTFS_BACKEND_SETTINGS:-force_tcg}
fi
mkdir -p "${LIBGUESTFS_CACHEDIR:-/var/tmp}"
# prepare is cached by (template, agent, runner): a repeat launches no
# appliance and only copies the prepared image out again
prepared=$b/main-job-guest/guest.img
rm -rf "$b/main-job-guest"
mkdir -p "$b/main-job-guest"
timeout 1200 "$vmdiskcmp" prepare -q --guest-image "$b/guest-template/guest.img" \
    --agent "$b/guest-agent/vmdiskcmp-agent" --runner "$b/guest-agent/vmdiskcmp-runner" \
    --cache-dir "$b/prepare-cache" --out "$prepared" >/dev/null

mkdir -p results
if grep -qs control_d /proc/xen/capabilities; then
    # without $VDC_VG vmdiskcmp chooses the VG (the one with the most free
    # space that fits the plan) and says so in its plan
    out=results/$stamp-$(hostname)
    [ "$runs" = auto ] && [ -n "$max_runs" ] && runs="auto --max-runs $max_runs"
    set +e
    VDC_WORKLOAD_DIR=$top/templates/workloads \
    "$vmdiskcmp" --image --lvm --dom0 ${VDC_VG:+--vg "$VDC_VG"} --runs $runs --guest-image "$prepared" \
        --agent "$b/guest-agent/vmdiskcmp-agent" --runner "$b/guest-agent/vmdiskcmp-runner" \
        --workload randread-4k-qd32 --out "$out" "$@"
    rc=$?
    set -e
    report=$out
else
    out=results/lab-$stamp
    echo "main-job.sh: not a Xen dom0: running the main job in the emulated Xen lab (doc/lab.md)" >&2
    set +e
    # lab sizes: 32 MiB test files (-f: under twice the RAM is allowed), no
    # per-char tests (--per-char-size 0: one syscall per byte in a PV domU
    # under TCG takes hours), no small-file tests (-n 0).  The hypervisor,
    # the VG and the guest are vmdiskcmp's own defaults in the lab's dom0:
    # libxl, the VG with the most room, the handed-in template (its
    # prepared image seeds dom0's prepare cache: src/lab/lab.c).  The
    # workload lab-sized, handed to dom0 as /lab/in/files/randread-4k-qd32.fio
    [ "$runs" = auto ] && runs="auto --max-runs ${max_runs:-8}"
    "$vmdiskcmp" lab run --out "$out" --prepared "$prepared" --timeout 5400 \
        --file "$top/templates/lab/randread-4k-qd32.fio" -- \
        --image --lvm --dom0 --runs $runs \
        --guest-memory 128 --agent-ram 16 --size 32M --dom0-ram 16 --dom0-size 32M \
        --agent-options "-n 0 -f --per-char-size 0" --timeout 1200 \
        --workload /lab/in/files/randread-4k-qd32.fio "$@"
    rc=$?
    set -e
    report=$out/result
fi
if [ -f "$report/report.txt" ]; then
    echo "main-job.sh: report in $top/$report/ (report.txt, report.html, result.json)"
else
    echo "main-job.sh: no report was written (exit $rc); logs in $top/$out/" >&2
fi
exit $rc
