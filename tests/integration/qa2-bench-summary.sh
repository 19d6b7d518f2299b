#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# QA regression (breaker2): tests/bench/agent-vs-bonnie-fio.sh --summary DIR
#  - on a directory with no raw outputs printed an all-"n/a" summary and
#    exited 0 (expected: one line saying no raw outputs, non-zero);
#  - counted a garbage CSV line ("hello world") as "too fast" (+++++), the
#    same as bonnie++'s real +++++ (expected: refused or reported as bad).
# Also each bad argument or BENCH_* value: one line, exit 2, before any
# setup.  Runs only the awk summary (no disk, no benchmark).  (Fixed: the script
# checks its inputs; was XFAIL.)  Run time: < 2 s.
. "$top_srcdir/tests/lib.sh"
need_cmd awk
B="$top_srcdir/tests/bench/agent-vs-bonnie-fio.sh"
top=$(mktemp -d "${TMPDIR:-/tmp}/vdc-qa2-bench.XXXXXX")
trap 'rm -rf "$top"' EXIT INT TERM
rc_all=0
# control: real raw outputs give ratios
mkdir "$top/good"
cp "$top_srcdir"/doc/bench/2026-11-30-final/bonnie-1.csv "$top_srcdir"/doc/bench/2026-11-30-final/agent-1.csv "$top/good/"
sh "$B" --summary "$top/good" >"$top/good.out" 2>&1 || fail "control: --summary on real outputs failed"
grep -q '^put_block  *agent  ' "$top/good.out" || fail "control: no agent put_block line: $(head -3 "$top/good.out")"
mkdir "$top/empty"
if sh "$B" --summary "$top/empty" >"$top/empty.out" 2>&1; then
    echo "FAIL: --summary on an empty directory exited 0" >&2
    rc_all=1
fi
mkdir "$top/garbage"
cp "$top_srcdir"/doc/bench/2026-11-30-final/bonnie-1.csv "$top/garbage/"
echo "hello world" >"$top/garbage/agent-1.csv"
if sh "$B" --summary "$top/garbage" >"$top/garbage.out" 2>&1 && grep -q 'agent.*too fast' "$top/garbage.out"; then
    echo "FAIL: a garbage agent CSV was counted as too fast: $(grep 'too fast' "$top/garbage.out" | head -1)" >&2
    rc_all=1
fi
# bad arguments and environment: one line naming the input, exit 2, before
# any setup (no image, loop device or cgroup: these are checked first)
bad_arg() {
    what=$1; pat=$2; shift 2
    rc=0
    env "$@" >"$top/arg.out" 2>"$top/arg.err" || rc=$?
    if [ "$rc" != 2 ] || [ "$(wc -l <"$top/arg.err")" != 1 ] || ! grep -q -- "$pat" "$top/arg.err"; then
        echo "FAIL: $what: exit $rc, stderr: $(cat "$top/arg.err")" >&2
        rc_all=1
    fi
}
bad_arg "RUNS abc" "RUNS 'abc': expected a whole number > 0" sh "$B" abc
bad_arg "SIZE_MIB abc" "SIZE_MIB 'abc': expected a whole number > 0" sh "$B" 3 abc
bad_arg "CHUNK 0" "CHUNK '0': expected a whole number > 0" sh "$B" 3 2048 0
bad_arg "BENCH_MEM_MIB -5" "BENCH_MEM_MIB '-5': expected a whole number > 0" BENCH_MEM_MIB=-5 sh "$B" 3 2048
bad_arg "BENCH_TOOLS blank" "BENCH_TOOLS ' ': expected one or more" BENCH_TOOLS=" " sh "$B" 3 2048
bad_arg "BENCH_TOOLS unknown" "unknown tool 'dd'" BENCH_TOOLS="agent dd" sh "$B" 3 2048
exit $rc_all
