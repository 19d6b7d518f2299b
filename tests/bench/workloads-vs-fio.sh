#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark (not a test): vmdiskcmp-agent's job engine against fio 3.33 on
# the same target, in one run, interleaved (agent fio, then fio agent, ...),
# with the same job files (templates/workloads/*.fio, given to fio
# unchanged: `fio --filename=DEV --mem=shmhuge FILE`, the buffers in huge
# pages as the agent's, BENCH_FIO_MEM below).  Targets: a loop device with
# direct I/O over an image on the machine's disk ("disk", BENCH_IMG_DIR,
# default /tmp) and over an image in RAM ("ram", /dev/shm), both filled
# with random data first, so reads find data; O_DIRECT (the profiles say
# direct=1).  Per (target, workload): each tool's mean IOPS (reads +
# writes), clat p50 and p99 (of the job's first direction: reads for
# randrw), CPU microseconds per I/O (usr+sys over the measured window / all
# I/Os: the agent's getrusage, fio's usr_cpu+sys_cpu x job_runtime), the
# I/Os per CPU second ("IOPS per core": I/Os / that CPU), the
# run-to-run CV, and the ratio agent/fio of the means with a 95 %
# percentile-bootstrap interval (2000 resamples of each tool's rounds,
# seeded: the same raw outputs give the same intervals), and the paired
# ratio: the geometric mean of each round's agent/fio ratio (the two runs
# of a round are adjacent in time, so the machine's slow drift cancels)
# with a bootstrap interval over the rounds; the verdict uses the paired
# ratio.  Targets: IOPS
# ratio 0.97-1.03, p50 and p99 within 10 %, CPU per I/O agent <= fio
# (IOPS per core agent >= fio).  A job with numjobs > 1 must say
# group_reporting, so fio's JSON holds the clones together as the agent's
# result does (stat.c sum_thread_stats); the benchmark jobs of
# tests/bench/jobs do (make bench-jobs).
#
# Usage (root): tests/bench/workloads-vs-fio.sh [ROUNDS]
#   or: make bench-workloads [BENCH_ROUNDS=3]
#   or: tests/bench/workloads-vs-fio.sh --summary DIR (recompute from raw outputs)
# Env: VDC_AGENT (default ./guest-agent/vmdiskcmp-agent), FIO, BENCH_OUT
# (raw outputs; default a new temporary directory, kept), BENCH_IMG_DIR,
# BENCH_TARGETS ("disk ram"), BENCH_CPU (pin both tools to one CPU),
# BENCH_WQ_CPUS (confine unbound workqueues, where the loop device's worker
# runs, to these CPUs for the run: "0" or "0,2"; restored on every exit),
# BENCH_FIO_MEM (fio's --mem for its I/O buffers: shmhuge, the default,
# huge pages as the agent's, reserved for the run and released after; or
# malloc, fio's own default), BENCH_FIO_ARGS (more fio options, given
# before the job file, e.g. "--disk_util=0": recorded in the console),
# BENCH_WORKLOADS (profile names, or paths of job files ending .fio,
# named by their file name; default the five profiles of
# doc/performance.md), VDC_WORKLOAD_DIR (default templates/workloads
# beside this script).  Each run is 3 s ramp + 15 s:
# 3 rounds x 2 targets x 5 workloads x 2 tools take ~20 minutes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)

