#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The main job for real on this machine: libvirtd (scripts/start-services.sh),
# QEMU under TCG through qemu:///system, the real libguestfs appliance once:
#   vmdiskcmp --hypervisor libvirt --connect qemu:///system --accel tcg
#             --image --block LOOPDEV --destroy-data --dom0 --runs 2 (small sizes)
#             --image-cache host,none (run 1: image and image-nocache, one boot)
#             --workload MIX --workload-on raw,file (run 1: a 1 s randrw fio
#             job on each target's raw device before mkfs, and on a file
#             after the bonnie++ tests)
# Checks: exit 0; 2 ok runs per target read back through the control disk,
# each with the bonnie++ samples and the workloads' on the raw device and
# on a file, told apart (IOPS and p99 per target and per raw/file in
# result.json, workloads.csv and report.txt; the raw pass also on the
# user's --block device, whose second repetition finds the run's own ext4);
# backend facts from the live domain XML; QEMU's host CPU per GiB for the
# image, sliced per test through the control disk's progress block, and the
# dom0 agent's; the cache truth read back (image: QEMU's default, no
# O_DIRECT; image-nocache: cache='none' in the live XML and QEMU holding the
# image with O_DIRECT, per /proc/PID/fdinfo), the images' FIEMAP placement
# and the report's cache lines; the prepare step launched the
# appliance once (a second run is a cache hit); a report was written; and
# nothing is left behind (no domain, no loop device, no image, no mount).
# Then the same command, SIGINT sent once the domU is up: exit 3, teardown
# complete, nothing left behind.  Then an image target whose image
# directory (a small tmpfs) is filled up once the domU is up: the run ends
# within 60 s (not --timeout) naming "image directory FS full", exit 1,
# nothing left behind.  Then a prepared image QEMU cannot open
# (permission): the run stops after its first boot's create, naming the
# cause (no boot, a few seconds).  Then a dom0-only run (no boot) whose second
# workload job outlives --agent-timeout: the first job's results are kept.
# Run time here: about 4-6 minutes (two TCG boots per run, appliance ~25 s;
# the workloads add about 30 s).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-lib.sh"
run_lib_setup run-libvirt-qemu 192M

# a short job (the agent's job engine; fio's option names): reads and
# writes, so both directions come back
printf '[mix-4k-qd4]\nrw=randrw\nrwmixread=70\nbs=4k\niodepth=4\nsize=4m\ntime_based\nruntime=1\n' \
    > "$work/mix.fio"

# run OUT [OPTIONS]: exec, so that in "( run ... ) &" $! is vmdiskcmp itself
run() {
    out=$1; shift
    exec "$VMDISKCMP" --hypervisor libvirt --connect qemu:///system --accel tcg \
        --image --block "$loop" --destroy-data --dom0 --runs 2 --seed 42 \
        --size 8M --dom0-size 8M --guest-memory 256 --dom0-memory-max 256 \
        --agent-options "-n 0 --per-char=stdio" \
        --guest-image "$template_dir/guest.img" --agent "$VDC_AGENT" --runner "$runner" \
        --cache-dir "$work/cache" --image-dir "$work/img" --out "$out" --timeout 600 "$@"
}

# ---- 0: a --block device too small for a raw job's region: one line, exit 2,
# before anything is created (--dry-run: no boot) ----
printf '[far]\nrw=randread\noffset=1g\nsize=4m\n' > "$work/far.fio"
rc=0
"$VMDISKCMP" --dry-run --hypervisor libvirt --connect qemu:///system --accel tcg \
    --block "$loop" --destroy-data --guest-image "$template_dir/guest.img" --image-dir "$work/img" \
    --workload "$work/far.fio" --workload-on raw --out "$work/out0" > /dev/null 2> "$work/run0.err" || rc=$?
[ "$rc" = 2 ] && [ "$(wc -l < "$work/run0.err")" = 1 ] &&
    grep -q "expected at least 1077936128 for --workload-on raw (job \[far\]" "$work/run0.err" ||
    fail "run 0: a --block device smaller than the raw job's region: exit $rc, $(cat "$work/run0.err")"
[ ! -e "$work/out0" ] || fail "run 0: created $work/out0"

# ---- 1: the whole run (every boot is bounded by --timeout, prepare by its own) ----
rc=0
( run "$work/out1" --image-cache host,none --workload "$work/mix.fio" --workload-on raw,file ) \
    > "$work/run1.out" 2> "$work/run1.log" || rc=$?
