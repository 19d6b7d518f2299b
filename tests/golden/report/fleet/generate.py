#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes the fleet fixtures of `vmdiskcmp merge` (tests/integration/
report-merge.sh): made-up `vmdiskcmp --image --lvm --vg vg0 --dom0 --runs 5`
results of three hosts, one directory each (the host's name):

  xen01   kernel 6.1.0-27-amd64, Xen 4.17.3, SAMSUNG MZ7LH960, mq-deadline:
          the image 12-15 % slower than the LV on block output/input
  xen01b  xen01's twin (same facts and ratios, other noise): same choice
  xen02   kernel 6.1.0-28-amd64, Xen 4.17.5, INTEL SSDPE2KX010T8, none:
          the image 10-12 % faster than the LV on block output/input

Value = base x ratio x (1 + drift_r) x (1 + e), drift_r ~ N(0, 2 %) shared
by the targets of repetition r (the boot), e ~ N(0, 1 %) per value;
random.Random(seed) per host.  Run once: python3 generate.py (writes
HOST/result.json beside it).  Its numbers mean nothing."""
import json
import os
import random

N = 5
TESTS = [  # id, unit, lvm base, %CP
    ("putc", "K/sec", 3000, 99),
    ("put_block", "K/sec", 900000, 30),
    ("rewrite", "K/sec", 400000, 20),
    ("getc", "K/sec", 2900, 99),
    ("get_block", "K/sec", 1200000, 12),
    ("seeks", "/sec", 800, 4),
]
HOSTS = {  # name: seed, kernel, xen, disk model, scheduler, image ratio on block tests
    "xen01": (1, "6.1.0-27-amd64", "4.17.3", "SAMSUNG MZ7LH960", "mq-deadline", 0.86),
    "xen01b": (2, "6.1.0-27-amd64", "4.17.3", "SAMSUNG MZ7LH960", "mq-deadline", 0.87),
    "xen02": (3, "6.1.0-28-amd64", "4.17.5", "INTEL SSDPE2KX010T8", "none", 1.11),
}
BLOCK = ("put_block", "rewrite", "get_block")


def host_doc(name, seed, kernel, xen, model, sched, ratio):
    rng = random.Random(seed)
    drift = [rng.gauss(0, 0.02) for _ in range(N)]
    runs = []
    for r in range(N):
        for t in ("image", "lvm", "dom0"):
            samples = []
            for tid, unit, base, cp in TESTS:
                k = {"image": ratio if tid in BLOCK else 1.0, "lvm": 1.0, "dom0": 1.2}[t]
                v = round(base * k * (1 + drift[r]) * (1 + rng.gauss(0, 0.01)), 1)
                samples.append({"test": tid, "unit": unit, "value": v, "cpu_percent": cp,
                                "too_fast": False, "failed": False, "error": None})
            runs.append({"target": t, "repetition": r, "status": "ok", "error": None,
                         "metadata": {"tool": "vmdiskcmp-agent 0.1.0", "hostname": name,
                                      "ram_mib": 1024 if t == "dom0" else 256,
                                      "seed": str(40 + r), "file_size_mib": 2048, "chunk_size": 8192,
                                      "path": "/var/tmp/vdc" if t == "dom0" else "/mnt/t",
                                      "fs_type": "ext4", "direct_io": False, "per_char": "syscall"},
                         "samples": samples})
    targets = [
        {"name": "image", "kind": "image", "where": "domU",
         "backend": {"type": "phy", "source": "xenstore", "vdev": "xvdb", "mode": "w"},
         "storage": {"path": "/srv/vdc/image.img", "size_bytes": 4294967296, "format": "raw",
                     "alloc": "sparse"}, "filesystem": {"type": "ext4"}},
        {"name": "lvm", "kind": "lvm", "where": "domU",
         "backend": {"type": "phy", "source": "xenstore", "vdev": "xvdb", "mode": "w",
                     "physical_device": "/dev/vg0/vdc-lvm"},
         "storage": {"path": "/dev/vg0/vdc-lvm", "size_bytes": 4294967296, "vg": "vg0", "lv": "vdc-lvm"},
         "filesystem": {"type": "ext4"}},
        {"name": "dom0", "kind": "dom0", "where": "dom0", "filesystem": {"type": "ext4"}},
    ]
    return {
        "format": "vmdiskcmp-result", "format_version": 1,
        "producer": {"name": "vmdiskcmp", "version": "0.1.0"},
        "experiment": {
            "id": f"2026-12-02T040000Z-{name}", "date": "2026-12-02T04:00:00Z",
            "command_line": "vmdiskcmp --image --lvm --vg vg0 --dom0 --runs 5 --seed 40",
            "seed": "40", "runs_per_target": N, "order": "rotated", "runs_policy": {"mode": "fixed"},
            "emulated": False,
            "host": {"hostname": name, "kernel": kernel, "cpu_count": 16, "ram_mib": 1024,
                     "image_dir": {"path": "/srv/vdc", "fs_type": "ext4", "device": "/dev/sda2",
                                   "rotational": False, "scheduler": sched, "model": model}},
            "hypervisor": {"driver": "libxl", "xen_version": xen, "libxl_version": "4.17"},
            "guest": {"memory_mib": 256, "vcpus": 1},
        },
        "targets": targets,
        "runs": runs,
    }


here = os.path.dirname(os.path.abspath(__file__))
for name, args in HOSTS.items():
    os.makedirs(os.path.join(here, name), exist_ok=True)
    with open(os.path.join(here, name, "result.json"), "w") as f:
        json.dump(host_doc(name, *args), f, indent=1)
        f.write("\n")
