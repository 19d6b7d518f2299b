#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The emulated Xen lab end to end: Xen 4.17 + Debian 12 dom0 under
# QEMU TCG, built by `vmdiskcmp lab build` (debootstrap; cached in
# $top_builddir/lab-cache, so only the first run on a machine pays for it).
#
# 1. By default (VDC_LAB_MAIN_JOB=0 turns it off), with a working controller (`vmdiskcmp run`,
#    `vmdiskcmp prepare`):
#    the guest image is prepared on this host (libguestfs never runs in the
#    lab; `lab run --prepared` hands in its template as dom0's default
#    guest and seeds dom0's prepare cache with it), then the main job runs
#    inside the lab with no hypervisor, VG or guest named, `--image --lvm
#    --dom0 --runs 3 --image-backend tap,qdisk` (four targets) running only
#    the lab-sized randread-4k-qd32 workload (templates/lab/, --tests
#    workloads), each agent told the memory it has (the domU's 128 MiB;
#    dom0's agent in a 32 MiB memory cgroup, --dom0-memory-max):
#    its plan.json must state the choices (libxl, VG lab, the template),
#    the guest must come from the cache (no appliance), and result.json
#    must name the backends xenstore gave: phy over a loop
#    device for the default image spec, qdisk for --image-backend qdisk,
#    phy for the LV; a dom0 target; >= 3 ok runs per target, each with
#    randread-4k-qd32's IOPS and p99 (report.txt and workloads.csv show
#    them per target); the domU agents told 128 MiB, dom0's cgroup (v2,
#    memory.max read back) recorded as its memory; no under-2x-ram flag;
#    marked emulated.  In the SAME boot (VDC_LAB_LIBVIRT=0 turns it off), a second
#    job through libvirt xen:///system, `--image --lvm --dom0 --runs 2`
#    with the same workload:
#    the backends come from the live domain XML (file disk, driver phy;
#    block disk, driver phy); >= 2 ok runs per target, with the workload's
#    IOPS and p99; and after both jobs
#    dom0 has no domU, no LV, no loop device and no libvirt domain left.
#    Last, `vmdiskcmp --image --lvm --dom0 --dry-run` typed with nothing
#    else: it must plan the VG and the guest it chose (prepared: cached).
#    While the lab runs, the jobs' progress lines reach this stderr.
# 2. Otherwise (or also, with VDC_LAB_SELFTEST=1): the lab self-test
#    (jobs/selftest.sh), PV domUs created with xl by hand: 'tap:aio:IMG'
#    must come out as phy over /dev/loopN, backendtype=qdisk as qdisk,
#    'phy:/dev/lab/LV' as phy, and each domU must write and read back each
#    disk.  It pins the backend facts without vmdiskcmp in the way.
# Either way nothing may be left running, attached or mounted on this host.
# Skips only without root, QEMU or debootstrap; a lab that breaks FAILS.
# Time: measured in doc/lab.md.
. "$top_srcdir/tests/lib.sh"
need_root
[ -n "${QEMU_SYSTEM:-}" ] && [ -x "$QEMU_SYSTEM" ] || skip "needs qemu-system-x86_64"
need_cmd debootstrap
[ -x "$VMDISKCMP" ] || fail "vmdiskcmp not built at $VMDISKCMP"

cache=${VDC_LAB_CACHE:-$top_builddir/lab-cache}
export VDC_LAB_CACHE="$cache"
work=$(mktemp -d "$top_builddir/lab-e2e-XXXXXX")
trap 'rm -rf "$work"' EXIT

# what the host has before, to prove the lab leaves nothing behind
snapshot() {
    { losetup -a | grep -F "$cache" ; grep -F "$cache" /proc/mounts
      pgrep -a -f "qemu-system.*$cache"; ls -d "$cache"/.run-* "$cache"/.in-* "$cache"/.build-* 2>/dev/null
    } 2>/dev/null | sort
}
before=$(snapshot)

t0=$(date +%s)
timeout 2400 "$VMDISKCMP" lab build || fail "lab build failed (see above)"
t1=$(date +%s)
echo "lab build: $((t1 - t0)) s"