cat "$work/run1.log" >&2
[ "$rc" = 0 ] || fail "run 1: exit status $rc"
# the run ends with the headline on the terminal: image against the block device
grep -q "^Headline ($work/out1/report.txt):" "$work/run1.out" &&
    grep -q "^  image relative to block: 2 pairs (fixed 2 runs)" "$work/run1.out" ||
    fail "run 1: no headline on stdout: $(cat "$work/run1.out")"
grep -q "prepared now" "$work/run1.log" || fail "run 1: the guest image was not prepared by the appliance"
[ "$(ls "$work/cache" | wc -l)" = 1 ] || fail "run 1: expected one prepared image in the cache"
python3 - "$work/out1/result.json" "$loop" <<'EOF' || fail "run 1: result.json is not what was expected"
import json, sys
d = json.load(open(sys.argv[1]))
runs = {}
for r in d["runs"]:
    runs.setdefault(r["target"], []).append(r)
for t in ("image", "image-nocache", "block", "dom0"):
    rs = runs.get(t, [])
    assert len(rs) == 2, (t, len(rs))
    assert sorted(r["repetition"] for r in rs) == [0, 1], t
    for r in rs:
        assert r["status"] == "ok", (t, r["status"], r.get("error"))
        tests = {s["test"]: s for s in r["samples"]}
        assert "put_block" in tests and "get_block" in tests, (t, list(tests))
        assert r["metadata"]["seed"] == str(42 + r["repetition"]), (t, r["metadata"]["seed"])
        # the workload passes, back through the control disk (domU) or the
        # dom0 agent's files: IOPS and p99 of each job and direction, on
        # the raw device (before mkfs) and on a file, each saying which
        wl = {(s["test"], s["workload"]["name"], s["workload"]["on"]): s
              for s in r["samples"] if "workload" in s}
        assert sorted(wl) == [(d, "mix-4k-qd4", on) for d in ("workload_read", "workload_write")
                              for on in ("file", "raw")], (t, sorted(wl))
        for k, s in wl.items():
            assert s["value"] > 0 and s["unit"] == "IO/sec", (t, k, s["value"])
            assert s["workload"]["clat_us"]["p99"] > 0, (t, k, s["workload"]["clat_us"])
            assert s["workload"]["job"]["iodepth"] == 4, (t, k)
# the same agent options in the domU and in dom0 (same size and RAM here):
# both command lines are built by guest-agent/jobcmd.c from run/step.c's
# options; only the directory and the JSON path differ
def agent_options(r):
    w = r["metadata"]["command_line"].split(" ")
    return w[w.index("--json") + 2:]
opts = {t: agent_options(runs[t][0]) for t in ("image", "block", "dom0")}
assert opts["image"] == opts["block"] == opts["dom0"], opts
assert opts["dom0"][:6] == ["-s", "8", "-r", "256", "-f", "-q"], opts["dom0"]
tg = {t["name"]: t for t in d["targets"]}
for t in ("image", "block", "dom0"):
    assert tg[t]["filesystem"]["mkfs_options"] == "-F -q -E lazy_itable_init=0,lazy_journal_init=0,nodiscard", tg[t]
assert tg["image"]["requested"]["image_cache"] == "host"
assert tg["image"]["backend"]["source"] == "libvirt-live-xml"
assert tg["image"]["backend"]["type"] == "file"
assert tg["image"]["backend"]["vdev"] == "vdb"
assert tg["block"]["backend"]["type"] == "block"
assert tg["block"]["backend"]["physical_device"] == sys.argv[2]
assert tg["dom0"]["where"] == "dom0"
# the cache truth, read back after boot: host is QEMU's default (no cache=
# in the live XML, the image opened without O_DIRECT); none is cache='none'
# in the live XML and QEMU holding the image with O_DIRECT
host, none = tg["image"]["cache"], tg["image-nocache"]["cache"]
assert host["requested"] == "host", host
assert "libvirt_cache" not in host, host
assert host["qemu_o_direct"] is False and host["bypasses_dom0_page_cache"] is False, host
assert none["requested"] == "none", none
assert none["libvirt_cache"] == "none" and none["libvirt_io"] == "native", none
assert none["qemu_pid"] > 0 and none["qemu_pid"] == host["qemu_pid"], (none, host)
assert none["qemu_o_direct"] is True and none["bypasses_dom0_page_cache"] is True, none
assert none["source"] == "libvirt-live-xml,fdinfo", none
assert "error" not in none, none
assert tg["image-nocache"]["requested"]["image_cache"] == "none"
assert "cache='none'" in tg["image-nocache"]["requested"]["domain_xml_disk"]
assert "cache=" not in tg["image"]["requested"]["domain_xml_disk"]
# the dom0 baseline's own loop device: direct I/O, read back from sysfs
assert tg["dom0"]["cache"]["loop_dio"] is True, tg["dom0"]["cache"]
assert tg["dom0"]["cache"]["bypasses_dom0_page_cache"] is True, tg["dom0"]["cache"]
# placement: the image's extents (FIEMAP) on the disk under the work dir
for t in ("image", "image-nocache"):
    pl = tg[t]["placement"]
    assert pl["source"] == "fiemap" and pl["disk"], (t, pl)
    assert pl["mapped_bytes"] > 0 and len(pl["ranges"]) >= 1, (t, pl)
