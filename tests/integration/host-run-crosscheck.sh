#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The run's host CPU figures against an independent reading of /proc for
# the same intervals (doc/host-cost.md): a real dom0 baseline run (no VM:
# `vmdiskcmp run --hypervisor mock --dom0`, its own loop device over an
# image, mkfs, the real agent with --progress-fd), while this script reads
# the agent's /proc/PID/stat and /proc/stat every 5 ms itself.  For every
# test the run sliced that lasted at least 1 s with at least 0.5 CPU
# seconds of the agent, the run's samples[].host.cpu_s.agent and
# .dom0_busy (user+nice+system+irq+softirq) must equal this script's
# reading, interpolated at the run's own snapshot times
# (samples[].host.monotonic_s, CLOCK_MONOTONIC as Python's
# time.monotonic), within 10 %; the loop device's worker is reported
# shared with its reason (Linux >= 5.13) or exact, never summed when
# shared.  The agent's figure is known for every test, the last one too
# (its end is read from the exited agent, held unreaped: common/child.h).
# Root; holds a loop device: run under the heavy lock.  About 15 s.
. "$top_srcdir/tests/integration/host-lib.sh"
host_test_setup vdc-hostrun python3
[ -x "$VMDISKCMP" ] || fail "no $VMDISKCMP"
[ -x "$VDC_AGENT" ] || fail "no agent at $VDC_AGENT"
reader=
cleanup() {
    [ -n "$reader" ] && kill "$reader" 2>/dev/null && wait "$reader" 2>/dev/null
    [ -f "$scratch/out/journal" ] && "$VMDISKCMP" cleanup "$scratch/out" >/dev/null 2>&1
    rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
fstype=$(stat -f -c %T "$scratch")
case $fstype in
tmpfs|overlayfs|overlay) skip "$scratch is on $fstype: no O_DIRECT for the baseline's loop device" ;;
esac

# the independent reader: the process called vmdiskcmp-agent that vmdiskcmp
# started (a child of its supervisor, a fork of vmdiskcmp leading the
# agent's process group: common/child.h) (t, utime+stime of the agent, dom0
# busy) in clock ticks, until vmdiskcmp ends
cat >"$scratch/reader.py" <<'EOF'
import os, sys, time
parent, out = int(sys.argv[1]), sys.argv[2]
hz = os.sysconf("SC_CLK_TCK")
def stat(pid):
    try:
        s = open("/proc/%d/stat" % pid).read()
    except OSError:
        return None
    comm = s[s.index("(") + 1:s.rindex(")")]
    f = s[s.rindex(")") + 2:].split()
    return comm, int(f[1]), int(f[11]) + int(f[12]), int(f[19])   # ppid, utime+stime, starttime
def busy():
    f = open("/proc/stat").readline().split()[1:]
    v = [int(x) for x in f[:8]]
    return v[0] + v[1] + v[2] + v[5] + v[6]
rows, agent = [], None
while os.path.exists("/proc/%d" % parent):
    if agent is None:
        def children(pid):
            try:
                return [int(d) for d in open("/proc/%d/task/%d/children" % (pid, pid)).read().split()]
            except OSError:
                return []
        for sup in children(parent):
            for d in children(sup):
                st = stat(d)
                if st and st[0] == "vmdiskcmp-agent" and st[1] == sup:
                    agent = (d, st[3])
    t0 = time.monotonic()
    st = stat(agent[0]) if agent else None
    b = busy()
    t1 = time.monotonic()
    # before the agent is found (or after it ended): -1, dom0 busy still read
    rows.append(((t0 + t1) / 2, st[2] if st and st[3] == agent[1] else -1, b))
    time.sleep(0.005 if agent else 0.001)
with open(out, "w") as f:
    f.write("%d\n" % hz)
    for r in rows:
        f.write("%.6f %d %d\n" % r)
EOF

# (--out with a trailing slash: it names the same directory)
"$VMDISKCMP" run --hypervisor mock --dom0 --runs 1 --seed 3 --no-drop-caches \
    --dom0-size 32M --dom0-memory-max 16 --agent-options "-n 0 --per-char-size 8m" --agent "$VDC_AGENT" \
    --image-dir "$scratch/img" --out "$scratch/out/" >"$scratch/run.out" 2>"$scratch/run.log" &