# The main job in the lab runs by default (VDC_LAB_MAIN_JOB=0 turns it
# off): with the per-char tests skipped (--per-char-size 0) the whole lab
# run, 4 targets x 3 runs, took 565 s here (doc/lab.md).
controller=no
if [ "${VDC_LAB_MAIN_JOB:-1}" = 1 ] &&
   "$VMDISKCMP" run --help >/dev/null 2>&1 && "$VMDISKCMP" prepare --help >/dev/null 2>&1; then
    controller=yes
fi

# jq_check FILE FILTER WHAT: FILTER must print true
jq_check() {
    [ "$(jq -r "$2" "$1" 2>/dev/null)" = true ] || fail "$3 ($(basename "$1"): jq '$2')"
}

# workload_check RESULT_DIR: every ok run of every target holds the
# randread-4k-qd32 workload's IOPS and p99 (the agent's job engine in the
# domU, through the control disk, and in dom0), and the report shows them
# per target
workload_check() {
    jq_check "$1/result.json" '[.runs[] | select(.status == "ok") | [.samples[] | select(.test == "workload_read" and .workload.name == "randread-4k-qd32" and .workload.on == "file" and .value > 0 and .workload.clat_us.p99 > 0 and .workload.job.iodepth == 32)] | length == 1] | (length > 0 and all)' \
        "a run without randread-4k-qd32's IOPS and p99"
    jq_check "$1/result.json" '.format_version == 2' "result.json with workloads: expected format_version 2"
    for t in $(jq -r '.targets[].name' "$1/result.json"); do
        grep -q "^$t,randread-4k-qd32,file,read,workload_read," "$1/workloads.csv" ||
            fail "target $t: no randread-4k-qd32 row in $1/workloads.csv"
        grep -q "^  Read  $t  *n=[0-9]* .* IO/sec .* p99 [0-9]" "$1/report.txt" ||
            fail "target $t: no randread-4k-qd32 IOPS/p99 row in $1/report.txt"
    done
}

