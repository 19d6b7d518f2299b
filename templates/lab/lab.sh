#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# vmdiskcmp emulated Xen lab: the driver behind `vmdiskcmp lab`.
#
#   lab.sh REQUEST
#
# REQUEST is written by `vmdiskcmp lab` (src/lab/lab.c) after it checked
# every option, file and job: bash assignments, every value quoted, that
# this script only reads.  It checks nothing again: it stages, boots and
# collects.
#   LAB_ACTION   build | selftest | run
#   LAB_CACHE    the lab cache (dom0-KEY/ below it; build-dom0.sh)
#   LAB_OUT      the result directory, new or empty, made (selftest, run)
#   LAB_TIMEOUT  seconds the job may run inside dom0 (selftest, run)
#   LAB_LIBVIRT  0|1: the self-test's libvirt xen:///system case (selftest)
#   LAB_BIN      the vmdiskcmp binary for dom0 (run)
#   LAB_HELPERS  the agent and runner beside it, if any (run): to
#                /lab/in/guest-agent, where /lab/in/bin/vmdiskcmp finds them
#                as in a build tree
#   LAB_FILES    HOST NAME pairs (run): HOST to /lab/in/files/NAME, the
#                job's working directory (--file)
#   LAB_STAGE    HOST PATH pairs (run, --prepared): HOST to /lab/in/PATH:
#                guest-template/ (dom0's default guest template, found by
#                vmdiskcmp beside itself) and prepare-cache/KEY/ (the
#                prepared image, copied into LAB_PREPARE_CACHE before the
#                jobs: vmdiskcmp finds it prepared, a cache hit)
#   LAB_PREPARE_CACHE  dom0's prepare cache (vmdiskcmp's default --cache-dir)
#   LAB_JOBS     one element a job (run): its vmdiskcmp arguments, complete
#                (--out) and quoted for sh
#   LAB_JOB_LIBVIRT  0|1 a job: it drives libvirt (libvirtd starts first)
#
# build     builds the dom0 of the lab (build-dom0.sh; cached under LAB_CACHE).
# selftest  boots the lab once and runs jobs/selftest.sh in dom0: PV domUs
#           (mini-domu.sh) with an image and an LV, backends read from
#           xenstore; no vmdiskcmp inside.
# run       boots the lab once and runs the jobs in dom0, one after the
#           other in the same boot (all jobs run; the exit status is the
#           first failing job's).  Afterwards dom0/after-jobs.txt lists what
#           is left: xl domains, LVs, loop devices, libvirt domains; jobs.txt
#           each job's exit status.
# Results: LAB_OUT gets dom0's /lab/out (job.log, job-exit, dom0/ logs and
# facts, result/ ...) and LAB_OUT/lab/ (serial.log, stages.txt, qemu.cmd,
# request).
# Exit status: the job's, or 1 if a lab stage failed (one line names it), 2
# without a request.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lab.conf"

