#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes result.json: a made-up `vmdiskcmp --runs auto` result (the
golden fixture of the headline and of the stop reasons).

Four targets (image and image-qdisk of kind image, lvm, dom0), 8
repetitions.  Value = base x ratio x (1 + drift_r) x (1 + e), drift_r ~
N(0, 4 %) shared by every target of repetition r (the boot), e ~ N(0, 1.5
%) per value; random.Random(12).  Ratios against lvm: the image equal on
the per-char tests, 7-10 % slower on block output/input, 10 % faster on
random create; image-qdisk about half; dom0 15 % above lvm.  seq_stat and
ran_stat are too fast (+++++) everywhere, the image's rewrite failed in
repetition 5.  Stop records: per (image variant, lvm) and test, the
repetition from which the paired 95 % Fieller interval of the ratio had a
relative half-width within 3 % (precision reached, with that half-width),
else max runs (8) with the half-width at 8, or not measurable (too fast).
Run once: python3 generate.py > result.json.  Its numbers mean nothing."""
import json
import math
import random

rng = random.Random(12)
N = 8
TESTS = [  # id, unit, lvm base, image ratio, image-qdisk ratio, %CP
    ("putc", "K/sec", 3000, 1.00, 0.55, 99),
    ("put_block", "K/sec", 900000, 0.93, 0.45, 30),
    ("rewrite", "K/sec", 400000, 0.97, 0.50, 20),
    ("getc", "K/sec", 2900, 1.00, 0.60, 99),
    ("get_block", "K/sec", 1200000, 0.90, 0.40, 12),
    ("seeks", "/sec", 800, 1.02, 0.70, 4),
    ("seq_create", "/sec", 20000, 1.01, 0.80, 45),
    ("seq_stat", "/sec", None, 1, 1, 0),
    ("seq_del", "/sec", 30000, 0.99, 0.75, 40),
    ("ran_create", "/sec", 19000, 1.10, 0.85, 44),
    ("ran_stat", "/sec", None, 1, 1, 0),
    ("ran_del", "/sec", 25000, 1.00, 0.70, 38),
]
TARGETS = [("image", "image", 1), ("image-qdisk", "image", 2), ("lvm", "lvm", 0), ("dom0", "dom0", 3)]
QT = {1: 12.706205, 2: 4.302653, 3: 3.182446, 4: 2.776445, 5: 2.570582, 6: 2.446912, 7: 2.364624}

drift = [rng.gauss(0, 0.04) for _ in range(N)]
values = {}   # (target, test) -> [value or None] by repetition
for t, kind, col in TARGETS:
    for tid, unit, base, r_img, r_q, cp in TESTS:
        vals = []
        for r in range(N):
            if base is None:
                vals.append(None)
                continue
            ratio = (1, r_img, r_q, 1.15)[col]
            vals.append(round(base * ratio * (1 + drift[r]) * (1 + rng.gauss(0, 0.015)), 1))
        values[(t, tid)] = vals
values[("image", "rewrite")][5] = None


def half_width(t, b):
    """relative half-width of the paired Fieller 95 % interval of mean(t)/mean(b)"""
    n = len(t)
    mt, mb = sum(t) / n, sum(b) / n
    vt = sum((x - mt) ** 2 for x in t) / (n - 1) / n
    vb = sum((x - mb) ** 2 for x in b) / (n - 1) / n
    cov = sum((x - mt) * (y - mb) for x, y in zip(t, b)) / (n - 1) / n
    q = QT[n - 1]
    a = mb * mb - q * q * vb
    bq = -2 * (mt * mb - q * q * cov)
    c = mt * mt - q * q * vt
    disc = bq * bq - 4 * a * c
    if a <= 0 or disc < 0:
        return None
    lo, hi = sorted(((-bq - math.sqrt(disc)) / (2 * a), (-bq + math.sqrt(disc)) / (2 * a)))
    ratio = mt / mb
    return max(hi - ratio, ratio - max(lo, 0)) / ratio


stop = []
for t in ("image", "image-qdisk"):
    for tid, *_ in TESTS:
        rec = {"test": tid, "target": t, "reference": "lvm"}
        hw = None
        for k in range(3, N + 1):
            pairs = [(x, y) for x, y in zip(values[(t, tid)][:k], values[("lvm", tid)][:k])
                     if x is not None and y is not None]
            hw = half_width([p[0] for p in pairs], [p[1] for p in pairs]) if len(pairs) >= 2 else None
            if hw is not None and hw <= 0.03:
                rec.update(reason="precision reached", runs=k, half_width_percent=round(100 * hw, 2))
                break
        else:
            if hw is None:
                rec.update(reason="not measurable", runs=N)
            else:
                rec.update(reason="max runs", runs=N, half_width_percent=round(100 * hw, 2))
        stop.append(rec)


def target_json(name, kind):
    where = "dom0" if kind == "dom0" else "domU"
    t = {"name": name, "kind": kind, "where": where}
    if kind == "image":
        backend = "qdisk" if name == "image-qdisk" else "phy"
        t["requested"] = {"image_backend": "qdisk" if backend == "qdisk" else "auto"}
        t["backend"] = {"type": backend, "source": "xenstore", "vdev": "xvdb", "mode": "w"}
        t["storage"] = {"path": f"/srv/vdc/{name}.img", "size_bytes": 8589934592, "format": "raw",
                        "alloc": "full"}
    elif kind == "lvm":
        t["backend"] = {"type": "phy", "source": "xenstore", "physical_device": "/dev/vg0/vdc-lvm",
                        "vdev": "xvdb", "mode": "w"}
        t["storage"] = {"path": "/dev/vg0/vdc-lvm", "size_bytes": 8589934592, "vg": "vg0",
                        "lv": "vdc-lvm"}
    t["filesystem"] = {"type": "ext4"}
    return t


runs = []
for r in range(N):
    for name, kind, col in TARGETS:
        dom0 = kind == "dom0"
        samples = []
        for tid, unit, base, *_rest, cp in TESTS:
            v = values[(name, tid)][r]
            failed = name == "image" and tid == "rewrite" and r == 5
            samples.append({"test": tid, "unit": unit, "value": v,
                            "cpu_percent": None if v is None else cp,
                            "too_fast": base is None, "failed": failed,
                            "error": "write /mnt/t/Bonnie.42: Input/output error" if failed else None})
        runs.append({"target": name, "repetition": r, "status": "failed" if name == "image" and r == 5 else "ok",
                     "error": "rewrite: write /mnt/t/Bonnie.42: Input/output error" if name == "image" and r == 5
                     else None,
                     "metadata": {"tool": "vmdiskcmp-agent 0.1.0", "ram_mib": 1024 if dom0 else 256,
                                  "seed": str(7 + r), "file_size_mib": 2048, "chunk_size": 8192,
                                  "files": {"number": 16, "max_size": 0, "min_size": 0, "dirs": 1,
                                            "chunk_size": 4096},
                                  "path": "/var/tmp/vdc" if dom0 else "/mnt/t", "fs_type": "ext4",
                                  "direct_io": False, "per_char": "syscall"},
                     "samples": samples})

doc = {
    "format": "vmdiskcmp-result", "format_version": 1,
    "producer": {"name": "vmdiskcmp", "version": "0.1.0"},
    "experiment": {
        "id": "2026-12-01T090000Z-xen02", "date": "2026-12-01T09:00:00Z",
        "command_line": "vmdiskcmp --image --image-qdisk --lvm --vg vg0 --dom0 --runs auto --max-runs 8 "
                        "--precision 3 --seed 7",
        "seed": "7", "runs_per_target": N, "order": "interleaved",
        "runs_policy": {"mode": "auto", "min_runs": 3, "max_runs": N, "precision_percent": 3, "stop": stop},
        "emulated": False,
        "host": {"hostname": "xen02", "kernel": "6.1.0-27-amd64", "cpu_count": 8, "ram_mib": 1024},
        "hypervisor": {"driver": "libxl", "xen_version": "4.17.3", "libxl_version": "4.17"},
        "guest": {"memory_mib": 256, "vcpus": 1},
    },
    "targets": [target_json(n, k) for n, k, _ in TARGETS],
    "runs": runs,
}
print(json.dumps(doc, indent=1))
