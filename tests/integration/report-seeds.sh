#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `vmdiskcmp compare` on the seeds' own published numbers, checked against
# ratios worked out by hand from the seed text (each line below: the two
# published values, their quotient, the % delta; checked with
# python3 -c 'print(round(A/B, 4), round(100*(A/B-1), 2))').
# Inputs: the seeds' tables in tests/golden/seeds (cut from the seed texts),
# imported with `vmdiskcmp import`, and checked equal to the hand-typed
# fixtures tests/golden/report/seed003/*.json and seed002/result.json (see
# tests/golden/report/README.md).  Run time: about 1 s.
. "$top_srcdir/tests/lib.sh"
[ -x "$VMDISKCMP" ] || fail "VMDISKCMP not built: $VMDISKCMP"

g="$top_srcdir/tests/golden/report"
work=$(mktemp -d "${TMPDIR:-/tmp}/vdc-report-seeds.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# check CSV TARGET TEST RATIO DELTA VERDICT: the summary CSV line of
# (TARGET, TEST) has this ratio and % delta (to 0.01) and verdict
check() {
    awk -F, -v t="$2" -v k="$3" -v r="$4" -v d="$5" -v v="$6" '
        $1 == t && $2 == k {
            found = 1
            if (($18 - r) > 0.00005 || (r - $18) > 0.00005) { printf "ratio %s, want %s\n", $18, r; bad = 1 }
            if (($19 - d) > 0.005 || (d - $19) > 0.005) { printf "delta %s, want %s\n", $19, d; bad = 1 }
            if ($23 != v) { printf "verdict \"%s\", want \"%s\"\n", $23, v; bad = 1 }
        }
        END { if (!found) print "no line"; exit !(found && !bad) }' "$1" >"$work/why" ||
        fail "$2 $3 in $(basename "$1"): $(cat "$work/why")"
}

# ---- import the seeds' own text (vmdiskcmp import), check it against the
# hand-typed fixtures, and run every check below on the imported files ----
# tests/golden/seeds/: seed 003's three bonnie++ 1.03 tables (each with its
# CSV line) and seed 002's seven bonnie 1.x tables, cut verbatim from the
# seed texts (tests/golden/report/README.md)
seeds="$g/../seeds"
s3="$work/imp"
s2=""
mkdir "$work/imp"
i=0
for t in image lvm dom0; do
    i=$((i + 1))
    [ -f "$seeds/003-$i.txt" ] || fail "$seeds/003-$i.txt missing"
    "$VMDISKCMP" import --quiet --target "$t" -o "$work/imp/$t.json" "$seeds/003-$i.txt" ||
        fail "import of seed 003 table $i ($t) failed"
done
i=0
for t in hda3 hdc1 md0-4k md0-32k lv-2x4k lv-2x32k lv-1; do
    i=$((i + 1))
    [ -f "$seeds/002-$i.txt" ] || fail "$seeds/002-$i.txt missing"
    "$VMDISKCMP" import --quiet --target "$t" -o "$work/imp/002-$t.json" "$seeds/002-$i.txt" ||
        fail "import of seed 002 table $i ($t) failed"
    s2="$s2 $work/imp/002-$t.json"
done
# the imported samples are the hand-typed ones (value, %CP, too fast)
python3 - "$work/imp" "$g" <<'PY' || fail "imported seed numbers differ from the hand-typed fixtures"
import json, sys
imp, g = sys.argv[1], sys.argv[2]
def samples(path, target):
    runs = [r for r in json.load(open(path))["runs"] if r["target"] == target]
    assert len(runs) == 1, (path, target, len(runs))
    return {s["test"]: (s["value"], s["cpu_percent"], s["too_fast"]) for s in runs[0]["samples"]}
for t in ["image", "lvm", "dom0"]:
    a, b = samples(f"{imp}/{t}.json", t), samples(f"{g}/seed003/{t}.json", t)
    assert a == b, (t, a, b)
for t in ["hda3", "hdc1", "md0-4k", "md0-32k", "lv-2x4k", "lv-2x32k", "lv-1"]:
    a, b = samples(f"{imp}/002-{t}.json", t), samples(f"{g}/seed002/result.json", t)
    assert a == b, (t, a, b)
PY

# ---- seed 003: disk image (tap:aio) vs LV (phy) in a domU, and dom0 -------
"$VMDISKCMP" compare "$s3/image.json" "$s3/lvm.json" "$s3/dom0.json" \
    --baseline image --format csv >"$work/003.csv" 2>"$work/err" || fail "compare seed003: $(cat "$work/err")"
# per-char output: image 6065 K/sec, LV 34825 K/sec: 34825/6065 = 5.7420, +474.20 %
# ("LVM soundly trounced the disk image ... by about 600%" in the seed)
check "$work/003.csv" lvm putc 5.7420 474.20 "not tested"
# block output: 50898/70595 = 0.7210, -27.90 % (the image "pulled ahead")
check "$work/003.csv" lvm put_block 0.7210 -27.90 "not tested"
# seq delete: 26198/26079 = 1.0046, +0.46 %
check "$work/003.csv" lvm seq_del 1.0046 0.46 "not tested"
# one run each: no test, and said so
grep -q "not tested" "$work/003.csv" || fail "seed003: n=1 must be reported as not tested"

# against dom0 ("the DomU LVM is within 15-20% of the Dom0 LVM ... most of the
# time"): dom0 ran a 10048 MiB file, the domU 2048 MiB, so the sequential
# tests have a ratio but no verdict, as in the headline
"$VMDISKCMP" compare "$s3/image.json" "$s3/lvm.json" "$s3/dom0.json" --baseline dom0 --format csv >"$work/003d.csv" || fail "compare seed003/all"
check "$work/003d.csv" lvm putc 0.9004 -9.96 "not comparable"        # 34825/38679
check "$work/003d.csv" lvm put_block 0.6874 -31.26 "not comparable"  # 50898/74047
check "$work/003d.csv" lvm rewrite 0.8203 -17.97 "not comparable"    # 24833/30272
check "$work/003d.csv" lvm getc 0.8894 -11.06 "not comparable"       # 35920/40389
check "$work/003d.csv" lvm get_block 1.0272 2.72 "not comparable"    # 77594/75538
grep -q '^lvm,putc,.*,"test file sizes differ (lvm 2048 MiB, dom0 10048 MiB)"$' "$work/003d.csv" ||
    fail "seed003: lvm putc against dom0 must say why it has no verdict: $(grep '^lvm,putc,' "$work/003d.csv")"
# "+++++" (too fast) is never a number: no ratio, counted as too fast
awk -F, '$1 == "lvm" && $2 == "seq_stat" { exit !($4 == 0 && $5 == 1 && $18 == "") }' "$work/003d.csv" ||
    fail "seed003: lvm seq_stat (+++++) must have n=0, n_too_fast=1 and no ratio"

# the text table shows the same delta with no significance mark (n = 1)
"$VMDISKCMP" compare "$s3/image.json" "$s3/lvm.json" --baseline image >"$work/003.txt" ||
    fail "compare seed003 text"
grep -Eq '^Sequential output, per-char +K/sec +6065 \(1\) +34825 \(1\) +\+474\.2%$' "$work/003.txt" ||
    { cat "$work/003.txt" >&2; fail "seed003 text: per-char row"; }

# ---- seed 002: partitions, RAID-0 and LVM 1.0 stripes (bonnie 1.x) ---------
# shellcheck disable=SC2086
"$VMDISKCMP" compare $s2 --baseline hda3 --format csv >"$work/002.csv" ||
    fail "compare seed002"
# "LVM over a single partition is even faster than the partition itself"
# (lv-1's table prints a 56 MB file, the others 256: a ratio, no verdict):
check "$work/002.csv" lv-1 put_block 1.1535 15.35 "not comparable"   # 31341/27171
check "$work/002.csv" lv-1 putc 0.9977 -0.23 "not comparable"        # 13977/14009
# "random seek rate grows with stripe size": 201.2/124.3
check "$work/002.csv" lv-1 seeks 1.6187 61.87 "not comparable"
# "read performance with striped LV is terribly slow compared to ... RAID-0"
check "$work/002.csv" md0-4k get_block 1.4899 48.99 "not tested"  # 39043/26205
check "$work/002.csv" lv-2x4k get_block 0.6656 -33.44 "not tested" # 17441/26205

# ---- seed 004: dd of the LV against the partition, 512-byte blocks ----------
# (253952 blocks * 512 / 172.368 s) / (257040 * 512 / 37.205 s) = 0.2133,
# -78.67 % (MiB/s; the values of the fixture are rounded to 4 decimals)
"$VMDISKCMP" compare "$g/seed004/result.json" --baseline sdc4 --format csv >"$work/004.csv" ||
    fail "compare seed004"
check "$work/004.csv" lv "sweep_read@512" 0.2133 -78.67 "not tested"
# the text table names each block size of the sweep: four rows, four labels
"$VMDISKCMP" compare "$g/seed004/result.json" --baseline sdc4 >"$work/004.txt" 2>/dev/null ||
    fail "compare seed004 text"
n=$(grep -E '^Sequential read at block size (512 B|8 KiB|16 KiB|32 KiB) ' "$work/004.txt" | cut -c1-40 | sort -u | wc -l)
[ "$n" -eq 4 ] || { cat "$work/004.txt" >&2; fail "compare seed004 text: $n distinct sweep labels, expected 4"; }

# ---- one input twice: a warning; a run of vmdiskcmp is named by its experiment
"$VMDISKCMP" compare "$g/seed003/image.json" "$g/seed003/image.json" --baseline image >/dev/null 2>"$work/err" ||
    fail "compare of one input twice failed"
grep -q "WARNING: compare: .* and .* are the same input" "$work/err" || fail "compare A A: no warning: $(cat "$work/err")"
"$VMDISKCMP" compare "$g/lab4/result.json" "$g/lab4/result.json" --format csv >"$work/lab.csv" 2>/dev/null ||
    fail "compare lab4 twice failed"
id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["experiment"]["id"])' "$g/lab4/result.json")
grep -qF "lvm@$id" "$work/lab.csv" || fail "compare: the second input is not named by its experiment id $id"

