#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Reproducibility: two runs with the same seed perform the same operations
# (equal op digests: seek offsets, file names, sizes, orders); another seed
# differs; -x repeats reuse the seed (bonnie++ resets its generator) and
# count repetitions up from --repetition; without --seed a seed is drawn
# and printed.  On tmpfs (operations, not speed, matter).  ~10 s.
set -eu
. "$top_srcdir/tests/lib.sh"
need_root
. "$top_srcdir/tests/integration/agent-lib.sh"

make_tmpfs 64m
common="-d $MNT -s 16 -r 8 -n 1:2k:0:3 --per-char-size 0 -q --trace-digest"
digest() { sed -n 's/^vmdiskcmp-agent: trace digest \([0-9a-f]*\) (run .*$/\1/p' "$SCRATCH/err"; }

run_agent 0 $common --seed 1234 --json "$SCRATCH/a.json"
a=$(digest)
run_agent 0 $common --seed 1234 --json "$SCRATCH/b.json"
b=$(digest)
run_agent 0 $common -z 1235
c=$(digest)
[ -n "$a" ] && [ ${#a} = 16 ] || fail "no digest printed: $(cat "$SCRATCH/err")"
[ "$a" = "$b" ] || fail "same seed, different digests: $a $b"
[ "$a" != "$c" ] || fail "seeds 1234 and 1235 gave the same digest $a"
grep -q "\"trace_digest\": \"$a\"" "$SCRATCH/a.json" || fail "digest not in the JSON"
grep -q '"seed": "1234"' "$SCRATCH/a.json" || fail "seed not in the JSON"

# the seek test's operations alone are seeded too (-n 0)
run_agent 0 -d "$MNT" -s 16 -r 8 -n 0 --per-char-size 0 -q --trace-digest --seed 9
s1=$(digest)
run_agent 0 -d "$MNT" -s 16 -r 8 -n 0 --per-char-size 0 -q --trace-digest --seed 10
s2=$(digest)
[ "$s1" != "$s2" ] || fail "seek tickets do not depend on the seed"

# -x 2 --repetition 3: runs 3 and 4, same seed, same digest
run_agent 0 $common --seed 77 -x 2 --repetition 3 --json "$SCRATCH/x.json"
[ "$(digest | sort -u | wc -l)" = 1 ] || fail "-x runs differ: $(digest)"
grep -q '"repetition": 3,' "$SCRATCH/x.json" && grep -q '"repetition": 4,' "$SCRATCH/x.json" \
    || fail "repetitions 3 and 4 not in the JSON"

# no --seed: one is drawn, printed and recorded
run_agent 0 $common --json "$SCRATCH/r.json"
seed=$(sed -n 's/^vmdiskcmp-agent: seed \([0-9]*\)$/\1/p' "$SCRATCH/err")
[ -n "$seed" ] || fail "no seed printed: $(cat "$SCRATCH/err")"
grep -q "\"seed\": \"$seed\"" "$SCRATCH/r.json" || fail "drawn seed $seed not recorded"
echo "PASS: equal seeds give equal digests ($a), other seeds differ"
