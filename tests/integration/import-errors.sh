#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every bad input of `vmdiskcmp import`: wrong field
# count, non-numeric, truncated, unknown format version, empty file,
# binary junk, JSON with wrong types / paths / a future version.  For each
# file tests/golden/import/bad/NAME, the real binary must print exactly the
# one line in NAME.err (FILE:LINE: what was expected), exit 2, and write
# nothing -- not even when a good file comes first, and an existing output
# file is left untouched.  VDC_REGENERATE=1 rewrites the .err files.
# Run time: < 1 s.
. "$top_srcdir/tests/lib.sh"
[ -x "$VMDISKCMP" ] || fail "VMDISKCMP ($VMDISKCMP) not built"
bad="$top_srcdir/tests/golden/import/bad"
good="$top_srcdir/tests/golden/import/seed003-image.txt"
work=$(mktemp -d /tmp/vdc-import-errors-XXXXXX) || fail mktemp
trap 'rm -rf "$work"' EXIT INT TERM

failed=0
n=0
for f in "$bad"/*; do
    case $f in *.err) continue ;; esac
    name=$(basename "$f")
    # relative name, as a user would type it: the message names it
    (cd "$bad" && "$VMDISKCMP" import -q "$name" --target t -o "$work/out.json") \
        > "$work/stdout" 2> "$work/stderr"
    rc=$?
    if [ "${VDC_REGENERATE:-0}" = 1 ]; then
        cp "$work/stderr" "$bad/$name.err"
    fi
    [ $rc = 2 ] || { echo "FAIL: $name: exit $rc, expected 2" >&2; failed=1; }
    [ "$(wc -l < "$work/stderr")" = 1 ] || { echo "FAIL: $name: not one line:" >&2; cat "$work/stderr" >&2; failed=1; }
    cmp -s "$work/stderr" "$bad/$name.err" || {
        echo "FAIL: $name: message differs:" >&2; diff "$bad/$name.err" "$work/stderr" >&2; failed=1; }
    [ ! -e "$work/out.json" ] || { echo "FAIL: $name: output written" >&2; failed=1; rm -f "$work/out.json"; }
    [ ! -s "$work/stdout" ] || { echo "FAIL: $name: something on stdout" >&2; failed=1; }
    # a good file first, then the bad one: still nothing, existing file kept
    echo KEEP > "$work/keep.json"
    (cd "$bad" && "$VMDISKCMP" import -q "$good" "$name" --target t -o "$work/keep.json") 2>/dev/null
    rc=$?
    [ $rc = 2 ] || { echo "FAIL: good+$name: exit $rc, expected 2" >&2; failed=1; }
    [ "$(cat "$work/keep.json")" = KEEP ] || { echo "FAIL: good+$name: output overwritten" >&2; failed=1; }
    [ "$(ls "$work" | grep -c keep)" = 1 ] || { echo "FAIL: $name: temporary file left" >&2; ls "$work" >&2; failed=1; }
    n=$((n + 1))
done
[ $n -ge 9 ] || fail "only $n bad inputs found in $bad"
[ $failed = 0 ] || fail "bad inputs"
echo "ok: $n bad inputs refused with one line, exit 2, nothing written"

# usage errors: exit 2, one line
check_usage() {
    expect=$1; shift
    "$VMDISKCMP" import "$@" > "$work/stdout" 2> "$work/stderr"
    rc=$?
    [ $rc = 2 ] || fail "import $*: exit $rc, expected 2"
    grep -qF -- "$expect" "$work/stderr" || { cat "$work/stderr" >&2; fail "import $*: expected '$expect'"; }
    [ ! -s "$work/stdout" ] || fail "import $*: wrote to stdout"
}
check_usage "expected at least one FILE" --target t
# no device, FIFO or directory is read (/dev/zero would fill memory, a FIFO block)
check_usage "/dev/zero: not a regular file: expected a file (or - for standard input)" /dev/zero --target t
mkfifo "$work/fifo"
check_usage "$work/fifo: not a regular file" "$work/fifo" --target t
check_usage "$work: not a regular file" "$work" --target t
head -c 67108865 /dev/zero > "$work/big"
check_usage "$work/big: 67108865 bytes, larger than 64 MiB" "$work/big" --target t
rm -f "$work/big" "$work/fifo"
# two documents in one file: json-glib would keep the first and drop the rest
cat "$top_srcdir/tests/golden/import/agent-example.json" "$top_srcdir/tests/golden/import/agent-example.json" \
    > "$work/two.json"
check_usage "text after the JSON document: expected one document and the end of the file" "$work/two.json"
rm -f "$work/two.json"
# \u0000 in a string would cut the C string there ("rand\u0000read" read as "rand")
sed 's|"target": *"\([^"]*\)"|"target": "\1\\u0000x"|' "$top_srcdir/tests/golden/import/agent-example.json" > "$work/nul.json"
grep -q 'u0000x' "$work/nul.json" || fail "the NUL fixture did not change the target"
check_usage 'a JSON string holding \u0000: expected text without NUL' "$work/nul.json"
rm -f "$work/nul.json"
# a unit other than the test's would be pooled with it as if the same
sed 's|"unit": *"K/sec"|"unit": "MiB/s"|' "$top_srcdir/tests/golden/import/agent-example.json" > "$work/unit.json"
grep -q '"MiB/s"' "$work/unit.json" || fail "the unit fixture did not change the unit"
check_usage '"MiB/s": expected "K/sec", the unit of' "$work/unit.json"
rm -f "$work/unit.json"
# the same runs twice would pass for twice the repetitions
check_usage "are the same file: expected each input once" "$good" "$good" --target t
# bonnie 1.x prints no machine name: without a label line, --target names it
check_usage "seed002-hda3.txt:4: this run names no machine and no label line precedes it: expected --target NAME or a label line above it" \
    "$top_srcdir/tests/golden/import/seed002-hda3.txt"
check_usage "--format 'xml': expected auto, json, text, csv, table, dd or fio" --format xml "$good" --target t
check_usage "--group-by 'host': expected machine, label or none" --group-by host "$good"
check_usage "--group-by none puts every run into one target: expected --target NAME" --group-by none "$good"
check_usage "--target: expected a non-empty name" --target "" "$good"
check_usage "cannot read /nonexistent/x.txt" /nonexistent/x.txt --target t
check_usage "--kind 'disk': expected image, lvm, block, dom0 or imported" --kind disk --target t "$good"
check_usage "--where 'cloud': expected domU, dom0 or host" --where cloud --target t "$good"
check_usage "--kind and --where describe the --target" --kind lvm "$good"
# bug import-option-spew: an unknown option printed getopt's line and the
# whole usage (18 lines); now one line
check_one_line() {
    expect=$1; shift
    check_usage "$expect" "$@"
    [ "$(wc -l < "$work/stderr")" = 1 ] || { cat "$work/stderr" >&2; fail "import $*: not one line"; }
}
check_one_line "unknown option '--bogus'" --bogus "$good" --target t
check_one_line "unknown option '-Z'" -Z "$good" --target t
check_one_line "-t: expected a value" "$good" -t
# bug import-target-control-chars: a newline in --target went into every
# report and error line
check_one_line "--target: expected printable text" -q "$good" --target "$(printf 'a\nb')"
check_one_line "'-' (standard input) given twice" - - --target t
# bug import-output-clobbers: -o replaced the input itself, a user's file,
# or (renamed over it) a device node such as /dev/null; a directory or an
# empty name were runtime failures.  Now bad input, nothing written.
cp "$good" "$work/in.txt"
cp "$good" "$work/in-copy.txt"
check_one_line "--output $work/in.txt: is also the input" -q "$work/in.txt" --target t -o "$work/in.txt"
cmp -s "$work/in.txt" "$work/in-copy.txt" || fail "-o INPUT: the input was overwritten"
ln -s "$work/in.txt" "$work/link.json"
check_one_line "is also the input" -q "$work/in.txt" --target t -o "$work/link.json"
cmp -s "$work/in.txt" "$work/in-copy.txt" || fail "-o LINK-TO-INPUT: the input was overwritten"
echo "my notes" > "$work/notes.json"
check_one_line "exists and is not a vmdiskcmp result document: refusing to overwrite it" \
    -q "$good" --target t -o "$work/notes.json"
[ "$(cat "$work/notes.json")" = "my notes" ] || fail "-o FOREIGN: overwritten"
# bug import-output-late: a foreign -o was refused only after the inputs
# were read (a progress line each first): now before any work, one line
check_one_line "exists and is not a vmdiskcmp result document: refusing to overwrite it" \
    "$good" --target t -o "$work/notes.json"
check_one_line "--output $work/none/out.json: no directory $work/none: expected a file name in an existing directory" \
    "$good" --target t -o "$work/none/out.json"
[ ! -e "$work/none" ] || fail "-o in a missing directory: made it"
mkfifo "$work/fifo"
check_one_line "exists and is not a regular file" -q "$good" --target t -o "$work/fifo"
[ -p "$work/fifo" ] || fail "-o FIFO: replaced"
mkdir "$work/dir"
check_one_line "is a directory: expected a file name" -q "$good" --target t -o "$work/dir"
check_one_line "--output: expected a file name" -q "$good" --target t -o ""
# overwriting our own earlier output is fine
"$VMDISKCMP" import -q "$good" --target t -o "$work/ours.json" || fail "import to a new file"
"$VMDISKCMP" import -q "$good" --target u -o "$work/ours.json" || fail "import over our own output"
grep -q '"target": "u"' "$work/ours.json" || fail "import over our own output: not rewritten"
# bug import-output-measured: -o over a run's result.json (measured data,
# the only copy) replaced it with the import; the agent's answer and a
# report.json too.  Each is refused in one line naming OUT and what it is,
# exit 2, the file byte for byte as it was.
refuse_out() {
    src=$1 what=$2
    cp "$src" "$work/measured.json"
    check_one_line "import: --output $work/measured.json: exists and is $what" \
        -q "$good" --target t -o "$work/measured.json"
    grep -qF "refusing to overwrite it (import replaces only its own earlier output; move it away, or choose another name)" \
        "$work/stderr" || fail "-o $src: the refusal does not say what to do: $(cat "$work/stderr")"
    cmp -s "$src" "$work/measured.json" || fail "-o $src: overwritten"
    rm -f "$work/measured.json"
}
refuse_out "$top_srcdir/tests/golden/report/synthetic/result.json" \
    "the result of a vmdiskcmp run (experiment 2026-11-30T101500Z-lab): measured data, not an import's output"
refuse_out "$top_srcdir/tests/golden/import/agent-example.json" \
    "a result written by vmdiskcmp-agent, not by an import: measured data"
refuse_out "$top_srcdir/tests/golden/report/synthetic/expected/report.json" \
    "a report's report.json (it has \"statistics\"), not an import's output"
# a run's result.json imported is an import's output (each run names its
# source): importing again over it is fine
"$VMDISKCMP" import -q "$top_srcdir/tests/golden/report/synthetic/result.json" -o "$work/ours.json" ||
    fail "import of a result.json over our own output"
"$VMDISKCMP" import -q "$good" --target t -o "$work/ours.json" || fail "import over an imported result.json"
grep -q '"target": "t"' "$work/ours.json" || fail "import over an imported result.json: not rewritten"
# (vmdiskcmp.sqlite: the result store import records OUT in, doc/store.md)
[ -z "$(ls -A "$work" | grep -v -e '^in.txt$' -e '^in-copy.txt$' -e '^link.json$' -e '^notes.json$' \
    -e '^fifo$' -e '^dir$' -e '^ours.json$' -e '^stdout$' -e '^stderr$' -e '^keep.json$' -e '^vmdiskcmp.sqlite$')" ] ||
    fail "temporary files left: $(ls -A "$work")"

# bug import-quadratic-runs: 200 000 CSV lines took 10 minutes and 6 GiB
# (each appended run counted its target's runs); one file now holds at
# most 10000 runs (~2 s here)
line=$(head -1 "$top_srcdir/tests/golden/import/bonnie2.00a-q.csv")
awk -v l="$line" 'BEGIN { for (i = 0; i < 10001; i++) print l }' > "$work/many.csv"
check_one_line "many.csv:10001: more than 10000 runs: expected at most 10000 runs per file" \
    -q "$work/many.csv" --target t
rm -f "$work/many.csv"

# bug json-deep-nesting-segfault: 200 000 nested '[' overflowed json-glib's
# recursive parser (segfault in import, report and compare); refused first
awk 'BEGIN { printf "{\"format\": \"vmdiskcmp-result\", \"x\": ";
             for (i = 0; i < 200000; i++) printf "["; for (i = 0; i < 200000; i++) printf "]";
             print "}" }' > "$work/deep.json"
check_one_line "deep.json:1: JSON nested deeper than 64 levels: expected a result document" -q "$work/deep.json"
mkdir "$work/deepdir" && mv "$work/deep.json" "$work/deepdir/result.json"
rc=0; "$VMDISKCMP" report -q "$work/deepdir" 2> "$work/stderr" || rc=$?
[ "$rc" = 2 ] || fail "report on a deeply nested result.json: exit status $rc, expected 2"
grep -q "nested deeper than 64 levels" "$work/stderr" || fail "report on a deeply nested result.json: $(cat "$work/stderr")"
rm -rf "$work/deepdir"

# bug import-kind-map-silent: 'a=b=lvm' took TEXT 'a=b'; one TEXT given two
# KINDs took the first; an entry matching no target said nothing
check_one_line "--kind-map 'a=b=lvm': expected TEXT=KIND with one '=' (TEXT holds none)" \
    -q "$good" --target t --kind-map 'a=b=lvm'
check_one_line "--kind-map 'disk=lvm' and 'DISK=image': the TEXT 'DISK' twice: expected each TEXT once" \
    -q "$good" --target t --kind-map 'disk=lvm' --kind-map 'DISK=image'
[ ! -e "$work/out.json" ] || fail "--kind-map refused: output written"
"$VMDISKCMP" import -q "$good" --target 'lv on ssd' --kind-map 'nvme=block' -o "$work/km.json" \
    2> "$work/stderr" || fail "--kind-map matching nothing: $(cat "$work/stderr")"
grep -qF "warning: --kind-map 'nvme=block': no target's name holds 'nvme' (the targets: 'lv on ssd')" \
    "$work/stderr" || fail "--kind-map matching nothing: no warning: $(cat "$work/stderr")"
"$VMDISKCMP" import -q "$good" --target 'lv on ssd' --kind-map 'ssd=block' --kind-map 'LV=lvm' \
    -o "$work/km.json" 2> "$work/stderr" || fail "--kind-map overlapping: $(cat "$work/stderr")"
grep -qF "warning: target 'lv on ssd': --kind-map 'ssd=block' and 'LV=lvm' both match: kind block (the first given" \
    "$work/stderr" || fail "--kind-map overlapping: no warning: $(cat "$work/stderr")"
grep -q '"kind": "block"' "$work/km.json" || fail "--kind-map overlapping: not the first entry's kind"
"$VMDISKCMP" import -q "$good" --target 'lv on ssd' --kind-map 'SSD=block' -o "$work/km.json" \
    2> "$work/stderr" || fail "--kind-map: $(cat "$work/stderr")"
[ ! -s "$work/stderr" ] || fail "--kind-map that decided a kind: warned: $(cat "$work/stderr")"
rm -f "$work/km.json"

# output that cannot be written: exit 1, nothing left behind
"$VMDISKCMP" import -q "$good" --target t -o /proc/vdc-out.json 2> "$work/stderr"
[ $? = 1 ] || fail "unwritable output: expected exit 1"
grep -q "cannot write /proc/vdc-out.json" "$work/stderr" || fail "unwritable output: message"
echo "ok: usage errors"
