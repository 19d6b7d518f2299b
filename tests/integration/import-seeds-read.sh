#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The published seeds read as their authors meant them: seed 002's mail,
# seed 003's blog post and seed 004's mail (copies in tests/golden/import/)
# imported with no option, then `compare` (text, Markdown) and `report`
# (report.txt), against the goldens of tests/golden/import/read/:
#   - what import says each target is (kind from its heading or device,
#     where, the RAM the page states), on stderr;
#   - seed 003: the image/LV pair and the dom0 ceiling in the headline, not
#     paired (Welch); the plain reading: each target's share of dom0, the
#     odd one out (block write: the image at 95 % of dom0, the LV at 69 %)
#     and the page-cache suspicion worded as one;
#   - seed 002: the last table's 56 MiB test file, under twice the 128 MiB
#     of RAM the mail states, named with its shares;
#   - seed 004: dd's system time per op in compare (14.7 and 48.8 us, +34.1);
#   - seeds 003 and 004 compared together (no test in common): each pair
#     says there is nothing to compare and why, each cell why it has no
#     delta, never an empty verdict;
#   - compare's text never wider than 120 characters, short names with a key
#     when the full ones do not fit, a legend only for the marks printed;
#     report.txt never cuts a name (a key with every full name);
#   - --kind-map, --ram and --dom0-ram win over the page and say so; a
#     --kind-map that is not TEXT=KIND is bad input (exit 2, nothing written).
# VDC_REGENERATE=1 rewrites the goldens (review the diff).  Run time: ~1 s.
. "$top_srcdir/tests/lib.sh"
[ -x "$VMDISKCMP" ] || fail "VMDISKCMP ($VMDISKCMP) not built"
g="$top_srcdir/tests/golden/import"
exp="$g/read"
work=$(mktemp -d /tmp/vdc-import-read-XXXXXX) || fail mktemp
trap 'rm -rf "$work"' EXIT INT TERM
SOURCE_DATE_EPOCH=1796000000
export SOURCE_DATE_EPOCH

for s in seed002-page seed003-page seed004-dd; do
    # relative names: the messages must not depend on the checkout
    (cd "$g" && "$VMDISKCMP" import "$s.txt" -o "$work/$s.json") 2>"$work/$s.import.err" ||
        fail "import $s: $(cat "$work/$s.import.err")"
    sed "s|$work/||" "$work/$s.import.err" >"$work/$s.import.txt"
    "$VMDISKCMP" compare "$work/$s.json" -q >"$work/$s.compare.txt" || fail "compare $s"
    "$VMDISKCMP" compare "$work/$s.json" -q --format md >"$work/$s.compare.md" || fail "compare --format md $s"
    mkdir "$work/$s.report"
    cp "$work/$s.json" "$work/$s.report/result.json"
    "$VMDISKCMP" report "$work/$s.report" -q --formats txt || fail "report $s"
    cp "$work/$s.report/report.txt" "$work/$s.report.txt"
    # a terminal's report: no line wider than 100 characters; the greps
    # below read its folded lines joined (lib.sh)
    LC_ALL=C sed 's/[\x80-\xBF]//g' "$work/$s.report.txt" |    # characters, not bytes
        awk -v f="$s" 'length($0) > 100 { print f ": report.txt line " NR " is " length($0) " wide"; bad = 1 }
                       END { exit bad }' || fail "$s: report.txt wider than 100"
    unfold "$work/$s.report.txt" >"$work/$s.report.flat"
    awk -v f="$s" 'length($0) > 120 { print f ": compare line " NR " is " length($0) " wide"; bad = 1 }
                   END { exit bad }' "$work/$s.compare.txt" || fail "$s: compare text wider than 120"
    # legends only for the marks printed
    if grep -q '†' "$work/$s.compare.txt" "$work/$s.report.txt"; then
        fail "$s: a dagger or its legend, and no cell has too-fast runs beside measured ones"
    fi
    # every full name in report.txt (its tables use short ones when a name
    # is wider than their 16 columns)
    python3 - "$work/$s.json" "$work/$s.report.txt" <<'PY' || fail "$s: report.txt cuts a name"
import json, sys
names = [t["name"] for t in json.load(open(sys.argv[1]))["targets"]]
text = open(sys.argv[2], encoding="utf-8").read()
missing = [n for n in names if n not in text]
sys.exit("not in report.txt: %s" % missing if missing else 0)
PY
done