# values DIR: one line "target workload tool metric value" per raw output
values() {
    for f in "$1"/agent-*.json "$1"/fio-*.json; do
        [ -s "$f" ] || continue
        b=$(basename "$f" .json)
        tool=${b%%-*}; rest=${b#*-}; tgt=${rest%%-*}; rest=${rest#*-}
        wl=${rest%-*}; round=${rest##*-}
        if [ "$tool" = agent ]; then
            jq -r --arg p "$tgt $wl agent" --arg r "$round" '.runs[0] |
                if .status != "ok" then error("run failed: \(.error)") else . end |
                .samples as $s | $s[0].workload as $w |
                "\($p) iops \([$s[].value] | add) \($r)",
                "\($p) p50 \($w.clat_us.p50) \($r)", "\($p) p99 \($w.clat_us.p99) \($r)",
                "\($p) cpu_us \($w.cpu.thread_us_per_io) \($r)",
                "\($p) iops_core \(1e6 / $w.cpu.thread_us_per_io) \($r)"' "$f"
        else
            jq -r --arg p "$tgt $wl fio" --arg r "$round" '
                if (.jobs | length) != 1 then
                    error("\(.jobs | length) jobs: expected one (group_reporting with numjobs > 1)")
                else . end | .jobs[0] as $j |
                (if $j.read.total_ios > 0 then $j.read else $j.write end) as $d |
                ($j.read.total_ios + $j.write.total_ios) as $n |
                "\($p) iops \($j.read.iops + $j.write.iops) \($r)",
                "\($p) p50 \($d.clat_ns.percentile["50.000000"] / 1000) \($r)",
                "\($p) p99 \($d.clat_ns.percentile["99.000000"] / 1000) \($r)",
                "\($p) cpu_us \(($j.usr_cpu + $j.sys_cpu) / 100 * $j.job_runtime * 1000 / $n) \($r)",
                "\($p) iops_core \($n / (($j.usr_cpu + $j.sys_cpu) / 100 * $j.job_runtime / 1000)) \($r)"' "$f"
        fi || { echo "bench: $f: expected a $tool JSON result" >&2; return 1; }
    done
}

summarize() {
    values "$1" > "$1/values.txt.tmp" || { rm -f "$1/values.txt.tmp"; return 1; }
    [ -s "$1/values.txt.tmp" ] || { rm -f "$1/values.txt.tmp"
        echo "bench: $1: no raw outputs (agent-T-W-N.json, fio-T-W-N.json)" >&2; return 2; }
    mv "$1/values.txt.tmp" "$1/values.txt"
    awk -v reps=2000 '
    { k = $1 " " $2 " " $4; t = $3; n[k, t]++; v[k, t, n[k, t]] = $5; keys[k] = 1
      rv[k, t, $6] = $5; rounds[k, $6] = rounds[k, $6] + 1 }
    # the rounds where both tools gave a value: the ratio of each pair
    # (adjacent in time, so slow drift of the machine cancels), their
    # geometric mean and a bootstrap interval over the pairs
    function pairs(k,   key, sp, np) {
        np = 0
        for (key in rounds) {
            split(key, sp, SUBSEP)
            if (sp[1] == k && rounds[key] == 2 && rv[k, "fio", sp[2]] > 0 && rv[k, "agent", sp[2]] > 0)
                pr[k, ++np] = log(rv[k, "agent", sp[2]] / rv[k, "fio", sp[2]])
        }
        return np
    }
    # a value with 4 significant digits at least (CPU per null I/O is
    # a tenth of a microsecond)
    function num(x) { return x < 100 ? sprintf("%.4g", x) : sprintf("%.1f", x) }
    function mean(k, t, boot,   i, s) {
        s = 0
        for (i = 1; i <= n[k, t]; i++)
            s += boot ? v[k, t, 1 + int(rand() * n[k, t])] : v[k, t, i]
        return s / n[k, t]
    }
    function cv(k, t,   i, m, ss) {
        if (n[k, t] < 2) return -1
        m = mean(k, t, 0); ss = 0
        for (i = 1; i <= n[k, t]; i++) ss += (v[k, t, i] - m) ^ 2
        return m > 0 ? 100 * sqrt(ss / (n[k, t] - 1)) / m : 0
    }
    # the null engine (a workload named null-*) measures the instrument:
    # only its CPU per I/O has a target (at most that of fio)
    function verdict(wl, metric, r, lo, hi) {
        if (wl ~ /^null-/ && metric != "cpu_us" && metric != "iops_core") return "-"
        if (metric == "iops") return (r >= 0.97 && r <= 1.03) ? "ok" : "MISS"
        if (metric == "cpu_us") return r <= 1 ? "ok" : "MISS"
        if (metric == "iops_core") return r >= 1 ? "ok" : "MISS"
        return (r >= 0.9 && r <= 1.1) ? "ok" : "MISS"
    }
    END {
        srand(1)
        printf "%-4s %-28s %-9s %12s %5s %12s %5s %6s %-15s %6s %-15s %s\n", "tgt", "workload",
               "metric", "agent", "CV%", "fio", "CV%", "ratio", "95% CI", "paired",
               "95% CI", "target"
        nk = 0; for (k in keys) sorted[++nk] = k
        for (i = 2; i <= nk; i++) for (j = i; j > 1 && sorted[j - 1] > sorted[j]; j--) {
            x = sorted[j]; sorted[j] = sorted[j - 1]; sorted[j - 1] = x }
        for (i = 1; i <= nk; i++) {
            k = sorted[i]; split(k, f, " ")
            if (!n[k, "agent"] || !n[k, "fio"]) continue
            ma = mean(k, "agent", 0); mf = mean(k, "fio", 0)
            r = mf > 0 ? ma / mf : 0
            m = 0
            for (b = 1; b <= reps; b++) {
                bf = mean(k, "fio", 1); rb[++m] = bf > 0 ? mean(k, "agent", 1) / bf : 0 }
            for (p = 2; p <= m; p++) for (q = p; q > 1 && rb[q - 1] > rb[q]; q--) {
                x = rb[q]; rb[q] = rb[q - 1]; rb[q - 1] = x }
            ci = (n[k, "agent"] > 1 && n[k, "fio"] > 1) ? \
                 sprintf("%.3f-%.3f", rb[int(0.025 * m + 0.5)], rb[int(0.975 * m + 0.5)]) : "n/a"
            ca = cv(k, "agent"); cf = cv(k, "fio")
            np = pairs(k); gp = 0; pci = "n/a"
            for (p = 1; p <= np; p++) gp += pr[k, p]
            if (np) gp = exp(gp / np)
            if (np > 1) {
                for (b = 1; b <= reps; b++) {
                    sb = 0
                    for (p = 1; p <= np; p++) sb += pr[k, 1 + int(rand() * np)]
                    pb[b] = exp(sb / np)
                }
                for (p = 2; p <= reps; p++) for (q = p; q > 1 && pb[q - 1] > pb[q]; q--) {
                    x = pb[q]; pb[q] = pb[q - 1]; pb[q - 1] = x }
                pci = sprintf("%.3f-%.3f", pb[int(0.025 * reps + 0.5)], pb[int(0.975 * reps + 0.5)])
            }
            printf "%-4s %-28s %-9s %12s %5s %12s %5s %6.3f %-15s %6s %-15s %s\n", f[1], f[2],
                   f[3], num(ma), ca < 0 ? "-" : sprintf("%.1f", ca), num(mf),
                   cf < 0 ? "-" : sprintf("%.1f", cf), r, ci,
                   np ? sprintf("%.3f", gp) : "-", pci, verdict(f[2], f[3], np ? gp : r)
        }
    }' "$1/values.txt" > "$1/summary.txt"
    cat "$1/summary.txt"
}

if [ "${1:-}" = --summary ]; then
    [ -d "${2:-}" ] || { echo "bench: --summary DIR: expected a directory" >&2; exit 2; }
    summarize "$2"
    exit $?
fi

rounds=${1:-3}
case $rounds in ''|*[!0-9]*|0*) echo "bench: ROUNDS '$rounds': expected a whole number > 0" >&2; exit 2 ;; esac
agent=${VDC_AGENT:-./guest-agent/vmdiskcmp-agent}
fio=${FIO:-$(command -v fio || echo fio)}
wldir=${VDC_WORKLOAD_DIR:-$here/../../templates/workloads}
targets=${BENCH_TARGETS:-disk ram}
workloads=${BENCH_WORKLOADS:-randread-4k-qd1 randread-4k-qd32 randwrite-4k-qd32 randrw-70-30-8k-qd16 read-1m-qd8}
[ "$(id -u)" = 0 ] || { echo "bench: run as root (loop devices)" >&2; exit 2; }
for t in "$agent" "$fio" jq losetup; do
    command -v "$t" >/dev/null 2>&1 || { echo "bench: $t not found" >&2; exit 2; }
done
for t in $targets; do
    case $t in disk|ram) ;; *) echo "bench: BENCH_TARGETS: '$t': expected disk or ram" >&2; exit 2 ;; esac