assert d["experiment"]["hypervisor"]["driver"] == "libvirt"
assert d["experiment"]["hypervisor"].get("qemu_version")
assert d["experiment"]["emulated"] is True
# host CPU per backend: QEMU serves the image, its CPU is sliced per test
# from the control disk's progress block; per GiB over what
# virDomainBlockStats says vdb moved
per_gib = []
for r in runs["image"]:
    roles = {s["role"] for s in r["host"]["servers"]}
    assert "qemu" in roles and "qemu_vcpu" in roles, roles
    for s in r["samples"]:
        h = s.get("host")
        if h and h["sliced"] and h.get("bytes", 0) > 0 and "qemu" in h["cpu_s_per_gib"]:
            assert h["source"] == "virDomainBlockStats", h["source"]
            # the process and its vCPU threads are read one after the other:
            # QEMU minus its vCPUs may be a few clock ticks below 0
            assert h["cpu_s"]["qemu_vcpu"] >= 0 and h["cpu_s"]["qemu_io"] > -0.05, h["cpu_s"]
            per_gib.append((s["test"], h["cpu_s_per_gib"]["qemu"]))
assert per_gib and all(v > 0 for _, v in per_gib), per_gib
print("image: QEMU CPU s per GiB:", ", ".join("%s %.1f" % t for t in per_gib))
# the dom0 baseline: the agent's own CPU, the same figures
assert any(s.get("host", {}).get("cpu_s", {}).get("agent") is not None
           for r in runs["dom0"] for s in r["samples"]), "dom0: no agent CPU"
assert d["format_version"] == 2
EOF
grep -q '^image,[a-z_]*,qemu,' "$work/out1/host-cost.csv" || fail "run 1: host-cost.csv has no QEMU row for image"
grep -q '^## Host CPU per backend' "$work/out1/report.md" || fail "run 1: report.md has no host CPU section"
for f in plan.json domain.xml report.txt report.csv workloads.csv runs/image-0.json runs/block-1.json \
         runs/image-0.workloads.json runs/dom0-1.workloads.json workloads/mix-4k-qd4.fio \
         runs/image-0.raw-workloads.json runs/block-1.raw-workloads.json runs/dom0-1.raw-workloads.json; do
    [ -s "$work/out1/$f" ] || fail "run 1: $f missing or empty"
done
grep -q "^image" "$work/out1/report.txt" || fail "run 1: report.txt has no image row"
unfold "$work/out1/report.txt" >"$work/out1.report.unfolded"
grep -q "^  image-nocache: cache: requested none; libvirt cache=none io=native; QEMU pid [0-9]* holds it with O_DIRECT; bypasses the host's page cache" \
    "$work/out1.report.unfolded" || fail "run 1: report.txt does not show image-nocache's cache as read back"
grep -q "^  image: cache: requested host; QEMU pid [0-9]* holds it without O_DIRECT; through the host's page cache" \
    "$work/out1.report.unfolded" || fail "run 1: report.txt does not show image's cache as read back"
# the report: IOPS and p99 per target and job, on a file and on the raw device
for t in image block dom0; do
    for on in file raw; do
        grep -q "^$t,mix-4k-qd4,$on,write,workload_write,2," "$work/out1/workloads.csv" ||
            fail "run 1: workloads.csv has no mix-4k-qd4 $on write row for $t: $(cat "$work/out1/workloads.csv")"
    done
    [ "$(grep -c "^  Read  $t  *n=2 .* IO/sec .* p99 [0-9]" "$work/out1/report.txt")" = 2 ] ||
        fail "run 1: report.txt has not two workload rows (file, raw) for $t"
