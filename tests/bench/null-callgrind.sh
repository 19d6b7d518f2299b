#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Instruction counts (valgrind --tool=callgrind, user space only) per I/O
# of the job engine's null engine against fio 3.33's null engine: what
# each instrument does per I/O besides the I/O itself (the loop, the
# offsets and the random map, clock reads, histograms, buffer stamping).
# The same on a loaded machine (not a timing).
#
# Per job: two runs of SIZE_MIB and 2 x SIZE_MIB (size-based, 4 KiB
# blocks), every process traced (--trace-children: fio's clone and the
# agent's are processes); the clone's count is the largest of a run, and
# Ir per I/O = (count at 2 x SIZE - count at SIZE) / (SIZE / 4 KiB), so
# what does not grow with the I/Os (start-up, the agent's op digest of
# its first 65536 I/Os when SIZE >= 256 MiB, fio's option parsing)
# cancels.  Jobs: randread iodepth 1 (synchronous), randwrite iodepth 8
# (fio's busy rule; every write stamped).
#
# Usage: tests/bench/null-callgrind.sh [AGENT] [SIZE_MIB]
#   (defaults ./guest-agent/vmdiskcmp-agent, 512); env FIO.  ~3 minutes.
set -eu
agent=${1:-./guest-agent/vmdiskcmp-agent}
size=${2:-512}
fio=${FIO:-$(command -v fio || echo fio)}
case $size in ''|*[!0-9]*|0*) echo "callgrind: SIZE_MIB '$size': expected a whole number > 0" >&2; exit 2 ;; esac
[ "$size" -ge 256 ] || { echo "callgrind: SIZE_MIB $size: expected at least 256 (the agent's digest must not grow with it)" >&2; exit 2; }
for t in valgrind "$agent" "$fio"; do
    command -v "$t" >/dev/null 2>&1 || { echo "callgrind: $t not found" >&2; exit 2; }
done
work=$(mktemp -d /tmp/vdc-callgrind-null.XXXXXX)
trap 'rm -rf "$work"' EXIT
trap 'rm -rf "$work"; exit 130' INT TERM
mkdir "$work/d"
# largest PREFIX.*: the clone's total Ir
clone_ir() {
    for f in "$1".*; do sed -n 's/^summary: *//p' "$f"; done | sort -n | tail -1
}
printf "%-22s %14s %14s %8s\n" "job" "agent Ir/I/O" "fio Ir/I/O" "ratio"
for job in "randread 1" "randwrite 8"; do
    set -- $job
    for s in "$size" $((2 * size)); do
        printf "[null]\nioengine=null\nrw=%s\nbs=4k\niodepth=%s\nsize=%sm\n" "$1" "$2" "$s" \
            > "$work/j$s.fio"
        valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$work/a$s.%p" \
            "$agent" -d "$work/d" --job "$work/j$s.fio" -q --seed 1 > /dev/null 2>&1 ||
            { echo "callgrind: the agent failed on $work/j$s.fio" >&2; exit 1; }
        valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$work/f$s.%p" \
            "$fio" --output=/dev/null "$work/j$s.fio" > /dev/null 2>&1 ||
            { echo "callgrind: fio failed on $work/j$s.fio" >&2; exit 1; }
    done
    ios=$((size * 256))
    a=$(( ($(clone_ir "$work/a$((2 * size))") - $(clone_ir "$work/a$size")) / ios ))
    f=$(( ($(clone_ir "$work/f$((2 * size))") - $(clone_ir "$work/f$size")) / ios ))
    printf "%-22s %14d %14d %8s\n" "$1 iodepth $2" "$a" "$f" \
        "$(awk -v a="$a" -v f="$f" 'BEGIN { printf "%.3f", a / f }')"
    rm -f "$work"/a* "$work"/f*
done
