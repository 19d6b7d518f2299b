#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every bad input of `vmdiskcmp report` and `vmdiskcmp compare` gives one
# line on stderr naming the input and what was expected, exit status 2,
# nothing on stdout and nothing written.  Run time: < 1 s.
. "$top_srcdir/tests/lib.sh"
[ -x "$VMDISKCMP" ] || fail "VMDISKCMP not built: $VMDISKCMP"

g="$top_srcdir/tests/golden/report"
top=$(mktemp -d "${TMPDIR:-/tmp}/vdc-report-bad.XXXXXX")
trap 'rm -rf "$top"' EXIT INT TERM
work="$top/in"      # inputs: nothing may change here
o="$top/out"        # what the command printed
mkdir "$work" "$o"

good="$work/good"
mkdir "$good"
cp "$g/seed003/all/result.json" "$good/"
empty="$work/empty"
mkdir "$empty"
malformed="$work/malformed"
mkdir "$malformed"
printf '{"format": "vmdiskcmp-result", "format_version": 1, "runs": [\n' >"$malformed/result.json"
wrongtype="$work/wrongtype"
mkdir "$wrongtype"
sed 's/"value": 6065,/"value": "6065",/' "$g/seed003/all/result.json" >"$wrongtype/result.json"
grep -q '"value": "6065"' "$wrongtype/result.json" || fail "fixture edit failed"
future="$work/future"
mkdir "$future"
sed 's/"format_version": 1/"format_version": 99/' "$g/seed003/all/result.json" >"$future/result.json"
foreign="$work/foreign"
mkdir "$foreign"
cp "$g/seed003/all/result.json" "$foreign/"
echo "my own notes, not vmdiskcmp's" >"$foreign/report.txt"

snapshot() { (cd "$work" && find . -type f -exec cksum {} + | sort); }

# bad WHAT PATTERN -- ARGS: exit 2, one stderr line matching PATTERN,
# no stdout, no file created or changed under $work
bad() {
    what=$1 pat=$2
    shift 3
    before=$(snapshot)
    "$VMDISKCMP" "$@" >"$o/stdout" 2>"$o/stderr"
    rc=$?
    out=$(cat "$o/stdout"); err=$(cat "$o/stderr")
    [ "$rc" -eq 2 ] || fail "$what: exit status $rc, want 2 (stderr: $err)"
    [ -z "$out" ] || fail "$what: printed on stdout: $out"
    n=$(printf '%s\n' "$err" | wc -l)
    [ "$n" -eq 1 ] || fail "$what: $n lines on stderr, want 1: $err"
    printf '%s\n' "$err" | grep -Eq -e "$pat" || fail "$what: message '$err' does not match /$pat/"
    [ "$(snapshot)" = "$before" ] || fail "$what: files were written or changed"
    echo "ok: $what: $err"
}

# ---- report ----------------------------------------------------------------
bad "report: missing directory" "$work/nope: not a directory" -- report "$work/nope"
bad "report: no result.json" "no result.json" -- report "$empty"
bad "report: malformed JSON" "malformed/result.json" -- report "$malformed"
bad "report: wrong type" 'runs\[0\]\.samples\[0\]\.value' -- report "$wrongtype"
bad "report: newer format" "format_version" -- report "$future"
bad "report: unknown baseline" "--baseline xen: no such target \(targets: image, lvm, dom0\)" -- \
    report "$good" --baseline xen
bad "report: unknown format" "--formats txt,pdf: unknown format 'pdf'" -- report "$good" --formats txt,pdf
bad "report: empty formats" "--formats" -- report "$good" --formats ,
bad "report: unknown outlier policy" "--outliers remove: expected keep, flag or drop" -- \
    report "$good" --outliers remove
bad "report: bad threshold" "--outlier-threshold -1: expected a positive number" -- \
    report "$good" --outlier-threshold -1
bad "report: --out with a newline" "--out $work/r\\\\nx: expected a path of UTF-8 text without control characters" -- \
    report "$good" --out "$work/r
x"
bad "report: bad threshold text" "--outlier-threshold 3x" -- report "$good" --outlier-threshold 3x
bad "report: ceiling without rate" "--rate-ceiling /dev/sdb: expected NAME=MIB_S" -- report "$good" --rate-ceiling /dev/sdb
bad "report: ceiling without name" "--rate-ceiling =550: expected NAME=MIB_S" -- report "$good" --rate-ceiling =550
bad "report: ceiling not a rate" "--rate-ceiling /dev/sdb=fast: expected NAME=MIB_S" -- \
    report "$good" --rate-ceiling /dev/sdb=fast