done
grep -q "^Job mix-4k-qd4 on the raw device: rw=randrw" "$work/out1/report.txt" &&
    grep -q "^Job mix-4k-qd4 on a file: rw=randrw" "$work/out1/report.txt" ||
    fail "run 1: report.txt does not name the raw and the file job"
grep -q '"workload_on" : \[' "$work/out1/plan.json" || fail "run 1: plan.json does not list workload_on"
# the raw pass ran on the device itself, with the run's consent
python3 - "$work/out1/runs/block-1.raw-workloads.json" "$work/out1/result.json" <<'EOF' ||
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
vdev = {t["name"]: t for t in json.load(open(sys.argv[2]))["targets"]}["block"]["backend"]["vdev"]
cl = r["metadata"]["command_line"].split(" ")
assert cl[cl.index("-d") + 1] == "/dev/" + vdev, (cl, vdev)
assert "--destroy-data" in cl, cl
assert all(s["workload"]["on"] == "raw" for s in r["samples"]), r["samples"]
EOF
    fail "run 1: block's raw pass did not run on its vdev with the run's consent"
grep -q '"tests" : \[' "$work/out1/plan.json" && grep -q '"name" : "mix-4k-qd4"' "$work/out1/plan.json" ||
    fail "run 1: plan.json does not list the workloads"
nothing_left "$work/out1"

# ---- 2: SIGINT once the domU is up -------------------------------------------------
# run 1 left ext4 on our loop device, and the block kind refuses a device
# with a signature: blank it (it is the test's own device)
wipefs -q -a "$loop" || fail "wipefs $loop failed"
( run "$work/out2" ) 2> "$work/run2.log" &
pid=$!
i=0
while [ $i -lt 600 ]; do
    grep -qs "^add [0-9]* domain " "$work/out2/journal" && break
    kill -0 $pid 2>/dev/null || break
    sleep 1; i=$((i+1))
done
sleep 5
kill -INT $pid 2>/dev/null || { cat "$work/run2.log" >&2; fail "run 2 ended before the SIGINT"; }
rc=0
wait $pid || rc=$?
cat "$work/run2.log" >&2
[ "$rc" = 3 ] || fail "run 2: exit status $rc after SIGINT, expected 3"
grep -q "cache hit" "$work/run2.log" || fail "run 2: the appliance was launched again (no cache hit)"
grep -q "interrupted" "$work/run2.log" || fail "run 2: no interruption reported"
[ -s "$work/out2/result.json" ] || fail "run 2: no result.json after SIGINT"
nothing_left "$work/out2"

