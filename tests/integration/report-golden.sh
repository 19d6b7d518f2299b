#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Golden test of `vmdiskcmp report`: render each fixture of
# tests/golden/report/ and compare report.txt, report.csv, summary.csv,
# headline.csv, report.json and report.md byte for byte with
# NAME/expected/; check the HTML by structure (and its headline section);
# check that Debian's bon_csv2txt and bon_csv2html render the bonnie++ CSV;
# the host cost fixture's host-cost.csv and HTML table; no line of report.txt
# wider than 100 columns.  VDC_REGENERATE=1 rewrites the expected files.
# Run time: about 1 s.
. "$top_srcdir/tests/lib.sh"
[ -x "$VMDISKCMP" ] || fail "VMDISKCMP not built: $VMDISKCMP"
need_cmd cmp
need_cmd python3

golden="$top_srcdir/tests/golden/report"
work=$(mktemp -d "${TMPDIR:-/tmp}/vdc-report-golden.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
SOURCE_DATE_EPOCH=1796000000
export SOURCE_DATE_EPOCH

# fixture  input  baseline  emulated
render() {
    name=$1 input=$2 baseline=$3
    d="$work/$name"
    mkdir -p "$d"
    cp "$input" "$d/result.json"
    "$VMDISKCMP" report "$d" --baseline "$baseline" --quiet 2>"$d.err" ||
        fail "$name: vmdiskcmp report failed: $(cat "$d.err")"
    [ -s "$d.err" ] && fail "$name: --quiet report printed on stderr: $(cat "$d.err")"
    # the headline section of the HTML too, byte for byte (the rest of the
    # page holds cairo's SVG, which may change between cairo versions)
    sed -n '/^<section id="headline">$/,/^<\/section>$/p' "$d/report.html" >"$d/headline.html"
    [ -s "$d/headline.html" ] || fail "$name: report.html has no headline section"
    # the first screen: the answer opens every report
    sed -n '/^<section id="answer">$/,/^<\/section>$/p' "$d/report.html" >"$d/answer.html"
    [ -s "$d/answer.html" ] || fail "$name: report.html has no answer section"
    head -n 6 "$d/report.txt" | grep -q '^The answer: ' || fail "$name: report.txt does not open with the answer"
    # a terminal's report: no line wider than 100 characters (UTF-8)
    wide=$(LC_ALL=C sed 's/[\x80-\xBF]//g' "$d/report.txt" |     # characters, not bytes (mawk too)
        awk 'length($0) > 100 { print NR ": " length($0) " wide: " substr($0, 1, 60); exit }')
    [ -z "$wide" ] || fail "$name: report.txt has a line over 100 columns: $wide"
    # its folded lines joined (lib.sh), for the greps of a whole line below
    unfold "$d/report.txt" >"$d/report.unfolded"
    head -n 8 "$d/report.md" | grep -q '^## The answer: ' || fail "$name: report.md does not open with the answer"
    golden_check "$name" "$golden/$name/expected" "$d" report.txt report.csv summary.csv headline.csv \
        report.json report.md headline.html answer.html
    # the result file itself is never touched
    cmp -s "$input" "$d/result.json" || fail "$name: result.json was modified"
}

html_checks() {
    name=$1 emulated=$2
    h="$work/$name/report.html"
    [ -s "$h" ] || fail "$name: report.html not written"
    grep -q '^<!DOCTYPE html>' "$h" || fail "$name: no doctype"
    for id in headline chart-throughput dots-throughput chart-ops dots-ops metadata; do
        grep -q "id=\"$id\"" "$h" || fail "$name: report.html has no element $id"
    done
    # two bar charts, each followed by its dot plot
    n=$(grep -c '<svg' "$h")
    [ "$n" -eq 4 ] || fail "$name: expected 4 inline SVG charts (2 bar charts, 2 dot plots), found $n"
    grep -q '</svg>' "$h" || fail "$name: unterminated svg"
    # self-contained: no external script, style sheet or image
    if grep -Eq '<script|<link|<img|<iframe| src="' "$h"; then fail "$name: report.html loads something"; fi
    # two charts inlined in one page must not share ids (cairo glyph ids)
    dup=$(grep -o ' id="[^"]*"' "$h" | sort | uniq -d | head -3)
    [ -z "$dup" ] || fail "$name: duplicate ids in report.html: $dup"
    if [ "$emulated" = yes ]; then
        grep -q 'EMULATED &mdash; numbers predict nothing about real hardware' "$h" ||
            fail "$name: emulated result without the EMULATED banner"
    else
        if grep -q 'id="emulated"' "$h"; then fail "$name: EMULATED banner on a real result"; fi
    fi
    # every target of the result is in the legend/table
    for t in $3; do
        grep -q "<th>$t</th>" "$h" || fail "$name: target $t missing from the HTML table"
    done
}

bonnie_tools() {
    name=$1
    csv="$work/$name/report.csv"
    shift
    if [ -n "$BON_CSV2TXT" ] && [ -x "$BON_CSV2TXT" ]; then
        "$BON_CSV2TXT" <"$csv" >"$work/$name.bon.txt" 2>"$work/$name.bon.err" ||
            fail "$name: bon_csv2txt failed"
        if grep -q Expected "$work/$name.bon.err"; then fail "$name: bon_csv2txt refused a line: $(cat "$work/$name.bon.err")"; fi
        for pat in "$@"; do
            grep -Eq "$pat" "$work/$name.bon.txt" || {
                cat "$work/$name.bon.txt" >&2
                fail "$name: bon_csv2txt output lacks /$pat/"
            }
        done
    else
        fail "bon_csv2txt not found (bonnie++ is in scripts/packages.d/build.txt)"
    fi
    command -v bon_csv2html >/dev/null 2>&1 || fail "bon_csv2html not found"
    bon_csv2html <"$csv" >"$work/$name.bon.html" 2>/dev/null || fail "$name: bon_csv2html failed"
    grep -q '<table' "$work/$name.bon.html" || fail "$name: bon_csv2html wrote no table"
    first=$(printf '%s\n' "$1" | sed 's/^\^//; s/ .*//')
    grep -q "$first" "$work/$name.bon.html" || fail "$name: bon_csv2html output lacks $first"
}

render seed003 "$golden/seed003/all/result.json" image
html_checks seed003 no "image lvm dom0"
# bon_csv2txt prints K/sec below 10000 as "NNNNk"; every run is one line
bonnie_tools seed003 "^image +2048M 6065k +15" "^lvm +2048M 34.0m +92" "^dom0 +10048M" "^image +16 17008 +99 \+\+\+\+\+ \+\+\+"

# one run per target: the report says there is no interval and no test
grep -q 'id="few-runs"' "$work/seed003/report.html" || fail "seed003: no few-runs warning in the HTML"
grep -q '^WARNING: Fewer than 2 values for some' "$work/seed003/report.unfolded" || fail "seed003: no few-values warning in the text"
# seed003 is imported: --runs cannot help there
if grep -q 'use --runs' "$work/seed003/report.txt" "$work/seed003/report.md" "$work/seed003/report.html"; then
    fail "seed003 (imported): the report advises --runs"
fi

render seed002 "$golden/seed002/result.json" hda3
html_checks seed002 no "hda3 hdc1 md0-4k lv-1"
bonnie_tools seed002 "^hda3 +256M 13.7m +99 26.5m +12" "^lv-1 +256M" "124\.3"

# seed 004: the dd block-size sweep (MiB/s): a third chart, no bonnie++ CSV line
render seed004 "$golden/seed004/result.json" sdc4
grep -q 'id="chart-sweep"' "$work/seed004/report.html" || fail "seed004: no sweep chart"
[ ! -s "$work/seed004/report.csv" ] || fail "seed004: sweep tests have no bonnie++ CSV column"
grep -q "^Sequential read at block size 32 KiB$" "$work/seed004/report.txt" ||
    fail "seed004: the sweep test missing in the text"
if grep -q "sweep_read@" "$work/seed004/report.txt"; then fail "seed004: a test key where a reader reads"; fi

# a --runs auto result: verdicts, classes, Holm, the ceiling, stop reasons
render auto "$golden/auto/result.json" dom0
html_checks auto no "image image-qdisk lvm dom0"
# the headline rows wrapped at 100 columns, each as one line
awk '/^      [^ ]/ { sub(/^ +/, " "); row = row $0; next } NR > 1 { print row } { row = $0 } END { print row }' \
    "$work/auto/report.txt" >"$work/auto/rows.txt"
awk 'length > 100 { bad = 1 } END { exit bad }' "$work/auto/rows.txt" >/dev/null &&
    fail "auto: no headline row is wrapped: the check below checks nothing"
sed -n '/^Headline/,/^  Ceiling/p' "$work/auto/report.txt" | awk 'length > 100 { exit 1 }' ||
    fail "auto: a headline line is over 100 columns"
grep -q '^  Runs: 8 runs (--runs auto stopped at --max-runs 8; at least 3)\. ' "$work/auto/report.unfolded" || fail "auto: no runs line"
grep -q '^    Sequential output, block: image is 6.2 % slower than lvm \[-6.6 %, -5.8 %\], p < 0.001 (Holm, [0-9]* tests), permutation p = 0.00781, moderate; stop: precision reached (half-width 1.7 % at 3 runs)$' \
    "$work/auto/rows.txt" || fail "auto: the block-output verdict or its stop reason is missing"

# one truth: dom0 ran its file under twice its RAM, so the headline gives
# the ceiling no verdict, and no other place may either: the cell image
# against dom0 on block write (-46 %, which Welch alone calls significant)
# reads "not comparable (under-2x-ram on dom0)" in txt, md, html, csv and
# json, never "slower" nor a coloured delta; image against lvm keeps its
# verdicts
render notcomparable "$golden/notcomparable/result.json" dom0
html_checks notcomparable no "image lvm dom0"
python3 - "$work/notcomparable" <<'PY' || fail "notcomparable: a format does not say what the headline says"
import csv, json, re, sys
d = sys.argv[1]
why = "under-2x-ram on dom0"
line = "image relative to dom0: not comparable (%s): Sequential output, block; Sequential input, block; Random seeks" % why
txt = open(d + "/report.txt", encoding="utf-8").read()
assert ("n/c: " + line + "\n") in re.sub(r"\n  (?=\S)", " ", txt), "txt: no n/c line"
row = [l for l in txt.splitlines() if l.startswith("image ") and "n/c" in l]
assert row and "**" not in row[0] and "*" not in row[0].replace("n/c", ""), row
assert "Verdict: image relative to dom0: 3 not comparable (of 3 tests)" in txt
md = open(d + "/report.md", encoding="utf-8").read()
assert ("- n/c: " + line + "\n") in md, "md: no n/c line"
assert re.search(r"\| -4[0-9]\.[0-9]% n/c \[", md), "md: the delta is not n/c"
html = open(d + "/report.html", encoding="utf-8").read()
assert ("<li>" + line + "</li>") in html, "html: no n/c line"
assert ('<td class="nc" title="not comparable (%s)">' % why) in html, "html: the delta cell"
assert 'class="slower"' not in html.split('id="results-title"')[1], "html: a red delta"
rows = {(r["target"], r["test"]): r for r in csv.DictReader(open(d + "/summary.csv", encoding="utf-8"))}
r = rows[("image", "put_block")]
assert r["verdict"] == "not comparable" and r["not_comparable"] == why, r
assert float(r["delta_percent"]) < -40 and float(r["p_value"]) < 0.01, r
assert rows[("image", "put_block")]["flags"].endswith("not-comparable"), r
hl = [h for h in csv.DictReader(open(d + "/headline.csv", encoding="utf-8"))
      if h["role"] == "ceiling" and h["target"] == "image" and h["test"] == "put_block"][0]
assert hl["verdict"] == "not comparable" and hl["not_comparable"] == why, hl
st = json.load(open(d + "/report.json", encoding="utf-8"))["statistics"]
c = [x for x in st["comparisons"] if x["target"] == "image" and x["test"] == "put_block"][0]
assert c["verdict"] == "not comparable" and c["not_comparable"] == why and c["significant"] is False, c
# the choice pair keeps its verdicts
assert "Sequential output, block: image is 16.0 % slower than lvm" in txt
print("notcomparable: the same words in txt, md, html, csv and json")
PY

# the first screen where there is no verdict: the lab's first main job
# (lab4: 32 MiB test files in a 128 MiB guest) names the blocker and the
# option that removes it, the size worked out from the data, in every
# format (report.json: statistics.answer.fixes)
d="$work/lab4"
mkdir -p "$d"
cp "$golden/lab4/result.json" "$d/"
"$VMDISKCMP" report "$d" --quiet || fail "lab4: report failed"
want='No verdict in 20 of the 20 comparisons (pair of targets x test) of image, lvm, image-qdisk: rerun with --size 256M: the 32 MiB test file is under twice the guest'"'"'s 128 MiB.'
for f in report.txt report.md; do
    tr '\n' ' ' <"$d/$f" | sed 's/  */ /g' | grep -qF "$want" || fail "lab4: $f lacks the fix: $want"
done
grep -qF "$(printf '%s' "$want" | sed "s/'/\&apos;/g")" "$d/report.html" || fail "lab4: report.html lacks the fix"
python3 - "$d/report.json" <<'PY' || fail "lab4: report.json's answer lacks the fix"
import json, sys
a = json.load(open(sys.argv[1], encoding="utf-8"))["statistics"]["answer"]
f = [x for x in a["fixes"] if x["option"] == "--size 256M"]
assert f and f[0]["targets"] == "image, lvm, image-qdisk" and f[0]["comparisons"] == 20 and f[0]["of_comparisons"] == 20, a["fixes"]
assert f[0]["why"] == "the 32 MiB test file is under twice the guest's 128 MiB", f
PY

# workloads (format_version 2): the agent's --job output, two jobs, two
# targets, three runs each: the text and Markdown blocks, workloads.csv,
# report.json; an IOPS chart and a latency-percentile chart per test (job
# and direction), every target in it
render workload "$golden/workload/result.json" lvm
golden_check workload "$golden/workload/expected" "$work/workload" workloads.csv
for id in chart-workload dots-workload chart-latency-0 chart-latency-1; do
    grep -q "<figure id=\"$id\"" "$work/workload/report.html" || fail "workload: report.html has no figure $id"
done
grep -q '^Job mix8k: rw=randrw rwmixread=70 bs=8192 ' "$work/workload/report.unfolded" || fail "workload: no job line"
[ ! -s "$work/workload/report.csv" ] || fail "workload: workloads have no bonnie++ CSV line"
[ ! -e "$work/seed003/workloads.csv" ] || fail "seed003: workloads.csv without workloads"

# storage variants (storvar: a libvirt TCG run's raw sparse and full images,
# with a linear LV, a thin LV measured in two passes and a misaligned block
# device made from its runs): the storage and alignment read back, the
# passes side by side, the misaligned flag with its numbers, no verdict
render storvar "$golden/storvar/result.json" image
grep -q '^  lvm-thin: storage: thin LV vg0/vmdiskcmp-lvm-thin, PE start 1 MiB; pool vmdiskcmp-lvm-thin-pool, chunk 64 KiB, zeroing on' \
    "$work/storvar/report.unfolded" || fail "storvar: report.txt does not print the thin pool read back"
grep -q '^  image-full: variant: image_alloc full (as planned)$' "$work/storvar/report.unfolded" ||
    fail "storvar: report.txt does not print the target's variant"
grep -q '^  block: alignment: .*MISALIGNED: partition at 1536 bytes' "$work/storvar/report.unfolded" ||
    fail "storvar: report.txt does not print the misaligned layer"
grep -q '^WARNING: ‡ target block on Sequential output, block, misaligned: ' "$work/storvar/report.unfolded" ||
    fail "storvar: the misaligned block device is not flagged"
grep -q '^    ‡ *block .*not ranked: misaligned' "$work/storvar/report.unfolded" ||
    fail "storvar: the misaligned block device was ranked"
grep -q '^  first-write ' "$work/storvar/report.unfolded" && grep -q '^  overwrite ' "$work/storvar/report.unfolded" ||
    fail "storvar: the thin LV's passes are not rows of their own"
# a thin LV's passes in the test's own ranking: overwrite ranked, first
# write apart (provisioning); no ranking of a pass alone
grep -q '^    a  *lvm-thin (overwrite)  ' "$work/storvar/report.unfolded" ||
    fail "storvar: the thin LV's overwrite pass is not ranked with the others"
grep -q '^    apart  *lvm-thin (first-write)  .*provisioning, not steady state$' "$work/storvar/report.unfolded" ||
    fail "storvar: the thin LV's first-write pass is not shown apart"
grep -q '^  Sequential output, block (overwrite) (K/sec): ' "$work/storvar/report.unfolded" &&
    fail "storvar: a pass ranked alone, apart from its test"
grep -q '^Verdict: lvm-thin relative to image: 8 .*(of 8: 4 tests, each pass apart)$' "$work/storvar/report.unfolded" ||
    fail "storvar: the Verdict line does not pair the thin LV's passes with the baseline's test"
grep -q '^  Storage variants: ' "$work/storvar/report.unfolded" || fail "storvar: the answer says nothing of the variants"
# the thin pool's use before and after the runs, data and metadata
grep -q '^  lvm-thin: storage: .*, data 0.00 % before -> 56.25 % after, metadata 10.94 % before -> 11.52 % after (read from lvs)$' \
    "$work/storvar/report.unfolded" || fail "storvar: report.txt does not print the thin pool's use before and after"
grep -q 'thin-pool-full' "$work/storvar/summary.csv" && fail "storvar: a pool 56.25 % full flagged thin-pool-full"
# the same pool 96.5 % full after the runs, its data space half the LV
# (over-provisioned, so it can run out): every test of the thin LV flagged
# thin-pool-full with its numbers, the storage line says so
mkdir -p "$work/thinfull-in"
sed -e 's/^      56\.25$/      96.5/' -e 's/"pool_size": 406847488,/"pool_size": 201326592,/' \
    "$golden/storvar/result.json" >"$work/thinfull-in/result.json"
grep -q '^      96\.5$' "$work/thinfull-in/result.json" || fail "thinfull: the fixture's data use was not replaced"
grep -q '"pool_size": 201326592,' "$work/thinfull-in/result.json" || fail "thinfull: the fixture's pool size was not replaced"
# the same 96.5 % in a pool that holds the whole LV: the data cannot run
# out, nothing flagged
mkdir -p "$work/thinholds-in"
sed 's/^      56\.25$/      96.5/' "$golden/storvar/result.json" >"$work/thinholds-in/result.json"
render thinholds "$work/thinholds-in/result.json" image
grep -q 'thin-pool-full' "$work/thinholds/summary.csv" &&
    fail "thinholds: a pool holding the whole LV flagged thin-pool-full for its data"
render thinfull "$work/thinfull-in/result.json" image
grep -q '^  lvm-thin: storage: .*, data 0.00 % before -> 96.50 % after, metadata .*; OVER 90 % FULL after the runs (data 96.50 %) (read from lvs)$' \
    "$work/thinfull/report.unfolded" || fail "thinfull: the storage line does not say the pool ran over 90 %"
grep -q "^WARNING: ‡ target lvm-thin on .*, thin-pool-full: the target's thin pool vmdiskcmp-lvm-thin-pool was 96.50 % full (data) after the runs, over 90 %" \
    "$work/thinfull/report.unfolded" || fail "thinfull: the thin LV's tests are not flagged thin-pool-full"
grep -q 'put_block~overwrite.*thin-pool-full' "$work/thinfull/summary.csv" ||
    fail "thinfull: summary.csv has no thin-pool-full flag on the overwrite pass"

# a read-back string with terminal escapes reaches the answer's "Served
# by" line: report.txt shows it escaped, never sends it (the control case:
# the raw bytes are in the input)
mkdir -p "$work/esc-answer"
python3 - "$golden/storvar/result.json" "$work/esc-answer/result.json" <<'PY' || fail "esc-answer: fixture"
import json, sys
d = json.load(open(sys.argv[1]))
d["targets"][0]["backend"]["type"] = "file\u001b]0;PWNED\u0007\u001b[2J\u202e"
json.dump(d, open(sys.argv[2], "w"))
PY
grep -q '\\u001b' "$work/esc-answer/result.json" || fail "esc-answer: the fixture has no escape"
"$VMDISKCMP" report "$work/esc-answer" --baseline image --quiet 2>"$work/esc-answer.err" ||
    fail "esc-answer: vmdiskcmp report failed: $(cat "$work/esc-answer.err")"
python3 - "$work/esc-answer/report.txt" <<'PY' || fail "esc-answer: report.txt sends a control character or a bidi override"
import re, sys
t = open(sys.argv[1], "rb").read()
bad = re.search(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]", t)
assert not bad, t[max(0, bad.start() - 60):bad.end() + 20]
assert b"Served by: " in t
PY

# the cache truth and the dom0-page-cache flag (cachetruth: synthetic with
# targets[].cache, targets[].placement and samples[].host on image)
render cachetruth "$golden/cachetruth/result.json" dom0
html_checks cachetruth yes "image lvm dom0"
grep -q '^  image: cache: requested host; /dev/loop3 dio 0 ' "$work/cachetruth/report.unfolded" ||
    fail "cachetruth: report.txt does not print the image's loop device and dio"
# dom0's page cache around each test: the figures behind the flag, in
# every renderer (text, Markdown, HTML, report.json, page-cache.csv)
golden_check cachetruth "$golden/cachetruth/expected" "$work/cachetruth" page-cache.csv
grep -q '^dom0 page cache around each test$' "$work/cachetruth/report.txt" ||
    fail "cachetruth: report.txt has no page-cache section"
grep -q '^## dom0 page cache around each test$' "$work/cachetruth/report.md" ||
    fail "cachetruth: report.md has no page-cache section"
grep -q '<section id="page-cache">' "$work/cachetruth/report.html" ||
    fail "cachetruth: report.html has no page-cache section"
grep -q '"dom0_page_cache"' "$work/cachetruth/report.json" ||
    fail "cachetruth: report.json has no dom0_page_cache member"
[ ! -e "$work/synthetic/page-cache.csv" ] || fail "synthetic: page-cache.csv without host figures"
grep -q 'put_block.*dom0-page-cache' "$work/cachetruth/summary.csv" ||
    fail "cachetruth: summary.csv has no dom0-page-cache flag on put_block"
grep -q 'Target image: cache read back</td><td>requested host; /dev/loop3 dio 0' "$work/cachetruth/report.html" ||
    fail "cachetruth: report.html does not show the image's cache read back"

# names written to be run, not read: a Markdown/HTML baseline and CSV
# cells a spreadsheet would take for formulas (escaping: seed002's hda3,
# md0-4k and lv-1 renamed); report and compare, every format escaped
base='**x**|<img src=x onerror=alert(1)>'
render escaping "$golden/escaping/result.json" "$base"
for f in md csv; do
    "$VMDISKCMP" compare "$golden/escaping/result.json" --baseline "$base" --format $f \
        > "$work/escaping/compare.$f" 2>/dev/null || fail "escaping: compare --format $f failed"
done
golden_check escaping "$golden/escaping/expected" "$work/escaping" compare.md compare.csv
if grep -q '\(^\|[^\\]\)<img\|\*\*x\*\*|' "$work/escaping/report.md" "$work/escaping/compare.md" ||
        grep -q '<img' "$work/escaping/report.html"; then
    fail "escaping: a name reached Markdown or HTML unescaped"
fi
if grep -q '^[=+@]\|,[=+@]\|^-[^0-9.]\|,-[^0-9.]' "$work/escaping/summary.csv" "$work/escaping/compare.csv" \
        "$work/escaping/headline.csv" "$work/escaping/report.csv"; then
    fail "escaping: a CSV cell that is not a number begins with a formula character"
fi
grep -q "^\"'=HYPERLINK(\"\"http://evil.example/\"\",\"\"x\"\")\",put_block," "$work/escaping/summary.csv" ||
    fail "escaping: the formula target is not quoted as text in summary.csv"

# a terminal escape in what a run read back (a disk's name, a layer's
# why) reaches report.txt's artefact warnings escaped, never raw
mkdir "$work/esc-tty"
python3 - "$work/esc-tty/result.json" <<'PY'
import json, sys
e = "\x1b]0;owned\x07\x1b[2J"
doc = {"format": "vmdiskcmp-result", "format_version": 1, "producer": {"name": "t", "version": "1"},
       "targets": [{"name": "block", "kind": "block", "where": "domU",
                    "alignment": {"disk": "loop4" + e, "physical_block_size": 4096,
                                  "minimum_io_size": 4096, "optimal_io_size": 0,
                                  "layers": [{"layer": "partition", "offset": 1536, "size": 512,
                                              "why": "partition off" + e}],
                                  "misaligned": ["partition"]}},
                   {"name": "image", "kind": "image", "where": "domU"}],
       "runs": [{"target": t, "repetition": r, "samples": [{"test": "put_block", "value": 100 + r}]}
                for t in ("block", "image") for r in range(2)]}
json.dump(doc, open(sys.argv[1], "w"))
PY
"$VMDISKCMP" report "$work/esc-tty" --formats txt -q 2>/dev/null || fail "esc-tty: report failed"
grep -q 'misaligned' "$work/esc-tty/report.txt" || fail "esc-tty: no misaligned warning to check"
if LC_ALL=C grep -q "$(printf '\033')" "$work/esc-tty/report.txt"; then
    fail "esc-tty: an escape byte reached report.txt"
fi

render synthetic "$golden/synthetic/result.json" dom0
grep -q '^  Runs: fixed 5 runs (no stopping rule)\.$' "$work/synthetic/report.unfolded" || fail "synthetic: no 'fixed 5 runs' line"
# every renderer opens with the headline: before the first table
for f in report.txt report.md report.html; do
    awk '/Headline: image or LV\?/ { h = NR } /Version vmdiskcmp|^## Results|id="chart-throughput"/ && !t { t = NR }
        END { exit !(h && t && h < t) }' "$work/synthetic/$f" || fail "synthetic: $f does not open with the headline"
done
html_checks synthetic yes "image lvm dom0"
if grep -q 'id="few-runs"' "$work/synthetic/report.html"; then fail "synthetic: few-runs warning with 4-5 runs"; fi
# the dot plots draw a marker for every run of every target and test: a
# dot, a too-fast triangle or a failed cross (3 targets x 5 runs x 5 K/sec
# tests; x 7 /sec tests)
grep -q '<figure id="dots-throughput" class="chart dots" data-figure="2" data-points="75">' "$work/synthetic/report.html" ||
    fail "synthetic: the throughput dot plot does not hold 75 markers"
grep -q '<figure id="dots-ops" class="chart dots" data-figure="4" data-points="105">' "$work/synthetic/report.html" ||
    fail "synthetic: the seeks/file-ops dot plot does not hold 105 markers"
bonnie_tools synthetic "^image +512M" "^dom0 +2048M"
# 15 runs, each with bonnie++ tests: 15 CSV lines of 50 fields
n=$(awk -F, 'NF == 50' "$work/synthetic/report.csv" | wc -l)
[ "$n" -eq 15 ] || fail "synthetic: expected 15 CSV lines of 50 fields, got $n"

# a second report over its own output is allowed (manifest), and the
# output is the same (seeded bootstrap)
cp "$work/synthetic/report.json" "$work/first.json"
"$VMDISKCMP" report "$work/synthetic" --baseline dom0 --quiet || fail "re-rendering over own output failed"
cmp -s "$work/first.json" "$work/synthetic/report.json" || fail "report.json differs between two renderings"

# report.json is itself a result document: compare reads it back
"$VMDISKCMP" compare "$work/seed003/report.json" --baseline image --format csv >"$work/back.csv" ||
    fail "compare cannot read report.json back"
cmp -s "$work/back.csv" "$work/seed003/summary.csv" || fail "report.json read back gives other statistics"

# two experiments compared: repetition r of a target of one and of the
# other share no seed and no boot, so no row is paired; one experiment
# alone keeps its pairs
"$VMDISKCMP" compare "$golden/auto/result.json" -q >"$work/one.txt" || fail "compare auto failed"
grep -q 'not paired' "$work/one.txt" && fail "compare of one experiment: rows not paired"
"$VMDISKCMP" compare "$golden/auto/result.json" "$golden/notcomparable/result.json" -q >"$work/two.txt" ||
    fail "compare auto notcomparable failed"
grep -q '^Headline: .* not paired' "$work/two.txt" || fail "compare of two experiments: rows paired across them"
grep -q 'paired t-test' "$work/two.txt" && fail "compare of two experiments: a paired t-test across them"

# --outliers drop: the flagged lvm seq_del run (repetition 3) leaves the
# statistics and is still named; flag keeps it
d="$work/drop"
mkdir "$d"
cp "$golden/synthetic/result.json" "$d/"
"$VMDISKCMP" report "$d" --outliers drop --formats csv,txt --quiet || fail "--outliers drop failed"
awk -F, '$1 == "lvm" && $2 == "seq_del" { exit !($4 == 4 && $16 == 1) }' "$d/summary.csv" ||
    fail "--outliers drop: lvm seq_del should have n=4, 1 outlier"
awk -F, '$1 == "lvm" && $2 == "seq_del" { exit !($4 == 5 && $16 == 1) }' "$work/synthetic/summary.csv" ||
    fail "--outliers flag: lvm seq_del should have n=5, 1 outlier"
unfold "$d/report.txt" | grep -q "outlier: target lvm on Sequential delete, repetition 3, value 17325 /sec" ||
    fail "--outliers drop: the dropped sample is not named"

# bonnie++ -n 0 (no file tests): the run's metadata says nothing of files
# ("files 0x1024" was printed); -n 16 still reads "files 16x1024"
d="$work/n0"
mkdir "$d"
python3 - "$golden/synthetic/result.json" "$d/result.json" <<'PY' || fail "-n 0: cannot write the fixture"
import json, sys
doc = json.load(open(sys.argv[1]))
files = {"seq_create", "seq_stat", "seq_del", "ran_create", "ran_stat", "ran_del"}
for r in doc["runs"]:
    r["metadata"]["files"]["number"] = 0
    r["samples"] = [s for s in r["samples"] if s["test"] not in files]
json.dump(doc, open(sys.argv[2], "w"))
PY
"$VMDISKCMP" report "$d" --formats html,md --quiet || fail "-n 0: report failed"
if grep -q 'files 0x1024' "$d/report.html" "$d/report.md"; then fail "-n 0: the report says 'files 0x1024'"; fi
grep -q '; files 16x1024' "$work/synthetic/report.html" || fail "-n 16: 'files 16x1024' missing from the HTML"

# host CPU per backend (samples[].host): the section of the text and
# Markdown reports and report.json (by render), host-cost.csv, the HTML's
# table byte for byte and a chart per target; nothing without host figures
render hostcost "$golden/hostcost/result.json" dom0
sed -n '/^<table class="host" id="host-cost-table">$/,/^<\/table>$/p' "$work/hostcost/report.html" \
    >"$work/hostcost/host-cost.html"
golden_check hostcost "$golden/hostcost/expected" "$work/hostcost" host-cost.csv host-cost.html \
    page-cache.csv
for id in host-cost chart-host-0 chart-host-1; do
    grep -q "id=\"$id\"" "$work/hostcost/report.html" || fail "hostcost: report.html has no element $id"
done
dup=$(grep -o ' id="[^"]*"' "$work/hostcost/report.html" | sort | uniq -d | head -3)
[ -z "$dup" ] || fail "hostcost: duplicate ids in report.html: $dup"
# report.txt: a row per role under its target and test, the figures
# right-aligned; both host tables within 100 columns
grep -A 8 '^  image, Sequential output, block$' "$work/hostcost/report.txt" |
    grep -q '^    QEMU minus its vCPUs  *0.873 \[0.561, 1.19\]  *0.213 \[0.137, 0.289\]  3$' ||
    fail "hostcost: the text lacks QEMU's own CPU per GiB with its CI"
grep -A 2 '^  dom0, Sequential output, block$' "$work/hostcost/report.txt" |
    grep -q '^    loop device worker  *not attributable (shared): ' ||
    fail "hostcost: the shared loop worker is not said to be unattributable"
wide=$(awk '/^(dom0 page cache around each test|Host CPU per backend)$/ { s = 1; next }
    s && !/^  / { s = 0 } s && length($0) > 100' "$work/hostcost/report.txt" | head -n 2)
[ "$(grep -Ec '^(dom0 page cache around each test|Host CPU per backend)$' "$work/hostcost/report.txt")" -eq 2 ] ||
    fail "hostcost: report.txt lacks a host table"
[ -z "$wide" ] || fail "hostcost: host table lines over 100 columns: $wide"
[ ! -e "$work/synthetic/host-cost.csv" ] || fail "synthetic: host-cost.csv without host figures"
if grep -q 'Host CPU per backend' "$work/synthetic/report.txt" "$work/synthetic/report.md"; then
    fail "synthetic: a host CPU section without host figures"
fi

# many guests at once (runs[].level, guest, release; experiment.levels):
# the section of the text and Markdown reports and report.json (by
# render), density.csv and the HTML's fairness table byte for byte, a
# scaling figure per test; nothing without levels
render density "$golden/density/result.json" lvm
sed -n '/^<table id="density-table">$/,/^<\/table>$/p' "$work/density/report.html" \
    >"$work/density/density-table.html"
golden_check density "$golden/density/expected" "$work/density" density.csv density-table.html \
    density-host.csv
for id in density chart-density-0 chart-density-1 density-table density-host density-host-memory; do
    grep -q "id=\"$id\"" "$work/density/report.html" || fail "density: report.html has no element $id"
done
dup=$(grep -o ' id="[^"]*"' "$work/density/report.html" | sort | uniq -d | head -3)
[ -z "$dup" ] || fail "density: duplicate ids in report.html: $dup"
# the same with a fourth repetition at 3 guests where the LV's guest 0
# failed (its error holds markup): named with its level, repetition and
# error in every format, apart from a guest without a value; the pair at 3
# guests is over 3 of the image's 4 repetitions and prints the means it
# compares
render density-failed "$golden/density-failed/result.json" lvm
sed -n '/^<h3 id="density-failed">/,/^<\/ul>$/p' "$work/density-failed/report.html" \
    >"$work/density-failed/density-failed.html"
golden_check density-failed "$golden/density-failed/expected" "$work/density-failed" density.csv \
    density-failed.html
grep -q 'paired means over the 3 repetitions both completed: image ' "$work/density-failed/report.unfolded" ||
    fail "density-failed: the short pair does not print the means it compares"
grep -q '^  at 3 guests, rr4k (file), read IOPS (IO/sec): image gives 16.7 % less aggregate than lvm ' \
    "$work/density/report.unfolded" || fail "density: no headline at 3 guests"
# the density p values Holm within their family, the unadjusted beside;
# an interval of no width said to be none; the field's names, never the
# test keys, where a reader sees them; a caption that says what is drawn
grep -q 'p = 0.134 (Holm, 3 tests; unadjusted = 0.0445), undecided' "$work/density/report.unfolded" ||
    fail "density: the p at 3 guests is not Holm within its family"
grep -q '\[+7.1 %, +7.1 %\]' "$work/density/report.unfolded" "$work/density/report.md" &&
    fail "density: a zero-width interval printed as one"
grep -q "p99 over all guests' I/Os 7.1 % higher, no interval (the difference was the same" \
    "$work/density/report.unfolded" || fail "density: no word on the p99 without an interval"
sed -n '/^Many guests at once/,/^Outlier rule/p' "$work/density/report.txt" |
    grep -E 'put_block|workload_read@|~first-write' && fail "density: a test key where a reader reads"
# the host CPU table names a role as the host CPU section does, never by
# its key (density-host.csv and report.json keep the key), the loop
# work's mark explained under it
for f in report.txt report.md report.html; do
    sed -n '/Host cost per level/,/MemTotal - MemAvailable/p' "$work/density/$f" |
        grep -E 'qemu|dom0[\\]?_(busy|other)' && fail "density: a role key in $f's host CPU table"
    grep -q 'dom0 other (busy + steal minus servers) [\\]\{0,1\}\*' "$work/density/$f" ||
        fail "density: $f's host CPU table lacks dom0 other by its label, marked"
    grep -q "in dom0 other, not apart" "$work/density/$f" || fail "density: $f does not explain the mark"
done
# (this fixture's level 3 intervals all reach level 1's means: not shown to
# scale; test_density holds the case that stops)
grep -qE '(stops scaling at|not shown to scale past) 1 guest: the aggregate at 3 \(' "$work/density/report.unfolded" ||
    fail "density: where a backend stops scaling is not said in words"
grep -q 'the aggregate against the number of guests N, a line per target (no p99 panel' \
    "$work/density/report.html" || fail "density: a block test's caption promises a p99 panel"
[ ! -e "$work/synthetic/density.csv" ] || fail "synthetic: density.csv without levels"
[ ! -e "$work/synthetic/density-host.csv" ] || fail "synthetic: density-host.csv without levels"
if grep -q 'Many guests at once' "$work/synthetic/report.txt" "$work/synthetic/report.md"; then
    fail "synthetic: a many-guests section without levels"
fi

# --formats writes only what is asked
d="$work/only"
mkdir "$d"
cp "$golden/seed002/result.json" "$d/"
"$VMDISKCMP" report "$d" --formats md,csv --quiet || fail "--formats md,csv failed"
[ -f "$d/report.md" ] && [ -f "$d/report.csv" ] && [ -f "$d/summary.csv" ] || fail "--formats md,csv: files missing"
[ -e "$d/report.txt" ] || [ -e "$d/report.html" ] || [ -e "$d/report.json" ] || exit 0
fail "--formats md,csv wrote other formats"