if [ "$controller" = yes ]; then
    need_cmd jq
    # the guest is prepared on this host (libguestfs never runs in the lab)
    tdir=$top_builddir/guest-template
    sh "$top_srcdir/templates/guest/build-template.sh" "$tdir" >/dev/null ||
        fail "guest template build failed"
    runner=$top_builddir/guest-agent/vmdiskcmp-runner
    # libguestfs ignores its environment (force_tcg too) when the cache dir
    # does not exist: make it first
    mkdir -p "$top_builddir/lab-guestfs-cache"
    LIBGUESTFS_BACKEND=direct LIBGUESTFS_BACKEND_SETTINGS=force_tcg \
    LIBGUESTFS_CACHEDIR=$top_builddir/lab-guestfs-cache \
        timeout 900 "$VMDISKCMP" prepare -q --guest-image "$tdir/guest.img" --agent "$VDC_AGENT" \
        --runner "$runner" --cache-dir "$top_builddir/lab-prepare-cache" --out "$work/guest.img" ||
        fail "vmdiskcmp prepare on the host failed"
    t1=$(date +%s)
    main=$work/main
    # what both jobs measure: only the lab-sized randread-4k-qd32 (--tests
    # workloads; direct=1: no page cache in its path, so its validity does
    # not rest on bonnie++'s 2x-RAM rule and it writes no test file), each
    # agent told the memory it runs in: in the domU the guest's 128 MiB
    # (--agent-ram defaults to --guest-memory), in dom0 a memory cgroup of
    # 32 MiB (--dom0-memory-max), whose limit dom0 reads back and records.
    # The bonnie++ tests need files twice the RAM (256 MiB here, about 5
    # minutes a target under TCG in TCG, or an hour with O_DIRECT's 8 KiB
    # requests): the README's main job runs them at valid sizes; the
    # domU's bonnie++ pass through the runner is run-libvirt-qemu.sh's.
    # --size sizes the disks (the workload's 16 MiB file fits).
    sizes="--guest-memory 128 --size 32M --dom0-memory-max 32 --tests workloads"
    libvirt=${VDC_LAB_LIBVIRT:-1}
    # the workload, lab-sized (3 s a job), handed to dom0 as a file
    wl="--workload /lab/in/files/randread-4k-qd32.fio"
    # no --hypervisor, --vg or guest: dom0's vmdiskcmp chooses them
    set -- --image --image-backend tap,qdisk --lvm --dom0 --runs 3 --seed 42 \
        $sizes --timeout 1200 $wl
    # the libvirt job (measured: ~5 min more in the same boot, doc/lab.md)
    if [ "$libvirt" = 1 ]; then
        set -- "$@" --then \
            --hypervisor libvirt --connect xen:///system --image --lvm --dom0 --runs 2 --seed 42 \
            $sizes --timeout 1200 $wl
    fi
    # the command as users type it, planned only (last: the others keep
    # their result directories; the lab adds no --out to a dry run)
    set -- "$@" --then --image --lvm --dom0 --dry-run
    timeout 5400 "$VMDISKCMP" lab run --out "$main" --prepared "$work/guest.img" --timeout 4800 \
        --file "$top_srcdir/templates/lab/randread-4k-qd32.fio" -- "$@" 2> "$work/lab-stderr"
    rc=$?
    cat "$work/lab-stderr" >&2
    echo "lab run (main job): $(( $(date +%s) - t1 )) s (exit $rc)"
    cat "$main/lab/stages.txt" 2>/dev/null
    r=$main/result/result.json
    [ -f "$r" ] || { tail -n 30 "$main/job.log" >&2 2>/dev/null
        fail "no result.json came back from the lab (job log: $main/job.log, serial: $main/lab/serial.log)"; }
    [ "$rc" = 0 ] || { tail -n 30 "$main/job.log" >&2; fail "the main job in the lab exited $rc"; }
    jq_check "$r" '.experiment.emulated == true' "result not marked as emulated"
    jq_check "$r" '[.targets[] | select(.name == "image")][0].backend | .source == "xenstore" and .type == "phy" and (.physical_device | startswith("/dev/loop"))' \
        "image (the default spec, tap:aio:): expected phy over a loop device, read from xenstore"
    jq_check "$r" '[.targets[] | select(.requested.image_backend == "qdisk")][0].backend | .source == "xenstore" and .type == "qdisk"' \
        "image with --image-backend qdisk: expected the qdisk backend, read from xenstore"
    jq_check "$r" '[.targets[] | select(.kind == "lvm")][0].backend | .source == "xenstore" and .type == "phy"' \
        "LV: expected phy (blkback), read from xenstore"
    jq_check "$r" '[.targets[] | select(.kind == "dom0")] | length == 1' "no dom0 baseline target"
    # what each agent was told: the domU's RAM, and dom0's cgroup limit,
    # read back in dom0 (cgroup v2 there) and recorded as its memory; no
    # test file, so nothing under 2x RAM to flag
    jq_check "$r" '[.targets[] | select(.where == "domU") | .name] as $d | [.runs[] | select(.status == "ok" and (.target as $t | $d | index($t)) and .metadata.ram_mib != null) | .metadata.ram_mib == 128] | (length > 0 and all)' \
        "a domU agent not told the guest's 128 MiB"
    jq_check "$r" '[.targets[] | select(.where == "dom0")][0] | .memory_mib == 32 and (.provenance.memory_mib | test("^--dom0-memory-max 32: memory cgroup v2 /sys/fs/cgroup/.*vmdiskcmp-[^ ]*, memory.max 33554432 bytes read back"))' \
        "dom0: expected its 32 MiB memory cgroup (v2, memory.max read back) recorded as its memory"
    jq_check "$r" '[.runs[] | select(.target == "dom0" and .status == "ok") | .metadata.ram_mib == 32] | (length > 0 and all)' \
        "dom0 agent: expected -r 32, its cgroup's limit"
    grep -q 'test file .* is under twice' "$main/result/report.txt" &&
        fail "report.txt warns of a test file under 2x RAM (the agents were told their real memory)"
    for t in $(jq -r '.targets[].name' "$r"); do
        n=$(jq --arg t "$t" '[.runs[] | select(.target == $t and .status == "ok")] | length' "$r")
        [ "$n" -ge 3 ] || fail "target $t: $n ok runs, expected at least 3"
    done
    [ -s "$main/result/report.txt" ] || fail "no report.txt rendered"
    workload_check "$main/result"
    # what dom0's vmdiskcmp chose, stated in its plan; the guest from the cache
    p=$main/result/plan.json
    jq_check "$p" '[.chosen[] | select(.option == "--hypervisor")][0].value == "libxl"' "plan: hypervisor libxl not stated as chosen"
    jq_check "$p" '[.chosen[] | select(.option == "--vg")][0].value == "lab"' "plan: VG lab not stated as chosen"
    jq_check "$p" '[.chosen[] | select(.option == "--guest-image")][0].value == "/lab/in/guest-template/guest.img"' \
        "plan: the handed-in template not stated as the chosen guest"
    grep -a -q "guest image /var/cache/vmdiskcmp/[0-9a-f]*/guest.img (cache hit: no appliance launched)" "$main/job.log" ||
        fail "the main job did not find the prepared guest in dom0's cache (job.log: $main/job.log)"
    # the jobs' progress came to this stderr while the lab ran
    grep -q '^vmdiskcmp: \[progress\] lab job: step 1/' "$work/lab-stderr" ||
        fail "lab run did not show the job's progress lines on stderr"
    echo "PASS: main job in the lab: $(jq -r '[.targets[] | .name + "=" + (.backend.type // "local")] | join(" ")' "$r")"
    if [ "$libvirt" = 1 ]; then
        cat "$main/jobs.txt" 2>/dev/null
        grep -qx 'job=2 exit=0' "$main/jobs.txt" || fail "the libvirt job did not exit 0 (jobs.txt: $(tr '\n' ' ' <"$main/jobs.txt" 2>/dev/null))"
        r=$main/result-2/result.json
        [ -f "$r" ] || fail "no result.json came back from the libvirt job"
        jq_check "$r" '.experiment.emulated == true' "libvirt: result not marked as emulated"
        jq_check "$r" '[.targets[] | select(.kind == "image")][0].backend | .source == "libvirt-live-xml" and .type == "file" and .driver_name == "phy"' \
            "libvirt image: expected a file disk with driver phy in the live domain XML"
        jq_check "$r" '[.targets[] | select(.kind == "lvm")][0].backend | .source == "libvirt-live-xml" and .type == "block" and .driver_name == "phy" and (.physical_device | startswith("/dev/lab/"))' \
            "libvirt LV: expected a block disk on /dev/lab/ with driver phy in the live domain XML"
        jq_check "$r" '[.targets[] | select(.kind == "dom0")] | length == 1' "libvirt: no dom0 baseline target"
        jq_check "$r" '[.targets[] | select(.where == "dom0")][0].memory_mib == 32' "libvirt: dom0's memory cgroup not recorded"
        for t in $(jq -r '.targets[].name' "$r"); do
            n=$(jq --arg t "$t" '[.runs[] | select(.target == $t and .status == "ok")] | length' "$r")
            [ "$n" -ge 2 ] || fail "libvirt target $t: $n ok runs, expected at least 2"
        done
        [ -s "$main/result-2/report.txt" ] || fail "libvirt: no report.txt rendered"
        workload_check "$main/result-2"
        # nothing left in dom0 after both jobs (virsh lists Domain-0 too)
        a=$main/dom0/after-jobs.txt
        [ -f "$a" ] || fail "no dom0/after-jobs.txt came back"
        cat "$a"
        [ "$(sed -n '/^# xl list/,/^# lvs/p' "$a" | grep -c -v -e '^#' -e '^Name' -e '^Domain-0 ')" = 0 ] ||
            fail "domUs left in dom0 after the jobs ($a)"
        [ "$(sed -n '/^# lvs/,/^# losetup/p' "$a" | grep -c -E '[[:space:]]lab[[:space:]]*$')" = 0 ] || fail "LVs left in dom0 after the jobs ($a)"
        [ "$(sed -n '/^# losetup/,/^# virsh/p' "$a" | grep -c '^/dev/loop')" = 0 ] || fail "loop devices left in dom0 after the jobs ($a)"
        grep -q '^# virsh list --all' "$a" || fail "libvirt domains were not listed after the jobs ($a)"
        [ "$(sed -n '/^# virsh/,$p' "$a" | grep -c -v -e '^#' -e '^$' -e '^Domain-0$')" = 0 ] || fail "libvirt domains left in dom0 after the jobs ($a)"
        echo "PASS: libvirt xen:///system job in the same boot: $(jq -r '[.targets[] | .name + "=" + (.backend.type // "local") + "/" + (.backend.driver_name // "-")] | join(" ")' "$r")"
    fi
    # the bare dry run (the last job): the VG and the guest it chose, and
    # the guest already prepared in dom0's cache
    last=$(grep -c '^job=' "$main/jobs.txt" 2>/dev/null)
    grep -qx "job=$last exit=0" "$main/jobs.txt" || fail "the bare --dry-run job did not exit 0 (jobs.txt)"
    grep -a -q "^  --vg lab: the VG with the most free space that holds the plan's LVs" "$main/job.log" ||
        fail "the bare --dry-run did not state the VG it chose (job.log)"
    grep -a -q "^  --guest-image /lab/in/guest-template/guest.img: the installed guest template" "$main/job.log" ||
        fail "the bare --dry-run did not state the guest it chose (job.log)"
    grep -a -q "^guest: /lab/in/guest-template/guest.img prepared with this agent and runner: cached" "$main/job.log" ||
        fail "the bare --dry-run did not find the guest prepared in dom0's cache (job.log)"
    echo "PASS: the bare command's dry run in dom0 chose VG lab and the handed-in template (cached)"
