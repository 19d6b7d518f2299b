#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make check: fuzz the control disk decoders for a bounded time (15 s;
# VDC_FUZZ_TIME overrides).  Fails on any crash, leak, sanitizer report or
# round-trip mismatch (the target aborts).
. "$top_srcdir/tests/lib.sh"
secs=${VDC_FUZZ_TIME:-15}
bin="$top_builddir/tests/fuzz-guest/fuzz_ctldisk"
[ -x "$bin" ] || fail "$bin not built"
work=$(mktemp -d /tmp/vdc-fuzz-ctl-XXXXXX) || fail "mktemp"
trap 'rm -rf "$work"' EXIT INT TERM
mkdir "$work/corpus" "$work/artifacts"
timeout $((secs + 60)) "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
    -max_len=65536 -artifact_prefix="$work/artifacts/" -print_final_stats=1 \
    "$work/corpus" > "$work/log" 2>&1
rc=$?
tail -n 12 "$work/log"
if [ $rc -ne 0 ] || ls "$work/artifacts" | grep -q .; then
    for a in "$work"/artifacts/*; do
        [ -f "$a" ] && { echo "crashing input $a:"; od -A d -t x1 "$a" | head -20; }
    done
    fail "fuzz_ctldisk: libFuzzer exit status $rc"
fi
grep -q '^stat::number_of_executed_units' "$work/log" || fail "fuzz_ctldisk: no final stats"
echo "fuzz_ctldisk: $(grep '^stat::number_of_executed_units' "$work/log") in ${secs}s"