done
# jobfile W: the job file of workload W (a profile name, or a path ending .fio)
jobfile() {
    case $1 in *.fio) echo "$1" ;; *) echo "$wldir/$1.fio" ;; esac
}
for w in $workloads; do
    [ -r "$(jobfile "$w")" ] || { echo "bench: BENCH_WORKLOADS: $(jobfile "$w"): no such job file" >&2; exit 2; }
    case $(basename "$w" .fio) in
        *[!A-Za-z0-9_.-]*|'') echo "bench: BENCH_WORKLOADS: $w: expected a name of letters, digits, '.', '_' or '-'" >&2; exit 2 ;;
    esac
done
# BENCH_CPU=N: both tools pinned to CPU N (taskset), so where the
# submitting thread runs against the loop device's worker is the same for
# both (unpinned, it moved QD1 IOPS by 40-60 % between runs here)
pin=
if [ -n "${BENCH_CPU:-}" ]; then
    case $BENCH_CPU in *[!0-9]*) echo "bench: BENCH_CPU '$BENCH_CPU': expected a CPU number" >&2; exit 2 ;; esac
    pin="taskset -c $BENCH_CPU"
    $pin true 2>/dev/null || { echo "bench: BENCH_CPU $BENCH_CPU: taskset refused it (expected a CPU this machine has)" >&2; exit 2; }
