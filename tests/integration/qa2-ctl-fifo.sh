#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# QA regression (breaker2): reading a control disk that is a FIFO must fail
# at once with "expected a regular file" (src/guest/control.c checks
# S_ISREG), but open(O_RDONLY) on a FIFO without a writer blocks before the
# check: the controller hangs.  Run through tests/guest-ctltool (the
# controller's code), under `timeout 10`.  (Fixed: the open
# uses O_NONBLOCK; was XFAIL.)  Run time: < 1 s fixed, <= 10 s broken.
. "$top_srcdir/tests/lib.sh"
need_cmd mkfifo
need_cmd timeout
T="$top_builddir/tests/guest-ctltool"
[ -x "$T" ] || fail "no guest-ctltool at $T"
top=$(mktemp -d "${TMPDIR:-/tmp}/vdc-qa2-fifo.XXXXXX")
trap 'rm -rf "$top"' EXIT INT TERM
# control: a directory is refused with the message
timeout 10 "$T" read "$top" --nonce 7 --out-dir "$top/o" 2>"$top/err"
grep -q 'expected a regular file' "$top/err" || fail "control: directory not refused: $(cat "$top/err")"
mkfifo "$top/ctl.img"
timeout 10 "$T" read "$top/ctl.img" --nonce 7 --out-dir "$top/o" 2>"$top/err"
rc=$?
[ "$rc" -ne 124 ] || fail "reading a FIFO control disk hung (killed by timeout after 10 s)"
grep -q 'expected a regular file' "$top/err" || fail "FIFO: exit $rc: $(cat "$top/err")"
exit 0
