#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes tests/golden/report/hostcost/result.json: the synthetic fixture's
image (libvirt QEMU, blkback-free) and dom0 targets, three runs each, with
made-up samples[].host figures on put_block, get_block and putc as
src/run/hostwatch.c writes them (random.Random(16)).  Run once; the
expected files come from `VDC_REGENERATE=1 report-golden.sh`."""
import json, random, sys, os

here = os.path.dirname(os.path.abspath(__file__))
src = json.load(open(os.path.join(here, "..", "synthetic", "result.json")))
rnd = random.Random(16)
GIB = 1 << 30
LOOP_WHY = ("loop0's work runs on the workqueue loop0, executed by the kernel's shared "
            "unbound kworkers (Linux >= 5.13), whose CPU time includes other workqueues' work")

def host(target, test, rep):
    moved = {"put_block": 2 * GIB, "get_block": 2 * GIB, "putc": 3 << 20}[test]
    ios = moved // {"putc": 4096}.get(test, 262144)
    secs = {"put_block": 6.0, "get_block": 4.0, "putc": 9.0}[test]
    cpu = {}
    att = {}
    if target == "image":
        vcpu = round(secs * rnd.uniform(0.9, 1.0), 2)
        io = round(secs * rnd.uniform(0.25, 0.35), 2)
        cpu.update(qemu=round(vcpu + io, 2), qemu_vcpu=vcpu, qemu_io=io,
                   domu=round(vcpu * 0.97, 2))
        for r in ("qemu", "qemu_vcpu", "qemu_io"):
            att[r] = {"attribution": "exact"}
        busy = round(cpu["qemu"] + rnd.uniform(0.3, 0.6), 2)
        if rep == 2 and test == "get_block":
            # the domU's sample of this run lost its events: not sliced
            pass
    else:
        agent = round(secs * rnd.uniform(0.15, 0.25), 2)
        cpu["agent"] = agent
        att["agent"] = {"attribution": "exact"}
        att["loop_worker"] = {"attribution": "shared", "reason": LOOP_WHY}
        busy = round(agent + rnd.uniform(0.4, 0.9), 2)
    cpu["dom0_busy"] = busy
    cpu["dom0_other"] = round(busy - cpu.get("qemu", cpu.get("agent")), 2)
    h = {"interval_s": secs, "guest_elapsed_s": round(secs - 0.03, 3), "boundary_error_s": 0.1,
         "sliced": not (target == "image" and rep == 2 and test == "get_block"),
         "cpu_s": cpu, "cpu_attribution": att, "bytes": moved, "ios": ios,
         "source": "virDomainBlockStats" if target == "image" else "loop device /sys/block stat"}
    h["cpu_s_per_gib"] = {k: v / (moved / GIB) for k, v in cpu.items()}
    h["cpu_s_per_1000_ios"] = {k: v / (ios / 1000) for k, v in cpu.items()}
    h["dom0_dirty_bytes"] = [4096, 4096 * rnd.randint(1, 9000)]
    h["image_resident_bytes"] = [0, 0]
    h["disk_read_bytes"] = moved if test == "get_block" else 0
    h["disk_write_bytes"] = moved if test != "get_block" else 0
    return h

doc = {k: src[k] for k in ("format", "format_version", "producer", "experiment")}
doc["targets"] = [t for t in src["targets"] if t["name"] in ("image", "dom0")]
doc["runs"] = []
for r in src["runs"]:
    if r["target"] not in ("image", "dom0") or r["repetition"] > 2:
        continue
    r["host"] = {"poll_interval_s": 0.1, "servers": [
        {"role": "qemu", "name": "qemu-system-x86", "pid": 4242, "starttime": 100, "attribution": "exact"},
        {"role": "qemu_vcpu", "name": "CPU 0/TCG", "pid": 4242, "tid": 4250, "starttime": 101,
         "attribution": "exact"}] if r["target"] == "image" else [
        {"role": "agent", "name": "vmdiskcmp-agent", "pid": 5151, "starttime": 200, "attribution": "exact"},
        {"role": "loop_worker", "name": "kworker/u8:3-loop0", "pid": 12, "starttime": 24,
         "attribution": "shared", "reason": LOOP_WHY}]}
    for s in r["samples"]:
        if s["test"] in ("put_block", "get_block", "putc"):
            s["host"] = host(r["target"], s["test"], r["repetition"])
    doc["runs"].append(r)
json.dump(doc, open(os.path.join(here, "result.json"), "w"), indent=1)
