#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark helper (not a test): pool the raw outputs of several runs of
# tests/bench/agent-vs-bonnie-fio.sh made with the same method (same sizes,
# target and tools) into one directory, so one summary covers all their
# rounds (doc/performance.md, "pooled").  Copies each DIR's bonnie-N.csv
# and agent-N.csv pairs, DIRs in the order given and rounds in increasing
# N, renumbered 1, 2, ... so a round's two runs stay paired.  Every
# bonnie-N.csv needs its agent-N.csv and the other way round (a half
# round stops the pool, named); a DIR given twice is refused.
#
# Usage: tests/bench/pool-rounds.sh OUT DIR...
#   then: tests/bench/agent-vs-bonnie-fio.sh --summary OUT
# OUT must not exist (nothing is overwritten); its parent must.
set -eu
fail() { echo "pool-rounds: $*" >&2; exit 2; }
[ $# -ge 2 ] || fail "usage: $0 OUT DIR..."
out=$1; shift
case $out in ''|-*) fail "OUT '$out': expected a new directory's path" ;; esac
[ ! -e "$out" ] || fail "$out: exists; expected a new directory"
[ -d "$(dirname -- "$out")" ] || fail "$out: no directory $(dirname -- "$out"); expected an existing parent"
seen=
for d in "$@"; do
    [ -d "$d" ] || fail "$d: not a directory; expected a benchmark output directory"
    id=$(cd "$d" && pwd -P)
    case " $seen " in *" $id "*) fail "$d: given twice" ;; esac
    seen="$seen $id"
    # rounds: the N of every bonnie-N.csv and agent-N.csv, each in both
    for f in "$d"/bonnie-*.csv "$d"/agent-*.csv; do
        [ -e "$f" ] || continue
        b=${f##*/}; n=${b#*-}; n=${n%.csv}
        case $n in ''|*[!0-9]*) fail "$f: expected bonnie-N.csv or agent-N.csv, N a round number" ;; esac
        [ -s "$d/bonnie-$n.csv" ] && [ -s "$d/agent-$n.csv" ] \
            || fail "$d: round $n: expected a non-empty bonnie-$n.csv and agent-$n.csv"
    done
    ls "$d"/bonnie-*.csv >/dev/null 2>&1 || fail "$d: no bonnie-N.csv; expected a benchmark output directory"
done
mkdir -- "$out"
k=0
for d in "$@"; do
    for n in $(ls "$d" | sed -n 's/^bonnie-\([0-9][0-9]*\)\.csv$/\1/p' | sort -n); do
        k=$((k + 1))
        cp -- "$d/bonnie-$n.csv" "$out/bonnie-$k.csv"
        cp -- "$d/agent-$n.csv" "$out/agent-$k.csv"
    done
done
echo "pool-rounds: $k rounds from $# runs in $out"
