#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Regenerate the expected op sequences of tests/unit/test_agent_jobgen.c
# from fio itself: each NAME.fio here (ioengine=null: fio does no I/O) is
# run by fio 3.33 with --write_iolog, and NAME.seq gets, per clone, the
# directions and offsets fio issued, in order: lines "K read|write OFFSET",
# K the clone's subjob number (fio's file JOB.K.0).  A job with a
# "; vdc-seq-ops: N" line is time-based: its first N I/Os are kept.
# "; vdc-seq-fio: OPTION" lines are given to fio alone (options the agent
# refuses, such as thinktime, to slow the null engine).  A job with
# ramp_time=SECONDS gets, per clone, a line "K ramp" after its first I/O
# logged at or after that time: the I/O whose completion ends fio's ramp
# (time.c ramp_time_over, run from io_completed); make-seq fails when a
# clone's kept I/Os do not reach it.
# Usage: sh make-seq.sh [FIO] (default: fio on PATH); writes NAME.seq
# beside each NAME.fio.  The fio version is checked: another gives other
# sequences (fio 3.36 changed how randseed seeds the clones).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
fio=${1:-fio}
v=$("$fio" --version)
[ "$v" = fio-3.33 ] || { echo "make-seq: $fio is $v: expected fio-3.33" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for job in "$here"/*.fio; do
    name=$(basename "$job" .fio)
    ops=$(sed -n 's/^; vdc-seq-ops: *\([0-9][0-9]*\)$/\1/p' "$job")
    ramp=$(sed -n 's/^ramp_time=\([0-9][0-9]*\)$/\1/p' "$job")
    { cat "$job"; sed -n 's/^; vdc-seq-fio: *//p' "$job"
      echo "write_iolog=$work/$name.log"; } > "$work/$name.fio"
    (cd "$work" && "$fio" --output=/dev/null "$name.fio")
    # iolog v3 lines "TIME FILE ACTION OFFSET LENGTH"; FILE is JOB.K.0;
    # each clone's lines kept in their order (sort -s on K alone)
    awk -v job="$name" -v ops="${ops:-0}" -v ramp_us="$((${ramp:-0} * 1000000))" '
        $3 == "read" || $3 == "write" {
            k = $2; sub("^" job "\\.", "", k); sub("\\.0$", "", k)
            if (k !~ /^[0-9]+$/ || $4 !~ /^[0-9]+$/) {
                printf "make-seq: %s: line %d: expected TIME %s.K.0 ACTION OFFSET LENGTH\n", job, NR, job > "/dev/stderr"
                exit 1
            }
            if (ops && ++n[k] > ops) next
            print k, $3, $4
            seen[k] = 1
            if (ramp_us && !(k in ramped) && $1 >= ramp_us) {
                print k, "ramp"
                ramped[k] = 1
            }
        }
        END {
            for (k in seen)
                if (ramp_us && !(k in ramped)) {
                    printf "make-seq: %s: clone %s: no kept I/O after the ramp\n", job, k > "/dev/stderr"
                    exit 1
                }
        }' "$work/$name.log" | sort -s -n -k1,1 > "$here/$name.seq.tmp"
    mv "$here/$name.seq.tmp" "$here/$name.seq"
    echo "make-seq: $name: $(grep -vc ' ramp$' "$here/$name.seq") I/Os"
done
