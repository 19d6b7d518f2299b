#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Many guests at once for real: libvirtd + QEMU under TCG (qemu:///system),
#   vmdiskcmp --hypervisor libvirt --accel tcg --image --guests 2 --runs 1
# (tiny sizes, no dom0): two domUs booted together, each with its own copy
# of the image and control disk, released through the start gate.  Checks:
# exit 0; two ok runs at level 2 (guests 0 and 1, their own seeds), each
# with its release times (released after both were ready, started after its
# release), the level in experiment.levels[] with its start skew (max - min
# of the starts) and its host cost (both QEMUs' CPU, dom0 busy, the I/Os
# virDomainBlockStats counted, per 1,000 I/Os and per GiB, dom0's memory
# and page cache), each guest's runs[].host; nothing left behind (no domain, no image or copy, no loop
# device, every journal entry undone).  Then the same run with SIGINT once
# both domUs are up: exit 3, nothing left behind.  Run time here: about
# 2-3 minutes (the guest image prepared once, two boots of two TCG guests).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-lib.sh"
run_lib_setup run-levels-libvirt 16M

run() {
    out=$1; shift
    exec "$VMDISKCMP" --hypervisor libvirt --connect qemu:///system --accel tcg \
        --image --guests 2 --runs 1 --seed 42 --size 16M --guest-memory 256 \
        --agent-options "-n 0 --per-char=stdio" --no-report \
        --guest-image "$template_dir/guest.img" --agent "$VDC_AGENT" --runner "$runner" \
        --cache-dir "$work/cache" --image-dir "$work/img" --out "$out" --timeout 300 "$@"
}

# nothing of run OUT left: its guests' domains, images, loop devices,
# journal entries
level_left() {
    name=$(sed -n 's/.*"domain_name" : "\([^"]*\)".*/\1/p' "$1/plan.json")
    [ -n "$name" ] || fail "$1/plan.json: no domain_name"
    virsh -c qemu:///system list --all --name | grep -q "^$name-g" && fail "a domain $name-gK left behind"
    ls "$work/img" | grep -q . && fail "images left behind: $(ls "$work/img")"
    losetup -a | grep -F "$work/img" && fail "loop device left behind"
    python3 - "$1/journal" <<'PY' || fail "$1/journal: objects not undone"
import sys
pending = {}
for line in open(sys.argv[1]).read().splitlines()[1:]:
    f = line.split(" ")
    if f[0] == "add":
        pending[f[1]] = line
    elif f[0] in ("undone", "kept"):
        pending.pop(f[1], None)
assert not pending, pending
PY
}

# ---- 1: two guests together ----
rc=0
( run "$work/out1" ) > "$work/run1.out" 2> "$work/run1.log" || rc=$?
cat "$work/run1.log" >&2
[ "$rc" = 0 ] || fail "run 1: exit status $rc"
python3 - "$work/out1/result.json" <<'EOF2' || fail "run 1: result.json is not what was expected"
import json, sys
d = json.load(open(sys.argv[1]))
runs = [r for r in d["runs"] if r["target"] == "image"]
assert len(runs) == 2, len(runs)
assert sorted((r["level"], r["guest"]) for r in runs) == [(2, 0), (2, 1)], runs
for r in runs:
    assert r["status"] == "ok", (r["guest"], r["status"], r.get("error"))
    assert any(s["test"] == "put_block" for s in r["samples"]), r["guest"]
seeds = {r["guest"]: r["metadata"]["seed"] for r in runs}
assert seeds[0] == "42" and seeds[1] != "42", seeds
rel = {r["guest"]: r["release"] for r in runs}
ready = max(v["ready_s"] for v in rel.values())
for g, v in rel.items():
    assert v["released_s"] >= ready, (g, v, "released before every guest was ready")
    assert v["started_s"] >= v["released_s"], (g, v)
levels = d["experiment"]["levels"]
assert len(levels) == 1, levels
l = levels[0]
assert l["guests"] == 2 and l["target"] == "image" and l["status"] == "ok", l
skew = abs(rel[0]["started_s"] - rel[1]["started_s"])
assert abs(l["start_skew_s"] - skew) < 1e-6, (l, skew)
# the level's host cost over its window: both QEMUs (TCG: they burn CPU),
# dom0 busy, what virDomainBlockStats counted, dom0's page cache; and each
# guest's own sampler (runs[].host)
h = l.get("host")
assert h and h["guests"] == 2, l
c = h["cpu_s"]
assert c.get("qemu") is not None and c["qemu"] > 0, h
assert c["dom0_busy"] > 0 and c["qemu"] <= c["dom0_busy"] + c["dom0_steal"] + 0.1, h
assert h.get("ios", 0) > 0 and h.get("bytes", 0) > 0 and h["source"] == "virDomainBlockStats", h
assert h["cpu_s_per_1000_ios"]["qemu"] > 0 and h["cpu_s_per_gib"]["qemu"] > 0, h
assert len(h["dom0_cached_bytes"]) == 2 and len(h["dom0_memory_bytes"]) == 2, h
for r in runs:
    assert any(s["role"] == "qemu" for s in r["host"]["servers"]), (r["guest"], r.get("host"))
print("level host:", json.dumps({k: h[k] for k in ("interval_s", "cpu_s", "ios", "bytes")}))
EOF2
level_left "$work/out1"

# ---- 2: SIGINT once both domUs run ----
( run "$work/out2" ) > "$work/run2.out" 2> "$work/run2.log" &
pid=$!
up=0
for _ in $(seq 1 240); do
    if [ -f "$work/out2/plan.json" ]; then
        name=$(sed -n 's/.*"domain_name" : "\([^"]*\)".*/\1/p' "$work/out2/plan.json")
        [ "$(virsh -c qemu:///system list --name | grep -c "^$name-g[01]$")" = 2 ] && { up=1; break; }
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
done
[ "$up" = 1 ] || { kill -INT "$pid" 2>/dev/null; wait "$pid"; fail "run 2: the two domUs never ran together: $(cat "$work/run2.log")"; }
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
cat "$work/run2.log" >&2
[ "$rc" = 3 ] || fail "run 2: exit status $rc after SIGINT, expected 3"
level_left "$work/out2"
exit 0