# ---- the same target name in two inputs is kept apart, never merged ----------
"$VMDISKCMP" compare "$g/seed003/all" "$g/seed003/image.json" --baseline image --format csv >"$work/twice.csv" ||
    fail "compare with a repeated target name"
check "$work/twice.csv" image@image putc 1.0000 0.00 "not tested"
awk -F, '$1 == "image" && $2 == "putc" { exit !($4 == 1) }' "$work/twice.csv" ||
    fail "repeated target: the first input's image must keep its single run"

# ---- json and md formats carry the same numbers --------------------------------
"$VMDISKCMP" compare "$g/seed003/image.json" "$g/seed003/lvm.json" --baseline image --format json >"$work/003.json" ||
    fail "compare --format json"
python3 - "$work/003.json" <<'EOF' || fail "compare --format json: wrong statistics"
import json, sys
d = json.load(open(sys.argv[1]))
c = [x for x in d["comparisons"] if x["target"] == "lvm" and x["test"] == "putc"][0]
assert abs(c["ratio"] - 34825 / 6065) < 1e-9, c
assert c["p_value"] is None and c["verdict"] == "not tested", c
assert d["baseline"] == "image"
EOF
"$VMDISKCMP" compare "$g/seed003/image.json" "$g/seed003/lvm.json" --baseline image --format md >"$work/003.md" ||
    fail "compare --format md"
grep -q '| Sequential output, per-char | K/sec | 6065 (n=1) | 34825 (n=1) | +474.2% |' "$work/003.md" ||
    { cat "$work/003.md" >&2; fail "compare --format md: per-char row"; }
exit 0
