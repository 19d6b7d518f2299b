#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Whole published pages, as a user would paste them, through the real
# binary with no option: seed 002 (a mail: prose, seven bonnie 1.x tables
# each under a heading line and a command line) and seed 003 (a blog post:
# headings "Test 1 - disk image"..., paragraphs, a df line, shell prompts,
# three bonnie++ 1.03 tables with their CSV lines, an "INIT:" line).  Every
# table must be imported once, as its own target named by its heading, with
# the numbers of the hand-typed fixtures tests/golden/report/seed00{2,3}/
# (typed from the seeds, tests/golden/report/README.md).  Inputs: copies of
# the seeds in tests/golden/import/seed00{2,3}-page.txt.  Run time: < 1 s.
. "$top_srcdir/tests/lib.sh"
[ -x "$VMDISKCMP" ] || fail "VMDISKCMP ($VMDISKCMP) not built"
g="$top_srcdir/tests/golden"
work=$(mktemp -d /tmp/vdc-import-pages-XXXXXX) || fail mktemp
trap 'rm -rf "$work"' EXIT INT TERM

for s in 002 003; do
    "$VMDISKCMP" import -q "$g/import/seed$s-page.txt" -o "$work/$s.json" 2> "$work/err" ||
        fail "import of the whole seed $s page: $(cat "$work/err")"
    [ ! -s "$work/err" ] || fail "seed $s page: stderr: $(cat "$work/err")"
done
python3 - "$work" "$g/report" <<'PY' || fail "the pages' runs differ from the hand-typed fixtures"
import json, sys
work, rep = sys.argv[1], sys.argv[2]
def samples(run):
    return {s["test"]: (s["value"], s["cpu_percent"], s["too_fast"]) for s in run["samples"]}
def runs_of(doc):
    d = json.load(open(doc))
    return d, {r["target"]: r for r in d["runs"]}
# seed 002: heading line -> fixture target
names = {
    "/dev/hda3 (ext2 with 4-KB block size)": "hda3",
    "/dev/hdc1 (ext2 with 4-KB block size)": "hdc1",
    "/dev/md0 (software RAID-0, 4 KB chunk size, /dev/hda3 + /dev/hdc1)": "md0-4k",
    "/dev/md0 (software RAID-0, 32 KB chunk size, /dev/hda3 + /dev/hdc1)": "md0-32k",
    "/dev/VG00/LV00 (LVM 1.0, stripes=2, stripe_size=4 KB /dev/hda3 + /dev/hdc1)": "lv-2x4k",
    "/dev/VG00/LV00 (LVM 1.0, stripes=2, stripe_size=32 KB /dev/hda3 + /dev/hdc1)": "lv-2x32k",
    "/dev/VG00/LV00 (LVM 1.0, stripes=1, /dev/hda3)": "lv-1",
}
d, got = runs_of(f"{work}/002.json")
_, want = runs_of(f"{rep}/seed002/result.json")
assert len(d["runs"]) == 7 and sorted(got) == sorted(names), sorted(got)
for heading, t in names.items():
    assert samples(got[heading]) == samples(want[t]), (heading, samples(got[heading]), samples(want[t]))
    assert got[heading]["metadata"]["tool"] == "bonnie 1.x"
assert got["/dev/VG00/LV00 (LVM 1.0, stripes=1, /dev/hda3)"]["metadata"]["file_size_mib"] == 56  # as published
# seed 003: three tables, each counted once (table + its CSV line)
d, got = runs_of(f"{work}/003.json")
assert [r["target"] for r in d["runs"]] == ["Test 1 - disk image", "Test 2 - LVM", "Test 3 - Dom0 - LVM"], \
    [r["target"] for r in d["runs"]]
for heading, t in (("Test 1 - disk image", "image"), ("Test 2 - LVM", "lvm"), ("Test 3 - Dom0 - LVM", "dom0")):
    _, w = runs_of(f"{rep}/seed003/{t}.json")
    assert samples(got[heading]) == samples(w[t]), (heading, t)
    assert got[heading]["metadata"]["source"]["format"] == "bonnie++-csv-1.03"
print("ok: seed 002 page: 7 tables, 7 targets; seed 003 page: 3 tables, 3 targets; numbers as typed")
PY
# and the same pages compare as the seeds' authors did (seed 003: LV against
# the image on per-char output, 34825 / 6065 = 5.7420)
"$VMDISKCMP" compare "$work/003.json" --baseline "Test 1 - disk image" --format csv > "$work/c.csv" ||
    fail "compare seed 003 page"
awk -F, '$1 == "Test 2 - LVM" && $2 == "putc" { f = 1; exit !($18 > 5.7419 && $18 < 5.7421) } END { if (!f) exit 1 }' \
    "$work/c.csv" || fail "seed 003 page: LV/image putc ratio is not 5.7420"
echo "ok: whole pages"
