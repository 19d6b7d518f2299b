#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# QA regression (breaker2): `vmdiskcmp report DIR` refuses to overwrite a
# report file it did not write (DIR/.vmdiskcmp-report lists its own), but a
# dangling symbolic link named like one of its outputs (here report.md ->
# a path that does not exist) passed the check (g_file_test EXISTS follows
# links) and was silently replaced by a regular file.  Expected: exit 2,
# one line naming DIR/report.md, the link left as it was.  (Fixed: src/report/report_dir.c
# checks links too; was XFAIL.)  Run time < 1 s.
. "$top_srcdir/tests/lib.sh"
[ -x "$VMDISKCMP" ] || fail "VMDISKCMP not built: $VMDISKCMP"
top=$(mktemp -d "${TMPDIR:-/tmp}/vdc-qa2-sym.XXXXXX")
trap 'rm -rf "$top"' EXIT INT TERM
d=$top/res
mkdir "$d"
cp "$top_srcdir/tests/golden/report/seed003/all/result.json" "$d/"
# control: a regular foreign file is refused (the check this test extends)
echo "mine" >"$d/report.md"
"$VMDISKCMP" report "$d" -q 2>"$top/err" && fail "control: a foreign report.md was overwritten"
rm "$d/report.md"
ln -s "$top/not-there/mine.md" "$d/report.md"
"$VMDISKCMP" report "$d" -q 2>"$top/err"
rc=$?
[ -L "$d/report.md" ] || fail "report replaced the user's symlink report.md (exit $rc)"
[ "$rc" -eq 2 ] || fail "exit $rc, want 2: $(cat "$top/err")"
grep -q 'report.md' "$top/err" || fail "message does not name report.md: $(cat "$top/err")"
exit 0
