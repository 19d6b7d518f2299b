#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark (not a test): vmdiskcmp-agent against bonnie++ 2.00a (and fio
# for the block tests) on the same target and size, interleaved (A B C,
# B C A, C A B, ...), each tool run on a freshly made filesystem with the
# page cache dropped.  Prints, per test, each tool's mean, median and
# run-to-run coefficient of variation, the ratios agent/bonnie++ and
# agent/fio with 95 % bootstrap intervals, and the ratio of CVs with its
# interval (tests/bench/agent-vs-bonnie-stats.awk).
#
# Target (MACHINE-NOTES "Measuring disks here"): a sparse image on a loop
# device with --direct-io=on (the host page cache is bypassed below the
# loop), ext4, mounted; every tool runs inside a memory cgroup limited to
# SIZE/8 (BENCH_MEM_MIB) so the page cache cannot hold the test file; the
# tools are told RAM = SIZE/2 (-r), so the file is twice that (bonnie++'s
# rule).
#
# Two suites, one script:
# - block (the default): per-char tests skipped (bonnie++ -f, agent
#   --per-char-size 0), file tests too (-n 0): the comparison is about the
#   block I/O path, with fio beside it.  fio uses the same syscalls and
#   block size: ioengine=sync (read(2)/write(2)), bs=CHUNK, one job,
#   end_fsync=1 on the write (bonnie++ and the agent time fsync + close),
#   fadvise_hint=0 (bonnie++ and the agent call no posix_fadvise; fio's
#   default POSIX_FADV_SEQUENTIAL hint made its buffered reads 4-7x slower
#   on this kernel), fallocate=none (fio preallocates a new file by default,
#   posix_fallocate: ext4 then writes into unwritten extents instead of
#   allocating as it goes, as bonnie++ and the agent make it do),
#   zero_buffers (bonnie++'s and the agent's buffers are zeros with one
#   byte incremented per chunk; fio's default random data wrote 10-20 %
#   slower than zeros to this machine's disk), and the write and the read
#   as two fio commands (see run_fio).
# - every bonnie++ test (BENCH_PER_CHAR, BENCH_SEEKS, BENCH_FILES set),
#   tools bonnie and agent: per-char over BENCH_PER_CHAR MiB (bonnie++
#   -fN, agent --per-char-size N), BENCH_SEEKS seeks (-s SIZE:CHUNK:SEEKS),
#   BENCH_FILES file tests (-n, as bonnie++: NUM[:MAX[:MIN[:DIRS]]]), the
#   twelve latencies.  `make bench-agent-all` runs it twice: per-char,
#   block and seeks without file tests (bench-agent-io), then the file
#   tests alone with BENCH_SEQ=no in a memory cgroup that holds their
#   metadata (bench-agent-files).
#
# agentcold is the agent again with --drop-caches (cold cache before each
# test, like fio's invalidate=1): agent/fio ratios use it.  agentprev is
# another agent build (VDC_AGENT_PREV, e.g. the one before a change), run
# exactly as agent: agentprev/bonnie++ beside agent/bonnie++ shows what a
# change did, in the same interleaved rounds.
#
# Usage (root): tests/bench/agent-vs-bonnie-fio.sh [RUNS] [SIZE_MIB] [CHUNK]
#   or: make bench-agent [BENCH_RUNS=5 BENCH_SIZE=2048]
#   or: make bench-agent-all [BENCH_RUNS=10] (bench-agent-io, then bench-agent-files)
#   or: tests/bench/agent-vs-bonnie-fio.sh --summary DIR (recompute from raw outputs)
# Env: VDC_AGENT (default ./guest-agent/vmdiskcmp-agent), BONNIE, FIO,
# BENCH_OUT (directory for raw outputs; default a temporary one, kept),
# BENCH_IMG_DIR (where the disk image lives, default /tmp; /dev/shm puts
# the "disk" in RAM, which removes the shared host disk's noise and leaves
# the tools' own CPU cost and the guest page cache as what differs),
# BENCH_TOOLS (which tools, default "bonnie agent agentcold fio"; also
# agentprev, with VDC_AGENT_PREV),
# BENCH_MEM_MIB (the memory cgroup's limit, default SIZE_MIB/8),
# BENCH_PER_CHAR (MiB per per-char test, default 0: skipped),
# BENCH_SEEKS (seeks, default 8192, bonnie++'s), BENCH_FILES (-n, default
# 0: no file tests), BENCH_SEQ (no: -s 0, the file tests alone).
# Defaults: 5 runs, 2048 MiB, 8192-byte chunks: ~3 minutes here (10 runs
# ~6 minutes).
set -eu
stats_awk=$(dirname "$0")/agent-vs-bonnie-stats.awk
# summarize DIR: statistics and ratios from the raw outputs in DIR
summarize() {
    out=$1
    # one line per (tool, test, run): "tool test VALUE ROUND" (+++++ = too fast,
    # counted, not used; a blank field = not run, skipped); a file that is
    # not what its name says stops the summary, named
    found=0
    {
        for tool in bonnie agent agentcold agentprev; do
            for f in "$out/$tool"-*.csv; do
                [ -s "$f" ] || continue
                found=1
                # bonnie++ 2.00a CSV, format 1.98: field 1 "1.98"; K/sec in
                # 10 putc, 12 put_block, 14 rewrite, 16 getc, 18 get_block;
                # /sec in 20 seeks and 27-37 (odd) the file tests;
                # latencies 39-50 ("123us", "45ms", "2s"), in microseconds here
                r=${f##*/$tool-}; r=${r%.csv}
                awk -F, -v t=$tool -v f="$f" -v r="$r" '
                    function bad_field(i, what) {
                        printf "bench: %s: field %d: expected %s, found \"%s\"\n", f, i, what, $i > "/dev/stderr"
                        bad = 1; exit 1
                    }
                    function rate(name, i) {
                        if ($i == "") return
                        if ($i !~ /^[0-9]+(\.[0-9]+)?$/ && $i != "+++++") bad_field(i, "a rate or +++++")
                        print t, name, $i, r
                    }
                    function lat(name, i,   x) {
                        if ($i == "") return
                        if ($i ~ /^[0-9]+us$/) x = $i + 0
                        else if ($i ~ /^[0-9]+ms$/) x = ($i + 0) * 1000
                        else if ($i ~ /^[0-9]+s$/) x = ($i + 0) * 1000000
                        else bad_field(i, "a latency (123us, 45ms, 2s)")
                        print t, "lat_" name, x, r
                    }
                    $1 != "1.98" || NF < 18 {
                        printf "bench: %s: expected a bonnie++ CSV line (format 1.98, 50 fields)\n", f > "/dev/stderr"
                        bad = 1; exit 1
                    }
                    {
                        n = split("putc put_block rewrite getc get_block seeks", seq, " ")
                        for (j = 1; j <= n; j++) rate(seq[j], 8 + 2 * j)
                        n = split("seq_create seq_stat seq_del ran_create ran_stat ran_del", ft, " ")
                        for (j = 1; j <= n && NF >= 25 + 2 * j; j++) rate(ft[j], 25 + 2 * j)
                        n = split("putc put_block rewrite getc get_block seeks seq_create seq_stat seq_del ran_create ran_stat ran_del", lt, " ")
                        for (j = 1; j <= n && NF >= 38 + j; j++) lat(lt[j], 38 + j)
                    }
                    END { exit bad }' "$f" || return 1
            done
        done
        # terse v3: job "write" line field 48 = write bw KiB/s; "read" field 7
        for f in "$out"/fio-*.terse; do
            [ -s "$f" ] || continue
            found=1
            r=${f##*/fio-}; r=${r%.terse}
            awk -F';' -v f="$f" -v r="$r" '
                $1 != "3" || NF < 48 {
                    printf "bench: %s: expected fio --terse-version=3 lines\n", f > "/dev/stderr"
                    bad = 1; exit 1
                }
                $3 == "write" { print "fio put_block", $48, r }
                $3 == "read" { print "fio get_block", $7, r }
                END { exit bad }' "$f" || return 1
        done
    } > "$out/values.txt.tmp" || { rm -f "$out/values.txt.tmp"; return 1; }
    if [ "$found" = 0 ]; then
        rm -f "$out/values.txt.tmp"
        echo "bench: $out: no raw outputs (expected bonnie-N.csv, agent-N.csv, agentcold-N.csv, agentprev-N.csv or fio-N.terse)" >&2
        return 2
    fi
    mv "$out/values.txt.tmp" "$out/values.txt"
    awk -f "$stats_awk" "$out/values.txt" > "$out/summary.txt.tmp" || {
        rm -f "$out/summary.txt.tmp"; return 1; }
    mv "$out/summary.txt.tmp" "$out/summary.txt"
    cat "$out/summary.txt"
}

if [ "${1:-}" = --summary ]; then
    [ -d "${2:-}" ] || { echo "bench: --summary DIR: expected a directory" >&2; exit 2; }
    rc=0
    summarize "$2" || rc=$?
    exit $rc
fi

runs=${1:-5}
size=${2:-2048}
chunk=${3:-8192}
# posint NAME VALUE: a whole number > 0, checked before anything is set up
posint() {
    case $2 in
        ''|*[!0-9]*|0*) echo "bench: $1 '$2': expected a whole number > 0" >&2; exit 2 ;;
    esac
}
posint RUNS "$runs"
posint SIZE_MIB "$size"
posint CHUNK "$chunk"
[ "$size" -ge 16 ] || { echo "bench: SIZE_MIB '$size': expected at least 16" >&2; exit 2; }
ram=$((size / 2))
# The cgroup's memory limit: SIZE/8 by default.  The tools are told
# RAM = SIZE/2 (bonnie++'s 2x RAM rule, so neither refuses the size), but
# with a real SIZE/2 limit up to half the file stays cached between tests,
# and which half survives the block write decided the rewrite: bimodal,
# ~500 or ~900 MiB/s, for bonnie++ and the agent alike (2 GiB, 1 GiB limit:
# CV 27-36 %).  At SIZE/8 the modes are gone (CV 5-7 %): doc/performance.md.
mem=${BENCH_MEM_MIB:-$((size / 8))}
posint BENCH_MEM_MIB "$mem"
per_char=${BENCH_PER_CHAR:-0}
seeks=${BENCH_SEEKS:-8192}
files=${BENCH_FILES:-0}
case $per_char in
    0) ;;
    *) posint BENCH_PER_CHAR "$per_char" ;;
