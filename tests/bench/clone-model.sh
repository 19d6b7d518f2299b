#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark (not a test): does how a job's clones run decide what is
# measured?  fio 3.33 and vmdiskcmp-agent, each with its clones as
# processes (both tools' default) and as threads (thread=1 added to the
# job), interleaved and rotated each round, on a direct-I/O loop device
# over an image in RAM (BENCH_IMG_DIR, default /dev/shm) filled with random
# data; fio's buffers in huge pages (--mem=shmhuge) as the agent's.  Per
# job and variant: IOPS and clat p99 of each round, their means, and the
# ratio of each variant's mean IOPS to fio-proc's (summary.txt).
#
# Usage (root): tests/bench/clone-model.sh ROUNDS
#   or: tests/bench/clone-model.sh --summary DIR
# Env: VDC_AGENT (default ./guest-agent/vmdiskcmp-agent), FIO, BENCH_OUT
# (raw outputs, default a new directory under /tmp, kept), BENCH_IMG_DIR,
# BENCH_JOBS (job files; default tests/bench/jobs' numjobs 2 io_uring and
# numjobs 4 psync jobs), BENCH_RUNTIME and BENCH_RAMP (seconds replacing
# the jobs' runtime= and ramp_time=; default 8 and 2).  ~10 s per run:
# 4 rounds of 2 jobs x 4 variants take ~6 minutes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)