[ $# -eq 1 ] && [ -r "$1" ] || { echo "usage: lab.sh REQUEST (a request written by vmdiskcmp lab)" >&2; exit 2; }
request=$1
LAB_OUT= LAB_TIMEOUT=3600 LAB_BOOT_DOM0_MEM_MIB= LAB_LIBVIRT=0 LAB_BIN= LAB_HELPERS=() LAB_FILES=() LAB_STAGE=()
LAB_PREPARE_CACHE=/var/cache/vmdiskcmp LAB_JOBS=() LAB_JOB_LIBVIRT=()
. "$request"
cache=$LAB_CACHE out=$LAB_OUT timeout=$LAB_TIMEOUT
# dom0's memory for the boot, when the request names it (boot-lab.sh)
[ -z "${LAB_BOOT_DOM0_MEM_MIB:-}" ] || export LAB_BOOT_DOM0_MEM_MIB

lab_dir() {
    local d
    d=$(bash "$here/build-dom0.sh" "$cache" | tail -n1) || return 1
    [ -f "$d/complete" ] || return 1
    echo "$d"
}

staging=
cleanup() { [ -n "$staging" ] && rm -rf "$staging" "$staging.tar"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

boot() {
    local labd=$1 rc
    # every job installs the lean hotplug block script first (xen-block-lab)
    cp "$here/xen-block-lab" "$staging/xen-block-lab"
    tar -chSf "$staging.tar" -C "$staging" . || { echo "vmdiskcmp lab: stage 'input' failed: cannot write $staging.tar" >&2; return 1; }
    bash "$here/boot-lab.sh" "$labd" "$staging.tar" "$out" "$timeout"
    rc=$?
    rm -f "$staging.tar"
    {
        echo "lab: $labd"
        cat "$labd/complete"
        echo "outer-qemu: $(${QEMU_SYSTEM:-qemu-system-x86_64} --version | head -n1)"
        echo "note: EMULATED HARDWARE (Xen under QEMU TCG): numbers are for function and relative checks only"
    } >"$out/lab/lab-facts.txt" 2>/dev/null
    cp "$labd/versions.txt" "$out/lab/dom0-packages.txt" 2>/dev/null
    return $rc
}

# keep the request with the results (what this lab run was asked to do)
keep_request() { mkdir -p "$out/lab" && cp "$request" "$out/lab/request"; }

case $LAB_ACTION in
build)
    lab_dir >/dev/null || exit 1
    ;;
selftest)
    keep_request
    labd=$(lab_dir) || exit 1
    staging=$(mktemp -d "$cache/.in-XXXXXX")
    mini=$cache/mini-$( (cat "$here/mini-domu.sh"; ls /boot/vmlinuz-*) | sha256sum | cut -c1-12)
    if [ ! -s "$mini/initrd.img" ]; then
        bash "$here/mini-domu.sh" "$mini.tmp" >/dev/null && mv "$mini.tmp" "$mini" ||
            { rm -rf "$mini.tmp"; echo "vmdiskcmp lab: stage 'mini-domu' failed" >&2; exit 1; }
    fi
    cp -r "$mini" "$staging/mini"
    cp "$here/jobs/selftest.sh" "$staging/job.sh"
    echo "LAB_JOB_TIMEOUT=$timeout LAB_SELFTEST_LIBVIRT=$LAB_LIBVIRT; export LAB_SELFTEST_LIBVIRT" >"$staging/job.env"
    boot "$labd"
    ;;