esac
posint BENCH_SEEKS "$seeks"
case $files in
    ''|*[!0-9:]*|:*|*:|*::*)
        echo "bench: BENCH_FILES '$files': expected NUM[:MAX[:MIN[:DIRS]]] (whole numbers)" >&2
        exit 2 ;;
esac
# mkfs.ext4's default (one inode per 16 KiB) leaves too few inodes for
# hundreds of thousands of files (bonnie++ then fails "Can't create
# file"): with file tests, -N for them plus the defaults' share
mkfs_inodes=
[ "$files" = 0 ] || mkfs_inodes="-N $(( ${files%%:*} * 1024 + (size + 1024) * 64 ))"
# BENCH_SEQ=no: file tests only (-s 0), e.g. in a memory cgroup large
# enough to keep their metadata cached (BENCH_MEM_MIB) while the
# sequential tests keep theirs at SIZE/8
sspec=$size:$chunk:$seeks
case ${BENCH_SEQ:-yes} in
    yes) ;;
    no) sspec=0
        [ "$files" != 0 ] || { echo "bench: BENCH_SEQ=no with BENCH_FILES 0: nothing to run" >&2; exit 2; } ;;
    *) echo "bench: BENCH_SEQ '${BENCH_SEQ}': expected yes or no" >&2; exit 2 ;;