summarize() {
    d=$1
    for f in "$d"/*-*-*.json; do
        [ -s "$f" ] || continue
        b=$(basename "$f" .json)
        tool=${b%%-*}; rest=${b#*-}; model=${rest%%-*}; rest=${rest#*-}
        job=${rest%-*}; round=${rest##*-}
        case $tool in
        agent) jq -r --arg k "$job $tool-$model $round" '.runs[0] |
                if .status != "ok" then error("run failed: \(.error)") else . end |
                "\($k) \([.samples[].value] | add) \(.samples[0].workload.clat_us.p99)"' "$f" ;;
        fio) jq -r --arg k "$job $tool-$model $round" '.jobs[0] |
                (if .read.total_ios > 0 then .read else .write end) as $d |
                "\($k) \(.read.iops + .write.iops) \($d.clat_ns.percentile["99.000000"] / 1000)"' "$f" ;;
        *) echo "bench: $f: expected agent-MODEL-JOB-N.json or fio-MODEL-JOB-N.json" >&2; return 1 ;;
        esac || { echo "bench: $f: expected a $tool JSON result" >&2; return 1; }
    done > "$d/values.txt"
    awk '{ k = $1 " " $2; n[k]++; iops[k] += $4; p99[k] += $5; jobs[$1] = 1; v[$2] = 1
           each[k] = each[k] sprintf(" %.0f/%.0f", $4, $5) }
        END {
            printf "%-30s %-13s %10s %9s %9s  %s\n", "job", "variant", "IOPS", "p99 us", "/fio-proc", "rounds (IOPS/p99)"
            split("agent-proc agent-thread fio-proc fio-thread", order, " ")
            for (j in jobs) {
                base = n[j " fio-proc"] ? iops[j " fio-proc"] / n[j " fio-proc"] : 0
                for (i = 1; i <= 4; i++) {
                    k = j " " order[i]
                    if (!n[k]) continue
                    m = iops[k] / n[k]
                    printf "%-30s %-13s %10.0f %9.0f %9s %s\n", j, order[i], m, p99[k] / n[k],
                           base ? sprintf("%.3f", m / base) : "-", each[k]
                }
            }
        }' "$d/values.txt" > "$d/summary.txt"
    cat "$d/summary.txt"
}

if [ "${1:-}" = --summary ]; then
    [ -d "${2:-}" ] || { echo "bench: --summary DIR: expected a directory" >&2; exit 2; }
    summarize "$2"
    exit $?
fi
rounds=${1:-}
case $rounds in ''|*[!0-9]*|0*) echo "bench: ROUNDS '$rounds': expected a whole number > 0" >&2; exit 2 ;; esac
agent=${VDC_AGENT:-./guest-agent/vmdiskcmp-agent}
fio=${FIO:-$(command -v fio || echo fio)}
runtime=${BENCH_RUNTIME:-8} ramp=${BENCH_RAMP:-2}
for v in "BENCH_RUNTIME $runtime" "BENCH_RAMP $ramp"; do
    case ${v#* } in ''|*[!0-9]*) echo "bench: ${v% *} '${v#* }': expected whole seconds" >&2; exit 2 ;; esac
done
jobs=${BENCH_JOBS:-$here/jobs/uring-randwrite-16k-qd8-nj2.fio $here/jobs/psync-read-128k-nj4.fio}
[ "$(id -u)" = 0 ] || { echo "bench: run as root (loop devices, huge pages)" >&2; exit 2; }
for t in "$agent" "$fio" jq losetup; do
    command -v "$t" >/dev/null 2>&1 || { echo "bench: $t not found" >&2; exit 2; }
done
for j in $jobs; do
    [ -r "$j" ] || { echo "bench: BENCH_JOBS: $j: no such job file" >&2; exit 2; }
done
out=${BENCH_OUT:-$(mktemp -d /tmp/vdc-bench-clones.XXXXXX)}
mkdir -p "$out"
img= dev= hp0= hp_file=/proc/sys/vm/nr_hugepages
cleanup() {
    trap - EXIT HUP INT TERM
    [ -z "$hp0" ] || echo "$hp0" > "$hp_file" || true
    [ -z "$dev" ] || [ "$(losetup -n -O BACK-FILE "$dev" 2>/dev/null)" != "$img" ] || losetup -d "$dev" || true
    [ -z "$img" ] || rm -f "$img"
}
trap cleanup EXIT
trap 'cleanup; exit 130' HUP INT TERM
for j in $jobs; do
    n=$(basename "$j" .fio)
    sed -e "s/^runtime=.*/runtime=$runtime/" -e "s/^ramp_time=.*/ramp_time=$ramp/" "$j" > "$out/$n-proc.fio"
    { cat "$out/$n-proc.fio"; echo thread; } > "$out/$n-thread.fio"
done
img=$(mktemp "${BENCH_IMG_DIR:-/dev/shm}/vdc-bench-clones.XXXXXX")
head -c $((1088 * 1048576)) /dev/urandom > "$img"
dev=$(losetup -f --show --direct-io=on "$img")
hp0=$(cat "$hp_file")
echo $((hp0 + 40)) > "$hp_file"
{
    echo "$rounds rounds, jobs: $jobs (runtime=$runtime ramp_time=$ramp)"
    echo "$dev over $img, direct-io $(cat /sys/block/${dev#/dev/}/loop/dio); $(nproc) cores"
    echo "autogroup: $(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null || echo absent)"
    echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/setup.txt"
set -- agent-proc agent-thread fio-proc fio-thread
for r in $(seq 1 "$rounds"); do
    for v in "$@"; do
        for j in $jobs; do
            n=$(basename "$j" .fio) m=${v#*-}
            case $v in
            agent-*) "$agent" -d "$dev" --job "$out/$n-$m.fio" --seed 1 -q --destroy-data \
                        --json "$out/$v-$n-$r.json" > /dev/null 2> "$out/$v-$n-$r.err" ;;
            fio-*) "$fio" --filename="$dev" --mem=shmhuge --hugepage-size=2m --output-format=json \
                        "$out/$n-$m.fio" > "$out/$v-$n-$r.json" 2> "$out/$v-$n-$r.err" ;;
            esac
        done
    done
    first=$1; shift; set -- "$@" "$first"
    echo "round $r done (load $(cut -d' ' -f1 /proc/loadavg))" | tee -a "$out/setup.txt"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/setup.txt"
summarize "$out"
echo "bench: raw outputs and summary.txt in $out"
