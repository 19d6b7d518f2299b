#!/bin/bash
# vmdiskcmp emulated Xen lab: the driver behind `vmdiskcmp lab`.
#
#   lab.sh build    --cache-dir D
#   lab.sh selftest --cache-dir D --out DIR [--libvirt] [--timeout S]
#   lab.sh run      --cache-dir D --out DIR --vmdiskcmp BIN [--file HOST[=NAME]]...
#                   [--prepared IMG] [--timeout S] -- VMDISKCMP_ARGS... [--then VMDISKCMP_ARGS...]...
#
# build     builds the dom0 of the lab (build-dom0.sh; cached under D).
# selftest  boots the lab once and runs jobs/selftest.sh in dom0: PV domUs
#           (mini-domu.sh) with an image and an LV, backends read from
#           xenstore; no vmdiskcmp inside.  --libvirt adds a domU created
#           through libvirt's xen:///system.
# run       boots the lab once and runs `vmdiskcmp VMDISKCMP_ARGS` in dom0;
#           each `--then VMDISKCMP_ARGS` runs one more job after it, in the
#           same boot (job K defaults to --out /lab/out/result-K; all jobs
#           run; the exit status is the first failing job's).  Afterwards
#           dom0/after-jobs.txt lists what is left: xl domains, LVs, loop
#           devices, libvirt domains; jobs.txt each job's exit status.
#           BIN and, if they sit beside it in a build tree, the agent and the
#           runner (guest-agent/) go to /lab/in/bin; every --file to
#           /lab/in/files/NAME (NAME defaults to the base name), which is the
#           working directory of the job.  --prepared IMG hands in a guest
#           image made on this host by `vmdiskcmp prepare --out IMG` with its
#           siblings IMG.manifest, IMG.vmlinuz, IMG.initrd (libguestfs never
#           runs in the lab) and, unless the args name one, adds
#           `--guest-image /lab/in/files/BASENAME`.  Without --out among the
#           args, `--out /lab/out/result` is appended; likewise --agent and
#           --runner pointing at the handed-in ones.
# Results: DIR/ gets dom0's /lab/out (job.log, job-exit, dom0/ logs and
# facts, result/ ...) and DIR/lab/ (serial.log, stages.txt, qemu.cmd).
# Exit status: the job's, or 1 if a lab stage failed, 2 on bad usage.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lab.conf"

usage() { sed -n '3,7p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
bad() { echo "vmdiskcmp lab: $*" >&2; exit 2; }
[ $# -ge 1 ] || usage
cmd=$1; shift
cache= out= bin= prepared= timeout=3600 libvirt=0 files=() args=()
while [ $# -gt 0 ]; do
    case $1 in
        --cache-dir) cache=${2:?}; shift 2 ;;
        --out) out=${2:?}; shift 2 ;;
        --vmdiskcmp) bin=${2:?}; shift 2 ;;
        --file) files+=("${2:?}"); shift 2 ;;
        --prepared) prepared=${2:?}; shift 2 ;;
        --timeout) timeout=${2:?}; shift 2 ;;
        --libvirt) libvirt=1; shift ;;
        --) shift; args=("$@"); break ;;
        *) bad "unknown option '$1' for lab $cmd" ;;
    esac
done
[ -n "$cache" ] || bad "--cache-dir is required"
case "$timeout" in ''|*[!0-9]*) bad "--timeout '$timeout': expected seconds" ;; esac

lab_dir() {
    local d
    d=$(bash "$here/build-dom0.sh" "$cache" | tail -n1) || return 1
    [ -f "$d/complete" ] || return 1
    echo "$d"
}