fi
# BENCH_WQ_CPUS=LIST: unbound workqueues (the loop device's worker, a
# kworker since Linux 5.13) confined to these CPUs, so the worker does not
# share the tools' CPU: unconfined, it ran on the pinned tool's CPU part of
# the time and the cheaper tool got more IOPS out of the same device.  The
# mask is the kernel's (/sys/devices/virtual/workqueue/cpumask); the value
# found is written back on every exit path.
wq_mask= wq_file=/sys/devices/virtual/workqueue/cpumask
if [ -n "${BENCH_WQ_CPUS:-}" ]; then
    m=0
    # digits and single commas only (no glob reaches the split), no leading zeros
    case $BENCH_WQ_CPUS in *[!0-9,]*|*,,*|,*|*,|0[0-9]*|*,0[0-9]*) echo "bench: BENCH_WQ_CPUS '$BENCH_WQ_CPUS': expected CPU numbers separated by commas" >&2; exit 2 ;; esac
    for c in $(echo "$BENCH_WQ_CPUS" | tr ',' ' '); do
        [ ${#c} -le 2 ] && [ "$c" -lt 32 ] || { echo "bench: BENCH_WQ_CPUS: CPU $c: expected one of CPUs 0-31 (the mask is written as one 32-bit word)" >&2; exit 2; }
        [ "$c" -lt "$(nproc --all)" ] || { echo "bench: BENCH_WQ_CPUS: CPU $c: this machine has $(nproc --all) (0-$(($(nproc --all) - 1)))" >&2; exit 2; }
        m=$((m | (1 << c)))
    done
    [ -w "$wq_file" ] || { echo "bench: BENCH_WQ_CPUS: $wq_file: not writable (expected root and Linux >= 4.10)" >&2; exit 2; }
    wq_mask=$(printf '%x' "$m")
fi
# BENCH_FIO_MEM: where fio's I/O buffers live.  The agent maps its buffers
# in transparent huge pages (doc/agent.md, Buffers); fio mallocs them, so
# whether a 1 MiB O_DIRECT request of fio's lies in 16 segments or in 256
# (split by the loop device's 128-segment limit and punted to an io_uring
# worker) depends on how fragmented memory is when fio starts: read 1M QD8
# on the RAM target cost fio 22-27 us of CPU per I/O with scattered
# buffers and 9-11 us in huge pages.  shmhuge (the default) gives fio huge
# pages too, from vm.nr_hugepages, raised for the run by what the
# workloads need and put back on every exit path.
fio_mem=${BENCH_FIO_MEM:-shmhuge} hp_file=/proc/sys/vm/nr_hugepages hp_need=0 fio_hp=
case $fio_mem in
    malloc) ;;
    shmhuge)
        hp_kib=$(awk '/^Hugepagesize:/ {print $2}' /proc/meminfo)
        [ -n "$hp_kib" ] && [ -w "$hp_file" ] || { echo "bench: BENCH_FIO_MEM=shmhuge: no huge pages here ($hp_file not writable or no Hugepagesize in /proc/meminfo): expected root, or BENCH_FIO_MEM=malloc" >&2; exit 2; }
        fio_hp="--hugepage-size=${hp_kib}k"    # fio's default is 4 MiB off x86
        for w in $workloads; do
            # huge pages for fio's buffers, per clone: iodepth x bs + a page,
            # rounded up, and one more (fio 3.33 failed with exactly that)
            n=$(awk -F= -v hp="$hp_kib" '
                function val(v) { v = tolower(v); gsub(/[ \t\r]/, "", v); return v }
                function bytes(v,  m) { m = 1; v = val(v); sub(/i?b$/, "", v)
                    if (v ~ /k$/) m = 1024; else if (v ~ /m$/) m = 1048576; else if (v ~ /g$/) m = 1073741824
                    sub(/[kmg]$/, "", v); return v * m }
                function num(v,  n, i) { v = val(v); if (v !~ /^0x/) return v + 0
                    n = 0; for (i = 3; i <= length(v); i++) n = n * 16 + index("0123456789abcdef", substr(v, i, 1)) - 1
                    return n }
                /^[ \t]*(bs|blocksize)[ \t]*=/ { bs = bytes($2) }
                /^[ \t]*iodepth[ \t]*=/ { qd = num($2) } /^[ \t]*numjobs[ \t]*=/ { nj = num($2) }
                END { if (!bs) bs = 4096; if (!qd) qd = 1; if (!nj) nj = 1
                      b = hp * 1024; print nj * (int((qd * bs + 4096 + b - 1) / b) + 1) }' "$(jobfile "$w")")
            [ "$n" -gt "$hp_need" ] && hp_need=$n
        done ;;
    *) echo "bench: BENCH_FIO_MEM '$fio_mem': expected shmhuge or malloc" >&2; exit 2 ;;