esac
# bonnie++ -f skips the per-char tests, -fN runs them over N MiB
bonnie_f=-f
[ "$per_char" = 0 ] || bonnie_f=-f$per_char
[ "$mem" -ge 16 ] || { echo "bench: BENCH_MEM_MIB '$mem': expected at least 16 (the tools need room to run)" >&2; exit 2; }
agent=${VDC_AGENT:-./guest-agent/vmdiskcmp-agent}
bonnie=${BONNIE:-$(command -v bonnie++ || echo /usr/sbin/bonnie++)}
fio=${FIO:-$(command -v fio || echo fio)}
[ "$(id -u)" = 0 ] || { echo "bench: run as root" >&2; exit 2; }
# Mount in a private mount namespace: a namespace someone else creates
# meanwhile (libvirt starts each QEMU in one) would otherwise copy our mount
# and keep the loop device busy after we unmount it.
if [ -z "${VDC_PRIVATE_MOUNTS:-}" ] && command -v unshare >/dev/null 2>&1; then
    VDC_PRIVATE_MOUNTS=1 exec unshare -m --propagation private sh "$0" "$@"
fi
for t in "$agent" "$bonnie" "$fio"; do
    command -v "$t" >/dev/null 2>&1 || { echo "bench: $t not found" >&2; exit 2; }