# ---- 3: the image directory's filesystem fills up mid-run ----
# A tmpfs of 80 MiB holds the image (74 MiB, sparse) at the start; once the
# domU is up a filler takes the rest: the guest's writes into its sparse
# image get ENOSPC, QEMU pauses it (werror's default), and the watchdog
# ends the boot naming the full filesystem.  The tmpfs is mounted where
# libvirtd's QEMU sees it (the host's mount namespace), inside $work only.
full="$work/img-full"
mkdir -p "$full"
began=$(date +%s)
full_cleanup() {
    for d in $(virsh -c qemu:///system list --all --name 2>/dev/null | grep "^vmdiskcmp-"); do
        grep -qs "\"$d\"" "$work/out3/plan.json" && virsh -c qemu:///system destroy "$d" >/dev/null 2>&1
    done
    [ -f "$work/out3/journal" ] && "$VMDISKCMP" cleanup "$work/out3" >/dev/null 2>&1
    grep -qF " $full " /proc/self/mountinfo && umount "$full"
    run_lib_cleanup
}
trap full_cleanup EXIT
mount -t tmpfs -o size=80m,mode=0755 vdc-img-full "$full" || fail "run 3: mount tmpfs on $full"
rc=0
"$VMDISKCMP" --hypervisor libvirt --connect qemu:///system --accel tcg --image --runs 1 --seed 42 \
    --size 8M --guest-memory 256 --agent-options "-n 0 --per-char=stdio" \
    --guest-image "$template_dir/guest.img" --agent "$VDC_AGENT" --runner "$runner" \
    --cache-dir "$work/cache" --image-dir "$full" --out "$work/out3" --timeout 600 \
    --no-report > /dev/null 2> "$work/run3.log" &
pid=$!
i=0
while [ $i -lt 1200 ]; do
    seq=$(sed -n 's/^add \([0-9]*\) domain .*/\1/p' "$work/out3/journal" 2>/dev/null)
    [ -n "$seq" ] && grep -qx "done $seq" "$work/out3/journal" && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.5; i=$((i+1))
done
kill -0 $pid 2>/dev/null || { cat "$work/run3.log" >&2; fail "run 3 ended before its domU was up"; }
filled=$(date +%s)
dd if=/dev/zero of="$full/filler" bs=1M 2>/dev/null
wait $pid || rc=$?
took=$(( $(date +%s) - filled ))
cat "$work/run3.log" >&2
echo "run 3: ended $took s after the image directory filled up"
[ "$rc" = 1 ] || fail "run 3: exit status $rc, expected 1"
[ "$took" -le 60 ] || fail "run 3: ended $took s after the image directory filled up, expected at most 60"
grep -q "image directory FS full ($full: [0-9]* bytes free)" "$work/run3.log" ||
    fail "run 3: the cause is not named on stderr"
python3 - "$work/out3/result.json" <<'EOF' || fail "run 3: result.json does not name the cause"
import json, sys
d = json.load(open(sys.argv[1]))
rs = [r for r in d["runs"] if r["target"] == "image"]
assert len(rs) == 1 and rs[0]["status"] == "failed", rs
assert "image directory FS full" in rs[0]["error"], rs[0]["error"]
EOF
[ "$(ls "$full")" = filler ] || fail "run 3: left in the image directory: $(ls "$full")"
rm -f "$full/filler"
umount "$full" || fail "run 3: the image directory's tmpfs is still busy"
nothing_left "$work/out3"
echo "run 3: $(( $(date +%s) - began )) s in all"

# ---- 5: QEMU cannot open the prepared image (a directory it cannot search): no boot ----
# the cache entry of run 1, given as --prepared-image (the user's: never
# chmod'ed by vmdiskcmp) in a directory closed to libvirt-qemu; the create
# fails with QEMU's "Permission denied", which every boot would repeat:
# the run stops after the first boot (of 2) naming it, exit 1
entry=$(ls "$work/cache")
chmod 700 "$work/cache/$entry"
rc=0
"$VMDISKCMP" --hypervisor libvirt --connect qemu:///system --accel tcg --image --runs 2 --seed 42 \
    --size 8M --guest-memory 256 --prepared-image "$work/cache/$entry/guest.img" \
    --agent "$VDC_AGENT" --runner "$runner" --image-dir "$work/img" --out "$work/out5" \
    --timeout 600 --no-report > /dev/null 2> "$work/run5.log" || rc=$?
chmod 755 "$work/cache/$entry"
cat "$work/run5.log" >&2
[ "$rc" = 1 ] || fail "run 5: exit status $rc, expected 1"
[ "$(grep -c "boot domU" "$work/run5.log")" = 1 ] || fail "run 5: the second boot was tried"
grep -q "stopped after boot 1 of 2: the domU could not be created, and every boot would fail the same way: .*Permission denied; 1 boot(s) not run" \
    "$work/run5.log" || fail "run 5: the stop and its cause are not named"
nothing_left "$work/out5"

# ---- 4: a workload stopped in its second job keeps the first (dom0 only: no boot) ----
wipefs -q -a "$loop" || fail "wipefs $loop failed"
printf '[long-read]\nrw=randread\nbs=4k\nsize=4m\ntime_based\nruntime=600\n' > "$work/long.fio"
rc=0
"$VMDISKCMP" --dom0 --dom0-on "$loop" --destroy-data --runs 1 --seed 7 --dom0-size 8M \
    --tests workloads --workload "$work/mix.fio,$work/long.fio" --agent-timeout 6 \
    --agent "$VDC_AGENT" --out "$work/out4" --no-report 2> "$work/run4.log" || rc=$?
cat "$work/run4.log" >&2
[ "$rc" = 1 ] || fail "run 4: exit status $rc, expected 1 (a job was stopped)"
python3 - "$work/out4/result.json" <<'EOF' || fail "run 4: the finished job's results were not kept"
import json, sys
d = json.load(open(sys.argv[1]))
(r,) = d["runs"]
assert r["target"] == "dom0" and r["status"] != "ok", (r["target"], r["status"])
s = {(x["test"], x["workload"]["name"]): x for x in r["samples"]}
for d in ("workload_read", "workload_write"):
    ok = s[(d, "mix-4k-qd4")]
    assert ok["value"] > 0 and not ok["failed"] and ok["workload"]["clat_us"]["p99"] > 0, ok
stopped = s.get(("workload_read", "long-read"))
assert stopped is None or stopped["failed"], stopped
EOF
nothing_left "$work/out4"
echo "ok"