esac
# loop devices in a private mount namespace, as every setup here
if [ -z "${VDC_PRIVATE_MOUNTS:-}" ] && command -v unshare >/dev/null 2>&1; then
    VDC_PRIVATE_MOUNTS=1 exec unshare -m --propagation private sh "$0" "$@"
fi
out=${BENCH_OUT:-$(mktemp -d /tmp/vdc-bench-wl.XXXXXX)}
mkdir -p "$out"
size_mib=1088     # the profiles' size=1g and some room
# say: a line of the run's set-up, printed and kept beside the raw outputs
say() { echo "bench: $*"; echo "$*" >> "$out/setup.txt"; }
devs= scratch= wq_saved= hp_saved=
cleanup() {
    trap - EXIT HUP INT TERM
    [ -z "$hp_saved" ] || echo "$hp_saved" > "$hp_file" || echo "bench: $hp_file: could not restore '$hp_saved'" >&2
    [ -z "$wq_saved" ] || echo "$wq_saved" > "$wq_file" || echo "bench: $wq_file: could not restore '$wq_saved'" >&2
    # DEV:INODE of each device this script attached: detached only while
    # it is still bound to that image (the path losetup shows is relative
    # to the mount, so the inode decides)
    for di in $devs; do
        d=${di%%:*}
        [ "$(losetup -n -O BACK-INO "$d" 2>/dev/null | tr -d ' ')" = "${di#*:}" ] &&
            losetup -d "$d" 2>/dev/null || true
    done
    for s in $scratch; do rm -rf "$s"; done
}
trap cleanup EXIT
trap 'cleanup; exit 129' HUP
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM
if [ "$hp_need" -gt 0 ]; then
    hp_saved=$(cat "$hp_file")
    echo $((hp_saved + hp_need)) > "$hp_file" 2>/dev/null || true
    [ "$(cat "$hp_file")" -ge $((hp_saved + hp_need)) ] || { echo "bench: $hp_file: the kernel gave $(($(cat "$hp_file") - hp_saved)) of the $hp_need huge pages fio's buffers need (memory too fragmented?): expected them free, or BENCH_FIO_MEM=malloc" >&2; exit 2; }
