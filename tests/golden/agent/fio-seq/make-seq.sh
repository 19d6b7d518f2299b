#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Regenerate the expected op sequences of tests/unit/test_agent_jobgen.c
# from fio itself: each NAME.fio here (ioengine=null: fio does no I/O) is
# run by fio 3.33 with --write_iolog, and NAME.seq gets, per clone, the
# directions and offsets fio issued, in order: lines "K read|write OFFSET",
# K the clone's subjob number (fio's file JOB.K.0).  A job with a
# "; vdc-seq-ops: N" line is time-based: its first N I/Os are kept.
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
    { cat "$job"; echo "write_iolog=$work/$name.log"; } > "$work/$name.fio"
    (cd "$work" && "$fio" --output=/dev/null "$name.fio")
    # iolog v3 lines "TIME FILE ACTION OFFSET LENGTH"; FILE is JOB.K.0;
    # each clone's lines kept in their order (sort -s on K alone)
    awk -v job="$name" -v ops="${ops:-0}" '
        $3 == "read" || $3 == "write" {
            k = $2; sub("^" job "\\.", "", k); sub("\\.0$", "", k)
            if (k !~ /^[0-9]+$/ || $4 !~ /^[0-9]+$/) {
                printf "make-seq: %s: line %d: expected TIME %s.K.0 ACTION OFFSET LENGTH\n", job, NR, job > "/dev/stderr"
                exit 1
            }
            if (ops && ++n[k] > ops) next
            print k, $3, $4
        }' "$work/$name.log" | sort -s -n -k1,1 > "$here/$name.seq.tmp"
    mv "$here/$name.seq.tmp" "$here/$name.seq"
    echo "make-seq: $name: $(wc -l < "$here/$name.seq") I/Os"
done
