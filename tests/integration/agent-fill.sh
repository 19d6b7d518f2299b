#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Aging with the agent (guest-agent/fill.h): --fill on a loop-mounted ext4
# reaches the fill (df's Use%), writes and deletes seeded files (the same
# seed on the same fresh filesystem: the same counts), reads the free
# extents with GETFSMAP (the histogram's counts and bytes add up, its bytes
# agree with statvfs's free space), leaves the fill for the tests, and
# --passes labels every sample; --precondition on a loop device writes all
# of it once and then randomly; the refusals are one line, exit 2, nothing
# written.  ~25 s.
set -eu
. "$top_srcdir/tests/lib.sh"
need_root
need_cmd losetup
need_cmd mkfs.ext4
need_cmd python3
. "$top_srcdir/tests/integration/agent-lib.sh"

# check FILE PYTHON-EXPR MESSAGE: the expression over d (the JSON) holds
check() {
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$1" \
        || fail "$3"
}

make_ext4 256M
run_agent 0 -d "$MNT" -s 8 -r 4 -n 0 --per-char-size 0 --seed 11 --fill 40 \
    --passes first-write,overwrite --json "$SCRATCH/a.json" --target aged -q
a=$SCRATCH/a.json
check "$a" 'd["targets"][0]["name"] == "aged" and d["targets"][0]["aging"]["fill_percent"] == 40' \
    "targets[0].aging names the target and the fill"
check "$a" 'd["targets"][0]["aging"]["used_percent"] >= 40' "the fill reached 40 %"
check "$a" '0 < d["targets"][0]["aging"]["files_deleted"] < d["targets"][0]["aging"]["files_written"]' \
    "files were written and some deleted again"
check "$a" 'd["targets"][0]["aging"]["free_extents_source"] == "GETFSMAP"' "free extents from GETFSMAP"
check "$a" 'sum(c for b, c in d["targets"][0]["aging"]["free_extents"]) == d["targets"][0]["aging"]["free_extent_count"]' \
    "the histogram's counts add up to free_extent_count"
check "$a" 'all(b > 0 and (b & (b - 1)) == 0 for b, c in d["targets"][0]["aging"]["free_extents"])' \
    "bucket bounds are powers of two"
# GETFSMAP's free space is statvfs's f_bfree (the agent's JSON was written
# into the scratch folder, not the filesystem)
bfree=$(( $(stat -f -c %f "$MNT") * $(stat -f -c %S "$MNT") ))
check "$a" "abs(d['targets'][0]['aging']['free_bytes'] - $bfree) <= 1024 * 1024" \
    "free_bytes agrees with statvfs's free blocks ($bfree)"
[ -d "$MNT/vmdiskcmp-fill/d00" ] || fail "the fill is left for the tests"
check "$a" 'len(d["runs"]) == 1 and [s["pass"] for s in d["runs"][0]["samples"]] == ["first-write"] * 4 + ["overwrite"] * 4' \
    "one run; its samples name their pass in order"
used=$(df --output=pcent "$MNT" | tail -n1 | tr -dc 0-9)
[ "$used" -ge 40 ] || fail "df says $used % used after --fill 40"

# the same seed on the same fresh filesystem gives the same files
umount "$MNT"
mkfs.ext4 -q -F "$LOOPDEV" || fail "mkfs.ext4 $LOOPDEV"
mount "$LOOPDEV" "$MNT" || fail "mount $LOOPDEV"
run_agent 0 -d "$MNT" -s 8 -r 4 -n 0 --per-char-size 0 --seed 99 --aging-seed 11 --fill 40 \
    --json "$SCRATCH/b.json" --target aged -q
python3 -c "
import json, sys
a = json.load(open(sys.argv[1]))['targets'][0]['aging']
b = json.load(open(sys.argv[2]))['targets'][0]['aging']
k = ('seed', 'files_written', 'files_deleted', 'bytes_written', 'bytes_deleted')
sys.exit(0 if all(a[x] == b[x] for x in k) else 1)" "$a" "$SCRATCH/b.json" \
    || fail "--aging-seed 11 did not repeat --seed 11's fill"

# refusals: one line, exit 2, nothing written
run_agent 2 -d "$MNT" -s 8 -r 4 --fill 60 -q
grep -q "vmdiskcmp-fill exists" "$SCRATCH/err" || fail "a second fill over the first: $(cat "$SCRATCH/err")"
[ "$(wc -l < "$SCRATCH/err")" = 1 ] || fail "more than one line: $(cat "$SCRATCH/err")"
rm -rf "$MNT/vmdiskcmp-fill"
run_agent 2 -d "$MNT" -s 200 -r 4 -f --fill 80 -q
grep -q "does not fit beside it" "$SCRATCH/err" || fail "-s beside the fill: $(cat "$SCRATCH/err")"
[ ! -e "$MNT/vmdiskcmp-fill" ] || fail "a refused fill wrote something"
run_agent 2 -d "$MNT" --fill 0 -q
grep -q "expected a percentage from 1 to 95" "$SCRATCH/err" || fail "--fill 0: $(cat "$SCRATCH/err")"
run_agent 2 -d "$MNT" -s 8 -r 4 --precondition -q
grep -q "expected a block device" "$SCRATCH/err" || fail "--precondition on a directory: $(cat "$SCRATCH/err")"
run_agent 2 -d "$MNT" --passes a,a -q
grep -q "'a' given twice" "$SCRATCH/err" || fail "--passes a,a: $(cat "$SCRATCH/err")"

# --precondition on a device: all of it once, then random writes
make_loop 16M
run_agent 2 -d "$LOOPDEV" -s 8 -r 4 --fill 10 -q
grep -q "expected a directory" "$SCRATCH/err" || fail "--fill on a device: $(cat "$SCRATCH/err")"
run_agent 0 -d "$LOOPDEV" -s 8 -r 4 -f --seed 5 --precondition=4:3 --json "$SCRATCH/p.json" -q
p=$SCRATCH/p.json
check "$p" 'd["targets"][0]["aging"]["precondition"]["sequential_bytes"] == 16 * 1024 * 1024' \
    "the sequential pass wrote the whole device"
check "$p" 'd["targets"][0]["aging"]["precondition"]["random_bytes"] > 0' "random writes followed"
check "$p" 'd["targets"][0]["aging"]["precondition"]["steady_state"]["window_s"] == 3 and d["targets"][0]["aging"]["precondition"]["steady_state"]["rule"] == "fio ss=iops_slope"' \
    "the steady state's rule and window are recorded"
check "$p" '"fill_percent" not in d["targets"][0]["aging"]' "no fill recorded without --fill"