fi
if [ -n "$wq_mask" ]; then
    wq_saved=$(cat "$wq_file")
    echo "$wq_mask" > "$wq_file" || { echo "bench: $wq_file: the kernel refused '$wq_mask' (BENCH_WQ_CPUS $BENCH_WQ_CPUS)" >&2; exit 2; }
fi
for t in $targets; do
    if [ "$t" = ram ]; then dir=$(mktemp -d /dev/shm/vdc-bench-wl.XXXXXX)
    else dir=$(mktemp -d "${BENCH_IMG_DIR:-/tmp}/vdc-bench-wl.XXXXXX"); fi
    scratch="$scratch $dir"
    # random data, so reads read something (a hole reads without I/O)
    head -c $((size_mib * 1048576)) /dev/urandom > "$dir/$t.img"
    dev=$(losetup -f --show --direct-io=on "$dir/$t.img")
    devs="$devs $dev:$(stat -c %i "$dir/$t.img")"
    eval "dev_$t=$dev"
    say "$t: $dev over $dir/$t.img, direct-io $(cat /sys/block/${dev#/dev/}/loop/dio)"
done
say "$rounds rounds x ($targets) x ($workloads), raw outputs in $out"
say "load before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
say "tools ${pin:-not pinned}${BENCH_FIO_ARGS:+; fio also given: $BENCH_FIO_ARGS}"
say "fio's buffers: --mem=$fio_mem${hp_saved:+ ($hp_need huge pages reserved, nr_hugepages $hp_saved -> $(cat "$hp_file"))}; the agent's: transparent huge pages $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown)"
say "unbound workqueues on CPU mask $(cat "$wq_file" 2>/dev/null || echo unknown)${wq_saved:+ (was $wq_saved, restored on exit)}"
run_agent() { # target device workload round
    n=$(basename "$3" .fio)
    $pin "$agent" -d "$2" --job "$(jobfile "$3")" --seed "$4" -q --json "$out/agent-$1-$n-$4.json" \
        > "$out/agent-$1-$n-$4.txt" 2> "$out/agent-$1-$n-$4.err"
}
run_fio() {
    n=$(basename "$3" .fio)
    # shellcheck disable=SC2086 # BENCH_FIO_ARGS: options, split on blanks
    $pin "$fio" --filename="$2" --mem="$fio_mem" $fio_hp ${BENCH_FIO_ARGS:-} --output-format=json "$(jobfile "$3")" \
        > "$out/fio-$1-$n-$4.json" 2> "$out/fio-$1-$n-$4.err"
}
for r in $(seq 1 "$rounds"); do
    for t in $targets; do
        eval "dev=\$dev_$t"
        for w in $workloads; do
            if [ $((r % 2)) = 1 ]; then run_agent "$t" "$dev" "$w" "$r"; run_fio "$t" "$dev" "$w" "$r"
            else run_fio "$t" "$dev" "$w" "$r"; run_agent "$t" "$dev" "$w" "$r"; fi
        done
    done
    say "round $r done (load $(cut -d' ' -f1 /proc/loadavg))"
done
say "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
summarize "$out"
echo "bench: summary in $out/summary.txt"
