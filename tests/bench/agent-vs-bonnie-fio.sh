#!/bin/sh
# Benchmark (not a test): vmdiskcmp-agent against bonnie++ 2.00a and fio on
# the same target and size, interleaved (A B C, B C A, C A B, ...), each
# tool run on a freshly made filesystem with the page cache dropped.  Prints, per test, each tool's mean and
# run-to-run coefficient of variation, and the ratios agent/bonnie++
# (block write, rewrite, block read) and agent/fio (block write, read).
#
# Target (MACHINE-NOTES "Measuring disks here"): a sparse image on a loop
# device with --direct-io=on (the host page cache is bypassed below the
# loop), ext4, mounted; every tool runs inside a memory cgroup limited to
# SIZE/8 (BENCH_MEM_MIB) so the page cache cannot hold the test file; the
# tools are told RAM = SIZE/2 (-r), so the file is twice that (bonnie++'s
# rule).  Per-char tests are skipped (bonnie++ -f, agent
# --per-char-size 0), file tests too (-n 0): the comparison is about the
# block I/O path.  fio uses the same syscalls and block size: ioengine=sync
# (read(2)/write(2)), bs=CHUNK, one job, end_fsync=1 on the write (bonnie++
# and the agent time fsync + close), fadvise_hint=0 (bonnie++ and the agent
# call no posix_fadvise; fio's default POSIX_FADV_SEQUENTIAL hint made its
# buffered reads 4-7x slower on this kernel), fallocate=none (fio
# preallocates a new file by default, posix_fallocate: ext4 then writes into
# unwritten extents instead of allocating as it goes, as bonnie++ and the
# agent make it do), zero_buffers (bonnie++'s and the agent's buffers are
# zeros with one byte incremented per chunk; fio's default random data
# wrote 10-20 % slower than zeros to this machine's disk), and the write
# and the read as two fio commands (see run_fio).
#
# agentcold is the agent again with --drop-caches (cold cache before each
# test, like fio's invalidate=1): agent/fio ratios use it.
#
# Usage (root): tests/bench/agent-vs-bonnie-fio.sh [RUNS] [SIZE_MIB] [CHUNK]
#   or: make bench-agent [BENCH_RUNS=5 BENCH_SIZE=2048]
#   or: tests/bench/agent-vs-bonnie-fio.sh --summary DIR (recompute from raw outputs)
# Env: VDC_AGENT (default ./guest-agent/vmdiskcmp-agent), BONNIE, FIO,
# BENCH_OUT (directory for raw outputs; default a temporary one, kept),
# BENCH_IMG_DIR (where the disk image lives, default /tmp; /dev/shm puts
# the "disk" in RAM, which removes the shared host disk's noise and leaves
# the tools' own CPU cost and the guest page cache as what differs),
# BENCH_TOOLS (which tools, default "bonnie agent agentcold fio"),
# BENCH_MEM_MIB (the memory cgroup's limit, default SIZE_MIB/8).
# Defaults: 5 runs, 2048 MiB, 8192-byte chunks: ~3 minutes here (10 runs
# ~6 minutes).
set -eu
# summarize DIR: statistics and ratios from the raw outputs in DIR
summarize() {
    out=$1
    # one line per (tool, test, run): "tool test KiB/s" (+++++ = too fast:
    # NA); a file that is not what its name says stops the summary, named
    found=0
    {
        for tool in bonnie agent agentcold; do
            for f in "$out/$tool"-*.csv; do
                [ -s "$f" ] || continue
                found=1
                # bonnie++ 2.00a CSV, format 1.98: field 1 "1.98", K/sec in
                # fields 12 (block write), 14 (rewrite), 18 (block read)
                awk -F, -v t=$tool -v f="$f" '
                    function v(i) {
                        if ($i ~ /^[0-9]+(\.[0-9]+)?$/ || $i == "+++++") return $i
                        printf "bench: %s: field %d: expected K/sec or +++++, found \"%s\"\n", f, i, $i > "/dev/stderr"
                        bad = 1; exit 1
                    }
                    $1 != "1.98" || NF < 18 {
                        printf "bench: %s: expected a bonnie++ CSV line (format 1.98, 50 fields)\n", f > "/dev/stderr"
                        bad = 1; exit 1
                    }
                    { print t, "put_block", v(12); print t, "rewrite", v(14); print t, "get_block", v(18) }
                    END { exit bad }' "$f" || return 1
            done
        done
        # terse v3: job "write" line field 48 = write bw KiB/s; "read" field 7
        for f in "$out"/fio-*.terse; do
            [ -s "$f" ] || continue
            found=1
            awk -F';' -v f="$f" '
                $1 != "3" || NF < 48 {
                    printf "bench: %s: expected fio --terse-version=3 lines\n", f > "/dev/stderr"
                    bad = 1; exit 1
                }
                $3 == "write" { print "fio put_block", $48 }
                $3 == "read" { print "fio get_block", $7 }
                END { exit bad }' "$f" || return 1
        done
    } > "$out/values.txt.tmp" || { rm -f "$out/values.txt.tmp"; return 1; }
    if [ "$found" = 0 ]; then
        rm -f "$out/values.txt.tmp"
        echo "bench: $out: no raw outputs (expected bonnie-N.csv, agent-N.csv, agentcold-N.csv or fio-N.terse)" >&2
        return 2
    fi
    mv "$out/values.txt.tmp" "$out/values.txt"
    
    awk '
    function stats(key,   n, i, j, s, m, v, sd, x, t) {
        n = cnt[key]; if (n == 0) return "";
        s = 0; for (i = 1; i <= n; i++) s += val[key, i]; m = s / n;
        v = 0; for (i = 1; i <= n; i++) v += (val[key, i] - m) ^ 2;
        sd = n > 1 ? sqrt(v / (n - 1)) : 0;
        for (i = 1; i <= n; i++) x[i] = val[key, i];
        for (i = 2; i <= n; i++) for (j = i; j > 1 && x[j - 1] > x[j]; j--) {
            t = x[j]; x[j] = x[j - 1]; x[j - 1] = t;
        }
        med[key] = n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2;
        mean[key] = m; cv[key] = m > 0 ? 100 * sd / m : 0;
        if (n < 2) { delete cv[key]; return sprintf("%9.0f %9.0f %6s n=%d", m / 1024, med[key] / 1024, "n/a", n); }
        return sprintf("%9.0f %9.0f %5.1f%% n=%d", m / 1024, med[key] / 1024, cv[key], n);
    }
    $3 ~ /^[0-9.]+$/ { k = $1 SUBSEP $2; cnt[k]++; val[k, cnt[k]] = $3; next }
    { tf[$1 SUBSEP $2]++ }
    END {
        printf "%-10s %-9s %9s %9s %6s\n", "test", "tool", "mean", "median", "CV";
        split("put_block rewrite get_block", tests, " ");
        split("bonnie agent agentcold fio", tools, " ");
        for (ti = 1; ti <= 3; ti++) for (to = 1; to <= 4; to++) {
            k = tools[to] SUBSEP tests[ti];
            if (cnt[k] == 0 && tf[k] == 0) continue;
            printf "%-10s %-9s %s%s\n", tests[ti], tools[to], stats(k),
                   tf[k] ? sprintf(" (%d too fast)", tf[k]) : "";
        }
        print "";
        printf "%-10s %-14s %6s %-10s  %-18s %6s %-10s\n", "test", "agent/bonnie++", "", "target",
               "agentcold/fio", "", "target";
        for (ti = 1; ti <= 3; ti++) {
            t = tests[ti]; a = "agent" SUBSEP t; b = "bonnie" SUBSEP t; f = "fio" SUBSEP t;
            c = "agentcold" SUBSEP t;
            rb = (a in mean && b in mean && mean[b] > 0) ? mean[a] / mean[b] : -1;
            rf = (c in mean && f in mean && mean[f] > 0) ? mean[c] / mean[f] : -1;
            printf "%-10s %14s %6s %-10s  %18s %6s %-10s\n", t,
                rb < 0 ? "n/a" : sprintf("%.3f", rb),
                rb < 0 ? "" : (rb >= 0.95 && rb <= 1.05 ? "ok" : "MISS"), "0.95-1.05",
                rf < 0 ? "n/a" : sprintf("%.3f", rf),
                rf < 0 ? "" : (rf >= 0.97 ? "ok" : "MISS"), rf < 0 ? "" : ">= 0.97";
        }
        print "";
        print "ratios of medians (robust to one disturbed run):";
        for (ti = 1; ti <= 3; ti++) {
            t = tests[ti]; a = "agent" SUBSEP t; b = "bonnie" SUBSEP t; f = "fio" SUBSEP t;
            c = "agentcold" SUBSEP t;
            printf "%-10s agent/bonnie++ %s  agentcold/fio %s\n", t,
                (a in med && b in med && med[b] > 0) ? sprintf("%.3f", med[a] / med[b]) : "n/a",
                (c in med && f in med && med[f] > 0) ? sprintf("%.3f", med[c] / med[f]) : "n/a";
        }
        print "";
        for (ti = 1; ti <= 3; ti++) {
            t = tests[ti]; a = "agent" SUBSEP t; b = "bonnie" SUBSEP t;
            if ((a in cv) && (b in cv))
                printf "CV %-10s agent %5.1f%%  bonnie++ %5.1f%%  %s\n", t, cv[a], cv[b],
                       (cv[a] <= cv[b] ? "agent lower" : "agent higher (significant? see the intervals)");
        }
    }' "$out/values.txt" > "$out/summary.txt.tmp"
    bootstrap "$out" >> "$out/summary.txt.tmp"
    mv "$out/summary.txt.tmp" "$out/summary.txt"
    cat "$out/summary.txt"
}

