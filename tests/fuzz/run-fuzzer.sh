#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Run one libFuzzer target for a bounded time (make check), seeded with the
# golden inputs of the import tests.  Usage: run-fuzzer.sh NAME [SECONDS]
# Env: top_srcdir, top_builddir (set by the test harness); VDC_FUZZ_TIME
# overrides SECONDS.  Fails on any crash, leak or sanitizer report.
. "$top_srcdir/tests/lib.sh"
name=$1
secs=${VDC_FUZZ_TIME:-${2:-15}}
bin="$top_builddir/tests/fuzz/$name"
[ -x "$bin" ] || fail "$bin not built (configure found no clang with -fsanitize=fuzzer?)"
work=$(mktemp -d /tmp/vdc-fuzz-XXXXXX) || fail "mktemp"
trap 'rm -rf "$work"' EXIT INT TERM
mkdir "$work/corpus" "$work/artifacts"
for f in "$top_srcdir"/tests/golden/import/* "$top_srcdir"/tests/golden/import/bad/*; do
    [ -f "$f" ] && cp "$f" "$work/corpus/"
done
case $name in
    *numbers*) dict=       # its bytes are numbers, not text; cairo's fonts
        LSAN_OPTIONS="suppressions=$top_srcdir/tests/fuzz/lsan-render.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
        export LSAN_OPTIONS ;;
    *json*) dict="-dict=$top_srcdir/tests/fuzz/result-json.dict" ;;
    *_dd) dict="-dict=$top_srcdir/tests/fuzz/dd.dict" ;;
    *_fio) dict="-dict=$top_srcdir/tests/fuzz/fio.dict" ;;
    *) dict="-dict=$top_srcdir/tests/fuzz/bonnie.dict" ;;
esac
# -close_fd_mask=2: the importers' one-line errors would flood the log
timeout $((secs + 60)) "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
    -close_fd_mask=2 -artifact_prefix="$work/artifacts/" -print_final_stats=1 \
    $dict "$work/corpus" > "$work/log" 2>&1
rc=$?
tail -n 15 "$work/log"
if [ $rc -ne 0 ] || ls "$work/artifacts" | grep -q .; then
    for a in "$work"/artifacts/*; do
        [ -f "$a" ] && { echo "crashing input $a:"; od -c "$a" | head -20; }
    done
    fail "$name: libFuzzer exit status $rc"
fi
grep -q '^stat::number_of_executed_units' "$work/log" || fail "$name: no final stats: did it run?"
echo "$name: $(grep '^stat::number_of_executed_units' "$work/log") in ${secs}s"
