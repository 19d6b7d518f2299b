# SPDX-License-Identifier: GPL-2.0-or-later
# tests/golden/report/matrix12/result.json: 12 targets (image and block x
# three cache modes x two aio modes), 5 repetitions, from the synthetic
# fixture's first run: four clusters of three targets 10 % apart, 1 % apart
# within, a drift shared by each repetition (what pairing removes) and 1.5 %
# of noise of their own; block-ds-uring too fast in putc.
#   python3 make.py ../synthetic/result.json result.json
import json, random, sys, copy
src, out = sys.argv[1], sys.argv[2]
d = json.load(open(src))
rng = random.Random(7)
names = []
for kind in ("image", "block"):
    for cache in ("none", "wb", "ds"):
        for io in ("threads", "uring"):
            names.append("%s-%s-%s" % (kind, cache, io))
# four clusters of three: within a cluster 1 % apart, clusters 10 % apart
factor = [1.00, 0.99, 0.98, 0.90, 0.89, 0.88, 0.80, 0.79, 0.78, 0.70, 0.69, 0.68]
template = d["runs"][0]
tmpl_target = d["targets"][0]
d["targets"] = []
for i, n in enumerate(names):
    t = copy.deepcopy(tmpl_target)
    t["name"] = n
    t["kind"] = n.split("-")[0]
    t["where"] = "domU"
    d["targets"].append(t)
d["runs"] = []
reps = 5
d["experiment"]["runs_per_target"] = reps
d["experiment"]["command_line"] = "vmdiskcmp --image --block /dev/sdb ... --disk-cache none,writeback,directsync --disk-io threads,io_uring --runs 5 (synthetic: 12 targets)"
for r in range(reps):
    drift = [1 + rng.gauss(0, 0.03) for _ in template["samples"]]   # shared by the repetition
    for i, n in enumerate(names):
        run = copy.deepcopy(template)
        run["target"] = n
        run["repetition"] = r
        for k, s in enumerate(run["samples"]):
            s["value"] = round((s["value"] or 5000.0) * factor[i] * drift[k] * (1 + rng.gauss(0, 0.015)), 1)
            s["too_fast"] = False
            s["failed"] = False
            s["error"] = None
        # one target too fast to measure in one test: listed, never ranked
        if n == "block-ds-uring":
            run["samples"][0]["too_fast"] = True
        d["runs"].append(run)
json.dump(d, open(out, "w"), separators=(",", ":"))
