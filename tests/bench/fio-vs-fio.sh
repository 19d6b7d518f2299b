#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark (not a test): fio 3.33 against itself with one difference of
# options, interleaved on the same target, to tell an option's effect from
# the drift between two passes of workloads-vs-fio.sh (doc/performance.md,
# Run 4: fio's IOPS with and without --disk_util=0 came from passes 10
# minutes apart).  Target: a loop device with direct I/O over an image of
# random data in RAM (/dev/shm), as workloads-vs-fio.sh's "ram".  Per
# round: fio with the job file as given ("A") and with BENCH_FIO_B's
# options added ("B"), the order swapped each round.  Prints each run's
# IOPS (reads + writes, fio's JSON of the group) and CPU microseconds per
# I/O (usr_cpu + sys_cpu x job_runtime / I/Os), and the paired ratio B/A:
# the geometric mean of the rounds' ratios with a 95 % t interval on their
# logarithms (rounds - 1 degrees of freedom).
#
# Usage (root): tests/bench/fio-vs-fio.sh JOBFILE [ROUNDS]
# Env: FIO (default fio), BENCH_FIO_B (default "--disk_util=0"),
# BENCH_OUT (raw JSON; default a new temporary directory, kept).
set -eu
job=${1:-}
rounds=${2:-8}
[ -f "$job" ] || { echo "fio-vs-fio: JOBFILE '$job': expected a fio job file" >&2; exit 2; }
case $rounds in ''|*[!0-9]*|0|1) echo "fio-vs-fio: ROUNDS '$rounds': expected a whole number of at least 2" >&2; exit 2 ;; esac
[ "$(id -u)" = 0 ] || { echo "fio-vs-fio: needs root (losetup)" >&2; exit 2; }
fio=${FIO:-fio} b=${BENCH_FIO_B:---disk_util=0}
out=${BENCH_OUT:-$(mktemp -d /var/tmp/vdc-fio-vs-fio.XXXXXX)}
mkdir -p "$out"
dir=$(mktemp -d /dev/shm/vdc-fio-vs-fio.XXXXXX) dev=
cleanup() { [ -n "$dev" ] && losetup -d "$dev"; rm -rf "$dir"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
head -c $((1024 * 1048576)) /dev/urandom > "$dir/ram.img"
dev=$(losetup -f --show --direct-io=on "$dir/ram.img")
echo "fio-vs-fio: $rounds rounds, $(basename "$job"), $dev over RAM, A = as given, B = + $b, raw JSON in $out"
echo "fio-vs-fio: load before: $(cut -d' ' -f1-3 /proc/loadavg); $("$fio" --version)"
run() { # A|B round
    # shellcheck disable=SC2086 # B's options split on blanks
    if [ "$1" = A ]; then "$fio" --filename="$dev" --output-format=json "$job" > "$out/$1-$2.json"
    else "$fio" --filename="$dev" $b --output-format=json "$job" > "$out/$1-$2.json"; fi
}
for r in $(seq 1 "$rounds"); do
    if [ $((r % 2)) = 1 ]; then run A "$r"; run B "$r"; else run B "$r"; run A "$r"; fi
    echo "fio-vs-fio: round $r done (load $(cut -d' ' -f1 /proc/loadavg))"
done
# one line per run: "round tool iops cpu_us" from fio's JSON (jobs[0], the group)
for f in "$out"/[AB]-*.json; do
    python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
ios = j["read"]["total_ios"] + j["write"]["total_ios"]
rt = j["job_runtime"] / 1000.0
iops = (j["read"]["iops"] + j["write"]["iops"])
cpu = (j["usr_cpu"] + j["sys_cpu"]) / 100.0 * rt
print(sys.argv[2], sys.argv[3], "%.1f" % iops, "%.3f" % (cpu / ios * 1e6 if ios else float("nan")))
' "$f" "$(basename "$f" .json | cut -d- -f2)" "$(basename "$f" | cut -c1)"
done | sort -n > "$out/values.txt"
awk '
    { v[$1, $2, "iops"] = $3; v[$1, $2, "cpu"] = $4; if ($1 > n) n = $1 }
    END {
        # t(0.975) for 1..30 degrees of freedom
        split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", t, " ")
        for (m = 1; m <= 2; m++) {
            k = m == 1 ? "iops" : "cpu"; s = 0; ss = 0; sa = 0; sb = 0
            for (r = 1; r <= n; r++) { l = log(v[r, "B", k] / v[r, "A", k]); s += l; ss += l * l; sa += v[r, "A", k]; sb += v[r, "B", k] }
            mean = s / n; sd = sqrt((ss - n * mean * mean) / (n - 1)); h = (n - 1 <= 30 ? t[n - 1] : 1.96) * sd / sqrt(n)
            printf "%-6s A mean %10.3f  B mean %10.3f  paired B/A %.3f (95 %% CI %.3f-%.3f), %d rounds\n", k, sa / n, sb / n, exp(mean), exp(mean - h), exp(mean + h), n
        }
    }' "$out/values.txt" | tee "$out/summary.txt"
