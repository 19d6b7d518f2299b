#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark summary (not a test): the ratios doc/performance.md "At modern
# speeds" must show, side by side in one table, read from the summaries
# make bench-modern leaves in BENCH_OUT (block/summary.txt of
# agent-vs-bonnie-fio.sh; jobs/ and null/summary.txt of
# workloads-vs-fio.sh): block rewrite and block read agent/bonnie++
# (target 0.95-1.05), every numjobs job's IOPS (0.97-1.03) and clat p99
# (0.90-1.10) agent/fio per target, the null engine's CPU per I/O
# agent/fio (at most 1).  Per row: the ratio of means with its 95 %
# interval, the paired ratio (geometric mean of the rounds' ratios) with
# its interval, the target, and where they lie: "inside" (the paired
# interval within the target), "point inside" (the paired ratio within,
# its interval not), "outside".  Rows whose summary is missing are left
# out.  No timings are judged here; the summaries hold the numbers.
#
# Usage: tests/bench/modern-summary.sh DIR
set -eu
dir=${1:-}
[ -n "$dir" ] && [ -d "$dir" ] || { echo "modern-summary: DIR: expected make bench-modern's BENCH_OUT (with block/, jobs/, null/)" >&2; exit 2; }
{
    # block: "test agent/bonnie MEAN (LO-HI) ..." (bootstrap), then the
    # paired section "test agent/bonnie PAIRS RATIO (LO-HI) ..."
    [ -s "$dir/block/summary.txt" ] && awk '
        /^paired:/ { paired = 1 }
        ($1 == "rewrite" || $1 == "get_block") && $2 == "agent/bonnie" {
            if (!paired && $4 ~ /^\(/) { m[$1] = $3; mci[$1] = $4 }
            if (paired && $5 ~ /^\(/) { p[$1] = $4; pci[$1] = $5 }
        }
        END {
            for (t in p) {
                gsub(/[()]/, "", mci[t]); gsub(/[()]/, "", pci[t])
                print "block " t " agent/bonnie++", m[t], mci[t], p[t], pci[t], "0.95", "1.05"
            }
        }' "$dir/block/summary.txt"
    # jobs and null: "tgt workload metric agent CV fio CV ratio CI paired CI target"
    for pass in jobs null; do
        [ -s "$dir/$pass/summary.txt" ] || continue
        awk -v pass="$pass" '
            NR > 1 && pass == "jobs" && $3 == "iops" { print $1 " " $2 " IOPS", $8, $9, $10, $11, "0.97", "1.03" }
            NR > 1 && pass == "jobs" && $3 == "p99" { print $1 " " $2 " p99", $8, $9, $10, $11, "0.90", "1.10" }
            NR > 1 && pass == "null" && $3 == "cpu_us" { print $1 " " $2 " CPU/I/O", $8, $9, $10, $11, "0", "1" }
        ' "$dir/$pass/summary.txt"
    done
} | awk '
    # NAME (words) RATIO CI PAIRED PCI LO HI: the last six fields are numbers
    {
        hi = $NF; lo = $(NF - 1); pci = $(NF - 2); pr = $(NF - 3); ci = $(NF - 4); r = $(NF - 5)
        name = $1; for (i = 2; i <= NF - 6; i++) name = name " " $i
        split(pci, b, "-")
        if (b[1] + 0 >= lo && b[2] + 0 <= hi) where = "inside"
        else if (pr + 0 >= lo && pr + 0 <= hi) where = "point inside"
        else where = "outside"
        target = lo == 0 ? "<= " hi : lo "-" hi
        rows[++n] = sprintf("%-44s %6s %-12s %6s %-12s %-10s %s", name, r, ci, pr, pci, target, where)
    }
    END {
        if (!n) { print "modern-summary: no summaries found" > "/dev/stderr"; exit 1 }
        printf "%-44s %6s %-12s %6s %-12s %-10s %s\n", "agent against its peer", "ratio", "95% CI", "paired", "95% CI", "target", "paired interval"
        for (i = 1; i <= n; i++) print rows[i]
    }'
