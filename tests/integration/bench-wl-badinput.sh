#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/bench/workloads-vs-fio.sh's settings refused before anything is
# made or changed: each bad BENCH_WQ_CPUS, BENCH_FIO_MEM, BENCH_CPU value
# gives exit status 2 and one line naming it; the workqueue mask and
# vm.nr_hugepages stay as they were, no loop device and no output
# directory appear.  ~1 s.
set -eu
. "$top_srcdir/tests/lib.sh"
need_root
need_cmd fio
need_cmd losetup
[ -n "${VDC_AGENT:-}" ] || { echo "bench-wl-badinput: FAIL: VDC_AGENT is not set (run through make check)" >&2; exit 1; }
fail() { echo "bench-wl-badinput: FAIL: $*" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
: > "$work/1"                      # a glob such as '?' must not match it
wq=/sys/devices/virtual/workqueue/cpumask hp=/proc/sys/vm/nr_hugepages
wq0=$(cat "$wq" 2>/dev/null || echo none) hp0=$(cat "$hp") loops0=$(losetup -a | wc -l)
ls -d /tmp/vdc-bench-wl.* /dev/shm/vdc-bench-wl.* 2>/dev/null | sort > "$work/dirs0" || true
refused() { # WHAT-THE-LINE-NAMES VAR=VALUE...
    want=$1; shift
    rc=0
    (cd "$work" && env VDC_AGENT="$VDC_AGENT" FIO="$(command -v fio)" BENCH_OUT="$work/out" "$@" \
        sh "$top_srcdir/tests/bench/workloads-vs-fio.sh" 1 >"$work/o" 2>"$work/e") || rc=$?
    [ "$rc" = 2 ] || fail "$*: exit $rc, expected 2 ($(cat "$work/e"))"
    [ "$(wc -l < "$work/e")" = 1 ] || fail "$*: expected one line, got: $(cat "$work/e")"
    grep -q -- "$want" "$work/e" || fail "$*: the line does not name $want: $(cat "$work/e")"
    [ ! -e "$work/out" ] || fail "$*: made the output directory"
}
for v in '?' '*' '0 1' '08' '1,01' ',0' '0,' '0,,1' 'x'; do
    refused "BENCH_WQ_CPUS '$v'" BENCH_WQ_CPUS="$v"
done
refused "BENCH_WQ_CPUS: CPU 32" BENCH_WQ_CPUS=32
refused "BENCH_WQ_CPUS: CPU 999" BENCH_WQ_CPUS=999
refused "BENCH_FIO_MEM 'hugetlb'" BENCH_FIO_MEM=hugetlb
refused "BENCH_FIO_MEM 'SHMHUGE'" BENCH_FIO_MEM=SHMHUGE
refused "BENCH_CPU '1a'" BENCH_CPU=1a
# a good mask with a bad BENCH_FIO_MEM: refused before the mask is written
refused "BENCH_FIO_MEM 'x'" BENCH_WQ_CPUS=0 BENCH_FIO_MEM=x
[ "$(cat "$wq" 2>/dev/null || echo none)" = "$wq0" ] || fail "the workqueue mask changed: $wq0 -> $(cat "$wq")"
[ "$(cat "$hp")" = "$hp0" ] || fail "vm.nr_hugepages changed: $hp0 -> $(cat "$hp")"
[ "$(losetup -a | wc -l)" = "$loops0" ] || fail "a loop device appeared"
ls -d /tmp/vdc-bench-wl.* /dev/shm/vdc-bench-wl.* 2>/dev/null | sort > "$work/dirs1" || true
cmp -s "$work/dirs0" "$work/dirs1" || fail "a scratch directory appeared: $(diff "$work/dirs0" "$work/dirs1")"
echo "bench-wl-badinput: ok"
