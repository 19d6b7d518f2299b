#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Two `vmdiskcmp run` started in the same second on one host, through the
# real run path: libvirtd + QEMU (TCG) via qemu:///system, the guest image
# prepared once by the real libguestfs (both runs are cache hits), one
# --image target each, --runs 1, the same --image-dir.
# Checks: both exit 0 with their run ok; their run ids differ though their
# seconds are the same; each journal names its own run (id, pid) and its
# own domain UUID, and nothing of one appears in the other's journal;
# neither printed a "left alone" line (neither met the other's objects);
# while both domains run, `cleanup --all --results` over their results
# skips both, naming them, and both domains keep running; nothing is left
# behind.
# Run time here (2 cores at load average 8-9): about 60 s with the prepared
# image cached (two concurrent TCG boots, ~50 s), ~40 s more when cold.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-lib.sh"
run_lib_setup run-concurrent 1M

# the prepared-image cache the guest-*.sh tests keep in the build tree
# (same template, agent and runner: whichever test comes first pays the
# appliance launch), filled under their lock; the runs are cache hits
cache="$top_builddir/guest-cache"
flock "$top_builddir/.guest-cache.lock" timeout 900 "$VMDISKCMP" prepare -q \
    --guest-image "$template_dir/guest.img" --agent "$VDC_AGENT" --runner "$runner" \
    --cache-dir "$cache" --timeout 600 > "$work/prepare.log" 2>&1 ||
    { cat "$work/prepare.log"; fail "prepare failed"; }

# run OUT: exec, so that in "( run ... ) &" $! is vmdiskcmp itself
run() {
    exec "$VMDISKCMP" --hypervisor libvirt --connect qemu:///system --accel tcg \
        --image --runs 1 --seed 7 --size 8M --guest-memory 256 \
        --agent-options "-n 0 --per-char=stdio" --no-report \
        --guest-image "$template_dir/guest.img" --agent "$VDC_AGENT" --runner "$runner" \
        --cache-dir "$cache" --image-dir "$work/img" --out "$1" --timeout 300
}

mkdir "$work/results"
# start both 20 ms into a fresh second
python3 -c 'import time; time.sleep(1.02 - time.time() % 1)'
( run "$work/results/a" ) > /dev/null 2> "$work/a.log" &
pa=$!
( run "$work/results/b" ) > /dev/null 2> "$work/b.log" &
pb=$!

# plan.json NAME: the value of "NAME" in OUT/plan.json
plan_value() {
    sed -n "s/.*\"$2\" : \"\\([^\"]*\\)\".*/\\1/p" "$1/plan.json" 2>/dev/null
}

# both domains running
i=0
while :; do
    da=$(plan_value "$work/results/a" domain_name)
    db=$(plan_value "$work/results/b" domain_name)
    running=$(virsh -c qemu:///system list --name 2>/dev/null)
    if [ -n "$da" ] && [ -n "$db" ] && printf '%s\n' "$running" | grep -qx "$da" &&
       printf '%s\n' "$running" | grep -qx "$db"; then
        break
    fi
    kill -0 "$pa" 2>/dev/null && kill -0 "$pb" 2>/dev/null ||
        { cat "$work/a.log" "$work/b.log" >&2; fail "a run ended before both domains were up"; }
    i=$((i + 1))
    [ $i -lt 600 ] || fail "the two domains were not both running within 300 s"
    sleep 0.5
done

# an operator's cleanup while both live: both skipped, nothing touched
rc=0
"$VMDISKCMP" cleanup --all --results "$work/results" > "$work/cleanup.out" 2> "$work/cleanup.log" || rc=$?
cat "$work/cleanup.out" "$work/cleanup.log" >&2
[ "$rc" = 0 ] || fail "cleanup --all during two live runs: exit status $rc, expected 0"
for o in a b; do
    id=$(plan_value "$work/results/$o" id)
    grep -qF "$work/results/$o: run $id (pid " "$work/cleanup.out" ||
        fail "cleanup --all did not name run $o ($id)"
done
[ "$(grep -c 'is still running (its journal is locked): skipped, nothing touched$' "$work/cleanup.out")" = 2 ] ||
    fail "cleanup --all did not skip both live runs"
running=$(virsh -c qemu:///system list --name)
printf '%s\n' "$running" | grep -qx "$da" || fail "cleanup --all touched run a's domain $da"
printf '%s\n' "$running" | grep -qx "$db" || fail "cleanup --all touched run b's domain $db"

ra=0; wait "$pa" || ra=$?
rb=0; wait "$pb" || rb=$?
cat "$work/a.log" "$work/b.log" >&2
[ "$ra" = 0 ] || fail "run a: exit status $ra, expected 0"
[ "$rb" = 0 ] || fail "run b: exit status $rb, expected 0"

ida=$(plan_value "$work/results/a" id)
idb=$(plan_value "$work/results/b" id)
[ "$ida" != "$idb" ] || fail "both runs got the id $ida"
[ "$da" != "$db" ] || fail "both runs named their domain $da"
# DATE is YYYY-MM-DDTHHMMSS.mmmZ: the same second, told apart all the same
[ "${ida%%.*}" = "${idb%%.*}" ] || fail "not started in the same second: $ida, $idb"
for o in a b; do
    python3 - "$work/results/$o/result.json" <<'PY' || fail "run $o: expected one ok run of image"
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
assert [(r["target"], r["status"]) for r in runs] == [("image", "ok")], runs
print(json.load(open(sys.argv[1]))["experiment"]["time"])
PY
    grep -Eq "not this run's|left alone" "$work/$o.log" && fail "run $o met an object not its own"
    nothing_left "$work/results/$o"
done
# both results recorded once in the store beside them (results/vmdiskcmp.sqlite)
python3 - "$work/results/vmdiskcmp.sqlite" "$ida" "$idb" <<'PY' || fail "the store beside the results does not hold both runs"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("SELECT run_id, kind FROM results ORDER BY run_id").fetchall()
assert rows == sorted([(sys.argv[2], "run"), (sys.argv[3], "run")]), rows
assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
PY
# each journal: its own run line, its own domain UUID, nothing of the other
ua=$(sed -n 's/^add [0-9]* domain .* uuid=\([0-9a-f-]*\).*/\1/p' "$work/results/a/journal")
ub=$(sed -n 's/^add [0-9]* domain .* uuid=\([0-9a-f-]*\).*/\1/p' "$work/results/b/journal")
[ -n "$ua" ] && [ -n "$ub" ] && [ "$ua" != "$ub" ] || fail "domain UUIDs: '$ua' and '$ub'"
grep -q "^run id=$ida pid=$pa " "$work/results/a/journal" || fail "run a's journal does not name it"
grep -q "^run id=$idb pid=$pb " "$work/results/b/journal" || fail "run b's journal does not name it"
grep -qF "$ida" "$work/results/b/journal" && fail "run b's journal names run a's objects"
grep -qF "$idb" "$work/results/a/journal" && fail "run a's journal names run b's objects"
echo ok