fi

# the self-test: xl-created PV domUs, both disk kinds, backends from xenstore
# (the main job above covers the same facts through vmdiskcmp: skip it then)
if [ "$controller" = no ] || [ "${VDC_LAB_SELFTEST:-0}" = 1 ]; then
out=$work/selftest
timeout 1800 "$VMDISKCMP" lab selftest --out "$out" --timeout 1200
rc=$?
t2=$(date +%s)
echo "lab selftest: $((t2 - t1)) s (exit $rc)"
cat "$out/lab/stages.txt" 2>/dev/null
res=$out/selftest/results.txt
[ -f "$res" ] || fail "no self-test results came back from dom0 (serial log: $out/lab/serial.log)"
cat "$res"
[ "$rc" = 0 ] || fail "lab selftest exited $rc"
grep -q 'xl-tap disk=xvdb backend=vbd type=phy .*node=/dev/loop' "$res" ||
    fail "tap:aio image: expected blkback over a loop device (phy, node=/dev/loopN) in xenstore"
grep -q 'xl-qdisk disk=xvdb backend=qdisk type=qdisk params=aio:' "$res" ||
    fail "backendtype=qdisk image: expected the qdisk backend in xenstore"
for c in xl-tap xl-qdisk; do
    grep -q "case=$c disk=xvdc backend=vbd type=phy params=/dev/lab/selftest" "$res" ||
        fail "$c: LV: expected phy (blkback) on /dev/lab/selftest in xenstore"
    for d in xvdb xvdc; do
        grep -q "case=$c disk=$d domu=write=ok read=ok" "$res" ||
            fail "$c: the domU did not write and read back $d"
    done
done
grep -q 'selftest status=0' "$res" || fail "self-test reported a failure"
grep -q 'stage=poweroff' "$out/lab/stages.txt" || fail "the lab did not power off cleanly"
fi

after=$(snapshot)
[ "$before" = "$after" ] || fail "left behind on the host: $(echo "$after" | tr '\n' ' ')"
echo "PASS: emulated Xen lab (controller available: $controller)"