# what each says, in words (the goldens pin the rest)
has() { grep -qF -- "$2" "$work/$1" || fail "$1: expected '$2'"; }
tr '\n' ' ' <"$work/seed003-page.compare.txt" | tr -s ' ' >"$work/003.flat"
has seed003-page.import.txt "target 'Test 1 - disk image': kind image (its name says 'disk image'"
has seed003-page.import.txt "target 'Test 3 - Dom0 - LVM': kind dom0"
has seed003-page.import.txt "RAM 512 MiB (seed003-page.txt:16: memory = \"512\")"
has seed003-page.compare.txt "Headline: Test 1 - disk image relative to Test 2 - LVM: 1 run on the smaller side, not paired"
has seed003-page.report.flat "Test 1 - disk image relative to Test 2 - LVM (not paired: 1 run on the smaller side, Welch):"
has seed003-page.report.flat "Ceiling: the share of bare Test 3 - Dom0 - LVM each target reaches (ratio of the means, not paired"
has 003.flat "Test 1 - disk image reaches 95 % of dom0 (Test 3 - Dom0 - LVM) and Test 2 - LVM 69 %"
has 003.flat "dom0's page cache absorbed Test 1 - disk image's writes: its 2048 MiB test file fits in dom0's 5120 MiB of RAM"
has 003.flat "A suspicion, not a verdict"
tr '\n' ' ' <"$work/seed002-page.compare.txt" | tr -s ' ' >"$work/002.flat"
has seed002-page.import.txt "kind lvm (its name says 'lvm'"
has seed002-page.import.txt "RAM 128 MiB (seed002-page.txt:16: 128 MB RAM"
has 002.flat "/dev/VG00/LV00 (LVM 1.0, stripes=1, /dev/hda3) ran a 56 MiB test file where /dev/hda3 (ext2 with 4-KB block size) ran 256 MiB, under twice the 128 MiB of RAM that can cache it"
has seed002-page.compare.txt "Targets:"
has seed002-page.compare.txt "T7  /dev/VG00/LV00 (LVM 1.0, stripes=1, /dev/hda3) (lvm on the host; its name says 'lvm')"
grep -Eq '^  system time per op +us +14\.7 +48\.8 +\+34\.1$' "$work/seed004-dd.compare.txt" ||
    fail "seed004: compare has no dd system time per op row: $(cat "$work/seed004-dd.compare.txt")"

# seeds 003 and 004 compared together (bonnie++ beside dd, no test in
# common): every pair and every cell says why it has no verdict, none is
# empty ("0 tests: " with nothing after it, an empty Markdown cell)
"$VMDISKCMP" compare "$work/seed003-page.json" "$work/seed004-dd.json" -q >"$work/both.txt" ||
    fail "compare seed003 seed004"
"$VMDISKCMP" compare "$work/seed003-page.json" "$work/seed004-dd.json" -q --format md >"$work/both.md" ||
    fail "compare seed003 seed004 --format md"
tr '\n' ' ' <"$work/both.txt" | tr -s ' ' >"$work/both.flat"
has both.flat "Test 1 - disk image relative to /dev/sdc4: no test both ran, nothing to compare (Test 1 - disk image ran 12 tests, /dev/sdc4 1, none of them the same)"
has both.flat "/dev/vg1/test relative to bare Test 3 - Dom0 - LVM: no test both ran, nothing to compare"
if grep -q 'tests: *(\|tests: *$' "$work/both.txt"; then fail "compare of seeds 003 and 004: an empty verdict: $(grep 'tests: *(\|tests: *$' "$work/both.txt")"; fi
if grep -q '| *|' "$work/both.md"; then fail "compare of seeds 003 and 004: an empty Markdown cell: $(grep -m1 '| *|' "$work/both.md")"; fi
grep -q '^| dd read (of=/dev/null) at block size 512 B | MiB/s | not run | not run | not run | 3.37 (n=1) | 0.72 (n=1) | neither ran it | neither ran it | baseline not run | baseline not run |$' \
    "$work/both.md" || fail "compare of seeds 003 and 004: the dd row does not say why it has no delta: $(grep '512 B' "$work/both.md")"

# the options win over what the page says, and say so; a bad map is bad input
(cd "$g" && "$VMDISKCMP" import seed003-page.txt --kind-map 'Test 2=block' --ram 1024M --dom0-ram 4G \
    -o "$work/opts.json") 2>"$work/opts.err" || fail "import with --kind-map --ram --dom0-ram: $(cat "$work/opts.err")"
has opts.err "target 'Test 2 - LVM': kind block (--kind-map 'Test 2=block'), domU; RAM 1024 MiB (--ram 1024); dom0's RAM 4096 MiB (--dom0-ram 4096)"
has opts.err "target 'Test 3 - Dom0 - LVM': kind dom0 (its name says 'dom0'; --kind-map 'TEXT=KIND' to change), dom0; RAM 4096 MiB (--dom0-ram 4096)"
rc=0
(cd "$g" && "$VMDISKCMP" import seed003-page.txt --kind-map 'Test 2' -o "$work/bad.json") 2>"$work/bad.err" || rc=$?
[ "$rc" = 2 ] && [ ! -e "$work/bad.json" ] && [ "$(wc -l <"$work/bad.err")" = 1 ] ||
    fail "--kind-map without =KIND: exit $rc, $(cat "$work/bad.err")"
has bad.err "--kind-map 'Test 2': expected TEXT=KIND"

files=""
for s in seed002-page seed003-page seed004-dd; do
    files="$files $s.import.txt $s.compare.txt $s.compare.md $s.report.txt"
done
# shellcheck disable=SC2086
golden_check "the seeds as their authors meant them" "$exp" "$work" $files
echo "ok: seeds 002, 003, 004 imported, compared and reported as read"