# bootstrap DIR: 95 % percentile-bootstrap intervals (2000 resamples of
# each tool's runs, seeded, so the same raw outputs give the same
# intervals) for the ratio of means and the ratio of CVs, agent/bonnie++
# and agentcold/fio.  A ratio target is met when the point estimate is in
# the window; "no worse" for the CV is judged on the interval: the agent
# is noisier only when the whole interval of CV(agent)/CV(other) lies
# above 1 (with 10 runs each, two identical instruments' sample CVs
# differ by a factor of up to ~1.6 by chance alone).
bootstrap() {
    awk -v reps=2000 '
    $3 ~ /^[0-9.]+$/ { k = $1 SUBSEP $2; n[k]++; v[k, n[k]] = $3 }
    function mcv(k, draw,   i, x, s, ss, m) {
        s = 0; ss = 0;
        for (i = 1; i <= n[k]; i++) {
            x = draw ? v[k, 1 + int(rand() * n[k])] : v[k, i];
            s += x; ss += x * x;
        }
        m = s / n[k];
        M = m; C = (n[k] > 1 && m > 0) ? sqrt((ss - n[k] * m * m) / (n[k] - 1)) / m : 0;
    }
    END {
        srand(1);
        split("put_block rewrite get_block", tests, " ");
        split("agent bonnie agentcold fio", pairs, " ");
        for (ti = 1; ti <= 3; ti++) for (p = 1; p <= 3; p += 2) {
            a = pairs[p] SUBSEP tests[ti]; b = pairs[p + 1] SUBSEP tests[ti];
            if (n[a] < 2 || n[b] < 2) continue;
            mcv(a, 0); ma = M; ca = C; mcv(b, 0); mb = M; cb = C;
            printf "est %s %s/%s %.4f %.4f\n", tests[ti], pairs[p], pairs[p + 1],
                   ma / mb, (cb > 0 ? ca / cb : 0);
            for (r = 0; r < reps; r++) {
                mcv(a, 1); ma = M; ca = C; mcv(b, 1); mb = M; cb = C;
                printf "rep %s %s/%s %.6f %.6f\n", tests[ti], pairs[p], pairs[p + 1],
                       ma / mb, (cb > 0 ? ca / cb : 0);
            }
        }
    }' "$1/values.txt" | sort -k1,1 -k2,3 -s > "$1/bootstrap.txt"
    echo ""
    echo "95 % bootstrap intervals (2000 resamples, seeded): ratio of means, ratio of CVs"
    printf "%-10s %-16s %-22s %-8s %-22s %s\n" test ratio "mean ratio (CI)" target "CV ratio (CI)" "CV no worse"
    awk '$1 == "est" { est[$2 " " $3] = $4 " " $5; keys[++nk] = $2 " " $3 }
         $1 == "rep" { k = $2 " " $3; r[k, ++cnt[k]] = $4; c[k, cnt[k]] = $5 }
    function pct(arr, k, m, q,   i, j, t, x) {
        for (i = 1; i <= m; i++) x[i] = arr[k, i];
        # sort x (Shell sort; m = 2000)
        for (gap = int(m / 2); gap > 0; gap = int(gap / 2))
            for (i = gap + 1; i <= m; i++)
                for (j = i; j > gap && x[j - gap] > x[j]; j -= gap) {
                    t = x[j]; x[j] = x[j - gap]; x[j - gap] = t;
                }
        return x[int(q * m + 0.5) < 1 ? 1 : int(q * m + 0.5)];
    }
    END {
        for (i = 1; i <= nk; i++) {
            k = keys[i]; split(est[k], e, " "); split(k, kk, " ");
            m = cnt[k];
            lo = pct(r, k, m, 0.025); hi = pct(r, k, m, 0.975);
            clo = pct(c, k, m, 0.025); chi = pct(c, k, m, 0.975);
            bon = kk[2] ~ /bonnie/;
            if (bon) tgt = (e[1] >= 0.95 && e[1] <= 1.05) ? "ok" : "MISS";
            else tgt = (e[1] >= 0.97) ? "ok" : "MISS";
            printf "%-10s %-16s %.3f (%.3f-%.3f)  %-8s %.2f (%.2f-%.2f)     %s\n", kk[1], kk[2],
                   e[1], lo, hi, tgt, e[2], clo, chi,
                   (clo > 1 ? "MISS (agent noisier)" : "ok (not noisier)");
        }
    }' "$1/bootstrap.txt"
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
[ -n "$(echo $tools)" ] || { echo "bench: BENCH_TOOLS '$tools': expected one or more of bonnie, agent, agentcold, fio" >&2; exit 2; }
for tool in $tools; do
    case $tool in
        bonnie|agent|agentcold|fio) ;;
        *) echo "bench: BENCH_TOOLS: unknown tool '$tool' (expected bonnie, agent, agentcold, fio)" >&2
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
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dev"
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

