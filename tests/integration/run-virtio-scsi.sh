#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --disk-bus virtio-scsi end to end on this machine's libvirtd and QEMU
# (TCG, qemu:///system), small and once:
#   vmdiskcmp --hypervisor libvirt --connect qemu:///system --accel tcg
#             --image --block LOOPDEV --destroy-data --disk-bus virtio-scsi
#             --runs 1 (8 MiB test files)
# The guest sees its two target disks as sda and sdb (a virtio-scsi
# controller each) and its root and control disks as vda and vdb, so the
# host's vdev of the image target, vdb, is the guest's control disk: the
# runner must find each target by its serial (vmdiskcmp-VDEV, the unit
# serial number page; guest-agent/diskid.h), never by the host's name.
# Checks: exit 0; each target's run ok with its bonnie++ samples;
# targets[].backend.bus virtio-scsi read back from the live domain XML and
# targets[].variant.disk_bus virtio-scsi as planned; the report prints the
# bus read back; each target's guest filesystem layer (fs_block) recorded
# in targets[].alignment as the runner read it in the guest, on the
# guest's SCSI disk (sdX): the block target's equal to the block size
# dumpe2fs reads on the host from the filesystem the guest left on the
# loop device; the report's alignment line gives it; nothing left
# behind.  Run time here: about 2 minutes (the
# guest template and the appliance rebuilt once when they are stale, one
# TCG boot).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-lib.sh"
run_lib_setup run-virtio-scsi 96M

rc=0
"$VMDISKCMP" --hypervisor libvirt --connect qemu:///system --accel tcg \
    --image --block "$loop" --destroy-data --disk-bus virtio-scsi --runs 1 --seed 11 \
    --size 8M --guest-memory 256 --agent-options "-n 0 --per-char=stdio" \
    --guest-image "$template_dir/guest.img" --agent "$VDC_AGENT" --runner "$runner" \
    --cache-dir "$work/cache" --image-dir "$work/img" --out "$work/out" --timeout 600 \
    > "$work/run.out" 2> "$work/run.err" || rc=$?
cat "$work/run.err" >&2
[ "$rc" = 0 ] || fail "the virtio-scsi run: exit status $rc"

python3 - "$work/out/result.json" <<'EOF' || fail "result.json: the virtio-scsi targets"
import json, sys
d = json.load(open(sys.argv[1]))
tg = {t["name"]: t for t in d["targets"]}
names = sorted(n for n in tg if tg[n]["where"] == "domU")
assert len(names) == 2 and any(n.startswith("image") for n in names) and any(n.startswith("block") for n in names), names
for n in names:
    t = tg[n]
    assert t["backend"]["bus"] == "virtio-scsi", (n, t["backend"])
    assert t["backend"]["source"] == "libvirt-live-xml", (n, t["backend"])
    assert t["variant"] == {"disk_bus": "virtio-scsi"}, (n, t.get("variant"))
    assert t["requested"]["disk_bus"] == "virtio-scsi", (n, t["requested"])
    assert "bus='scsi'" in t["requested"]["domain_xml_disk"], t["requested"]["domain_xml_disk"]
    (r,) = [r for r in d["runs"] if r["target"] == n]
    assert r["status"] == "ok", (n, r["status"], r.get("error"))
    tests = {s["test"] for s in r["samples"] if s.get("value") is not None}
    assert "put_block" in tests and "get_block" in tests, (n, sorted(tests))
EOF
# the guest filesystem's block size, read on the host from what the guest
# made on the loop device (the image target's is gone with its image)
need_cmd dumpe2fs
bs=$(dumpe2fs -h "$loop" 2>/dev/null | sed -n 's/^Block size: *//p')
[ -n "$bs" ] || fail "dumpe2fs -h $loop: no block size (the guest's ext4 is not there)"
python3 - "$work/out/result.json" "$bs" <<'EOF' || fail "result.json: the guest filesystem's layers"
import json, sys
d = json.load(open(sys.argv[1]))
host_bs = int(sys.argv[2])
for t in d["targets"]:
    if t["where"] != "domU":
        continue
    al = t["alignment"]
    g = al["guest"]
    assert g["disk"].startswith("sd") and g["source"] == "ext4 superblock", (t["name"], g)
    assert g["physical_block_size"] >= 512, (t["name"], g)
    (fb,) = [l for l in al["layers"] if l["layer"] == "fs_block"]
    assert "offset" not in fb and fb["size"] in (1024, 2048, 4096), (t["name"], fb)
    assert not [l for l in al["layers"] if l["layer"] == "fs_stripe"], (t["name"], al["layers"])
    if t["name"].startswith("block"):
        assert fb["size"] == host_bs, (t["name"], fb, host_bs)
EOF
unfold "$work/out/report.txt" >"$work/out/report.unfolded"
grep -q "^  block[^:]*: alignment: .*in the guest on sd[a-z] (physical block [0-9]*, .*fs_block unit $bs[;,]" "$work/out/report.unfolded" ||
    fail "report.txt does not give the guest filesystem's layer: $(grep -n 'alignment: ' "$work/out/report.txt")"
grep -q "^  image[^:]*: disk: .*virtio-scsi" "$work/out/report.unfolded" ||
    fail "report.txt does not give the bus read back: $(grep -n ': disk: ' "$work/out/report.txt")"
grep -q "^  image[^:]*: variant: disk_bus virtio-scsi (as planned)$" "$work/out/report.unfolded" ||
    fail "report.txt does not give the image target's variant"
nothing_left "$work/out"
echo "ok"