run=$!
# above other work: its readings must be on time on a busy machine
nice -n -10 python3 "$scratch/reader.py" $run "$scratch/readings" &
reader=$!
rc=0
wait $run || rc=$?
wait $reader || fail "the /proc reader failed"
reader=
[ "$rc" = 0 ] || { cat "$scratch/run.log" >&2; fail "vmdiskcmp run: exit status $rc"; }

python3 - "$scratch/out/result.json" "$scratch/readings" <<'EOF' || fail "the run's host CPU figures disagree with /proc"
import bisect, json, sys
d = json.load(open(sys.argv[1]))
lines = open(sys.argv[2]).read().split("\n")
hz = int(lines[0])
rows = [tuple(float(x) for x in l.split()) for l in lines[1:] if l]
seen = [r for r in rows if r[1] >= 0]
assert len(seen) > 100, "the reader saw the agent %d times" % len(seen)
def interp(rs, t, col):
    ts = [r[0] for r in rs]
    i = bisect.bisect_left(ts, t)
    if not 0 < i < len(rs):
        return None
    (t0, *a), (t1, *b) = rs[i - 1], rs[i]
    return (a[col] + (b[col] - a[col]) * (t - t0) / (t1 - t0)) / hz
def at(t, col):
    if col == 1:
        return interp(rows, t, 1)
    v = interp(seen, t, 0)
    # the reader found the agent up to ~50 ms after it started: its CPU
    # before the first reading is at most that reading (said, and bounded)
    if v is None and seen[0][0] - 0.1 < t <= seen[0][0]:
        print("  agent CPU at %.3f taken from the reader's first reading %.3f s later" % (t, seen[0][0] - t))
        v = seen[0][1] / hz
    return v
run = d["runs"][0]
assert run["status"] == "ok", run.get("error")
servers = run["host"]["servers"]
assert [s for s in servers if s["role"] == "agent" and s["name"] == "vmdiskcmp-agent"], servers
loop = [s for s in servers if s["role"] == "loop_worker"]
checked = 0
# the agent's figure is never unknown, the last test's included, sliced or
# not (two tests that began and ended inside one look share a snapshot):
# the last end is read while the agent is a zombie its supervisor holds
# (common/child.h), never after it was reaped
hosted = [s for s in run["samples"] if s.get("host")]
assert hosted and hosted[-1]["test"] == run["samples"][-1]["test"], [s["test"] for s in hosted]
for s in hosted:
    how = s["host"]["cpu_attribution"].get("agent", {}).get("attribution", "exact")
    assert how == "exact" and s["host"]["cpu_s"].get("agent") is not None, (s["test"], s["host"]["cpu_attribution"])
for s in run["samples"]:
    h = s.get("host")
    if not h or not h["sliced"]:
        continue
    cpu = h["cpu_s"]
    for s2 in loop:
        if s2["attribution"] == "shared":
            assert "loop_worker" not in cpu, (s["test"], cpu)
            assert h["cpu_attribution"]["loop_worker"]["reason"], h["cpu_attribution"]
    assert cpu.get("agent") is not None, (s["test"], h["cpu_attribution"].get("agent"))
    b, e = h["monotonic_s"]
    if e - b < 1.0 or cpu["agent"] < 0.5:
        print("%-10s %.2f s, agent %.2f s: too short to check to 10 %%" % (s["test"], e - b, cpu["agent"]))
        continue
    if None in (at(b, 0), at(e, 0), at(b, 1), at(e, 1)):
        print("%-10s %.3f-%.3f outside the reader's readings (agent %.3f-%.3f)" % (s["test"], b, e,
              seen[0][0], seen[-1][0]))
        continue
    mine = {"agent": at(e, 0) - at(b, 0), "dom0_busy": at(e, 1) - at(b, 1)}
    for role in ("agent", "dom0_busy"):
        diff = (cpu[role] - mine[role]) / mine[role] * 100
        print("%-10s %-9s run %.3f s, /proc %.3f s, %+.1f %%" % (s["test"], role, cpu[role], mine[role], diff))
        assert abs(diff) <= 10, (s["test"], role, cpu[role], mine[role])
    checked += 1
assert checked >= 1, "no test was long enough to check"
print("%d test(s) checked; loop worker: %s" % (checked, ", ".join(
    "%s %s" % (l["name"], l["attribution"]) for l in loop) or "none found"))
EOF
echo ok
