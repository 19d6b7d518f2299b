#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Golden and bad-input test of `vmdiskcmp merge` over the fleet fixtures of
# tests/golden/report/fleet/ (generate.py): xen01 and xen02 pick opposite
# sides of image against lvm (the facts that differ named), xen03 failed
# (its fleet-failed.txt), xen04 never came back (an empty directory);
# xen01 with its twin xen01b picks the same side.  fleet.txt and fleet.json
# byte for byte with fleet/expected/ (VDC_REGENERATE=1 rewrites them);
# result.json holds every host's targets as TARGET@HOST and reads back in
# `vmdiskcmp compare`.  Bad input (also one directory under two names, -o
# inside an input, a failure marker that is a FIFO): one line, exit 2,
# nothing created.
# Run time: under 1 s.
. "$top_srcdir/tests/lib.sh"
[ -x "$VMDISKCMP" ] || fail "VMDISKCMP not built: $VMDISKCMP"
need_cmd python3

golden="$top_srcdir/tests/golden/report/fleet"
work=$(mktemp -d "${TMPDIR:-/tmp}/vdc-report-merge.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
mkdir "$work/in" "$work/in/xen04"
for h in xen01 xen01b xen02 xen03; do cp -r "$golden/$h" "$work/in/"; done
cd "$work/in" || fail "cd $work/in"

# ---- the choice differs: facts named, failed and missing hosts in their rows ----
"$VMDISKCMP" merge xen01 xen02 xen03 xen04 -o ../differ >"$work/differ.out" 2>"$work/differ.err" ||
    fail "merge xen01 xen02 xen03 xen04 failed: $(cat "$work/differ.err")"
[ -s "$work/differ.err" ] && fail "merge printed on stderr: $(cat "$work/differ.err")"
cmp -s "$work/differ.out" ../differ/fleet.txt || fail "stdout is not fleet.txt"
golden_check differ "$golden/expected/differ" ../differ fleet.txt fleet.json
grep -q "^  xen03  FAILED    exit 2: vmdiskcmp: storage dom0: VG vg0" ../differ/fleet.txt ||
    fail "the failed host's row does not name its failure"
grep -q "^  xen04  NO RESULT no result.json" ../differ/fleet.txt || fail "the missing host has no row"
grep -q "^  image against lvm: NOT the same on every host" ../differ/fleet.txt || fail "no differing choice"
python3 - ../differ/result.json ../differ/fleet.json <<'PY' || fail "merged result.json or fleet.json wrong"
import json, sys
d = json.load(open(sys.argv[1]))
names = sorted(t["name"] for t in d["targets"])
assert names == sorted(f"{t}@{h}" for t in ("image", "lvm", "dom0") for h in ("xen01", "xen02")), names
assert "experiment" not in d
assert len(d["runs"]) == 30, len(d["runs"])
f = json.load(open(sys.argv[2]))
assert [(h["name"], h["status"]) for h in f["hosts"]] == \
    [("xen01", "ok"), ("xen02", "ok"), ("xen03", "failed"), ("xen04", "missing")], f["hosts"]
assert f["choices"][0]["same"] is False and f["choices"][0]["picks"] == {"xen01": "lvm", "xen02": "image"}
assert any(x.startswith("kernel: ") for x in f["facts_differ"])
PY
"$VMDISKCMP" compare ../differ --quiet >/dev/null || fail "compare cannot read the merged result.json"

# ---- the same choice on every host ---------------------------------------------
"$VMDISKCMP" merge xen01 xen01b -o ../same --quiet 2>"$work/same.err" ||
    fail "merge xen01 xen01b failed: $(cat "$work/same.err")"
golden_check same "$golden/expected/same" ../same fleet.txt fleet.json
grep -q "^  image against lvm: the same on every host that has the pair (2 of 2): lvm" ../same/fleet.txt ||
    fail "xen01 and its twin: the choice is not the same"

# OUT with a trailing slash names OUT; no temporary directory is left
"$VMDISKCMP" merge xen01 xen01b -o ../slash/ --quiet 2>"$work/slash.err" ||
    fail "merge -o ../slash/ failed: $(cat "$work/slash.err")"
[ -f ../slash/fleet.json ] || fail "-o ../slash/: no ../slash/fleet.json"
ls -a .. | grep -q '\.merge-' && fail "a temporary directory was left: $(ls -a ..)"

# written whole or not at all: a full filesystem (root: a 16 KiB tmpfs in a
# private mount namespace) leaves no OUT and no temporary directory
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1; then
    mkdir "$work/small"
    unshare -m --propagation private sh -c '
        mount -t tmpfs -o size=16k vdc-merge-test "$1" || exit 3
        "$2" merge xen01 xen02 -o "$1/out" --quiet 2>"$3/small.err"
        echo "exit $?" >"$3/small.rc"
        ls -A "$1" >"$3/small.ls"' sh "$work/small" "$VMDISKCMP" "$work" || fail "tmpfs for the full-disk case"
    [ "$(cat "$work/small.rc")" = "exit 1" ] || fail "merge onto a full tmpfs: $(cat "$work/small.rc"), expected exit 1"
    [ -s "$work/small.ls" ] && fail "merge onto a full tmpfs left: $(cat "$work/small.ls")"
    grep -q "No space left" "$work/small.err" || fail "merge onto a full tmpfs: $(cat "$work/small.err")"
else
    echo "report-merge: not root: the full-filesystem case is not tried"
fi

# ---- bad input: one line naming it, exit 2, nothing created ---------------------
mkdir "$work/in/lab4" && cp "$top_srcdir/tests/golden/report/lab4/result.json" "$work/in/lab4/"
mkdir "$work/in/dup" && cp -r xen01 "$work/in/dup/"
bad() {   # WHAT PATTERN ARGS...
    what=$1 pat=$2
    shift 2
    rc=0
    "$VMDISKCMP" merge "$@" >"$work/bad.out" 2>"$work/bad.err" || rc=$?
    [ "$rc" = 2 ] || fail "$what: exit $rc, expected 2 ($(cat "$work/bad.err"))"
    [ "$(wc -l <"$work/bad.err")" = 1 ] || fail "$what: expected one line on stderr: $(cat "$work/bad.err")"
    grep -q -- "$pat" "$work/bad.err" || fail "$what: message lacks '$pat': $(cat "$work/bad.err")"
    [ -e ../bad ] && fail "$what: ../bad was created"
    return 0
}
bad "other shape" "merge: lab4: experiment shape differs from xen01: targets image(image),image-qdisk(image)" \
    xen01 lab4 -o ../bad
bad "host twice" "host xen01 is given twice" xen01 dup/xen01 -o ../bad
bad "no -o" "expected -o OUT" xen01 xen02
bad "-o twice" "merge: --out given twice ('../bad', then '../bad2'): expected one value" \
    xen01 xen02 -o ../bad -o ../bad2
[ -e ../bad2 ] && fail "-o twice: ../bad2 was created"
bad "no operand" "expected one result directory per host" -o ../bad
bad "not a directory" "xen01/result.json: not a directory" xen01/result.json -o ../bad
bad "nobody came back" "no host has a result.json" xen03 xen04 -o ../bad
bad "out exists" "-o ../differ: exists" xen01 -o ../differ
ln -s xen01 xen01-link
bad "one directory by two names" "xen01-link: the same directory as xen01" xen01 xen01-link -o ../bad
bad "out inside an input" "inside the host directory xen01b" xen01 xen01b -o xen01b/bad
[ -e xen01b/bad ] && fail "out inside an input: xen01b/bad was created"
ln -s ../nowhere ../dangle
bad "out a dangling link" "-o ../dangle: exists" xen01 -o ../dangle
ln -s loopB ../loopA && ln -s loopA ../loopB
bad "out a link loop" "-o ../loopA: exists" xen01 -o ../loopA
rm ../dangle ../loopA ../loopB
bad "out under a missing directory" "-o ../nodir/bad: ../nodir: No such file or directory" xen01 -o ../nodir/bad
: >../afile
bad "out under a file" "-o ../afile/bad: ../afile: not a directory" xen01 -o ../afile/bad
rm ../afile
# a failure marker that is not a file: refused at once (a FIFO would block
# the read, /dev/zero would never end)
mkdir xen05 && mkfifo xen05/fleet-failed.txt
bad "marker a FIFO" "xen05/fleet-failed.txt: not a regular file" xen01 xen05 -o ../bad
rm xen05/fleet-failed.txt && ln -s /dev/zero xen05/fleet-failed.txt
bad "marker a link to /dev/zero" "xen05/fleet-failed.txt: not a regular file" xen01 xen05 -o ../bad
rm -r xen05 xen01-link
# a result.json linked out of its host directory (to /etc/shadow, as root):
# refused unread, so nothing of it is quoted; a link inside the directory
# is the host's own file
mkdir xen06 && ln -s /etc/shadow xen06/result.json
bad "result.json a link out" "merge: xen06/result.json: a symbolic link out of the host directory: expected the host's own result.json (not read)" \
    xen01 xen06 -o ../bad
grep -q 'root' "$work/bad.err" && fail "a refused file's contents were quoted: $(cat "$work/bad.err")"
rm xen06/result.json && ln -s ../xen01/result.json xen06/result.json
bad "result.json a link to another host's" "xen06/result.json: a symbolic link out of the host directory" \
    xen02 xen06 -o ../bad
rm xen06/result.json && cp xen01/result.json xen06/own.json && ln -s own.json xen06/result.json
"$VMDISKCMP" merge xen02 xen06 -o ../inlink --quiet 2>"$work/inlink.err" ||
    fail "merge of a result.json linked inside its directory: $(cat "$work/inlink.err")"
rm -r xen06 ../inlink
# a host directory whose name holds an escape character: its name is the
# host's label in every output (exit 1 before, after writing OUT)
mkdir "xen$(printf '\033')7" && cp xen01/result.json "xen$(printf '\033')7/"
bad "a host name with ESC" "merge: xen.x1b7: host name 'xen.x1b7': expected printable UTF-8 of at most 256 bytes" \
    xen02 "xen$(printf '\033')7" -o ../bad
rm -r "xen$(printf '\033')7"
echo '{"format": "vmdiskcmp-result", "format_version": 1, "runs": [' >xen04/result.json
bad "broken result.json" "xen04/result.json" xen01 xen04 -o ../bad
# json-glib's parse error quotes the token it stopped at: left out
printf 'root:$6$secret:19000:0:99999:7:::\n' >xen04/result.json
bad "not JSON" "xen04/result.json:1:4: invalid JSON: Parse error: unexpected identifier, expected value" \
    xen01 xen04 -o ../bad
grep -q 'root\|secret' "$work/bad.err" && fail "the refused file's contents were quoted: $(cat "$work/bad.err")"
echo "ok"