bad "report: bad resamples" "--bootstrap-resamples many" -- report "$good" --bootstrap-resamples many
bad "report: unknown option" "unknown option" -- report "$good" --colour
bad "report: no operand" "expected one result directory, got 0" -- report
bad "report: two operands" "expected one result directory, got 2" -- report "$good" "$empty"
bad "report: file, not directory" "result.json: a file, not a directory: expected a result directory holding result.json .for a result file: mkdir D && cp FILE D/result.json && vmdiskcmp report D.$" -- report "$good/result.json"
bad "report: compare's option" "did you mean --formats" -- report "$good" --format md
bad "report: foreign file" "foreign/report.txt exists and was not written by vmdiskcmp" -- report "$foreign"

# ---- compare ---------------------------------------------------------------
bad "compare: missing file" "$work/nope.json: No such file" -- compare "$work/nope.json" "$good"
bad "compare: no result.json" "no result.json" -- compare "$good" "$empty"
bad "compare: malformed JSON" "malformed/result.json" -- compare "$good" "$malformed/result.json"
bad "compare: wrong type" 'runs\[0\]\.samples\[0\]\.value' -- compare "$wrongtype"
bad "compare: unknown baseline" "--baseline xen: no such target" -- compare "$good" --baseline xen
bad "compare: unknown format" "--format pdf: expected one of text, csv, json, md" -- \
    compare "$good" --format pdf
bad "compare: report's option" "did you mean --format\?" -- compare "$good" --formats md
bad "compare: no operand" "expected result directories or files" -- compare
bad "compare: missing option argument" "--baseline: expected a value" -- compare "$good" --baseline

# bug report-target-control-chars: a target name with a newline broke every
# line-oriented output and error message (the loader now refuses it)
ctl="$work/ctl"
mkdir "$ctl"
sed '0,/"target": "\([^"]*\)"/s//"target": "a\\nb"/' "$g/seed003/all/result.json" >"$ctl/result.json"
grep -q '"target": "a\\nb"' "$ctl/result.json" || fail "fixture edit failed (ctl)"
bad "report: control character in a target name" 'runs\[0\]\.target: expected printable text' -- report "$ctl"
bad "compare: control character in a target name" 'runs\[0\]\.target: expected printable text' -- compare "$good" "$ctl"

# bug compare-pools-third-copy: "compare A A A" renamed the third input's
# targets to the second's NAME@A and pooled them (n=2); a directory name
# with a newline crashed compare (segfault) once names were checked
"$VMDISKCMP" compare "$good" "$good" "$good" --format csv >"$o/three.csv" 2>"$o/three.err" ||
    fail "compare A A A failed: $(cat "$o/three.err")"
grep -q '^image@good#2,putc,K/sec,1,' "$o/three.csv" || fail "compare A A A: third input not kept apart: $(grep putc "$o/three.csv")"
grep -q '^image@good,putc,K/sec,1,' "$o/three.csv" || fail "compare A A A: second input pooled: $(grep putc "$o/three.csv")"
nl="$top/new
line"
mkdir "$nl"
cp "$g/seed003/all/result.json" "$nl/"
rc=0
"$VMDISKCMP" compare "$good" "$nl" >"$o/nl.txt" 2>"$o/nl.err" || rc=$?
[ "$rc" = 0 ] || fail "compare with a newline in a directory name: exit status $rc: $(cat "$o/nl.err")"
grep -q 'image@new?line' "$o/nl.txt" || fail "compare: newline in the label not replaced: $(head -1 "$o/nl.txt")"

# a value near DBL_MAX passed the loader's "finite and >= 0": the HTML
# axis became infinite and report grew to 24 GB; every number has its
# physical bound now (model/result.h).  Each forged file: one line, exit 2,
# nothing written, in well under the harness's patience.
for case in 'value:1.7976931348623157e308' 'value:1.5e308' 'value:2e10' 'latency_us:1e300' 'cpu_percent:1e6'; do
    member=${case%%:*} v=${case#*:}
    d="$work/huge-$member-$v"
    mkdir "$d"
    python3 - "$g/seed003/all/result.json" "$d/result.json" "$member" "$v" <<'PY' || fail "fixture ($case)"
import json, sys
d = json.load(open(sys.argv[1]))
d["runs"][0]["samples"][0][sys.argv[3]] = float(sys.argv[4])
json.dump(d, open(sys.argv[2], "w"))
PY
    bad "report: $member $v" "samples\[0\](\.|: )$member: .*expected .*at most" -- report "$d"
    ls "$d" | grep -qv '^result.json$' && fail "report wrote beside a refused result.json ($case)"
    bad "compare: $member $v" "samples\[0\](\.|: )$member: .*expected .*at most" -- compare "$good" "$d"
done

# ---- and the good cases still work (the tests above can fail) --------------
"$VMDISKCMP" compare "$good" >/dev/null || fail "compare on a good directory failed"
"$VMDISKCMP" report "$good" --quiet || fail "report on a good directory failed"
[ -f "$good/report.txt" ] || fail "report on a good directory wrote no report.txt"
exit 0
