#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# psync read 128k numjobs 4 on a RAM-backed direct-I/O loop device: fio 3.33 with its buffers
# malloc'd (its default) and in huge pages (--mem=shmhuge), and the agent (transparent huge
# pages), alternating, the order rotated each round; all on CPU 0.  Usage: fio-mem.sh ROUNDS OUT AGENT JOB
set -eu
rounds=$1 out=$2 agent=$3 job=$4
img=$(mktemp /dev/shm/vdc-fio-mem.XXXXXX) dev= hp0=$(cat /proc/sys/vm/nr_hugepages)
cleanup() { [ -z "$dev" ] || losetup -d "$dev"; rm -f "$img"; echo "$hp0" > /proc/sys/vm/nr_hugepages; }
trap cleanup EXIT
head -c $((1088 * 1048576)) /dev/urandom > "$img"
dev=$(losetup -f --show --direct-io=on "$img")
echo $((hp0 + 8)) > /proc/sys/vm/nr_hugepages
echo "$dev over $img, dio $(cat /sys/block/${dev#/dev/}/loop/dio); nr_hugepages $(cat /proc/sys/vm/nr_hugepages); load $(cut -d' ' -f1-3 /proc/loadavg)" > "$out/setup.txt"
set -- fio_malloc fio_shmhuge agent
for r in $(seq 1 "$rounds"); do
    for v in "$@"; do
        case $v in
        fio_malloc) taskset -c 0 fio --filename="$dev" --mem=malloc --output-format=json "$job" > "$out/$v-$r.json" 2> "$out/$v-$r.err" ;;
        fio_shmhuge) taskset -c 0 fio --filename="$dev" --mem=shmhuge --hugepage-size=2048k --output-format=json "$job" > "$out/$v-$r.json" 2> "$out/$v-$r.err" ;;
        agent) taskset -c 0 "$agent" -d "$dev" --job "$job" --seed 1 -q --destroy-data --json "$out/$v-$r.json" > /dev/null 2> "$out/$v-$r.err" ;;
        esac
    done
    first=$1; shift; set -- "$@" "$first"
    echo "round $r done (load $(cut -d' ' -f1 /proc/loadavg))" >> "$out/setup.txt"
done
for f in "$out"/*.json; do
    b=$(basename "$f" .json)
    case $b in
    agent-*) jq -r --arg b "$b" '.runs[0].samples[0].workload as $w | "\($b) iops \([.runs[0].samples[].value] | add) cpu_us \($w.cpu.thread_us_per_io) p99 \($w.clat_us.p99)"' "$f" ;;
    *) jq -r --arg b "$b" '.jobs[0] | "\($b) iops \(.read.iops) cpu_us \((.usr_cpu + .sys_cpu) / 100 * .job_runtime * 1000 / .read.total_ios) p99 \(.read.clat_ns.percentile["99.000000"] / 1000)"' "$f" ;;
    esac
done | sort -t- -k2n > "$out/values.txt"
