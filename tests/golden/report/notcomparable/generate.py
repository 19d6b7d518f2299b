#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# The notcomparable fixture: one comparison the headline refuses, the same
# words in every format.  A made-up vmdiskcmp run (image, lvm, dom0; 5
# repetitions; block write, block read and seeks) whose domUs ran 1024 MiB
# files in a 512 MiB guest (valid), while dom0 ran its 1024 MiB file with
# 890 MiB of RAM: under twice the RAM, so every comparison against dom0 has
# no verdict although image's block write is clearly slower (-46 %, which
# Welch alone would call significant).  image against lvm stays comparable.
# Its numbers mean nothing.  Writes result.json beside this script.
import json
import os
import random

rnd = random.Random(24)
means = {
    "image": {"put_block": 250000, "get_block": 410000, "seeks": 420},
    "lvm": {"put_block": 300000, "get_block": 430000, "seeks": 440},
    "dom0": {"put_block": 465000, "get_block": 520000, "seeks": 610},
}
units = {"put_block": "K/sec", "get_block": "K/sec", "seeks": "/sec"}
targets = [
    {"name": "image", "kind": "image", "where": "domU",
     "backend": {"type": "phy", "source": "xenstore", "physical_device": "/dev/loop0", "vdev": "xvdb"}},
    {"name": "lvm", "kind": "lvm", "where": "domU",
     "backend": {"type": "phy", "source": "xenstore", "physical_device": "/dev/vg0/lv", "vdev": "xvdb"}},
    {"name": "dom0", "kind": "dom0", "where": "dom0"},
]
runs = []
for rep in range(5):
    drift = 1 + 0.01 * rnd.uniform(-1, 1)
    for t in ("image", "lvm", "dom0"):
        dom0 = t == "dom0"
        samples = []
        for k in ("put_block", "get_block", "seeks"):
            v = means[t][k] * drift * (1 + 0.02 * rnd.uniform(-1, 1))
            samples.append({"test": k, "unit": units[k], "value": round(v, 1 if k == "seeks" else 0),
                            "cpu_percent": rnd.randint(10, 40), "too_fast": False, "failed": False,
                            "error": None})
        runs.append({"target": t, "repetition": rep, "status": "ok", "error": None,
                     "metadata": {"tool": "vmdiskcmp-agent 0.1.0", "ram_mib": 890 if dom0 else 512,
                                  "seed": str(100 + rep), "file_size_mib": 1024, "chunk_size": 8192,
                                  "path": "/mnt/t", "fs_type": "ext4", "direct_io": False},
                     "samples": samples})
doc = {
    "format": "vmdiskcmp-result",
    "format_version": 1,
    "producer": {"name": "vmdiskcmp", "version": "0.1.0"},
    "experiment": {
        "id": "2026-12-06T090000Z-xen03", "date": "2026-12-06T09:00:00Z",
        "command_line": "vmdiskcmp --image --lvm --vg vg0 --dom0 --runs 5 --size 1G --dom0-size 1G --seed 100",
        "seed": "100", "runs_per_target": 5, "order": "interleaved",
        "runs_policy": {"mode": "fixed"},
        "emulated": False,
        "host": {"hostname": "xen03", "kernel": "6.1.0-27-amd64", "cpu_count": 4, "ram_mib": 890},
        "hypervisor": {"driver": "libxl", "xen_version": "4.17.3", "libxl_version": "4.17"},
        "guest": {"memory_mib": 512, "vcpus": 1},
    },
    "targets": targets,
    "runs": runs,
}
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "result.json"), "w", encoding="utf-8") as f:
    json.dump(doc, f, indent=1)
    f.write("\n")
