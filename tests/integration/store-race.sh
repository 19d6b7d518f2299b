#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Two writers finishing together both land: two vmdiskcmp processes adding
# different results at once to a store that does not exist yet (both
# create it; one links it into place, the other opens it), in 5 rounds;
# then two writers started while a third process holds the write lock
# (sqlite3: BEGIN IMMEDIATE for 2 s): both wait (busy timeout) and land.
# Every round: both results recorded once, the store passes
# PRAGMA integrity_check, no temporary file left.  Run time: about 8 s.
. "$top_srcdir/tests/lib.sh"
[ -x "$VMDISKCMP" ] || fail "VMDISKCMP not built: $VMDISKCMP"
need_cmd sqlite3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || fail "cd $work"
lab=$(cd "$top_srcdir/results" && pwd -P)
a="$lab/2026-12-02-lab-main-job-readme-EMULATED/result-2"
b="$lab/2026-12-02-lab-cache-hostcost-EMULATED/result-2"
[ -f "$a/result.json" ] && [ -f "$b/result.json" ] || fail "committed lab results missing"

check() {   # STORE WHAT
    [ "$(sqlite3 "$1" 'SELECT count(*) FROM results')" = 2 ] || fail "$2: not both results: $(sqlite3 "$1" 'SELECT source FROM results')"
    [ "$(sqlite3 "$1" 'PRAGMA integrity_check')" = ok ] || fail "$2: integrity_check"
    ls -A | grep -q '^\..*\.sqlite\.' && fail "$2: a temporary store was left: $(ls -A)"
    return 0
}
for round in 1 2 3 4 5; do
    s=race$round.sqlite
    "$VMDISKCMP" store add --store $s "$a" -q 2>a$round.err & pa=$!
    "$VMDISKCMP" store add --store $s "$b" -q 2>b$round.err & pb=$!
    wait $pa || fail "round $round: writer a failed: $(cat a$round.err)"
    wait $pb || fail "round $round: writer b failed: $(cat b$round.err)"
    check $s "round $round"
done

# a third process holds the write lock: both writers wait and land
"$VMDISKCMP" store add --store held.sqlite "$lab/2026-11-30-lab-main-job-EMULATED/result" -q || fail "first add"
(echo 'BEGIN IMMEDIATE;'; sleep 2; echo 'COMMIT;') | sqlite3 held.sqlite & holder=$!
sleep 0.5
"$VMDISKCMP" store add --store held.sqlite "$a" -q 2>ha.err & pa=$!
"$VMDISKCMP" store add --store held.sqlite "$b" -q 2>hb.err & pb=$!
wait $pa || fail "held lock: writer a failed: $(cat ha.err)"
wait $pb || fail "held lock: writer b failed: $(cat hb.err)"
wait $holder
[ "$(sqlite3 held.sqlite 'SELECT count(*) FROM results')" = 3 ] || fail "held lock: not all three results"
[ "$(sqlite3 held.sqlite 'PRAGMA integrity_check')" = ok ] || fail "held lock: integrity_check"
exit 0
