#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Golden test of the artefact flags in `vmdiskcmp report` and `compare`.
# The input is built here: `time dd` transcripts of a domU (target lvm,
# /dev/xvdb) and of its dom0 (target dom0, /dev/vg0/lv), imported with
# `vmdiskcmp import --where`, then reported with a stated ceiling of
# 600 MiB/s for /dev/xvdb.  Each transcript's numbers are chosen so that one
# rule fires and the cell next to it stays quiet:
#   - bs=1M conv=fdatasync writes, 5 a side: the guest's 1 GiB in 4.00-4.20 s
#     against dom0's 4.60-4.80 s, about +15 %: guest-faster (margin 5 %,
#     the CI of the delta above 0);
#   - bs=64k writes without conv=fdatasync/oflag=direct, 3 a side:
#     page-cache-write on both; the guest's 1 GiB in 0.50-0.54 s is above
#     its 600 MiB/s ceiling (above-ceiling); dom0's ran as `sh -c "dd ... &&
#     sync"`, dd's 0.49-0.51 s against 4.2 s real (dd-time-short); the
#     guest's delta is against a flagged dom0 cell (baseline-artefact);
#   - bs=1M iflag=direct reads, 3 a side: the guest's all "2 s" (the same
#     rate three times: rounded-identical), dom0's faster (no guest-faster).
# The flags each cell must have are worked out below from the transcripts'
# own numbers (python3), then checked in summary.csv; report.txt, report.csv,
# summary.csv, report.json and report.md are compared byte for byte with
# tests/golden/report/artefacts/expected/ (VDC_REGENERATE=1 rewrites them);
# the HTML, compare (text, md, json) and stderr are checked for the marks
# and the warning lines.  Run time: about 2 s.
. "$top_srcdir/tests/lib.sh"
[ -x "$VMDISKCMP" ] || fail "VMDISKCMP not built: $VMDISKCMP"
need_cmd python3
need_cmd cmp

