#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `vmdiskcmp lab run` marks each job's result.json emulated and renders its
# report again through the report library (src/report/report_dir.c), quietly.
# The lab recipe here is a stub lab.sh (VDC_LAB_DIR) that reads the request
# vmdiskcmp lab writes, writes seed 002's result and renders it the way the
# lab's job does: nothing is built or booted.  Checks: exit 0; result.json now says emulated; every report file
# re-rendered with the EMULATED banner (text, Markdown, HTML) and the
# emulated experiment in report.json; the manifest lists them; no warning
# or progress line on stderr (the lab asks for a quiet report); the report
# is the one `vmdiskcmp report` gives for the marked result.  Run time < 1 s.
. "$top_srcdir/tests/lib.sh"
[ -x "$VMDISKCMP" ] || fail "VMDISKCMP not built: $VMDISKCMP"
need_cmd bash
need_cmd cmp
need_cmd python3

top=$(mktemp -d "${TMPDIR:-/tmp}/vdc-report-lab.XXXXXX")
trap 'rm -rf "$top"' EXIT INT TERM
SOURCE_DATE_EPOCH=1796000000
export SOURCE_DATE_EPOCH
mkdir "$top/tpl"
cat >"$top/tpl/lab.sh" <<STUB
#!/bin/bash
# the checked request vmdiskcmp lab hands lab.sh: LAB_OUT, LAB_BIN, LAB_JOBS ...
. "\$1"
mkdir -p "\$LAB_OUT/result"
cp "$top_srcdir/tests/golden/report/seed002/result.json" "\$LAB_OUT/result/result.json"
"\$LAB_BIN" report "\$LAB_OUT/result" --quiet
STUB
VDC_LAB_DIR=$top/tpl "$VMDISKCMP" lab run --cache-dir "$top/cache" --out "$top/out" -- --runs 1 \
    >"$top/stdout" 2>"$top/stderr" || fail "lab run exited $?: $(cat "$top/stderr")"
r=$top/out/result
grep -q "lab: results in $r (emulated hardware)" "$top/stderr" || fail "no results line: $(cat "$top/stderr")"
if grep -Eq 'WARNING|progress' "$top/stderr"; then fail "the lab's re-render is not quiet: $(cat "$top/stderr")"; fi
python3 - "$r/result.json" "$r/report.json" <<'EOF' || fail "result.json/report.json not marked emulated"
import json, sys
for p in sys.argv[1:]:
    assert json.load(open(p))["experiment"]["emulated"] is True, p
EOF
head -1 "$r/report.txt" | grep -q '^EMULATED: numbers predict nothing about real hardware' ||
    fail "report.txt has no EMULATED line"
grep -q '^> \*\*EMULATED' "$r/report.md" || fail "report.md has no EMULATED banner"
grep -q 'id="emulated"' "$r/report.html" || fail "report.html has no EMULATED banner"
[ "$(sort "$r/.vmdiskcmp-report" | tr '\n' ' ')" = "headline.csv report.csv report.html report.json report.md report.txt summary.csv " ] ||
    fail "manifest: $(cat "$r/.vmdiskcmp-report")"
# the same as `vmdiskcmp report` of the marked result
mkdir "$top/again"
cp "$r/result.json" "$top/again/"
"$VMDISKCMP" report "$top/again" --quiet || fail "report of the marked result failed"
for f in report.txt report.csv summary.csv headline.csv report.json report.md report.html; do
    cmp -s "$r/$f" "$top/again/$f" || fail "$f differs from vmdiskcmp report's"
done
exit 0