# prepare_out: DIR must be new or empty; we never overwrite results
prepare_out() {
    [ -n "$out" ] || bad "--out DIR is required"
    if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
        bad "--out '$out' exists and is not empty: expected a new directory"
    fi
    mkdir -p "$out" || bad "cannot create --out '$out'"
    out=$(cd "$out" && pwd)
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

# job_words ARGS...: one job's vmdiskcmp arguments, completed with the
# handed-in agent, runner, prepared guest image and --out (job K: result-K),
# quoted for sh; K is the number of jobs before this one plus 1
job_words() {
    local has_out=0 has_guest=0 has_agent=0 has_runner=0 a q= res
    local -a w=("$@")
    for a in "$@"; do
        case $a in
            --out|--out=*) has_out=1 ;;
            --guest-image|--guest-image=*) has_guest=1 ;;
            --agent|--agent=*) has_agent=1 ;;
            --runner|--runner=*) has_runner=1 ;;
        esac
    done
    # the agent and runner handed in are the ones the job uses
    [ $has_agent = 1 ] || [ ! -x "$staging/bin/vmdiskcmp-agent" ] ||
        w+=(--agent /lab/in/bin/vmdiskcmp-agent)
    [ $has_runner = 1 ] || [ ! -x "$staging/bin/vmdiskcmp-runner" ] ||
        w+=(--runner /lab/in/bin/vmdiskcmp-runner)
    [ -z "$prepared" ] || [ $has_guest = 1 ] || w+=(--guest-image "/lab/in/files/$(basename "$prepared")")
    res=/lab/out/result; [ ${#jobs[@]} = 0 ] || res=/lab/out/result-$(( ${#jobs[@]} + 1 ))
    [ $has_out = 1 ] || w+=(--out "$res")
    for a in "${w[@]}"; do q="$q '$(printf %s "$a" | sed "s/'/'\\\\''/g")'"; done
    printf '%s' "$q"
}

case $cmd in
build)
    lab_dir >/dev/null || exit 1
    ;;
selftest)
    prepare_out
    labd=$(lab_dir) || exit 1
    staging=$(mktemp -d "$cache/.in-XXXXXX")
    mini=$cache/mini-$( (cat "$here/mini-domu.sh"; ls /boot/vmlinuz-*) | sha256sum | cut -c1-12)
    if [ ! -s "$mini/initrd.img" ]; then
        bash "$here/mini-domu.sh" "$mini.tmp" >/dev/null && mv "$mini.tmp" "$mini" ||
            { rm -rf "$mini.tmp"; echo "vmdiskcmp lab: stage 'mini-domu' failed" >&2; exit 1; }
    fi
    cp -r "$mini" "$staging/mini"
    cp "$here/jobs/selftest.sh" "$staging/job.sh"
    echo "LAB_JOB_TIMEOUT=$timeout LAB_SELFTEST_LIBVIRT=$libvirt; export LAB_SELFTEST_LIBVIRT" >"$staging/job.env"
    boot "$labd"
    ;;
