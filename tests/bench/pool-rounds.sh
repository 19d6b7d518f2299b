#!/bin/sh
# Benchmark helper (not a test): pool the raw outputs of several runs of
# tests/bench/agent-vs-bonnie-fio.sh made with the same method (same sizes,
# target and tools) into one directory, so one summary covers all their
# rounds (doc/performance.md, "pooled").  Copies each DIR's bonnie-N.csv
# and agent-N.csv pairs, in the order given, renumbered 1, 2, ... so a
# round's two runs stay paired; a round missing either file is left out.
#
# Usage: tests/bench/pool-rounds.sh OUT DIR...
#   then: tests/bench/agent-vs-bonnie-fio.sh --summary OUT
# OUT must not exist (nothing is overwritten).
set -eu
[ $# -ge 2 ] || { echo "usage: $0 OUT DIR..." >&2; exit 2; }
out=$1; shift
[ ! -e "$out" ] || { echo "pool-rounds: $out: exists; expected a new directory" >&2; exit 2; }
for d in "$@"; do
    ls "$d"/bonnie-*.csv >/dev/null 2>&1 || {
        echo "pool-rounds: $d: no bonnie-N.csv; expected a benchmark output directory" >&2; exit 2; }
done
mkdir -p "$out"
k=0
for d in "$@"; do
    n=$(ls "$d"/bonnie-*.csv | wc -l)
    i=0
    while [ "$i" -lt "$n" ]; do
        i=$((i + 1))
        [ -s "$d/bonnie-$i.csv" ] && [ -s "$d/agent-$i.csv" ] || continue
        k=$((k + 1))
        cp "$d/bonnie-$i.csv" "$out/bonnie-$k.csv"
        cp "$d/agent-$i.csv" "$out/agent-$k.csv"
    done
done
echo "pool-rounds: $k rounds from $# runs in $out"
