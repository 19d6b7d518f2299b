#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Instruction counts (valgrind --tool=callgrind, user space only: what the
# kernel does inside a system call is not counted) of the agent's per-char
# and file-test loops, and the same per operation for bonnie++ 2.00a.
# Not a timing: the counts are the same on a loaded machine (run it niced).
#
# 1. The agent's loop functions, inclusive: per_char_write and
#    per_char_read (per byte moved), create_files (per file created, two
#    calls; the names it makes before the clock starts, make_names, are
#    subtracted for the timed loop), walk_sequential and walk_random (per
#    file stated or deleted: readdir order and shuffled order), from one run
#    `-s 16 -r 8 -n FILES --per-char-size PC_MIB`.
# 2. Per operation for both tools from whole-process totals of two runs
#    differing in one size (bonnie++'s binary is stripped: no function
#    names): per-char Ir/byte = (Ir at 2 PC_MIB - Ir at PC_MIB) / (2 x
#    PC_MIB MiB), the write and the read loop together; file tests Ir/op =
#    (Ir at 2 FILES - Ir at FILES) / (6 x FILES x 1024), the six tests
#    together.
#
# Usage: tests/bench/agent-callgrind.sh [AGENT] [PC_MIB] [FILES]
#   (defaults ./guest-agent/vmdiskcmp-agent, 1, 1); env BENCH_DIR (where
#   the test files go, default a new directory under /tmp, removed),
#   BONNIE.  About 1-2 minutes.
set -eu
agent=${1:-./guest-agent/vmdiskcmp-agent}
pc=${2:-1}
files=${3:-1}
bonnie=${BONNIE:-$(command -v bonnie++ || echo /usr/sbin/bonnie++)}
for v in "PC_MIB $pc" "FILES $files"; do
    case ${v#* } in
        ''|*[!0-9]*|0*) echo "callgrind: ${v% *} '${v#* }': expected a whole number > 0" >&2; exit 2 ;;
    esac
done
for t in valgrind callgrind_annotate "$agent" "$bonnie"; do
    command -v "$t" >/dev/null 2>&1 || { echo "callgrind: $t not found" >&2; exit 2; }
done
work=$(mktemp -d "${BENCH_DIR:-/tmp}/vdc-callgrind.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'rm -rf "$work"; exit 130' INT TERM
mkdir "$work/d"

# cg OUT CMD...: callgrind CMD, profile in OUT; prints nothing
cg() {
    o=$1; shift
    valgrind --tool=callgrind --callgrind-out-file="$o" "$@" \
        > "$o.stdout" 2> "$o.stderr" || {
        echo "callgrind: $* failed:" >&2; tail -5 "$o.stderr" >&2; exit 1; }
}
# total OUT: the whole process's Ir
total() { sed -n 's/^summary: *//p' "$1"; }
run_agent() {  # OUT PC FILES
    cg "$1" "$agent" -d "$work/d" -s 16 -r 8 -n "$3" --per-char-size "$2" \
        -q --seed 1 --csv
}
run_bonnie() {  # OUT PC FILES
    cg "$1" "$bonnie" -d "$work/d" -s 16 -r 8 -n "$3" -f"$2" -u root -q -z 1
}

run_agent "$work/a11" "$pc" "$files"
echo "agent: inclusive Ir of the loop functions (-n $files, --per-char-size $pc):"
bytes=$((pc * 1048576))
n=$((files * 1024))
# lines "12,345 ( 1.34%)  FILE:FUNCTION [OBJECT]"; create_files includes
# make_names (before the clock starts): the timed create loop is the rest
callgrind_annotate --inclusive=yes --threshold=100 "$work/a11" 2>/dev/null |
awk -v bytes=$bytes -v n=$n '
    { f = $0; sub(/ \[[^]]*\]$/, "", f); sub(/.*:/, "", f); ir = $1; gsub(",", "", ir) }
    f ~ /^(per_char_write|per_char_read|create_files|make_names|walk_sequential|walk_random)$/ {
        got[f] = ir
    }
    function line(name, ir, per, unit) {
        printf "  %-22s %12d Ir  %8.1f Ir/%s\n", name, ir, ir / per, unit
    }
    END {
        line("per_char_write", got["per_char_write"], bytes, "byte")
        line("per_char_read", got["per_char_read"], bytes, "byte")
        line("create_files", got["create_files"], 2 * n, "file")
        line("  of which make_names", got["make_names"], 2 * n, "file")
        line("  timed create loop", got["create_files"] - got["make_names"], 2 * n, "file")
        line("walk_sequential", got["walk_sequential"], 2 * n, "file op")
        line("walk_random", got["walk_random"], 2 * n, "file op")
    }'
run_agent "$work/a21" $((2 * pc)) "$files"
run_agent "$work/a12" "$pc" $((2 * files))
run_bonnie "$work/b11" "$pc" "$files"
run_bonnie "$work/b21" $((2 * pc)) "$files"
run_bonnie "$work/b12" "$pc" $((2 * files))
echo "per operation, from whole-process differences:"
for tool in agent:a bonnie++:b; do
    p=${tool#*:}
    awk -v tool=${tool%:*} -v t11="$(total "$work/${p}11")" -v t21="$(total "$work/${p}21")" \
        -v t12="$(total "$work/${p}12")" -v bytes=$bytes -v n=$n 'BEGIN {
        printf "  %-9s per-char %6.1f Ir/byte   file tests %8.1f Ir/file op\n", tool,
               (t21 - t11) / (2 * bytes), (t12 - t11) / (6 * n)
    }'
done