run)
    # every input is checked before anything is built or created (the dom0
    # build is a debootstrap when the cache is cold)
    [ -n "$bin" ] && [ -x "$bin" ] || bad "--vmdiskcmp BIN: expected the built vmdiskcmp executable"
    [ ${#args[@]} -gt 0 ] || bad "no vmdiskcmp arguments after --"
    # the shape of ARGS [--then ARGS]... (the jobs themselves are put
    # together below, once the agent and runner are staged: job_words)
    n=0
    for a in "${args[@]}"; do
        if [ "$a" = --then ]; then
            [ $n -gt 0 ] || bad "--then: expected vmdiskcmp arguments before it"
            n=0
        else n=$((n + 1)); fi
    done
    [ $n -gt 0 ] || bad "--then: expected vmdiskcmp arguments after it"
    for f in "${files[@]}"; do
        src=${f%%=*}; name=${f#*=}; [ "$name" = "$f" ] && name=$(basename "$src")
        case "$name" in */*|..|.|'') bad "--file $f: expected HOST_PATH[=NAME] with a plain NAME" ;; esac
        [ -r "$src" ] || bad "--file $f: '$src' not readable"
    done
    if [ -n "$prepared" ]; then
        for f in "$prepared" "$prepared.manifest" "$prepared.vmlinuz" "$prepared.initrd"; do
            [ -r "$f" ] || bad "--prepared $prepared: '$f' missing (expected the output of vmdiskcmp prepare --out)"
        done
    fi
    prepare_out
    labd=$(lab_dir) || exit 1
    staging=$(mktemp -d "$cache/.in-XXXXXX")
    mkdir -p "$staging/bin" "$staging/files" "$staging/lib"
    # shared libraries the host-built binary needs that dom0 lacks (e.g.
    # libguestfs.so.0, linked but never launched in the lab) travel with it
    # from the host (same Debian release); the job sets LD_LIBRARY_PATH
    ldd "$bin" | grep -q 'not found' && { echo "vmdiskcmp lab: stage 'inject' failed: $bin has unresolved libraries on this host: $(ldd "$bin" | grep 'not found' | xargs)" >&2; exit 1; }
    ldd "$bin" | awk '/=> \// { print $1, $3 }' | sort -u | while read -r so path; do
        grep -qx -F "$so" "$labd/sonames.txt" || cp -L "$path" "$staging/lib/$so"
    done
    echo "vmdiskcmp lab: [progress] inject: $(ls "$staging/lib" | wc -l) host libraries dom0 lacks: $(ls "$staging/lib" | xargs)" >&2
    cp "$bin" "$staging/bin/vmdiskcmp"
    bdir=$(cd "$(dirname "$bin")/.." && pwd)
    for a in guest-agent/vmdiskcmp-agent guest-agent/vmdiskcmp-runner; do
        [ -x "$bdir/$a" ] && cp "$bdir/$a" "$staging/bin/"
    done
    for f in "${files[@]}"; do
        src=${f%%=*}; name=${f#*=}; [ "$name" = "$f" ] && name=$(basename "$src")
        ln -s "$(readlink -f "$src")" "$staging/files/$name"
    done
    # the jobs: ARGS [--then ARGS]..., run one after the other in the same
    # boot; job 1 writes /lab/out/result, job K /lab/out/result-K (unless
    # its args name --out); job_words adds the staged agent and runner
    jobs=() cur=()
    for a in "${args[@]}"; do
        if [ "$a" = --then ]; then
            jobs+=("$(job_words "${cur[@]}")"); cur=()
        else cur+=("$a"); fi
    done
    jobs+=("$(job_words "${cur[@]}")")
    if [ -n "$prepared" ]; then
        for f in "$prepared" "$prepared.manifest" "$prepared.vmlinuz" "$prepared.initrd"; do
            ln -s "$(readlink -f "$f")" "$staging/files/$(basename "$f")"
        done
        # a prepared image whose agent or runner differs from the ones handed
        # in would make vmdiskcmp re-prepare, i.e. launch libguestfs in dom0
        for b in agent runner; do
            want=$(sed -n "s/^${b}_sha256=//p" "$prepared.manifest")
            [ ! -x "$staging/bin/vmdiskcmp-$b" ] || [ "$want" = "$(sha256sum <"$staging/bin/vmdiskcmp-$b" | cut -d' ' -f1)" ] ||
                { echo "vmdiskcmp lab: stage 'inject' failed: $prepared was prepared with another vmdiskcmp-$b than $bdir/guest-agent/vmdiskcmp-$b: run vmdiskcmp prepare again" >&2; exit 1; }
        done
    fi
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
        echo 'rc=0 libvirt=0'
        k=1
        for j in "${jobs[@]}"; do
            case " $j " in
                *libvirt*)  # the monolithic libvirt daemon, as on the host, started
                            # only now (never beside an earlier xl job); its
                            # QEMU driver wants the group libvirt-qemu (qemu.conf)
                    echo 'if [ $libvirt = 0 ]; then libvirt=1'
                    echo '  getent group libvirt-qemu >/dev/null || groupadd -r libvirt-qemu'
                    echo '  pgrep -x virtlogd >/dev/null || virtlogd -d'
                    echo '  pgrep -x libvirtd >/dev/null || libvirtd -d'
                    echo '  i=0; while [ ! -S /run/libvirt/libvirt-sock ] && [ $i -lt 120 ]; do sleep 1; i=$((i+1)); done'
                    echo 'fi' ;;
            esac
            echo "echo \"vmdiskcmp lab: job $k of ${#jobs[@]}\""
            echo "( set -x; exec vmdiskcmp$j ); r=\$?"
            echo "echo \"vmdiskcmp lab: job $k exit \$r\"; echo \"job=$k exit=\$r\" >>\"\$LAB_OUT/jobs.txt\""
            echo '[ $rc != 0 ] || rc=$r'
            k=$((k + 1))
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
    usage ;;
esac