echo "bench: $runs runs x ($tools), file ${size} MiB, chunk $chunk," \
     "memory limit ${mem} MiB, ext4 on $dev (loop, direct-io), raw output in $out"
echo "bench: load before: $(cut -d' ' -f1-3 /proc/loadavg)"
run_bonnie() {
    in_cgroup "$bonnie" -d "$mnt" -s "$size:$chunk" -r "$ram" -n 0 -f -u root -q \
        -z "$seed" > "$out/bonnie-$1.out" 2> "$out/bonnie-$1.err"
    tail -n1 "$out/bonnie-$1.out" > "$out/bonnie-$1.csv"
}
run_agent() {
    in_cgroup "$agent" -d "$mnt" -s "$size:$chunk" -r "$ram" -n 0 --per-char-size 0 \
        -q --seed "$seed" --csv --json "$out/agent-$1.json" \
        > "$out/agent-$1.csv" 2> "$out/agent-$1.err"
}
# The same agent run with --drop-caches, for the comparison with fio: fio
# (invalidate=1) reads with a cold cache, while bonnie++'s block read
# follows its rewrite and finds part of the file still cached (rewritten
# pages sit on the active LRU list).
run_agentcold() {
    in_cgroup "$agent" -d "$mnt" -s "$size:$chunk" -r "$ram" -n 0 --per-char-size 0 \
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
    until mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dev" \
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
