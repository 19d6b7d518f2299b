#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Golden test of `vmdiskcmp import`: every input in tests/golden/import/ is
# imported by the real binary and compared with INPUT.expected.json beside
# it.  VDC_REGENERATE=1 rewrites the expected files on purpose (review the
# diff before committing).  The values themselves are checked by hand in
# tests/unit/test_import.c; this pins the whole document (metadata, units,
# null/too_fast, order).  Run time: < 1 s.
. "$top_srcdir/tests/lib.sh"
[ -x "$VMDISKCMP" ] || fail "VMDISKCMP ($VMDISKCMP) not built"
golden="$top_srcdir/tests/golden/import"
work=$(mktemp -d /tmp/vdc-import-golden-XXXXXX) || fail mktemp
trap 'rm -rf "$work"' EXIT INT TERM

# input  target (- = no --target: the JSON's own targets, or the text's groups)
cases="seed003-image.txt image
seed003-lvm.txt lvm
seed003-dom0.txt dom0
seed002-hda3.txt hda3
seed002-hdc1.txt hdc1
seed002-md0-chunk4k.txt md0-4k
seed002-md0-chunk32k.txt md0-32k
seed002-lv-stripes2-4k.txt lv-s2-4k
seed002-lv-stripes2-32k.txt lv-s2-32k
seed002-lv-stripes1.txt lv-s1
bonnie2.00a.txt host
bonnie2.00a-n-dirs.txt host
bonnie1.96.csv db
bonnie2.00a-q.csv q
bonnie1.96-table.txt db
bonnie1.03-files.txt ubuntu
bonnie1.x-progress.txt hda3
agent-0.1.0-table.txt vm
agent-0.1.0.csv vm
bon_csv2txt-2.00a.txt q
agent-example.json -
seed004-dd.txt -
dd-coreutils-8.25.txt -
dd-coreutils-5.3-de.txt -
dd-sweep-separators.txt vps
groups-bonnie1.txt -
groups-bonniepp.txt -
bonnie1.03-f-spaced.txt -
bonnie1.03-f-collapsed.txt -
bonnie1.03-wrapped.txt mail
bonnie1.96-s0.csv -
seed002-page.txt -
seed003-page.txt -
agent-workload.json -
fio-3.33-two-jobs.json -
fio-3.33-jsonplus.json host
fio-3.33-norandommap.json -
bonnie1.96-f-latency.txt -
dd-sweep-loop.txt xvdb
dd-tool-log.txt vps
dd-ru_RU.txt -
groups-prose-mail.txt -"

n=0
echo "$cases" | {
    failed=0
    while read -r input target; do
        set -- --target "$target"
        [ "$target" = - ] && set --
        # relative names: metadata.source.file must not depend on the checkout
        (cd "$golden" && "$VMDISKCMP" import -q "$input" "$@" -o "$work/$input.json") \
            || { echo "FAIL: import $input exited $?" >&2; failed=1; continue; }
        expected="$golden/$input.expected.json"
        if [ "${VDC_REGENERATE:-0}" = 1 ]; then
            cp "$work/$input.json" "$expected"
            echo "regenerated $expected"
        elif ! diff -u "$expected" "$work/$input.json"; then
            echo "FAIL: $input differs from $expected" >&2
            failed=1
        fi
        # what import writes, import reads back (as JSON) unchanged
        "$VMDISKCMP" import -q "$work/$input.json" -o "$work/$input.again.json" \
            || { echo "FAIL: re-import of $input's output" >&2; failed=1; continue; }
        # (metadata.source keeps naming the original file)
        cmp -s "$work/$input.json" "$work/$input.again.json" || {
            echo "FAIL: $input: re-import changed the document" >&2
            diff -u "$work/$input.json" "$work/$input.again.json" | head -20; failed=1; }
        n=$((n + 1))
    done
    [ $failed = 0 ] || exit 1
    echo "ok: $n golden imports"
} || fail "golden import mismatch"

# several files, two targets' worth, into one document: all runs kept,
# repetitions numbered per target (a copy: one file given twice is refused)
cp "$golden/seed003-image.txt" "$work/seed003-image-2.txt"
(cd "$golden" && "$VMDISKCMP" import -q seed003-image.txt "$work/seed003-image-2.txt" \
    --target image -o "$work/two.json") || fail "importing two files"
grep -c '"target": "image"' "$work/two.json" | grep -qx 2 || fail "expected 2 runs of image"
grep -q '"repetition": 1' "$work/two.json" || fail "expected repetition 1"
# stdout when no -o
(cd "$golden" && "$VMDISKCMP" import -q seed003-dom0.txt --target dom0) > "$work/stdout.json" \
    || fail "import to stdout"
cmp -s "$work/stdout.json" "$golden/seed003-dom0.txt.expected.json" || fail "stdout differs from -o"
# standard input
"$VMDISKCMP" import -q - --target dom0 < "$golden/seed003-dom0.txt" > "$work/stdin.json" \
    || fail "import from stdin"
grep -q '"file": "(stdin)"' "$work/stdin.json" || fail "stdin not named (stdin)"
# --kind / --where describe the target
(cd "$golden" && "$VMDISKCMP" import -q seed003-dom0.txt --target dom0 --kind dom0 \
    --where dom0 -o "$work/kind.json") || fail "import --kind --where"
grep -q '"kind": "dom0"' "$work/kind.json" && grep -q '"where": "dom0"' "$work/kind.json" \
    || fail "--kind/--where not in the target"
echo "ok: multi-file, stdout, stdin, --kind/--where"

# groups through the command line: two machines are two targets; with
# --target they are TARGET/MACHINE; --group-by none puts them together only
# with a warning naming them (on stderr, even with -q)
(cd "$golden" && "$VMDISKCMP" import -q groups-bonniepp.txt --target lab -o "$work/g.json") ||
    fail "import groups-bonniepp.txt --target lab"
grep -q '"name": "lab/web1"' "$work/g.json" && grep -q '"name": "lab/db1"' "$work/g.json" ||
    fail "--target lab: expected targets lab/web1 and lab/db1"
(cd "$golden" && "$VMDISKCMP" import -q groups-bonniepp.txt --target lab --group-by none \
    --kind lvm -o "$work/g1.json") 2> "$work/g1.err" || fail "import --group-by none"
[ "$(cat "$work/g1.err")" = "vmdiskcmp: warning: groups-bonniepp.txt: --group-by none puts 2 machines or configurations ('web1', 'db1') into the one target lab" ] ||
    fail "--group-by none: warning: $(cat "$work/g1.err")"
[ "$(grep -c '"target": "lab"' "$work/g1.json")" = 2 ] && grep -q '"kind": "lvm"' "$work/g1.json" ||
    fail "--group-by none: expected both runs in lab (kind lvm)"
echo "ok: groups on the command line"

# dd's error line with no records after it (a tool's log): no run, and a
# warning naming the line, even with -q
(cd "$golden" && "$VMDISKCMP" import -q dd-tool-log.txt --target vps -o "$work/log.json") \
    2> "$work/log.err" || fail "import dd-tool-log.txt"
[ "$(cat "$work/log.err")" = "vmdiskcmp: warning: dd-tool-log.txt:23: dd printed an error and no records after it: no run imported (dd: failed to open '/var/tmp/no-such-dir/disklog.bin': No such file or directory)" ] ||
    fail "dd-tool-log.txt: warning: $(cat "$work/log.err")"
echo "ok: dd's error line without a run said"