done
tools=${BENCH_TOOLS:-bonnie agent agentcold fio}
[ -n "$(echo $tools)" ] || { echo "bench: BENCH_TOOLS '$tools': expected one or more of bonnie, agent, agentcold, agentprev, fio" >&2; exit 2; }
for tool in $tools; do
    case $tool in
        bonnie|agent|agentcold|fio) ;;
        agentprev)
            [ -x "${VDC_AGENT_PREV:-}" ] || { echo "bench: BENCH_TOOLS agentprev: VDC_AGENT_PREV '${VDC_AGENT_PREV:-}': expected an agent binary" >&2; exit 2; } ;;
        *) echo "bench: BENCH_TOOLS: unknown tool '$tool' (expected bonnie, agent, agentcold, agentprev, fio)" >&2
           exit 2 ;;
    esac
done
out=${BENCH_OUT:-$(mktemp -d /tmp/vdc-bench.XXXXXX)}
mkdir -p "$out"

work=$(mktemp -d "${BENCH_IMG_DIR:-/tmp}/vdc-bench-work.XXXXXX")
img=$work/disk.img
dev= mnt= cg=
# ours: $dev still backs our image (loop devices are shared: never touch
# one that another user attached after ours went away)
ours() { [ -n "$dev" ] && [ "$(losetup -n -O BACK-FILE "$dev" 2>/dev/null)" = "$img" ]; }
cleanup() {
    trap - EXIT INT TERM
    [ -n "$mnt" ] && umount "$mnt" 2>/dev/null || true
    exec 9<&-
    ours && losetup -d "$dev" 2>/dev/null || true
    [ -n "$cg" ] && rmdir "$cg" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT TERM

truncate -s $((size + 1024))M "$img"
dev=$(losetup -f --show --direct-io=on "$img")
# hold the device open: it stays bound to our image while we remount it
exec 9<"$dev"
# shellcheck disable=SC2086
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 $mkfs_inodes "$dev"
mkdir "$work/mnt"
mount "$dev" "$work/mnt"
mnt=$work/mnt

v1=/sys/fs/cgroup/memory$(sed -n 's/^[0-9]*:memory:\(.*\)$/\1/p' /proc/self/cgroup)
if mkdir "$v1/vdc-bench-$$" 2>/dev/null; then
    cg=$v1/vdc-bench-$$
    echo $((mem * 1024 * 1024)) > "$cg/memory.limit_in_bytes"
elif mkdir "/sys/fs/cgroup/vdc-bench-$$" 2>/dev/null; then
    cg=/sys/fs/cgroup/vdc-bench-$$
    echo $((mem * 1024 * 1024)) > "$cg/memory.max"
else
    echo "bench: cannot create a memory cgroup: results would measure the page cache" >&2
    exit 1
fi

# in_cgroup CMD...: run CMD inside the memory cgroup
in_cgroup() { sh -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' sh "$cg" "$@"; }
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }

echo "bench: $runs runs x ($tools), -s $sspec (file ${size} MiB, chunk $chunk, seeks $seeks)," \
     "per-char ${per_char} MiB, files -n $files," \
     "memory limit ${mem} MiB, ext4 on $dev (loop, direct-io), raw output in $out"
echo "bench: load before: $(cut -d' ' -f1-3 /proc/loadavg)"
run_bonnie() {
    in_cgroup "$bonnie" -d "$mnt" -s "$sspec" -r "$ram" -n "$files" \
        "$bonnie_f" -u root -q \
        -z "$seed" > "$out/bonnie-$1.out" 2> "$out/bonnie-$1.err"
    tail -n1 "$out/bonnie-$1.out" > "$out/bonnie-$1.csv"
}
# agent_as NAME BINARY RUN: the agent's run
agent_as() {
    in_cgroup "$2" -d "$mnt" -s "$sspec" -r "$ram" -n "$files" \
        --per-char-size "$per_char" \
        -q --seed "$seed" --csv --json "$out/$1-$3.json" \
        > "$out/$1-$3.csv" 2> "$out/$1-$3.err"
}
run_agent() { agent_as agent "$agent" "$1"; }
run_agentprev() { agent_as agentprev "$VDC_AGENT_PREV" "$1"; }
# The same agent run with --drop-caches, for the comparison with fio: fio
# (invalidate=1) reads with a cold cache, while bonnie++'s block read
# follows its rewrite and finds part of the file still cached (rewritten
# pages sit on the active LRU list).
run_agentcold() {
    in_cgroup "$agent" -d "$mnt" -s "$sspec" -r "$ram" -n "$files" \
        --per-char-size "$per_char" \
        -q --seed "$seed" --drop-caches --csv --json "$out/agentcold-$1.json" \
        > "$out/agentcold-$1.csv" 2> "$out/agentcold-$1.err"
}
run_fio() {
    # Two fio commands, not two jobs in one: fio lays out the files of every
    # job it is given before the first runs, so a read job in the same
    # command turned the write job into an overwrite of an allocated file
    # (measured 1.3-1.6 GB/s against 0.7-1.1 GB/s for a fresh file here).
    in_cgroup "$fio" --name=write --directory="$mnt" --filename=fio.dat \
        --ioengine=sync --rw=write --bs="$chunk" --size="${size}M" --end_fsync=1 \
        --fadvise_hint=0 --fallocate=none --zero_buffers --scramble_buffers=0 \
        --output-format=terse --terse-version=3 > "$out/fio-$1.terse" 2> "$out/fio-$1.err"
    drop
    in_cgroup "$fio" --name=read --directory="$mnt" --filename=fio.dat \
        --ioengine=sync --rw=read --bs="$chunk" --size="${size}M" --fadvise_hint=0 \
        --output-format=terse --terse-version=3 >> "$out/fio-$1.terse" 2>> "$out/fio-$1.err"
    rm -f "$mnt/fio.dat"
}
# A fresh filesystem for every tool run, so that no tool inherits another's
# block allocation or deferred frees; inode tables and journal initialised
# now, not by ext4lazyinit in the background.
fresh_fs() {
    umount "$mnt"
    ours || { echo "bench: $dev no longer backs $img: stopping" >&2; exit 1; }
    # the kernel may release the device a moment after umount returns
    # (mkfs: "apparently in use by the system"): retry
    tries=0
    # shellcheck disable=SC2086
    until mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 $mkfs_inodes "$dev" \
            2> "$work/mkfs.err"; do
        tries=$((tries + 1))
        [ "$tries" -lt 20 ] || { cat "$work/mkfs.err" >&2; exit 1; }
        sleep 1
    done
    mount "$dev" "$mnt"
}

# Interleaved, the order rotated each round (A B C, B C A, C A B, ...) so
# that no tool always runs first or last.
seed=1
# shellcheck disable=SC2086
set -- $tools
for i in $(seq 1 "$runs"); do
    order=
    for tool in "$@"; do
        fresh_fs
        drop
        "run_$tool" "$i"
        order="$order $tool"
    done
    first=$1; shift; set -- "$@" "$first"
    echo "bench: run $i done:$order (load $(cut -d' ' -f1 /proc/loadavg))"
done
echo "bench: load after: $(cut -d' ' -f1-3 /proc/loadavg)"

summarize "$out"
echo "bench: summary in $out/summary.txt"
