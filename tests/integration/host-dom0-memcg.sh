#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The dom0 baseline in a memory cgroup (--dom0-memory-max, src/host/memcg.c)
# on this machine's real cgroups (v1 or v2, whichever holds the memory
# controller): a mock-hypervisor run with only the dom0 baseline, on an
# image through a loop device, the agent told the limit and writing twice
# it.  Checks: the agent ran in a cgroup vmdiskcmp-* (its /proc/PID/cgroup,
# read while it ran); result.json's dom0 target has memory_mib = the limit
# read back and says where it came from; the cgroup's peak use (page cache
# charged to it) reached at least half the limit and at most the limit
# plus a page of slack; the run is valid (test file 2x the limit: no
# under-2x-ram warning); the cgroup is gone after the run and the journal
# says undone; and after a SIGKILL of vmdiskcmp mid-agent, `vmdiskcmp
# cleanup` removes the cgroup the run left.  Root, a loop device (heavy
# lock).  About 20 s.
. "$top_srcdir/tests/integration/host-lib.sh"
host_test_setup vdc-memcg python3
[ -x "$VMDISKCMP" ] || fail "no $VMDISKCMP"
[ -x "$VDC_AGENT" ] || fail "no agent at $VDC_AGENT"
grep -qs memory /proc/self/cgroup || grep -qs memory /sys/fs/cgroup/cgroup.controllers ||
    skip "no memory cgroup controller on this kernel"
watcher=
cleanup() {
    [ -n "$watcher" ] && kill "$watcher" 2>/dev/null && wait "$watcher" 2>/dev/null
    for d in "$scratch/out" "$scratch/out2"; do
        [ -f "$d/journal" ] && "$VMDISKCMP" cleanup "$d" >/dev/null 2>&1
    done
    rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
case $(stat -f -c %T "$scratch") in
tmpfs|overlayfs|overlay) skip "$scratch is on tmpfs/overlay: no O_DIRECT for the baseline's loop device" ;;
esac

# every cgroup directory named vmdiskcmp-* under the cgroup mounts
leftovers() {
    find /sys/fs/cgroup -maxdepth 6 -type d -name 'vmdiskcmp-*' 2>/dev/null | sort
}
before=$(leftovers)

# the memory cgroup line of the running agent's /proc/PID/cgroup, once
watch_agent() {   # OUT
    i=0
    while [ $i -lt 3000 ]; do
        for p in $(pgrep -x vmdiskcmp-agent); do
            l=$(grep -E '(^0::|memory)' "/proc/$p/cgroup" 2>/dev/null | grep vmdiskcmp- | head -n1)
            [ -n "$l" ] && { echo "$l" >"$1"; return 0; }
        done
        sleep 0.01
        i=$((i + 1))
    done
}

"$VMDISKCMP" run --hypervisor mock --dom0 --runs 1 --seed 3 --dom0-memory-max 32 \
    --agent-options "-n 0 --per-char-size 0" --agent "$VDC_AGENT" \
    --image-dir "$scratch/img" --out "$scratch/out" >"$scratch/run.out" 2>"$scratch/run.log" &
run=$!
watch_agent "$scratch/agent-cgroup" &
watcher=$!
rc=0
wait $run || rc=$?
wait $watcher
watcher=
[ "$rc" = 0 ] || { cat "$scratch/run.log" >&2; fail "vmdiskcmp run --dom0-memory-max 32: exit status $rc"; }
[ -s "$scratch/agent-cgroup" ] || fail "the agent was never seen in a vmdiskcmp-* cgroup (/proc/PID/cgroup)"
echo "agent's cgroup: $(cat "$scratch/agent-cgroup")"
grep -q 'dom0: the agent in memory cgroup .*vmdiskcmp-.* (limit 32 MiB read back)' "$scratch/run.log" ||
    fail "the run did not say which memory cgroup the agent ran in"
python3 - "$scratch/out/result.json" <<'EOF' || fail "result.json: the memory cgroup not recorded as expected"
import json, re, sys
d = json.load(open(sys.argv[1]))
t = [t for t in d["targets"] if t.get("where") == "dom0"]
assert len(t) == 1, d["targets"]
t = t[0]
assert t.get("memory_mib") == 32, t.get("memory_mib")
prov = t.get("provenance", {}).get("memory_mib", "")
print("  provenance: " + prov)
assert re.search(r"--dom0-memory-max 32: memory cgroup v[12] /sys/fs/cgroup/\S*vmdiskcmp-\S+, "
                 r"memory\.(max|limit_in_bytes) 33554432 bytes read back; the agent ran in it and "
                 r"the page cache it fills is charged to it; at most [0-9.]+ MiB used in run 0$", prov), prov
peak = float(re.search(r"at most ([0-9.]+) MiB", prov).group(1))
# the agent itself is a few hundred KiB: a peak near the limit is its page cache
assert 16 <= peak <= 32.1, "peak %.1f MiB: expected between half the limit and the limit" % peak
r = d["runs"]
assert len(r) == 1 and r[0]["status"] == "ok", r
m = r[0]["metadata"]
assert m.get("ram_mib") == 32 and m.get("file_size_mib") == 64, m
EOF
grep -q 'under-2x' "$scratch/out/report.txt" && fail "report.txt flags under-2x-ram for a file twice the cgroup's limit"
grep -q '^add [0-9]* cgroup path=' "$scratch/out/journal" || fail "the cgroup was not journaled"
n_add=$(grep -c '^add [0-9]* cgroup' "$scratch/out/journal")
for s in $(sed -n 's/^add \([0-9]*\) cgroup .*/\1/p' "$scratch/out/journal"); do
    grep -q "^undone $s\$" "$scratch/out/journal" || fail "journal: cgroup entry $s not undone"
done
[ "$(leftovers)" = "$before" ] || fail "cgroups left behind: $(leftovers)"
echo "PASS: the dom0 agent ran in a 32 MiB memory cgroup ($n_add journaled, removed)"

# killed mid-agent: the cgroup stays, journaled; cleanup removes it
"$VMDISKCMP" run --hypervisor mock --dom0 --runs 1 --seed 3 --dom0-memory-max 32 \
    --agent-options "-n 0 --per-char-size 64m" --agent "$VDC_AGENT" \
    --image-dir "$scratch/img2" --out "$scratch/out2" >/dev/null 2>"$scratch/run2.log" &
run=$!
i=0
until grep -q 'dom0: the agent in memory cgroup' "$scratch/run2.log" 2>/dev/null && pgrep -x vmdiskcmp-agent >/dev/null; do
    i=$((i + 1))
    [ $i -lt 600 ] || { kill -9 $run; fail "the second run's agent never started"; }
    sleep 0.1
done
kill -9 $run
wait $run 2>/dev/null
left=$(leftovers)
[ "$left" != "$before" ] || fail "no cgroup left after SIGKILL: nothing for cleanup to test"
"$VMDISKCMP" cleanup "$scratch/out2" >"$scratch/cleanup.log" 2>&1 ||
    { cat "$scratch/cleanup.log" >&2; fail "vmdiskcmp cleanup after SIGKILL failed"; }
[ "$(leftovers)" = "$before" ] || fail "cleanup left the cgroup: $(leftovers)"
echo "PASS: after SIGKILL, vmdiskcmp cleanup removed the cgroup"