golden="$top_srcdir/tests/golden/report/artefacts"
work=$(mktemp -d "${TMPDIR:-/tmp}/vdc-report-artefacts.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
SOURCE_DATE_EPOCH=1796000000
export SOURCE_DATE_EPOCH

# dd_run PREFIX COMMAND RECORDS BS SECONDS REAL SYS: one `time dd`
# transcript as bash and GNU dd 8.25+ print it (the rate as dd rounds it:
# human_readable in SI units, one decimal below 10, none above)
dd_run() {
    prefix=$1 cmd=$2 rec=$3 bs=$4 secs=$5 real=$6 sys=$7
    bytes=$((rec * bs))
    rate=$(python3 -c "
r = $bytes / $secs
for u, d in (('GB', 1e9), ('MB', 1e6), ('kB', 1e3)):
    if r >= d:
        v = r / d
        print(('%.1f' % v if v < 10 else '%.0f' % v) + ' ' + u); break")
    printf '%s time %s\n%s+0 records in\n%s+0 records out\n' "$prefix" "$cmd" "$rec" "$rec"
    printf '%s bytes (1.1 GB, 1.0 GiB) copied, %s s, %s/s\n\n' "$bytes" "$secs" "$rate"
    printf 'real\t0m%ss\nuser\t0m0.004s\nsys\t0m%ss\n\n' "$real" "$sys"
}

cd "$work" || fail "cd $work"
{
    for s in 4.00 4.05 4.10 4.15 4.20; do
        dd_run '#' "dd if=/dev/zero of=/dev/xvdb bs=1M count=1024 conv=fdatasync" 1024 1048576 "$s" "$s" 0.950
    done
    for s in 0.50 0.52 0.54; do
        dd_run '#' "dd if=/dev/zero of=/dev/xvdb bs=64k count=16k" 16384 65536 "$s" "$s" 0.480
    done
    for s in 2 2 2; do
        dd_run '#' "dd if=/dev/xvdb of=/dev/null bs=1M count=1024 iflag=direct" 1024 1048576 "$s" "$s" 0.120
    done
} >guest.txt
{
    for s in 4.60 4.65 4.70 4.75 4.80; do
        dd_run '#' "dd if=/dev/zero of=/dev/vg0/lv bs=1M count=1024 conv=fdatasync" 1024 1048576 "$s" "$s" 0.610
    done
    for s in 0.49 0.50 0.51; do
        dd_run '#' "sh -c \"dd if=/dev/zero of=/dev/vg0/lv bs=64k count=16k && sync\"" 16384 65536 "$s" 4.200 0.390
    done
    for s in 1.90 1.95 2.00; do
        dd_run '#' "dd if=/dev/vg0/lv of=/dev/null bs=1M count=1024 iflag=direct" 1024 1048576 "$s" "$s" 0.100
    done
} >host.txt

"$VMDISKCMP" import -q guest.txt --target lvm --kind lvm --where domU -o guest.json ||
    fail "import of the guest's transcripts failed"
"$VMDISKCMP" import -q host.txt --target dom0 --kind dom0 --where dom0 -o host.json ||
    fail "import of dom0's transcripts failed"
mkdir rep
"$VMDISKCMP" import -q guest.json host.json -o rep/result.json || fail "import of the two documents failed"
cp rep/result.json input.json

# ---- the flags each cell must have, from the transcripts' numbers ----------
python3 - guest.txt host.txt >expected-flags <<'PY' || fail "working out the expected flags failed"
import re, sys

def runs(path):
    """(test key, command, MiB/s, dd's seconds, real seconds) per transcript"""
    out, cmd, rate, secs = [], None, None, None
    for line in open(path):
        m = re.match(r"# time (.*)", line)
        if m:
            cmd = m.group(1)
        m = re.match(r"(\d+) bytes .* copied, ([\d.]+) s", line)
        if m:
            rate = int(m.group(1)) / float(m.group(2)) / 2**20
            secs = float(m.group(2))
        m = re.match(r"real\t0m([\d.]+)s", line)
        if m:
            bs = {"1M": 1048576, "64k": 65536}[re.search(r"bs=(\w+)", cmd).group(1)]
            test = "dd_read" if "of=/dev/null" in cmd else "dd_write"
            out.append((f"{test}@{bs}", cmd, rate, secs, float(m.group(1))))
    return out

def cells(path):
    c = {}
    for key, cmd, rate, secs, real in runs(path):
        c.setdefault(key, []).append((cmd, rate, secs, real))
    return c

ceiling = {"lvm": 600.0}          # --rate-ceiling /dev/xvdb=600, the guest's device
margin = 0.05
guest, host = cells(sys.argv[1]), cells(sys.argv[2])
mean = lambda xs: sum(xs) / len(xs)
flags = {}
for target, cs in (("lvm", guest), ("dom0", host)):
    for key, rs in cs.items():
        f = []
        if key.startswith("dd_write") and any(not re.search(r"conv=f(data)?sync|oflag=(direct|d?sync)", c)
                                              for c, _, _, _ in rs):
            f.append("page-cache-write")
        if any(s < 0.5 * real and real - s >= 0.5 for _, _, s, real in rs):
            f.append("dd-time-short")
        if target in ceiling and any(r > ceiling[target] for _, r, _, _ in rs):
            f.append("above-ceiling")
        if target == "lvm":
            g, h = mean([r for _, r, _, _ in rs]), mean([r for _, r, _, _ in host[key]])
            # more than the margin; summary.csv's ci95_delta_lo > 0 is checked below
            if g > (1 + margin) * h:
                f.append("guest-faster")
        if len(rs) >= 2 and len({r for _, r, _, _ in rs}) == 1:
            f.append("rounded-identical")
        flags[(target, key)] = f
for (target, key), f in sorted(flags.items()):
    if target == "lvm" and flags[("dom0", key)]:
        f = f + ["baseline-artefact"]
    print(target, key, ";".join(f))
PY
cat expected-flags
# the cells of the header's story, so that the rules cannot all be silent
grep -qx "lvm dd_write@1048576 guest-faster" expected-flags || fail "fixture: guest-faster not expected"
grep -qx "lvm dd_write@65536 page-cache-write;above-ceiling;baseline-artefact" expected-flags ||
    fail "fixture: the guest's buffered writes"
grep -qx "dom0 dd_write@65536 page-cache-write;dd-time-short" expected-flags || fail "fixture: dom0's buffered writes"
grep -qx "lvm dd_read@1048576 rounded-identical" expected-flags || fail "fixture: the guest's reads"
grep -qx "dom0 dd_read@1048576 " expected-flags || fail "fixture: dom0's reads must have no flag"

# ---- report -----------------------------------------------------------------
"$VMDISKCMP" report rep --rate-ceiling /dev/xvdb=600 2>report.err >/dev/null || fail "report failed: $(cat report.err)"
cmp -s input.json rep/result.json || fail "report modified result.json"
# summary.csv: the artefact keywords (after the others) as worked out above;
# guest-faster only with the delta's CI above 0
python3 - rep/summary.csv expected-flags <<'PY' || fail "summary.csv flags differ from the expected ones"
import csv, sys
rows = {(r["target"], r["test"]): r for r in csv.DictReader(open(sys.argv[1], encoding="utf-8"))}
art = ["page-cache-write", "dd-time-short", "above-ceiling", "cached-reread", "guest-faster",
       "rounded-identical", "baseline-artefact"]
for line in open(sys.argv[2]):
    target, key, want = (line.rstrip("\n").split(" ") + [""])[:3]
    r = rows[(target, key)]
    got = [k for k in r["flags"].split(";") if k in art]
    assert got == [k for k in want.split(";") if k], (target, key, got, want)
    if "guest-faster" in got:
        assert float(r["ci95_delta_lo"]) > 0 and float(r["delta_percent"]) > 5, r
print("summary.csv flags as expected")
PY

golden_check artefacts "$golden/expected" rep report.txt report.csv summary.csv report.json report.md

# report.txt: the flagged means and the marked deltas carry the mark, the
# unflagged cell does not; the verdict line counts the marked deltas
sed -n '/^dd write (if=\/dev\/zero) at block size 64 KiB$/,/^dd /p' rep/report.txt >w64
grep -Eq '^  dom0 +n=3 +[0-9.]+‡ MiB/s' w64 || fail "report.txt: dom0's dd_write@65536 mean unmarked: $(cat w64)"
grep -Eq '^  lvm .*‡ MiB/s .*% n/c‡$' w64 || fail "report.txt: lvm's dd_write@65536 delta unmarked: $(cat w64)"
sed -n '/^dd read (of=\/dev\/null) at block size 1 MiB$/,/^dd /p' rep/report.txt >r1m
grep -Eq '^  dom0 +n=3 +[0-9.]+ MiB/s' r1m || fail "report.txt: dom0's dd_read@1048576 must be unmarked: $(cat r1m)"
grep -q '^Verdict: lvm relative to dom0: .*(of 3 tests; 3 marked ‡, may be artefacts)$' rep/report.txt ||
    fail "report.txt: verdict line does not count the marked deltas: $(grep '^Verdict' rep/report.txt)"
# stderr: the report's warnings, exactly the lines of statistics.warnings,
# with one line per artefact flag
grep '^vmdiskcmp: WARNING: ' report.err | sed 's/^vmdiskcmp: WARNING: //' >stderr.lines
python3 - rep/report.json stderr.lines expected-flags <<'PY' || fail "stderr and statistics.warnings differ"
import json, sys
w = json.load(open(sys.argv[1], encoding="utf-8"))["statistics"]["warnings"]
lines = [l.rstrip("\n") for l in open(sys.argv[2], encoding="utf-8")]
assert w == lines, (w, lines)
# a line names the target and the test by the field's name ("‡ target lvm
# on dd write (if=/dev/zero) at block size 64 KiB, page-cache-write: "):
# counted by target and flag
import collections, re
want = 0
expect, got = collections.Counter(), collections.Counter()
for l in open(sys.argv[3]):
    target, key, f = (l.rstrip("\n").split(" ") + [""])[:3]
    for k in f.split(";"):
        if k and k != "baseline-artefact":
            want += 1
            expect[(target, k)] += 1
for x in w:
    m = re.match(r"‡ target (\S+) on .*, ([a-z0-9-]+): ", x)
    if m:
        got[m.groups()] += 1
assert got == expect, (got, expect)
assert sum(1 for x in w if x.startswith("‡ target ")) == want, w
assert sum(1 for x in w if x.startswith("‡ may be an artefact")) == 1, w
print(want, "artefact lines")
PY
grep -q 'id="artefacts"' rep/report.html || fail "report.html: no artefact legend"
n=$(grep -c 'class="warn artefact" id="artefact-' rep/report.html)
[ "$n" = "$(grep -c '^‡ target ' stderr.lines)" ] || fail "report.html: $n artefact paragraphs"
grep -q 'may be an artefact">' rep/report.html || fail "report.html: a marked delta has no tooltip"

# ---- compare: the same marks and lines ----------------------------------------
"$VMDISKCMP" compare rep/result.json --rate-ceiling /dev/xvdb=600 -q >cmp.txt || fail "compare failed"
grep -Eq '^dd write .* [0-9.]+‡ \(3\) .*% n/c‡$' cmp.txt || fail "compare text: no marked row: $(cat cmp.txt)"
grep -qF 'WARNING: ‡ target lvm on dd write (if=/dev/zero) at block size 1 MiB, guest-faster: ' cmp.txt ||
    fail "compare text: no guest-faster warning"
"$VMDISKCMP" compare rep/result.json --rate-ceiling /dev/xvdb=600 -q --format md >cmp.md || fail "compare md failed"
# an artefact withholds the verdict (n/c), as in the headline
grep -q '| +14.6% n/c‡ \[' cmp.md || fail "compare md: the guest-faster delta is unmarked: $(cat cmp.md)"
"$VMDISKCMP" compare rep/result.json --rate-ceiling /dev/xvdb=600 -q --format json >cmp.json || fail "compare json failed"
python3 - cmp.json <<'PY' || fail "compare json: artefacts missing"
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
c = {(x["target"], x["test"]): x for x in d["comparisons"]}
assert c[("lvm", "dd_write@1048576")]["artefacts"] == ["guest-faster"], c
assert c[("lvm", "dd_write@1048576")]["verdict"] == "not comparable", c
assert c[("lvm", "dd_write@1048576")]["not_comparable"] == "guest-faster on lvm", c
p = {(x["target"], x["test"]): x for x in d["per_target"]}
assert [a["flag"] for a in p[("lvm", "dd_write@65536")]["artefacts"]] == ["page-cache-write", "above-ceiling"]
assert "artefacts" not in p[("dom0", "dd_read@1048576")]
PY
# without the ceiling, above-ceiling is not decided
"$VMDISKCMP" compare rep/result.json -q --format csv >noceil.csv || fail "compare without --rate-ceiling failed"
if grep -q 'above-ceiling' noceil.csv; then fail "above-ceiling without a stated ceiling"; fi
echo "ok: artefact flags in report and compare"
