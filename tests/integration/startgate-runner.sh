#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The start gate of many guests at once, without guests: the static runner
# (guest-agent/vmdiskcmp-runner, --control FILE --no-poweroff) against
# control disk files, the controller's gate (src/guest/startgate.c) through
# tests/guest-ctltool gate.  Each job runs a raw workload pass on /dev/null
# (the agent is not installed on the host: the pass fails after the gate,
# which is what is checked).  Inside `unshare -m` with a tmpfs on /tmp (the
# runner works in /tmp/vmdiskcmp; the test's files are reached through
# its working directory).  Checks: two runners, one started a
# second after the other, are released only once both are ready, each
# starts after its release, the skew is reported; a runner whose host never
# says go stops at its gate timeout, its target failed naming the gate, no
# agent run; a controller whose second guest never gets ready names it and
# releases no one; a job without a gate starts at once.  Run time ~6 s.
. "$top_srcdir/tests/lib.sh"
need_root
need_cmd unshare
need_cmd timeout
B="$top_builddir"
[ -x "$B/tests/guest-ctltool" ] || fail "no guest-ctltool"
[ -x "$B/guest-agent/vmdiskcmp-runner" ] || skip "no static runner built (AGENT_CC)"
out=$(mktemp -d "${TMPDIR:-/tmp}/vdc-startgate.XXXXXX")
trap 'rm -rf "$out"' EXIT INT TERM

cat >"$out/inner.sh" <<'INNER'
set -u
B=$1
# the output by the working directory: the tmpfs hides a $TMPDIR under /tmp
cd "$2" || exit 1
out=.
mount -t tmpfs vdc-startgate /tmp || { echo "tmpfs on /tmp: failed"; exit 1; }
d=/tmp/gate; mkdir -p "$d"
printf '[rr4k]\nrw=randread\nbs=4k\n' >"$d/rr4k.fio"
mk() {  # PATH NONCE GATE
    "$B/tests/guest-ctltool" make "$1" --nonce "$2" --gate "$3" --flags 0x38 --step-timeout 5 \
        --agent-timeout 5 --workload "rr4k:$d/rr4k.fio" --target t:null
}
runner() {  # PATH LOG
    "$B/guest-agent/vmdiskcmp-runner" --control "$1" --no-poweroff 2>"$2"
}
# 1: two guests, the second ready a second later
mk "$d/a0.img" 100 20 && mk "$d/a1.img" 101 20 || exit 1
runner "$d/a0.img" "$out/a0.log" & p0=$!
sleep 1
runner "$d/a1.img" "$out/a1.log" & p1=$!
timeout 30 "$B/tests/guest-ctltool" gate --timeout 20 "$d/a0.img:100" "$d/a1.img:101" \
    >"$out/gate.out" 2>"$out/gate.err"
echo "gate rc $?" >>"$out/gate.out"
wait $p0 $p1
"$B/tests/guest-ctltool" read "$d/a0.img" --nonce 100 --out-dir "$d/o0" >"$out/a0.read" 2>&1
# 2: no go: the runner's own timeout
mk "$d/b.img" 200 1 || exit 1
timeout 30 "$B/guest-agent/vmdiskcmp-runner" --control "$d/b.img" --no-poweroff 2>"$out/b.log"
"$B/tests/guest-ctltool" read "$d/b.img" --nonce 200 --out-dir "$d/ob" >"$out/b.read" 2>&1
# 3: the second guest never ready: named, nobody released
mk "$d/c0.img" 300 4 && mk "$d/c1.img" 301 4 || exit 1
runner "$d/c0.img" "$out/c0.log" & p0=$!
timeout 30 "$B/tests/guest-ctltool" gate --timeout 1 "$d/c0.img:300" "$d/c1.img:301" \
    >"$out/c.out" 2>"$out/c.err"
echo "gate rc $?" >>"$out/c.out"
wait $p0
# 4: no gate
mk "$d/e.img" 400 0 || exit 1
timeout 30 "$B/guest-agent/vmdiskcmp-runner" --control "$d/e.img" --no-poweroff 2>"$out/e.log"
exit 0
INNER
timeout 120 unshare -m sh "$out/inner.sh" "$B" "$out" || fail "the runs in the namespace failed"

# 1: released only once both were ready; each started after its release
grep -q '^gate rc 0$' "$out/gate.out" || fail "gate: $(cat "$out/gate.out" "$out/gate.err")"
awk '
/^guest / { for (i = 3; i <= 5; i++) { split($i, kv, "="); v[$2, kv[1]] = kv[2] } n++ }
/^skew_s=/ { split($0, kv, "="); skew = kv[2] }
END {
    if (n != 2) { print "expected 2 guests, got " n; exit 1 }
    maxready = v[0, "ready_s"] > v[1, "ready_s"] ? v[0, "ready_s"] : v[1, "ready_s"]
    for (g = 0; g < 2; g++) {
        if (v[g, "released_s"] < maxready) { print "guest " g " released before every guest was ready"; exit 1 }
        if (v[g, "started_s"] < v[g, "released_s"]) { print "guest " g " started before its release"; exit 1 }
    }
    d = v[0, "started_s"] - v[1, "started_s"]; if (d < 0) d = -d
    if (skew == "" || skew < 0 || (skew - d) > 1e-5 || (d - skew) > 1e-5) { print "skew " skew ", expected " d; exit 1 }
}' "$out/gate.out" >"$out/check" || fail "$(cat "$out/check"): $(cat "$out/gate.out")"
grep -q 'start gate: ready, waiting for the host' "$out/a1.log" || fail "guest 1 did not wait: $(cat "$out/a1.log")"
grep -q 'start gate: go after' "$out/a0.log" || fail "guest 0 saw no go: $(cat "$out/a0.log")"
grep -q 'agent raw workload pass start' "$out/a0.log" || fail "guest 0's pass did not start after the go"
grep -q 'error=agent (raw workload) exit status 127' "$out/a0.read" || fail "guest 0: $(cat "$out/a0.read")"

# 2: the runner's gate timeout: failed naming the gate, no agent run
grep -q 'target t status=timeout .*error=start gate: no go from the host within 1 s: not started' "$out/b.read" ||
    fail "no-go runner: $(cat "$out/b.read")"
grep -q 'agent raw workload pass start' "$out/b.log" && fail "an agent ran without a go"

# 3: the controller names the guest not ready and releases no one
grep -q '^gate rc 1$' "$out/c.out" || fail "gate with a guest missing: $(cat "$out/c.out")"
grep -q 'start gate: not ready within 1 s: guest 1 (guest 1)$' "$out/c.err" || fail "message: $(cat "$out/c.err")"
grep -q 'start gate: no go from the host within 4 s' "$out/c0.log" || fail "guest 0 was released: $(cat "$out/c0.log")"

# 4: no gate, no wait
grep -q 'start gate' "$out/e.log" && fail "a job without a gate waited: $(cat "$out/e.log")"
grep -q 'agent raw workload pass start' "$out/e.log" || fail "no pass without a gate: $(cat "$out/e.log")"
exit 0