run)
    bin=$LAB_BIN
    keep_request
    labd=$(lab_dir) || exit 1
    staging=$(mktemp -d "$cache/.in-XXXXXX")
    mkdir -p "$staging/bin" "$staging/guest-agent" "$staging/files" "$staging/lib"
    # shared libraries the host-built binary needs that dom0 lacks (e.g.
    # libguestfs.so.0, linked but never launched in the lab) travel with it
    # from the host (same Debian release); the job sets LD_LIBRARY_PATH
    ldd "$bin" | grep -q 'not found' && { echo "vmdiskcmp lab: stage 'inject' failed: $bin has unresolved libraries on this host: $(ldd "$bin" | grep 'not found' | xargs)" >&2; exit 1; }
    ldd "$bin" | awk '/=> \// { print $1, $3 }' | sort -u | while read -r so path; do
        grep -qx -F "$so" "$labd/sonames.txt" || cp -L "$path" "$staging/lib/$so"
    done
    echo "vmdiskcmp lab: [progress] inject: $(ls "$staging/lib" | wc -l) host libraries dom0 lacks: $(ls "$staging/lib" | xargs)" >&2
    cp "$bin" "$staging/bin/vmdiskcmp"
    for h in "${LAB_HELPERS[@]}"; do cp "$h" "$staging/guest-agent/"; done
    # HOST NAME and HOST PATH pairs: links, followed when the input tar is written
    set -- "${LAB_FILES[@]}"
    while [ $# -ge 2 ]; do ln -s "$1" "$staging/files/$2"; shift 2; done
    set -- "${LAB_STAGE[@]}"
    while [ $# -ge 2 ]; do mkdir -p "$staging/$(dirname "$2")" && ln -s "$1" "$staging/$2"; shift 2; done
    {
        echo '#!/bin/sh'
        echo '# written by vmdiskcmp lab run (POSIX sh, run by dom0 as sh job.sh)'
        echo 'PATH=$LAB_IN/bin:$PATH; export PATH'
        echo 'LD_LIBRARY_PATH=$LAB_IN/lib; export LD_LIBRARY_PATH'
        echo 'cd "$LAB_IN/files" || exit 1'
        echo '# libxl times hotplug scripts out after 40 s: see xen-block-lab'
        echo 'cp /etc/xen/scripts/block /etc/xen/scripts/block.xen && install -m 755 "$LAB_IN/xen-block-lab" /etc/xen/scripts/block'
        echo '# every domU console (xenconsoled logs) also goes to the serial log, live'
        echo '( seen=; while :; do for f in /var/log/xen/console/guest-*.log; do [ -f "$f" ] || continue
            case " $seen " in *" $f "*) continue ;; esac; seen="$seen $f"
            tail -n +1 -F "$f" 2>/dev/null | sed -u "s|^|[${f##*/}] |" >/dev/console &
          done; sleep 5; done ) </dev/null >/dev/null 2>&1 &'
        echo '# the default --image-dir, which vmdiskcmp uses but does not create'
        echo 'mkdir -p /var/lib/vmdiskcmp'
        echo '# the guest prepared on the host, where a dom0 that prepared it keeps it'
        echo "pc='$(printf %s "$LAB_PREPARE_CACHE" | sed "s/'/'\\\\''/g")'"
        echo 'if [ -d "$LAB_IN/prepare-cache" ]; then mkdir -p "$pc" && cp -R "$LAB_IN/prepare-cache/." "$pc/" ||'
        echo '    { echo "vmdiskcmp lab: cannot seed the prepare cache $pc"; exit 1; }; fi'
        echo 'rc=0 libvirt=0'
        n=${#LAB_JOBS[@]}
        for ((k = 1; k <= n; k++)); do
            if [ "${LAB_JOB_LIBVIRT[k-1]}" = 1 ]; then
                # the monolithic libvirt daemon, as on the host, started only
                # now (never beside an earlier xl job); its QEMU driver wants
                # the group libvirt-qemu (qemu.conf)
                echo 'if [ $libvirt = 0 ]; then libvirt=1'
                echo '  getent group libvirt-qemu >/dev/null || groupadd -r libvirt-qemu'
                echo '  pgrep -x virtlogd >/dev/null || virtlogd -d'
                echo '  pgrep -x libvirtd >/dev/null || libvirtd -d'
                echo '  i=0; while [ ! -S /run/libvirt/libvirt-sock ] && [ $i -lt 120 ]; do sleep 1; i=$((i+1)); done'
                echo 'fi'
            fi
            echo "echo \"vmdiskcmp lab: job $k of $n\""
            echo "( set -x; exec vmdiskcmp ${LAB_JOBS[k-1]} ); r=\$?"
            echo "echo \"vmdiskcmp lab: job $k exit \$r\"; echo \"job=$k exit=\$r\" >>\"\$LAB_OUT/jobs.txt\""
            echo '[ $rc != 0 ] || rc=$r'
        done
        echo '# what is left in dom0 after the jobs: domains, LVs, loop devices, libvirt domains'
        echo '{ echo "# xl list"; xl list; echo "# lvs"; lvs --noheadings -o lv_name,vg_name 2>&1; echo "# losetup -a"; losetup -a
            [ $libvirt = 0 ] || { echo "# virsh list --all"; virsh -c xen:///system list --all --name; }
          } >"$LAB_OUT/dom0/after-jobs.txt" 2>&1'
        echo 'exit $rc'
    } >"$staging/job.sh"
    echo "LAB_JOB_TIMEOUT=$timeout" >"$staging/job.env"
    boot "$labd"
    ;;
*)
    echo "vmdiskcmp lab: $request: unknown LAB_ACTION '$LAB_ACTION'" >&2; exit 2 ;;
esac
